"""The README and the user guide (docs/*.md) stay true to the repository and the command line.

- every relative link resolves to a file of the checkout, and every ``#anchor`` to a heading
  of the page it names (GitHub's slugs);
- every command example — a line of a fenced block beginning ``manoeuvre-sim`` (or
  ``.venv/bin/manoeuvre-sim``, or either after ``$ ``), and inline code in prose beginning
  ``manoeuvre-sim `` — names an existing (sub)command, resolved through the click groups
  (nested ones such as ``manoeuvre-sim hex ...`` too), whose ``--help`` runs, and every
  option it shows is one of that command's;
- every ``make TARGET`` shown in code is a target of the Makefile.

Fast: the subcommands are imported lazily and ``--help`` compiles no numba kernel.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from functools import cache
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from manoeuvre_sim.cli.main import cli

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted([REPO / "README.md", *(REPO / "docs").glob("*.md")])

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
COMMAND_START = re.compile(r"^(?:\$\s+)?(?:\.venv/bin/)?manoeuvre-sim(?:\s|$)")


def rel(page: Path) -> str:
    return str(page.relative_to(REPO))


def split_page(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(prose lines, fenced code lines), each as (line number, text)."""
    prose, code = [], []
    fence = None
    for n, line in enumerate(text.splitlines(), start=1):
        m = FENCE.match(line)
        if m and (fence is None or m.group(1) == fence):
            fence = m.group(1) if fence is None else None
            continue
        (code if fence else prose).append((n, line))
    return prose, code


