"""Azul state layout: one int64 word per field, counts packed into byte lanes.

A position is a 1-D int64 array of ``STATE_SIZE`` words. Everything the rules
need is in it, so a position can be copied, hashed and compared as an array.

Tile sets (factories, centre, floor, bag, lid) are one word each: colour ``c``
has the byte lane at bits ``8c .. 8c+7`` holding its count, and bit
``MARKER_BIT`` is the first-player marker (only in the centre or a floor).
Byte lanes let a whole tile set move with one addition (factory rest to centre).

Walls are five 25-bit masks per player, one per colour; bit ``5*row + col``.
The colour wall fixes colour ``c`` of row ``r`` at column ``(c + r) % 5``; the
gray wall lets the player choose, so both variants use the same masks.

Pattern lines are one word: line ``i`` has byte lane ``i`` with the tile count
in bits 0-3 and the colour in bits 4-6 (meaningless when the count is 0).
"""

from tessera.kernels.common import LANE_BITS, LANE_MASK  # noqa: F401  (re-exported)
from tessera.kernels.constants import AZUL as GAME_ID  # noqa: F401  (re-exported)

NCOLOURS = 5
COLOUR_NAMES = ("blue", "yellow", "red", "black", "white")
COLOUR_LETTERS = "BYRKW"
TILES_PER_COLOUR = 20
FACTORY_SIZE = 4
MAX_PLAYERS = 4
MAX_FACTORIES = 9
FLOOR_SLOTS = 7
# FLOOR_PENALTY[n]: points lost with n occupied floor slots (-1 -1 -2 -2 -2 -3 -3).
FLOOR_PENALTY = (0, 1, 2, 4, 6, 8, 11, 14)

VARIANT_COLOUR = 0
VARIANT_GRAY = 1

# Phases. Who acts: REFILL is chance; DRAFT and TILING a player; OVER nobody.
PHASE_REFILL = 0
PHASE_DRAFT = 1
PHASE_TILING = 2
PHASE_OVER = 3

# Global words.
W_GAME = 0
W_PLAYERS = 1
W_VARIANT = 2
W_PHASE = 3
W_TO_MOVE = 4
W_ROUND = 5  # 1-based round number
W_STARTER = 6  # the player who started the current round
W_CENTRE = 7
W_BAG = 8
W_LID = 9
W_STALLED = 10  # rounds in a row in which no tile reached a wall (docs/azul.md)
W_FACTORY = 11  # W_FACTORY + f for factory f in 0..8
PLAYER_BASE = W_FACTORY + MAX_FACTORIES

# Player words, at PLAYER_BASE + p * PLAYER_WORDS + offset.
P_WALL = 0  # P_WALL + c: the 25-bit mask of colour c on the wall
P_LINES = 5
P_FLOOR = 6
P_SCORE = 7
PLAYER_WORDS = 8

STATE_SIZE = PLAYER_BASE + MAX_PLAYERS * PLAYER_WORDS

LANES_ALL = 0xFFFFFFFFFF  # the five colour lanes
LANES_ONE = 0x0101010101  # one tile of each colour
MARKER_BIT = 1 << 40

LINE_COUNT_MASK = 0xF
LINE_COLOUR_SHIFT = 4

# Moves are small non-negative ints.
#   draft:  source * 30 + colour * 6 + destination
#           source 0..8 = factory, 9 = centre; destination 0..4 = line, 5 = floor
#   tiling: TILE_MOVE_BASE + column (gray wall: the column for the pending line)
#   chance: CHANCE_MOVE_BASE + colour (the colour of the next tile drawn)
SOURCE_CENTRE = MAX_FACTORIES
DEST_FLOOR = 5
NDESTS = 6
TILE_MOVE_BASE = 300
CHANCE_MOVE_BASE = 400
MAX_MOVES = (MAX_FACTORIES + 1) * NCOLOURS * NDESTS

STALL_LIMIT = 5  # that many stalled rounds in a row end the game

ROW_BONUS = 2
COLUMN_BONUS = 7
COLOUR_BONUS = 10


def factories_for(players):
    """Factory displays for a player count: 5, 7 or 9."""
    return 2 * players + 1


def player_word(player, offset):
    return PLAYER_BASE + player * PLAYER_WORDS + offset


def wall_column(colour, row):
    """The colour wall's column for a colour in a row (rulings: colour (c - r) mod 5)."""
    return (colour + row) % NCOLOURS


def draft_move(source, colour, dest):
    return source * NCOLOURS * NDESTS + colour * NDESTS + dest


def split_draft_move(move):
    """(source, colour, destination) of a draft move."""
    return move // (NCOLOURS * NDESTS), (move // NDESTS) % NCOLOURS, move % NDESTS
