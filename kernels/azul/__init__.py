"""Azul kernels: the common game interface on bit-packed int64 states."""
from kernels.azul.apply import apply_move, random_refill
from kernels.azul.evaluate import estimate, evaluate
from kernels.azul.heuristic import move_heuristic, move_heuristics
from kernels.azul.layout import MAX_MOVES, STATE_SIZE
from kernels.azul.moves import chance_outcomes, legal_moves, random_move, sample_chance
from kernels.azul.state import new_game, payoffs, players, scores, to_move

__all__ = [
    "MAX_MOVES", "STATE_SIZE", "apply_move", "chance_outcomes", "estimate", "evaluate", "legal_moves", "move_heuristic",
    "move_heuristics", "new_game", "payoffs", "players", "random_move", "random_refill", "sample_chance", "scores",
    "to_move",
]
