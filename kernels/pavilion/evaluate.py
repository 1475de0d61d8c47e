"""Summer Pavilion's evaluation: each player's score plus what the position promises them.

``evaluate`` is the greedy agent's one-ply judge and alpha-beta's cut-off value;
``move_heuristic`` (heuristic.py) is the change it predicts for one move. Both are in
score points and use the terms below, weighted by ``WEIGHTS`` (docs/pavilion.md gives
the reasons and how the weights were tuned). For player p, while the game goes on:

- the score, plus the end bonuses the board has already earned (whole stars, numbers
  covered on all seven stars);
- progress towards the bonuses still open: a star with n of 6 spaces covered is worth
  ``STAR * (n/6)^2`` of its bonus, a number covered on n of 7 stars ``NUMBER * (n/7)^2``
  of its bonus (the square: the last spaces are the ones that pay), and a bonus region
  one space short ``REGION`` per supply tile it will earn; all three fade by ``FADE``
  over the game (there are fewer rounds left to finish them);
- tiles beside the board: ``TILE`` each up to what the player can still pay with that
  colour (the empty spaces of its star, and the centre star while the colour is not on
  it), ``WILD`` each for tiles of the round's wild colour; supply tiles a completed
  region is about to give (phase bonus) ``TILE`` each;
- a player choosing what to keep (phase keep) is valued at the best keep: up to four
  usable tiles at ``KEPT``, a point lost per tile beyond;
- tiles on the corners: ``KEPT`` each if usable next round (the next wild colour always
  is); in the last round a point lost each (the end of the game takes it);
- the start-player token: ``TOKEN`` (first to place, first to draft next round); its
  cost was paid into the score when taken.

When the game is over the value is the final score.
"""

import numpy as np

from tessera.kernels.bits import popcount
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.board import NUMBER_BONUS, REGION_MASKS, REGION_REWARDS, STAR_BONUS
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    KEEP_AT_MOST,
    LANE_BITS,
    NCOLOURS,
    NSTARS,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    PHASE_BONUS,
    PHASE_KEEP,
    PHASE_OVER,
    ROUNDS,
    STAR_MASK,
    STAR_SPACES,
    W_PHASE,
    W_PLAYERS,
    W_REWARD,
    W_ROUND,
    W_TO_MOVE,
    W_TOKEN,
    WILD_BY_ROUND,
)
from tessera.kernels.pavilion.moves import player_base
from tessera.kernels.pavilion.stars import NUMBER_MASKS
from tessera.kernels.pavilion.tiles import count_of, total

# WEIGHTS[...]: points, or shares of a bonus (see the module docstring).
TILE, WILD, KEPT, STAR, NUMBER, REGION, TOKEN, FADE = range(8)
N_WEIGHTS = 8
WEIGHTS = np.array([1.0, 1.5, 0.8, 0.6, 0.5, 1.0, 0.75, 0.7], np.float64)

# EMPTY_COST[m]: tiles the empty spaces of a star with covered-space mask m cost in all;
# LARGEST_EMPTY[m]: the cost of its largest empty space (0 when full).
EMPTY_COST = np.array(
    [sum(k + 1 for k in range(STAR_SPACES) if not (m >> k) & 1) for m in range(STAR_MASK + 1)], np.int64
)
LARGEST_EMPTY = np.array(
    [max([k + 1 for k in range(STAR_SPACES) if not (m >> k) & 1], default=0) for m in range(STAR_MASK + 1)], np.int64
)
NUMBERS_WITH_BONUS = max([k + 1 for k in range(STAR_SPACES) if NUMBER_BONUS[k]], default=0)
# SPACE_REGIONS[space]: the bonus regions holding the space, padded with -1.
MAX_REGIONS_PER_SPACE = max(int(((REGION_MASKS >> s) & 1).sum()) for s in range(NSTARS * STAR_SPACES))
SPACE_REGIONS = np.array(
    [
        ([r for r in range(REGION_MASKS.size) if (REGION_MASKS[r] >> s) & 1] + [-1] * MAX_REGIONS_PER_SPACE)[
            :MAX_REGIONS_PER_SPACE
        ]
        for s in range(NSTARS * STAR_SPACES)
    ],
    np.int64,
)
FULL_NUMBER = NSTARS  # a number is complete when covered on every star


@njit(cache=True, inline="always")
def star_mask(spaces, star):
    return (spaces >> (STAR_SPACES * star)) & STAR_MASK


@njit(cache=True, inline="always")
def fade(round_number, w):
    """The share of the progress terms left in this round: 1 in round 1, 1 - FADE in the last."""
    return 1.0 - w[FADE] * (round_number - 1) / (ROUNDS - 1)


@njit(cache=True, inline="always")
def star_credit(covered, star, late, w):
    """A whole star's bonus, or the credit for progress towards it (``covered`` spaces)."""
    if covered == STAR_SPACES:
        return float(STAR_BONUS[star])
    return STAR_BONUS[star] * w[STAR] * late * covered * covered / (STAR_SPACES * STAR_SPACES)


@njit(cache=True)
def star_term(spaces, star, late, w):
    return star_credit(popcount(star_mask(spaces, star)), star, late, w)


@njit(cache=True, inline="always")
def number_credit(covered, k, late, w):
    """Number k + 1 on every star (on ``covered`` stars): its bonus, or the credit for progress."""
    if covered == FULL_NUMBER:
        return float(NUMBER_BONUS[k])
    return NUMBER_BONUS[k] * w[NUMBER] * late * covered * covered / (FULL_NUMBER * FULL_NUMBER)


