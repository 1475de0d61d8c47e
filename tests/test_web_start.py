"""The board's first start: `tessera serve` loads every game's kernels in the background at
once and says how far it is (``GET /api/warmup``); the page shows it, takes moves before
the search is ready, and no control acts on a position that has not arrived.

The browser test runs a real server on an empty numba cache of its own (the server's
process only) and drives Debian's headless chromium against it: every control clicked at
once as the page opens, then the progress panel, a move before the search is ready, and
the analysis asked for before the first position starting once the search is ready."""

import time

import pytest
from starlette.testclient import TestClient

from tessera.games import registered_games
from tessera.warmup import compiled_ahead
from tessera.web.app import create_app
from tests.browser_page import needs_chromium
from tests.web_server import running_server

COLD_MS = 900_000  # every game's rules and search compiled, on a busy machine
PANEL_MS = 15_000  # the page asks the server every half second
GAMES = sorted(registered_games())
LOCAL = "http://127.0.0.1:8765"  # the address the board's guard answers to


def wait_report(client, ready, timeout=300.0):
    """Polls /api/warmup until ``ready(report)``; the last report."""
    deadline = time.monotonic() + timeout
    while True:
        report = client.get("/api/warmup").json()
        if ready(report) or time.monotonic() > deadline:
            return report
        time.sleep(0.1)


def test_a_server_that_loads_nothing_ahead_reports_ready():
    with TestClient(create_app(analysis=False), base_url=LOCAL) as client:
        assert client.get("/api/warmup").json() == {
            "games": [],
            "done": 0,
            "total": 0,
            "ready": True,
            "seconds": 0.0,
            "compiled_ahead": None,
        }


def test_without_analysis_each_games_moves_load_and_are_reported():
    with TestClient(create_app(analysis=False, warm=True), base_url=LOCAL) as client:
        report = wait_report(client, lambda report: report["done"] == report["total"])
        assert sorted(entry["game"] for entry in report["games"]) == GAMES
        assert report["total"] == len(GAMES) and report["done"] == len(GAMES)
        assert report["ready"] is True
        assert report["compiled_ahead"] is compiled_ahead()
        for entry in report["games"]:
            assert list(entry["stages"]) == ["moves"]  # no search without analysis
            moves = entry["stages"]["moves"]
            assert moves["state"] == "ready" and moves["seconds"] >= 0
        # The stages are done: what they took stays put.
        assert client.get("/api/warmup").json()["games"] == report["games"]


# Every control a player can reach, clicked at once: the buttons (but Load and Open,
# which read a box the player fills first: their error for an empty box is the answer
# they owe), the selects' changes, then Start last, before any position has arrived.
CLICK_EVERYTHING = """() => {
  const clicked = [];
  for (const button of document.querySelectorAll("button")) {
    if (["load", "open-run", "analyse"].includes(button.id) || button.disabled) continue;
    if (!button.offsetParent) continue;                 // hidden: no player reaches it
    button.click();
    clicked.push(button.id || button.textContent);
  }
  for (const select of document.querySelectorAll("select")) {
    select.dispatchEvent(new Event("change"));
    clicked.push(select.id);
  }
  document.getElementById("analyse").click();
  return {clicked, positions: ui.history.length};
}"""


@pytest.mark.slow  # minutes: every game's kernels compile
@pytest.mark.cold
@pytest.mark.browser
@needs_chromium
def test_a_first_start_on_an_empty_cache_speaks_and_every_control_clicked_at_once_holds(tmp_path, browser):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    with running_server("--searches", "1", env={"NUMBA_CACHE_DIR": str(cache), "TESSERA_PREBUILT": "0"}) as (
        url,
        process,
    ):
        page = browser.new_page()
        problems = []
        page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
        page.on(
            "console", lambda message: message.type == "error" and problems.append(f"console error: {message.text}")
        )
        page.goto(url)
        burst = page.evaluate(CLICK_EVERYTHING)
        assert burst["positions"] == 0, "the first position came before the clicks: no race tested"
        assert "new" in burst["clicked"] and "keys-button" in burst["clicked"]
        for key in ("ArrowLeft", "ArrowRight", "Home", "End", "c", "?"):
            page.keyboard.press(key)

        # The panel says what compiles, a bar per game.
        page.wait_for_selector("#warmup:not([hidden]) .warmup-game", timeout=PANEL_MS)
        rows = page.locator("#warmup .warmup-game")
        assert sorted(rows.evaluate_all("rows => rows.map((row) => row.dataset.game)")) == GAMES
        assert "compiling" in page.inner_text("#warmup")

        # Moves come before the search: a move played while a search still compiles.
        page.wait_for_selector("#board [data-pick]", timeout=COLD_MS)
        page.wait_for_selector("#moves button", timeout=COLD_MS)
        before_move = page.evaluate("warmup.report()")
        pending = [entry["game"] for entry in before_move["games"] if entry["stages"]["search"]["state"] != "ready"]
        assert pending, "every search was ready before the first position: nothing shown early"
        page.locator("#moves button").first.click()
        page.wait_for_function("ui.history.length === 2 && ui.index === 1", timeout=COLD_MS)

        # Start, clicked before any position, searches once the search is ready.
        assert page.inner_text("#analyse") == "Stop"
        page.wait_for_selector("#analysis tbody tr", timeout=COLD_MS)
        assert "visits" in page.inner_text("#analysis-state")

        page.wait_for_selector("#warmup", state="hidden", timeout=COLD_MS)
        report = page.evaluate("fetch('/api/warmup').then((response) => response.json())")
        assert report["ready"] and report["done"] == report["total"] == 2 * len(GAMES)
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
        assert "error:" not in page.inner_text("body")
        assert problems == []
        assert any(cache.rglob("*.nbi")), "the server did not compile into its own cache"
    assert "Traceback" not in "".join(process.output)
