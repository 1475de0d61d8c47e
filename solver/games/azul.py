"""Azul as a ``Game``: its options, a seeded start position, notation and drawing.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""
from solver.errors import OptionError
from solver.games.base import Game, check_seed, register

PLAYER_COUNTS = (2, 3, 4)
VARIANTS = ("colour", "gray")


class AzulGame(Game):
    name = "azul"
    options = {
        "players": (int, 2, "number of players, 2 to 4"),
        "variant": (VARIANTS, "colour", "the wall: colour (printed) or gray (free columns)"),
    }

    def new(self, seed, players=2, variant="colour"):
        """Round 1 with its factories filled by draws seeded with ``seed``."""
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise OptionError(f"players must be 2, 3 or 4, not {players!r}")
        if variant not in VARIANTS:
            raise OptionError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        check_seed(seed)
        from kernels import azul, games
        from kernels.azul.layout import VARIANT_COLOUR, VARIANT_GRAY
        from kernels.rng import make_rng
        code = {"colour": VARIANT_COLOUR, "gray": VARIANT_GRAY}[variant]
        state = azul.new_game(players, code)
        games.resolve_chance(state, make_rng(seed))
        return state


register(AzulGame())
