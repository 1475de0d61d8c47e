"""Legal moves and chance outcomes of an Azure position.

Placing is the hot path: the empty spaces are one mask, walked bit by bit, and a
space's price is its packed cost less the player's bonds, one popcount of the
player's stones against the space's line of sight (plus the Mighty or Perceptive
gifted stone's extra bond).
"""

from numba.cpython.unsafe.numbers import trailing_zeros

from tessera.kernels.azure.bits import count
from tessera.kernels.azure.layout import (
    BOON_BASE,
    BOON_COSMOS,
    BOON_QI,
    BOON_WISDOM,
    CELL_COSMOS,
    CELL_COST,
    CELL_DOMAIN,
    CELL_QI,
    CELL_WISDOM,
    DRAW_BASE,
    FIELD_MASK,
    GIFTED_BASE,
    GIFTED_COST,
    GIFTED_NONE,
    MIGHTY,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_STONES,
    P_SUPPLY,
    PAIR_BASE,
    PERCEPTIVE,
    PHASE_BOON,
    PHASE_DRAW,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    RETURN_BASE,
    S_CELL,
    S_DIAGONAL,
    S_GIFTED,
    S_SIGHT,
    S_SPACES,
    TAKE_BASE,
    W_BIRD_LOSER,
    W_DECK,
    W_DECK_SIZE,
    W_FACEUP,
    W_PHASE,
    W_PLACED,
    W_TURN,
)
from tessera.kernels.azure.state import player_base
from tessera.kernels.jit import njit
from tessera.kernels.rng import below

GIFTED_EXTRA = GIFTED_COST  # the gifted stone's extra card cost, by gifted card


@njit(cache=True)
def bonds(state, base, cell, card):
    """Bonds of the player at ``base`` toward ``cell``: their stones in sight, plus the
    Mighty stone's second bond or the Perceptive stone's diagonal bond."""
    return bond_count(
        state[base + P_STONES], state[base + P_GIFTED], card, state[S_SIGHT + cell], state[S_DIAGONAL + cell]
    )


@njit(cache=True, inline="always")
def bond_count(stones, gifted_stone, card, sight, diagonal):
    """``bonds`` from the words it reads: the player's ``stones`` and ``gifted_stone`` (a cell,
    or NOBODY), the gifted ``card``, and the cell's lines of ``sight`` and its ``diagonal``
    ones. Every word is read whatever the card: read only for Mighty or Perceptive, they
    made each call several times slower, and the move generator with it."""
    n = count(stones & sight)
    if gifted_stone != NOBODY:
        if card == MIGHTY:
            n += (sight >> gifted_stone) & 1
        elif card == PERCEPTIVE:
            n += (diagonal >> gifted_stone) & 1
    return n


@njit(cache=True)
def empty_spaces(state):
    return state[S_SPACES] & ~(state[player_base(0) + P_STONES] | state[player_base(1) + P_STONES])


@njit(cache=True)
def field(packed, shift):
    return (packed >> shift) & FIELD_MASK


@njit(cache=True)
def price(state, base, cell, gifted):
    """Cards of the cell's domain colour the player pays to place there (0 or more)."""
    card = state[S_GIFTED]
    cost = field(state[S_CELL + cell], CELL_COST)
    if gifted:
        cost += GIFTED_EXTRA[card]
    return max(0, cost - bonds(state, base, cell, card))


@njit(cache=True)
def stones_left(state, base):
    """(a common stone in supply, the gifted stone still to place) of the player at ``base``."""
    return (state[base + P_SUPPLY] > 0, state[S_GIFTED] != GIFTED_NONE and state[base + P_GIFTED] == NOBODY)


@njit(cache=True)
def place_moves(state, player, moves):
    """Every affordable placement: ``cell`` for a common stone, ``GIFTED_BASE + cell`` for the gifted one."""
    base = player_base(player)
    card = state[S_GIFTED]
    common, gifted = stones_left(state, base)
    extra = GIFTED_EXTRA[card]
    n = 0
    if not (common or gifted):
        return 0
    m = empty_spaces(state)
    while m != 0:
        cell = trailing_zeros(m)
        m &= m - 1
        packed = state[S_CELL + cell]
        need = (
            field(packed, CELL_COST)
            - bonds(state, base, cell, card)
            - state[base + P_HAND + field(packed, CELL_DOMAIN)]
        )
        if common and need <= 0:
            moves[n] = cell
            n += 1
        if gifted and need + extra <= 0:
            moves[n] = GIFTED_BASE + cell
            n += 1
    return n


