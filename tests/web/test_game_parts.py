"""The names a game's web module may define, declared once (``web.game_parts.PARTS``): the
built-in games' web packages export those their submodules define (``parts_of``), each the
submodule's own object; a part two submodules define, or a part not declared, is refused."""

from __future__ import annotations

import importlib
import types

import pytest

from manoeuvre_sim.web.game_parts import PARTS, parts_of, web_module, web_part


@pytest.mark.parametrize("key, missing",
                         [("manoeuvre", set()), ("hex", {"replay_form", "ended_by"})])  # fmt: skip
def test_a_built_in_web_module_exports_its_parts_by_the_declared_names(key, missing):
    m = web_module(key)
    assert list(m.__all__) == [n for n in PARTS if hasattr(m, n)]
    # hex replays no game from a form, and a game's end is its victory as it is
    assert set(PARTS) - set(m.__all__) == missing
    forms = importlib.import_module(f"{m.__name__}.forms")
    views = importlib.import_module(f"{m.__name__}.views")
    assert m.balance_form is forms.balance_form and m.library_defaults is forms.library_defaults
    assert m.STUDY_VIEWS is views.STUDY_VIEWS and web_part(key, "ROUTES") is m.ROUTES


def test_a_part_two_modules_define_is_refused():
    a, b = types.ModuleType("parts_a"), types.ModuleType("parts_b")
    a.ROUTES, b.ROUTES, b.not_a_part = [], [], 1
    assert parts_of(a) == {"ROUTES": []}
    assert "not_a_part" not in parts_of(b)
    with pytest.raises(ValueError, match="parts_b: ROUTES is a web part of another module too"):
        parts_of(a, b)


def test_a_part_not_declared_is_refused():
    with pytest.raises(ValueError, match="'STUDY_VIEW' is not a web part of a game"):
        web_part("manoeuvre", "STUDY_VIEW")
