"""Setting up a position in the board's editor as a player does it (docs/web.md, "Position
editor"), in Chromium's headless shell against a real `tessera serve`, at a desktop size
(mouse) and at a phone's 390 x 844 (touch: the taps and drags are touch events). Every
test runs at both sizes, so that each game is set up by mouse and by touch; the tap
targets are checked on the phone:

- the editor is found in the header, labelled;
- a mid-game Azul, Summer Pavilion and Azure position built step by step, each tap, drag,
  field and choice counted, within a number of actions (a usability bound, not a time):
  every check on the way is an ordinary answer whose line says legal or not legal yet and
  why in one line, and the page logs no console error and gets no 4xx or 5xx answer;
- the palette is the board's own tiles and pieces, tapped or dragged, each area of the
  board has its one-line hint, and on a phone every place and control is 40 px each way;
- Azure works out the supplies, the beasts and the hidden deck from the rest, keeps a beast
  given by hand in a tie of guards, and where it cannot work something out offers the fix
  as one tap.

`TESSERA_SCREENSHOTS=1` writes docs/web-editor-phone.png (the Azure editor on a phone)."""

import json
import os
import re
from pathlib import Path

import pytest

from tessera.position import Position
from tests.browser_page import (
    BROWSER_MARKS,
    READABLE,
    SIZES,
    TAP_PX,
    error_free,
    open_board,
    text_contrast,
)

pytestmark = BROWSER_MARKS

DOCS = Path(__file__).resolve().parents[1] / "docs"
WAIT_MS = 60_000
TAP_MS = 40  # a finger's tap: down this long, then up
HINT_CHARS = 90  # the longest hint: one line on a desktop, two at most on a phone
CHECK_LINE = re.compile(r"(legal: |not legal yet: bad position: )[^\n]+")
NO_TILES = "not legal yet: bad position: factories: no tiles on the factories or in the centre in phase draft"
BOARD_TOP = "document.getElementById('editor-board').getBoundingClientRect().top + scrollY"

# A seeded game's round 3 (a random player's moves): the lid given, the bag worked out.
AZUL_MID = """azul players 2 wall colour round 3 phase draft turn 2 starter 1
factories - BBRK BRRK - -
centre 1BBRKWWWW
bag 8/9/8/6/9
lid 1/7/4/6/4
player 1 score 7 wall ...K./W.Y../...../....Y/..... lines R/../KK./BB../W.... floor Y
player 2 score 4 wall B..K./....K/...../...../..... lines ./Y./W../RRR./BBB.. floor -"""

# A seeded game's round 2, drafting: the tower given, the bag worked out.
PAVILION_MID = """pavilion players 2 round 2 wild green phase draft turn 1 starter 2 token - passed - reward 0
factories - - - GOBR GYBB
centre GYYBBR
supply PPGOOYYYBR
bag 16/12/13/14/11/16
tower 2/1/0/1/3/2
player 1 score 8 stars ....../....../....../....../....../..R.../PG.... hand OOY kept -
player 2 score 9 stars ....../G.G.../O...../....../.B..../....../O.B... hand PGGOO kept -"""

# The first example of docs/azure-notation.md: the supplies (14 less the stones on the
# realm), the beasts (the guards, and player 2's stone on the Black mountain c5) and the
# hidden deck (12 of a colour less the face-up decks and the hands) are worked out.
AZURE_MID = """azure gifted mighty cosmos no view -
layout A2@270 V1@90 B2@90 W1@0
phase place turn 2
faceup 7/7/8/10 deck AAWWB
player 1 score 5 supply 9 stones c3,d3,e3,a4,c4 gifted - beasts tiger,bird hand AAWWVB known AWWV
player 2 score 5 supply 9 stones b2,d2,a5,b5,c5 gifted - beasts dragon,tortoise hand AWVVV known AVV"""

