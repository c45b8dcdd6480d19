"""A study kind's declared command (``core/study_command.py``): its declarations read from a
module's source without importing it (what ``--help`` lists), the same values as the
imported module's, and the import taken where a value is no literal."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from manoeuvre_sim.core import study_command as SC

SOURCE = '''
"""A module whose import would fail: reading it must not import it."""
raise ImportError("imported")
'''


@pytest.fixture
def module(tmp_path, monkeypatch):
    """A maker of modules on the path whose source is ``SOURCE`` and the test's."""

    def make(body: str) -> str:
        name = f"declared_probe_{abs(hash(str(tmp_path)))}_{len(list(tmp_path.iterdir()))}"
        (tmp_path / f"{name}.py").write_text(SOURCE + textwrap.dedent(body))
        importlib.invalidate_caches()
        return name

    monkeypatch.syspath_prepend(str(tmp_path))
    return make


def test_literals_are_read_from_the_source_without_importing(module):
    name = module("""
        OWN = {"seats": "a.b"}
        COMMAND = StudyCommand(
            help="One line."
            " Still one.",
            options=(Option("--x"),),  # no literal: not needed for the help
            face="own",
        )  # fmt: skip
        def f():
            pass
        from os import path as p
        NOTHING = None
        """)
    assert SC.declared(name, "OWN") == {"seats": "a.b"}
    assert SC.declared(name, "COMMAND", "help") == "One line. Still one."
    assert SC.declared(name, "COMMAND", "face") == "own"
    assert SC.declared(name, "COMMAND", "requires") is ...  # not given
    assert SC.declared(name, "ABSENT") is ...
    assert SC.declared(name, "NOTHING", "help") is ...
    assert SC.defines(name, "f") and SC.defines(name, "p") and SC.defines(name, "COMMAND")
    assert not SC.defines(name, "NOTHING") and not SC.defines(name, "ABSENT")
    assert name not in sys.modules


def test_a_value_that_is_no_literal_is_read_from_the_imported_module(module):
    name = module("""
        HELP = "x".upper()
        COMMAND = StudyCommand(help=HELP, requires=("X",), **more)
        """)
    for args in ((name, "HELP"), (name, "COMMAND", "help"), (name, "COMMAND", "face")):
        with pytest.raises(ImportError, match="imported"):  # it is imported, as it must be
            SC.declared(*args)
    assert SC.declared(name, "COMMAND", "requires") == ("X",)


def test_every_kind_declares_what_its_imported_module_holds():
    """What the listing reads from each kind's source (an imported module is read as
    imported: its source is read here) equals the imported ``COMMAND``."""
    from manoeuvre_sim import studies
    from manoeuvre_sim.core.games import BUILT_IN

    for game in BUILT_IN:
        for kind, module in studies.kinds(game).items():
            cmd = SC.command_of(studies.find(game, kind))
            path = SC._source(module)
            read = SC._assigned(str(path), path.stat().st_mtime_ns, "COMMAND")
            if cmd is None:
                assert read == {"": None}, (game, kind)
                continue
            got = (read["help"], read.get("face", "study"), tuple(read.get("requires", ())))
            assert got == (cmd.help, cmd.face, cmd.requires), (game, kind)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: SC.Option("games"), "a flag starts with --"),
        (lambda: SC.Option("--games", type="number"), "is not one of"),
        (lambda: SC.StudyCommand(help="two\nlines"), "help is one line"),
        (lambda: SC.StudyCommand(help="x", face="pages"), "face 'pages'"),
    ],
)
def test_a_bad_declaration_is_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()
