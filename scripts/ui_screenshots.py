"""The screenshots of docs/ui.md: each page of the workbench at a laptop's size (1366x820),
taken in Debian's Chromium through Playwright from a server over a folder of studies.

    .venv/bin/python scripts/ui_screenshots.py [--studies reports] [--out docs/ui]

The folder must hold the studies the guide shows (as the guide's commands make them):
balance/ (make run), whatif/, cards-france/, hex-balance/, random/ and simple/ (docs/compare.md's
two balance studies). Each shot is written whole
(a temporary name, then renamed); look at every one before committing them. The jobs shot
runs two jobs in the folder's ``jobs/`` (a small named what-if to its end, then a balance
study it shows running and then cancels and deletes): give it a folder you can spare.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.server import serve  # noqa: E402

# (file, address, what to do on the page before the shot)
SHOTS = [
    ("home.png", "/", None),
    (
        "odds-assault.png",
        "/odds/manoeuvre/assault?strength=6&dice=2d8&support=5%3A1d8"
        "&leader_command=2&defense=9&simulate=100000&seed=1",
        None,
    ),
    ("odds-matchup.png", "/odds/manoeuvre/matchup", None),
    ("odds-hex.png", "/odds/hex?attack=5%2C4u&defend=4c%2C2&step_losses=on", None),
    ("studies.png", "/studies", None),
    ("balance.png", "/study?dir=balance", "scroll:#matrix hover-cell"),
    ("pairing.png", "/study/pairing?dir=balance&pairing=1", None),
    ("cards.png", "/study?dir=cards-france", None),
    ("whatif.png", "/study?dir=whatif", None),
    ("whatif-changed.png", "/whatif/changed?dir=whatif", "tall"),
    ("whatif-form.png", "/whatif/new?army=France", "full"),
    ("jobs.png", "/jobs", "jobs"),
    ("hex-balance.png", "/study?dir=hex-balance", "scroll:#fell"),
    ("compare.png", "/compare?a=random&b=simple", "scroll:#compare-table"),
    ("replay.png", "/replay/manoeuvre?study=balance&pairing=1&game=0", "combat"),
    ("replay-hex.png", "/replay/hex?seed=1&game=0", "combat"),
    ("error.png", "/odds/manoeuvre/assault?strength=6&dice=2d8&defense=-3", None),
]


# pages whose key and standing run below the laptop's fold: taken whole, 1366 px wide
FULL_PAGE = {"replay.png", "replay-hex.png"}


def _submit(page, path: str, fields: dict[str, str]) -> None:
    """Open the form at ``path``, fill ``fields`` (a field's name -> its text), run it, and
    wait for the jobs page it leads to."""
    page.goto(page.url.split("/jobs")[0] + path)
    for name, text in fields.items():
        page.fill(f"[name={name}]", text)
    page.click("#run")
    page.wait_for_url("**/jobs?job=*")


def _jobs(page) -> None:
    """The jobs page with a named what-if done and a balance study running."""
    armies = "France,Russia,Prussia"
    _submit(page, "/whatif/new?army=France", {
        "armies": armies, "games_per_pairing": "100", "more": "France/Garde Imperial/full=7",
        "job_name": "Garde Imperial 8 -> 7"})  # fmt: skip
    page.locator("tr.job.shown a.result").wait_for(timeout=300_000)
    _submit(page, "/jobs/new", {"armies": armies, "games_per_pairing": "20000",
                                "job_name": "Three armies, 20,000 games a pairing"})  # fmt: skip
    page.locator("tr.job.shown[data-state=running] .left").wait_for(timeout=120_000)
    page.wait_for_timeout(1500)


def _cancel_running(page) -> None:
    """Cancel the job the jobs shot started, then delete it with its folder."""
    jid = page.url.split("job=")[1]
    page.click("tr.job.shown button.cancel")
    page.locator(f"#job-{jid}[data-state=cancelled]").wait_for(timeout=120_000)
    page.goto(page.url.split("/jobs")[0] + f"/jobs/{jid}/delete")
    page.click("#delete")


def _act(page, actions: str | None) -> None:
    for action in (actions or "").split():
        _act_one(page, action)


def _act_one(page, action: str) -> None:
    if action == "jobs":
        _jobs(page)
    elif action == "tall":
        page.set_viewport_size({"width": 1366, "height": 1250})
    elif action.startswith("scroll:"):  # the element at the window's top
        page.wait_for_selector(".vega-embed svg", timeout=15_000)
        page.evaluate(f"window.scrollTo(0, document.querySelector({action[7:]!r})"
                      ".getBoundingClientRect().top + window.scrollY - 8)")  # fmt: skip
        page.wait_for_timeout(300)
    elif action == "hover-cell":
        page.wait_for_selector(".vega-embed svg, .vega-embed canvas", timeout=15_000)
        box = page.locator(".vega-embed").first.bounding_box()
        page.mouse.move(box["x"] + box["width"] * 0.35, box["y"] + box["height"] * 0.3)
        page.wait_for_timeout(400)
    elif action == "combat":
        # step forward until the board shows a combat's caption
        for _ in range(400):
            if page.locator("#board .caption text").count():
                break
            page.keyboard.press("ArrowRight")
            page.wait_for_selector("#board:not([aria-busy])", timeout=5000)
        page.wait_for_timeout(300)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--studies", type=Path, default=ROOT / "reports")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "ui")
    ap.add_argument("--only", default="", help="comma-separated file names")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    only = {x for x in args.only.split(",") if x}
    args.out.mkdir(parents=True, exist_ok=True)
    with serve(args.studies) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1366, "height": 820})
        for name, address, action in SHOTS:
            if only and name not in only:
                continue
            page = context.new_page()
            page.goto(url + address)
            page.wait_for_load_state("networkidle")
            _act(page, action)
            tmp = args.out / f".{name}"
            page.screenshot(
                path=str(tmp), full_page=name in FULL_PAGE or action == "full", type="png"
            )
            os.replace(tmp, args.out / name)
            print(f"wrote {args.out / name}")
            if action == "jobs":
                _cancel_running(page)
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
