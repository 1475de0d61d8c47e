"""Azul kernels: the common game interface on bit-packed int64 states."""

from tessera.kernels.azul.apply import apply_move, random_refill
from tessera.kernels.azul.evaluate import estimate, evaluate
from tessera.kernels.azul.heuristic import best_heuristic_move, move_heuristic, move_heuristics
from tessera.kernels.azul.layout import MAX_MOVES, STATE_SIZE
from tessera.kernels.azul.moves import chance_outcomes, legal_moves, random_move, sample_chance
from tessera.kernels.azul.state import new_game, payoffs, players, scores, to_move

__all__ = [
    "MAX_MOVES",
    "STATE_SIZE",
    "apply_move",
    "best_heuristic_move",
    "chance_outcomes",
    "estimate",
    "evaluate",
    "legal_moves",
    "move_heuristic",
    "move_heuristics",
    "new_game",
    "payoffs",
    "players",
    "random_move",
    "random_refill",
    "sample_chance",
    "scores",
    "to_move",
]
