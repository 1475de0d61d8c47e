"""Azul: Summer Pavilion as a ``Game``: its options, a seeded start position, notation
and drawing.

Kernels are imported on first use: they load numba, which help pages and option
errors do not need.
"""
from solver.errors import OptionError
from solver.games.base import Game, check_seed, register

PLAYER_COUNTS = (2, 3, 4)


class PavilionGame(Game):
    name = "pavilion"
    options = {
        "players": (int, 2, "number of players, 2 to 4"),
    }

    def new(self, seed, players=2):
        """Round 1 with its factories and supply filled by draws seeded with ``seed``."""
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise OptionError(f"players must be 2, 3 or 4, not {players!r}")
        check_seed(seed)
        from kernels import games, pavilion
        from kernels.rng import make_rng
        state = pavilion.new_game(players)
        games.resolve_chance(state, make_rng(seed))
        return state


register(PavilionGame())