# ---- links and anchors -------------------------------------------------------------------


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its rendered text lower-cased, every character
    that is not a letter, mark, digit, connector (``_``), hyphen or space dropped, spaces
    turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*|(?<!\w)_|_(?!\w))", "", text)  # emphasis markers
    out = []
    for ch in text.strip().lower():
        cat = unicodedata.category(ch)
        if ch in " -" or cat[0] in "LMN" or cat == "Pc":
            out.append(ch)
    return "".join(out).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    prose, _ = split_page(page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose:
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = github_slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(found)


def links(page: Path) -> list[tuple[int, str]]:
    prose, _ = split_page(page.read_text(encoding="utf-8"))
    out = []
    for n, line in prose:
        line = INLINE_CODE.sub("", line)  # a link shown as code is not a link
        out += [(n, m.group(1)) for m in LINK.finditer(line)]
    return out


def link_problem(page: Path, target: str) -> str | None:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not checked here
        return None
    path, _, anchor = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    if not dest.exists():
        return f"no such file {path}"
    if REPO not in dest.parents and dest != REPO:
        return f"{path} is outside the repository"
    if anchor:
        if dest.suffix != ".md":
            return f"#{anchor} on a file that is not a Markdown page"
        if anchor not in anchors(dest):
            return f"{dest.name} has no heading #{anchor}"
    return None


def all_links() -> list[tuple[str, int, str]]:
    return [(rel(p), n, t) for p in PAGES for n, t in links(p)]


def test_the_guide_exists_and_the_readme_is_short():
    assert (REPO / "docs" / "README.md").is_file()
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 250
    # every page of the guide is reachable from its table of contents
    index = {t.partition("#")[0] for _, t in links(REPO / "docs" / "README.md")}
    unlisted = [p.name for p in PAGES if p.parent.name == "docs" and p.name != "README.md"]
    assert sorted(set(unlisted) - index) == []


def test_there_are_links_to_check():
    assert len(all_links()) > 50


@pytest.mark.parametrize("page,line,target", all_links(), ids=lambda v: str(v))
def test_link_resolves(page, line, target):
    problem = link_problem(REPO / page, target)
    assert problem is None, f"{page}:{line}: link {target}: {problem}"


def test_github_slugs():
    assert github_slug("Long studies: resume, merge, clusters") == (
        "long-studies-resume-merge-clusters"
    )
    assert github_slug("Set-up: the battlefield and the starting edges") == (
        "set-up-the-battlefield-and-the-starting-edges"
    )
    assert github_slug("`make run`: what it leaves") == "make-run-what-it-leaves"
    assert github_slug("The `tuned_new` style — 2026") == "the-tuned_new-style--2026"
    assert github_slug("Players (and [tuning](tuning.md))") == "players-and-tuning"


# ---- command examples --------------------------------------------------------------------


def code_commands(page: Path) -> list[tuple[int, str]]:
    return commands_in(page.read_text(encoding="utf-8"))


def commands_in(text: str) -> list[tuple[int, str]]:
    """Command examples of a page: (line, command text) with continuation lines joined."""
    prose, code = split_page(text)
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for n, line in code:
        text = line.strip()
        if pending is not None:
            start, acc = pending
            acc += " " + text
            pending = (start, acc[:-1]) if acc.endswith("\\") else None
            if pending is None:
                out.append((start, acc))
            continue
        if COMMAND_START.match(text):
            if text.endswith("\\"):
                pending = (n, text[:-1])
            else:
                out.append((n, text))
    for n, line in prose:
        for m in INLINE_CODE.finditer(line):
            if m.group(2).startswith("manoeuvre-sim "):
                out.append((n, m.group(2)))
    return out


def all_commands() -> list[tuple[str, int, str]]:
    return [(rel(p), n, c) for p in PAGES for n, c in code_commands(p)]


def option_names(command: click.Command, ctx: click.Context) -> dict[str, click.Parameter]:
    names = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                names[name] = param
    return names


def command_problem(text: str) -> str | None:
    """None when ``text`` names a real command with only its options, else what is wrong."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError as e:
        return f"cannot split the line: {e}"
    while words and words[0] == "$":
        words = words[1:]
    words = words[1:]  # the program
    words = words[: words.index("|")] if "|" in words else words
    path: list[str] = []
    command: click.Command = cli
    ctx = click.Context(cli, info_name="manoeuvre-sim")
    i = 0
    while i < len(words):
        word = words[i]
        if word.startswith("-") and len(word) > 1 and not re.match(r"^-\d", word):
            name = word.split("=", 1)[0]
            known = option_names(command, ctx)
            if name not in known:
                return f"{' '.join(['manoeuvre-sim', *path])} has no option {name}"
            param = known[name]
            takes_value = not (param.is_flag or param.count) and "=" not in word
            i += 2 if takes_value else 1
            continue
        if isinstance(command, click.Group):
            sub = command.get_command(ctx, word)
            if sub is None:
                return f"{' '.join(['manoeuvre-sim', *path])} has no subcommand {word!r}"
            path.append(word)
            command = sub
            ctx = click.Context(sub, info_name=word, parent=ctx)
        i += 1  # an argument of the command, or an option's value
    result = help_of(tuple(path))
    if result is not None:
        return result
    return None


@cache
def help_of(path: tuple[str, ...]) -> str | None:
    res = CliRunner().invoke(cli, [*path, "--help"], prog_name="manoeuvre-sim")
    if res.exit_code != 0:
        return f"manoeuvre-sim {' '.join(path)} --help exits {res.exit_code}: {res.output}"
    return None


def test_there_are_commands_to_check():
    commands = all_commands()
    assert len(commands) > 50
    assert any(c.startswith("manoeuvre-sim odds assault") for _, _, c in commands)


@pytest.mark.parametrize("page,line,command", all_commands(), ids=lambda v: str(v))
def test_command_example_is_real(page, line, command):
    problem = command_problem(command)
    assert problem is None, f"{page}:{line}: {command}\n{problem}"


def test_the_checker_catches_what_it_should():
    assert command_problem("manoeuvre-sim odds assault --strength 8 --dice 2d8") is None
    assert command_problem("manoeuvre-sim hex") is None
    assert "no option --strenght" in command_problem("manoeuvre-sim odds assault --strenght 8")
    assert "no subcommand 'asault'" in command_problem("manoeuvre-sim odds asault")
    assert "no subcommand" in command_problem("manoeuvre-sim hex play")
    assert "no option --games" in command_problem("manoeuvre-sim --games 5 simulate")


def test_commands_are_found_where_the_pages_show_them():
    page = """Run `manoeuvre-sim odds rockets --json` or `make run`.

```sh
$ .venv/bin/manoeuvre-sim odds assault --strength 8 \\
    --dice 2d8   # a comment
manoeuvre-sim-other --x
echo manoeuvre-sim balance
```

    manoeuvre-sim indented --prose-code
"""
    assert [c for _, c in commands_in(page)] == [
        "$ .venv/bin/manoeuvre-sim odds assault --strength 8  --dice 2d8   # a comment",
        "manoeuvre-sim odds rockets --json",
    ]
    assert command_problem(commands_in(page)[0][1]) is None


# ---- make targets ------------------------------------------------------------------------


def make_targets() -> set[str]:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    return {
        t for m in re.finditer(r"^([^\s:=#][^:=]*):(?!=)", text, re.M) for t in m.group(1).split()
    }


def make_mentions() -> list[tuple[str, int, str]]:
    out = []
    for page in PAGES:
        prose, code = split_page(page.read_text(encoding="utf-8"))
        for n, line in code:
            m = re.match(r"^\s*(?:\$\s+)?make\s+([\w./-]+)", line)
            if m:
                out.append((rel(page), n, m.group(1)))
        for n, line in prose:
            for m in INLINE_CODE.finditer(line):
                mm = re.match(r"^make\s+([\w./-]+)", m.group(2))
                if mm:
                    out.append((rel(page), n, mm.group(1)))
    return out


def test_make_targets_shown_exist():
    targets = make_targets()
    assert {"run", "test", "report"} <= targets
    mentions = make_mentions()
    assert len(mentions) >= 3
    missing = [f"{p}:{n}: make {t}" for p, n, t in mentions if t not in targets]
    assert missing == []


# ---- facts the guide states that the code holds -------------------------------------------


def test_players_parameter_table_matches_the_engine():
    """docs/players.md's table of the styles' parameters is the engine's vectors (3 decimals)."""
    from manoeuvre_sim.manoeuvre.engine.players import params

    vectors = {
        "attritional": params.ATTRITIONAL,
        "territorial": params.TERRITORIAL,
        "balanced": params.BALANCED,
        "tuned": params.TUNED,
    }
    text = (REPO / "docs" / "players.md").read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| parameter |"))
    styles = [c.strip() for c in header.strip("|").split("|")][2:]
    assert styles == list(vectors)
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\| `(\w+)` \|[^|]*\|((?:[^|]*\|){4})\s*$", line)
        if m and m.group(1) in params.PARAM_NAMES:
            rows[m.group(1)] = [float(c) for c in m.group(2).strip("|").split("|")]
    assert sorted(rows) == sorted(params.PARAM_NAMES)
    for k, name in enumerate(params.PARAM_NAMES):
        for style, shown in zip(styles, rows[name], strict=True):
            assert shown == pytest.approx(round(float(vectors[style][k]), 3), abs=1e-9), (
                f"docs/players.md: {name} of {style} is {shown}, the engine has {vectors[style][k]}"
            )


def test_the_architecture_names_every_module():
    """docs/architecture.md's module index holds every module of the library, each with its
    docstring's first sentence, and no module that is gone (scripts/module_index.py)."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, str(REPO / "scripts" / "module_index.py"), "--check"],
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
