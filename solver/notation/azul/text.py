"""Azul positions in text form, read through the JSON form (``document``)."""

from tessera.notation.azul.document import BOARD_KEYS, JSON_KEYS, OPTIONAL_KEYS, position_from_json, position_to_json
from tessera.notation.azul.words import GAME, TILES
from tessera.notation.fields import TextForm, slash_list, text_number

NUMBER_KEYS = ("players", "round", "turn", "starter", "stalled")
COUNT_KEYS = ("bag", "lid")
HEADER_READERS = {
    **dict.fromkeys(NUMBER_KEYS, text_number),
    **dict.fromkeys(COUNT_KEYS, TILES.read_counts),
}
BOARD_READERS = {"score": text_number, "wall": slash_list, "lines": slash_list}
TEXT = TextForm(GAME, "an Azul position", JSON_KEYS, BOARD_KEYS, HEADER_READERS, BOARD_READERS)


def parse_position(text):
    """The state array of a position in text form; raises PositionError."""
    return position_from_json(TEXT.json(text))


def format_position(state):
    """The canonical text of a position: a header line, the table, one line per player."""
    obj = position_to_json(state)
    keys = ("players", "wall", "round", "phase", "turn", "starter", "stalled")
    header = " ".join(f"{key} {obj[key]}" for key in keys if not (key in OPTIONAL_KEYS and obj[key] == 0))
    lines = [
        f"{GAME} {header}",
        "factories " + " ".join(obj["factories"]),
        f"centre {obj['centre']}",
        "bag " + TILES.counts_text(obj["bag"]),
        "lid " + TILES.counts_text(obj["lid"]),
    ]
    for number, board in enumerate(obj["boards"], 1):
        lines.append(
            f"player {number} score {board['score']} wall {'/'.join(board['wall'])}"
            f" lines {'/'.join(board['lines'])} floor {board['floor']}"
        )
    return "\n".join(lines)
