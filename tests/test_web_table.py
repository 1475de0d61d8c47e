"""The board as a player meets it at the table, in a real browser (Debian's headless chromium
against a real `tessera serve`), at a desktop size and at a phone's (390 x 844): the board
stays in view on load and after a move while the history scrolls in its own box, every
control a player taps on a phone is at least 40 px each way, the header follows the game
that a link, a pasted position, the editor or a self-play run puts on the board, and a
refused request leaves no control stuck (its error shown once, its numbers as typed).
`TESSERA_SCREENSHOTS=1` writes docs/web-phone.png (the board on a phone)."""

import json
import os
from pathlib import Path

import pytest

from tests.browser_page import (
    BROWSER_MARKS,
    READABLE,
    SIZES,
    TAP_PX,
    error_free,
    new_game,
    open_board,
    text_contrast,
)
from tests.cli_process import tessera
from tests.web_server import running_server

playwright_api = pytest.importorskip("playwright.sync_api")

DOCS = Path(__file__).resolve().parents[1] / "docs"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT_MS = 60_000
# What a player taps besides the board's drawing: a checkbox is tapped through its label.
TAPPED = (
    "button, select, input:not([type=checkbox]), textarea, label:has(input[type=checkbox]),"
    " #history li, #analysis tbody tr, #review-costly tbody tr"
)

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The board, reading run folders under the tests' temporary directories."""
    with running_server("--runs", tmp_path_factory.getbasetemp()) as (url, _):
        yield url


@pytest.fixture(params=list(SIZES))
def sized(request, browser, server):
    """A page on the board opened at the size ``request.param`` names (the page's first
    drawing at that size), failing the test if it raises a script error."""
    page = open_board(browser, server, request.param)
    page.size = request.param
    page.wait_for_function("ui.tab !== null", timeout=WAIT_MS)
    with error_free(page):
        yield page


def doc(page):
    return page.evaluate("current().doc")


def pick(fields):
    return f"#board [data-pick='{json.dumps(fields, separators=(',', ':'))}']"


def tap_piece(page, selector):
    """A piece of the board tapped as a player does it. On a phone a first tap shows the
    board around it up close (zoom.js) and a second picks it; a piece out of the part shown
    up close is reached through "Whole board" first."""
    piece = page.locator(selector).first
    if page.evaluate("zoom.closeUp()"):
        shown, at = box(page, "#board"), piece.bounding_box()
        centre = (at["x"] + at["width"] / 2, at["y"] + at["height"] / 2)
        if not (shown["left"] < centre[0] < shown["right"] and shown["top"] < centre[1] < shown["bottom"]):
            page.click("#whole-board")
    if page.evaluate("zoom.wanted()"):
        piece.click()
        assert page.evaluate("zoom.closeUp()")
    piece.click()


def tap_a_draft(page):
    """A draft tapped on the board as a player does it: a factory's tile, then a pattern line
    (the floor when no line takes it); returns once the move is on the board."""
    before = page.evaluate("ui.index")
    moves = [m for m in doc(page)["moves"] if m["kind"] == "draft"]
    move = next((m for m in moves if m["destination"] != "floor"), moves[0])
    tap_piece(page, pick({"source": move["source"], "colour": move["colour"]}))
    if page.evaluate("ui.index") == before:
        tap_piece(page, pick({"destination": move["destination"]}))
    page.wait_for_function(f"ui.index === {before + 1} && current().doc", timeout=WAIT_MS)


def box(page, selector):
    return page.eval_on_selector(selector, "(node) => node.getBoundingClientRect().toJSON()")


def assert_board_in_view(page):
    """The page is not scrolled, the board's top is on screen and every tile of the factories
    and the centre (what the player picks from next) is whole on screen."""
    assert page.evaluate("window.scrollY") == 0
    height = SIZES[page.size]["height"]
    assert 0 <= box(page, "#board")["top"] < height / 2
    tiles = page.eval_on_selector_all(
        "#board [data-pick*='\"source\"']", "(nodes) => nodes.map((n) => n.getBoundingClientRect().toJSON())"
    )
    assert tiles, "no tile to pick drawn"
    assert all(0 <= tile["top"] and tile["bottom"] <= height for tile in tiles), tiles


