"""Azul notation: text and JSON round trips, every validation error, move text."""

import json
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tessera.kernels.azul as azul
from tessera.errors import MoveError, PositionError
from tessera.kernels.azul.layout import (
    MARKER_BIT,
    MAX_MOVES,
    P_LINES,
    P_SCORE,
    P_WALL,
    VARIANT_COLOUR,
    VARIANT_GRAY,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_GAME,
    draft_move,
    player_word,
)
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.notation.azul import (
    format_move,
    format_position,
    parse_move,
    parse_position,
    position_from_json,
    position_to_json,
    validate,
)
from tests.repo import repo_text
from tests.tiers import fewer

# Hand-written positions, in canonical text. Each keeps all 20 tiles of every colour.
REFILL_2P = """\
azul players 2 wall colour round 1 phase refill turn 1 starter 1
factories BBYR KKWW YR - -
centre 1
bag 18/18/18/18/18
lid 0/0/0/0/0
player 1 score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor -
player 2 score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor -"""

DRAFT_2P = """\
azul players 2 wall colour round 3 phase draft turn 2 starter 1
factories BBYR - KKWW - YRKW
centre BBY
bag 12/14/11/13/14
lid 1/0/2/0/0
player 1 score 7 wall BY.../W..../..B../...../..... lines ./YY/R../..../KKK.. floor 1RR
player 2 score 2 wall ..R../...../...../R..../..... lines B/../WW./..../..... floor K"""

TILING_3P_GRAY = """\
azul players 3 wall gray round 2 phase tiling turn 1 starter 2
factories - - - - - - -
centre -
bag 10/16/17/17/11
lid 3/2/1/0/4
player 1 score 2 wall B..../.Y.../...../...../..... lines ./RR/K../WWWW/..... floor -
player 2 score 1 wall ...../..B../...../...../..... lines Y/../.../..../BBBBB floor 1KK
player 3 score 0 wall ...../...../...../...../..... lines ./../W../..../..... floor -"""

DRAFT_4P = """\
azul players 4 wall colour round 2 phase draft turn 3 starter 2
factories BBBB - YRKW - - RRKK BYWW - KKKW
centre 1YYR
bag 9/13/11/13/9
lid 2/0/1/0/0
player 1 score 1 wall B..../...../...../...../..... lines ./WW/.../..../..... floor Y
player 2 score 1 wall ...../.B.../...../...../..... lines ./../RRR/..../..... floor -
player 3 score 0 wall ...../...../...../...../..... lines K/../.../YY../..... floor BB
player 4 score 1 wall ..R../...../...../...../..... lines ./../.../..../WWWWW floor -"""

OVER_3P = """\
azul players 3 wall colour round 5 phase over turn 2 starter 3
factories - - - - - - -
centre 1
bag 10/10/10/10/10
lid 7/8/6/7/6
player 1 score 60 wall BYRKW/WB.../KW.../RKW../YR... lines ./../.../..../..... floor -
player 2 score 0 wall ...../...../...../...../..... lines ./B./.../..../..... floor -
player 3 score 3 wall ..R../...../...../...../..... lines ./../.../..../..... floor -"""

DRAFT_4P_GRAY = """\
azul players 4 wall gray round 1 phase draft turn 3 starter 1
factories BBYR - KKWW BYRK YYWW BRRK - BWWW BYRK
centre 1RK
bag 13/13/14/14/12
lid 0/0/0/0/0
player 1 score 0 wall ...../...../...../...../..... lines ./YY/.../..../..... floor -
player 2 score 0 wall ...../...../...../...../..... lines B/../.../..../..... floor W
player 3 score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor -
player 4 score 0 wall ...../...../...../...../..... lines ./../.../..../..... floor -"""

# The bag ran empty before the next draw: the lid is poured in at that draw.
REFILL_2P_GRAY = """\
azul players 2 wall gray round 4 phase refill turn 2 starter 2
factories BBYR KKWW - - -
centre 1
bag 0/0/0/0/0
lid 17/18/16/18/17
player 1 score 3 wall B..../..Y../...../...../..... lines ./../RR./..../..... floor -
player 2 score 1 wall ...../R..../...../...../..... lines ./W./.../..../..... floor -"""

