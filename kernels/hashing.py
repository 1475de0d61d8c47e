"""A stable 64-bit position hash, Zobrist-style over the state words.

Each (word index, value) pair maps to a pseudo-random key by the splitmix64
scramble, and the keys are XORed: a Zobrist table with no table to store, the
same in every process and every run.
"""

import numpy as np

from tessera.kernels.jit import njit
from tessera.kernels.rng import mix64

_INDEX_KEY = np.uint64(0xD6E8FEB86659FD93)


@njit(cache=True)
def position_hash(state):
    h = np.uint64(0)
    for i in range(state.size):
        h ^= mix64(np.uint64(state[i]) ^ (np.uint64(i + 1) * _INDEX_KEY))
    return np.int64(h)
