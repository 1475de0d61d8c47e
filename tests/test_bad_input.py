"""Bad input of every shape gets the project's own error: one line and exit status 2
from the real `tessera` command, a ``TesseraError`` from the Python API."""

import json
import subprocess
import sys

import pytest

from tessera.errors import MoveError, PositionError
from tessera.games import game_of_position, get_game
from tests.cli_process import tessera
from tests.limits import COLD_START_SECONDS

GAMES = ("azul", "pavilion", "azure")
BYTE_ORDER_MARK = "\ufeff"


def assert_one_line_error(result, names):
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert names in result.stderr


def start_text(game, seed=1):
    return get_game(game).format_position(get_game(game).new(seed))


# ---- the command line ----------------------------------------------------------------


def test_stdin_that_is_not_utf8_is_named():
    result = subprocess.run(
        [sys.executable, "-m", "tessera", "show", "-"],
        input=b"\xff\xfe azul",
        capture_output=True,
        timeout=COLD_START_SECONDS,
    )
    result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
    assert_one_line_error(result, "cannot read stdin: not UTF-8 text")


DEEP_JSON = '{"game": ' + "[" * 100_000 + "]" * 100_000 + "}"


@pytest.mark.parametrize(
    "args, stdin, names",
    [
        (["show", "-"], ";", "empty input"),
        (["show", ";"], "", "';' is neither a file nor a position"),
        (["moves", "-"], " ; ;\n;", "empty input"),
        (["moves", "-"], DEEP_JSON, "json: nested too deeply"),
        (["moves", "-"], '{"game": "azul", "players": 1' + "0" * 5000 + "}", "json: not a position"),
        (["moves", "-"], "[" * 5000 + "azul", "unknown game '" + "[" * 36 + "..."),
        (
            ["moves", "-"],
            '{"game": "azul", "players": ' + "[" * 500 + "]" * 500 + "}",
            "players: expected a whole number from 0 to 2147483647, got " + "[" * 37 + "...\n",
        ),
    ],
    ids=[
        "semicolon-stdin",
        "semicolon-argument",
        "semicolons-only",
        "deep-json",
        "huge-json-number",
        "long-game-name",
        "long-json-value",
    ],
)
def test_bad_input_is_one_line(args, stdin, names):
    assert_one_line_error(tessera(*args, stdin=stdin), names)


# Three commands a game: the quick tier checks Azul's.
@pytest.mark.parametrize("game", [GAMES[0], *(pytest.param(game, marks=pytest.mark.long) for game in GAMES[1:])])
def test_a_byte_order_mark_is_accepted(game, tmp_path):
    text = start_text(game)
    result = tessera("moves", "-", stdin=BYTE_ORDER_MARK + text)
    assert result.returncode == 0, result.stderr
    assert result.stdout == tessera("moves", "-", stdin=text).stdout
    path = tmp_path / "start.pos"
    path.write_text(
        BYTE_ORDER_MARK + json.dumps(get_game(game).position_to_json(get_game(game).new(1))), encoding="utf-8"
    )
    assert tessera("moves", path).stdout == result.stdout


# ---- the Python API ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", [None, 123, b"azul players 2", ["azul"]], ids=["none", "int", "bytes", "list"])
def test_parse_position_of_a_non_string(game, value):
    with pytest.raises(PositionError, match="expected text, got"):
        get_game(game).parse_position(value)
    with pytest.raises(PositionError, match="expected text, got"):
        game_of_position(value)


@pytest.mark.parametrize("game", GAMES)
def test_parse_position_accepts_a_byte_order_mark(game):
    text = start_text(game)
    state = get_game(game).parse_position(text)
    assert (get_game(game).parse_position(BYTE_ORDER_MARK + text) == state).all()
    assert (game_of_position(BYTE_ORDER_MARK + text)[1] == state).all()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", [None, 5, b"pass", 2.0], ids=["none", "int", "bytes", "float"])