# Bag and lid ran out during the refill: factory 9 stayed short.
SHORT_REFILL_4P = """\
azul players 4 wall colour round 5 phase draft turn 2 starter 2
factories BBBB BBBB YYYY YYRR RRRR KKKK KKKW WWWW WWW
centre 1
bag 0/0/0/0/0
lid 0/0/0/0/0
player 1 score 0 wall BYR../WBY../KWB../RKW../YRK.. lines ./K./RR./YY../..... floor -
player 2 score 0 wall BYR../WBY../KWB../RKW../YRK.. lines ./../.../..../..... floor -
player 3 score 0 wall BYR../WBY../KWB../RKW../YRK.. lines ./../.../..../..... floor -
player 4 score 0 wall BYR../WBY../KWB../RKW../YRK.. lines ./../.../..../..... floor -"""

# A refill found bag and lid empty and put no tile out: the game ended (docs/azul.md).
OVER_EMPTY_TABLE_4P = """\
azul players 4 wall colour round 6 phase over turn 1 starter 1
factories - - - - - - - - -
centre 1
bag 0/0/0/0/0
lid 0/0/0/0/0
player 1 score 0 wall BYR../W..RK/KWB../..WBY/.R.WB lines ./Y./RR./RRR./YYYY. floor -
player 2 score 0 wall B.RK./.BYR./K.B.R/..WBY/Y.KW. lines ./K./WW./KKK./BBBB. floor -
player 3 score 0 wall B..KW/WB.R./KWB../.KWB./.R.WB lines ./Y./YY./RRR./KKKK. floor -
player 4 score 0 wall .Y.KW/WBY../KWB../RK..Y/.R.WB lines ./K./RR./WWW./YYYY. floor -"""

POSITIONS = {
    "refill-2p": REFILL_2P,
    "draft-2p": DRAFT_2P,
    "tiling-3p-gray": TILING_3P_GRAY,
    "draft-4p": DRAFT_4P,
    "over-3p": OVER_3P,
    "draft-4p-gray": DRAFT_4P_GRAY,
    "refill-2p-gray": REFILL_2P_GRAY,
    "short-refill-4p": SHORT_REFILL_4P,
    "over-empty-table-4p": OVER_EMPTY_TABLE_4P,
}


def assert_round_trips(state):
    text = format_position(state)
    assert np.array_equal(parse_position(text), state), text
    obj = position_to_json(state)
    assert np.array_equal(position_from_json(json.loads(json.dumps(obj))), state), text


def mutate(text, old, new):
    assert text.count(old) == 1, f"{old!r} must occur once"
    return text.replace(old, new)


# ---- round trips ---------------------------------------------------------------------


@pytest.mark.parametrize("text", POSITIONS.values(), ids=POSITIONS.keys())
def test_canonical_text_round_trips(text):
    state = parse_position(text)
    assert format_position(state) == text
    assert_round_trips(state)


def test_one_line_form_with_semicolons():
    one_line = DRAFT_2P.replace("\n", " ; ")
    assert np.array_equal(parse_position(one_line), parse_position(DRAFT_2P))


def test_lenient_input_forms():
    """Letters in any order, 'x' on the colour wall, '-' and unpadded lines."""
    lenient = (
        DRAFT_2P.replace("BBYR - KKWW", "RYBB - WKWK")
        .replace("wall BY.../W....", "wall xx.../x....")
        .replace("lines ./YY/R../..../KKK..", "lines -/YY/R/-/KKK")
        .replace("floor 1RR", "floor R1R")
    )
    assert format_position(parse_position(lenient)) == DRAFT_2P


def test_json_form():
    obj = position_to_json(parse_position(DRAFT_2P))
    assert obj["factories"] == ["BBYR", "-", "KKWW", "-", "YRKW"]
    assert obj["bag"] == {"blue": 12, "yellow": 14, "red": 11, "black": 13, "white": 14}
    assert obj["boards"][0] == {
        "score": 7,
        "wall": ["BY...", "W....", "..B..", ".....", "....."],
        "lines": [".", "YY", "R..", "....", "KKK.."],
        "floor": "1RR",
    }
    assert obj["turn"] == 2 and obj["phase"] == "draft" and obj["wall"] == "colour"


