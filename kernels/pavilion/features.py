"""Hand features of a Summer Pavilion position for a learned value (docs/learning.md).

``value_features(state, player, out)`` writes ``N_VALUE_FEATURES`` float64 values that
describe the position from ``player``'s side. A value model is a weight vector over them
(its prediction a dot product), so the search can evaluate a learned model with this same
kernel and the model's weights passed in as an array: ``players_value_features(state,
out)``, the same for every player at once, computes each board's quantities once.

The vector has three parts:

- ``PLAYER_FEATURES`` quantities of each board (score, the game's own evaluation, the end
  bonuses earned and near, the tiles held, ...), first as the player's value less the best
  value among the other players (each quantity's best separately), then as the player's
  own value;
- quantities of the whole table: a constant 1, the round, whether the player starts the
  next round, the player count one-hot (the wild colour follows the round, so the round
  says it);
- the score and evaluation differences times the game's progress (its rounds), so a
  linear model can weigh a lead more as the end comes nearer.

Its positions are the round boundaries: ``is_round_boundary`` says which (the refill
after a round's end; the supply's top-up in the middle of a round is chance too, but no
boundary). Every quantity reuses the rules' own helpers (``evaluate``, ``stars``, ``tiles``);
nothing allocates.
"""

from tessera.kernels.common import own_less_best_other
from tessera.kernels.jit import njit
from tessera.kernels.pavilion.board import NUMBER_BONUS, REGION_MASKS, REGION_REWARDS, STAR_BONUS
from tessera.kernels.pavilion.evaluate import (
    FULL_NUMBER,
    NUMBERS_WITH_BONUS,
    WEIGHTS,
    demands,
    player_value,
    star_mask,
    usable,
)
from tessera.kernels.pavilion.layout import (
    NSTARS,
    P_CENTRE_COLOURS,
    P_HAND,
    P_KEPT,
    P_SCORE,
    P_SPACES,
    PHASE_OVER,
    PHASE_REFILL,
    ROUNDS,
    STAR_SPACES,
    TOKEN_IN_CENTRE,
    W_PHASE,
    W_PLAYERS,
    W_ROUND,
    W_STARTER,
    W_TOKEN,
)
from tessera.kernels.pavilion.moves import player_base, wild_colour
from tessera.kernels.pavilion.stars import NUMBER_MASKS, end_bonus
from tessera.kernels.pavilion.tiles import total

# One board's quantities (``player_feature``), in this order.
PLAYER_FEATURE_NAMES = (
    "score",  # points so far
    "evaluation",  # evaluate's value: the score plus what the board and tiles promise
    "bonuses_earned",  # end bonuses already won: whole stars, numbers on all seven stars
    "spaces_covered",  # tiles placed on the stars
    "stars_complete",  # whole stars (each pays its 12-20 point bonus at the end)
    "stars_near",  # stars one or two spaces short of whole
    "star_progress",  # each unfinished star's bonus times the square of its share covered
    "number_progress",  # each unfinished number bonus (1s-4s) times its share squared
    "region_tiles_near",  # supply tiles the bonus regions one space short would earn
    "usable_tiles",  # tiles held (beside the board and kept) the board can still take
    "unusable_tiles",  # tiles held that no space can take: points lost when discarded
)
PLAYER_FEATURES = len(PLAYER_FEATURE_NAMES)
TABLE_FEATURE_NAMES = (
    "constant",
    "round",
    "starts_next",
    "players_2",
    "players_3",
    "players_4",
    "score_diff_x_progress",
    "evaluation_diff_x_progress",
)
FEATURE_NAMES = (
    tuple(name + "_diff" for name in PLAYER_FEATURE_NAMES)
    + tuple("own_" + name for name in PLAYER_FEATURE_NAMES)
    + TABLE_FEATURE_NAMES
)
N_VALUE_FEATURES = len(FEATURE_NAMES)

DIFF_AT = 0  # out[DIFF_AT + k]: own less best other, quantity k
OWN_AT = PLAYER_FEATURES  # out[OWN_AT + k]: own, quantity k
TABLE_AT = 2 * PLAYER_FEATURES  # the table's quantities
SCORE, EVALUATION = 0, 1
NEAR = 2  # a star this many spaces short or fewer is near


@njit(cache=True, inline="always")
def bits_set(x):
    """Set bits of a non-negative int64: byte counts summed by shifts. (``bits.popcount``
    sums them with a multiply that overflows int64, which LLVM may take as impossible:
    comparisons of its inlined result can come out wrong.)"""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def is_round_boundary(state):
    """A round boundary: a round has ended and the next one's refill is to be drawn (the
    dataset's positions, docs/learning.md)."""
    return state[W_PHASE] == PHASE_REFILL