def test_parse_move_of_a_non_string(game, value):
    state = get_game(game).new(1)
    with pytest.raises(MoveError, match="expected move text, got"):
        get_game(game).parse_move(state, value)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("code", [1_000_000, -1, 2**40, "F1 blue 1", None, 3.0, True])
def test_format_move_of_no_move_code(game, code):
    with pytest.raises(MoveError, match="move code"):
        get_game(game).format_move(get_game(game).new(1), code)


def test_pavilion_take_and_keep_codes_stop_at_what_the_rules_allow():
    from tessera.kernels.pavilion.layout import (
        COLOUR_LETTERS,
        KEEP_AT_MOST,
        KEEP_BASE,
        MAX_REWARD,
        TAKE_BASE,
    )

    pavilion = get_game("pavilion")
    state = pavilion.new(1)
    assert pavilion.format_move(state, KEEP_BASE) == "keep -"
    first = COLOUR_LETTERS[0]
    assert pavilion.format_move(state, KEEP_BASE + KEEP_AT_MOST) == "keep " + first * KEEP_AT_MOST
    assert pavilion.format_move(state, TAKE_BASE + MAX_REWARD) == "take " + first * MAX_REWARD
    for code in (TAKE_BASE, TAKE_BASE + MAX_REWARD + 1, KEEP_BASE + KEEP_AT_MOST + 1):
        with pytest.raises(MoveError, match="not a Summer Pavilion move code"):
            pavilion.format_move(state, code)


# ---- clear words ---------------------------------------------------------------------


def position_error(game, text_or_obj):
    with pytest.raises(PositionError) as caught:
        if isinstance(text_or_obj, str):
            get_game(game).parse_position(text_or_obj)
        else:
            get_game(game).position_from_json(text_or_obj)
    return str(caught.value)


def test_a_number_too_large_names_the_limit():
    text = start_text("azul").replace("round 1", "round 99999999999")
    assert position_error("azul", text) == (
        "bad position: round: expected a whole number from 0 to 2147483647, got '99999999999'"
    )
    obj = get_game("azul").position_to_json(get_game("azul").new(1))
    assert position_error("azul", dict(obj, turn=2**31)).endswith(
        "turn: expected a whole number from 0 to 2147483647, got 2147483648"
    )


def test_a_missing_marker_says_there_must_be_one():
    text = start_text("azul").replace("centre 1", "centre -")
    assert position_error("azul", text) == (
        "bad position: marker: 0 first-player markers; there must be exactly one, in the"
        " centre or on a floor (at most one once the game is over)"
    )


@pytest.mark.parametrize(
    "game, names",
    [
        ("azul", "players: expected a whole number"),
        ("pavilion", "players: expected a whole number"),
        ("azure", "players: expected a list of 2 players, got True"),
    ],
)
def test_json_fields_are_checked_in_the_order_they_are_read(game, names):
    """A bad field is named before a missing one read after it."""
    full = get_game(game).position_to_json(get_game(game).new(1))
    assert names in position_error(game, dict(full, players=True))
    if game != "azure":  # Azure reads its realm before its players
        assert names in position_error(game, {"game": game, "players": True})
        missing = {key: value for key, value in full.items() if key != "boards"}
        assert position_error(game, missing).endswith("boards: missing")


@pytest.mark.parametrize("game", GAMES)
def test_format_move_names_each_move_code_once(game):
    """Each text is the move of one code, so a text read back is the code written (a
    Summer Pavilion outer star with another colour's code wrote its own star's move)."""
    from tessera.kernels.pavilion.layout import KEEP_BASE, TAKE_BASE

    state = get_game(game).new(1)
    codes = list(range(-5, 4100)) + list(range(TAKE_BASE, TAKE_BASE + 600))
    codes += list(range(KEEP_BASE, KEEP_BASE + 600))
    texts = {}
    for code in codes:
        try:
            text = get_game(game).format_move(state, code)
        except MoveError:
            continue
        assert text not in texts, (text, texts.get(text), code)
        texts[text] = code
    assert texts
