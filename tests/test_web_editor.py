"""The position editor and share links (docs/web.md, "Position editor" and "Share links").

The inference of Azul's bag and lid (and Summer Pavilion's bag and tower) from the game's
tile total, and of Azure's supplies, beasts and decks from the rest, on hand-worked
positions, the fixes offered where it cannot, and a position not legal yet answered as
such (HTTP 200 with the reason), through the API's test client; then, in Debian's
headless chromium against a real `tessera serve`: positions built by clicking the
editor's board equal the ones read from their notation (the engine's position text),
the editor edits complete positions, not a player's view, a share link opened in a fresh
page restores the game and the move on the board, and a bad link shows one error line and
leaves a board to play on. `TESSERA_SCREENSHOTS=1` writes docs/web-editor.png."""

import copy
import json
import os
import random
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from starlette.testclient import TestClient

from tessera.position import Position
from tessera.web.app import create_app
from tessera.web.editor import infer, infer_unseen
from tests.browser_page import error_free, needs_chromium, open_board

DOCS = Path(__file__).resolve().parents[1] / "docs"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT_MS = 60_000

# Round 2, player 2 to move; player 1 took the marker with a red tile. Tiles seen:
# blue 2 (F1) + 1 + 1 (walls) = 4, yellow 1 (F1) + 1 (centre) + 2 (P1 line 2) = 4,
# red 1 (F1) + 1 (P1 floor) + 1 (P2 line 3) = 3, black 2 (F3), white 2 (F3); so 16/16/17/18/18
# are unseen, and with the lid 2/1/0/3/1 the bag holds 14/15/17/15/17.
AZUL_BUILT = """azul players 2 wall colour round 2 phase draft turn 2 starter 1
factories BBYR - KKWW - -
centre Y
bag 14/15/17/15/17
lid 2/1/0/3/1
player 1 score 4 wall B..../...../...../...../..... lines ./YY/.../..../..... floor 1R
player 2 score 2 wall ...../.B.../...../...../..... lines ./../R../..../..... floor -"""

# Round 2 (green wild), player 1 to draft, the supply full. Tiles seen: purple 2 (F1) +
# 1 (P1 star) = 3, green 1 (F1) + 2 (supply) = 3, orange 1 (F1) + 2 (supply) + 1 (P2 centre
# star) = 4, yellow 1 (centre) + 2 (supply) = 3, blue 2 (supply), red 2 (supply) + 1 (P2
# star) + 1 (P2 hand) = 4; the rest of the 22 of each colour is in the bag.
PAVILION_BUILT = """pavilion players 2 round 2 wild green phase draft turn 1 starter 1 token - passed - reward 0
factories PPGO - - - -
centre Y
supply GGOOYYBBRR
bag 19/19/18/19/20/18
tower 0/0/0/0/0/0
player 1 score 7 stars P...../....../....../....../....../....../...... hand - kept -
player 2 score 5 stars ....../....../....../....../....../.R..../..O... hand R kept -"""

# Round 3 with four tiles in the centre: four drafts end the round.
AZUL_ROUND_END = (
    "azul players 2 wall colour round 3 phase draft turn 1 starter 1; factories - - - - -;"
    " centre BYYRRKK; bag 8/8/7/9/8; lid 6/7/6/7/8; player 1 score 8 wall"
    " BYRK./...../...../..W../..... lines ./../.../BBB./K.... floor -; player 2 score 3"
    " wall B..../W..../...../...../..... lines ./YY/RRR/..../WW... floor 1R"
)

# The first example of docs/azure-notation.md. Face-up cards: 12 of each colour minus the
# hidden deck and the hands: azure 12 - 2 - 2 - 1 = 7, white 7, vermillion 12 - 1 - 3 = 8,
# black 12 - 1 - 1 = 10.
AZURE_BUILT = """azure gifted mighty cosmos no view -
layout A2@270 V1@90 B2@90 W1@0
phase place turn 2
faceup 7/7/8/10 deck AAWWB
player 1 score 5 supply 9 stones c3,d3,e3,a4,c4 gifted - beasts tiger,bird hand AAWWVB known AWWV
player 2 score 5 supply 9 stones b2,d2,a5,b5,c5 gifted - beasts dragon,tortoise hand AWVVV known AVV"""