def test_array_layout():
    state = parse_position(DRAFT_2P)
    assert state[W_FACTORY] == 2 | 1 << 8 | 1 << 16  # BBYR: lanes B2 Y1 R1
    assert state[W_CENTRE] == 2 | 1 << 8  # no marker: player 1 took it
    # lines ./YY/R../..../KKK..: count in bits 0-3, colour in bits 4-6 of lane i
    lines = (2 | 1 << 4) << 8 | (1 | 2 << 4) << 16 | (3 | 3 << 4) << 32
    assert state[player_word(0, P_LINES)] == lines
    assert state[player_word(0, P_WALL + 0)] == 1 << 0 | 1 << 12  # blue at (0,0) and (2,2)
    assert not state[W_FACTORY + 5 : W_FACTORY + 9].any()


@pytest.mark.repo
def test_documented_examples_parse():
    """docs/azul-notation.md: its text examples parse (the ``text`` ones are canonical),
    and its JSON example reads back unchanged."""
    doc = repo_text("docs/azul-notation.md")
    blocks = re.findall(r"```(\w*)\n(.*?)\n```", doc, re.S)
    positions = [(kind, body) for kind, body in blocks if body.startswith("azul ")]
    documents = [json.loads(body) for kind, body in blocks if kind == "json"]
    assert len(positions) == 2 and len(documents) == 1
    states = [parse_position(body) for _, body in positions]
    for (kind, body), state in zip(positions, states):
        assert kind != "text" or format_position(state) == body
        assert np.array_equal(state, states[0])
    assert np.array_equal(position_from_json(documents[0]), states[0])
    assert position_to_json(states[0]) == documents[0]


# ---- validation errors ---------------------------------------------------------------

