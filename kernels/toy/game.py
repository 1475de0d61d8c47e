"""The toy game's kernels under the names of the game interface (``tessera.kernels.games`` lists them),
for the per-game instances of the generic kernels (``tessera.kernels.bind``)."""

from tessera.kernels.constants import TOY as GAME_ID  # noqa: F401
from tessera.kernels.hashing import position_hash  # noqa: F401
from tessera.kernels.toy import (  # noqa: F401  (the interface)
    MAX_MOVES,
    apply_move,
    chance_outcomes,
    determinize,
    evaluate,
    is_complete,
    legal_moves,
    move_heuristic,
    payoffs,
    players,
    random_move,
    resolve_chance,
    sample_chance,
    scores,
    to_move,
    view,
)
from tessera.kernels.toy import evaluate as estimate  # noqa: F401  (no more to it than evaluate)
