"""Summer Pavilion notation: the documented example, round trips, every validation error,
and moves (docs/pavilion-notation.md)."""

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.errors import MoveError, PositionError
from tessera.games import game_of_position, get_game
from tessera.kernels import games
from tessera.kernels.pavilion.layout import (
    P_CENTRE_COLOURS,
    P_SCORE,
    P_SPACES,
    PASS_MOVE,
    W_PASSED,
    W_PHASE,
    W_REWARD,
    W_TOKEN,
    player_word,
)
from tessera.notation.pavilion import (
    format_move,
    format_position,
    parse_move,
    parse_position,
    position_from_json,
    position_to_json,
    validate,
)
from tests.conformance import random_game
from tests.repo import repo_text
from tests.tiers import fewer

try:  # pytest puts tests/ on sys.path (rootdir-relative "prepend" import mode)
    from test_pavilion_rules import build, player
except ImportError:  # pragma: no cover - when tests/ is a package
    from tests.test_pavilion_rules import build, player

PAVILION = get_game("pavilion")
pytestmark = pytest.mark.repo  # the documented examples are this module's positions
DOC = repo_text("docs/pavilion-notation.md")
EXAMPLE = re.search(r"```text\n(.*?)\n```", DOC, re.S).group(1)
EXAMPLE_JSON = json.loads(re.search(r"```json\n(.*?)\n```", DOC, re.S).group(1))


def example():
    return parse_position(EXAMPLE)


def errors(text_or_obj):
    with pytest.raises(PositionError) as info:
        if isinstance(text_or_obj, str):
            parse_position(text_or_obj)
        else:
            position_from_json(text_or_obj)
    return str(info.value)


# ---- the documented example and round trips -------------------------------------------


def test_documented_example_round_trips():
    state = example()
    assert format_position(state) == EXAMPLE
    assert np.array_equal(position_from_json(EXAMPLE_JSON), state)
    assert position_to_json(state) == EXAMPLE_JSON
    assert np.array_equal(parse_position(EXAMPLE.replace("\n", "; ")), state)
    assert game_of_position(EXAMPLE)[0] is PAVILION
    assert game_of_position(json.dumps(EXAMPLE_JSON))[0] is PAVILION


def test_input_order_is_free_output_is_canonical():
    text = EXAMPLE.replace("hand GGGGOOYBRRR", "hand RRRBYOOGGGG").replace("O..YB.", "B..OY.")
    state = parse_position(text)
    assert np.array_equal(state, example())
    assert format_position(state) == EXAMPLE


