"""Azul positions in JSON form: the one builder of a state array (text is read into this
form first), and the JSON a state formats to."""

import numpy as np

from tessera.errors import PositionError
from tessera.kernels.azul.layout import (
    GAME_ID,
    MAX_PLAYERS,
    NCOLOURS,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    STATE_SIZE,
    W_BAG,
    W_CENTRE,
    W_FACTORY,
    W_GAME,
    W_LID,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STALLED,
    W_STARTER,
    W_TO_MOVE,
    W_VARIANT,
    factories_for,
    player_word,
)
from tessera.notation.azul.validation import validate
from tessera.notation.azul.words import (
    GAME,
    PHASES,
    TILES,
    VARIANTS,
    WALL_SIZE,
    line_text,
    lines_word,
    read_board,
    tile_set_text,
    tile_set_word,
    wall_masks,
    wall_rows,
)
from tessera.notation.fields import check_game, check_keys, list_of, player_boards, shown, whole_number

JSON_KEYS = (
    "game",
    "players",
    "wall",
    "round",
    "phase",
    "turn",
    "starter",
    "stalled",
    "factories",
    "centre",
    "bag",
    "lid",
    "boards",
)
OPTIONAL_KEYS = ("stalled",)  # 0 when left out; text output leaves out a 0
BOARD_KEYS = ("score", "wall", "lines", "floor")


def position_from_json(obj):
    """The state array of a position in JSON form (a dict); raises PositionError."""
    obj = check_game(obj, GAME, JSON_KEYS)
    players = whole_number("players", obj["players"])
    if not 2 <= players <= MAX_PLAYERS:
        raise PositionError("players", f"Azul has 2 to 4 players, not {players}")
    variant = _choice("wall", obj["wall"], VARIANTS)
    state = np.zeros(STATE_SIZE, np.int64)
    state[W_GAME] = GAME_ID
    state[W_PLAYERS] = players
    state[W_VARIANT] = variant
    state[W_PHASE] = _choice("phase", obj["phase"], PHASES)
    state[W_ROUND] = whole_number("round", obj["round"])
    state[W_TO_MOVE] = whole_number("turn", obj["turn"]) - 1
    state[W_STARTER] = whole_number("starter", obj["starter"]) - 1
    state[W_STALLED] = whole_number("stalled", obj.get("stalled", 0))
    factories = list_of(
        "factories",
        obj["factories"],
        factories_for(players),
        f"factories (a {players}-player game has {factories_for(players)})",
    )
    for f, text in enumerate(factories):
        state[W_FACTORY + f] = tile_set_word("factories", text)
    state[W_CENTRE] = tile_set_word("centre", obj["centre"])
    state[W_BAG] = TILES.json_word("bag", obj["bag"])
    state[W_LID] = TILES.json_word("lid", obj["lid"])
    for p, board in enumerate(player_boards(obj["boards"], players)):
        _encode_board(state, p, board, variant)
    validate(state)
    return state


def position_to_json(state):
    """The JSON form of a position, as a dict ready for ``json.dumps``."""
    players = int(state[W_PLAYERS])
    return {
        "game": GAME,
        "players": players,
        "wall": VARIANTS[int(state[W_VARIANT])],
        "round": int(state[W_ROUND]),
        "phase": PHASES[int(state[W_PHASE])],
        "turn": int(state[W_TO_MOVE]) + 1,
        "starter": int(state[W_STARTER]) + 1,
        "stalled": int(state[W_STALLED]),
        "factories": [tile_set_text(state[W_FACTORY + f]) for f in range(factories_for(players))],
        "centre": tile_set_text(state[W_CENTRE]),
        "bag": TILES.json_counts(state[W_BAG]),
        "lid": TILES.json_counts(state[W_LID]),
        "boards": [_board_json(read_board(state, p)) for p in range(players)],
    }


def _board_json(board):
    return {
        "score": board.score,
        "wall": wall_rows(board.walls),
        "lines": [line_text(board, i) for i in range(WALL_SIZE)],
        "floor": tile_set_text(board.floor),
    }


def _choice(field, value, names):
    if value not in names:
        raise PositionError(field, f"expected {' or '.join(names)}, got {shown(value)}")
    return names.index(value)


def _encode_board(state, p, board, variant):
    prefix = f"player {p + 1} "
    board = check_keys(board, BOARD_KEYS, prefix)
    state[player_word(p, P_SCORE)] = whole_number(prefix + "score", board["score"])
    masks = wall_masks(prefix + "wall", board["wall"], variant)
    for c in range(NCOLOURS):
        state[player_word(p, P_WALL + c)] = masks[c]
    state[player_word(p, P_LINES)] = lines_word(prefix + "lines", board["lines"])
    state[player_word(p, P_FLOOR)] = tile_set_word(prefix + "floor", board["floor"])
