"""The kernels' bit tricks against Python's own counting, inlined into jitted loops the way
the rules use them (a count compared inside a loop is where a wrong compile showed)."""

import numpy as np
from numba import njit

from tessera.kernels.bits import popcount


@njit
def counts_below(masks, limit):
    """How many ``masks`` have fewer than ``limit`` set bits."""
    n = 0
    for mask in masks:
        if popcount(mask) < limit:
            n += 1
    return n


@njit
def counts(masks, out):
    for i in range(masks.size):
        out[i] = popcount(masks[i])


def test_a_count_compared_in_a_loop():
    masks = np.array([0b11111, 0b11 << 20, 0, 1 << 40], np.int64)  # 5, 2, 0, 1 bits
    assert counts_below(masks, 7) == 4
    assert counts_below(masks, 2) == 2
    assert counts_below(masks, 0) == 0


def test_counts_agree_with_python():
    rng = np.random.default_rng(7)
    masks = np.concatenate(
        [
            rng.integers(0, 2**62, 5000, dtype=np.int64),
            np.array([0, 1, 2**62 - 1, 2**61, 0x0101010101010101 & (2**62 - 1)], np.int64),
            (1 << rng.integers(0, 62, 200)).astype(np.int64),
        ]
    )
    out = np.zeros(masks.size, np.int64)
    counts(masks, out)
    assert out.tolist() == [bin(int(mask)).count("1") for mask in masks]
