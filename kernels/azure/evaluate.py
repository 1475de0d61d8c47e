"""Azure's cheap evaluation: each player's score plus what their cards are worth.

For each player, in points: the score, plus ``CARD_VALUE`` per card in hand (a card
pays a symbol of a later space, and every symbol on the realm is worth about a
point or a card), plus with Cosmos ``DRAGON_STEP_VALUE`` per step the Yellow Dragon
stands toward them (minus per step toward the opponent). A finished game is worth
``WIN_VALUE`` to the winner and the score to the loser. This is the value of
cut-off positions in search and of greedy agents' choices; it reads both hands, so
it is for complete states (a determinization).
"""

from tessera.kernels.azure.layout import (
    NOBODY,
    P_HAND_SIZE,
    P_SCORE,
    PLAYERS,
    S_COSMOS,
    W_DRAGON,
    W_WINNER,
    WIN_SCORE,
)
from tessera.kernels.azure.state import player_base
from tessera.kernels.jit import njit

CARD_VALUE = 0.5
DRAGON_STEP_VALUE = 0.5
WIN_VALUE = WIN_SCORE + 10.0


@njit(cache=True)
def evaluate(state, out):
    """``out[p]``: player p's estimate in score points (see the module docstring)."""
    winner = state[W_WINNER]
    dragon = state[W_DRAGON] * DRAGON_STEP_VALUE if state[S_COSMOS] else 0.0
    for p in range(PLAYERS):
        base = player_base(p)
        if winner != NOBODY:
            out[p] = WIN_VALUE if p == winner else float(state[base + P_SCORE])
            continue
        out[p] = state[base + P_SCORE] + CARD_VALUE * state[base + P_HAND_SIZE] + (dragon if p == 0 else -dragon)
