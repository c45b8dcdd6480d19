"""Every bounded parameter of the workbench at its exact bound: the bound itself is accepted
and the next value refused with its one line (a probe turned a ``<=`` into a ``<`` and only
a test that happened to use the bound noticed).

Each row of :data:`BOUNDS` is read from the code's own constants (``MAX_*`` and the form
fields' ``lo``/``hi``), so a changed constant moves the test with it while an off-by-one in
the check fails it; each row calls the code a request runs (the form reader, the job
builder, the replay's parameter reader, the pairing page), not a copy of its check. The
command line's bounds are in ``tests/test_bounds_cli.py``."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.manoeuvre.combat_totals import MAX_COMMITTED
from manoeuvre_sim.web.games.hex import odds_forms as hex_forms
from manoeuvre_sim.web.games.hex import replay as hex_replay
from manoeuvre_sim.web.games.manoeuvre import odds
from manoeuvre_sim.web.games.manoeuvre import odds_forms as man_forms
from manoeuvre_sim.web.games.manoeuvre import replay as manoeuvre_replay
from manoeuvre_sim.web.jobs import forms as whatif_forms
from manoeuvre_sim.web.jobs import kinds as jobs_kinds
from manoeuvre_sim.web.jobs import pages as jobs
from manoeuvre_sim.web.odds import forms
from manoeuvre_sim.web.params import MAX_VALUE_CHARS, Params
from manoeuvre_sim.web.replay import data as replay_data
from manoeuvre_sim.web.studies import pages as studies
from tests.web.study_fixtures import studies_root  # noqa: F401 (a fixture)


class Bound(NamedTuple):
    """``check(value)`` runs the code a request runs with the parameter at ``value``;
    ``at`` must pass, ``beyond`` (the next value past it) must raise ``message``."""

    id: str
    check: Callable[[int], object]
    at: int
    beyond: int
    message: str


def _field_rows() -> list[Bound]:
    """Every odds form field with a lower or upper bound, both ends."""
    rows, seen = [], set()
    for kind, fields in [*man_forms.FORMS.items(), *(("hex " + k, v) for k, v in hex_forms.HEX_FORMS.items())]:  # fmt: skip
        for f in fields:
            if f.type != "int" or (f.name, f.lo, f.hi) in seen or (f.lo is None and f.hi is None):
                continue
            seen.add((f.name, f.lo, f.hi))

            def check(v, f=f, fields=fields):
                return man_forms.read(Params({f.name: str(v)}), fields)

            both = f"expected an integer from {f.lo} to {f.hi}, got"
            if f.hi is not None:
                msg = both if f.lo is not None else f"expected an integer <= {f.hi}, got"
                rows.append(Bound(f"odds {kind} {f.option} upper", check, f.hi, f.hi + 1,
                                  f"{f.option}: {msg} {f.hi + 1}"))  # fmt: skip
            if f.lo is not None:
                msg = both if f.hi is not None else f"expected an integer >= {f.lo}, got"
                rows.append(Bound(f"odds {kind} {f.option} lower", check, f.lo, f.lo - 1,
                                  f"{f.option}: {msg} {f.lo - 1}"))  # fmt: skip
    return rows


def _repeat_rows() -> list[Bound]:
    """Every repeatable odds form field: at most MAX_REPEAT values."""
    rows, seen = [], set()
    for fields in [*man_forms.FORMS.values(), *hex_forms.HEX_FORMS.values()]:
        for f in fields:
            if f.type not in ("ints", "strs") or f.name in seen:
                continue
            seen.add(f.name)

            def check(n, f=f, fields=fields):
                return man_forms.read(Params({f.name: ["4"] * n}), fields)

            rows.append(Bound(f"odds {f.option} repeated", check, forms.MAX_REPEAT,
                              forms.MAX_REPEAT + 1,
                              f"{f.option}: at most {forms.MAX_REPEAT} values on this page, "
                              f"got {forms.MAX_REPEAT + 1}"))  # fmt: skip
    return rows


def _table_sizes() -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(mixes, strengths, defenses) giving exactly MAX_TABLE_ROWS rows, and the smallest
    table past it (a range holds at most 201 values, a request at most MAX_REPEAT mixes)."""
    grid = itertools.product(range(1, forms.MAX_REPEAT + 1), range(1, 202), range(1, 202))
    sizes = sorted((m * s * d, (m, s, d)) for m, s, d in grid if m * s * d >= odds.MAX_TABLE_ROWS)
    assert sizes[0][0] == odds.MAX_TABLE_ROWS, "no table of exactly the cap: pick another test"
    return sizes[0][1], next(x for n, x in sizes if n > odds.MAX_TABLE_ROWS)


AT_TABLE, PAST_TABLE = _table_sizes()