# ---- inference of the unseen tiles -----------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(analysis=False), base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def unseen(text, *fields):
    """The JSON form of ``text`` with ``fields`` (bag, lid, tower) left to inference."""
    position = Position.parse(text).to_json()
    return {**position, **dict.fromkeys(fields)}


def test_azul_unseen_tiles_go_to_the_bag_when_neither_is_given():
    filled = infer_unseen(unseen(AZUL_BUILT, "bag", "lid"))
    assert filled["bag"] == {"blue": 16, "yellow": 16, "red": 17, "black": 18, "white": 18}
    assert filled["lid"] == dict.fromkeys(filled["lid"], 0)


def test_azul_a_given_lid_leaves_the_rest_in_the_bag_and_a_given_bag_the_rest_in_the_lid():
    lid = {"blue": 2, "yellow": 1, "red": 0, "black": 3, "white": 1}
    assert infer_unseen({**unseen(AZUL_BUILT, "bag"), "lid": lid})["bag"] == {
        "blue": 14,
        "yellow": 15,
        "red": 17,
        "black": 15,
        "white": 17,
    }
    bag = {"blue": 10, "yellow": 16, "red": 0, "black": 18, "white": 9}
    assert infer_unseen({**unseen(AZUL_BUILT, "lid"), "bag": bag})["lid"] == {
        "blue": 6,
        "yellow": 0,
        "red": 17,
        "black": 0,
        "white": 9,
    }


def test_azul_a_part_filled_factory_puts_the_unseen_tiles_in_the_lid():
    """A factory of 1 to 3 tiles: the refill ran out there, so the bag is empty."""
    position = unseen(AZUL_BUILT, "bag", "lid")
    position["factories"] = ["BBYR", "KKWW", "BY", "-", "-"]
    filled = infer_unseen(position)
    assert filled["bag"] == dict.fromkeys(filled["bag"], 0)
    assert filled["lid"] == {"blue": 15, "yellow": 15, "red": 17, "black": 18, "white": 18}
    Position.parse(filled)  # the engine reads it


def test_azul_colour_wall_x_counts_as_the_printed_colour():
    position = unseen(AZUL_BUILT, "bag", "lid")
    position["boards"][1]["wall"][1] = ".x..."  # row 2, column 2: blue
    assert infer_unseen(position)["bag"]["blue"] == 16


def test_pavilion_unseen_tiles_go_to_the_bag():
    filled = infer_unseen(unseen(PAVILION_BUILT, "bag", "tower"))
    assert filled["bag"] == {"purple": 19, "green": 19, "orange": 18, "yellow": 19, "blue": 20, "red": 18}
    assert filled["tower"] == dict.fromkeys(filled["tower"], 0)


def test_azure_face_up_cards_are_the_ones_not_in_the_deck_or_a_hand():
    position = {**Position.parse(AZURE_BUILT).to_json(), "faceup": None}
    assert infer(position)[0]["faceup"] == {"azure": 7, "white": 7, "vermillion": 8, "black": 10}
    view = {**Position.parse(AZURE_BUILT).view(1).to_json(), "faceup": None}
    assert infer(view) == (view, [])  # a view's deck is hidden: nothing inferred


def azure_left_out(*fields):
    """AZURE_BUILT's JSON form with ``fields`` left to inference: a top-level one (deck,
    faceup) or one of every player (supply, beasts)."""
    position = Position.parse(AZURE_BUILT).to_json()
    for field in fields:
        for owner in position["players"] if field in ("supply", "beasts") else [position]:
            owner[field] = None
    return position


