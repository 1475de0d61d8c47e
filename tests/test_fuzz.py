"""A mutation fuzzer of positions (text and JSON, all three games, players' views too)
and of moves, driven by hypothesis.

Seeds are the positions of seeded random games (tests/random_games.py). Every mutated
input either raises the project's own error (``TesseraError``) or parses into a
position that passes the notation's validation, formats back to itself, is drawn,
lists its moves (each reads back), survives tiny searches (MCTS or IS-MCTS, one ply
of alpha-beta) and a random playout to the end of the game. A mangled move text is
refused with ``MoveError`` or names a legal move.
The default run is short; ``pytest -m slow`` runs the long one.
"""

import functools
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tessera.cli import main
from tessera.errors import MoveError, TesseraError
from tessera.games import game_of_position, get_game
from tessera.kernels import games
from tessera.kernels.rng import make_rng
from tessera.search.alphabeta import search_alphabeta
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import Mcts, MctsOptions
from tests.random_games import VARIANTS, random_game

GAMES = ("azul", "pavilion", "azure")
SEED_GAMES = 2  # random games per variant whose positions seed the fuzzer
MAX_PLIES = 20_000  # a playout longer than this is a defect (a loop)
CHECK_EVERY = 16  # plies between validations during a playout
SEARCH = MctsOptions(iterations=8, seed=1, max_nodes=4096)
SHORT, LONG = 40, 2500  # examples per test in the default and the slow run

# Tokens and characters the notations use, and some they do not.
CHARS = '0123456789/.-x+@*;{}[]",:BYRKWOPGabcdefghlnoprstuvwz \n\t\ufeff\u00e9'
WORDS = [
    "-",
    ".",
    "0",
    "1",
    "2",
    "5",
    "20",
    "99",
    "-1",
    "2147483647",
    "2147483648",
    "99999999999",
    "player",
    "factories",
    "over",
    "draft",
    "none",
    "true",
    "x",
]


def fuzz_settings(examples):
    return settings(
        max_examples=examples, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
    )


@functools.cache
def seed_positions(game_name):
    """The positions of SEED_GAMES random games of each variant of the game, and in
    Azure each player's view of each position."""
    game = get_game(game_name)
    states = []
    for name, options in VARIANTS:
        if name != game_name:
            continue
        for seed in range(SEED_GAMES):
            for state in random_game(name, options, seed):
                states.append(state)
                if game.observer(state) is None and name == "azure":
                    states += [game.view(state, p) for p in range(games.players(state))]
    return states


# ---- mutations -----------------------------------------------------------------------
# Most mutations keep the syntax and change the meaning (a count off by one, a tile of
# another colour, a field from another position), where a parser's checks can miss
# something; the rest break the syntax.

SEMANTIC_TEXT = ("digit", "letter", "same-place", "move", "move")
SYNTAX_TEXT = ("replace", "chars", "insert", "delete", "swap", "cut")
SEMANTIC_JSON = ("nudge", "letter", "same-path", "swap", "move", "move", "move")
SYNTAX_JSON = ("value", "other", "drop", "add", "chars")


def a_token(draw, tokens):
    return draw(
        st.one_of(
            st.sampled_from(tokens),
            st.sampled_from(WORDS),
            st.integers(-3, 3000).map(str),
            st.text(CHARS, max_size=6),
        )
    )


def mutated_chars(token, alphabet=CHARS):
    """``token`` with a character replaced, inserted or deleted."""
    return st.tuples(
        st.integers(0, len(token)), st.sampled_from(("replace", "insert", "delete")), st.sampled_from(alphabet + token)
    ).map(lambda args: _edit_chars(token, *args))


def _edit_chars(token, i, how, char):
    if how == "insert":
        return token[:i] + char + token[i:]
    return token[:i] + (char if how == "replace" else "") + token[i + 1 :]


def changed_char(draw, token, kinds):
    """``token`` with one of its characters of ``kinds`` (str.isdigit, str.isalpha or
    '.-') replaced by another of the same kind that the position uses."""
    spots = [i for i, char in enumerate(token) if kinds(char)]
    if not spots:
        return token
    i = draw(st.sampled_from(spots))
    if kinds is str.isdigit:
        char = str(draw(st.integers(0, 9)))
    else:
        char = draw(st.sampled_from(sorted(set(LETTERS) | set(token[i]))))
    return token[:i] + char + token[i + 1 :]


