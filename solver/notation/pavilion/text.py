"""Summer Pavilion positions in text form, read through the JSON form (``document``)."""

from tessera.notation.fields import TextForm, slash_list, text_number
from tessera.notation.pavilion.document import BOARD_KEYS, JSON_KEYS, position_from_json, position_to_json
from tessera.notation.pavilion.words import GAME, NO_TILES, TILES

NUMBER_KEYS = ("players", "round", "turn", "starter", "reward")
COUNT_KEYS = ("bag", "tower")
TEXT_HEADER_LINE = ("players", "round", "wild", "phase", "turn", "starter", "token", "passed", "reward")


def parse_position(text):
    """The state array of a position in text form; raises PositionError."""
    return position_from_json(TEXT.json(text))


def format_position(state):
    """The canonical text: a header line, the table, then one line per player."""
    obj = position_to_json(state)
    header = " ".join(f"{key} {_header_text(key, obj[key])}" for key in TEXT_HEADER_LINE)
    lines = [
        f"{GAME} {header}",
        "factories " + " ".join(obj["factories"]),
        f"centre {obj['centre']}",
        f"supply {obj['supply']}",
        "bag " + TILES.counts_text(obj["bag"]),
        "tower " + TILES.counts_text(obj["tower"]),
    ]
    for number, board in enumerate(obj["boards"], 1):
        lines.append(
            f"player {number} score {board['score']} stars {'/'.join(board['stars'])}"
            f" hand {board['hand']} kept {board['kept']}"
        )
    return "\n".join(lines)


def _header_text(key, value):
    if key == "passed":
        return ",".join(map(str, value)) or NO_TILES
    if key == "token":
        return NO_TILES if value is None else str(value)
    return str(value)


def _text_token(field, token):
    return None if token == NO_TILES else text_number(field, token)


def _text_passed(field, token):
    return [] if token == NO_TILES else [text_number(field, v) for v in token.split(",")]


HEADER_READERS = {
    **dict.fromkeys(NUMBER_KEYS, text_number),
    **dict.fromkeys(COUNT_KEYS, TILES.read_counts),
    "token": _text_token,
    "passed": _text_passed,
}
BOARD_READERS = {"score": text_number, "stars": slash_list}
TEXT = TextForm(GAME, "a Summer Pavilion position", JSON_KEYS, BOARD_KEYS, HEADER_READERS, BOARD_READERS)
