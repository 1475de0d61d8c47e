"""Azure state layout: one int64 word per field; the realm as 64-bit cell masks.

The realm sits on an 8x8 grid of cells, cell ``8 * row + col``; a cell is a space,
a mountain or nothing (a cell outside the realm: the base realm is 6x6, the
Cosmos realm leaves gaps beside its large domains). Every set of cells (stones,
spaces, serpents, a domain, a line of sight) is one 64-bit mask; bit 63 is used,
so masks are counted with ``tessera.kernels.azure.bits.count`` (not ``tessera.kernels.bits``).

A position is a 1-D int64 array of ``STATE_SIZE`` words in two parts:

- the *dynamic* words (``W_*`` and the player blocks): what play changes;
- the *realm* words (``S_*``), written once when the game is set up by
  ``tessera.kernels.azure.realm`` from the board data files: per-cell symbols and masks,
  the gifted card, the Cosmos track. The kernels read the board only from here,
  so a user's own board data needs no recompiling.

Cards: 4 colours, 12 each. Each pile (a hand, the face-up decks, the hidden deck)
is one word per colour. ``P_KNOWN + c`` counts the cards of colour ``c`` in a
player's hand whose colour the opponent knows (taken face up, or deduced when the
hidden deck ran out); see docs/azure.md.

A player's *view* (``W_VIEW`` = the observer) keeps the opponent's known cards in
their hand words and ``HIDDEN`` in the hidden-deck words; the hand and deck sizes
are always exact. ``tessera.kernels.azure.views`` makes and completes views.
"""

from tessera.kernels.constants import AZURE as GAME_ID  # noqa: F401  (re-exported)

PLAYERS = 2
GRID = 8
CELLS = GRID * GRID
NCOLOURS = 4
COLOUR_NAMES = ("azure", "white", "vermillion", "black")  # the data file's order
COLOUR_LETTERS = "AWVB"
AZURE, WHITE, VERMILLION, BLACK = range(NCOLOURS)
CARDS_PER_COLOUR = 12
DECK_PER_COLOUR = 3  # the hidden deck: three of each colour when (re)built
HAND_START = (2, 3)  # cards drawn at setup: the start player (0), the other
STONES = 14
COSMOS_STONES = 4  # extra common stones each with Cosmos
WIN_SCORE = 25
FIRST_GUARDS = 2  # guards needed to claim an unclaimed beast

# Beasts are named by the colour of their mountain and checked in this order.
BEAST_NAMES = ("dragon", "tiger", "bird", "tortoise")  # by colour, as COLOUR_NAMES
BEAST_ORDER = (BLACK, AZURE, WHITE, VERMILLION)  # Tortoise, Dragon, Tiger, Bird
DRAGON_POINTS = 3
TIGER_POINTS = 2
BIRD_CARDS = 2

# Gifted cards (S_GIFTED); GIFTED_COST[k]: the gifted stone's extra card cost.
GIFTED_NONE, MIGHTY, PERCEPTIVE, BOUNTIFUL, FAVORED = range(5)
GIFTED_NAMES = ("none", "mighty", "perceptive", "bountiful", "favored")
GIFTED_COST = (0, 2, 2, 1, 1)

# Phases. DRAW is chance; PLACE, BOON, TAKE, RETURN, RETURN_PAIR a player; OVER nobody.
PHASE_DRAW = 0  # W_DRAWS cards to draw from the hidden deck for W_DRAW_FOR
PHASE_PLACE = 1  # W_TURN places a stone
PHASE_BOON = 2  # W_TURN chooses Bountiful's extra boon
PHASE_TAKE = 3  # W_TURN takes a card of choice (a Cosmos threshold crossed)
PHASE_RETURN = 4  # the opponent of W_TURN returns a card of choice (Cosmos threshold)
PHASE_RETURN_PAIR = 5  # W_BIRD_LOSER returns two cards of choice (lost the Bird)
PHASE_OVER = 6

# Where a turn resumes after a decision or draw (W_STEP): the stages in order.
STEP_BOON = 0  # Bountiful's extra boon
STEP_TAKE = 1  # Cosmos cards of choice gained by the mover
STEP_RETURN = 2  # Cosmos cards of choice returned by the opponent
STEP_BEASTS = 3  # the beasts, in BEAST_ORDER
STEP_BIRD_DRAW = 4  # the Bird's taker draws
STEP_BIRD_RETURN = 5  # the Bird's loser returns
STEP_END = 6  # the turn passes; a player who cannot place loses
STEP_SETUP = 7  # the starting hands are being drawn

# Dynamic words.
W_GAME = 0
W_PHASE = 1
W_TURN = 2  # whose turn it is (the start player is 0)
W_WINNER = 3  # the winner once the game is over, else NOBODY
W_STEP = 4
W_VIEW = 5  # the observer of a view, or NOBODY in a complete position
W_DRAW_FOR = 6  # who receives the pending draws
W_DRAWS = 7  # cards still to draw from the hidden deck
W_TAKES = 8  # Cosmos cards of choice the mover still takes
W_RETURNS = 9  # Cosmos cards of choice the opponent still returns
W_BIRD_LOSER = 10  # who returns two cards for losing the Bird, or NOBODY
W_PLACED = 11  # the cell of this turn's stone (Bountiful), or NOBODY
W_DRAGON = 12  # the Yellow Dragon on the cosmos track: 0 the middle, + toward player 0
W_BLACK_STONE = 13  # whose stone is on the Black mountain, or NOBODY
W_DECK_SIZE = 14
W_HOLDER = 15  # W_HOLDER + colour: who holds that mountain's beast, or NOBODY
W_FACEUP = W_HOLDER + NCOLOURS  # W_FACEUP + colour: the face-up deck
W_DECK = W_FACEUP + NCOLOURS  # W_DECK + colour: the hidden deck (HIDDEN in a view)
PLAYER_BASE = W_DECK + NCOLOURS