TEXT_ERRORS = [
    # header and syntax
    ("game", DRAFT_2P, "azul players", "chess players", "game"),
    ("unknown-key", DRAFT_2P, "centre BBY", "centre BBY colour blue", "position"),
    ("duplicate-key", DRAFT_2P, "round 3", "round 3 round 3", "round"),
    ("missing-key", DRAFT_2P, "round 3 ", "", "round"),
    ("missing-value", DRAFT_2P, "turn 2 starter", "turn starter", "turn"),
    ("two-values", DRAFT_2P, "centre BBY", "centre BB Y", "position"),
    ("players-word", DRAFT_2P, "players 2", "players two", "players"),
    ("players-range", DRAFT_2P, "players 2", "players 5", "players"),
    ("variant", DRAFT_2P, "wall colour", "wall purple", "wall"),
    ("phase-name", DRAFT_2P, "phase draft", "phase drafting", "phase"),
    ("round-zero", DRAFT_2P, "round 3", "round 0", "round"),
    ("turn-range", DRAFT_2P, "turn 2", "turn 3", "turn"),
    ("starter-zero", DRAFT_2P, "starter 1", "starter 0", "starter"),
    ("round-1-starter", REFILL_2P, "turn 1 starter 1", "turn 2 starter 2", "starter"),
    ("huge-number", DRAFT_2P, "round 3", "round 99999999999", "round"),
    # table
    ("factory-count", DRAFT_2P, "KKWW - YRKW", "KKWW YRKW", "factories"),
    ("factory-size", DRAFT_2P, "BBYR -", "BBYRR -", "factories"),
    ("factory-marker", DRAFT_2P, "KKWW", "1KKWW", "factories"),
    ("tile-letter", DRAFT_2P, "centre BBY", "centre BBZ", "centre"),
    ("marker-twice-in-set", DRAFT_2P, "floor 1RR", "floor 11RR", "player 1 floor"),
    ("bag-parts", DRAFT_2P, "bag 12/14/11/13/14", "bag 12/14/11/13", "bag"),
    ("bag-letter", DRAFT_2P, "bag 12/14/11/13/14", "bag 12/14/11/13/x", "bag"),
    ("lid-over-20", DRAFT_2P, "lid 1/0/2/0/0", "lid 21/0/2/0/0", "lid"),
    ("tile-total", DRAFT_2P, "bag 12/14/11/13/14", "bag 12/14/11/13/15", "tiles"),
    # players
    ("player-order", DRAFT_2P, "player 2 score", "player 3 score", "player 3"),
    ("player-missing", DRAFT_2P, DRAFT_2P[DRAFT_2P.index("\nplayer 2") :], "", "player 2"),
    ("player-extra", DRAFT_2P, "floor K", "floor K\nplayer 3 score 0", "player 3"),
    ("player-number", DRAFT_2P, "player 2 score", "player two score", "player"),
    ("player-unknown-key", DRAFT_2P, "floor K", "floor K hat 3", "player 2"),
    ("player-missing-key", DRAFT_2P, " floor K", "", "player 2 floor"),
    ("score-sign", DRAFT_2P, "score 7", "score -7", "player 1 score"),
    ("score-bound", DRAFT_2P, "score 7", "score 41", "player 1 score"),
    ("wall-rows", DRAFT_2P, "BY.../W..../..B../...../.....", "BY.../W..../..B../.....", "player 1 wall"),
    ("wall-row-length", DRAFT_2P, "BY...", "BY..", "player 1 wall"),
    ("wall-cell", DRAFT_2P, "BY...", "BY.?.", "player 1 wall"),
    ("colour-wall-place", DRAFT_2P, "BY...", "YB...", "player 1 wall"),
    ("gray-column", TILING_3P_GRAY, "...../..B../", "..B../..B../", "player 2 wall"),
    ("gray-row", TILING_3P_GRAY, "...../..B../", "...../.BB../", "player 2 wall"),
    ("gray-x", TILING_3P_GRAY, "B..../.Y.../", "x..../.Y.../", "player 1 wall"),
    ("line-mixed", DRAFT_2P, "KKK..", "KKR..", "player 1 lines"),
    ("line-over-full", DRAFT_2P, "./YY/R..", "./YYY/R..", "player 1 lines"),
    ("line-padding-first", DRAFT_2P, "/R../", "/.R./", "player 1 lines"),
    ("line-count", DRAFT_2P, "lines ./YY/R../..../KKK..", "lines ./YY/R../....", "player 1 lines"),
    ("line-colour-on-wall-row", DRAFT_2P, "lines ./YY", "lines B/YY", "player 1 lines"),
    ("floor-slots", DRAFT_2P, "floor K", "floor KKKKKKKK", "player 2 floor"),
    ("no-marker", DRAFT_2P, "floor 1RR", "floor RR", "marker"),
    ("two-markers", DRAFT_2P, "centre BBY", "centre 1BBY", "marker"),
    # phases
    ("tiling-colour-wall", DRAFT_2P, "phase draft", "phase tiling", "phase"),
    ("refill-centre-tiles", REFILL_2P, "centre 1\nbag 18/", "centre 1B\nbag 17/", "centre"),
    (
        "refill-floor",
        REFILL_2P,
        "bag 18/18/18/18/18\nlid 0/0/0/0/0\nplayer 1 score 0 wall"
        " ...../...../...../...../..... lines ./../.../..../..... floor -",
        "bag 17/18/18/18/18\nlid 0/0/0/0/0\nplayer 1 score 0 wall"
        " ...../...../...../...../..... lines ./../.../..../..... floor B",
        "player 1 floor",
    ),
    (
        "refill-full-line",
        REFILL_2P,
        "bag 18/18/18/18/18\nlid 0/0/0/0/0\nplayer 1 score 0 wall ...../...../...../...../..... lines ./",
        "bag 17/18/18/18/18\nlid 0/0/0/0/0\nplayer 1 score 0 wall ...../...../...../...../..... lines B/",
        "player 1 lines",
    ),
    ("refill-order", REFILL_2P, "BBYR KKWW YR", "BBYR YR KKWW", "factories"),
    (
        "refill-all-full",
        REFILL_2P,
        "factories BBYR KKWW YR - -\ncentre 1\nbag 18/18/18/18/18",
        "factories BBYR KKWW BBYR BBYY KWRR\ncentre 1\nbag 14/16/16/17/17",
        "factories",
    ),
    ("refill-nothing-to-draw", SHORT_REFILL_4P, "phase draft", "phase refill", "bag"),
    ("refill-turn", REFILL_2P, "turn 1 starter 1", "turn 2 starter 1", "turn"),
    (
        "draft-empty-table",
        DRAFT_2P,
        "factories BBYR - KKWW - YRKW\ncentre BBY\nbag 12/14/11/13/14",
        "factories - - - - -\ncentre -\nbag 16/17/13/16/17",
        "factories",
    ),
    ("draft-two-short", DRAFT_2P, "BBYR - KKWW", "BBY R KKWW", "factories"),
    (
        "draft-short-then-full",
        DRAFT_2P,
        "BBYR - KKWW - YRKW\ncentre BBY",
        "BBY - KKWW - YRKW\ncentre BBYR",
        "factories",
    ),
    (
        "draft-short-with-bag",
        SHORT_REFILL_4P,
        "WWW\ncentre 1\nbag 0/0/0/0/0",
        "WW\ncentre 1\nbag 0/0/0/0/1",
        "factories",
    ),
    (
        "draft-complete-row",
        OVER_3P,
        "phase over turn 2 starter 3\nfactories - - - - - - -\ncentre 1\nbag 10/",
        "phase draft turn 2 starter 3\nfactories BBBB - - - - - -\ncentre 1\nbag 6/",
        "player 1 wall",
    ),
    ("wall-progress", DRAFT_2P, "round 3", "round 1", "player 1 wall"),
    ("tiling-table", TILING_3P_GRAY, "centre -\nbag 10/", "centre B\nbag 9/", "centre"),
    ("tiling-earlier-player", TILING_3P_GRAY, "turn 1", "turn 2", "player 1 lines"),
    (
        "tiling-nothing-full",
        TILING_3P_GRAY,
        "lid 3/2/1/0/4\nplayer 1 score 2 wall B..../.Y.../...../...../..... lines ./RR/K../WWWW",
        "lid 3/2/2/0/5\nplayer 1 score 2 wall B..../.Y.../...../...../..... lines ./R./K../WWW.",
        "player 1 lines",
    ),
    (
        "tiling-forced-column",
        TILING_3P_GRAY,
        "bag 10/16/17/17/11\nlid 3/2/1/0/4\nplayer 1 score 2 wall B..../.Y.../...../",
        "bag 10/16/16/16/10\nlid 3/2/1/0/4\nplayer 1 score 2 wall B..../.YKW./....R/",
        "player 1 lines",
    ),
    ("over-full-line", OVER_3P, "lines ./B./", "lines B/../", "player 2 lines"),
    (
        "over-floor",
        OVER_3P,
        "lid 7/8/6/7/6\nplayer 1 score 60 wall BYRKW/WB.../KW.../RKW../YR... lines ./../.../..../..... floor -",
        "lid 6/8/6/7/6\nplayer 1 score 60 wall BYRKW/WB.../KW.../RKW../YR... lines ./../.../..../..... floor B",
        "player 1 floor",
    ),
    ("over-table", OVER_3P, "centre 1\nbag 10/10/10/10/10\nlid 7/", "centre 1B\nbag 10/10/10/10/10\nlid 6/", "centre"),
    (
        "over-no-complete-row",
        OVER_3P,
        "lid 7/8/6/7/6\nplayer 1 score 60 wall BYRKW",
        "lid 7/8/6/7/7\nplayer 1 score 60 wall BYRK.",
        "phase",
    ),
    ("over-score-bound", OVER_3P, "score 60", "score 157", "player 1 score"),
]


