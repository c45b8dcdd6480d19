"""The module index of docs/architecture.md: every module of the library (``manoeuvre_sim/``,
``cli/``, ``analyses/``), one line each, its docstring's first sentence, grouped by folder.

    python scripts/module_index.py          # rewrite the index between its two markers
    python scripts/module_index.py --check  # exit 1, naming what differs, when it is stale

The descriptions are the modules' own (each module's docstring is written by hand, where the
code is); this script only lays them out, so the index cannot drift from the tree:
``tests/test_docs.py`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- module index: scripts/module_index.py writes what follows -->"
END = "<!-- end of the module index -->"
FOLDERS = ("manoeuvre_sim", "cli", "analyses")


def modules() -> list[Path]:
    """Every module file of the library, sorted by path (``__main__`` and empty
    ``__init__`` files left out)."""
    out = []
    for top in FOLDERS:
        for p in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" in p.parts or p.name == "__main__.py":
                continue
            if p.name == "__init__.py" and not p.read_text().strip():
                continue
            out.append(p)
    return out


def first_sentence(path: Path) -> str:
    """The first sentence of the module's docstring, on one line (``(no docstring)``)."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or "(no docstring)"
    text = " ".join(doc.split("\n\n")[0].split())
    m = re.match(r"(.+?\.)(\s|$)", text)
    text = (m.group(1) if m else text).rstrip(":;.") + "."
    # a command quoted in a docstring is named, not shown as a runnable example (the docs'
    # test runs every `manoeuvre-sim ...` example it finds in a code span)
    return re.sub(r"``(manoeuvre-sim [^`]*)``", r'"\1"', text).replace("``", "`")


def index() -> str:
    """The index as Markdown: a table per folder, a row per module."""
    lines: list[str] = []
    folder = None
    for p in modules():
        rel = p.relative_to(ROOT)
        if rel.parent != folder:
            folder = rel.parent
            lines += ["", f"**`{folder.as_posix()}/`**", "", "| module | what it is |", "|---|---|"]
        lines.append(f"| `{rel.name}` | {first_sentence(p).replace('|', '/')} |")
    return "\n".join(lines).lstrip("\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the index is stale")
    a = ap.parse_args(argv)
    text = DOC.read_text()
    if BEGIN not in text or END not in text:
        print(f"{DOC}: expected the markers {BEGIN!r} and {END!r}", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n\n{index()}\n\n{END}{tail}"
    if a.check:
        if new != text:
            print(f"{DOC}: the module index is stale (python scripts/module_index.py)",
                  file=sys.stderr)  # fmt: skip
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
