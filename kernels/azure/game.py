"""Azure's kernels under the names of the game interface (``tessera.kernels.games`` lists them),
for the per-game instances of the generic kernels (``tessera.kernels.bind``)."""

from tessera.kernels.azure import (  # noqa: F401  (the interface)
    MAX_MOVES,
    apply_move,
    chance_outcomes,
    determinize,
    evaluate,
    is_complete,
    legal_moves,
    move_heuristic,
    move_heuristics,
    payoffs,
    players,
    random_move,
    resolve_chance,
    sample_chance,
    scores,
    to_move,
    view,
)
from tessera.kernels.azure import evaluate as estimate  # noqa: F401  (no more to it than evaluate)
from tessera.kernels.azure.features import (  # noqa: F401  (optional: a value; rounds counted in turns)
    N_VALUE_FEATURES,
    ROUND_TURNS,
    players_value_features,
    starts_turn,
)
from tessera.kernels.azure.policy import N_POLICY_FEATURES, move_features  # noqa: F401  (optional)
from tessera.kernels.constants import AZURE as GAME_ID  # noqa: F401
from tessera.kernels.hashing import position_hash  # noqa: F401
