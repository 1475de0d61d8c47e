"""Wall geometry and scoring on 25-bit masks (bit 5*row + column)."""

import numpy as np

from tessera.kernels.azul.layout import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    FLOOR_PENALTY,
    FLOOR_SLOTS,
    NCOLOURS,
    P_WALL,
    ROW_BONUS,
)
from tessera.kernels.bits import popcount
from tessera.kernels.jit import njit

ROW_MASK = 0x1F
COLUMN_MASK = 0x108421  # column 0: bits 0, 5, 10, 15, 20
_FLOOR_PENALTY = np.array(FLOOR_PENALTY, dtype=np.int64)


@njit(cache=True, inline="always")
def colour_column(line, colour):
    """The colour wall's column for ``colour`` in row ``line`` (the fixed diagonal pattern)."""
    return (colour + line) % 5


@njit(cache=True, inline="always")
def occupancy(state, base):
    """All filled wall cells of the player whose block starts at ``base``."""
    w = base + P_WALL
    return state[w] | state[w + 1] | state[w + 2] | state[w + 3] | state[w + 4]


@njit(cache=True, inline="always")
def row_has_colour(colour_mask, row):
    return ((colour_mask >> (5 * row)) & ROW_MASK) != 0


@njit(cache=True, inline="always")
def columns_used(colour_mask):
    """5-bit mask of the columns where this colour already is."""
    m = colour_mask | (colour_mask >> 5) | (colour_mask >> 10) | (colour_mask >> 15) | (colour_mask >> 20)
    return m & ROW_MASK


@njit(cache=True)
def free_columns(occ, colour_mask, row):
    """Gray wall: columns where a tile of this colour may go in this row."""
    return ~((occ >> (5 * row)) | columns_used(colour_mask)) & ROW_MASK


def _run_lengths():
    """``[m, i]``: the length of the run of set bits through bit ``i`` of the 5-bit mask
    ``m`` with bit ``i`` set."""
    runs = np.zeros((32, 5), dtype=np.int64)
    for mask in range(32):
        for i in range(5):
            bits = mask | (1 << i)
            low, high = i, i
            while low > 0 and (bits >> (low - 1)) & 1:
                low -= 1
            while high < 4 and (bits >> (high + 1)) & 1:
                high += 1
            runs[mask, i] = high - low + 1
    return runs


_RUN_LENGTHS = _run_lengths()


@njit(cache=True, inline="always")
def column_bits(occ, col):
    """The 5-bit mask of a column's filled cells, bit r for row r."""
    c = occ >> col
    return (c & 1) | ((c >> 4) & 2) | ((c >> 8) & 4) | ((c >> 12) & 8) | ((c >> 16) & 16)


@njit(cache=True)
def placement_points(occ, cell):
    """Points for the tile just placed at ``cell``; ``occ`` already includes it. The runs
    through the cell are looked up, not walked: rollouts score every tile they place."""
    row = cell // 5
    col = cell % 5
    horizontal = _RUN_LENGTHS[(occ >> (5 * row)) & ROW_MASK, col]
    vertical = _RUN_LENGTHS[column_bits(occ, col), row]
    if horizontal == 1 and vertical == 1:
        return 1
    points = 0
    if horizontal > 1:
        points += horizontal
    if vertical > 1:
        points += vertical
    return points


@njit(cache=True)
def best_open_cell(occ, colour_mask, row):
    """Gray wall: ``(points, cell)`` of the open cell of ``row`` where a tile of this colour
    scores most (the first of equals); ``(-1, 0)`` when no cell is open to it."""
    columns = free_columns(occ, colour_mask, row)
    best, best_cell = -1, 0
    for col in range(5):
        if (columns >> col) & 1:
            cell = 5 * row + col
            gain = placement_points(occ | (1 << cell), cell)
            if gain > best:
                best, best_cell = gain, cell
    return best, best_cell


@njit(cache=True)
def row_can_be_completed(state, base, row):
    """Gray wall: can the row's empty cells still take its missing colours?

    Each missing colour needs an empty cell of the row whose column lacks that
    colour, every cell taking one colour: a perfect matching, found by a DP over
    the subsets of colours used so far (bit S of ``reachable``).
    """
    occ = occupancy(state, base)
    empty = ~(occ >> (5 * row)) & ROW_MASK
    missing = 0
    for colour in range(NCOLOURS):
        if not row_has_colour(state[base + P_WALL + colour], row):
            missing |= 1 << colour
    reachable = 1
    for col in range(5):
        if not (empty >> col) & 1:
            continue
        allowed = 0
        for colour in range(NCOLOURS):
            if (missing >> colour) & 1 and not (columns_used(state[base + P_WALL + colour]) >> col) & 1:
                allowed |= 1 << colour
        extended = 0
        for subset in range(32):
            if (reachable >> subset) & 1:
                for colour in range(NCOLOURS):
                    if (allowed >> colour) & 1 and not (subset >> colour) & 1:
                        extended |= 1 << (subset | (1 << colour))
        reachable = extended
        if reachable == 0:
            return False
    return True


@njit(cache=True)
def any_row_can_be_completed(state, base):
    for row in range(5):
        if row_can_be_completed(state, base, row):
            return True
    return False


@njit(cache=True)
def floor_penalty(slots):
    return _FLOOR_PENALTY[min(slots, FLOOR_SLOTS)]


@njit(cache=True)
def complete_rows(occ):
    n = 0
    for row in range(5):
        if ((occ >> (5 * row)) & ROW_MASK) == ROW_MASK:
            n += 1
    return n


@njit(cache=True)
def complete_columns(occ):
    n = 0
    for col in range(5):
        if ((occ >> col) & COLUMN_MASK) == COLUMN_MASK:
            n += 1
    return n


@njit(cache=True)
def end_bonus(state, base):
    """Row, column and colour bonuses for one player's wall."""
    occ = occupancy(state, base)
    colours = 0
    for c in range(NCOLOURS):
        if popcount(state[base + P_WALL + c]) == 5:
            colours += 1
    return ROW_BONUS * complete_rows(occ) + COLUMN_BONUS * complete_columns(occ) + COLOUR_BONUS * colours
