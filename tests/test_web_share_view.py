"""Share links in a game of hidden information (docs/web.md, "Share links"), in a real browser
(Debian's headless chromium against a real `tessera serve`), at a desktop size and at a
phone's (390 x 844). In Azure, Copy link shares the view looked at: a link copied while
viewing as player 1 holds player 1's view alone (its payload decoded here: no hand of player
2, no deck, no moves nor generator that would tell them), opens on that view with the hidden
cards unknown, and the board analyses it (information-set MCTS) and plays on from it, by a
click or the engine at the player's seat. The
whole position is a separate control, labelled as revealing the hidden cards, whose link
opens on "everything". Azul and Summer Pavilion keep the one Copy link."""

from urllib.parse import parse_qs, urlsplit

import pytest

from tessera.position import Position
from tests.browser_page import BROWSER_MARKS, SIZES, TAP_PX, error_free, open_board

pytest.importorskip("playwright.sync_api")

WAIT_MS = 60_000
# A first information-set search loads (or, on an empty numba cache, compiles) its kernels.
ISMCTS_MS = 300_000

pytestmark = BROWSER_MARKS


def open_sized(browser, url, size):
    """A page of ``browser`` at ``size`` on ``url`` once its board is drawn, its script
    errors collected in ``page.errors``."""
    page = open_board(browser, url, size)
    page.wait_for_function("ui.history.length > 0 && current().doc && ui.tab !== null", timeout=WAIT_MS)
    return page


@pytest.fixture(params=list(SIZES))
def sized(request, browser, server):
    page = open_sized(browser, server, request.param)
    page.size = request.param
    with error_free(page):
        yield page


def doc(page):
    return page.evaluate("current().doc")


def play_listed(page, move):
    before = page.evaluate("ui.history.length")
    page.locator(f"#moves button[data-move='{move}']").click()
    page.wait_for_function(f"ui.history.length === {before + 1}", timeout=WAIT_MS)


def copied(page, button):
    """The link ``button`` (#copy-link or #copy-link-all) shows once clicked."""
    page.evaluate("document.getElementById('share-link').value = ''")
    page.click(button)
    page.wait_for_function("document.getElementById('share-link').value !== ''", timeout=WAIT_MS)
    return page.input_value("#share-link")


def payload(link):
    """The link's fields after "#", each a list of its values."""
    return parse_qs(urlsplit(link).fragment, keep_blank_values=True)


def board_text(page):
    return page.text_content("#board")


def azure_game_player_1_to_move(page):
    """A new Azure game, a move each, player 1 to move again: each hand holds cards the
    opponent knows and cards it does not."""
    page.select_option("#game", "azure")
    page.fill("#seed", "5")
    page.click("#new")
    page.wait_for_function("current().doc.game === 'azure' && ui.history.length === 1", timeout=WAIT_MS)
    while len(page.evaluate("ui.history")) < 3 or doc(page)["to_move"] != 1:
        play_listed(page, doc(page)["moves"][0]["text"])
    assert not doc(page)["is_view"]


