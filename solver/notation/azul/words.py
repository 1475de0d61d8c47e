"""Azul's state words as notation values and back: tile sets, walls, pattern lines, and
a player's board read from the array."""

from typing import NamedTuple

from tessera.errors import PositionError
from tessera.kernels.azul.layout import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    LANE_BITS,
    LANE_MASK,
    LINE_COLOUR_SHIFT,
    LINE_COUNT_MASK,
    MARKER_BIT,
    NCOLOURS,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    TILES_PER_COLOUR,
    VARIANT_COLOUR,
    W_FACTORY,
    W_PLAYERS,
    factories_for,
    player_word,
    wall_column,
)
from tessera.notation.fields import TileLanes, list_of, shown, text_value

GAME = "azul"
VARIANTS = ("colour", "gray")
PHASES = ("refill", "draft", "tiling", "over")
TILES = TileLanes(COLOUR_NAMES, COLOUR_LETTERS, TILES_PER_COLOUR)
MARKER = "1"
NO_TILES = "-"
EMPTY_CELL = "."
FILLED_CELL = "x"  # colour wall only: whatever colour is printed there
WALL_SIZE = 5

ROW_CELLS = 0x1F
COLUMN_CELLS = 0x108421  # column 0: bits 0, 5, 10, 15, 20
WALL_CELLS = (1 << 25) - 1
LINE_BITS = sum(0x7F << (LANE_BITS * i) for i in range(WALL_SIZE))
# The cells where the colour wall prints each colour.
PRINTED_CELLS = tuple(sum(1 << (5 * r + wall_column(c, r)) for r in range(WALL_SIZE)) for c in range(NCOLOURS))


# ---- tile sets -----------------------------------------------------------------------


def tile_set_word(field, text):
    """A tile set like ``1BBR`` (``-`` for none) as a byte-lane word."""
    text = text_value(field, text)
    if text == NO_TILES:
        return 0
    unknown = set(text) - set(COLOUR_LETTERS + MARKER)
    if not text or unknown:
        raise PositionError(
            field,
            f"{shown(text)} is not a tile set (letters"
            f" {' '.join(COLOUR_LETTERS)}, {MARKER} for the marker,"
            f" {NO_TILES} for none)",
        )
    if text.count(MARKER) > 1:
        raise PositionError(field, f"{shown(text)} has the marker twice")
    return (MARKER_BIT if MARKER in text else 0) + TILES.letters_word(field, text)


def tile_set_text(word):
    word = int(word)
    text = MARKER if word & MARKER_BIT else ""
    return text + TILES.letters_text(word) or NO_TILES


def has_marker(word):
    return bool(int(word) & MARKER_BIT)


# ---- walls and pattern lines ---------------------------------------------------------


def wall_masks(field, rows, variant):
    """Five colour masks from five rows of cells."""
    rows = list_of(field, rows, WALL_SIZE, "rows")
    masks = [0] * NCOLOURS
    for r, row in enumerate(rows):
        if len(row) != WALL_SIZE:
            raise PositionError(field, f"row {r + 1} {shown(row)} needs 5 cells")
        for col, cell in enumerate(row):
            colour = _wall_cell_colour(field, cell, r, col, variant)
            if colour is not None:
                masks[colour] |= 1 << (5 * r + col)
    return masks


def _wall_cell_colour(field, cell, row, col, variant):
    if cell == EMPTY_CELL:
        return None
    if cell == FILLED_CELL and variant == VARIANT_COLOUR:
        return (col - row) % NCOLOURS
    if cell in TILES.of_letter:
        return TILES.of_letter[cell]
    allowed = "a colour letter or '.'" + (" or 'x'" if variant == VARIANT_COLOUR else "")
    raise PositionError(field, f"row {row + 1} column {col + 1}: {shown(cell)} is not {allowed}")


def wall_rows(walls):
    cells = [EMPTY_CELL] * (WALL_SIZE * WALL_SIZE)
    for c, mask in enumerate(walls):
        for cell in range(WALL_SIZE * WALL_SIZE):
            if mask >> cell & 1:
                cells[cell] = COLOUR_LETTERS[c]
    return ["".join(cells[5 * r : 5 * r + 5]) for r in range(WALL_SIZE)]


def lines_word(field, groups):
    groups = list_of(field, groups, WALL_SIZE, "lines")
    return sum(_line_lane(field, i, group) << (LANE_BITS * i) for i, group in enumerate(groups))


def _line_lane(field, line, group):
    """One pattern line: tiles of one colour, then '.' padding (optional), or '-'."""
    if group == NO_TILES:
        return 0
    tiles = group.rstrip(EMPTY_CELL)
    if not group or set(tiles) - set(COLOUR_LETTERS) or len(set(tiles)) > 1:
        raise PositionError(field, f"line {line + 1} {shown(group)} is not tiles of one colour then '.'")
    if len(group) > line + 1:
        raise PositionError(field, f"line {line + 1} has room for {line + 1}, got {shown(group)}")
    if not tiles:
        return 0
    return len(tiles) | TILES.of_letter[tiles[0]] << LINE_COLOUR_SHIFT


def line_text(board, line):
    count, colour = board.line(line)
    return COLOUR_LETTERS[colour] * count + EMPTY_CELL * (line + 1 - count)


# ---- a player's board ----------------------------------------------------------------


class Board(NamedTuple):
    """One player's words, as Python ints."""

    walls: tuple
    lines: int
    floor: int
    score: int

    def line(self, i):
        """(count, colour) of pattern line ``i``."""
        lane = self.lines >> (LANE_BITS * i) & LANE_MASK
        return lane & LINE_COUNT_MASK, lane >> LINE_COLOUR_SHIFT

    def line_is_full(self, i):
        return self.line(i)[0] == i + 1

    def occupancy(self):
        return occupancy(self.walls)

    def complete_rows(self):
        occupied = self.occupancy()
        return sum(occupied >> (5 * r) & ROW_CELLS == ROW_CELLS for r in range(WALL_SIZE))


def occupancy(walls):
    return walls[0] | walls[1] | walls[2] | walls[3] | walls[4]


def read_board(state, p):
    return Board(
        walls=tuple(int(state[player_word(p, P_WALL + c)]) for c in range(NCOLOURS)),
        lines=int(state[player_word(p, P_LINES)]),
        floor=int(state[player_word(p, P_FLOOR)]),
        score=int(state[player_word(p, P_SCORE)]),
    )


def factory_words(state):
    return [state[W_FACTORY + f] for f in range(factories_for(int(state[W_PLAYERS])))]
