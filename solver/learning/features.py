"""The games a value model can be trained for: each one's feature kernel and the positions
its model values (the round boundaries).

A game joins by writing its feature kernel (``kernels/<game>/features.py`` with
``N_VALUE_FEATURES``, ``FEATURE_NAMES``, ``value_features(state, player, out)`` and
``players_value_features(state, out)``, every player's rows at once) and a
line in ``LEARNABLE`` saying which positions of a replayed game are its boundaries. The
dataset takes the positions where chance acts after a player's move; a game where chance
also acts in the middle of a round adds ``is_round_boundary(state)`` to its kernel, and
only the positions it accepts count. A game whose rounds are counted in turns (Azure) adds
``starts_turn(state)`` instead, and its boundaries are the start of every turn.
"""

import importlib
from dataclasses import dataclass

from tessera.errors import TesseraError


@dataclass(frozen=True)
class GameFeatures:
    """``module``: the game's feature kernel; ``boundary``: what its round boundaries are,
    as docs/learning.md says it; ``policy``: the game's move feature kernel
    (``N_POLICY_FEATURES``, ``POLICY_FEATURE_NAMES``, ``move_features``), None for a game
    whose models have no policy."""

    module: str
    boundary: str
    policy: str | None = None

    def kernel(self):
        return importlib.import_module(self.module)

    def policy_kernel(self):
        """The move feature kernel; None for a game without one."""
        return None if self.policy is None else importlib.import_module(self.policy)


LEARNABLE = {
    # After a round's wall-tiling and scoring, before the next round's refill is drawn:
    # the positions where chance acts, other than the first deal.
    "azul": GameFeatures(
        "tessera.kernels.azul.features",
        "chance acts after a player's move (the refill after a round's scoring)",
        policy="tessera.kernels.azul.policy",
    ),
    # After a round's last pass, before the next round's displays are drawn. The supply's
    # top-up after a bonus is chance after a move too, in the middle of a round: the
    # kernel's ``is_round_boundary`` tells the two apart.
    "pavilion": GameFeatures(
        "tessera.kernels.pavilion.features",
        "chance acts after a player's move and starts a round (the refill after a round's end)",
    ),
    # Azure has no rounds, and its chance (the hidden deck's draws) comes seldom: the start
    # of a turn, where a player is to place a stone, is its boundary (``starts_turn``).
    "azure": GameFeatures(
        "tessera.kernels.azure.features",
        "a player is to place a stone (the start of a turn)",
        policy="tessera.kernels.azure.policy",
    ),
}


def features_of(game_name):
    """The ``GameFeatures`` of a game; TesseraError naming the games that have them."""
    if game_name not in LEARNABLE:
        raise TesseraError(f"no value features for {game_name!r} yet; games with them: " + ", ".join(sorted(LEARNABLE)))
    return LEARNABLE[game_name]