def test_the_board_stays_in_view_and_the_history_scrolls_in_its_own_box(sized):
    page = sized
    assert_board_in_view(page)
    if page.size == "phone":
        page.wait_for_selector("#warmup", state="hidden", timeout=WAIT_MS)  # every game loaded
        save_screenshot(page, "web-phone.png")
    for _ in range(14):  # more moves than the history's box shows at once
        page.evaluate("play(current().doc.moves[0].text)")
        page.wait_for_function("current().doc", timeout=WAIT_MS)
    tap_a_draft(page)
    assert_board_in_view(page)
    history, current = box(page, "#history"), box(page, "#history li.current")
    assert page.eval_on_selector("#history", "(list) => list.scrollTop") > 0  # it scrolled inside
    assert history["top"] <= current["top"] and current["bottom"] <= history["bottom"] + 1
    assert text_contrast(page, "#history li") >= READABLE  # in the page's theme (SCHEMES)


def save_screenshot(page, name):
    """What the screen shows, as a PNG, into docs/``name`` when TESSERA_SCREENSHOTS is set."""
    image = page.screenshot()
    assert image.startswith(PNG_SIGNATURE)
    if os.environ.get("TESSERA_SCREENSHOTS"):
        DOCS.joinpath(name).write_bytes(image)


# The controls shown on the page under ``least`` px wide or high, named with their sizes.
least_sizes = """(nodes, least) => nodes
  .filter((node) => node.getClientRects().length)
  .map((node) => [node.id || node.textContent.trim().slice(0, 20) || node.tagName, node.getBoundingClientRect()])
  .filter(([, rect]) => rect.width < least || rect.height < least)
  .map(([name, rect]) => `${name}: ${Math.round(rect.width)} x ${Math.round(rect.height)}`)"""


# The pieces of the board (``[data-pick]``) shown on the screen under ``least`` px wide or
# high, with their sizes; null when none is shown.
pieces_shown_under_script = """(least) => {
  const view = document.getElementById('board').getBoundingClientRect();
  const shown = [...document.querySelectorAll('#board [data-pick]')].map((node) => node.getBoundingClientRect())
    .filter((r) => r.right > view.left && r.left < view.right && r.bottom > view.top && r.top < view.bottom);
  return shown.length ? shown.filter((r) => r.width < least || r.height < least)
    .map((r) => `${Math.round(r.width)} x ${Math.round(r.height)}`) : null;
}"""


def pieces_shown_under(page, least):
    small = page.evaluate(pieces_shown_under_script, least)
    assert small is not None, "no piece of the board is shown"
    return small


def tap_first_move(page):
    """The board's piece of the first move with a source (a draft) or a cell, tapped once;
    its pick."""
    move = next(m for m in doc(page)["moves"] if "cell" in m or ("source" in m and len(m["colour"]) == 1))
    fields = {"cell": move["cell"]} if "cell" in move else {"source": move["source"], "colour": move["colour"]}
    page.locator(pick(fields)).first.click()
    return fields


def test_on_a_phone_a_tap_shows_the_board_up_close_where_its_pieces_are_under_40_px(browser, server):
    """Drawn whole on a phone, Summer Pavilion's pieces are smaller than a fingertip: a first
    tap picks nothing and shows the board around it up close, every piece there at least
    40 px and still picking; "Whole board" shows all of it again. Azure's realm is drawn
    with cells of 40 px and more: a tap picks at once. (Azul's: the test below.)"""
    page = open_board(browser, server, "phone")
    with error_free(page):
        new_game(page, "pavilion")
        whole = page.get_attribute("#board", "viewBox")
        assert pieces_shown_under(page, TAP_PX)  # drawn whole: smaller than a fingertip
        fields = tap_first_move(page)
        assert page.evaluate("zoom.closeUp() && ui.index === 0 && ui.selection === null")
        assert pieces_shown_under(page, TAP_PX) == []
        assert page.get_attribute("#board", "viewBox") != whole
        page.click("#whole-board")
        assert page.get_attribute("#board", "viewBox") == whole and not page.evaluate("zoom.closeUp()")
        assert page.locator("#whole-board").is_hidden()
        tap_piece(page, pick(fields))  # up close again, and picked
        page.wait_for_function("ui.index === 1 || ui.selection !== null", timeout=WAIT_MS)
        new_game(page, "azure")
        assert pieces_shown_under(page, TAP_PX) == []
        tap_first_move(page)
        page.wait_for_function("ui.index === 1 || ui.selection !== null", timeout=WAIT_MS)
        assert not page.evaluate("zoom.closeUp()")


