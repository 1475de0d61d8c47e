"""Applying moves, and the turn pipeline of docs/azure.md.

A turn is a placement; ``advance`` then plays every forced step itself, in order,
and stops at the next real decision (a phase with at least two moves), at a draw
from the hidden deck (chance), or at the end of the game:

    STEP_BOON         Bountiful's extra boon
    STEP_TAKE         Cosmos cards of choice the mover takes
    STEP_RETURN       Cosmos cards of choice the opponent returns
    STEP_BEASTS       Tortoise, Dragon, Tiger, Bird
    STEP_BIRD_DRAW    the Bird's taker draws two cards (chance)
    STEP_BIRD_RETURN  the Bird's loser returns two cards
    STEP_END          the turn passes; a player who cannot place loses

``W_STEP`` is the step a decision or draw resumes at. The starting hands are
drawn at ``STEP_SETUP`` before the first turn.
"""

from tessera.kernels.azure.beasts import check_beasts
from tessera.kernels.azure.bits import bit
from tessera.kernels.azure.cosmos import move_dragon
from tessera.kernels.azure.layout import (
    BOON_BASE,
    BOON_COSMOS,
    BOON_QI,
    BOON_WISDOM,
    BOUNTIFUL,
    CELL_COSMOS,
    CELL_COST,
    CELL_DOMAIN,
    CELL_QI,
    CELL_QI_COLOUR,
    CELL_WISDOM,
    DRAW_BASE,
    GIFTED_BASE,
    GRID,
    HAND_START,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_STONES,
    P_SUPPLY,
    PAIR_BASE,
    PHASE_BOON,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_RETURN,
    PHASE_RETURN_PAIR,
    PHASE_TAKE,
    RETURN_BASE,
    S_CELL,
    S_GIFTED,
    STEP_BEASTS,
    STEP_BIRD_DRAW,
    STEP_BIRD_RETURN,
    STEP_BOON,
    STEP_END,
    STEP_RETURN,
    STEP_SETUP,
    STEP_TAKE,
    TAKE_BASE,
    W_BIRD_LOSER,
    W_DECK_SIZE,
    W_DRAW_FOR,
    W_DRAWS,
    W_FACEUP,
    W_PHASE,
    W_PLACED,
    W_RETURNS,
    W_STEP,
    W_TAKES,
    W_TURN,
    W_WINNER,
)
from tessera.kernels.azure.moves import GIFTED_EXTRA, bonds, boon_kinds, can_place, field, sample_chance
from tessera.kernels.azure.state import draw_card, gain_points, give_back, player_base, take_faceup
from tessera.kernels.jit import njit


