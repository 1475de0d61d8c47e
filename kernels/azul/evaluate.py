"""Azul's cheap evaluation: what each player would have if the round ended now.

For each player: the score, plus the points the full pattern lines would score
at wall-tiling (top to bottom, each seeing the ones before; on the gray wall at
the best open column), less the floor penalty, never below 0. Unfinished lines
and end bonuses count nothing. This is the evaluation of the greedy agent and
the search's cut-off positions (docs/search.md).
"""
from kernels.azul.layout import P_FLOOR, P_LINES, P_SCORE, P_WALL, VARIANT_GRAY, W_PLAYERS, W_VARIANT
from kernels.azul.moves import player_base
from kernels.azul.tiles import has_marker, total
from kernels.azul.wall import floor_penalty, free_columns, occupancy, placement_points
from kernels.jit import njit


@njit(cache=True)
def round_end_score(state, player):
    base = player_base(state, player)
    gray = state[W_VARIANT] == VARIANT_GRAY
    occ = occupancy(state, base)
    lines = state[base + P_LINES]
    floor = state[base + P_FLOOR]
    slots = total(floor) + (1 if has_marker(floor) else 0)
    points = state[base + P_SCORE]
    for line in range(5):
        if ((lines >> (8 * line)) & 0xF) != line + 1:
            continue
        colour = (lines >> (8 * line + 4)) & 0x7
        if not gray:
            cell = 5 * line + (colour + line) % 5
            occ |= 1 << cell
            points += placement_points(occ, cell)
            continue
        columns = free_columns(occ, state[base + P_WALL + colour], line)
        if columns == 0:
            slots += line + 1
            continue
        best, best_cell = -1, 0
        for col in range(5):
            if (columns >> col) & 1:
                cell = 5 * line + col
                gain = placement_points(occ | (1 << cell), cell)
                if gain > best:
                    best, best_cell = gain, cell
        occ |= 1 << best_cell
        points += best
    return max(0, points - floor_penalty(slots))


@njit(cache=True)
def evaluate(state, out):
    """``out[p]``: player p's score if the round ended now (see the module docstring)."""
    for p in range(state[W_PLAYERS]):
        out[p] = round_end_score(state, p)
