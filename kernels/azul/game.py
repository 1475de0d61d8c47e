"""Azul's kernels under the names of the game interface (``tessera.kernels.games`` lists them),
for the per-game instances of the generic kernels (``tessera.kernels.bind``)."""

from tessera.kernels.azul import (  # noqa: F401  (the interface)
    MAX_MOVES,
    apply_move,
    best_heuristic_move,
    chance_outcomes,
    estimate,
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
from tessera.kernels.azul import random_refill as resolve_chance  # noqa: F401
from tessera.kernels.azul.features import N_VALUE_FEATURES, players_value_features  # noqa: F401  (optional)
from tessera.kernels.azul.policy import N_POLICY_FEATURES, move_features  # noqa: F401  (optional)
from tessera.kernels.complete import determinize, is_complete, view  # noqa: F401
from tessera.kernels.constants import AZUL as GAME_ID  # noqa: F401
from tessera.kernels.hashing import position_hash  # noqa: F401

# Azul's greedy rollouts play a random move one time in five (the search's default is one
# in ten): Azul's sharper heuristic makes greedy rollouts too alike, and one in five beat
# both one in ten and one in three and a third (results/strength/README.md, "Azul's move
# heuristic").
ROLLOUT_EPSILON = 0.2
