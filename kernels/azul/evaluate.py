"""Azul's cheap evaluation: what each player would have if the round ended now.

For each player: the score, plus the points the full pattern lines would score
at wall-tiling (top to bottom, each seeing the ones before; on the gray wall at
the best open column), less the floor penalty, never below 0. Unfinished lines
and end bonuses count nothing. This is the evaluation of the greedy agent and
the search's cut-off positions (docs/search.md).

``estimate`` adds what the board promises for later: MCTS's round rollouts stop at the
end of the round and score that (docs/search.md, "Rollouts").
"""

from tessera.kernels.azul.layout import (
    COLOUR_BONUS,
    COLUMN_BONUS,
    NCOLOURS,
    P_FLOOR,
    P_LINES,
    P_SCORE,
    P_WALL,
    ROW_BONUS,
    VARIANT_GRAY,
    W_PLAYERS,
    W_VARIANT,
)
from tessera.kernels.azul.moves import player_base
from tessera.kernels.azul.tiles import has_marker, total
from tessera.kernels.azul.wall import (
    COLUMN_MASK,
    ROW_MASK,
    best_open_cell,
    colour_column,
    floor_penalty,
    occupancy,
    placement_points,
)
from tessera.kernels.bits import popcount
from tessera.kernels.jit import njit


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
            cell = 5 * line + colour_column(line, colour)
            occ |= 1 << cell
            points += placement_points(occ, cell)
            continue
        best, best_cell = best_open_cell(occ, state[base + P_WALL + colour], line)
        if best < 0:
            slots += line + 1
            continue
        occ |= 1 << best_cell
        points += best
    return max(0, points - floor_penalty(slots))


@njit(cache=True)
def evaluate(state, out):
    """``out[p]``: player p's score if the round ended now (see the module docstring)."""
    for p in range(state[W_PLAYERS]):
        out[p] = round_end_score(state, p)


@njit(cache=True)
def prospects(state, player):
    """The points the player's board promises beyond its score: every row's, column's and
    colour's end bonus in proportion to its tiles on the wall (a row of 3 tiles: 3/5 of 2
    points), and on the colour wall every unfinished pattern line's tile at the points it
    would score now, in proportion to the line's fill (a line of 2 with 1 tile: half).

    Linear in the tiles: of the shares tried (squared, square root, linear), linear ones
    made the strongest round rollouts (results/strength/README.md, "Rollouts cut at the
    end of the round")."""
    base = player_base(state, player)
    occ = occupancy(state, base)
    points = 0.0
    for k in range(5):
        points += ROW_BONUS * popcount((occ >> (5 * k)) & ROW_MASK) / 5.0
        points += COLUMN_BONUS * popcount(occ & (COLUMN_MASK << k)) / 5.0
    for colour in range(NCOLOURS):
        points += COLOUR_BONUS * popcount(state[base + P_WALL + colour]) / 5.0
    if state[W_VARIANT] == VARIANT_GRAY:
        return points  # an unfinished line's column is not chosen yet
    lines = state[base + P_LINES]
    for line in range(5):
        tiles = (lines >> (8 * line)) & 0xF
        if tiles == 0 or tiles == line + 1:
            continue
        colour = (lines >> (8 * line + 4)) & 0x7
        cell = 5 * line + colour_column(line, colour)
        points += tiles / (line + 1) * placement_points(occ | (1 << cell), cell)
    return points


@njit(cache=True)
def estimate(state, out):
    """``out[p]``: player p's ``evaluate`` plus its ``prospects``."""
    for p in range(state[W_PLAYERS]):
        out[p] = round_end_score(state, p) + prospects(state, p)
