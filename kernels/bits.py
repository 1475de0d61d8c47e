"""Bit tricks shared by the kernels."""

from tessera.kernels.jit import njit


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of a non-negative int64 below 2**62.

    The byte counts are summed by shifts, not by the usual multiply by 0x0101010101010101:
    that product overflows int64, numba multiplies signed integers as if they never
    overflow, and LLVM then folds comparisons of the count wrongly (a loop counting the
    masks with fewer than 7 bits got 2 of 4)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F
