"""Bit tricks shared by the kernels."""
from tessera.kernels.jit import njit


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of a non-negative int64 below 2**62."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 >> 56) & 0xFF
