"""Azure for learning programs: stable integer action ids and an observation vector of
what one player knows (docs/rl.md lists every entry).

Action ids are the engine's player move codes (``tessera.kernels.azure.layout``): ``cell``
(a common stone on cell ``8 * row + col``), ``64 + cell`` (the gifted stone),
``128 + kind`` (Bountiful's boon: qi, wisdom, cosmos), ``132 + colour`` (a Cosmos card
taken), ``136 + colour`` (one returned), ``140 + 4 * first + second`` (the Bird's two
cards returned, first <= second); ``NUM_ACTIONS`` ids in all.

The observation is a float32 vector of ``observation_size(2)`` numbers, made from the
observer's view (``tessera.kernels.azure.views``): the opponent's hand holds only the cards the
observer can name, and the hidden deck only its size. Players are written observer
first; the realm as feature planes of 64 cells (``8 * row + col``).
"""

from tessera.kernels.azure.layout import (
    CELL_COSMOS,
    CELL_DOMAIN,
    CELL_KIND,
    CELL_QI,
    CELL_QI_COLOUR,
    CELL_SERPENT,
    CELL_WISDOM,
    CELLS,
    DRAW_BASE,
    FIELD_MASK,
    KIND_MOUNTAIN,
    KIND_SPACE,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    P_SCORE,
    P_STONES,
    P_SUPPLY,
    PHASE_BOON,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    PLAYER_BASE,
    PLAYER_WORDS,
    S_CELL,
    S_COSMOS,
    S_GIFTED,
    S_THRESHOLDS,
    S_TRACK_END,
    W_BIRD_LOSER,
    W_BLACK_STONE,
    W_DECK_SIZE,
    W_DRAGON,
    W_FACEUP,
    W_HOLDER,
    W_PHASE,
    W_PLACED,
    W_RETURNS,
    W_TAKES,
    W_TURN,
)
from tessera.kernels.azure.state import to_move
from tessera.kernels.jit import njit

NUM_ACTIONS = DRAW_BASE
HIDDEN = True  # the opponent's hand is hidden: observations are made from views
MOVES_ARE_ACTIONS = True  # an action id is the engine's move code
GIFTED_CARDS = 5
THRESHOLD_BITS = 8

# Global entries, in order.
G_PHASE = 0  # G_PHASE + k: 1 in phase place, boon, take, return, return pair (k = 0..4)
G_TO_MOVE = 5  # G_TO_MOVE + k: 1 if player k from the observer (0 the observer) acts
G_TURN = 7  # G_TURN + k: whose turn it is
G_TAKES = 9  # Cosmos cards of choice still to take
G_RETURNS = 10  # Cosmos cards of choice still to return
G_BIRD_LOSER = 11  # G_BIRD_LOSER + k: who returns two cards for losing the Bird
G_DRAGON = 13  # the Yellow Dragon's steps from the middle toward the observer
G_BLACK_STONE = 14  # G_BLACK_STONE + k: whose stone is on the Black mountain
G_DECK_SIZE = 16  # cards in the hidden deck
G_HOLDER = 17  # G_HOLDER + 2 * colour + k: player k holds that mountain's beast
G_FACEUP = G_HOLDER + 2 * NCOLOURS  # + colour: the face-up deck's cards
G_GIFTED = G_FACEUP + NCOLOURS  # + card: the gifted card in play (0 none)
G_COSMOS = G_GIFTED + GIFTED_CARDS  # 1 with the Cosmos expansion
G_TRACK_END = G_COSMOS + 1  # the Dragon's steps from the middle to either end
G_THRESHOLD = G_TRACK_END + 1  # + k: a threshold between steps k and k + 1
GLOBAL_SIZE = G_THRESHOLD + THRESHOLD_BITS
# Realm planes, at GLOBAL_SIZE + 64 * plane + cell.
R_SPACE = 0
R_MOUNTAIN = 1
R_DOMAIN = 2  # + colour: the cell's domain (or mountain) colour
R_QI = R_DOMAIN + NCOLOURS  # qi symbols
R_QI_COLOUR = R_QI + 1  # + colour: their colour
R_WISDOM = R_QI_COLOUR + NCOLOURS
R_COSMOS = R_WISDOM + 1
R_SERPENT = R_COSMOS + 1
R_STONE = R_SERPENT + 1  # + k: a stone of player k from the observer
R_GIFTED_STONE = R_STONE + 2  # + k: that player's gifted stone
R_PLACED = R_GIFTED_STONE + 2  # the stone placed this turn (Bountiful)
PLANES = R_PLACED + 1
# Per player, from the observer on, after the planes.
PL_SCORE = 0
PL_SUPPLY = 1  # common stones not on the realm
PL_HAND_SIZE = 2
PL_HAND = 3  # + colour: the cards (the opponent's: those the observer can name)
PL_KNOWN = PL_HAND + NCOLOURS  # + colour: the cards of the hand the opponent can name
PLAYER_SIZE = PL_KNOWN + NCOLOURS
PLAYERS_AT = GLOBAL_SIZE + PLANES * CELLS


