"""The Cosmos track: moving the Yellow Dragon, its thresholds and its ends.

``W_DRAGON`` is the Dragon's step from the middle, positive toward player 0. Bit k
of ``S_THRESHOLDS`` is a threshold between steps k and k + 1 on each player's side.
A step toward the mover that crosses one of the mover's thresholds scores a point
at once and owes the mover a card of choice (``W_TAKES``); one that crosses a
threshold of the opponent's back costs them a point at once and a card of their
choice (``W_RETURNS``). The cards are settled after the boons (docs/azure.md).
"""

from tessera.kernels.azure.layout import S_THRESHOLDS, S_TRACK_END, W_DRAGON, W_RETURNS, W_TAKES
from tessera.kernels.azure.state import gain_points, lose_points, win
from tessera.kernels.jit import njit


@njit(cache=True)
def move_dragon(state, player, steps):
    """Move the Yellow Dragon ``steps`` toward ``player``; return True if the game ended."""
    sign = 1 if player == 0 else -1
    thresholds = state[S_THRESHOLDS]
    end = state[S_TRACK_END]
    mine = sign * state[W_DRAGON]  # the Dragon's step toward the mover
    for _ in range(steps):
        theirs = -mine  # ... and toward the opponent
        mine += 1
        state[W_DRAGON] = sign * mine
        if theirs >= 2 and (thresholds >> (theirs - 1)) & 1:
            lose_points(state, 1 - player, 1)
            state[W_RETURNS] += 1
        if mine >= 2 and (thresholds >> (mine - 1)) & 1:
            if gain_points(state, player, 1):
                return True
            state[W_TAKES] += 1
        if mine >= end:
            win(state, player)
            return True
    return False
