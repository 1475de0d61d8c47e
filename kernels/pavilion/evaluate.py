"""Summer Pavilion's cheap evaluation: what each player would end on if the game stopped now.

For each player: the score, plus the end bonuses the board has already earned
(complete stars, numbers covered on every star), less a point per tile held beside
the board or on the corners beyond the four that may be kept, never below 1. Tiles
in hand count nothing otherwise. This is the value of cut-off positions in search.
"""
from numba import njit

from kernels.pavilion.layout import KEEP_AT_MOST, P_HAND, P_KEPT, P_SCORE, P_SPACES, W_PLAYERS
from kernels.pavilion.moves import player_base
from kernels.pavilion.stars import end_bonus, lose_points
from kernels.pavilion.tiles import total


@njit(cache=True)
def evaluate(state, out):
    """``out[p]``: player p's estimate in score points (see the module docstring)."""
    for p in range(state[W_PLAYERS]):
        base = player_base(p)
        held = total(state[base + P_HAND]) + total(state[base + P_KEPT])
        score = state[base + P_SCORE] + end_bonus(state[base + P_SPACES])
        out[p] = lose_points(score, max(0, held - KEEP_AT_MOST))
