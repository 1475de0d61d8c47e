"""Summer Pavilion positions in JSON form: the one builder of a state array (text is
read into this form first), and the JSON a state formats to."""

import numpy as np

from tessera.errors import PositionError
from tessera.kernels.pavilion.layout import (
    COLOUR_NAMES,
    GAME_ID,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    PLAYER_COUNTS,
    ROUNDS,
    STATE_SIZE,
    TOKEN_IN_CENTRE,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_GAME,
    W_PASSED,
    W_PHASE,
    W_PLAYERS,
    W_REWARD,
    W_ROUND,
    W_STARTER,
    W_SUPPLY,
    W_TO_MOVE,
    W_TOKEN,
    W_TOWER,
    factories_for,
    player_word,
    wild_of_round,
)
from tessera.notation.fields import check_game, check_keys, choice, list_of, player_boards, shown, whole_number
from tessera.notation.pavilion.validation import validate
from tessera.notation.pavilion.words import GAME, PHASES, TILES, stars_text, stars_words, tile_set_text, tile_set_word

JSON_KEYS = (
    "game",
    "players",
    "round",
    "wild",
    "phase",
    "turn",
    "starter",
    "token",
    "passed",
    "reward",
    "factories",
    "centre",
    "supply",
    "bag",
    "tower",
    "boards",
)
BOARD_KEYS = ("score", "stars", "hand", "kept")


def position_from_json(obj):
    """The state array of a position in JSON form (a dict); raises PositionError."""
    obj = check_game(obj, GAME, JSON_KEYS)
    players = whole_number("players", obj["players"])
    if players not in PLAYER_COUNTS:
        raise PositionError("players", f"Summer Pavilion has 2 to 4 players, not {players}")
    round_number = whole_number("round", obj["round"])
    if not 1 <= round_number <= ROUNDS:
        raise PositionError("round", f"rounds are 1 to {ROUNDS}, not {round_number}")
    wild = COLOUR_NAMES[wild_of_round(round_number)]
    if obj["wild"] != wild:
        raise PositionError("wild", f"the wild colour of round {round_number} is {wild}, not {shown(obj['wild'])}")
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_PLAYERS] = players
    state[W_ROUND] = round_number
    state[W_PHASE] = choice("phase", obj["phase"], PHASES)
    state[W_TO_MOVE] = _player_number("turn", obj["turn"], players) - 1
    state[W_STARTER] = _player_number("starter", obj["starter"], players) - 1
    token = obj["token"]
    state[W_TOKEN] = (
        TOKEN_IN_CENTRE if token is None else _player_number("token", token, players, "null (in the centre) or ") - 1
    )
    state[W_PASSED] = _passed_word(obj["passed"], players)
    state[W_REWARD] = whole_number("reward", obj["reward"])
    factories = list_of(
        "factories",
        obj["factories"],
        factories_for(players),
        f"factories (a {players}-player game has {factories_for(players)})",
    )
    for f, text in enumerate(factories):
        state[W_FACTORY + f] = tile_set_word("factories", text)
    state[W_CENTRE] = tile_set_word("centre", obj["centre"])
    state[W_SUPPLY] = tile_set_word("supply", obj["supply"])
    state[W_BAG] = TILES.json_word("bag", obj["bag"])
    state[W_TOWER] = TILES.json_word("tower", obj["tower"])
    for p, board in enumerate(player_boards(obj["boards"], players)):
        _encode_board(state, p, board)
    validate(state)
    return state


def position_to_json(state):
    """The JSON form of a position, as a dict ready for ``json.dumps``."""
    players = int(state[W_PLAYERS])
    round_number = int(state[W_ROUND])
    token = int(state[W_TOKEN])
    return {
        "game": GAME,
        "players": players,
        "round": round_number,
        "wild": COLOUR_NAMES[wild_of_round(round_number)],
        "phase": PHASES[int(state[W_PHASE])],
        "turn": int(state[W_TO_MOVE]) + 1,
        "starter": int(state[W_STARTER]) + 1,
        "token": None if token == TOKEN_IN_CENTRE else token + 1,
        "passed": [p + 1 for p in range(players) if int(state[W_PASSED]) >> p & 1],
        "reward": int(state[W_REWARD]),
        "factories": [tile_set_text(state[W_FACTORY + f]) for f in range(factories_for(players))],
        "centre": tile_set_text(state[W_CENTRE]),
        "supply": tile_set_text(state[W_SUPPLY]),
        "bag": TILES.json_counts(state[W_BAG]),
        "tower": TILES.json_counts(state[W_TOWER]),
        "boards": [_board_json(state, p) for p in range(players)],
    }


def _board_json(state, p):
    return {
        "score": int(state[player_word(p, P_SCORE)]),
        "stars": stars_text(int(state[player_word(p, P_SPACES)]), int(state[player_word(p, P_CENTRE_COLOURS)])),
        "hand": tile_set_text(state[player_word(p, P_HAND)]),
        "kept": tile_set_text(state[player_word(p, P_KEPT)]),
    }


def _player_number(field, value, players, alternative=""):
    if type(value) is not int or not 1 <= value <= players:
        raise PositionError(field, f"expected {alternative}a player from 1 to {players}, got {shown(value)}")
    return value


def _passed_word(value, players):
    if not isinstance(value, list):
        raise PositionError("passed", f"expected a list of players, got {shown(value)}")
    word = 0
    for number in value:
        _player_number("passed", number, players)
        if word >> (number - 1) & 1:
            raise PositionError("passed", f"player {number} is listed twice")
        word |= 1 << (number - 1)
    return word


def _encode_board(state, p, board):
    prefix = f"player {p + 1} "
    board = check_keys(board, BOARD_KEYS, prefix)
    state[player_word(p, P_SCORE)] = whole_number(prefix + "score", board["score"])
    spaces, colours = stars_words(prefix + "stars", board["stars"])
    state[player_word(p, P_SPACES)] = spaces
    state[player_word(p, P_CENTRE_COLOURS)] = colours
    state[player_word(p, P_HAND)] = tile_set_word(prefix + "hand", board["hand"])
    state[player_word(p, P_KEPT)] = tile_set_word(prefix + "kept", board["kept"])