def _table(rows: int):
    m, s, d = AT_TABLE if rows == odds.MAX_TABLE_ROWS else PAST_TABLE
    mixes = ("1d6", "1d8", "1d10", "1d12", "2d6", "2d8", "2d10", "1d20")[:m]
    args = man_forms.read(Params({"mix": list(mixes), "strengths": f"0..{s - 1}",
                              "defenses": f"1..{d}"}), man_forms.FORMS["table"])  # fmt: skip
    text, n = odds._table(args)
    assert n == rows
    return text


def _table_committed(v: int):
    """The table page's Committed Attacks (each adds 2d6 to every mix: unbounded, one
    request could ask for a convolution of millions of dice)."""
    query = {"mix": "1d6", "strengths": "0", "defenses": "1", "committed": str(v)}
    return odds._table(man_forms.read(Params(query), man_forms.FORMS["table"]))


def _past_rows() -> int:
    m, s, d = PAST_TABLE
    return m * s * d


def _replay(name: str, **extra):
    return lambda v: manoeuvre_replay.game_info(
        Params({"army_a": "France", "army_b": "Russia", name: str(v), **extra}), Path("/nowhere")
    )


def _hex_replay(name: str):
    return lambda v: hex_replay.game_options(Params({name: str(v)}), Path("/nowhere"))


def _job(kind: str, opts: dict):
    return lambda v: jobs_kinds.build(kind, opts | {"games_per_pairing": v})


MAXG, MAXI, SEED = jobs_kinds.MAX_GAMES_PER_PAIRING, replay_data.MAX_GAME_INDEX, 2**63 - 1
CAP = manoeuvre_replay.MAX_TURNS_CAP

BOUNDS = [
    Bound("any parameter's length", lambda n: Params({"x": "9" * n}), MAX_VALUE_CHARS,
          MAX_VALUE_CHARS + 1,
          f"--x: expected at most {MAX_VALUE_CHARS} characters, got {MAX_VALUE_CHARS + 1}"),
    *_field_rows(),
    *_repeat_rows(),
    Bound("odds table rows", _table, odds.MAX_TABLE_ROWS, _past_rows(),
          f"the table would have {_past_rows():,} rows; this page makes at most "
          f"{odds.MAX_TABLE_ROWS:,} (use manoeuvre-sim odds table for more)"),
    Bound("odds table --committed", _table_committed, MAX_COMMITTED, MAX_COMMITTED + 1,
          f"--committed: expected an integer <= {MAX_COMMITTED}, got {MAX_COMMITTED + 1}"),
    Bound("job balance --games-per-pairing", _job("balance", {"armies": ["France", "Russia"]}),
          MAXG, MAXG + 1,
          f"--games-per-pairing: expected at most {MAXG} on the workbench, got {MAXG + 1}"),
    Bound("job hex balance --games-per-pairing", _job("hex balance", {}), MAXG, MAXG + 1,
          f"--games-per-pairing: expected at most {MAXG} on the workbench, got {MAXG + 1}"),
    Bound("replay --game upper", _replay("game"), MAXI, MAXI + 1,
          f"--game: expected a game index <= {MAXI}, got {MAXI + 1}"),
    Bound("replay --game lower", _replay("game"), 0, -1,
          "--game: expected a game index >= 0, got -1"),
    Bound("replay --max-turns upper", _replay("max_turns"), CAP, CAP + 1,
          f"--max-turns: expected an integer from 1 to {CAP}, got {CAP + 1}"),
    Bound("replay --max-turns lower", _replay("max_turns"), 1, 0,
          f"--max-turns: expected an integer from 1 to {CAP}, got 0"),
    Bound("replay --seed upper", _replay("seed"), SEED, SEED + 1,
          f"--seed: expected an integer from 0 to {SEED}, got {SEED + 1}"),
    Bound("replay --seed lower", _replay("seed"), 0, -1,
          f"--seed: expected an integer from 0 to {SEED}, got -1"),
    Bound("hex replay --turns upper", _hex_replay("turns"), 100, 101,
          "--turns: expected an integer from 1 to 100, got 101"),
    Bound("hex replay --turns lower", _hex_replay("turns"), 1, 0,
          "--turns: expected an integer from 1 to 100, got 0"),
    Bound("hex replay --seed upper", _hex_replay("seed"), SEED, SEED + 1,
          f"--seed: expected an integer from 0 to {SEED}, got {SEED + 1}"),
    Bound("hex replay --game upper", _hex_replay("game"), MAXI, MAXI + 1,
          f"--game: expected a game index <= {MAXI}, got {MAXI + 1}"),
]  # fmt: skip


@pytest.mark.parametrize("b", BOUNDS, ids=[b.id for b in BOUNDS])
def test_the_bound_is_accepted_and_the_next_value_refused_in_one_line(b):
    b.check(b.at)
    with pytest.raises(UsageError) as e:
        b.check(b.beyond)
    assert str(e.value) == b.message
    assert "\n" not in str(e.value)


