"""The Auspicious Beasts: guards, who holds each beast, and what changing hands does.

Checked after the boons in the order Tortoise, Dragon, Tiger, Bird (docs/azure.md).
Guards are popcounts: the Azure and White mountains count the stones in their line
of sight (the Black-mountain stone included), the Black mountain the stones on
serpent spaces, the Vermillion mountain the stones in the Vermillion domain.
"""

from tessera.kernels.azure.bits import bit, count
from tessera.kernels.azure.layout import (
    AZURE,
    BIRD_CARDS,
    BLACK,
    DRAGON_POINTS,
    FAVORED,
    FIRST_GUARDS,
    NOBODY,
    P_GIFTED,
    P_STONES,
    P_SUPPLY,
    S_DOMAIN,
    S_GIFTED,
    S_MOUNTAIN,
    S_SERPENTS,
    S_SIGHT,
    TIGER_POINTS,
    VERMILLION,
    W_BIRD_LOSER,
    W_BLACK_STONE,
    W_DRAW_FOR,
    W_DRAWS,
    W_HOLDER,
    WHITE,
)
from tessera.kernels.azure.state import gain_points, lose_points, player_base
from tessera.kernels.jit import njit


@njit(cache=True)
def guard_mask(state, colour):
    """The cells whose stones guard the mountain of ``colour``."""
    if colour == BLACK:
        return state[S_SERPENTS]
    if colour == VERMILLION:
        return state[S_DOMAIN + VERMILLION]
    return state[S_SIGHT + state[S_MOUNTAIN + colour]]


@njit(cache=True)
def favoured(state, base, mask):
    """1 when the Favored gifted stone of the player at ``base`` guards ``mask``'s mountain."""
    if state[S_GIFTED] != FAVORED:
        return 0
    gifted = state[base + P_GIFTED]
    if gifted == NOBODY:
        return 0
    return (mask >> gifted) & 1


@njit(cache=True)
def contest(holder, g0, g1, f0, f1):
    """Who holds a beast after a check: guards g0, g1; f0, f1 the Favored tie-breaks.

    Unclaimed: a player with at least two guards and more than the opponent (or as
    many, with the tie-break). Held: the opponent with more guards (or as many, with
    the tie-break) takes it.
    """
    t0 = g0 > g1 or (g0 == g1 and f0 > f1)
    t1 = g1 > g0 or (g1 == g0 and f1 > f0)
    if holder == NOBODY:
        if t0 and g0 >= FIRST_GUARDS:
            return 0
        if t1 and g1 >= FIRST_GUARDS:
            return 1
        return NOBODY
    if holder == 0:
        return 1 if t1 else 0
    return 0 if t0 else 1


@njit(cache=True)
def new_holder(state, colour):
    mask = guard_mask(state, colour)
    b0 = player_base(0)
    b1 = player_base(1)
    return contest(
        state[W_HOLDER + colour],
        count(state[b0 + P_STONES] & mask),
        count(state[b1 + P_STONES] & mask),
        favoured(state, b0, mask),
        favoured(state, b1, mask),
    )


@njit(cache=True)
def move_black_stone(state, loser, taker):
    """The Tortoise changes hands: the loser's Black-mountain stone goes back to their supply,
    the taker puts one from their supply there (none if it is empty)."""
    cell_bit = bit(state[S_MOUNTAIN + BLACK])
    if loser != NOBODY and state[W_BLACK_STONE] == loser:
        base = player_base(loser)
        state[base + P_STONES] &= ~cell_bit
        state[base + P_SUPPLY] += 1
    state[W_BLACK_STONE] = NOBODY
    base = player_base(taker)
    if state[base + P_SUPPLY] > 0:
        state[base + P_STONES] |= cell_bit
        state[base + P_SUPPLY] -= 1
        state[W_BLACK_STONE] = taker


@njit(cache=True)
def check_beasts(state):
    """Check the four beasts in order; return True if the game ended (a player reached 25).

    A Bird changing hands leaves its draws in ``W_DRAWS`` for ``W_DRAW_FOR`` and the loser,
    who returns two cards after them, in ``W_BIRD_LOSER``.
    """
    holder = state[W_HOLDER + BLACK]
    taker = new_holder(state, BLACK)
    if taker != holder:
        state[W_HOLDER + BLACK] = taker
        move_black_stone(state, holder, taker)
    for colour, points in ((AZURE, DRAGON_POINTS), (WHITE, TIGER_POINTS)):
        holder = state[W_HOLDER + colour]
        taker = new_holder(state, colour)
        if taker != holder:
            state[W_HOLDER + colour] = taker
            if holder != NOBODY:
                lose_points(state, holder, points)
            if gain_points(state, taker, points):
                return True
    holder = state[W_HOLDER + VERMILLION]
    taker = new_holder(state, VERMILLION)
    if taker != holder:
        state[W_HOLDER + VERMILLION] = taker
        state[W_DRAW_FOR] = taker
        state[W_DRAWS] = BIRD_CARDS
        state[W_BIRD_LOSER] = holder
    return False
