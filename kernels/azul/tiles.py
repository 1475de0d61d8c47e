"""Tile sets packed as byte lanes (one count per colour) plus a marker bit."""

from tessera.kernels.azul.layout import LANE_BITS, LANE_MASK, LANES_ALL, LANES_ONE, MARKER_BIT
from tessera.kernels.common import count_of, one_of  # noqa: F401  (re-exported)
from tessera.kernels.jit import njit


@njit(cache=True, inline="always")
def without_colour(tiles, colour):
    return tiles & ~(LANE_MASK << (LANE_BITS * colour))


@njit(cache=True, inline="always")
def total(tiles):
    """Tiles in the set, marker excluded: byte 4 of the product sums the lanes."""
    return (((tiles & LANES_ALL) * LANES_ONE) >> 32) & LANE_MASK


@njit(cache=True, inline="always")
def has_marker(tiles):
    return (tiles & MARKER_BIT) != 0
