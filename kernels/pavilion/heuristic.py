"""A cheap score of one Summer Pavilion move, read off the position without playing it.

Used for PUCT priors and greedy rollouts, in score points: a draft is worth the
tiles it takes, less the start-player penalty; a placement the points it scores
plus the supply tiles it earns; a pass loses half a point and a point per tile
beyond the four that may be kept; a keep choice is worth the tiles it keeps.
Supply choices and chance moves all score 0.
"""
from numba import njit

from kernels.pavilion.layout import (
    CHANCE_BASE, DRAFT_COLOURS, KEEP_AT_MOST, KEEP_BASE, LONE_WILD, NCOLOURS, P_HAND, P_SCORE,
    P_SPACES, PASS_MOVE, PLACE_BASE, SOURCE_CENTRE, STAR_SPACES, TAKE_BASE, TOKEN_IN_CENTRE,
    W_CENTRE, W_FACTORY, W_TO_MOVE, W_TOKEN,
)
from kernels.pavilion.moves import player_base, wild_colour
from kernels.pavilion.stars import completed_reward, placement_points
from kernels.pavilion.tiles import count_of, tiles_of_choice, total

PASS_COST = 0.5


@njit(cache=True)
def move_heuristic(state, move):
    base = player_base(state[W_TO_MOVE])
    if move >= KEEP_BASE:
        return float(total(tiles_of_choice(move - KEEP_BASE)))
    if move >= TAKE_BASE or move >= CHANCE_BASE:
        return 0.0
    if move == PASS_MOVE:
        return -PASS_COST - max(0, total(state[base + P_HAND]) - KEEP_AT_MOST)
    if move >= PLACE_BASE:
        space = (move - PLACE_BASE) // (STAR_SPACES * NCOLOURS)
        spaces = state[base + P_SPACES] | (1 << space)
        return float(placement_points(spaces, space) + completed_reward(spaces, space))
    source = move // DRAFT_COLOURS
    colour = move % DRAFT_COLOURS
    tiles = state[W_CENTRE] if source == SOURCE_CENTRE else state[W_FACTORY + source]
    wild = wild_colour(state)
    taken = 1 if colour == LONE_WILD else count_of(tiles, colour) + min(1, count_of(tiles, wild))
    penalty = 0
    if source == SOURCE_CENTRE and state[W_TOKEN] == TOKEN_IN_CENTRE:
        penalty = min(taken, state[base + P_SCORE] - 1)
    return float(taken - penalty)
