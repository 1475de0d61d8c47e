"""The games a value model can be trained for: each one's feature kernel and the positions
its model values (the round boundaries).

A game joins by writing its feature kernel (``kernels/<game>/features.py`` with
``N_VALUE_FEATURES``, ``FEATURE_NAMES`` and ``value_features(state, player, out)``) and a
line in ``LEARNABLE`` saying which positions of a replayed game are its boundaries.
"""
import importlib
from dataclasses import dataclass

from tessera.errors import TesseraError


@dataclass(frozen=True)
class GameFeatures:
    """``module``: the game's feature kernel; ``boundary``: what its round boundaries are,
    as docs/learning.md says it."""
    module: str
    boundary: str

    def kernel(self):
        return importlib.import_module(self.module)


LEARNABLE = {
    # After a round's wall-tiling and scoring, before the next round's refill is drawn:
    # the positions where chance acts, other than the first deal.
    "azul": GameFeatures("tessera.kernels.azul.features",
                         "chance acts after a player's move (the refill after a round's scoring)"),
}


def features_of(game_name):
    """The ``GameFeatures`` of a game; TesseraError naming the games that have them."""
    if game_name not in LEARNABLE:
        raise TesseraError(f"no value features for {game_name!r} yet; games with them: "
                           + ", ".join(sorted(LEARNABLE)))
    return LEARNABLE[game_name]
