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

MCTS calls ``move_heuristics`` once a position instead of this once a move: the same
values, with each colour's demand, the best keep and a placement's board terms worked
out once for all the moves that share them.
"""

from tessera.kernels.bits import popcount
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.board import REGION_MASKS, REGION_REWARDS
from tessera.kernels.pavilion.evaluate import (
    LARGEST_EMPTY,
    MAX_REGIONS_PER_SPACE,
    NUMBERS_WITH_BONUS,
    SPACE_REGIONS,
    TILE,
    TOKEN,
    WEIGHTS,
    WILD,
    colour_value,
    demands,
    fade,
    hand_gain,
    hand_value,
    keeping_value,
    kept_value,
    number_credit,
    region_credit,
    star_credit,
    star_mask,
)
from tessera.kernels.pavilion.layout import (
    CENTRE_STAR,
    DRAFT_COLOURS,
    KEEP_BASE,
    LONE_WILD,
    NCOLOURS,
    P_CENTRE_COLOURS,
    P_HAND,
    P_SCORE,
    P_SPACES,
    PASS_MOVE,
    PLACE_BASE,
    SOURCE_CENTRE,
    STAR_SPACES,
    TAKE_BASE,
    TOKEN_IN_CENTRE,
    W_CENTRE,
    W_FACTORY,
    W_REWARD,
    W_ROUND,
    W_TO_MOVE,
    W_TOKEN,
    WILD_BY_ROUND,
)
from tessera.kernels.pavilion.moves import player_base
from tessera.kernels.pavilion.stars import NUMBER_MASKS, placement_points
from tessera.kernels.pavilion.tiles import count_of, drafted, one_of, tiles_of_choice, total

# MCTS's PUCT priors are a softmax of the heuristic at the search's temperature of 2,
# which all games share; in plain points a move better by a point would get only e^0.5
# times the prior of the other, and a small search spreads its simulations over poor
# moves. x6 beat x1 and x3 and tied x12 (docs/pavilion.md; results/strength/README.md,
# "Summer Pavilion's evaluation"). Greedy rollouts (an argmax) do not care.
PRIOR_SCALE = 6.0


@njit(cache=True)
def move_heuristic(state, move):
    """``PRIOR_SCALE`` times the change the move makes to the mover's evaluation."""
    return PRIOR_SCALE * move_heuristic_with(state, move, WEIGHTS)


@njit(cache=True, inline="always")
def move_heuristic_with(state, move, w):
    """``move_heuristic`` with the weights ``w`` (for tuning them), in points."""
    base = player_base(state[W_TO_MOVE])
    hand = state[base + P_HAND]
    spaces = state[base + P_SPACES]
    round_number = state[W_ROUND]
    needs = demands(spaces, state[base + P_CENTRE_COLOURS])
    keeping = keeping_value(hand, needs, round_number, w) if move >= KEEP_BASE else 0.0
    board = board_gain(spaces, round_number, placed_space(move), w) if is_placement(move) else 0.0
    return move_gain(state, base, move, hand, round_number, WILD_BY_ROUND[round_number - 1], needs, keeping, board, w)


@njit(cache=True)
def move_heuristics(state, moves, n, out):
    """``out[i]``: ``move_heuristic(state, moves[i])`` for i < n, in one call a position
    (MCTS's priors and greedy rollouts): the same values, with what the moves share worked
    out once: the colours' demands, the hand's best keep, and a placement's board terms,
    which its ways to pay (consecutive in the list) have in common."""
    w = WEIGHTS
    base = player_base(state[W_TO_MOVE])
    hand = state[base + P_HAND]
    spaces = state[base + P_SPACES]
    round_number = state[W_ROUND]
    wild = WILD_BY_ROUND[round_number - 1]
    needs = demands(spaces, state[base + P_CENTRE_COLOURS])
    keeping = keeping_value(hand, needs, round_number, w) if n > 0 and moves[0] >= KEEP_BASE else 0.0
    board_space = -1
    board = 0.0
    for i in range(n):
        move = moves[i]
        if is_placement(move) and placed_space(move) != board_space:
            board_space = placed_space(move)
            board = board_gain(spaces, round_number, board_space, w)
        out[i] = PRIOR_SCALE * move_gain(state, base, move, hand, round_number, wild, needs, keeping, board, w)


@njit(cache=True, inline="always")
def is_placement(move):
    return PLACE_BASE <= move < PASS_MOVE


@njit(cache=True, inline="always")
def placed_space(move):
    return (move - PLACE_BASE) // (STAR_SPACES * NCOLOURS)


