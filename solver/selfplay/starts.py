"""The start positions of a batch of games: ``Game.new(seed, **options)`` for each seed.

``Game.new`` is the game's undealt start with its chance resolved by ``make_rng(seed)``,
about 20 µs of Python a game; here the undealt starts come from
``Game.undealt_batch`` and the numba kernel ``deal_batch`` of ``tessera.kernels.selfplay``
(the game's instance) resolves chance for the whole batch, under a microsecond a game.
"""

import numpy as np

from tessera.games import get_game


def start_positions(name, options, seeds, serial=None):
    """[games, state words]: ``get_game(name).new(seed, **options)`` for each of ``seeds``.

    ``serial``: deal on this thread alone (``deal_serial``) or over numba's threads
    (``deal_batch``); by default serial when this thread runs numba on one thread.
    """
    from tessera.kernels import bind

    kernels = bind.instance(name, "selfplay")
    seeds = np.ascontiguousarray(seeds, np.int64)
    starts = np.ascontiguousarray(get_game(name).undealt_batch(seeds, **options), np.int64)
    deal = kernels.deal_serial if (one_thread() if serial is None else serial) else kernels.deal_batch
    deal(starts, seeds)
    return starts


def one_thread():
    """True when this thread runs numba kernels on one thread (the setting is per thread)."""
    import numba

    return numba.get_num_threads() == 1