def test_azure_supplies_beasts_and_the_hidden_deck_are_worked_out_from_the_rest():
    """14 stones less the 5 on the realm; the Dragon 3 guards to 1 and the Tiger 3 to 1
    (lines of sight), the Bird 2 to 1 (vermillion spaces), the Tortoise by player 2's stone
    on the Black mountain c5 (serpents 2 to 2); the hidden deck the 12 of a colour less the
    face-up decks and the hands (azure 12 - 7 - 3 = 2, white 2, vermillion 0, black 1)."""
    filled, inferred = infer(azure_left_out("supply", "beasts", "deck"))
    assert inferred == ["supply", "beasts", "deck"]
    assert Position.parse(filled).text() == Position.parse(AZURE_BUILT).text()


def test_azure_with_neither_deck_given_the_hidden_deck_holds_what_the_unseen_limit_leaves():
    """Cards drawn unseen: player 1's A and B, player 2's W and V; so 3 - 1 of each colour
    stays in the hidden deck, and the face-up decks hold the rest."""
    filled, inferred = infer(azure_left_out("deck", "faceup"))
    assert inferred == ["deck", "faceup"]
    assert filled["deck"] == "AAWWVVBB"
    assert filled["faceup"] == {"azure": 7, "white": 7, "vermillion": 6, "black": 9}
    Position.parse(filled)


def edited(client, position):
    response = client.post("/api/editor/position", json={"position": position})
    assert response.status_code == 200
    return response.json()


def beasts_of(answer):
    return [player["beasts"] for player in (answer["json"] if answer["legal"] else answer["position"])["players"]]


def test_azure_beasts_follow_the_stones_a_tie_keeping_the_holder_given(client):
    position = azure_left_out("supply")
    position["players"][1]["stones"].append("e1")  # the Bird's guards: 2 to 2
    assert beasts_of(edited(client, position)) == [["tiger", "bird"], ["dragon", "tortoise"]]
    position["players"][0]["beasts"], position["players"][1]["beasts"] = ["tiger"], ["dragon", "bird", "tortoise"]
    answer = edited(client, position)  # a tie: player 2 keeps the Bird given
    assert answer["legal"] and beasts_of(answer) == [["tiger"], ["dragon", "bird", "tortoise"]]
    position["players"][1]["stones"].remove("e1")  # 2 to 1: the Bird goes to player 1
    answer = edited(client, position)
    assert answer["legal"] and answer["inferred"] == ["supply", "beasts"]
    assert beasts_of(answer) == [["tiger", "bird"], ["dragon", "tortoise"]]
    position["players"][1]["stones"].remove("c5")  # no stone on the Black mountain: the Tortoise is free
    assert beasts_of(edited(client, position)) == [["tiger", "bird"], ["dragon"]]


def test_what_cannot_be_worked_out_is_offered_as_a_fix_that_makes_it_legal(client):
    position = azure_left_out("supply")
    position["players"][1]["stones"].remove("c5")
    position["players"][1]["stones"].append("b1")  # serpents 3 to 2: player 2 takes the Tortoise
    answer = edited(client, position)
    assert answer["legal"] is False and answer["reason"] == (
        "bad position: beasts: player 2 holds the tortoise with stones in supply but none on the Black mountain"
    )
    assert [fix["label"] for fix in answer["fixes"]] == ["put player 2's stone on the Black mountain (c5)"]
    fixed = edited(client, answer["fixes"][0]["position"])
    assert fixed["legal"] and "stones b1,b2,d2,a5,b5,c5" in fixed["text"] and "supply 8" in fixed["text"]
    # A supply given wrong; hands drawn all unseen.
    position = Position.parse(AZURE_BUILT).to_json()
    position["players"][0]["supply"] = 3
    answer = edited(client, position)
    assert [fix["label"] for fix in answer["fixes"]] == ["supply as the stones say (9 for player 1)"]
    assert edited(client, answer["fixes"][0]["position"])["text"] == Position.parse(AZURE_BUILT).text()
    position = Position.parse(AZURE_BUILT).to_json()
    for player in position["players"]:
        player["known"] = "-"
    answer = edited(client, position)
    assert answer["reason"].startswith("bad position: cards: 5 azure cards are in the hidden deck or drawn from it")
    labels = [fix["label"] for fix in answer["fixes"]]
    assert labels[0] == "player 1 knows 2 azure, 2 white and 1 vermillion cards more (taken face up)"
    assert all(edited(client, fix["position"])["legal"] for fix in answer["fixes"][:2])