@njit(cache=True)
def star_quantities(spaces, k):
    """Quantity ``k`` (4 to 6) of the stars: whole ones, near ones, or the bonus progress."""
    value = 0.0
    for star in range(NSTARS):
        covered = bits_set(star_mask(spaces, star))
        if k == 4:
            if covered == STAR_SPACES:
                value += 1.0
        elif k == 5:
            if STAR_SPACES - NEAR <= covered < STAR_SPACES:
                value += 1.0
        elif covered < STAR_SPACES:
            share = covered / STAR_SPACES
            value += STAR_BONUS[star] * share * share
    return value


@njit(cache=True)
def number_progress(spaces):
    """Each number bonus not yet won times the square of its share of the seven stars."""
    value = 0.0
    for k in range(NUMBERS_WITH_BONUS):
        covered = bits_set(spaces & NUMBER_MASKS[k])
        if covered < FULL_NUMBER:
            share = covered / FULL_NUMBER
            value += NUMBER_BONUS[k] * share * share
    return value


@njit(cache=True)
def region_tiles_near(spaces):
    """The supply tiles earned by the bonus regions missing exactly one space."""
    tiles = 0
    for r in range(REGION_MASKS.size):
        if bits_set(REGION_MASKS[r] & ~spaces) == 1:
            tiles += REGION_REWARDS[r]
    return tiles


@njit(cache=True)
def player_feature(state, player, k):
    """Quantity ``k`` of ``PLAYER_FEATURE_NAMES`` for ``player``'s board."""
    base = player_base(player)
    spaces = state[base + P_SPACES]
    if k == 0:
        return float(state[base + P_SCORE])
    if k == 1:
        if state[W_PHASE] == PHASE_OVER:
            return float(state[base + P_SCORE])
        return player_value(state, player, WEIGHTS)
    if k == 2:
        return float(end_bonus(spaces))
    if k == 3:
        return float(bits_set(spaces))
    if k <= 6:
        return star_quantities(spaces, k)
    if k == 7:
        return number_progress(spaces)
    if k == 8:
        return float(region_tiles_near(spaces))
    held = state[base + P_HAND] + state[base + P_KEPT]
    good = usable(held, demands(spaces, state[base + P_CENTRE_COLOURS]), wild_colour(state))
    if k == 9:
        return float(good)
    return float(total(held) - good)


@njit(cache=True)
def next_starter(state):
    """Who starts the next round: the token's holder; while the token is in the centre, the
    round's starter (at a boundary, the coming round's)."""
    token = state[W_TOKEN]
    return state[W_STARTER] if token == TOKEN_IN_CENTRE else token


@njit(cache=True)
def value_features(state, player, out):
    """``out[:N_VALUE_FEATURES]``: the features of ``state`` seen from ``player`` (the module
    docstring lists them; ``FEATURE_NAMES`` names them in order)."""
    players = state[W_PLAYERS]
    for k in range(PLAYER_FEATURES):
        own = player_feature(state, player, k)
        best_other = -1e300
        for p in range(players):
            if p != player:
                best_other = max(best_other, player_feature(state, p, k))
        out[DIFF_AT + k] = own - best_other
        out[OWN_AT + k] = own
    table_features(state, player, out)


@njit(cache=True)
def players_value_features(state, out):
    """``out[p, :N_VALUE_FEATURES]``: ``value_features(state, p, ...)`` for every player p, each
    board's quantities computed once (a search scores every player at each cut)."""
    players = state[W_PLAYERS]
    for p in range(players):
        for k in range(PLAYER_FEATURES):
            out[p, OWN_AT + k] = player_feature(state, p, k)
    own_less_best_other(out, players, PLAYER_FEATURES)  # DIFF_AT 0, OWN_AT after
    for p in range(players):
        table_features(state, p, out[p])


@njit(cache=True)
def table_features(state, player, out):
    """The table's part of ``out`` (from ``TABLE_AT``), its board parts written already."""
    players = state[W_PLAYERS]
    # Rounds begun before this one over the game's: 0 in round 1, 1 in the last round.
    progress = (state[W_ROUND] - 1) / (ROUNDS - 1)
    t = TABLE_AT
    out[t] = 1.0
    out[t + 1] = float(state[W_ROUND])
    out[t + 2] = 1.0 if next_starter(state) == player else 0.0
    out[t + 3] = 1.0 if players == 2 else 0.0
    out[t + 4] = 1.0 if players == 3 else 0.0
    out[t + 5] = 1.0 if players == 4 else 0.0
    out[t + 6] = out[DIFF_AT + SCORE] * progress
    out[t + 7] = out[DIFF_AT + EVALUATION] * progress


@njit(cache=True)
def value_of(state, player, weights, features):
    """A linear model's value of ``state`` for ``player``: ``weights`` dotted with its
    features (``features``: scratch of ``N_VALUE_FEATURES``, so nothing allocates)."""
    value_features(state, player, features)
    value = 0.0
    for i in range(features.shape[0]):
        value += weights[i] * features[i]
    return value