def test_every_control_a_player_taps_on_a_phone_is_40_px(browser, server):
    """At 390 x 844 with every panel open that a game opens: the choices of a tile, the
    board up close, the analysis's rows and its line, the keys, a share link; then the
    position editor's."""
    page = open_board(browser, server, "phone")
    with error_free(page):
        tap_a_draft(page)
        # A tile of more than one destination leaves its choices on the page.
        source = next(m for m in doc(page)["moves"] if m["kind"] == "draft" and m["destination"] != "floor")
        tap_piece(page, pick({"source": source["source"], "colour": source["colour"]}))
        page.wait_for_selector("#choices button")
        assert pieces_shown_under(page, TAP_PX) == []  # up close: the board's pieces too
        page.wait_for_selector("#warmup", state="hidden", timeout=WAIT_MS)  # every game loaded
        save_screenshot(page, "web-phone-close-up.png")
        page.fill("#analysis-seconds", "1")
        page.click("#analyse")
        page.wait_for_function(
            "document.getElementById('analysis-state').textContent.endsWith('(done)')", timeout=WAIT_MS
        )
        page.click("#keys-button")
        page.click("#copy-link")
        page.wait_for_selector("#share-link:not([hidden])")
        small = page.eval_on_selector_all(TAPPED, least_sizes, TAP_PX)
        assert page.locator("#analysis tbody tr").count() and page.locator("#choices button").count()
        assert small == [], small
        page.click("#edit")  # the position editor's palette, fields and buttons
        page.wait_for_selector("#editor-done")
        assert page.eval_on_selector_all(TAPPED, least_sizes, TAP_PX) == []


