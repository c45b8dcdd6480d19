"""The static site's own bits of page (``manoeuvre-sim site``): the navigation's word that
this is a static copy, the provenance of the site's studies on its index, the note of which
games are replayed on a study's page and on a pairing's, the comparisons written, the
site's CSS, and a replay page made to step from its own file."""

from __future__ import annotations

import json
import re

from manoeuvre_sim.web.render import ENV

MAX_STEPS = 2_000  # boards written into one replay page at most

_PROVENANCE = ENV.from_string(
    """<section id="site-provenance"><h2>This static copy</h2>
<p class="muted">Written by manoeuvre-sim {{ r.version }} (<code>manoeuvre-sim site</code>);
the same record is in <a href="site.json">site.json</a>. Replayed games: {{ r.replay_rule }}.</p>
<table class="data"><thead><tr><th class="name">study</th><th class="name">game</th>
<th class="name">kind</th><th>seed</th><th class="name">rules</th><th class="name">data hash</th>
<th>games</th><th class="name">made by</th></tr></thead><tbody>
{% for s in r.studies %}<tr><td class="name">{{ s.name }}</td><td class="name">{{ s.game }}</td>
<td class="name">{{ s.kind }}</td><td>{{ s.seed }}</td><td class="name">{{ s.rules_version }}</td>
<td class="name"><code>{{ s.data_hash }}</code></td><td>{{ s.games }}</td>
<td class="name">{{ s.tool }} {{ s.tool_version }}</td></tr>
{% endfor %}</tbody></table></section>
"""
)

_REPLAYS = ENV.from_string(
    """<section id="site-replays"><h2>Replayed games in this copy</h2>
<p class="muted">This static copy replays {{ rule }}; the other games need the live workbench
(<code>manoeuvre-sim ui</code>).</p>
{% if games %}<ul>{% for g in games %}<li><a href="{{ g.url }}">pairing {{ g.pairing }}{% if g.label %} ({{ g.label }}){% endif %}, game {{ g.game }}</a>{% if g.win_rate_a is not none %}: the first seat won {{ "%.1f" % (100 * g.win_rate_a) }}%
of {{ g.games }} games{% else %}: a fix's confirmation game, as its result page pairs them{% endif %}</li>{% endfor %}</ul>{% else %}<p>No game is replayed.</p>{% endif %}
</section>
"""
)

# the charts' cells open their pairing in a static copy too (studies.js follows only server
# addresses: this follows the relative ones the site wrote), written as the site's site.js
SITE_JS = """// manoeuvre-sim site: a chart's cell with a relative href opens it (a static copy).
(function () {
  "use strict";
  function hook(el, tries) {
    if (el.vegaView) {
      el.vegaView.addEventListener("click", function (event, item) {
        var href = item && item.datum && item.datum.href;
        if (href && href.charAt(0) !== "/" && !/^[a-z][a-z0-9+.-]*:/i.test(href)) {
          window.location.assign(href);
        }
      });
    } else if (tries > 0) {
      setTimeout(function () { hook(el, tries - 1); }, 100);
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".chart").forEach(function (el) { hook(el, 100); });
  });
})();
"""

_ELEMENT = re.compile(r"(?=<)")
_DATA = re.compile(r'(<script type="application/json" id="replay-data">)(.*?)(</script>)', re.S)


_COMPARISONS = ENV.from_string(
    """<section id="site-comparisons"><h2>Compared in this copy</h2>
{% if pairs %}<ul>{% for url, a, b in pairs %}<li><a href="{{ url }}">{{ a }} v {{ b }}</a></li>
{% endfor %}</ul>{% else %}<p class="muted">No other study of {{ "this" if study else "one" }}
game in this copy to compare{{ " it" if study else "" }} with.</p>{% endif %}</section>
"""
)

_NAV_NOTE = (
    '<span class="static-note" title="the odds, the replay of any game and the jobs need the '
    'live workbench: manoeuvre-sim ui">static copy: the studies only</span>'
)

# the static copy's own bits: the navigation's note, a form it cannot send
SITE_CSS = """/* manoeuvre-sim site: the static copy's own bits */
.static-note { color: #c9d2de; font-size: 0.9em; margin-left: 1em; cursor: help; }
fieldset.static-off { border: 0; padding: 0; margin: 0; }
#site-comparisons ul, #site-replays ul { padding-left: 1.2em; }
"""


