"""Tile sets packed as byte lanes (one count per colour), and choices packed as counts."""

from tessera.kernels.common import count_of, one_of  # noqa: F401  (re-exported)
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.layout import (
    CHOICE_BITS,
    CHOICE_MASK,
    LANE_BITS,
    LANE_MASK,
    LANES_ALL,
    LANES_ONE,
    LONE_WILD,
    NCOLOURS,
    TOTAL_SHIFT,
)


@njit(cache=True)
def total(tiles):
    """Tiles in the set: the top lane of the product sums the lanes (at most 255)."""
    return (((tiles & LANES_ALL) * LANES_ONE) >> TOTAL_SHIFT) & LANE_MASK


@njit(cache=True, inline="always")
def drafted(tiles, colour, wild):
    """What a draft of ``colour`` takes from the source ``tiles``: every tile of the
    colour plus one wild tile if there is one (the lone wild when ``colour`` is LONE_WILD)."""
    if colour == LONE_WILD:
        return one_of(wild)
    taken = count_of(tiles, colour) * one_of(colour)
    if count_of(tiles, wild) > 0:
        taken += one_of(wild)
    return taken


@njit(cache=True, inline="always")
def colours_present(tiles):
    """How many colours the set holds."""
    n = 0
    for c in range(NCOLOURS):
        if count_of(tiles, c):
            n += 1
    return n


@njit(cache=True)
def tiles_of_choice(choice):
    """The tile set of a take or keep choice (CHOICE_BITS bits per colour)."""
    tiles = 0
    for c in range(NCOLOURS):
        tiles |= ((choice >> (CHOICE_BITS * c)) & CHOICE_MASK) << (LANE_BITS * c)
    return tiles