LETTERS = "BYRKWOPG.-x1abcdefgh"  # tiles, cards, empty cells, markers, columns


def is_letter(char):
    return char in LETTERS


def mutated_text(draw, text, other_text, letters, first=1):
    """``text`` mutated token by token from token ``first`` on (1: the game's name stays);
    ``letters``: the game's colour letters."""
    tokens, other = text.split(), other_text.split()
    for _ in range(draw(st.sampled_from((1, 1, 1, 2, 3)))):
        how = draw(st.sampled_from(SEMANTIC_TEXT * 3 + SYNTAX_TEXT))
        if len(tokens) <= first:
            tokens.append(a_token(draw, other))
            continue
        i = draw(st.integers(first, len(tokens) - 1))
        if how == "move":
            moved = {"tokens": tokens}
            move_a_piece(draw, moved, (), letters)
            tokens = moved["tokens"]
        elif how == "digit":
            tokens[i] = changed_char(draw, tokens[i], str.isdigit)
        elif how == "letter":
            tokens[i] = changed_char(draw, tokens[i], is_letter)
        elif how == "same-place" and i < len(other):
            tokens[i] = other[i]
        elif how == "replace":
            tokens[i] = a_token(draw, tokens + other)
        elif how == "chars":
            tokens[i] = draw(mutated_chars(tokens[i]))
        elif how == "insert":
            tokens.insert(i, a_token(draw, tokens + other))
        elif how == "delete" and len(tokens) > first + 1:
            del tokens[i]
        elif how == "swap":
            j = draw(st.integers(first, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif how == "cut":
            tokens = tokens[: i + 1]
    return draw(st.sampled_from((" ", "\n", " ; "))).join(tokens)


def json_containers(inner):
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(CHARS, max_size=6), inner, max_size=3)


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3000)
    | st.sampled_from([2**31, 2**63, -(2**40)])
    | st.floats(allow_nan=True)
    | st.text(CHARS, max_size=8),
    json_containers,
    max_leaves=6,
)


