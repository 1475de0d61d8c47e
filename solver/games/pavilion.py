"""Azul: Summer Pavilion as a ``Game``: its options, a seeded start position, notation
and drawing.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""
from tessera.errors import OptionError
from tessera.games.base import Game, register

PLAYER_COUNTS = (2, 3, 4)


class PavilionGame(Game):
    name = "pavilion"
    options = {
        "players": (int, 2, "number of players, 2 to 4"),
    }

    def undealt(self, seed, players=2):
        """Round 1 before its factories and supply are filled."""
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise OptionError(f"players must be 2, 3 or 4, not {players!r}")
        from tessera.kernels import pavilion
        return pavilion.new_game(players)


register(PavilionGame())
