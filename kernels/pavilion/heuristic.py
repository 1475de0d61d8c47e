"""The score of one Summer Pavilion move: the change it makes to the mover's evaluation
(``move_heuristic_with``), times ``PRIOR_SCALE`` (``move_heuristic``).

Read off the position without playing the move (PUCT priors and greedy rollouts call
it for every legal move), from the terms of evaluate.py that the move touches:

- a draft: the value of the tiles it adds to the hand, less the start-player penalty,
  plus the token's worth when it takes the token;
- a placement: its points, the progress it makes on its star, its number and its
  bonus regions (a completed region's supply tiles at ``TILE`` each), less the value of
  the tiles it pays;
- a pass: holding tiles, the best keep's value less the hand's value;
- a keep choice: the points lost for the tiles it gives up and the value of those it
  keeps, against the best keep; a supply choice: the value the tiles add to the hand;
- chance moves: 0.

For every move that neither ends the round nor completes a bonus region this is exactly
the mover's ``evaluate`` after the move less before it (tests/test_pavilion_evaluation.py).
Each gain sums only the terms the move changes (a draft: its colour and the wild tile; a
placement: its star, number and regions, and the hand's colours whose demand it changes);
with the tuned weights (multiples of a half in the hand terms) that is the same value, bit
for bit, as subtracting the whole hand's value before from after.
"""
from kernels.bits import popcount
from kernels.jit import njit
from kernels.pavilion.board import REGION_MASKS, REGION_REWARDS
from kernels.pavilion.evaluate import (
    MAX_REGIONS_PER_SPACE, NUMBERS_WITH_BONUS, SPACE_REGIONS, TILE, TOKEN, WEIGHTS, WILD, colour_value,
    demand, fade, hand_gain, hand_value, keeping_value, kept_value, number_credit, region_credit, star_credit,
    star_mask,
)
from kernels.pavilion.layout import (
    CENTRE_STAR, CHANCE_BASE, DRAFT_COLOURS, KEEP_BASE, LONE_WILD, NCOLOURS, P_CENTRE_COLOURS,
    P_HAND, P_SCORE, P_SPACES, PASS_MOVE, PLACE_BASE, SOURCE_CENTRE, STAR_SPACES, TAKE_BASE,
    TOKEN_IN_CENTRE, W_CENTRE, WILD_BY_ROUND, W_FACTORY, W_REWARD, W_ROUND, W_TO_MOVE, W_TOKEN,
)
from kernels.pavilion.moves import player_base
from kernels.pavilion.stars import NUMBER_MASKS, placement_points
from kernels.pavilion.tiles import count_of, drafted, one_of, tiles_of_choice, total


# MCTS's PUCT priors are a softmax of the heuristic at the search's temperature of 2,
# which all games share; in plain points a move better by a point would get only e^0.5
# times the prior of the other. Measured at 64 simulations a move (docs/pavilion.md):
# x6 beat x3 in 65% of 60 games and tied x12. Greedy rollouts (an argmax) do not care.
PRIOR_SCALE = 6.0


@njit(cache=True)
def move_heuristic(state, move):
    """``PRIOR_SCALE`` times the change the move makes to the mover's evaluation."""
    return PRIOR_SCALE * move_heuristic_with(state, move, WEIGHTS)


@njit(cache=True, inline="always")
def move_heuristic_with(state, move, w):
    """``move_heuristic`` with the weights ``w`` (for tuning them)."""
    base = player_base(state[W_TO_MOVE])
    hand = state[base + P_HAND]
    spaces = state[base + P_SPACES]
    centre_colours = state[base + P_CENTRE_COLOURS]
    round_number = state[W_ROUND]
    wild = WILD_BY_ROUND[round_number - 1]
    if move >= KEEP_BASE:
        kept = tiles_of_choice(move - KEEP_BASE)
        after = kept_value(kept, spaces, centre_colours, round_number, w) - (total(hand) - total(kept))
        return after - keeping_value(hand, spaces, centre_colours, round_number, w)
    if move >= TAKE_BASE:
        taken = tiles_of_choice(move - TAKE_BASE)
        return hand_gain(hand, taken, spaces, centre_colours, wild, w) - w[TILE] * state[W_REWARD]
    if move >= CHANCE_BASE:
        return 0.0
    if move == PASS_MOVE:
        if hand == 0:
            return 0.0
        return (keeping_value(hand, spaces, centre_colours, round_number, w)
                - hand_value(hand, spaces, centre_colours, wild, w))
    if move >= PLACE_BASE:
        return placement_gain(hand, spaces, centre_colours, round_number, wild, move - PLACE_BASE, w)
    return draft_gain(state, base, hand, spaces, centre_colours, wild, move, w)