# Actions a mid-game position takes at most (taps, drags, fields and choices, from the
# editor's button to Done): a usability bound. The editor before the palette took 44, 54
# and 48 for these positions at best (a tap a tile, a tap a brush change), logging 27, 46
# and 37 console errors on the way (docs/web.md, "Position editor").
MOST_ACTIONS = {"azul": 36, "pavilion": 43, "azure": 35}


class Hand:
    """A player at the editor: every tap, drag, field typed and choice made is one action,
    by mouse (desktop) or by touch events (phone); each waits for what it changes. The
    page's console errors and HTTP answers of 400 and over are kept."""

    def __init__(self, page, touch):
        self.page, self.touch, self.actions = page, touch, 0
        self.lines = []  # every line the check showed once answered
        self.console_errors, self.refused = [], []
        page.on("console", lambda message: message.type == "error" and self.console_errors.append(message.text))
        page.on("response", lambda response: response.status >= 400 and self.refused.append(response.url))
        if touch:
            self.cdp = page.context.new_cdp_session(page)
            self.cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})

    # ---- what the player does --------------------------------------------------------------

    def _centre(self, locator):
        """The centre of ``locator`` on the screen: scrolled to the middle of the view (clear
        of the palette, which stays at the top), unless it is shown already (the palette)."""
        box = locator.bounding_box()
        height = self.page.viewport_size["height"]
        if box is None or box["y"] < 0 or box["y"] + box["height"] > height or "palette" not in str(locator):
            locator.evaluate("node => node.scrollIntoView({block: 'center', inline: 'center'})")
            box = locator.bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def _touch(self, kind, x=None, y=None):
        points = [] if x is None else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def tap(self, selector):
        self.actions += 1
        locator = self.page.locator(selector)
        x, y = self._centre(locator)
        if self.touch:
            self._touch("touchStart", x, y)
            self.page.wait_for_timeout(TAP_MS)
            self._touch("touchEnd")
        else:
            self.page.mouse.click(x, y)

    def drag(self, brush, **place):
        """The palette's piece dragged onto a place of the board, and let go there."""
        self.actions += 1
        before = self.asked()
        target = self.page.locator(place_selector(place))
        x1, y1 = self._centre(target)
        x0, y0 = self._centre(self.page.locator(piece_selector(brush)))
        steps = 8
        if self.touch:
            self._touch("touchStart", x0, y0)
            for i in range(1, steps + 1):
                self._touch("touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            self._touch("touchEnd")
        else:
            mouse = self.page.mouse
            mouse.move(x0, y0)
            mouse.down()
            mouse.move(x1, y1, steps=steps)
            mouse.up()
        self.answered(before)

    def choose(self, brush):
        """The palette's piece tapped (unless it is the one chosen)."""
        if self.page.evaluate("editing.brush") != brush:
            self.tap(piece_selector(brush))
            self.page.wait_for_function(f"editing.brush === {json.dumps(brush)}", timeout=WAIT_MS)

    def put(self, brush, **place):
        """The piece chosen, then a tap on the place."""
        self.choose(brush)
        before = self.asked()
        self.tap(place_selector(place))
        self.answered(before)

    def field(self, name, value):
        """A field typed (and left) or a choice made."""
        self.actions += 1
        before = self.asked()
        field = self.page.locator(f"#editor-fields [data-field='{name}']")
        if field.input_value() == value:
            return  # as it was (Azure's blank keeps the realm of a new game): nothing is sent
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
            field.press("Tab")  # the change is sent as the field is left
        self.answered(before)

    def press(self, selector):
        """A button that sends the position (Clear, a fix) or opens the editor."""
        before = self.asked()
        self.tap(selector)
        self.answered(before)

    # ---- what the player sees ------------------------------------------------------------------

    def asked(self):
        return self.page.evaluate("typeof editing === 'undefined' ? 0 : editing.asked")

    def answered(self, before):
        """Once the engine has answered a check sent after ``before``: its line, kept."""
        self.page.wait_for_function(
            f"editing.asked > {before} && document.getElementById('editor-check')"
            " && !['', 'checking…'].includes(document.getElementById('editor-check').textContent)",
            timeout=WAIT_MS,
        )
        line = self.page.inner_text("#editor-check")
        self.lines.append(line)
        return line

    def line(self):
        return self.page.inner_text("#editor-check")

    def text(self):
        return self.page.inner_text("#editor-text")

    def fixes(self):
        return [button.inner_text() for button in self.page.locator("#editor-fixes button").all()]

    def done(self, expected):
        """Done, and the edited position is the board's."""
        self.tap("#editor-done")
        self.page.wait_for_function(f"current().doc.text === {json.dumps(expected)}", timeout=WAIT_MS)

    def quiet(self):
        """No console error and no refused request so far, every check line one line."""
        assert self.console_errors == [] and self.refused == []
        assert all(CHECK_LINE.fullmatch(line) for line in self.lines), self.lines


def place_selector(place):
    return f"#editor-board [data-edit='{json.dumps(place, separators=(',', ':'))}']"


def piece_selector(brush):
    return f"#editor-palette [data-brush='{brush}']"


@pytest.fixture(params=list(SIZES))
def hand(request, browser, server):
    """A player at a page on the board at the size ``request.param`` names; the test fails
    if the page raises a script error."""
    page = open_board(browser, server, request.param)
    player = Hand(page, touch=request.param == "phone")
    player.size = request.param
    with error_free(page):
        yield player


def open_editor(hand, game):
    """The editor opened from the header on a blank position of ``game``."""
    hand.press("#edit")
    if game == hand.page.evaluate("editing.game"):
        hand.press("#editor-clear")
    else:
        hand.actions += 1
        before = hand.asked()
        hand.page.select_option("#editor-game", game)
        hand.answered(before)
    assert hand.line().startswith("not legal yet: ")


def load(page, text):
    page.fill("#position-text", text)
    page.click("#load")
    page.wait_for_function(f"current().doc.text === {json.dumps(Position.parse(text).text())}", timeout=WAIT_MS)


def small_targets(page):
    """The places and controls of the editor shown smaller than TAP_PX either way."""
    return page.evaluate(
        """(least) => [...document.querySelectorAll(
              '#editor [data-edit], #editor button, #editor select, #editor input, #editor summary')]
            .map((node) => [node.dataset.edit || node.id || node.textContent, node.getBoundingClientRect()])
            .filter(([, box]) => box.width > 0 && (box.width < least - 0.5 || box.height < least - 0.5))
            .map(([what, box]) => `${what}: ${Math.round(box.width)} x ${Math.round(box.height)}`)""",
        TAP_PX,
    )


# ---- finding the editor ----------------------------------------------------------------------


def test_the_editor_is_in_the_header_labelled(hand):
    page = hand.page
    button = page.locator("header #edit")
    assert button.inner_text().strip().endswith("Edit position") and button.get_attribute("title")
    box = button.bounding_box()
    assert box["y"] + box["height"] <= SIZES[hand.size]["height"]  # in view as the page opens
    if hand.size == "phone":
        assert box["width"] >= TAP_PX and box["height"] >= TAP_PX
    hand.press("#edit")
    assert page.locator("#editor-palette").is_visible() and page.inner_text("#editor-hint")
    for line in ("#editor-hint", "#editor-check"):  # in the page's theme (SCHEMES)
        assert text_contrast(page, line) >= READABLE, line


# ---- building a mid-game position: no error on the way ----------------------------------------


def test_an_azul_position_set_up_step_by_step_is_quiet_and_says_why_until_legal(hand):
    open_editor(hand, "azul")
    assert hand.line() == NO_TILES
    for name, value in [("round", "3"), ("turn", "2"), ("score-1", "7"), ("score-2", "4"), ("lid", "1/7/4/6/4")]:
        hand.field(name, value)
    # Blue, the first piece: a tap on a factory's second slot fills the first too.
    hand.put("B", area="factory", index=1, slot=1)
    hand.put("B", area="factory", index=2, slot=0)
    hand.put("B", area="centre", slot=2)  # after the marker
    hand.put("B", area="line", player=1, line=4, cell=2)
    hand.put("B", area="line", player=2, line=5, cell=3)
    # The colour wall takes the colour printed on a cell, whatever the tile.
    for player, row, col in [(1, 0, 3), (1, 1, 0), (1, 1, 2), (1, 3, 4), (2, 0, 0), (2, 0, 3), (2, 1, 4)]:
        hand.put("B", area="wall", player=player, row=row, col=col)
    for place in [
        {"area": "factory", "index": 1, "slot": 2},
        {"area": "factory", "index": 2, "slot": 2},
        {"area": "centre", "slot": 3},
        {"area": "line", "player": 1, "line": 1, "cell": 1},
        {"area": "line", "player": 2, "line": 4, "cell": 3},
    ]:
        hand.put("R", **place)
    for place in [
        {"area": "factory", "index": 1, "slot": 3},
        {"area": "factory", "index": 2, "slot": 3},
        {"area": "centre", "slot": 4},
        {"area": "line", "player": 1, "line": 3, "cell": 2},
    ]:
        hand.put("K", **place)
    # A colour with few places is quicker dragged: one action a place.
    hand.drag("W", area="centre", slot=8)
    hand.drag("W", area="line", player=1, line=5, cell=1)
    hand.drag("W", area="line", player=2, line=3, cell=1)
    hand.drag("Y", area="floor", player=1, slot=0)
    hand.drag("Y", area="line", player=2, line=2, cell=1)
    assert hand.line() == "legal: draft: player 2 to move"
    expected = Position.parse(AZUL_MID).text()
    assert hand.text() == expected  # the bag worked out
    hand.done(expected)
    assert hand.actions <= MOST_ACTIONS["azul"], hand.actions
    hand.quiet()
    assert any(line.startswith("not legal yet: ") for line in hand.lines)


def test_a_summer_pavilion_position_set_up_step_by_step_is_quiet(hand):
    open_editor(hand, "pavilion")
    for name, value in [("round", "2"), ("starter", "2"), ("score-1", "8"), ("score-2", "9"), ("tower", "2/1/0/1/3/2")]:
        hand.field(name, value)
    # An outer star's space takes the star's colour, whatever the tile.
    purple = [("supply", None, 1), ("star", 1, (6, 0)), ("hand", 2, 0)]
    outer = [(1, 5, 2), (2, 1, 0), (2, 1, 2), (2, 2, 0), (2, 4, 1)]
    steps = {
        "G": [
            ("factory", 3, 0),
            ("factory", 4, 0),
            ("centre", None, 0),
            ("supply", None, 2),
            ("star", 1, (6, 1)),
            ("hand", 2, 2),
        ],
        "O": [("factory", 3, 1), ("supply", None, 4), ("hand", 1, 1), ("hand", 2, 4), ("star", 2, (6, 0))],
        "Y": [("factory", 4, 1), ("centre", None, 2), ("supply", None, 7), ("hand", 1, 2)],
        "B": [("factory", 3, 2), ("factory", 4, 3), ("centre", None, 4), ("supply", None, 8), ("star", 2, (6, 2))],
    }
    for brush, places in [("P", purple), *steps.items()]:
        for area, who, where in places:
            hand.put(brush, **pavilion_place(area, who, where))
        if brush == "P":
            for player, star, space in outer:
                hand.put("P", area="star", player=player, star=star, space=space)
    for area, who, where in [("factory", 3, 3), ("centre", None, 5), ("supply", None, 9)]:
        hand.drag("R", **pavilion_place(area, who, where))
    expected = Position.parse(PAVILION_MID).text()
    assert hand.line() == "legal: draft: player 1 to move" and hand.text() == expected
    hand.done(expected)
    assert hand.actions <= MOST_ACTIONS["pavilion"], hand.actions
    hand.quiet()


def pavilion_place(area, who, where):
    if area == "factory":
        return {"area": area, "index": who, "slot": where}
    if area == "star":
        return {"area": area, "player": who, "star": where[0], "space": where[1]}
    if area in ("hand", "kept"):
        return {"area": area, "player": who, "slot": where}
    return {"area": area, "slot": where}


# ---- Azure: worked out, and fixed in one tap -----------------------------------------------------


def test_an_azure_position_needs_no_supplies_beasts_or_hidden_deck(hand):
    open_editor(hand, "azure")
    for name, value in [("layout", "A2@270 V1@90 B2@90 W1@0"), ("gifted", "mighty"), ("turn", "2")]:
        hand.field(name, value)
    for cell in ["c3", "d3", "e3", "a4", "c4"]:
        hand.put("1", area="cell", cell=cell)
    for cell in ["b2", "d2", "a5", "b5"]:
        hand.put("2", area="cell", cell=cell)
    hand.put("2", area="mountain", cell="c5", beast="tortoise")  # a stone on the Black mountain
    cards = {
        "A": [("hand", 1, 1), ("hand", 2, 0), ("known", 1, 0), ("known", 2, 0)],
        "W": [("hand", 1, 3), ("hand", 2, 1), ("known", 1, 2)],
        "V": [("hand", 1, 4), ("hand", 2, 4), ("known", 1, 3), ("known", 2, 2)],
    }
    for brush, places in cards.items():
        for area, player, slot in places:
            hand.put(brush, area=area, player=player, slot=slot)
    hand.drag("B", area="hand", player=1, slot=5)
    for name, value in [("faceup", "7/7/8/10"), ("score-1", "5"), ("score-2", "5")]:
        hand.field(name, value)
    expected = Position.parse(AZURE_MID).text()
    assert hand.line() == "legal: place: player 2 places a stone" and hand.text() == expected
    board = hand.page.locator("#editor-board").text_content()
    assert "Hidden deck (worked out" in board and board.count("9 stones in supply") == 2
    assert "beasts: Tiger, Bird" in board and "beasts: Dragon, Tortoise" in board
    if hand.size != "phone":
        return
    assert small_targets(hand.page) == []
    if os.environ.get("TESSERA_SCREENSHOTS"):
        hand.page.evaluate("document.getElementById('editor').scrollIntoView()")
        hand.page.screenshot(path=str(DOCS / "web-editor-phone.png"))
    hand.done(expected)
    assert hand.actions <= MOST_ACTIONS["azure"], hand.actions
    hand.quiet()


def test_where_the_engine_cannot_work_it_out_the_fix_is_one_tap(hand):
    load(hand.page, AZURE_MID)
    hand.press("#edit")
    # The Black mountain's stone taken off: the Tortoise is unclaimed (guards 2 to 2).
    hand.put("erase", area="mountain", cell="c5", beast="tortoise")
    assert hand.line() == "legal: place: player 2 places a stone"
    # A third serpent guard: player 2 takes the Tortoise, and must put a stone on its mountain.
    hand.put("2", area="cell", cell="b1")
    assert hand.line() == (
        "not legal yet: bad position: beasts: player 2 holds the tortoise with stones in supply"
        " but none on the Black mountain"
    )
    assert hand.fixes() == ["Fix: put player 2's stone on the Black mountain (c5)"]
    if hand.size == "phone":
        assert small_targets(hand.page) == []
    hand.press("#editor-fixes button >> nth=0")
    assert hand.line() == "legal: place: player 2 places a stone"
    assert "stones b1,b2,d2,a5,b5,c5" in hand.text() and "supply 8" in hand.text()
    # Hands whose cards were all drawn unseen: more than the hidden deck ever held.
    for player in (1, 2):
        for _ in range(len(Position.parse(AZURE_MID).to_json()["players"][player - 1]["known"])):
            hand.put("erase", area="known", player=player, slot=0)
    assert hand.line().startswith("not legal yet: bad position: cards: 5 azure cards are in the hidden deck or drawn")
    assert hand.fixes()[0] == "Fix: player 1 knows 2 azure, 2 white and 1 vermillion cards more (taken face up)"
    hand.press("#editor-fixes button >> nth=0")
    assert hand.line() == "legal: place: player 2 places a stone" and "known AAWWV" in hand.text()
    hand.quiet()


def test_a_beast_given_by_hand_stays_in_a_tie_and_follows_the_stones_out_of_it(hand):
    """Ruling: a tap on a mountain gives its beast; the guards move it only as the rules do."""
    load(hand.page, AZURE_MID)
    hand.press("#edit")
    hand.put("2", area="cell", cell="e1")  # the Bird's guards: 2 to 2
    assert "beasts tiger,bird" in hand.text()  # a tie: the holder keeps it
    hand.put("2", area="mountain", cell="f2", beast="bird")  # given to player 2 by hand
    assert "beasts dragon,bird,tortoise" in hand.text() and hand.line().startswith("legal: ")
    hand.put("1", area="mountain", cell="a2", beast="dragon")  # 1 guard to 3: player 2 keeps it
    assert "beasts dragon,bird,tortoise" in hand.text()
    hand.put("erase", area="cell", cell="e1")  # 2 guards to 1: the Bird goes back to player 1
    assert "beasts tiger,bird" in hand.text()
    hand.quiet()


# ---- the palette and the hints ----------------------------------------------------------------


BOARD_COLOURS = {"azul": "AZUL_TILES", "pavilion": "PAVILION_TILES", "azure": "AZURE_DOMAINS"}


def rgb(hex_colour):
    value = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(value[i : i + 2], 16) for i in (0, 2, 4)))