def test_a_link_copied_viewing_as_player_1_carries_their_view_alone_and_opens_on_it(browser, server, sized):
    page = sized
    azure_game_player_1_to_move(page)
    complete = Position.parse(doc(page)["text"])
    hidden_hand = complete.to_json()["players"][1]["hand"]
    page.select_option("#viewer", "1")
    link = copied(page, "#copy-link")
    assert link.startswith(server + "/#")
    fields = payload(link)
    # Player 1's view and nothing else: no moves, no generator, no move number.
    assert set(fields) == {"p"} and len(fields["p"]) == 1
    shared = Position.parse(fields["p"][0])
    assert shared.is_view and shared == complete.view(1)
    seen = shared.to_json()
    assert set(seen["deck"]) == {"?"}
    assert "?" in seen["players"][1]["hand"] and hidden_hand not in seen["players"][1]["hand"]
    assert f"hand {hidden_hand} " not in fields["p"][0] and complete.to_json()["deck"] not in fields["p"][0]
    # Two share controls: the view looked at, and the whole position, labelled as revealing.
    assert page.inner_text("#copy-link") == "Copy link: player 1's view"
    reveal = page.locator("#copy-link-all")
    assert reveal.is_visible() and "reveals the hidden cards" in reveal.inner_text()
    if page.size == "phone":
        for button in ("#copy-link", "#copy-link-all"):
            box = page.locator(button).bounding_box()
            assert box["width"] >= TAP_PX and box["height"] >= TAP_PX, (button, box)

    # Opened: player 1's view, the hidden cards unknown ("?"), the one position and no moves before it.
    opened = open_sized(browser, link, page.size)
    try:
        assert doc(opened)["is_view"] and doc(opened)["json"]["view"] == 1
        assert doc(opened)["text"] == shared.text()
        assert opened.evaluate("ui.history.length") == 1
        assert "Player 1's view" in board_text(opened)
        assert opened.input_value("#viewer") == "1"
        assert opened.locator("#error").is_hidden()
        # A view shares only itself: there is no whole position to reveal.
        assert opened.inner_text("#copy-link") == "Copy link: player 1's view"
        assert opened.locator("#copy-link-all").is_hidden()
        assert copied(opened, "#copy-link") == link

        # Analysed from the view: the search knows what player 1 knows (information-set MCTS).
        opened.fill("#analysis-seconds", "1")
        opened.click("#analyse")
        opened.wait_for_function(
            "document.getElementById('analysis-state').textContent.includes('done')", timeout=ISMCTS_MS
        )
        assert opened.evaluate("ui.answer.algo") == "ismcts"
        assert opened.locator("#analysis tbody tr").count() > 0
        opened.click("#analyse")

        # Played on from the view: the cards player 1 cannot see are dealt at random, and
        # the board goes on showing player 1's view.
        move = doc(opened)["moves"][0]["text"]
        play_listed(opened, move)
        after = doc(opened)
        assert not after["is_view"] and after["to_move"] == 2
        assert opened.evaluate("current().move").startswith(move)
        assert opened.input_value("#viewer") == "1" and opened.locator("#view-as").is_visible()
        assert "Player 1's view" in board_text(opened)
        assert set(after["views"]["1"]["deck"]) == {"?"}
        # Played where player 1's view was: their stones there, and the move's.
        played = Position.parse(after["text"])
        stones = played.to_json()["players"][0]["stones"]
        assert set(seen["players"][0]["stones"]) < set(stones) and move.split()[1] in stones

        # Back on the view, the engine at player 1's seat plays from it too (searching the view).
        opened.click("#undo")
        opened.wait_for_function("ui.index === 0 && current().doc.is_view", timeout=WAIT_MS)
        assert opened.locator("#view-as").is_hidden() and "Player 1's view" in board_text(opened)
        opened.fill("#engine-seconds", "0.2")
        opened.check("#seats input[data-seat='1']")
        opened.wait_for_function("ui.index === 1 && !ui.busy", timeout=ISMCTS_MS)
        opened.uncheck("#seats input[data-seat='1']")
        assert not doc(opened)["is_view"] and opened.evaluate("ui.history.length") == 2
        assert opened.locator("#error").is_hidden()
        assert not opened.errors, opened.errors
    finally:
        opened.close()


def test_the_whole_position_is_a_labelled_link_that_opens_on_everything(browser, sized):
    page = sized
    azure_game_player_1_to_move(page)
    page.select_option("#viewer", "1")
    link = copied(page, "#copy-link-all")
    fields = payload(link)
    # The game as today's links carry it: the start position (both hands and the deck), its
    # generator and the moves.
    assert not Position.parse(fields["p"][0]).is_view
    assert fields["rng"] and len(fields["m"]) == page.evaluate("ui.history.length") - 1
    played = page.evaluate("ui.history.map((node) => node.text)")
    opened = open_sized(browser, link, page.size)
    try:
        assert opened.evaluate("ui.history.map((node) => node.text)") == played
        assert opened.input_value("#viewer") == "" and opened.locator("#view-as").is_visible()
        assert "Player 1's view" not in board_text(opened)
        # Pasted into the address bar of a page viewing as player 2: it opens on everything too.
        opened.select_option("#viewer", "2")
        opened.evaluate("location.hash = 'elsewhere'")
        opened.evaluate(f"location.hash = {link.split('#', 1)[1]!r}")
        opened.wait_for_function("document.getElementById('viewer').value === ''", timeout=WAIT_MS)
        assert "Player 2's view" not in board_text(opened)
        assert not opened.errors, opened.errors
    finally:
        opened.close()


def test_viewing_everything_copy_link_shares_the_view_of_the_player_to_move(sized):
    """The ruling: Copy link never reveals a hidden card; while everything is viewed it
    shares the view of the player who acts, and says so."""
    page = sized
    azure_game_player_1_to_move(page)
    play_listed(page, doc(page)["moves"][0]["text"])
    assert doc(page)["to_move"] == 2 and page.input_value("#viewer") == ""
    assert page.inner_text("#copy-link") == "Copy link: player 2's view"
    shared = Position.parse(payload(copied(page, "#copy-link"))["p"][0])
    assert shared == Position.parse(doc(page)["text"]).view(2)
    page.select_option("#viewer", "1")
    assert page.inner_text("#copy-link") == "Copy link: player 1's view"


@pytest.mark.parametrize("game", ["azul", "pavilion"])
def test_games_without_hidden_information_keep_one_share_control(sized, game):
    page = sized
    page.select_option("#game", game)
    page.click("#new")
    page.wait_for_function(f"current().doc.game === '{game}' && ui.history.length === 1", timeout=WAIT_MS)
    play_listed(page, doc(page)["moves"][0]["text"])
    assert page.inner_text("#copy-link") == "Copy link"
    assert page.locator("#copy-link-all").is_hidden()
    fields = payload(copied(page, "#copy-link"))
    assert len(fields["m"]) == 1 and Position.parse(fields["p"][0]).game == game
