"""Counting the cells of a 64-bit realm mask (bit 63 included)."""

import numpy as np

from tessera.kernels.jit import njit

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True)
def count(mask):
    """Set bits of an int64 mask, all 64 of them."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True)
def bit(cell):
    """The int64 mask of one cell."""
    return np.int64(np.uint64(1) << np.uint64(cell))
