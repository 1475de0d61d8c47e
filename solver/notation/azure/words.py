"""Azure's state words as notation values and back: phases, cells, cards and players."""

import re

from tessera.errors import PositionError
from tessera.kernels.azure.layout import (
    BEAST_NAMES,
    CARDS_PER_COLOUR,
    CELLS,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    GRID,
    NCOLOURS,
    NOBODY,
    PHASE_BOON,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    PLAYERS,
    STEP_BEASTS,
    STEP_BIRD_DRAW,
    STEP_BIRD_RETURN,
    STEP_BOON,
    STEP_END,
    STEP_RETURN,
    STEP_SETUP,
    STEP_TAKE,
    W_PHASE,
    W_STEP,
    player_word,
)
from tessera.notation.fields import Colours, letter_counts, letters_text, shown, text_number, text_value

GAME = "azure"
NONE = "-"  # no value: no player, no cell, no cards
UNKNOWN = "?"  # a card the reader of a view cannot name
LARGE_MARK = "*"  # a Cosmos large domain in a layout token
COLUMNS = "abcdefgh"
MASK64 = (1 << 64) - 1
CELL_NAME = re.compile(r"([a-h])([1-8])")
COLOURS = Colours(COLOUR_NAMES, COLOUR_LETTERS)
BEAST_OF_NAME = {name: c for c, name in enumerate(BEAST_NAMES)}


# Notation phase -> (W_PHASE, W_STEP). The draw phase is two: the starting hands and the
# Bird's draws. A turn waiting for its placement resumes nowhere (STEP_END); a game that
# ended in the middle of a turn keeps the step it stopped at (the ``step`` key).
PHASES = {
    "setup": (PHASE_DRAW, STEP_SETUP),
    "place": (PHASE_PLACE, STEP_END),
    "boon": (PHASE_BOON, STEP_BOON),
    "take": (PHASE_TAKE, STEP_TAKE),
    "return": (PHASE_RETURN, STEP_RETURN),
    "bird-draw": (PHASE_DRAW, STEP_BIRD_DRAW),
    "bird-return": (PHASE_RETURN_PAIR, STEP_BIRD_RETURN),
    "over": (PHASE_OVER, STEP_END),
}
PHASE_OF_WORDS = {words: name for name, words in PHASES.items()}
STEP_NAMES = ("boon", "take", "return", "beasts", "bird-draw", "bird-return", "end", "setup")
MID_TURN = ("boon", "take", "return", "bird-draw", "bird-return")  # a stone was just placed
# Where a turn can stop with a win: the placement's points or cosmos steps (STEP_END, the
# step the turn started at), Bountiful's extra boon, a threshold point (both in the boon
# and take steps), the Dragon's or Tiger's points.
OVER_STEPS = (STEP_END, STEP_BOON, STEP_TAKE, STEP_BEASTS)
OVER_STEP_NAMES = tuple(STEP_NAMES[step] for step in OVER_STEPS[1:])


def phase_name(state):
    """The notation's phase of a state, or None if its phase and step words fit none."""
    if state[W_PHASE] == PHASE_OVER and state[W_STEP] in OVER_STEPS:
        return "over"
    return PHASE_OF_WORDS.get((int(state[W_PHASE]), int(state[W_STEP])))


# ---- cells and cards -------------------------------------------------------------------


def cell_name(cell):
    """``a1`` is the top-left cell: columns a-h left to right, rows 1-8 top to bottom."""
    row, col = divmod(int(cell), GRID)
    return f"{COLUMNS[col]}{row + 1}"


def cell_of_name(field, name):
    match = CELL_NAME.fullmatch(name) if isinstance(name, str) else None
    if not match:
        raise PositionError(field, f"{shown(name)} is not a cell (a1..h8: column a-h, row 1-8)")
    return GRID * (int(match.group(2)) - 1) + COLUMNS.index(match.group(1))


def cell_bit(cell):
    return 1 << cell


def realm_mask(word):
    """A realm mask word as a non-negative Python int (bit 63 included)."""
    return int(word) & MASK64


def cells_of(mask):
    mask = realm_mask(mask)
    return [cell for cell in range(CELLS) if mask >> cell & 1]


def signed_word(mask):
    """A non-negative 64-bit mask as the int64 word value."""
    return mask - (1 << 64) if mask >> 63 else mask


def cards_text(counts, unknown=0):
    if any(not 0 <= n <= NCOLOURS * CARDS_PER_COLOUR for n in list(counts) + [unknown]):
        return f"counts {'/'.join(map(str, counts))}" + (f" and {unknown} unknown" if unknown else "")
    return letters_text(counts, COLOUR_LETTERS) + UNKNOWN * unknown or NONE


def cards_of_text(field, text, unknown_allowed):
    """(counts by colour, unknown cards) of a card string like ``AAW??``."""
    text = text_value(field, text)
    if text == NONE:
        return [0] * NCOLOURS, 0
    allowed = set(COLOUR_LETTERS) | ({UNKNOWN} if unknown_allowed else set())
    if not text or set(text) - allowed:
        extra = f", {UNKNOWN} for an unknown card" if unknown_allowed else ""
        raise PositionError(
            field, f"{shown(text)} is not a set of cards (letters {' '.join(COLOUR_LETTERS)}{extra}, {NONE} for none)"
        )
    counts = letter_counts(field, text, COLOUR_LETTERS, COLOUR_NAMES, CARDS_PER_COLOUR, "cards")
    return counts, text.count(UNKNOWN)


def player_index(field, value, alternative=""):
    """A player number 1..2 (JSON int) as the index 0..1."""
    if type(value) is not int or not 1 <= value <= PLAYERS:
        raise PositionError(field, f"expected {alternative}a player, 1 or 2, got {shown(value)}")
    return value - 1


def player_or_none(field, value):
    return NOBODY if value is None else player_index(field, value, "null or ")


def player_json(index):
    index = int(index)
    return None if index == NOBODY else index + 1


def player_text(value):
    return NONE if value is None else str(value)


def text_player(field, token):
    return None if token == NONE else text_number(field, token)


def words_at(state, word, n=NCOLOURS):
    return [int(v) for v in state[word : word + n]]


def player_words(state, p, offset, n=1):
    start = player_word(p, offset)
    return [int(v) for v in state[start : start + n]] if n > 1 else int(state[start])