# Player words, at PLAYER_BASE + p * PLAYER_WORDS + offset.
P_STONES = 0  # cells holding the player's stones: common, gifted, Black mountain
P_GIFTED = 1  # the gifted stone's cell, or NOBODY
P_SUPPLY = 2  # common stones not on the realm
P_SCORE = 3
P_HAND_SIZE = 4
P_HAND = 5  # P_HAND + colour (in a view, the opponent's known cards only)
P_KNOWN = P_HAND + NCOLOURS
PLAYER_WORDS = P_KNOWN + NCOLOURS

DYNAMIC_SIZE = PLAYER_BASE + PLAYERS * PLAYER_WORDS

# Realm words (constant during a game).
S_SPACES = DYNAMIC_SIZE  # mask of the spaces
S_MOUNTAINS = S_SPACES + 1
S_SERPENTS = S_SPACES + 2
S_GIFTED = S_SPACES + 3  # the gifted card in play (GIFTED_NONE without the module)
S_COSMOS = S_SPACES + 4  # 1 with the Cosmos expansion
S_TRACK_END = S_SPACES + 5  # the Dragon's steps from the middle to either end (0 without Cosmos)
S_THRESHOLDS = S_SPACES + 6  # bit k: a threshold between steps k and k+1 on each player's side
S_ARRANGEMENT = S_SPACES + 7  # Cosmos: 0 large domains top-left and bottom-right, 1 the other diagonal
S_PLACE = S_SPACES + 8  # S_PLACE + place: the domain laid there (``place_code``)
S_MOUNTAIN = S_PLACE + 4  # S_MOUNTAIN + colour: that mountain's cell
S_DOMAIN = S_MOUNTAIN + NCOLOURS  # S_DOMAIN + colour: mask of that domain's spaces
S_CELL = S_DOMAIN + NCOLOURS  # S_CELL + cell: the cell's packed symbols (below)
S_SIGHT = S_CELL + CELLS  # S_SIGHT + cell: cells in line (row or column), no mountain strictly between
S_DIAGONAL = S_SIGHT + CELLS  # S_DIAGONAL + cell: the same along both diagonals (Perceptive)
STATE_SIZE = S_DIAGONAL + CELLS

# A packed cell (S_CELL + cell): fields at these shifts, 4 bits each.
CELL_KIND = 0  # KIND_NONE, KIND_SPACE or KIND_MOUNTAIN
CELL_DOMAIN = 4  # the colour of the cell's domain
CELL_QI = 8  # qi symbols (cards gained)
CELL_QI_COLOUR = 12  # their colour
CELL_WISDOM = 16  # wisdom symbols (points)
CELL_COSMOS = 20  # cosmos symbols (Yellow Dragon steps)
CELL_SERPENT = 24  # 1 on a serpent space
CELL_COST = 28  # qi + wisdom + cosmos: the card cost before bonds
FIELD_MASK = 0xF
KIND_NONE, KIND_SPACE, KIND_MOUNTAIN = range(3)

# Places of the 2x2 square, and how a laid domain is named (S_PLACE words).
PLACES = 4  # top-left, top-right, bottom-left, bottom-right
PLACE_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
ROTATIONS = (0, 90, 180, 270)  # clockwise, as a quarter-turn count 0..3 in place codes

NOBODY = -1
HIDDEN = -1

# Moves are non-negative ints.
#   place:        cell (a common stone) or GIFTED_BASE + cell (the gifted stone)
#   boon:         BOON_BASE + kind (Bountiful's extra boon)
#   take:         TAKE_BASE + colour (a Cosmos card of choice)
#   return:       RETURN_BASE + colour (a Cosmos card of choice given back)
#   return pair:  PAIR_BASE + 4 * first + second, first <= second (the Bird's two cards;
#                 a loser with fewer than two cards, or one choice only, returns without a move)
#   chance:       DRAW_BASE + colour (the colour of the card drawn from the hidden deck)
GIFTED_BASE = CELLS
BOON_BASE = 2 * CELLS
BOON_QI, BOON_WISDOM, BOON_COSMOS = range(3)
BOON_NAMES = ("qi", "wisdom", "cosmos")
TAKE_BASE = BOON_BASE + 4
RETURN_BASE = TAKE_BASE + NCOLOURS
PAIR_BASE = RETURN_BASE + NCOLOURS
DRAW_BASE = PAIR_BASE + NCOLOURS * NCOLOURS
MOVE_LIMIT = DRAW_BASE + NCOLOURS
MAX_MOVES = 2 * CELLS  # the longest list: every cell, common and gifted


def player_word(player, offset):
    return PLAYER_BASE + player * PLAYER_WORDS + offset


def cell_of(row, col):
    return GRID * row + col


def cell_field(packed, shift):
    return (packed >> shift) & FIELD_MASK


def place_code(colour, side, quarter_turns, large):
    """A laid domain: its colour, side (1 or 2), clockwise quarter turns, and 1 if large (Cosmos)."""
    return colour | (side << 2) | (quarter_turns << 4) | (large << 6)


def split_place_code(code):
    """(colour, side, quarter turns, large) of a place code."""
    return code & 3, (code >> 2) & 3, (code >> 4) & 3, (code >> 6) & 1


def pair_move(first, second):
    lo, hi = min(first, second), max(first, second)
    return PAIR_BASE + NCOLOURS * lo + hi