def json_paths(value, path=()):
    """Every (path, value) in a JSON document, the root included."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from json_paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from json_paths(item, path + (i,))


def move_a_piece(draw, obj, names, letters):
    """One tile, card or stone moved: a letter out of one string (or one off a count by
    colour) into another string (into a '.' or beside the others) or count. Totals stay,
    so what is checked is where a piece may be."""
    pieces = set(letters) | set(".-1x/")
    leaves = [
        (path, value)
        for path, value in json_paths(obj)
        if isinstance(value, str) and set(value) <= pieces or type(value) is int and path[-1] in names
    ]
    sources = [
        (path, value) for path, value in leaves if (set(value) & set(letters) if isinstance(value, str) else value > 0)
    ]
    if not sources:
        return
    path, value = draw(st.sampled_from(sources))
    if isinstance(value, str):
        i = draw(st.sampled_from([i for i, char in enumerate(value) if char in letters]))
        letter = value[i]
        # A string of cells keeps its length: the piece leaves an empty cell.
        set_at(obj, path, value[:i] + ("." if "." in value else "") + value[i + 1 :] or "-")
    else:
        letter = letters[names.index(path[-1])]
        set_at(obj, path, value - 1)
    path, value = draw(st.sampled_from(leaves))
    if type(value) is int:
        set_at(obj, path, value + (letters[names.index(path[-1])] == letter))
    elif value in ("-", ""):
        set_at(obj, path, letter)
    elif "." in value:
        i = draw(st.sampled_from([i for i, char in enumerate(value) if char == "."]))
        set_at(obj, path, value[:i] + letter + value[i + 1 :])
    else:
        i = draw(st.integers(0, len(value)))
        set_at(obj, path, value[:i] + letter + value[i:])


def set_at(obj, path, value):
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def mutated_json(draw, obj, other, names, letters):
    other_values = dict(json_paths(other))
    for _ in range(draw(st.sampled_from((1, 1, 1, 2, 3)))):
        # The game's name stays (a bad one is refused first, tests/test_bad_input.py).
        paths = [(path, value) for path, value in json_paths(obj) if path[:1] not in ((), ("game",))]
        path, value = draw(st.sampled_from(paths))
        parent = obj
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(SEMANTIC_JSON * 3 + SYNTAX_JSON))
        if how == "move":
            move_a_piece(draw, obj, names, letters)
        elif how == "swap" and not isinstance(value, (dict, list)):
            twin, twin_value = draw(st.sampled_from([(p, v) for p, v in paths if type(v) is type(value)]))
            set_at(obj, twin, value)
            set_at(obj, path, twin_value)
        elif how == "nudge" and type(value) is int:
            parent[key] = value + draw(st.sampled_from((-2, -1, 1, 2)))
        elif how == "letter" and isinstance(value, str):
            parent[key] = changed_char(draw, value, is_letter)
        elif how == "same-path" and path in other_values:
            parent[key] = json.loads(json.dumps(other_values[path]))
        elif how == "chars" and isinstance(value, str):
            parent[key] = draw(mutated_chars(value))
        elif how == "other":
            parent[key] = json.loads(json.dumps(draw(st.sampled_from(list(other_values.values())))))
        elif how == "drop":
            parent.pop(key)
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(list(parent) + ["extra"]))] = draw(JSON_VALUES)
        elif how == "add":
            parent.insert(key, draw(JSON_VALUES))
        elif how == "value":
            parent[key] = draw(JSON_VALUES)
    return json.dumps(obj)


def text_input(draw, game, state, other):
    """The text of ``state`` mutated (``other``: another position of the game)."""
    return mutated_text(draw, game.format_position(state), game.format_position(other), game.notation().COLOUR_LETTERS)


def json_input(draw, game, state, other):
    """The JSON text of ``state`` mutated (``other``: another position of the game)."""
    notation = game.notation()
    return mutated_json(
        draw, game.position_to_json(state), game.position_to_json(other), notation.COLOUR_NAMES, notation.COLOUR_LETTERS
    )


def a_seed_pair(draw, game_name):
    states = seed_positions(game_name)
    return draw(st.sampled_from(states)), draw(st.sampled_from(states))


# ---- what a parsed position must survive ---------------------------------------------


def survives(game, state):
    """Validation, read-back, drawing, moves, tiny searches and a random playout."""
    notation = game.notation()
    notation.validate(state.copy())
    assert np.array_equal(game.parse_position(game.format_position(state)), state)
    assert np.array_equal(game.position_from_json(json.loads(json.dumps(game.position_to_json(state)))), state)
    Console(file=io.StringIO(), width=100).print(game.render(state))
    who, observer = games.to_move(state), game.observer(state)
    if observer is None or who in (observer, games.TERMINAL):
        moves = listed_moves(game, state)
        if who >= 0:
            search(state, moves)
    playout(game, state if observer is None else determinized(game, state, observer))


def listed_moves(game, state):
    """The moves `tessera moves` lists, each read back from its text."""
    codes = np.empty(games.MAX_MOVES, np.int64)
    who = games.to_move(state)
    if who == games.TERMINAL:
        return []
    if who == games.CHANCE:
        probabilities = np.empty(games.MAX_MOVES, np.float64)
        count = games.chance_outcomes(state, codes, probabilities)
        assert count > 0 and abs(probabilities[:count].sum() - 1) < 1e-9
    else:
        count = games.legal_moves(state, codes)
        assert count > 0, f"player {who + 1} to move without a move"
    moves = codes[:count].tolist()
    assert len(set(moves)) == count
    for move in moves:
        assert game.parse_move(state, game.format_move(state, move)) == move
    return moves


def search(state, moves):
    """MCTS (IS-MCTS on a view) and, on a complete position, one ply of alpha-beta."""
    searcher = Mcts(SEARCH) if games.is_complete(state) else Ismcts(SEARCH)
    results = [searcher.search(state.copy())]
    if games.is_complete(state):
        results.append(search_alphabeta(state.copy(), depth=1, tt_bits=10))
    for result in results:
        assert result.moves and {line.move for line in result.moves} <= set(moves)


def determinized(game, state, observer):
    out = np.empty_like(state)
    games.determinize(state, observer, make_rng(7), out)
    game.notation().validate(out.copy())
    return out


def playout(game, state):
    """Random moves to the end of the game; every CHECK_EVERY-th position on the way
    passes validation (what the engine reaches from a position the notation accepts),
    and the end reads back."""
    state = state.copy()
    rng = make_rng(3)
    scratch = np.empty(games.MAX_MOVES, np.int64)
    for ply in range(MAX_PLIES):
        who = games.to_move(state)
        if ply % CHECK_EVERY == CHECK_EVERY - 1:
            game.notation().validate(state.copy())
        if who == games.TERMINAL:
            assert np.array_equal(game.parse_position(game.format_position(state)), state)
            return
        move = games.sample_chance(state, rng) if who == games.CHANCE else games.random_move(state, rng, scratch)
        games.apply_move(state, move)
    raise AssertionError(f"no end after {MAX_PLIES} plies")


def read_input(text, seed_state):
    """Parse as the CLI does: the project's error, or a position that survives.
    (The events show in `pytest --hypothesis-show-statistics`.)"""
    try:
        game, state = game_of_position(text)
    except TesseraError as err:
        event(f"refused: {str(err)[:70]}")
        return
    event("parsed, changed" if not np.array_equal(state, seed_state) else "parsed, unchanged")
    survives(game, state)


# ---- the tests -----------------------------------------------------------------------


def fuzz_text(data, game_name):
    state, other = a_seed_pair(data.draw, game_name)
    game = get_game(game_name)
    read_input(text_input(data.draw, game, state, other), state)


def fuzz_json(data, game_name):
    state, other = a_seed_pair(data.draw, game_name)
    game = get_game(game_name)
    read_input(json_input(data.draw, game, state, other), state)


def fuzz_moves(data, game_name):
    """A mangled move text is a MoveError or a legal move; so is a random move code."""
    game = get_game(game_name)
    state = data.draw(
        st.sampled_from(
            [s for s in seed_positions(game_name) if game.observer(s) is None and games.to_move(s) != games.TERMINAL]
        )
    )
    moves = listed_moves(game, state)
    text = game.format_move(state, data.draw(st.sampled_from(moves)))
    other = game.format_move(state, data.draw(st.sampled_from(moves)))
    for candidate in (
        mutated_text(data.draw, text, other, game.notation().COLOUR_LETTERS, first=0),
        data.draw(st.text(CHARS, max_size=12)),
    ):
        try:
            move = game.parse_move(state, candidate)
        except MoveError:
            continue
        assert move in moves, candidate
    code = data.draw(st.integers(-10, 2**21))
    try:
        text = game.format_move(state, code)
    except MoveError:
        return
    try:
        assert game.parse_move(state, text) == code, text
    except MoveError:
        assert code not in moves, text


FUZZERS = {"text": fuzz_text, "json": fuzz_json, "moves": fuzz_moves}


@pytest.mark.parametrize("kind", FUZZERS)
@pytest.mark.parametrize("game_name", GAMES)
@fuzz_settings(SHORT)
@given(data=st.data())
def test_fuzz(game_name, kind, data):
    FUZZERS[kind](data, game_name)


@pytest.mark.slow
@pytest.mark.parametrize("kind", FUZZERS)
@pytest.mark.parametrize("game_name", GAMES)
@fuzz_settings(LONG)
@given(data=st.data())
def test_fuzz_long(game_name, kind, data):
    FUZZERS[kind](data, game_name)


def cli_answers_in_one_line(args, text):
    """`tessera ARGS` with ``text`` on stdin: success, or one line `error: ...` and exit 2."""
    result = CliRunner().invoke(main, args, input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, text, result.exception)
    if result.exit_code:
        assert result.exit_code == 2 and result.stdout == "", (args, text)
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, text, lines)


def fuzz_cli(data, game_name):
    """show, moves, best, view and play (a mangled move of the unmutated position) on a
    mutated position from stdin."""
    state, other = a_seed_pair(data.draw, game_name)
    game = get_game(game_name)
    if data.draw(st.booleans()):
        text = text_input(data.draw, game, state, other)
    else:
        text = json_input(data.draw, game, state, other)
    commands = [["show", "-"], ["moves", "-"], ["best", "-", "-n", "8", "--seed", "1"], ["view", "-", "--player", "1"]]
    moves = listed_moves(game, state) if game.observer(state) is None else []
    if moves:
        move = game.format_move(state, data.draw(st.sampled_from(moves)))
        commands.append(["play", "-", mutated_text(data.draw, move, move, game.notation().COLOUR_LETTERS, first=0)])
    cli_answers_in_one_line(data.draw(st.sampled_from(commands)), text)


@pytest.mark.parametrize("game_name", GAMES)
@fuzz_settings(SHORT // 4)
@given(data=st.data())
def test_fuzz_cli(game_name, data):
    fuzz_cli(data, game_name)


@pytest.mark.slow
@pytest.mark.parametrize("game_name", GAMES)
@fuzz_settings(LONG // 10)
@given(data=st.data())
def test_fuzz_cli_long(game_name, data):
    fuzz_cli(data, game_name)
