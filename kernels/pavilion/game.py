"""Summer Pavilion's kernels under the names of the game interface (``tessera.kernels.games`` lists them),
for the per-game instances of the generic kernels (``tessera.kernels.bind``)."""

from tessera.kernels.complete import determinize, is_complete, view  # noqa: F401
from tessera.kernels.constants import PAVILION as GAME_ID  # noqa: F401
from tessera.kernels.hashing import position_hash  # noqa: F401
from tessera.kernels.pavilion import (  # noqa: F401  (the interface)
    MAX_MOVES,
    apply_move,
    chance_outcomes,
    evaluate,
    legal_moves,
    move_heuristic,
    move_heuristics,
    payoffs,
    players,
    random_move,
    sample_chance,
    scores,
    to_move,
)
from tessera.kernels.pavilion import evaluate as estimate  # noqa: F401  (its evaluate looks ahead already)
from tessera.kernels.pavilion import random_refill as resolve_chance  # noqa: F401
from tessera.kernels.pavilion.features import (  # noqa: F401  (optional)
    N_VALUE_FEATURES,
    is_round_boundary,
    players_value_features,
)
