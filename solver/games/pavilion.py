"""Azul: Summer Pavilion as a ``Game``: its options, a seeded start position, notation
and drawing.

Notation and kernels are imported on first use: they load numba, which help
pages and option errors do not need.
"""
from solver.errors import OptionError
from solver.games.base import Game, register

PLAYER_COUNTS = (2, 3, 4)
MAX_SEED = 2**63 - 1            # the generator takes a non-negative int64


def _notation():
    from solver.notation import pavilion
    return pavilion


class PavilionGame(Game):
    name = "pavilion"
    options = {
        "players": (int, 2, "number of players, 2 to 4"),
    }

    def new(self, seed, players=2):
        """Round 1 with its factories and supply filled by draws seeded with ``seed``."""
        if type(players) is not int or players not in PLAYER_COUNTS:
            raise OptionError(f"players must be 2, 3 or 4, not {players!r}")
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise OptionError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
        from kernels import games, pavilion
        from kernels.rng import make_rng
        state = pavilion.new_game(players)
        games.resolve_chance(state, make_rng(seed))
        return state

    def parse_position(self, text):
        return _notation().parse_position(text)

    def format_position(self, state):
        return _notation().format_position(state)

    def position_to_json(self, state):
        return _notation().position_to_json(state)

    def position_from_json(self, obj):
        return _notation().position_from_json(obj)

    def parse_move(self, state, text):
        return _notation().parse_move(state, text)

    def format_move(self, state, move):
        return _notation().format_move(state, move)

    def render(self, state):
        from solver.render.pavilion import render_position
        return render_position(state)


register(PavilionGame())