@njit(cache=True)
def number_term(spaces, k, late, w):
    return number_credit(popcount(spaces & NUMBER_MASKS[k]), k, late, w)


@njit(cache=True, inline="always")
def region_credit(missing, r, late, w):
    """A region one space short of complete: what it will earn, in supply tiles."""
    if missing == 1:
        return REGION_REWARDS[r] * w[REGION] * late
    return 0.0


@njit(cache=True)
def region_term(spaces, r, late, w):
    return region_credit(popcount(REGION_MASKS[r] & ~spaces), r, late, w)


@njit(cache=True)
def board_value(spaces, late, w):
    value = 0.0
    for star in range(NSTARS):
        value += star_term(spaces, star, late, w)
    for k in range(NUMBERS_WITH_BONUS):
        value += number_term(spaces, k, late, w)
    for r in range(REGION_MASKS.size):
        value += region_term(spaces, r, late, w)
    return value


@njit(cache=True, inline="always")
def demand(spaces, centre_colours, colour):
    """Tiles of ``colour`` the board can still take: its star's empty spaces, and the
    largest empty centre space while the colour is not on the centre star."""
    need = EMPTY_COST[star_mask(spaces, colour)]
    if ((centre_colours >> colour) & 1) == 0:
        need += LARGEST_EMPTY[star_mask(spaces, CENTRE_STAR)]
    return need


@njit(cache=True, inline="always")
def demands(spaces, centre_colours):
    """Every colour's ``demand``, packed one a byte lane like a tile set (``count_of``
    reads them; 27 at most): the hand terms below take them, so a caller valuing many
    moves of one position works them out once."""
    needs = 0
    for c in range(NCOLOURS):
        needs |= demand(spaces, centre_colours, c) << (LANE_BITS * c)
    return needs


@njit(cache=True, inline="always")
def usable(tiles, needs, wild):
    """Tiles of ``tiles`` the board can use (of ``wild``'s colour: all of them)."""
    n = 0
    for c in range(NCOLOURS):
        held = count_of(tiles, c)
        if held:
            n += held if c == wild else min(held, count_of(needs, c))
    return n


@njit(cache=True, inline="always")
def colour_value(held, colour, needs, wild, w):
    """``held`` tiles of one colour beside the board (``hand_value``'s term for it)."""
    if colour == wild:
        return w[WILD] * held
    return w[TILE] * min(held, count_of(needs, colour))


@njit(cache=True)
def hand_value(hand, needs, wild, w):
    """Tiles beside the board while placing is still to come."""
    value = 0.0
    for c in range(NCOLOURS):
        held = count_of(hand, c)
        if held:
            value += colour_value(held, c, needs, wild, w)
    return value


@njit(cache=True)
def hand_gain(hand, added, needs, wild, w):
    """``hand_value`` of ``hand + added`` less that of ``hand``: only the colours added change."""
    gain = 0.0
    for c in range(NCOLOURS):
        more = count_of(added, c)
        if more:
            held = count_of(hand, c)
            gain += colour_value(held + more, c, needs, wild, w) - colour_value(held, c, needs, wild, w)
    return gain


@njit(cache=True, inline="always")
def next_wild(round_number):
    return WILD_BY_ROUND[round_number] if round_number < ROUNDS else -1


@njit(cache=True)
def kept_value(kept, needs, round_number, w):
    """Tiles on the corners: usable next round, or a point each after the last round."""
    if round_number == ROUNDS:
        return -float(total(kept))
    return w[KEPT] * usable(kept, needs, next_wild(round_number))


@njit(cache=True)
def keeping_value(hand, needs, round_number, w):
    """A player about to choose what to keep: the best keep of ``hand``."""
    held = total(hand)
    if round_number == ROUNDS:
        return -float(held)
    kept = min(KEEP_AT_MOST, held)
    good = min(kept, usable(hand, needs, next_wild(round_number)))
    return w[KEPT] * good - (held - kept)


@njit(cache=True)
def player_value(state, p, w):
    base = player_base(p)
    spaces = state[base + P_SPACES]
    centre_colours = state[base + P_CENTRE_COLOURS]
    round_number = state[W_ROUND]
    phase = state[W_PHASE]
    hand = state[base + P_HAND]
    needs = demands(spaces, centre_colours)
    value = state[base + P_SCORE] + board_value(spaces, fade(round_number, w), w)
    value += kept_value(state[base + P_KEPT], needs, round_number, w)
    if phase == PHASE_KEEP and state[W_TO_MOVE] == p:
        value += keeping_value(hand, needs, round_number, w)
    else:
        value += hand_value(hand, needs, WILD_BY_ROUND[round_number - 1], w)
    if phase == PHASE_BONUS and state[W_TO_MOVE] == p:
        value += w[TILE] * state[W_REWARD]
    if state[W_TOKEN] == p:
        value += w[TOKEN]
    return value


@njit(cache=True)
def evaluate_with(state, out, w):
    """``evaluate`` with the weights ``w`` (for tuning them)."""
    over = state[W_PHASE] == PHASE_OVER
    for p in range(state[W_PLAYERS]):
        out[p] = state[player_base(p) + P_SCORE] if over else player_value(state, p, w)


@njit(cache=True)
def evaluate(state, out):
    """``out[p]``: player p's value in score points (see the module docstring)."""
    evaluate_with(state, out, WEIGHTS)
