"""The workbench's frame: home page, static files, error pages, path confinement, the
``ui`` command's options. The pages of each group have their own test modules."""

from __future__ import annotations

import os

import pytest

from manoeuvre_sim.core.errors import UsageError
from manoeuvre_sim.web.params import Params
from manoeuvre_sim.web.safety import confine


def test_home_and_vendored_scripts(client):
    r = client.get("/")
    assert r.status_code == 200
    assert "manoeuvre-sim" in r.text
    for name in ("htmx.min.js", "vega.min.js", "vega-lite.min.js", "vega-embed.min.js"):
        s = client.get(f"/static/vendor/{name}")
        assert s.status_code == 200 and len(s.content) > 10_000, name
    # nothing from a CDN: every script and stylesheet is served by the workbench itself
    assert "http://" not in r.text.replace("http://127.0.0.1", "")
    assert "https://" not in r.text


def test_unknown_page_is_a_404_page(client):
    r = client.get("/no/such/page")
    assert r.status_code == 404
    assert "no page at /no/such/page" in r.text
    assert "Traceback" not in r.text


@pytest.mark.parametrize(
    "rel, why",
    [
        ("../secret", "'..' is refused"),
        ("a/../../secret", "'..' is refused"),
        ("/etc/passwd", "absolute path"),
        ("~/x", "absolute path"),
        ("a\\..\\b", "not a path under"),
    ],
)
def test_confine_refuses_paths_that_leave_the_folder(tmp_path, rel, why):
    with pytest.raises(UsageError, match=why):
        confine(tmp_path, rel)


def test_confine_refuses_a_symlink_out_and_keeps_one_in(tmp_path):
    root = tmp_path / "studies"
    (root / "inside").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "escape")
    os.symlink(root / "inside", root / "alias")
    with pytest.raises(UsageError, match="a link outside it"):
        confine(root, "escape")
    assert confine(root, "alias") == (root / "inside").resolve()
    assert confine(root, "inside/x.json") == (root / "inside" / "x.json").resolve()


@pytest.mark.parametrize("link", ["absolute", "relative"])
def test_confine_refuses_a_link_into_a_sibling_whose_name_starts_like_the_folder(
    tmp_path, link, monkeypatch
):
    """Studies folder .../reports, a link inside it to .../reports-secret/...: the target's
    path begins with the folder's path as a string, yet it is outside the folder. Refused
    however the link is written and however the folder is named (relative to the working
    directory too)."""
    root = tmp_path / "reports"
    root.mkdir()
    secret = tmp_path / "reports-secret" / "study"
    secret.mkdir(parents=True)
    (secret / "manifest.json").write_text("{}")
    os.symlink(secret if link == "absolute" else "../reports-secret/study", root / "leak")
    for folder in (root, "reports"):
        monkeypatch.chdir(tmp_path)
        for rel in ("leak", "leak/manifest.json"):
            with pytest.raises(UsageError, match="a link outside it"):
                confine(folder, rel)


def test_params_use_the_command_lines_words():
    p = Params({"defense": "ten", "hill": "maybe", "kind": "asault", "n": "500"})
    with pytest.raises(UsageError, match=r"--defense: 'ten' is not a valid integer"):
        p.integer("defense")
    with pytest.raises(UsageError, match="--hill: expected on or off"):
        p.boolean("hill")
    with pytest.raises(UsageError, match="did you mean 'assault'"):
        p.choice("kind", ["assault", "volley"])
    with pytest.raises(UsageError, match=r"--n: expected an integer from 0 to 100, got 500"):
        p.integer("n", lo=0, hi=100)
    with pytest.raises(UsageError, match="--bogus: no such parameter"):
        Params({"bogus": "1"}).only(["defense"])
    with pytest.raises(UsageError, match="at most 200 characters"):
        Params({"defense": "9" * 201})


def test_browser_loads_the_home_page_with_no_failed_request(page, tmp_path):
    from tests.web.server import serve

    with serve(tmp_path) as url:
        page.goto(url + "/")
        assert page.title().endswith("manoeuvre-sim")
        assert page.locator("header.top nav a").count() >= 4  # issue 33 adds its pages
    assert page.problems == []


def test_ui_serves_loopback_and_warns_for_another_host(monkeypatch, tmp_path):
    """``ui`` prints the address; a non-loopback --host gets a warning line first."""
    import uvicorn
    from click.testing import CliRunner

    from manoeuvre_sim.cli.main import cli

    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: served.append((host, port)))
    r = CliRunner().invoke(cli, ["ui", "--no-warmup", "--studies", str(tmp_path), "--port", "9123"])
    assert r.exit_code == 0, r.output
    assert "http://127.0.0.1:9123/" in r.output and "warning" not in r.output
    assert served == [("127.0.0.1", 9123)]
    r = CliRunner().invoke(cli, ["ui", "--no-warmup", "--host", "0.0.0.0", "--port", "9124"])
    assert r.exit_code == 0, r.output
    assert "warning: --host 0.0.0.0: the workbench is reachable from other machines" in r.output
    assert served[-1] == ("0.0.0.0", 9124)


def test_a_browser_gets_the_safe_answer_to_a_path_out_of_the_folder(page, tmp_path):
    """Typed into the address bar: '..', an encoded '..' and an absolute path each get the
    400 page with its reason, never a file from outside the studies folder."""
    from tests.web.server import serve

    (tmp_path / "studies").mkdir()
    (tmp_path / "secret.txt").write_text("top secret", encoding="utf-8")
    with serve(tmp_path / "studies") as url:
        for address in ("/study?dir=../", "/study?dir=%2e%2e%2f", "/study?dir=/etc",
                        "/study/table.csv?dir=..&name=secret"):  # fmt: skip
            response = page.goto(url + address)
            assert response.status == 400, address
            text = page.locator("#error-message").inner_text()
            assert "--dir" in text and "studies folder" in text, (address, text)
            assert "top secret" not in page.content()