@njit(cache=True)
def apply_move(state, move):
    """Play ``move`` (assumed legal) in place, then every forced step up to the next decision."""
    if move < BOON_BASE:
        if move < GIFTED_BASE:
            place(state, move, False)
        else:
            place(state, move - GIFTED_BASE, True)
        return
    if move >= DRAW_BASE:
        state[W_DRAWS] -= 1
        draw_card(state, state[W_DRAW_FOR], move - DRAW_BASE)
    elif move >= PAIR_BASE:
        code = move - PAIR_BASE
        base = player_base(state[W_BIRD_LOSER])
        give_back(state, base, code // NCOLOURS, 1)
        give_back(state, base, code % NCOLOURS, 1)
        state[W_BIRD_LOSER] = NOBODY
        state[W_STEP] = STEP_END
    elif move >= RETURN_BASE:
        give_back(state, player_base(1 - state[W_TURN]), move - RETURN_BASE, 1)
        state[W_RETURNS] -= 1
    elif move >= TAKE_BASE:
        take_faceup(state, player_base(state[W_TURN]), move - TAKE_BASE, 1)
        state[W_TAKES] -= 1
    else:
        if extra_boon(state, move - BOON_BASE):
            return
        state[W_STEP] = STEP_TAKE
    advance(state)


@njit(cache=True)
def place(state, cell, gifted):
    """Place and pay, take the boons (qi, wisdom, cosmos), then the rest of the turn."""
    player = state[W_TURN]
    base = player_base(player)
    card = state[S_GIFTED]
    packed = state[S_CELL + cell]
    cost = field(packed, CELL_COST) - bonds(state, base, cell, card)
    if gifted:
        cost += GIFTED_EXTRA[card]
        state[base + P_GIFTED] = cell
    else:
        state[base + P_SUPPLY] -= 1
    if cost > 0:
        give_back(state, base, field(packed, CELL_DOMAIN), cost)
    state[base + P_STONES] |= bit(cell)
    state[W_PLACED] = cell
    qi = field(packed, CELL_QI)
    if qi > 0:
        take_faceup(state, base, field(packed, CELL_QI_COLOUR), qi)
    wisdom = field(packed, CELL_WISDOM)
    if wisdom > 0 and gain_points(state, player, wisdom):
        return
    cosmos = field(packed, CELL_COSMOS)
    if cosmos > 0 and move_dragon(state, player, cosmos):
        return
    state[W_STEP] = STEP_BOON
    advance(state)


@njit(cache=True)
def extra_boon(state, kind):
    """Bountiful: one more symbol of the space's; return True if the game ended."""
    player = state[W_TURN]
    if kind == BOON_QI:
        packed = state[S_CELL + state[W_PLACED]]
        take_faceup(state, player_base(player), field(packed, CELL_QI_COLOUR), 1)
        return False
    if kind == BOON_WISDOM:
        return gain_points(state, player, 1)
    return move_dragon(state, player, 1)


@njit(cache=True)
def bountiful_kinds(state):
    """The boon kinds Bountiful offers this turn (0: none): a common stone placed next to
    (diagonals included) the mover's own gifted stone."""
    if state[S_GIFTED] != BOUNTIFUL:
        return 0
    gifted = state[player_base(state[W_TURN]) + P_GIFTED]
    placed = state[W_PLACED]
    if gifted == NOBODY or gifted == placed:
        return 0
    if abs(gifted // GRID - placed // GRID) > 1 or abs(gifted % GRID - placed % GRID) > 1:
        return 0
    return boon_kinds(state[S_CELL + placed])


@njit(cache=True)
def advance(state):
    """Play the forced steps from ``W_STEP`` on; stop at a decision, a draw, or the end."""
    step = state[W_STEP]
    turn = state[W_TURN]
    if step == STEP_SETUP:
        if state[W_DRAWS] == 0 and state[W_DRAW_FOR] == 0:
            state[W_DRAW_FOR] = 1
            state[W_DRAWS] = HAND_START[1]
        if state[W_DRAWS] > 0 and state[W_DECK_SIZE] > 0:
            state[W_PHASE] = PHASE_DRAW
            return
        state[W_DRAWS] = 0
        start_turn(state, 0)
        return
    if step == STEP_BOON:
        kinds = bountiful_kinds(state)
        if kinds != 0:
            if kinds & (kinds - 1):
                state[W_PHASE] = PHASE_BOON
                return
            kind = BOON_QI if kinds == 1 << BOON_QI else (BOON_WISDOM if kinds == 1 << BOON_WISDOM else BOON_COSMOS)
            state[W_STEP] = STEP_TAKE
            if extra_boon(state, kind):
                return
        step = STEP_TAKE
        state[W_STEP] = STEP_TAKE
    if step == STEP_TAKE:
        while state[W_TAKES] > 0:
            colour = single_colour(state, W_FACEUP)
            if colour == NOBODY:
                state[W_TAKES] = 0
            elif colour >= 0:
                take_faceup(state, player_base(turn), colour, 1)
                state[W_TAKES] -= 1
            else:
                state[W_PHASE] = PHASE_TAKE
                return
        step = STEP_RETURN
        state[W_STEP] = STEP_RETURN
    if step == STEP_RETURN:
        base = player_base(1 - turn)
        while state[W_RETURNS] > 0:
            colour = single_colour(state, base + P_HAND)
            if colour == NOBODY:
                state[W_RETURNS] = 0
            elif colour >= 0:
                give_back(state, base, colour, 1)
                state[W_RETURNS] -= 1
            else:
                state[W_PHASE] = PHASE_RETURN
                return
        step = STEP_BEASTS
        state[W_STEP] = STEP_BEASTS
    if step == STEP_BEASTS:
        if check_beasts(state):
            return
        step = STEP_BIRD_DRAW
        state[W_STEP] = STEP_BIRD_DRAW
    if step == STEP_BIRD_DRAW:
        if state[W_DRAWS] > 0:
            if state[W_DECK_SIZE] > 0:
                state[W_PHASE] = PHASE_DRAW
                return
            state[W_DRAWS] = 0
        step = STEP_BIRD_RETURN
        state[W_STEP] = STEP_BIRD_RETURN
    if step == STEP_BIRD_RETURN:
        loser = state[W_BIRD_LOSER]
        if loser != NOBODY:
            base = player_base(loser)
            if state[base + P_HAND_SIZE] <= 2:
                for c in range(NCOLOURS):
                    held = state[base + P_HAND + c]
                    if held > 0:
                        give_back(state, base, c, held)
            else:
                colour = single_colour(state, base + P_HAND)
                if colour < 0:
                    state[W_PHASE] = PHASE_RETURN_PAIR
                    return
                give_back(state, base, colour, 2)
            state[W_BIRD_LOSER] = NOBODY
    state[W_STEP] = STEP_END
    start_turn(state, 1 - turn)


@njit(cache=True)
def single_colour(state, first_word):
    """For a pile of four colour words: NOBODY if it is empty, the colour if it holds one
    colour only, else -2 (a choice)."""
    found = NOBODY
    for c in range(NCOLOURS):
        if state[first_word + c] > 0:
            if found != NOBODY:
                return -2
            found = c
    return found


@njit(cache=True)
def start_turn(state, player):
    """``player``'s turn: they place, or lose at once if they cannot."""
    state[W_TURN] = player
    state[W_PLACED] = NOBODY
    state[W_STEP] = STEP_END
    if can_place(state, player):
        state[W_PHASE] = PHASE_PLACE
    else:
        state[W_WINNER] = 1 - player
        state[W_PHASE] = PHASE_OVER


@njit(cache=True)
def resolve_chance(state, rng):
    """Draw from the hidden deck at random until a player acts or the game ends."""
    while state[W_PHASE] == PHASE_DRAW:
        state[W_DRAWS] -= 1
        draw_card(state, state[W_DRAW_FOR], sample_chance(state, rng) - DRAW_BASE)
        advance(state)