@pytest.mark.parametrize(
    "base, old, new, field", [case[1:] for case in TEXT_ERRORS], ids=[case[0] for case in TEXT_ERRORS]
)
def test_text_errors_name_the_field(base, old, new, field):
    with pytest.raises(PositionError) as info:
        parse_position(mutate(base, old, new))
    assert info.value.field == field, str(info.value)
    assert "\n" not in str(info.value)


def test_error_limits_are_tight():
    """The bounds the error cases cross are reachable: one step back parses."""
    parse_position(mutate(DRAFT_2P, "score 7", "score 40"))
    parse_position(mutate(OVER_3P, "score 60", "score 156"))  # 14 tiles, a row, two columns
    parse_position(mutate(DRAFT_2P, "floor K", "floor KKKKKKK").replace("bag 12/14/11/13/14", "bag 12/14/11/7/14"))
    parse_position(
        mutate(DRAFT_2P, "floor 1RR", "floor 1RRRRRRR").replace("bag 12/14/11/13/14", "bag 12/14/6/13/14")
    )  # marker joins a full floor


@pytest.mark.parametrize("text, field", [("", "position"), ("  ;\n ", "position"), ("azul", "players")])
def test_empty_text(text, field):
    with pytest.raises(PositionError) as info:
        parse_position(text)
    assert info.value.field == field


def _json_case(change):
    obj = position_to_json(parse_position(DRAFT_2P))
    change(obj)
    return obj