@njit(cache=True)
def can_place(state, player):
    """True when ``player`` has a stone and an affordable empty space."""
    base = player_base(player)
    card = state[S_GIFTED]
    common, gifted = stones_left(state, base)
    if not (common or gifted):
        return False
    extra = 0 if common else GIFTED_EXTRA[card]
    m = empty_spaces(state)
    while m != 0:
        cell = trailing_zeros(m)
        m &= m - 1
        packed = state[S_CELL + cell]
        if (
            field(packed, CELL_COST) + extra - bonds(state, base, cell, card)
            <= state[base + P_HAND + field(packed, CELL_DOMAIN)]
        ):
            return True
    return False


@njit(cache=True)
def boon_kinds(packed):
    """Bit k set when the space shows symbols of boon kind k (qi, wisdom, cosmos)."""
    kinds = 0
    if field(packed, CELL_QI) > 0:
        kinds |= 1 << BOON_QI
    if field(packed, CELL_WISDOM) > 0:
        kinds |= 1 << BOON_WISDOM
    if field(packed, CELL_COSMOS) > 0:
        kinds |= 1 << BOON_COSMOS
    return kinds


@njit(cache=True)
def colour_moves(state, first_word, code, moves):
    """``code + c`` for each colour with cards in the pile whose words start at ``first_word``."""
    n = 0
    for c in range(NCOLOURS):
        if state[first_word + c] > 0:
            moves[n] = code + c
            n += 1
    return n


@njit(cache=True)
def pair_moves(state, base, moves):
    """The Bird's return: each distinct pair of cards in the hand."""
    n = 0
    for lo in range(NCOLOURS):
        held = state[base + P_HAND + lo]
        if held == 0:
            continue
        if held >= 2:
            moves[n] = PAIR_BASE + NCOLOURS * lo + lo
            n += 1
        for hi in range(lo + 1, NCOLOURS):
            if state[base + P_HAND + hi] > 0:
                moves[n] = PAIR_BASE + NCOLOURS * lo + hi
                n += 1
    return n


@njit(cache=True)
def legal_moves(state, moves):
    """Write the moves of whoever acts (a player, or chance) into ``moves``; return the count."""
    phase = state[W_PHASE]
    if phase == PHASE_PLACE:
        return place_moves(state, state[W_TURN], moves)
    if phase == PHASE_DRAW:
        return colour_moves(state, W_DECK, DRAW_BASE, moves)
    if phase == PHASE_TAKE:
        return colour_moves(state, W_FACEUP, TAKE_BASE, moves)
    if phase == PHASE_RETURN:
        return colour_moves(state, player_base(1 - state[W_TURN]) + P_HAND, RETURN_BASE, moves)
    if phase == PHASE_RETURN_PAIR:
        return pair_moves(state, player_base(state[W_BIRD_LOSER]), moves)
    if phase == PHASE_BOON:
        kinds = boon_kinds(state[S_CELL + state[W_PLACED]])
        n = 0
        for k in range(3):
            if (kinds >> k) & 1:
                moves[n] = BOON_BASE + k
                n += 1
        return n
    return 0


@njit(cache=True)
def chance_outcomes(state, moves, probs):
    """The next card drawn from the hidden deck: colour c with probability deck[c] / size."""
    if state[W_PHASE] != PHASE_DRAW:
        return 0
    size = state[W_DECK_SIZE]
    n = 0
    for c in range(NCOLOURS):
        k = state[W_DECK + c]
        if k > 0:
            moves[n] = DRAW_BASE + c
            probs[n] = k / size
            n += 1
    return n


@njit(cache=True)
def sample_chance(state, rng):
    """A draw from the hidden deck, each card alike."""
    k = below(rng, state[W_DECK_SIZE])
    for c in range(NCOLOURS):
        k -= state[W_DECK + c]
        if k < 0:
            return DRAW_BASE + c
    return -1


@njit(cache=True)
def random_move(state, rng, moves):
    """A uniformly random legal move of the player to act."""
    return moves[below(rng, legal_moves(state, moves))]
