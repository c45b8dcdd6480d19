"""The static site's own bits of page (``manoeuvre-sim site``): the notice that a page needs
the live workbench, the provenance of the site's studies on its index, the note of which
games are replayed on a study's page, and a replay page made to step from its own file."""

from __future__ import annotations

import json
import re

from manoeuvre_sim import __version__
from manoeuvre_sim.web.render import ENV

MAX_STEPS = 2_000  # boards written into one replay page at most

_NOTICE = ENV.from_string(
    """{% extends "base.html" %}{% block main %}
<h1>Not in this static copy</h1>
<p id="static-notice">This is a static copy of some studies, written by
<code>manoeuvre-sim site</code>. The page you asked for (the odds, a form, a game that was not
replayed, a page of the live workbench) needs the workbench's server: run
<code>manoeuvre-sim ui</code> for the live pages.</p>
<p><a href="/studies">The studies of this copy</a></p>
{% endblock %}"""
)

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
{% if games %}<ul>{% for g in games %}<li><a href="{{ g.url }}">pairing {{ g.pairing }}{% if g.label %} ({{ g.label }}){% endif %}, game {{ g.game }}</a>: the first seat won {{ "%.1f" % (100 * g.win_rate_a) }}%
of {{ g.games }} games</li>{% endfor %}</ul>{% else %}<p>No game is replayed.</p>{% endif %}
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


def notice_page() -> str:
    """The page every link to a live-only page goes to."""
    return _NOTICE.render(title="Static copy", version=__version__)


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


def static_replay(client, text: str, progress=None) -> str:
    """A replay page that steps with no server: every board (asked of the workbench's own
    ``board.svg`` address) is written into the page's data, packed (``parts`` and
    ``boards``: :func:`pack_boards`), and the data no longer names a server address to
    fetch or to show in the address bar."""
    from manoeuvre_sim.web.site_links import script_json

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
            progress(i, f"{data['board']}&step={i}")
    parts, packed = pack_boards(boards)
    data = data | {"parts": parts, "boards": packed, "board": None, "page": None}
    return text[: m.start(2)] + script_json(data) + text[m.end(2) :]
