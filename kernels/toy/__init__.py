"""Hidden high card: a two-player toy with one secret card each, for hidden-information search.

Chance deals each player a different card from 1..N (player 1 first). Player 1
passes (a draw, nothing scored) or bets. A bet goes to the showdown at stake 1,
where the higher card scores the stake. With the reply rule player 2 answers a
bet first: call (the showdown at stake 1) or, holding a card above N // 2,
raise (the showdown at stake 2). So player 1's bet with card h wins with
probability (h - 1) / (N - 1) against a card it cannot see, and a pass is worth
exactly a draw: the values a test can check by hand (docs/hidden-information.md).

It implements the whole interface of ``tessera.kernels.games``, with views (``view``)
and ``determinize``.
"""

from tessera.kernels.toy.layout import MAX_MOVES, STATE_SIZE
from tessera.kernels.toy.rules import (
    apply_move,
    chance_outcomes,
    evaluate,
    legal_moves,
    move_heuristic,
    new_game,
    payoffs,
    players,
    random_move,
    resolve_chance,
    sample_chance,
    scores,
    to_move,
)
from tessera.kernels.toy.views import determinize, is_complete, view

__all__ = [
    "MAX_MOVES",
    "STATE_SIZE",
    "apply_move",
    "chance_outcomes",
    "determinize",
    "evaluate",
    "is_complete",
    "legal_moves",
    "move_heuristic",
    "new_game",
    "payoffs",
    "players",
    "random_move",
    "resolve_chance",
    "sample_chance",
    "scores",
    "to_move",
    "view",
]
