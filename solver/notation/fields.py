"""Reading the pieces every game's notation shares: key/value tokens and JSON fields.

Each function raises ``PositionError`` naming the field it was reading.
"""
import re

from solver.errors import PositionError

MAX_NUMBER = 2**31 - 1            # keeps every word far inside int64
PLAYER_KEY = "player"
LIST_KEY = "factories"            # the one key whose value is several tokens


def text_sections(tokens, header_keys, board_keys):
    """The header's {key: value} and the players' in seat order.

    Every key takes one token, except ``factories``, which takes tokens up to the
    next key (tile-set tokens never look like keys).
    """
    all_keys = set(header_keys) | set(board_keys) | {PLAYER_KEY}
    header, boards = {}, []
    section, prefix, keys = header, "", header_keys
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key == PLAYER_KEY:
            number = text_number(PLAYER_KEY, tokens[i + 1] if i + 1 < len(tokens) else "")
            if number != len(boards) + 1:
                raise PositionError(f"player {number}", f"expected player {len(boards) + 1}"
                                                        " next (players come in seat order)")
            section, prefix, keys = {}, f"player {number} ", board_keys
            boards.append(section)
            i += 2
        elif key not in keys:
            raise PositionError(prefix.strip() or "position", f"unknown key '{key}'")
        elif key in section:
            raise PositionError(prefix + key, "given twice")
        elif key == LIST_KEY:
            end = i + 1
            while end < len(tokens) and tokens[end] not in all_keys:
                end += 1
            section[key] = tokens[i + 1:end]
            i = end
        elif i + 1 == len(tokens) or tokens[i + 1] in all_keys:
            raise PositionError(prefix + key, "missing value")
        else:
            section[key] = tokens[i + 1]
            i += 2
    return header, boards


def text_number(field, token):
    if not re.fullmatch(r"[0-9]{1,10}", token) or int(token) > MAX_NUMBER:
        raise PositionError(field, f"expected a whole number, got '{token}'")
    return int(token)


def check_keys(obj, keys, prefix="", optional=()):
    """Unknown keys name their object; a missing key is named as its own field."""
    owner = prefix.strip() or "position"
    if not isinstance(obj, dict):
        raise PositionError(owner, "expected a JSON object")
    for key in obj:
        if key not in keys:
            raise PositionError(owner, f"unknown key {key!r}")
    for key in keys:
        if key not in obj and key not in optional:
            raise PositionError(prefix + key, "missing")


def whole_number(field, value):
    # bool is an int in Python; JSON true is not a number.
    if type(value) is not int or not 0 <= value <= MAX_NUMBER:
        raise PositionError(field, f"expected a whole number, got {value!r}")
    return value


def text_value(field, value):
    if not isinstance(value, str):
        raise PositionError(field, f"expected a string, got {value!r}")
    return value


def list_of(field, value, length, what):
    """A list of ``length`` strings."""
    if not isinstance(value, list) or len(value) != length:
        got = len(value) if isinstance(value, list) else repr(value)
        raise PositionError(field, f"expected {length} {what}, got {got}")
    return [text_value(field, item) for item in value]


def player_boards(boards, players):
    """The JSON list of player boards, one per player."""
    if not isinstance(boards, list):
        raise PositionError("boards", f"expected a list of player boards, got {boards!r}")
    if len(boards) < players:
        raise PositionError(f"player {len(boards) + 1}", "missing")
    if len(boards) > players:
        raise PositionError(f"player {players + 1}", f"no such player in a {players}-player game")
    return boards
