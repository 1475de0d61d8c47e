"""Azure kernels: the common game interface on int64 states (docs/azure.md).

Base game, the Gifted module and the Cosmos expansion; hidden hands with players'
views (``view``) and ``determinize``. ``tessera.kernels.azure.setup`` makes new games.
"""

from tessera.kernels.azure.apply import apply_move, resolve_chance
from tessera.kernels.azure.evaluate import evaluate
from tessera.kernels.azure.heuristic import move_heuristic, move_heuristics
from tessera.kernels.azure.layout import MAX_MOVES, STATE_SIZE
from tessera.kernels.azure.moves import chance_outcomes, legal_moves, random_move, sample_chance
from tessera.kernels.azure.state import payoffs, players, scores, to_move
from tessera.kernels.azure.views import determinize, is_complete, view

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
    "move_heuristics",
    "payoffs",
    "players",
    "random_move",
    "resolve_chance",
    "sample_chance",
    "scores",
    "to_move",
    "view",
]
