"""Azul as a ``Game``: its options, a seeded start position, notation and drawing.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""
from tessera.errors import OptionError
from tessera.games.base import Game, register

PLAYER_COUNTS = (2, 3, 4)
VARIANTS = ("colour", "gray")


class AzulGame(Game):
    name = "azul"
    options = {
        "players": (int, 2, "number of players, 2 to 4"),
        "variant": (VARIANTS, "colour", "the wall: colour (printed) or gray (free columns)"),
    }

    def undealt(self, seed, players=2, variant="colour"):
        """Round 1 before its factories are filled."""
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise OptionError(f"players must be 2, 3 or 4, not {players!r}")
        if variant not in VARIANTS:
            raise OptionError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        from tessera.kernels import azul
        from tessera.kernels.azul.layout import VARIANT_COLOUR, VARIANT_GRAY
        return azul.new_game(players, {"colour": VARIANT_COLOUR, "gray": VARIANT_GRAY}[variant])


register(AzulGame())
