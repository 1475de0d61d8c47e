"""Azure's kernels under the names of the game interface (``kernels.games`` lists them),
for the per-game instances of the generic kernels (``kernels.bind``)."""
from kernels.azure import (  # noqa: F401  (the interface)
    MAX_MOVES, apply_move, chance_outcomes, determinize, evaluate, is_complete, legal_moves,
    move_heuristic, move_heuristics, payoffs, players, random_move, resolve_chance, sample_chance, scores,
    to_move, view,
)
from kernels.azure import evaluate as estimate  # noqa: F401  (no more to it than evaluate)
from kernels.constants import AZURE as GAME_ID  # noqa: F401
from kernels.hashing import position_hash  # noqa: F401