@njit(cache=True, inline="always")
def draft_gain(state, base, hand, spaces, centre_colours, wild, move, w):
    source = move // DRAFT_COLOURS
    colour = move % DRAFT_COLOURS
    tiles = state[W_CENTRE] if source == SOURCE_CENTRE else state[W_FACTORY + source]
    taken = drafted(tiles, colour, wild)
    # Wild tiles are worth WILD each whatever the hand holds; only the drafted colour's
    # other tiles are worth what the board can still take of them.
    gain = w[WILD] * count_of(taken, wild)
    if colour != LONE_WILD and colour != wild:
        held = count_of(hand, colour)
        gain += (colour_value(held + count_of(taken, colour), colour, spaces, centre_colours, wild, w)
                 - colour_value(held, colour, spaces, centre_colours, wild, w))
    if source == SOURCE_CENTRE and state[W_TOKEN] == TOKEN_IN_CENTRE:
        gain += w[TOKEN] - min(total(taken), state[base + P_SCORE] - 1)
    return gain


@njit(cache=True, inline="always")
def placement_gain(hand, spaces, centre_colours, round_number, wild, code, w):
    paid_wild = code % STAR_SPACES
    colour = (code // STAR_SPACES) % NCOLOURS
    space = code // (STAR_SPACES * NCOLOURS)
    star = space // STAR_SPACES
    number = space % STAR_SPACES + 1
    after = spaces | (1 << space)
    late = fade(round_number, w)
    gain = float(placement_points(after, space))
    # Each term from the count before the move: the move covers one more space of each.
    covered = popcount(star_mask(spaces, star))
    gain += star_credit(covered + 1, star, late, w) - star_credit(covered, star, late, w)
    if number <= NUMBERS_WITH_BONUS:
        covered = popcount(spaces & NUMBER_MASKS[number - 1])
        gain += number_credit(covered + 1, number - 1, late, w) - number_credit(covered, number - 1, late, w)
    reward = 0
    for i in range(MAX_REGIONS_PER_SPACE):
        r = SPACE_REGIONS[space, i]
        if r < 0:
            break
        missing = popcount(REGION_MASKS[r] & ~spaces)
        gain += region_credit(missing - 1, r, late, w) - region_credit(missing, r, late, w)
        if missing == 1:
            reward += REGION_REWARDS[r]     # the placement completes it
    gain += w[TILE] * reward
    real = number - paid_wild
    if star == CENTRE_STAR:
        # The centre star changes what every colour can still pay for: all of the hand again.
        return gain + centre_hand_gain(hand, spaces, after, centre_colours, colour, real,
                                       paid_wild, wild, w)
    # An outer star: only its colour's tiles (and the wild ones paid) change their worth.
    if colour == wild:
        return gain - w[WILD] * real
    held = count_of(hand, colour)
    need = demand(spaces, centre_colours, colour)
    gain += w[TILE] * (min(held - real, need - number) - min(held, need))
    return gain - w[WILD] * paid_wild


@njit(cache=True, inline="always")
def centre_hand_gain(hand, spaces, after, centre_colours, colour, real, paid_wild, wild, w):
    """The hand's change in value for a placement on the centre star: the wild tiles paid,
    and every colour not yet on the centre star, whose largest empty centre space shrinks
    (the colour placed can no longer go there at all)."""
    hand_after = hand - real * one_of(colour) - paid_wild * one_of(wild)
    colours_after = centre_colours | (1 << colour)
    gain = w[WILD] * (count_of(hand_after, wild) - count_of(hand, wild))
    for c in range(NCOLOURS):
        held = count_of(hand, c)
        if held and c != wild and ((centre_colours >> c) & 1) == 0:
            gain += (colour_value(count_of(hand_after, c), c, after, colours_after, wild, w)
                     - colour_value(held, c, spaces, centre_colours, wild, w))
    return gain