def test_the_tables_rows_are_read_from_the_code():
    """Every bounded or repeatable odds field has its rows (a new one gets them without an
    edit here)."""
    fields = [f for fs in [*man_forms.FORMS.values(), *hex_forms.HEX_FORMS.values()] for f in fs]
    ids = " ".join(b.id for b in BOUNDS)
    for f in fields:
        if f.hi is not None or f.lo is not None:
            assert f"{f.option} upper" in ids or f.hi is None, f.name
            assert f"{f.option} lower" in ids or f.lo is None, f.name
        if f.type in ("ints", "strs"):
            assert f"odds {f.option} repeated" in ids, f.name
    assert "odds assault --simulate upper" in ids


@pytest.fixture
def pairings(studies_root):  # noqa: F811
    from manoeuvre_sim.web.app import create_app
    from tests.web.server import local_client

    with local_client(create_app(studies_root), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize(
    "name, at, beyond, message",
    [("size", studies.MAX_PAGE_SIZE, studies.MAX_PAGE_SIZE + 1,
      f"--size: expected an integer from 1 to {studies.MAX_PAGE_SIZE}, got "
      f"{studies.MAX_PAGE_SIZE + 1}"),
     ("size", 1, 0, f"--size: expected an integer from 1 to {studies.MAX_PAGE_SIZE}, got 0"),
     ("page", "LAST", "LAST+1", "--page: expected an integer from 1 to LAST, got LAST+1"),
     ("page", 1, 0, "--page: expected an integer from 1 to 1000000, got 0")],
)  # fmt: skip
def test_a_pairing_pages_bounds(pairings, studies_root, name, at, beyond, message):  # noqa: F811
    """The games table's page size, and its page number up to the last page (pages of one
    game: the pairing's number of games)."""
    import pandas as pd

    from tests.web.test_studies import error_line

    games = pd.read_parquet(studies_root / "balance/games.parquet")
    last = int((games["pairing"] == 0).sum())
    assert last > 1

    def value(v):
        return {"LAST": last, "LAST+1": last + 1}.get(v, v)

    message = message.replace("LAST+1", str(last + 1)).replace("LAST", str(last))
    url = "/study/pairing?dir=balance&pairing=0&" + ("size=1&" if name == "page" else "")
    assert pairings.get(f"{url}{name}={value(at)}").status_code == 200
    r = pairings.get(f"{url}{name}={value(beyond)}")
    assert r.status_code == 400 and error_line(r) == message


def test_a_form_of_exactly_the_byte_cap_is_read(client):
    """A POSTed form of MAX_FORM_BYTES is read (it then fails on its content, in its own
    words); one byte more is refused before it is parsed."""
    origin = {
        "origin": "http://127.0.0.1:8765",
        "content-type": "application/x-www-form-urlencoded",
    }
    head = b"game=manoeuvre&seed=x"
    body = head + b"&" + b"p=1&" * ((jobs.MAX_FORM_BYTES - len(head) - 1) // 4)
    body += b"q" * (jobs.MAX_FORM_BYTES - len(body))
    assert len(body) == jobs.MAX_FORM_BYTES
    r = client.post("/jobs", content=body, headers=origin)
    assert "expected at most" not in r.text and "is not a valid integer" in r.text
    r = client.post("/jobs", content=body + b"q", headers=origin)
    assert r.status_code == 400
    assert f"form: expected at most {jobs.MAX_FORM_BYTES} bytes" in r.text


def test_the_edits_box_takes_its_most_lines_of_ordinary_edits(client):
    """The what-if form's edits box (``--set`` lines) takes MAX_EDIT_LINES edits of a
    parameter's length each, lines ended as a browser ends them (CR LF): the edits reach the
    library (which refuses these, naming the unit), one edit more or one character more is
    refused in one line. (It used to be capped at MAX_VALUE_CHARS like any parameter: seven
    edits of this length were refused.)"""
    bad = "France/No Such Unit/full=5"
    form = {"game": "manoeuvre", "army": "France", "armies": "France,Russia",
            "games_per_pairing": "20"}  # fmt: skip

    def post(more):
        return client.post("/whatif", data=form | {"more": more},
                           headers={"origin": "http://127.0.0.1:8765"})  # fmt: skip

    n = whatif_forms.MAX_EDIT_LINES
    for more in ("\r\n".join([bad] * n),
                 "\r\n".join([bad.ljust(MAX_VALUE_CHARS)] * n) + "\r\n"):  # fmt: skip
        assert len(more) <= whatif_forms.MAX_EDIT_CHARS
        r = post(more)
        assert r.status_code == 400 and "unknown unit &#39;No Such Unit&#39;" in r.text
    assert len(more) == whatif_forms.MAX_EDIT_CHARS
    r = post(more + "x")
    assert r.status_code == 400
    cap = whatif_forms.MAX_EDIT_CHARS
    assert f"--more: expected at most {cap} characters, got {cap + 1}" in r.text
    r = post("\r\n".join([bad] * (n + 1)))
    assert r.status_code == 400 and f"--set: at most {n} edits, got {n + 1}" in r.text
    assert not (client.studies / "jobs").exists()  # nothing queued