def test_an_azure_answer_not_legal_yet_brings_the_realm_of_its_layout(client):
    position = Position.parse(AZURE_BUILT).to_json()
    position["players"][0]["score"] = 99
    answer = edited(client, position)
    drawn = client.post("/api/editor/realm", json={"layout": "A2@270 V1@90 B2@90 W1@0"}).json()
    assert answer["legal"] is False and answer["realm"] == drawn["realm"]
    position["layout"]["top-left"]["domain"] = "white"  # two white domains: no realm
    answer = edited(client, position)
    assert answer["reason"].startswith("bad position: layout") and "realm" not in answer


def test_the_realm_of_a_layout_is_the_realm_a_position_with_it_draws(client):
    answer = client.post("/api/editor/realm", json={"layout": "A2@270 V1@90 B2@90 W1@0"}).json()
    drawn = client.post("/api/position", json={"position": AZURE_BUILT}).json()["realm"]
    assert answer["realm"]["cells"] == [
        dict(cell, stone=None, **({"holder": None} if "holder" in cell else {})) for cell in drawn["cells"]
    ]
    bad = client.post("/api/editor/realm", json={"layout": "A2@270 A1@90 B2@90 W1@0"})
    assert bad.status_code == 400 and "layout" in bad.json()["error"]


def test_the_route_answers_the_document_and_what_it_inferred(client):
    response = client.post("/api/editor/position", json={"position": unseen(AZUL_BUILT, "bag", "lid")})
    assert response.status_code == 200
    answer = response.json()
    expected = Position.parse(
        AZUL_BUILT.replace("bag 14/15/17/15/17", "bag 16/16/17/18/18").replace("lid 2/1/0/3/1", "lid 0/0/0/0/0")
    )
    assert answer["text"] == expected.text() and answer["inferred"] == ["bag", "lid"]
    assert answer["moves"] and answer["to_move"] == 2
    given = client.post("/api/editor/position", json={"position": Position.parse(AZUL_BUILT).to_json()})
    assert given.json()["text"] == Position.parse(AZUL_BUILT).text() and given.json()["inferred"] == []


@pytest.mark.parametrize(
    "change, error",
    [
        # 21 blue seen: left at 0 in the bag, and the engine's tile count names the colour.
        (lambda p: p.update(factories=["BBBB", "BBBB", "BBBB", "BBBB", "BBBB"], centre="1B"), "bad position: tiles:"),
        (lambda p: p.update(centre="Y"), "bad position: marker:"),  # the marker is gone
        (lambda p: p.update(factories="BBYR"), "bad position: factories:"),
    ],
)
def test_a_position_not_legal_yet_is_an_answer_with_the_engines_one_line_reason(client, change, error):
    """Not an HTTP error: a position being built is not legal until it is."""
    position = unseen(AZUL_BUILT, "bag", "lid")
    position["boards"][0]["floor"] = "R"
    position["centre"] = "1Y"
    change(position)
    response = client.post("/api/editor/position", json={"position": position})
    assert response.status_code == 200
    answer = response.json()
    assert answer["legal"] is False and answer["fixes"] == [] and "text" not in answer
    assert answer["reason"].startswith(error) and "\n" not in answer["reason"]


def test_a_position_that_is_not_an_object_is_refused(client):
    response = client.post("/api/editor/position", json={"position": AZUL_BUILT})
    assert response.status_code == 400
    assert response.json() == {"error": "position must be a position's JSON form (an object)"}