def nav_note_html() -> str:
    """The navigation's word in place of its live-only items (odds, replay, jobs)."""
    return _NAV_NOTE


def comparisons_html(pairs: list[tuple[str, str, str]], study: str | None) -> str:
    """The comparisons written (url, study a, study b): on the index (``study`` None) and on
    a study's page (those it is in)."""
    return _COMPARISONS.render(pairs=pairs, study=study)


def games_note_html(rows: int, games: int | None, linked: int, replays: int) -> str:
    """A pairing's games note in the copy: how many of its games its table shows, and that
    the games with a ▶ link (``linked`` of them) replay here; ``replays``: the games the
    copy replays per study (its ``--replays``)."""
    games = rows if games is None else games
    if rows < games:
        shown = (f"The first {rows:,} of this pairing's {games:,} games; the study's records "
                 "hold them all, and the live workbench (<code>manoeuvre-sim ui</code>) pages "
                 "through them.")  # fmt: skip
    else:
        shown = f"All {games:,} game{'' if games == 1 else 's'} of this pairing."
    which = (f"the first game of each of the {replays} most lopsided pairings of each study, "
             "listed on the study's page")  # fmt: skip
    if linked:
        replay = (f"Games with a ▶ link replay on their board in this copy ({linked} here; "
                  f"it replays {which}); the others replay in the live workbench.")  # fmt: skip
    else:
        replay = (f"No game of this pairing replays in this copy (it replays {which}); every "
                  "game replays in the live workbench.")  # fmt: skip
    return f'<p class="muted" id="site-games">{shown} {replay}</p>'


def provenance_html(record: dict) -> str:
    """The index page's table of the site's studies: seeds, rules versions, data hashes."""
    return _PROVENANCE.render(r=record)


def replays_html(games: list[dict], rule: str) -> str:
    """The note on a study's page of which of its games the site replays, and why."""
    return _REPLAYS.render(games=games, rule=rule)


def pack_boards(boards: list[str]) -> tuple[list[str], list[list[int]]]:
    """The boards of a game, packed: the distinct SVG elements (``parts``, each from one
    ``<`` to the next) and each board as runs ``[first part, count, first, count, ...]``.
    Successive boards differ in a few elements, so a game's hundreds of boards take about
    what two or three take alone; ``unpack`` (and replay.js) join them back exactly."""
    parts: dict[str, int] = {}
    packed = []
    for svg in boards:
        runs: list[int] = []
        for piece in _ELEMENT.split(svg):
            if not piece:
                continue
            k = parts.setdefault(piece, len(parts))
            if runs and runs[-2] + runs[-1] == k:
                runs[-1] += 1
            else:
                runs += [k, 1]
        packed.append(runs)
    return list(parts), packed


def unpack(parts: list[str], runs: list[int]) -> str:
    """One board back from :func:`pack_boards`' parts and its runs."""
    return "".join("".join(parts[a : a + n]) for a, n in zip(runs[::2], runs[1::2], strict=True))


def static_replay(client, text: str, progress=None, label: str = "replay") -> str:
    """A replay page that steps with no server: every board (asked of the workbench's own
    ``board.svg`` address) is written into the page's data, packed (``parts`` and
    ``boards``: :func:`pack_boards`), and the data no longer names a server address to
    fetch or to show in the address bar. ``progress(what)`` is told every 50 boards."""
    from manoeuvre_sim.web.site.links import script_json

    m = _DATA.search(text)
    if m is None:
        return text
    data = json.loads(m.group(2))
    n = min(int(data["n"]), MAX_STEPS)
    boards = []
    for i in range(n):
        r = client.get(f"{data['board']}&step={i}")
        r.raise_for_status()
        boards.append(r.text)
        if progress and i % 50 == 0:
            progress(f"{label} board {i + 1}/{n}")
    parts, packed = pack_boards(boards)
    data = data | {"parts": parts, "boards": packed, "board": None, "page": None}
    return text[: m.start(2)] + script_json(data) + text[m.end(2) :]
