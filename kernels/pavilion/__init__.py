"""Azul: Summer Pavilion kernels: the common game interface on bit-packed int64 states."""

from tessera.kernels.pavilion.apply import apply_move, random_refill
from tessera.kernels.pavilion.evaluate import evaluate
from tessera.kernels.pavilion.heuristic import move_heuristic, move_heuristics
from tessera.kernels.pavilion.layout import MAX_MOVES, STATE_SIZE
from tessera.kernels.pavilion.moves import chance_outcomes, legal_moves, random_move, sample_chance
from tessera.kernels.pavilion.state import new_game, payoffs, players, scores, to_move

__all__ = [
    "MAX_MOVES",
    "STATE_SIZE",
    "apply_move",
    "chance_outcomes",
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
