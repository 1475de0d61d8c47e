"""Summer Pavilion state layout: one int64 word per field, counts packed into byte lanes.

A position is a 1-D int64 array of ``STATE_SIZE`` words holding everything the
rules need, so it can be copied, hashed and compared as an array.

Tile sets (factories, centre, supply, bag, tower, a player's hand and kept tiles)
are one word each: colour ``c`` has the byte lane at bits ``8c .. 8c+7``.

A player's board is a 42-bit mask of covered spaces, bit ``6 * star + space - 1``
(star ``s`` < 6 is the outer star of colour ``s``, star 6 the centre star), and a
6-bit mask of the colours on the centre star. Which centre space holds which colour
is not kept: the rules never ask.

The start-player token is ``W_TOKEN``: the player holding it, or ``TOKEN_IN_CENTRE``.
"""

from tessera.kernels.common import LANE_BITS, LANE_MASK  # noqa: F401  (re-exported)
from tessera.kernels.constants import PAVILION as GAME_ID  # noqa: F401  (re-exported)
from tessera.kernels.pavilion.board import (  # noqa: F401  (re-exported)
    CENTRE_STAR,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    FACTORIES_BY_PLAYERS,
    KEEP_AT_MOST,
    NCOLOURS,
    NSTARS,
    PLAYER_COUNTS,
    REGION_MASKS,
    REGION_REWARDS,
    ROUNDS,
    SCORE_START,
    STAR_SPACES,
    SUPPLY_SIZE,
    TILES_PER_COLOUR,
    WILD_BY_ROUND,
)

FACTORY_SIZE = 4
MAX_PLAYERS = max(PLAYER_COUNTS)
MAX_FACTORIES = int(FACTORIES_BY_PLAYERS.max())
NSPACES = NSTARS * STAR_SPACES
STAR_MASK = (1 << STAR_SPACES) - 1
TOTAL_TILES = NCOLOURS * TILES_PER_COLOUR

# Phases. REFILL and RESUPPLY are chance; DRAFT, PLACE, BONUS and KEEP a player; OVER nobody.
PHASE_REFILL = 0  # start of a round: factories in order, then the supply topped up
PHASE_DRAFT = 1
PHASE_PLACE = 2  # place a tile or pass
PHASE_BONUS = 3  # choose the supply tiles a completed bonus region earned
PHASE_KEEP = 4  # the player who passed chooses the tiles to keep
PHASE_RESUPPLY = 5  # the supply topped up after a turn of the placing phase
PHASE_OVER = 6

# Global words.
W_GAME = 0
W_PLAYERS = 1
W_PHASE = 2
W_TO_MOVE = 3  # the player to act; in REFILL the starter, in RESUPPLY who just moved
W_ROUND = 4  # 1-based
W_STARTER = 5  # the player who started this round's drafting
W_TOKEN = 6  # the start-player token's holder, or TOKEN_IN_CENTRE
W_PASSED = 7  # bit p: player p has passed this round
W_REWARD = 8  # in phase BONUS: how many supply tiles the player takes
W_CENTRE = 9
W_BAG = 10
W_TOWER = 11
W_SUPPLY = 12
W_FACTORY = 13  # W_FACTORY + f for factory f
PLAYER_BASE = W_FACTORY + MAX_FACTORIES

# Player words, at PLAYER_BASE + p * PLAYER_WORDS + offset.
P_SPACES = 0  # covered spaces, bit 6 * star + space - 1
P_CENTRE_COLOURS = 1
P_HAND = 2  # tiles beside the board
P_KEPT = 3  # tiles kept on the corner spaces after passing
P_SCORE = 4
PLAYER_WORDS = 5

STATE_SIZE = PLAYER_BASE + MAX_PLAYERS * PLAYER_WORDS

TOKEN_IN_CENTRE = -1

LANES_ALL = (1 << (LANE_BITS * NCOLOURS)) - 1
LANES_ONE = sum(1 << (LANE_BITS * c) for c in range(NCOLOURS))
TOTAL_SHIFT = LANE_BITS * (NCOLOURS - 1)  # the byte of the lane sum in tiles * LANES_ONE