JUNK = [None, -1, 0, 2**40, 3.5, True, "", "x", "BBBB", "1", "-", ".....", [], ["B"], {}, {"blue": 1}, [[["deep"]]]]


def paths(value, prefix=()):
    """Every path to a value inside a JSON tree."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for key, item in items:
        yield from paths(item, (*prefix, key))


@pytest.mark.parametrize("text", [AZUL_BUILT, PAVILION_BUILT, AZURE_BUILT])
def test_seeded_junk_in_an_edited_position_is_a_one_line_error_never_a_fault(client, text):
    """Any field of the JSON form replaced by junk, unseen counts left to inference or
    not: 200 with a legal position or the engine's one-line reason; 400 (one line) only
    when the position is not an object."""
    rng = random.Random(39)
    start = Position.parse(text).to_json()
    every = list(paths(start))
    for _ in range(300):
        position = copy.deepcopy(start)
        path = rng.choice(every)
        for key in ("bag", "lid", "tower", "deck", "faceup"):
            if key in position and path[:1] != (key,) and rng.random() < 0.5:
                position[key] = None
        players = position["players"] if isinstance(position.get("players"), list) else []
        for index, player in enumerate(players):
            for key in ("supply", "beasts"):  # Azure's per-player inferences
                if isinstance(player, dict) and path[:3] != ("players", index, key) and rng.random() < 0.3:
                    player[key] = None
        junk = rng.choice(JUNK)
        if not path:
            position = junk
        else:
            parent = position
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = junk
        response = client.post("/api/editor/position", json={"position": position})
        assert response.status_code == (200 if isinstance(position, dict) else 400), (path, junk, response.text)
        answer = response.json()
        message = answer.get("error") or answer.get("reason")
        if response.status_code == 400 or not answer["legal"]:
            assert message and "\n" not in message and "internal error" not in message


# ---- the editor and share links in the browser -------------------------------------------------


def open_page(browser, url):
    page = open_board(browser, url)
    page.wait_for_function("ui.history.length > 0 && current().doc", timeout=WAIT_MS)
    return page


@pytest.fixture
def page(browser, server):
    with error_free(open_page(browser, server)) as page:
        yield page


def save_screenshot(page, name):
    """The page as a PNG, into docs/``name`` when TESSERA_SCREENSHOTS is set."""
    image = page.screenshot(full_page=True)
    assert image.startswith(PNG_SIGNATURE)
    if os.environ.get("TESSERA_SCREENSHOTS"):
        DOCS.joinpath(name).write_bytes(image)


def place(page, **fields):
    return page.locator(f"#editor-board [data-edit='{json.dumps(fields, separators=(',', ':'))}']")


def checked(page):
    """The editor's line once the engine has answered the latest change."""
    page.wait_for_function(
        "!['', 'checking…'].includes(document.getElementById('editor-check').textContent)", timeout=WAIT_MS
    )
    return page.inner_text("#editor-check")


def click(page, brush, **fields):
    page.click(f"#editor-palette [data-brush='{brush}']")
    place(page, **fields).click()
    checked(page)