@pytest.fixture(scope="module")
def pavilion_run(tmp_path_factory):
    """A self-play run of one three-player Summer Pavilion game."""
    run = tmp_path_factory.mktemp("runs") / "pavilion"
    done = tessera(
        "selfplay", "pavilion", "--games", "1", "--players", "3", "--agents", "random,random,random",
        "--seed", "2", "--workers", "1", "--out", run,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return run


def header(page):
    """The header's game and options, as its fields show them."""
    return page.evaluate(
        """() => ({game: document.getElementById('game').value, options: Object.fromEntries(
          [...document.querySelectorAll('#options [data-option]')].map((input) =>
            [input.dataset.option, input.type === 'checkbox' ? input.checked : input.value]))})"""
    )


def new_game_text(page, game, options):
    return page.evaluate(
        "([game, options]) => api('/api/new', {game, seed: 3, options}).then((doc) => doc.text)", [game, options]
    )


def shown(page, game, check="true"):
    page.wait_for_function(f"current().doc && current().doc.game === '{game}' && ({check})", timeout=WAIT_MS)


def test_the_header_follows_the_game_a_paste_a_link_the_editor_or_a_run_shows(sized, pavilion_run):
    page = sized
    # A pasted position: a three-player Azul of the gray wall; "New game" starts one like it.
    page.fill("#position-text", new_game_text(page, "azul", {"players": 3, "variant": "gray"}))
    page.click("#load")
    shown(page, "azul", "current().doc.players === 3")
    assert header(page) == {"game": "azul", "options": {"players": "3", "variant": "gray"}}
    page.click("#new")
    shown(page, "azul", "ui.history.length === 1 && current().doc.json.wall === 'gray'")
    assert doc(page)["players"] == 3
    # A link: an Azure game with the Gifted module's card and the Cosmos expansion.
    azure = new_game_text(page, "azure", {"gifted": "mighty", "cosmos": True})
    page.evaluate("(text) => { location.hash = new URLSearchParams({p: text.split('\\n').join('; ')}); }", azure)
    shown(page, "azure")
    assert header(page) == {"game": "azure", "options": {"gifted": "mighty", "cosmos": True, "layout": ""}}
    # The editor: a new Azul game of the colour wall, edited to the gray wall.
    page.select_option("#game", "azul")
    page.click("#new")
    shown(page, "azul", "ui.history.length === 1")
    page.click("#edit")
    page.wait_for_selector("#editor-fields [data-field='wall']")
    page.select_option("#editor-fields [data-field='wall']", "gray")
    page.wait_for_selector("#editor-done:not([disabled])", timeout=WAIT_MS)
    page.click("#editor-done")
    shown(page, "azul")
    assert header(page) == {"game": "azul", "options": {"players": "2", "variant": "gray"}}
    # A self-play run: a three-player Summer Pavilion game.
    page.fill("#run-folder", str(pavilion_run))
    page.click("#open-run")
    page.wait_for_selector("#run-games:not([hidden])")
    page.select_option("#run-games", index=1)
    shown(page, "pavilion", "ui.history.length > 1")
    assert header(page) == {"game": "pavilion", "options": {"players": "3"}}


def error_line(page):
    """The error line's text, or None while it is hidden."""
    return page.inner_text("#error") if page.locator("#error").is_visible() else None


def refused(page, action, error):
    """``action`` done with the error line cleared first; the line it shows is ``error``."""
    page.evaluate("showError(null)")
    action()
    try:
        page.wait_for_function(
            "(text) => document.getElementById('error').textContent === text", arg=error, timeout=10_000
        )
    except playwright_api.TimeoutError:
        pass  # the assertion below names what shows instead
    page.wait_for_timeout(200)  # the refusal's other effects land
    assert error_line(page) == error


def assert_analysis_idle(page):
    assert page.inner_text("#analyse") == "Start"
    assert page.inner_text("#analysis-state") == ""
    assert page.evaluate("ui.analysisOn") is False


SECONDS = "error: seconds must be a number of seconds over 0 and at most 120, not "


def test_a_refused_request_leaves_no_stuck_state(sized):
    page = sized
    # Analysis seconds out of range: refused, and the analysis is idle again.
    for typed in ("-5", "99999"):
        page.fill("#analysis-seconds", typed)
        refused(page, lambda: page.click("#analyse"), SECONDS + typed)
        assert_analysis_idle(page)
    assert text_contrast(page, "#error") >= READABLE  # in the page's theme (SCHEMES)
    # The next action leaves no old error: a move tapped on the board, the header's game.
    tap_a_draft(page)
    page.wait_for_timeout(300)
    assert error_line(page) is None
    assert_analysis_idle(page)
    page.fill("#analysis-seconds", "0")
    refused(page, lambda: page.click("#analyse"), SECONDS + "0")
    page.select_option("#game", "pavilion")
    assert error_line(page) is None
    page.select_option("#game", "azul")
    # Review visits of 0: refused, and the review is idle again.
    page.fill("#review-visits", "0")
    refused(page, lambda: page.click("#review-start"), "error: visits must be a whole number from 1 to 100000, not 0")
    assert page.inner_text("#review-start") == "Review the game"
    assert page.inner_text("#review-state") == "" and page.locator("#review-progress").is_hidden()
    # The engine's seconds refused: the seat is handed back, the hint goes.
    page.fill("#engine-seconds", "0")
    seat = page.locator("#seats input").nth(doc(page)["to_move"] - 1)
    refused(page, seat.click, SECONDS + "0")
    assert page.inner_text("#hint") == ""
    assert page.locator("#seats input:checked").count() == 0
    # Numbers echoed as typed, never as the browser's 1e+23.
    big = "100000000000000000000000"
    page.fill("#seed", big)
    refused(
        page, lambda: page.click("#new"), f"error: seed must be a whole number from 0 to 9223372036854775807, not {big}"
    )
    page.fill("#review-visits", "10")
    page.fill("#review-seed", big)
    refused(
        page, lambda: page.click("#review-start"), f"error: seed must be a whole number from 0 to 4294967295, not {big}"
    )
    assert page.inner_text("#review-start") == "Review the game" and page.inner_text("#review-state") == ""