JSON_ERRORS = [
    ("only-unknown-keys", lambda obj: obj.clear() or obj.update(x=1), "position"),
    ("unknown-key", lambda obj: obj.update(colour="blue"), "position"),
    ("missing-key", lambda obj: obj.pop("starter"), "starter"),
    ("game", lambda obj: obj.update(game="azure"), "game"),
    ("bool-number", lambda obj: obj.update(players=True), "players"),
    ("float-number", lambda obj: obj.update(round=3.0), "round"),
    ("negative-number", lambda obj: obj.update(turn=-1), "turn"),
    ("factories-type", lambda obj: obj.update(factories="BBYR"), "factories"),
    ("factory-type", lambda obj: obj["factories"].__setitem__(0, 4), "factories"),
    ("centre-type", lambda obj: obj.update(centre=None), "centre"),
    ("centre-newline", lambda obj: obj.update(centre="B\nZ"), "centre"),
    ("wall-cell-newline", lambda obj: obj["boards"][1]["wall"].__setitem__(0, "..\n.."), "player 2 wall"),
    ("bag-colour", lambda obj: obj["bag"].pop("blue"), "bag"),
    ("bag-count", lambda obj: obj["bag"].update(blue="12"), "bag"),
    ("boards-type", lambda obj: obj.update(boards={}), "boards"),
    ("boards-short", lambda obj: obj["boards"].pop(), "player 2"),
    ("board-type", lambda obj: obj["boards"].__setitem__(0, []), "player 1"),
    ("board-unknown-key", lambda obj: obj["boards"][0].update(hat=1), "player 1"),
    ("board-missing-key", lambda obj: obj["boards"][1].pop("lines"), "player 2 lines"),
    ("wall-type", lambda obj: obj["boards"][0].update(wall="BY.../W...."), "player 1 wall"),
    ("lines-item", lambda obj: obj["boards"][0]["lines"].__setitem__(1, 2), "player 1 lines"),
    ("tiles", lambda obj: obj["lid"].update(white=1), "tiles"),
]


@pytest.mark.parametrize("change, field", [case[1:] for case in JSON_ERRORS], ids=[case[0] for case in JSON_ERRORS])
def test_json_errors_name_the_field(change, field):
    with pytest.raises(PositionError) as info:
        position_from_json(_json_case(change))
    assert info.value.field == field, str(info.value)
    assert "\n" not in str(info.value)


def test_json_must_be_an_object():
    with pytest.raises(PositionError) as info:
        position_from_json(["azul"])
    assert info.value.field == "position"


def _array_case(change):
    state = parse_position(DRAFT_2P)
    change(state)
    return state


ARRAY_ERRORS = [
    ("game-word", lambda s: s.__setitem__(W_GAME, 2), "game"),
    ("unused-factory", lambda s: s.__setitem__(W_FACTORY + 7, 1), "factories"),
    ("unused-player", lambda s: s.__setitem__(player_word(3, P_LINES), 1), "player 4"),
    ("set-stray-bits", lambda s: s.__setitem__(W_CENTRE, s[W_CENTRE] | 1 << 50), "centre"),
    ("bag-marker", lambda s: s.__setitem__(W_BAG, s[W_BAG] | MARKER_BIT), "bag"),
    (
        "shared-cell",
        lambda s: s.__setitem__(player_word(0, P_WALL + 1), s[player_word(0, P_WALL + 1)] | 1),
        "player 1 wall",
    ),
    (
        "wall-stray-bits",
        lambda s: s.__setitem__(player_word(0, P_WALL), s[player_word(0, P_WALL)] | 1 << 30),
        "player 1 wall",
    ),
    (
        "empty-line-colour",
        lambda s: s.__setitem__(player_word(0, P_LINES), s[player_word(0, P_LINES)] | 3 << 4),
        "player 1 lines",
    ),
    ("negative-score", lambda s: s.__setitem__(player_word(1, P_SCORE), -1), "player 2 score"),
    (
        "line-colour-code",
        lambda s: s.__setitem__(player_word(0, P_LINES), s[player_word(0, P_LINES)] | 7 << 20),
        "player 1 lines",
    ),
]


@pytest.mark.parametrize("change, field", [case[1:] for case in ARRAY_ERRORS], ids=[case[0] for case in ARRAY_ERRORS])
def test_array_errors_name_the_field(change, field):
    with pytest.raises(PositionError) as info:
        validate(_array_case(change))
    assert info.value.field == field, str(info.value)


