"""Scoring on the star board: chains within a star, bonus regions, end bonuses."""

import numpy as np

from tessera.kernels.jit import njit
from tessera.kernels.pavilion.board import NUMBER_BONUS, REGION_MASKS, REGION_REWARDS, STAR_BONUS
from tessera.kernels.pavilion.layout import NSTARS, STAR_MASK, STAR_SPACES


def _chain_length(star_mask, space):
    """Covered spaces joined to ``space`` around the ring of a star, itself included."""
    if star_mask == STAR_MASK:
        return STAR_SPACES
    length = 1
    for step in (1, -1):
        i = (space + step) % STAR_SPACES
        while (star_mask >> i) & 1:
            length += 1
            i = (i + step) % STAR_SPACES
    return length


# CHAIN_POINTS[star_mask * STAR_SPACES + space]: points for a tile placed on ``space``
# of a star whose covered spaces (the new tile included) are ``star_mask``.
CHAIN_POINTS = np.array(
    [_chain_length(mask, space) for mask in range(STAR_MASK + 1) for space in range(STAR_SPACES)], np.int64
)
# NUMBER_MASKS[k - 1]: space k on every star.
NUMBER_MASKS = np.array(
    [sum(1 << (STAR_SPACES * star + k) for star in range(NSTARS)) for k in range(STAR_SPACES)], np.int64
)


@njit(cache=True, inline="always")
def placement_points(spaces, space):
    """Points for the tile just placed on ``space``; ``spaces`` already includes it."""
    star = space // STAR_SPACES
    offset = space - STAR_SPACES * star
    return CHAIN_POINTS[((spaces >> (STAR_SPACES * star)) & STAR_MASK) * STAR_SPACES + offset]


@njit(cache=True)
def completed_reward(spaces, space):
    """Supply tiles earned by the regions the tile on ``space`` completes."""
    reward = 0
    for r in range(REGION_MASKS.size):
        mask = REGION_MASKS[r]
        if ((mask >> space) & 1) == 1 and (spaces & mask) == mask:
            reward += REGION_REWARDS[r]
    return reward


@njit(cache=True)
def end_bonus(spaces):
    """Complete stars and numbers covered on every star."""
    bonus = 0
    for star in range(NSTARS):
        if ((spaces >> (STAR_SPACES * star)) & STAR_MASK) == STAR_MASK:
            bonus += STAR_BONUS[star]
    for k in range(STAR_SPACES):
        if NUMBER_BONUS[k] and (spaces & NUMBER_MASKS[k]) == NUMBER_MASKS[k]:
            bonus += NUMBER_BONUS[k]
    return bonus


@njit(cache=True)
def lose_points(score, points):
    """A penalty never takes a score below 1."""
    return max(1, score - points)