# Moves are non-negative ints.
#   draft:  source * DRAFT_COLOURS + colour; source MAX_FACTORIES is the centre and
#           colour LONE_WILD takes the single wild tile of an all-wild source
#   place:  PLACE_BASE + (space * NCOLOURS + colour) * STAR_SPACES + wild tiles paid,
#           space = 6 * star + number - 1, colour = the colour placed
#   pass:   PASS_MOVE
#   take:   TAKE_BASE + choice (the supply tiles a bonus takes)
#   keep:   KEEP_BASE + choice (the tiles kept when passing)
#   chance: CHANCE_BASE + colour (the colour of the next tile drawn)
# A choice packs a count per colour into CHOICE_BITS bits each.
SOURCE_CENTRE = MAX_FACTORIES
LONE_WILD = NCOLOURS
DRAFT_COLOURS = NCOLOURS + 1
PLACE_BASE = 128
PASS_MOVE = 2000
CHANCE_BASE = 2048
CHOICE_BITS = 3
CHOICE_MASK = (1 << CHOICE_BITS) - 1
TAKE_BASE = 1 << (CHOICE_BITS * NCOLOURS)
KEEP_BASE = 2 * TAKE_BASE

MAX_REWARD = max(int(sum(REGION_REWARDS[((REGION_MASKS >> space) & 1) == 1])) for space in range(NSPACES))
# The longest move lists: every empty space with every number of wild tiles it can take
# (outer stars one colour each, the centre star any), plus the pass; or every keep choice.
_PAYMENTS_PER_STAR = sum(range(1, STAR_SPACES + 1))
MAX_PLACE_MOVES = 2 * NCOLOURS * _PAYMENTS_PER_STAR + 1


def _multisets(kinds, size):
    """Multisets of ``size`` items from ``kinds`` kinds."""
    count = 1
    for i in range(size):
        count = count * (kinds + i) // (i + 1)
    return count


MAX_KEEP_MOVES = sum(_multisets(NCOLOURS, size) for size in range(KEEP_AT_MOST + 1))
MAX_TAKE_MOVES = _multisets(NCOLOURS, MAX_REWARD)
MAX_DRAFT_MOVES = (MAX_FACTORIES + 1) * NCOLOURS
MAX_MOVES = max(MAX_PLACE_MOVES, MAX_KEEP_MOVES, MAX_TAKE_MOVES, MAX_DRAFT_MOVES)

assert PLACE_BASE >= (MAX_FACTORIES + 1) * DRAFT_COLOURS
assert PLACE_BASE + NSPACES * NCOLOURS * STAR_SPACES <= PASS_MOVE < CHANCE_BASE
assert CHANCE_BASE + NCOLOURS <= TAKE_BASE
assert max(KEEP_AT_MOST, MAX_REWARD, STAR_SPACES) <= CHOICE_MASK
assert TILES_PER_COLOUR * NCOLOURS <= LANE_MASK  # a lane sum fits in one byte


def factories_for(players):
    return int(FACTORIES_BY_PLAYERS[players])


def player_word(player, offset):
    return PLAYER_BASE + player * PLAYER_WORDS + offset


def wild_of_round(round_number):
    return int(WILD_BY_ROUND[round_number - 1])


def space_bit(star, number):
    return STAR_SPACES * star + number - 1


def draft_move(source, colour):
    return source * DRAFT_COLOURS + colour


def split_draft_move(move):
    """(source, colour) of a draft move; colour LONE_WILD for the lone wild tile."""
    return move // DRAFT_COLOURS, move % DRAFT_COLOURS


def place_move(star, number, colour, wilds):
    return PLACE_BASE + (space_bit(star, number) * NCOLOURS + colour) * STAR_SPACES + wilds


def split_place_move(move):
    """(star, number, colour, wild tiles paid) of a placement."""
    code = move - PLACE_BASE
    wilds = code % STAR_SPACES
    colour = (code // STAR_SPACES) % NCOLOURS
    space = code // (STAR_SPACES * NCOLOURS)
    return space // STAR_SPACES, space % STAR_SPACES + 1, colour, wilds


def choice_code(counts):
    """The choice part of a take or keep move from per-colour counts."""
    return sum(n << (CHOICE_BITS * c) for c, n in enumerate(counts))


def choice_counts(code):
    return [(code >> (CHOICE_BITS * c)) & CHOICE_MASK for c in range(NCOLOURS)]