@pytest.mark.parametrize("game", list(BOARD_COLOURS))
def test_the_palette_is_the_boards_pieces_and_each_area_has_a_hint(hand, game):
    open_editor(hand, game)
    page = hand.page
    colours = page.evaluate(BOARD_COLOURS[game])
    players = page.evaluate("AZURE_PLAYERS")
    for piece in page.locator("#editor-palette [data-brush]").all():
        brush = piece.get_attribute("data-brush")
        label = piece.get_attribute("aria-label")
        shown = piece.evaluate("node => getComputedStyle(node).backgroundColor")
        if brush == "erase":
            assert label == "the eraser"
        elif brush in colours:
            assert shown == rgb(colours[brush]["fill"]) and ("tile" in label or "card" in label or "marker" in label)
        else:  # an Azure stone: the player's colour, as on the board
            assert shown == rgb(players[brush[-1]]) and "stone" in label
    # Every place tells what a tap there does: a tooltip and, as it is pointed at or
    # tapped, the hint line; one line each, one hint an area.
    hints = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#editor-board [data-edit]')].map((node) =>
             [JSON.parse(node.dataset.edit).area, node.querySelector('title').textContent]))"""
    )
    assert hints == page.evaluate(f"EDITORS.{game}.hints")
    general = page.evaluate(f"EDITORS.{game}.hint")
    assert all(0 < len(hint) <= HINT_CHARS and "\n" not in hint for hint in [general, *hints.values()])
    # The hint line keeps its height: the board under the finger does not move.
    board_top = page.evaluate(BOARD_TOP)
    for area, hint in hints.items():
        first = page.locator(f'#editor-board [data-edit*=\'"area":"{area}"\']').first
        where = json.loads(first.get_attribute("data-edit"))
        if hand.touch:
            hand.choose("erase")  # a tap erases nothing on an empty place
            hand.tap(place_selector(where))
        else:
            page.hover(place_selector(where))
        page.wait_for_function(f"document.getElementById('editor-hint').textContent === {json.dumps(hint)}")
        assert page.evaluate(BOARD_TOP) == board_top
    if hand.size == "phone":
        assert small_targets(page) == []
    hand.quiet()