@settings(max_examples=fewer(15, 3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_property_notation_round_trips_over_random_games(seed, players):
    def round_trip(state, moves):
        assert np.array_equal(parse_position(format_position(state)), state)
        assert np.array_equal(position_from_json(json.loads(json.dumps(position_to_json(state)))), state)
        for move in moves:
            assert parse_move(state, format_move(state, move)) == move

    random_game(PAVILION, {"players": players}, seed, round_trip)


# ---- errors ------------------------------------------------------------------------

LINE_ERRORS = [
    ("pavilion", "bad position"),
    ("azul players 2", "starts with 'pavilion'"),
    (EXAMPLE.replace("players 2", "players 5"), "players: Summer Pavilion has 2 to 4"),
    (EXAMPLE.replace("round 3", "round 7"), "round: rounds are 1 to 6"),
    (EXAMPLE.replace("wild orange", "wild red"), "wild: the wild colour of round 3 is orange"),
    (EXAMPLE.replace("phase place", "phase placing"), "phase: expected"),
    (EXAMPLE.replace("turn 2", "turn 3"), "turn: expected a player from 1 to 2"),
    (EXAMPLE.replace("token 2", "token 0"), "token:"),
    (EXAMPLE.replace("passed -", "passed 1,1"), "passed: player 1 is listed twice"),
    (EXAMPLE.replace("reward 0", "reward 4"), "reward: a placement earns at most 3"),
    (EXAMPLE.replace("reward 0", "reward 2"), "reward: a reward is pending exactly in phase bonus"),
    (EXAMPLE.replace("factories - - - - -", "factories - - - -"), "factories: expected 5"),
    (EXAMPLE.replace("bag 9/11/11/9/12/9", "bag 9/11/11/9/12"), "bag: expected 6 counts"),
    (
        EXAMPLE.replace("bag 9/11/11/9/12/9", "bag 9/11/11/9/12/10"),
        "tiles: each colour has 22 tiles in all, but there are 23 red",
    ),
    (EXAMPLE.replace("supply PGOOYYYBRR", "supply PGOOYYYBR"), "tiles:"),
    (EXAMPLE.replace("centre -", "centre X"), "centre: 'X' is not a tile set"),
    (EXAMPLE.replace("P...../.G....", "G...../.G...."), "player 1 stars: the purple star space 1: 'G'"),
    (EXAMPLE.replace("O..YB.", "O..YO."), "the centre star holds O twice"),
    (EXAMPLE.replace("O..YB.", "O..YB"), "needs 6 spaces"),
    (EXAMPLE.replace("/RR..../O..YB.", "/O..YB."), "player 1 stars: expected 7 stars"),
    (EXAMPLE.replace("score 12", "score 0"), "player 1 score: a score never drops below 1"),
    (EXAMPLE.replace("player 2 score", "player 3 score"), "expected player 2 next"),
    (EXAMPLE.replace("kept -\nplayer 2", "kept - hand -\nplayer 2"), "player 1 hand: given twice"),
    (EXAMPLE.replace("tower", "towers"), "unknown key 'towers'"),
    (EXAMPLE.replace("starter 1", "starter"), "starter: missing value"),
]


@pytest.mark.parametrize("text, message", LINE_ERRORS)
def test_bad_positions_name_the_field(text, message):
    error = errors(text)
    assert message in error and "\n" not in error


def _example_json():
    return json.loads(json.dumps(EXAMPLE_JSON))


def _with(path, value):
    obj = _example_json()
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return obj


@pytest.mark.parametrize(
    "obj, message",
    [
        (_with(["players"], True), "players: expected a whole number"),
        (_with(["round"], 3.0), "round: expected a whole number"),
        (_with(["token"], "centre"), "token: expected null (in the centre) or a player"),
        (_with(["passed"], "1"), "passed: expected a list of players"),
        (_with(["boards"], {}), "boards: expected a list"),
        (_with(["boards", 1, "hand"], 7), "player 2 hand: expected a string"),
        (_with(["bag"], {"purple": 1}), "bag: expected counts of purple"),
        (_with(["game"], "azul"), "game: expected 'pavilion'"),
        ({k: v for k, v in _example_json().items() if k != "supply"}, "supply: missing"),
    ],
)
def test_bad_json_positions(obj, message):
    assert message in errors(obj)


def _validate_error(state):
    with pytest.raises(PositionError) as info:
        validate(state)
    return str(info.value)


def test_validation_of_turn_words_and_phases():
    state = example()
    state[W_PASSED] = 0b10
    assert "player 2 hand: tiles beside the board after passing" in _validate_error(state)
    state = build(boards=[player(), player()])
    state[W_PASSED] = 0b01
    assert "player 1 has passed, so cannot move in phase place" in _validate_error(state)
    state = example()
    state[W_PHASE] = 3
    assert "a reward is pending exactly in phase bonus" in _validate_error(state)
    state[W_REWARD] = 3
    validate(state)  # 3 of 10 mixed supply tiles: a choice
    with pytest.raises(PositionError, match="is no choice"):
        build(phase="bonus", reward=2, supply="BBBBBBBBBB")
    state = example()
    state[W_PHASE] = 4
    assert "keeps tiles but has not passed" in _validate_error(state)
    state = example()
    state[W_PHASE] = 5
    assert "the supply is full in phase resupply" in _validate_error(state)
    state = example()
    state[W_PHASE] = 6
    assert "the game ends after round 6" in _validate_error(state)
    state = example()
    state[W_PHASE] = 0
    assert "more tiles than could be kept from the last round" in _validate_error(state)
    state = build(phase="refill", round=2, factories=["PGOY", "-", "-", "-", "-"])
    state[W_TOKEN] = 0
    assert "the token is back in the centre" in _validate_error(state)
    state[W_TOKEN] = -1
    validate(state)
    state = example()
    state[player_word(0, P_CENTRE_COLOURS)] = 0b11
    assert "the centre star covers 3 spaces but holds 2 colours" in _validate_error(state)
    state = example()
    state[player_word(0, P_SPACES)] |= 1 << 45
    assert "outside the seven stars" in _validate_error(state)
    state = example()
    state[player_word(1, P_SCORE)] = 0
    assert "score never drops below 1" in _validate_error(state)


# ---- moves ---------------------------------------------------------------------------


def legal(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return moves[: games.legal_moves(state, moves)].tolist()


def test_move_texts_round_trip_and_read_loosely():
    state = example()  # player 2: PPPPOOYYBRR, orange wild
    for move in legal(state):
        assert parse_move(state, format_move(state, move)) == move
    assert parse_move(state, "  PLACE  Red 1  ") == parse_move(state, "place red 1")
    assert parse_move(state, "place r 4 wild 2") == parse_move(state, "place red 4 wild 2")
    assert parse_move(state, "place centre 3 B wild 2") == parse_move(state, "place centre 3 blue wild 2")
    assert parse_move(state, "pass") == PASS_MOVE
    assert format_move(state, parse_move(state, "place orange 2")) == "place orange 2"


@pytest.mark.parametrize(
    "text, message",
    [
        ("place red 7", "'7' is not a space (1..6)"),
        ("place red 3 wild 6", "not a count of wild tiles"),
        ("place centre 3", "name the colour for the centre star only"),
        ("place red 3 blue", "name the colour for the centre star only"),
        ("place teal 1", "'teal' is not a colour"),
        ("place red 3", "not legal for player 2 in phase place"),  # 2 red in hand
        ("F1 red", "not legal for player 2 in phase place"),
        ("take RR", "not legal for player 2"),
        ("jump", "expected 'F3 red'"),
        ("F10 red", "not a factory"),
        ("keep XY", "'xy' is not tiles"),
    ],
)
def test_bad_moves(text, message):
    with pytest.raises(MoveError) as info:
        parse_move(example(), text)
    assert message in str(info.value)


def test_format_move_rejects_unknown_codes():
    with pytest.raises(MoveError):
        format_move(example(), 1999)
