"""The repository needs nothing beside it (issue 23 part 1): no file refers to a folder
outside the checkout.

Every file of the repository (``git ls-files``: tracked and not-ignored new files; without
git, a walk of the tree leaving out .git, .venv, reports/ and caches) is read line by line.

Strict, for anything that could be read at run or build time (every file but prose:
``*.py``, the Makefile, ``.ci/``, ``*.toml``, ``*.cfg``, ``*.sh``, ``*.txt`` ...):

- an upward path to the workplace's shared folder (dot-dot, slash, "shared");
- a path component "shared" joined onto a path (``root / "shared"``, ``join(.., "shared")``);
- an absolute machine path: the workplace (slash-work-slash), a home folder (slash-home,
  slash-Users, slash-root), a Windows user folder;
- climbing above the checkout from ``__file__``: ``parents[n]`` or a chain of ``.parent``
  reaching past the repository's root for that file's depth, or the parent of a variable
  named for the root (``REPO.parent``, ``ROOT.parent``, ``HERE.parent``);
- in the Makefile and ``.ci/``: any upward relative path at all.

Prose (``*.md``) is read by people, never by the code, so it may cite a document of the
shared folder by name, as the rule interpretations cite the rulebooks: a shared path is
allowed there only as ``<dot-dot>/shared/rules/<file>`` or ``<dot-dot>/shared/DESIGN.md``.
Any other mention of the shared folder in prose (its reference facts, the folder itself) is
refused, except in the provenance note of the copied facts,
``tests/fixtures/reference/README.md``, which says where they came from. Absolute machine
paths are refused in prose too.

This file itself is the one file not scanned: it holds the patterns and examples of each
(the parametrized tests below check that each kind is caught and each allowance holds).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

DOTDOT = r"\.\."
SHARED_UP = re.compile(DOTDOT + r"[/\\]+shared\b")
SHARED_JOIN = re.compile(r"""/\s*["']shared["']|join\([^)]*["']shared["']""")
ABSOLUTE = re.compile(r"/wor[k]/|/hom[e]/\w|/User[s]/\w|/roo[t]/|[A-Za-z]:\\\\?User[s]")
PARENTS = re.compile(r"__file__\)?(?:\.resolve\(\))?\.parents\[(\d+)\]")
PARENT_CHAIN = re.compile(r"__file__\)?(?:\.resolve\(\))?((?:\.parent\b)+)")
ROOT_PARENT = re.compile(r"\b(?:REPO|ROOT|HERE|REPO_ROOT|PROJECT)\w*\.parent\b")
UPWARD = re.compile(DOTDOT + r"[/\\]")
PROSE_CITATION = re.compile(DOTDOT + r"/shared/(?:rules/|DESIGN\.md)")

SELF = "tests/test_self_contained.py"
PROVENANCE = "tests/fixtures/reference/README.md"
SKIP_DIRS = {".git", ".venv", "reports", "__pycache__", ".pytest_cache", ".ruff_cache", "build"}


def repo_files() -> list[str]:
    """Paths (relative, with /) of the repository's files."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        files = [f for f in out.splitlines() if (REPO / f).is_file()]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for p in REPO.rglob("*"):
        rel = p.relative_to(REPO)
        if p.is_file() and not (set(rel.parts) & SKIP_DIRS) and ".egg-info" not in str(rel):
            found.append(rel.as_posix())
    return found


def findings(rel: str, text: str) -> list[str]:
    """``file:line: what`` for each reference of ``text`` (the file ``rel``) to a folder
    outside the checkout, by the rules of the module docstring."""
    depth = len(Path(rel).parts) - 1  # parents[depth] of this file is the repository root
    prose = rel.endswith(".md")
    build = rel == "Makefile" or rel.startswith(".ci/")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        why = []
        if ABSOLUTE.search(line):
            why.append("an absolute machine path")
        if prose:
            rest = PROSE_CITATION.sub("", line)
            if SHARED_UP.search(rest) and rel != PROVENANCE:
                why.append("the shared folder (prose may only cite its rulebooks/DESIGN.md)")
        else:
            if SHARED_UP.search(line) or SHARED_JOIN.search(line):
                why.append("the shared folder")
            for m in PARENTS.finditer(line):
                if int(m.group(1)) > depth:
                    why.append(f"parents[{m.group(1)}] climbs above the checkout")
            for m in PARENT_CHAIN.finditer(line):
                if m.group(1).count(".parent") - 1 > depth:
                    why.append("a .parent chain climbs above the checkout")
            if ROOT_PARENT.search(line):
                why.append("the parent of the repository root")
            if build and UPWARD.search(line):
                why.append("an upward path in the build")
        out += [f"{rel}:{n}: {w}: {line.strip()}" for w in why]
    return out


def test_no_file_refers_to_a_folder_outside_the_checkout():
    bad = []
    files = repo_files()
    assert "tests/conftest.py" in files and len(files) > 100
    for rel in files:
        if rel == SELF:
            continue  # the patterns and their examples
        try:
            text = (REPO / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # a binary file (a PNG): no paths to read
        bad += findings(rel, text)
    assert not bad, "files refer to folders outside the checkout:\n" + "\n".join(bad)


UP = ".." + "/"


@pytest.mark.parametrize(
    "rel, line",
    [
        ("tests/conftest.py", 'SHARED = REPO.parent / "shared"'),
        ("tests/conftest.py", f'ref = Path("{UP}shared/reference")'),
        ("tests/x.py", "ROOT = Path(__file__).resolve().parents[2]"),
        ("manoeuvre_sim/engine/x.py", "p = Path(__file__).parent.parent.parent.parent"),
        ("manoeuvre_sim/x.py", 'p = os.path.join(base, "shared", "reference")'),
        ("cli/x.py", 'p = "/wor' + 'k/shared/rules"'),
        ("analyses/x.py", 'p = "/hom' + 'e/alice/data.csv"'),
        ("Makefile", f"\tcp {UP}base/x.csv data/"),
        ("docs/GUIDE.md", f"The facts live in `{UP}shared/reference`."),
        ("docs/GUIDE.md", "Run it from /wor" + "k/main."),
    ],
)
def test_each_kind_of_outside_reference_is_caught(rel, line):
    assert findings(rel, line + "\n")


@pytest.mark.parametrize(
    "rel, line",
    [
        ("tests/conftest.py", "REPO = Path(__file__).resolve().parents[1]"),
        ("manoeuvre_sim/engine/x.py", "PACKAGE = Path(__file__).resolve().parents[2]"),
        ("manoeuvre_sim/engine/x.py", "p = Path(__file__).parent.parent"),
        ("docs/RULE_INTERPRETATIONS.md", f"the rulebook (`{UP}shared/rules/003_…`)"),
        (PROVENANCE, f"copied from `{UP}shared/reference/`"),
        ("manoeuvre_sim/core/backend.py", "[data] = client.scatter([shared], broadcast=True)"),
    ],
)
def test_what_is_allowed(rel, line):
    assert findings(rel, line + "\n") == []