@pytest.mark.parametrize(
    "state", [parse_position(DRAFT_2P).astype(np.float64), parse_position(DRAFT_2P)[:-1], [1, 2, 0]]
)
def test_validate_needs_a_state_array(state):
    with pytest.raises(PositionError) as info:
        validate(state)
    assert info.value.field == "position"


# ---- moves ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, move",
    [
        ("F1 blue 2", draft_move(0, 0, 1)),
        ("f1 B 2", draft_move(0, 0, 1)),
        ("  F1   Blue\t2 ", draft_move(0, 0, 1)),
        ("F5 black floor", draft_move(4, 3, 5)),
        ("C yellow floor", draft_move(9, 1, 5)),
        ("c Y 4", draft_move(9, 1, 3)),
    ],
)
def test_parse_draft_moves(text, move):
    state = parse_position(DRAFT_2P)
    assert parse_move(state, text) == move
    assert parse_move(state, format_move(state, move)) == move


def test_format_moves():
    state = parse_position(DRAFT_2P)
    assert format_move(state, draft_move(2, 4, 2)) == "F3 white 3"
    assert format_move(state, draft_move(9, 0, 5)) == "C blue floor"
    assert format_move(state, 301) == "col 2"
    assert format_move(state, 402) == "draw red"
    with pytest.raises(MoveError):
        format_move(state, 350)


def test_tiling_and_chance_moves():
    tiling = parse_position(TILING_3P_GRAY)
    assert [parse_move(tiling, f"col {c}") for c in (1, 3, 4, 5)] == [300, 302, 303, 304]
    refill = parse_position(REFILL_2P)
    assert parse_move(refill, "draw Red") == 402
    from_lid = parse_position(REFILL_2P_GRAY)  # empty bag: the draw comes from the lid
    assert parse_move(from_lid, "draw white") == 404


@pytest.mark.parametrize(
    "position, text",
    [
        (DRAFT_2P, "F2 blue 1"),  # factory 2 is empty
        (DRAFT_2P, "F1 blue 1"),  # line 1 is full
        (DRAFT_2P, "F1 white 3"),  # no white on factory 1
        (DRAFT_2P, "F1 red 1"),  # line 1 holds blue
        (DRAFT_2P, "F7 red 1"),  # no factory 7 with two players
        (DRAFT_2P, "col 2"),
        (DRAFT_2P, "draw red"),
        (TILING_3P_GRAY, "col 2"),  # row 2 has yellow in column 2
        (TILING_3P_GRAY, "F1 blue 1"),
        (REFILL_2P, "F1 blue 1"),
        (REFILL_2P_GRAY.replace("bag 0/0/0/0/0\nlid 17", "bag 1/0/0/0/0\nlid 16"), "draw black"),
        (OVER_3P, "draw black"),
        (OVER_3P, "col 1"),
    ],
)
def test_illegal_moves(position, text):
    with pytest.raises(MoveError) as info:
        parse_move(parse_position(position), text)
    assert info.value.text == text and "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "F10 blue 1",
        "F0 blue 1",
        "F1 pink 1",
        "F1 blue 6",
        "F1 blue 0",
        "X1 blue 1",
        "col 0",
        "col 6",
        "col",
        "draw",
        "draw purple",
        "F1 blue",
        "take blue",
        "F1 blue 1 now",
    ],
)
def test_unparsable_moves(text):
    with pytest.raises(MoveError):
        parse_move(parse_position(DRAFT_2P), text)


# ---- random games --------------------------------------------------------------------


@settings(max_examples=fewer(24, 4), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), variant=st.sampled_from([VARIANT_COLOUR, VARIANT_GRAY])
)
def test_random_games_round_trip(seed, players, variant):
    """Every position of a random game round-trips, and so does every legal move."""
    rng = random.Random(seed)
    state = azul.new_game(players, variant)
    moves = np.empty(MAX_MOVES, np.int64)
    probs = np.empty(MAX_MOVES, np.float64)
    while True:
        assert_round_trips(state)
        who = azul.to_move(state)
        if who == TERMINAL:
            return
        legal = moves[: azul.legal_moves(state, moves)].tolist()
        for move in legal:
            assert parse_move(state, format_move(state, move)) == move
        if who == CHANCE:
            n = azul.chance_outcomes(state, moves, probs)
            move = rng.choices(moves[:n].tolist(), weights=probs[:n].tolist())[0]
        else:
            move = rng.choice(legal)
        azul.apply_move(state, move)