def observation_size(players):
    return PLAYERS_AT + players * PLAYER_SIZE


@njit(cache=True, inline="always")
def action_of_move(state, move):
    return move


@njit(cache=True, inline="always")
def move_of_action(state, action):
    return action


@njit(cache=True, inline="always")
def _relative(player, observer):
    """0 for the observer, 1 for the opponent."""
    return player ^ observer


@njit(cache=True)
def observe(view, observer, out):
    """Write what ``observer`` knows into ``out``; ``view`` is that player's view (the
    hidden deck is never read; the opponent's hand words are, as the view has them)."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    phase = view[W_PHASE]
    for k, kind in enumerate((PHASE_PLACE, PHASE_BOON, PHASE_TAKE, PHASE_RETURN, PHASE_RETURN_PAIR)):
        out[G_PHASE + k] = phase == kind
    who = to_move(view)
    if who >= 0:
        out[G_TO_MOVE + _relative(who, observer)] = 1.0
    out[G_TURN + _relative(view[W_TURN], observer)] = 1.0
    out[G_TAKES] = view[W_TAKES]
    out[G_RETURNS] = view[W_RETURNS]
    if view[W_BIRD_LOSER] != NOBODY:
        out[G_BIRD_LOSER + _relative(view[W_BIRD_LOSER], observer)] = 1.0
    out[G_DRAGON] = view[W_DRAGON] if observer == 0 else -view[W_DRAGON]
    if view[W_BLACK_STONE] != NOBODY:
        out[G_BLACK_STONE + _relative(view[W_BLACK_STONE], observer)] = 1.0
    out[G_DECK_SIZE] = view[W_DECK_SIZE]
    for c in range(NCOLOURS):
        if view[W_HOLDER + c] != NOBODY:
            out[G_HOLDER + 2 * c + _relative(view[W_HOLDER + c], observer)] = 1.0
        out[G_FACEUP + c] = view[W_FACEUP + c]
    out[G_GIFTED + view[S_GIFTED]] = 1.0
    out[G_COSMOS] = view[S_COSMOS]
    out[G_TRACK_END] = view[S_TRACK_END]
    for k in range(THRESHOLD_BITS):
        out[G_THRESHOLD + k] = (view[S_THRESHOLDS] >> k) & 1
    at = GLOBAL_SIZE
    for cell in range(CELLS):
        packed = view[S_CELL + cell]
        kind = (packed >> CELL_KIND) & FIELD_MASK
        if kind == KIND_SPACE or kind == KIND_MOUNTAIN:
            out[at + CELLS * (R_SPACE if kind == KIND_SPACE else R_MOUNTAIN) + cell] = 1.0
            out[at + CELLS * (R_DOMAIN + ((packed >> CELL_DOMAIN) & FIELD_MASK)) + cell] = 1.0
        qi = (packed >> CELL_QI) & FIELD_MASK
        if qi:
            out[at + CELLS * R_QI + cell] = qi
            out[at + CELLS * (R_QI_COLOUR + ((packed >> CELL_QI_COLOUR) & FIELD_MASK)) + cell] = 1.0
        out[at + CELLS * R_WISDOM + cell] = (packed >> CELL_WISDOM) & FIELD_MASK
        out[at + CELLS * R_COSMOS + cell] = (packed >> CELL_COSMOS) & FIELD_MASK
        out[at + CELLS * R_SERPENT + cell] = (packed >> CELL_SERPENT) & FIELD_MASK
    if view[W_PLACED] != NOBODY:
        out[at + CELLS * R_PLACED + view[W_PLACED]] = 1.0
    at = PLAYERS_AT
    for k in range(2):
        base = PLAYER_BASE + (observer ^ k) * PLAYER_WORDS
        stones = view[base + P_STONES]
        for cell in range(CELLS):
            if (stones >> cell) & 1:
                out[GLOBAL_SIZE + CELLS * (R_STONE + k) + cell] = 1.0
        if view[base + P_GIFTED] != NOBODY:
            out[GLOBAL_SIZE + CELLS * (R_GIFTED_STONE + k) + view[base + P_GIFTED]] = 1.0
        out[at + PL_SCORE] = view[base + P_SCORE]
        out[at + PL_SUPPLY] = view[base + P_SUPPLY]
        out[at + PL_HAND_SIZE] = view[base + P_HAND_SIZE]
        for c in range(NCOLOURS):
            out[at + PL_HAND + c] = view[base + P_HAND + c]
            out[at + PL_KNOWN + c] = view[base + P_KNOWN + c]
        at += PLAYER_SIZE
