"""Why a move, in a real browser (headless chromium, Playwright) against a real `tessera
serve`: each ranked move's breakdown under it is the engine's (`POST /api/explain`) for
the same position and move; the analysis's line stepped on the board (▶ twice, ← and →)
shows the positions the engine reaches by playing its moves, without touching the
history; "play to here" makes the moves. `TESSERA_SCREENSHOTS=1` writes docs/web-why.png."""

import httpx
import pytest

from tessera.position import Position
from tests.browser_page import BROWSER_MARKS
from tests.test_explain import AZURE_MIGHTY
from tests.test_web_browser import AZUL_LATE, PAVILION_PLACING, WAIT_MS, save_screenshot

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = BROWSER_MARKS


def load(page, text):
    page.fill("#position-text", text)
    page.click("#load")
    page.wait_for_function(f"current().doc.text === {Position.parse(text).text()!r}", timeout=WAIT_MS)


def analyse_until_done(page, seconds):
    page.fill("#analysis-seconds", str(seconds))
    page.click("#analyse")
    page.wait_for_function("document.getElementById('analysis-state').textContent.includes('done')", timeout=WAIT_MS)
    # Every breakdown has arrived from the engine.
    page.wait_for_function(
        "[...document.querySelectorAll('#analysis tr.why')].length > 0 && "
        "[...document.querySelectorAll('#analysis tr.why')].every("
        "(row) => row.textContent !== '…')",
        timeout=WAIT_MS,
    )


def shown_breakdowns(page):
    """[(move, the breakdown shown under it)] of the analysis table, in its order."""
    return page.evaluate(
        "[...document.querySelectorAll('#analysis tr.why')].map((row) => [row.dataset.move, row.textContent])"
    )


@pytest.mark.parametrize("text", [AZUL_LATE, PAVILION_PLACING, AZURE_MIGHTY], ids=["azul", "pavilion", "azure"])
def test_each_ranked_move_shows_the_engines_breakdown(page, server, text):
    load(page, text)
    analyse_until_done(page, 2)
    shown = shown_breakdowns(page)
    ranked = page.evaluate("ui.answer.moves.slice(0, 10).map((move) => move.move)")
    assert [move for move, _ in shown] == ranked
    engine = httpx.post(f"{server}/api/explain", json={"position": text, "moves": ranked}).json()
    assert [move for move, _ in shown] == [breakdown["move"] for breakdown in engine["moves"]]
    for (move, line), breakdown in zip(shown, engine["moves"]):
        assert line == " · ".join(term["text"] for term in breakdown["terms"]), move
        assert line  # every move of these positions does something


def test_the_line_steps_on_the_board_and_plays_to_here(page):
    load(page, AZUL_LATE)
    analyse_until_done(page, 2)
    line = page.evaluate("[...document.querySelectorAll('#line-moves span')].map((s) => s.textContent)")
    assert line == page.evaluate("ui.answer.moves[0].pv") and len(line) >= 3
    start = Position.parse(AZUL_LATE)

    def shown_text():
        return page.evaluate("why.stepping.docs[why.stepping.step].text")

    page.click("#line-forward")
    page.wait_for_function("why.stepping && why.stepping.step === 1")
    page.click("#line-forward")
    page.wait_for_function("why.stepping.step === 2")
    assert shown_text() == start.play(*line[:2]).text()
    assert page.evaluate("ui.history.length") == 1  # a preview: the history stays
    assert "2 moves on" in page.inner_text("#status")
    assert page.inner_text("#line-moves .next") == line[2]  # the next move, in the line
    assert page.locator("#board .next-move").count() > 0  # and on the board,
    assert page.locator("#board .next-arrow").count() == 1  # a draft: source to line
    assert page.locator("#board .best").count() == 0  # the game's best move is not drawn there
    save_screenshot(page, "web-why.png")
    # The arrow keys step it while it is shown; the history does not move.
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("why.stepping.step === 1")
    assert shown_text() == start.play(line[0]).text()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("why.stepping.step === 2")
    assert page.evaluate("ui.index") == 0
    # "play to here" makes the line's first two moves in the game.
    page.click("#line-play")
    page.wait_for_function("ui.history.length === 3", timeout=WAIT_MS)
    assert page.evaluate("ui.history.slice(1).map((node) => node.move)") == line[:2]
    assert page.evaluate("current().doc.text") == start.play(*line[:2]).text()
    assert page.evaluate("why.stepping") is None
    if page.inner_text("#analyse") == "Stop":
        page.click("#analyse")


def test_a_click_on_a_breakdown_offers_that_moves_line(page):
    load(page, AZUL_LATE)
    analyse_until_done(page, 1)
    second = page.locator("#analysis tr.why").nth(1)
    move = second.get_attribute("data-move")
    second.click()
    line = page.evaluate("[...document.querySelectorAll('#line-moves span')].map((s) => s.textContent)")
    assert line == page.evaluate(f"ui.answer.moves.find((m) => m.move === {move!r}).pv")
    assert line[0] == move and page.evaluate("ui.history.length") == 1  # offered, not played
    page.click("#line-forward")
    page.wait_for_function("why.stepping && why.stepping.step === 1")
    assert page.evaluate("why.stepping.docs[1].text") == Position.parse(AZUL_LATE).play(move).text()


def test_escape_leaves_the_line_and_the_board_is_the_games_again(page):
    load(page, AZUL_LATE)
    analyse_until_done(page, 1)
    page.click("#line-forward")
    page.wait_for_function("why.stepping && why.stepping.step === 1")
    page.keyboard.press("Escape")
    page.wait_for_function("why.stepping === null")
    assert page.inner_text("#status") == page.evaluate("current().doc.status")
    assert page.locator("#board.previewing").count() == 0
    # The arrow keys are undo and redo again.
    page.keyboard.press("ArrowRight")
    assert page.evaluate("ui.index") == 0 and page.evaluate("ui.history.length") == 1