@njit(cache=True, inline="always")
def move_gain(state, base, move, hand, round_number, wild, needs, keeping, board, w):
    """The move's gain, given the mover's ``demands``, ``keeping`` (for a keep choice: the
    hand's best keep) and ``board`` (for a placement: ``board_gain`` of its space). The
    commonest moves are tested first."""
    if move < PLACE_BASE:
        return draft_gain(state, base, hand, needs, wild, move, w)
    if move < PASS_MOVE:
        return placement_gain(
            board, hand, state[base + P_SPACES], state[base + P_CENTRE_COLOURS], needs, wild, move - PLACE_BASE, w
        )
    if move == PASS_MOVE:
        if hand == 0:
            return 0.0
        return keeping_value(hand, needs, round_number, w) - hand_value(hand, needs, wild, w)
    if move >= KEEP_BASE:
        kept = tiles_of_choice(move - KEEP_BASE)
        return kept_value(kept, needs, round_number, w) - (total(hand) - total(kept)) - keeping
    if move >= TAKE_BASE:
        taken = tiles_of_choice(move - TAKE_BASE)
        return hand_gain(hand, taken, needs, wild, w) - w[TILE] * state[W_REWARD]
    return 0.0  # a chance move


@njit(cache=True, inline="always")
def draft_gain(state, base, hand, needs, wild, move, w):
    source = move // DRAFT_COLOURS
    colour = move % DRAFT_COLOURS
    tiles = state[W_CENTRE] if source == SOURCE_CENTRE else state[W_FACTORY + source]
    taken = drafted(tiles, colour, wild)
    # Wild tiles are worth WILD each whatever the hand holds; only the drafted colour's
    # other tiles are worth what the board can still take of them.
    gain = w[WILD] * count_of(taken, wild)
    if colour != LONE_WILD and colour != wild:
        held = count_of(hand, colour)
        gain += colour_value(held + count_of(taken, colour), colour, needs, wild, w) - colour_value(
            held, colour, needs, wild, w
        )
    if source == SOURCE_CENTRE and state[W_TOKEN] == TOKEN_IN_CENTRE:
        gain += w[TOKEN] - min(total(taken), state[base + P_SCORE] - 1)
    return gain


@njit(cache=True, inline="always")
def board_gain(spaces, round_number, space, w):
    """What covering ``space`` earns on the board, however it is paid: its points, and the
    progress it makes on its star, its number and its bonus regions (a completed region's
    supply tiles at ``TILE`` each)."""
    star = space // STAR_SPACES
    number = space % STAR_SPACES + 1
    late = fade(round_number, w)
    gain = float(placement_points(spaces | (1 << space), space))
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
            reward += REGION_REWARDS[r]  # the placement completes it
    return gain + w[TILE] * reward


@njit(cache=True, inline="always")
def placement_gain(board, hand, spaces, centre_colours, needs, wild, code, w):
    """The gain of the placement ``code``: ``board`` (its space's ``board_gain``) and the
    change in the hand's value from paying for it."""
    paid_wild = code % STAR_SPACES
    colour = (code // STAR_SPACES) % NCOLOURS
    space = code // (STAR_SPACES * NCOLOURS)
    number = space % STAR_SPACES + 1
    real = number - paid_wild
    if space // STAR_SPACES == CENTRE_STAR:
        # The centre star changes what every colour can still pay for: all of the hand again.
        return board + centre_hand_gain(
            hand, spaces, spaces | (1 << space), centre_colours, needs, colour, real, paid_wild, wild, w
        )
    # An outer star: only its colour's tiles (and the wild ones paid) change their worth.
    if colour == wild:
        return board - w[WILD] * real
    held = count_of(hand, colour)
    need = count_of(needs, colour)
    return board + w[TILE] * (min(held - real, need - number) - min(held, need)) - w[WILD] * paid_wild


@njit(cache=True, inline="always")
def centre_hand_gain(hand, spaces, after, centre_colours, needs, colour, real, paid_wild, wild, w):
    """The hand's change in value for a placement on the centre star: the wild tiles paid,
    and every colour not yet on the centre star, whose largest empty centre space shrinks
    (the colour placed can no longer go there at all)."""
    hand_after = hand - real * one_of(colour) - paid_wild * one_of(wild)
    largest = LARGEST_EMPTY[star_mask(spaces, CENTRE_STAR)]
    largest_after = LARGEST_EMPTY[star_mask(after, CENTRE_STAR)]
    gain = w[WILD] * (count_of(hand_after, wild) - count_of(hand, wild))
    for c in range(NCOLOURS):
        held = count_of(hand, c)
        if held and c != wild and ((centre_colours >> c) & 1) == 0:
            need = count_of(needs, c)
            # its ``demand`` after the move: the placed colour no longer counts the centre
            need_after = need - largest + (0 if c == colour else largest_after)
            gain += w[TILE] * min(count_of(hand_after, c), need_after) - w[TILE] * min(held, need)
    return gain
