"""Numba kernels: the rules of each game, and search, perft, playouts and self-play
written once for every game and instantiated per game (``tessera.kernels.bind``)."""
from tessera.kernels import bind

bind.install()
