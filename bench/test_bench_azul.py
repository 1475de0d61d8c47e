"""pytest-benchmark suite for the Azul kernels.

python -m pytest bench/ --benchmark-only -n 0      (-n 0: pytest-benchmark times nothing under xdist workers)
"""

import numpy as np
import pytest

from tessera.kernels import azul, bind, games
from tessera.kernels.rng import make_rng


def opening(players, variant=0):
    state = azul.new_game(players, variant)
    games.resolve_chance(state, make_rng(1))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(benchmark, players):
    state = opening(players)
    scores = np.zeros((1000, 4), np.int64)
    playout = bind.instance("azul", "playout")
    playout.playouts(state, 0, 10, scores)
    made = benchmark(playout.playouts, state, 1, 1000, scores)
    assert made > 0


def test_legal_moves_opening(benchmark):
    state = opening(2)
    moves = np.empty(games.MAX_MOVES, np.int64)
    assert benchmark(games.legal_moves, state, moves) > 0


def test_perft_depth_3(benchmark):
    state = opening(2)
    perft = bind.instance("azul", "perft")
    perft.perft(state, 1)
    assert benchmark(perft.perft, state, 3) > 0