def set_field(page, name, value):
    field = page.locator(f"#editor-fields [data-field='{name}']")
    if field.evaluate("node => node.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)
        field.press("Tab")  # the change is sent as the field is left
    checked(page)


def editor_text(page):
    return page.inner_text("#editor-text")


@pytest.mark.browser
@needs_chromium
def test_an_azul_position_built_by_clicks_is_what_its_notation_reads(page):
    expected = Position.parse(AZUL_BUILT).text()
    page.click("#edit")
    assert checked(page).startswith("legal:")  # it starts from the board's position
    assert editor_text(page) == page.evaluate("current().doc.text")
    assert page.locator("#board").is_hidden()
    page.click("#editor-clear")
    assert checked(page).startswith("not legal yet: bad position: factories: no tiles")
    set_field(page, "round", "2")
    set_field(page, "turn", "2")
    for slot, brush in enumerate("BBYR"):
        click(page, brush, area="factory", index=0, slot=slot)
    for slot, brush in enumerate("KKWW"):
        click(page, brush, area="factory", index=2, slot=slot)
    click(page, "erase", area="centre", slot=0)  # the marker leaves the centre ...
    assert checked(page).startswith("not legal yet: bad position: marker:")
    click(page, "Y", area="centre", slot=0)
    click(page, "1", area="floor", player=1, slot=0)  # ... for player 1's floor
    click(page, "R", area="floor", player=1, slot=1)
    click(page, "B", area="wall", player=1, row=0, col=0)
    click(page, "Y", area="line", player=1, line=2, cell=2)  # fills line 2 up to cell 2
    click(page, "W", area="wall", player=2, row=1, col=1)  # the colour wall's printed blue
    click(page, "R", area="line", player=2, line=3, cell=3)
    click(page, "erase", area="line", player=2, line=3, cell=2)  # leaves one red by the wall
    set_field(page, "score-1", "4")
    set_field(page, "score-2", "2")
    # The bag and lid are inferred (all 16/16/17/18/18 unseen tiles in the bag) ...
    assert checked(page).startswith("legal: draft: player 2 to move")
    assert "bag 16/16/17/18/18" in editor_text(page)
    assert page.get_attribute("#editor-fields [data-field='bag']", "placeholder") == "16/16/17/18/18 (inferred)"
    # ... until the lid is given: the bag holds the rest.
    set_field(page, "lid", "2/1/0/3/1")
    assert editor_text(page) == expected
    save_screenshot(page, "web-editor.png")
    # Done: the game goes on from the edited position.
    page.click("#editor-done")
    page.wait_for_function(f"current().doc.text === {json.dumps(expected)} && ui.history.length === 1", timeout=WAIT_MS)
    assert page.locator("#editor").is_hidden() and page.locator("#board").is_visible()
    assert page.evaluate("current().doc.to_move") == 2


@pytest.mark.browser
@needs_chromium
def test_the_editor_opens_on_the_boards_position_and_takes_new_tiles_from_the_bag(page):
    page.fill("#position-text", AZUL_ROUND_END)
    page.click("#load")
    page.wait_for_function("ui.history.length === 1 && current().doc.json.round === 3", timeout=WAIT_MS)
    play_listed(page, "C blue 2")
    board = page.evaluate("current().doc.text")
    page.click("#edit")
    assert checked(page) == "legal: draft: player 2 to move"
    assert editor_text(page) == board  # the lid as it was, the bag the rest
    assert page.input_value("#editor-fields [data-field='lid']") == "6/7/6/7/8"
    click(page, "K", area="centre", slot=6)  # a black tile more in the centre: one less in the bag
    assert "bag 8/8/7/8/8" in editor_text(page) and "lid 6/7/6/7/8" in editor_text(page)
    # The game behind the editor stays at its move: ← and Home are held.
    page.click("#editor-check")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    assert page.evaluate("ui.index") == 1
    page.click("#editor-cancel")  # the board is as it was, and ← is undo again
    assert page.evaluate("current().doc.text") == board and page.locator("#board").is_visible()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("ui.index === 0", timeout=WAIT_MS)


@pytest.mark.browser
@needs_chromium
def test_a_summer_pavilion_position_built_by_clicks_is_what_its_notation_reads(page):
    expected = Position.parse(PAVILION_BUILT).text()
    page.click("#edit")
    checked(page)
    page.select_option("#editor-game", "pavilion")  # a blank Summer Pavilion position
    assert checked(page).startswith("not legal yet: bad position:")
    set_field(page, "round", "2")
    assert page.locator("#editor-board").text_content().count("wild G (green)") == 1
    set_field(page, "score-1", "7")
    for slot, brush in enumerate("PPGO"):
        click(page, brush, area="factory", index=0, slot=slot)
    click(page, "Y", area="centre", slot=0)
    for slot, brush in enumerate("GGOOYYBBRR"):
        click(page, brush, area="supply", slot=slot)
    click(page, "B", area="star", player=1, star=0, space=0)  # purple's star takes purple
    click(page, "R", area="star", player=2, star=5, space=1)
    click(page, "O", area="star", player=2, star=6, space=2)  # the centre star: any colour
    click(page, "R", area="hand", player=2, slot=0)
    click(page, "Y", area="hand", player=2, slot=1)
    click(page, "erase", area="hand", player=2, slot=0)  # the hand reads in colour order: YR
    assert checked(page).startswith("legal: ")
    assert editor_text(page) == expected
    page.click("#editor-done")
    page.wait_for_function(f"current().doc.text === {json.dumps(expected)}", timeout=WAIT_MS)


@pytest.mark.browser
@needs_chromium
def test_an_azure_position_built_by_clicks_is_what_its_notation_reads(page):
    expected = Position.parse(AZURE_BUILT).text()
    page.select_option("#game", "azure")
    page.click("#new")
    page.wait_for_function("current().doc.game === 'azure'", timeout=WAIT_MS)
    page.click("#edit")
    assert checked(page).startswith("legal:")
    page.click("#editor-clear")
    checked(page)
    set_field(page, "layout", "A2@270 V1@90 B2@90 W1@0")  # the realm drawn follows
    assert place(page, area="cell", cell="c4").count() == 1
    assert place(page, area="mountain", cell="c5", beast="tortoise").count() == 1
    assert "Tortoise" in page.locator("#editor-board").text_content()
    set_field(page, "gifted", "mighty")
    set_field(page, "turn", "2")
    for player, cells in [("1", "c3 d3 e3 a4 c4"), ("2", "b2 d2 a5 b5")]:
        for cell in cells.split():
            click(page, player, area="cell", cell=cell)
    click(page, "2", area="mountain", cell="c5", beast="tortoise")  # the Black mountain
    click(page, "G1", area="cell", cell="f1")  # a gifted stone, then erased
    click(page, "erase", area="cell", cell="f1")
    for slot, card in enumerate("AAWWB"):
        click(page, card, area="deck", slot=slot)
    for player, hand, known in [(1, "AAWWVB", "AWWV"), (2, "AWVVV", "AVV")]:
        for slot, card in enumerate(hand):
            click(page, card, area="hand", player=player, slot=slot)
        for slot, card in enumerate(known):
            click(page, card, area="known", player=player, slot=slot)
    set_field(page, "score-1", "5")
    set_field(page, "score-2", "5")
    # The supplies, the beasts (the stones' guards, the Black mountain's stone) and the
    # face-up decks are inferred.
    assert checked(page).startswith("legal: place: player 2")
    assert editor_text(page) == expected
    page.click("#editor-done")
    page.wait_for_function(f"current().doc.text === {json.dumps(expected)}", timeout=WAIT_MS)


@pytest.mark.browser
@needs_chromium
def test_the_editor_edits_complete_positions_not_a_players_view(page):
    view = Position.parse(AZURE_BUILT).view(2).text()
    page.fill("#position-text", view)
    page.click("#load")
    page.wait_for_function("current().doc.is_view", timeout=WAIT_MS)
    page.click("#edit")
    assert "edits complete positions, not a player's view" in page.inner_text("#editor-check")
    assert page.locator("#editor-board").count() == 0
    page.click("#editor-cancel")
    assert page.locator("#board").is_visible() and page.locator("#editor").is_hidden()


def play_listed(page, move):
    before = page.evaluate("ui.history.length")
    page.locator(f"#moves button[data-move='{move}']").click()
    page.wait_for_function(f"ui.history.length === {before + 1}", timeout=WAIT_MS)


def history(page):
    return page.evaluate("ui.history.map((node) => [node.move, node.text, node.rng])")


@pytest.mark.browser
@needs_chromium
def test_a_share_link_opened_in_a_fresh_page_restores_the_game_at_its_move(browser, server, page):
    page.fill("#position-text", AZUL_ROUND_END)
    page.click("#load")
    page.wait_for_function("ui.history.length === 1 && current().doc.json.round === 3", timeout=WAIT_MS)
    page.uncheck("#deal")  # the round's refill is chosen by hand ...
    for move in ["C blue 2", "C yellow floor", "C red 3", "C black floor"]:
        play_listed(page, move)
    assert page.evaluate("current().doc.is_chance")
    play_listed(page, page.evaluate("current().doc.moves[0].text"))
    page.check("#deal")  # ... then dealt by the seed
    play_listed(page, page.evaluate("current().doc.moves[1].text"))
    assert page.evaluate("current().doc.to_move") is not None
    assert page.evaluate("current().move").endswith("(chance dealt)")
    page.click("#undo")
    page.wait_for_function("ui.index === 5")
    played = history(page)
    page.click("#copy-link")
    page.wait_for_selector("#share-link:not([hidden])")
    link = page.input_value("#share-link")
    assert link.startswith(server) and "hold=4%2C5" in link and "at=5" in link
    fresh = open_page(browser, link)
    try:
        assert history(fresh) == played
        assert fresh.evaluate("ui.index") == 5
        assert fresh.evaluate("current().doc.text") == played[5][1]
        assert fresh.locator("#error").is_hidden()
        assert fresh.inner_text("#history li.current") == played[5][0]
        assert not fresh.errors, fresh.errors
    finally:
        fresh.close()


@pytest.mark.browser
@needs_chromium
def test_a_link_of_a_new_game_with_dealt_chance_restores_it(browser, server, page):
    """Moves dealt by the seed's generator: the link carries the generator's state."""
    page.select_option("#game", "pavilion")
    page.fill("#seed", "4")
    page.click("#new")
    page.wait_for_function("current().doc.game === 'pavilion' && ui.history.length === 1", timeout=WAIT_MS)
    for _ in range(3):
        play_listed(page, page.evaluate("current().doc.moves[0].text"))
    played = history(page)
    page.click("#copy-link")
    page.wait_for_selector("#share-link:not([hidden])")
    link = page.input_value("#share-link")
    fresh = open_page(browser, link)
    try:
        assert history(fresh) == played and fresh.evaluate("ui.index") == 3
        # Pasted into the address bar of a page showing another game: the link's game.
        fresh.evaluate("location.hash = 'elsewhere'")
        fresh.select_option("#game", "azul")
        fresh.click("#new")
        fresh.wait_for_function("current().doc.game === 'azul'", timeout=WAIT_MS)
        fresh.evaluate(f"location.hash = {json.dumps(link.split('#', 1)[1])}")
        fresh.wait_for_function("current().doc.game === 'pavilion' && ui.history.length === 4", timeout=WAIT_MS)
        assert history(fresh) == played
        assert not fresh.errors, fresh.errors
    finally:
        fresh.close()


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize(
    "hash_part, error",
    [
        ("p=azul+players+9", "error: bad link: bad position: players:"),
        (f"p={quote_plus(AZUL_ROUND_END)}&m=C+blue+2&m=F9+red+1", 'error: bad link: move 2 "F9 red 1": '),
        (f"p={quote_plus(AZUL_ROUND_END)}&m=C+blue+2&at=7", "error: bad link: at must be a move number from 0 to 1"),
    ],
)
def test_a_bad_link_shows_one_error_line_and_the_board_stays_usable(browser, server, hash_part, error):
    page = open_page(browser, f"{server}/#{hash_part}")
    try:
        page.wait_for_selector("#error:not([hidden])")
        message = page.inner_text("#error")
        assert message.startswith(error) and "\n" not in message
        # The board plays on: what the link held up to its fault, or a new game.
        before = page.evaluate("ui.history.length")
        play_listed(page, page.evaluate("current().doc.moves[0].text"))
        assert page.evaluate("ui.history.length") == before + 1
        assert not page.errors, page.errors
    finally:
        page.close()
