"""A cheap score of one Azure move, read off the position without playing it.

In points, from the mover's side, reading only what the mover knows (their own
hand, the public realm, the face-up decks and the opponent's hand size), so
greedy rollouts and priors are not clairvoyant:

- a placement: the wisdom it scores, ``CARD_VALUE`` per qi card it gains less per
  card it pays, ``DRAGON_STEP_VALUE`` per cosmos step, plus the beasts it would take
  (Dragon 3, Tiger 2, doubled when taken from the opponent; the Tortoise
  ``TORTOISE_VALUE``; the Bird two cards, and the cards the opponent gives back when
  taken from them), and ``WIN_BONUS`` when its wisdom alone reaches 25;
- a placement that guards a beast without taking it: ``DEFEND`` of the beast's worth
  (``BEAST_WORTH``, what a swing of it costs) when the mover holds it and one more
  stone of the opponent's would take it, ``PROGRESS`` of it when the mover is then level
  with or ahead of the opponent's guards, so that the next stone takes it;
- Bountiful's boon: a card, a point or a cosmos step;
- a Cosmos card taken: a card (slightly more for a colour the mover holds few of);
  a card returned: minus a card (slightly less for a colour held many of); the Bird's
  pair likewise;
- chance moves: 0.
The Tortoise's knock-on effect on the Dragon and Tiger is not looked at.
"""

import numpy as np

from tessera.kernels.azure.beasts import guard_mask
from tessera.kernels.azure.bits import count
from tessera.kernels.azure.layout import (
    AZURE,
    BLACK,
    BOON_BASE,
    BOON_QI,
    BOON_WISDOM,
    CELL_COSMOS,
    CELL_COST,
    CELL_QI,
    CELL_QI_COLOUR,
    CELL_WISDOM,
    DRAGON_POINTS,
    DRAW_BASE,
    FAVORED,
    FIRST_GUARDS,
    GIFTED_BASE,
    NCOLOURS,
    NOBODY,
    P_GIFTED,
    P_HAND,
    P_HAND_SIZE,
    P_SCORE,
    P_STONES,
    PAIR_BASE,
    RETURN_BASE,
    S_CELL,
    S_GIFTED,
    TAKE_BASE,
    TIGER_POINTS,
    VERMILLION,
    W_BIRD_LOSER,
    W_FACEUP,
    W_HOLDER,
    W_TURN,
    WHITE,
    WIN_SCORE,
)
from tessera.kernels.azure.moves import GIFTED_EXTRA, bonds, field
from tessera.kernels.azure.state import player_base
from tessera.kernels.jit import njit

CARD_VALUE = 0.5
DRAGON_STEP_VALUE = 0.5
TORTOISE_VALUE = 1.5
WIN_BONUS = 10.0
COLOUR_NUDGE = 0.01
# The guard terms: a stone that keeps a held beast one more opposing stone would take
# (DEFEND, a share of its swing), and one that draws level with or ahead of the
# opponent's guards so the next stone takes it (PROGRESS). With the exploration of 0.7
# Azure searches with (solver/search/mcts.py) they made Azure's search clearly stronger;
# doubling either did not help (results/strength/README.md, "Azure's search tuned").
DEFEND = 0.5
PROGRESS = 0.25


# What a beast changing hands is worth, in points of margin (a Dragon: +3 to one, -3 to the other).
BEAST_WORTH = np.zeros(NCOLOURS, np.float64)
BEAST_WORTH[AZURE] = 2 * DRAGON_POINTS
BEAST_WORTH[WHITE] = 2 * TIGER_POINTS
BEAST_WORTH[BLACK] = TORTOISE_VALUE
BEAST_WORTH[VERMILLION] = 2 * CARD_VALUE


@njit(cache=True)
def move_heuristic(state, move):
    if move < BOON_BASE:
        return placement_value(state, move % GIFTED_BASE, move >= GIFTED_BASE)
    return choice_value(state, move)


@njit(cache=True)
def choice_value(state, move):
    """The heuristic of a move that is no placement: a boon, a card taken or returned, a
    chance draw."""
    if move >= DRAW_BASE:
        return 0.0
    player = state[W_TURN]
    if move >= PAIR_BASE:
        return pair_value(state, move - PAIR_BASE)
    if move >= RETURN_BASE:
        base = player_base(1 - player)
        return -CARD_VALUE + COLOUR_NUDGE * state[base + P_HAND + move - RETURN_BASE]
    if move >= TAKE_BASE:
        base = player_base(player)
        return CARD_VALUE - COLOUR_NUDGE * state[base + P_HAND + move - TAKE_BASE]
    kind = move - BOON_BASE
    if kind == BOON_QI:
        return CARD_VALUE
    if kind == BOON_WISDOM:
        return 1.0
    return DRAGON_STEP_VALUE


@njit(cache=True)
def pair_value(state, code):
    base = player_base(state[W_BIRD_LOSER])
    lo = code // NCOLOURS
    hi = code % NCOLOURS
    return -2 * CARD_VALUE + COLOUR_NUDGE * (state[base + P_HAND + lo] + state[base + P_HAND + hi])


@njit(cache=True)
def move_heuristics(state, moves, n, out):
    """``out[i]``: ``move_heuristic(state, moves[i])`` for i < n, in one call a position
    (MCTS's priors and greedy rollouts): the same values. Placements, the bulk of the
    moves, share the guard masks of the four mountains, read once."""
    guards = mountain_guards(state)
    for i in range(n):
        move = moves[i]
        if move < BOON_BASE:
            out[i] = placement_value_guarded(state, guards, move % GIFTED_BASE, move >= GIFTED_BASE)
        else:
            out[i] = choice_value(state, move)  # not move_heuristic: one copy of the placements


@njit(cache=True, inline="always")
def mountain_guards(state):
    """Each mountain's ``guard_mask``, by colour."""
    return (guard_mask(state, 0), guard_mask(state, 1), guard_mask(state, 2), guard_mask(state, 3))


@njit(cache=True)
def placement_value(state, cell, gifted):
    return placement_value_guarded(state, mountain_guards(state), cell, gifted)


@njit(cache=True, inline="always")
def placement_value_guarded(state, guards, cell, gifted):
    """``placement_value`` given the mountains' guard masks (``mountain_guards``)."""
    base = player_base(state[W_TURN])
    wisdom, qi, paid, _, steps = placement_gains(state, base, cell, gifted)
    value = gains_value(wisdom, qi, paid, steps)
    if state[base + P_SCORE] + wisdom >= WIN_SCORE:
        return value + WIN_BONUS
    defended, progressed, points, tortoise, bird_cards, _ = beast_terms(state, guards, cell, gifted)
    return with_beasts(value, defended, progressed, points, tortoise, bird_cards)


@njit(cache=True, inline="always")
def placement_gains(state, base, cell, gifted):
    """What a placement on ``cell`` by the player at ``base`` gains and costs before the
    beasts: ``(wisdom, qi, paid, bonds, steps)``, the space's wisdom, the qi cards it draws
    from the face-up row, the cards it pays, the player's bonds toward it and the cosmos
    steps it brings."""
    card = state[S_GIFTED]
    packed = state[S_CELL + cell]
    bonded = bonds(state, base, cell, card)
    cost = field(packed, CELL_COST) + (GIFTED_EXTRA[card] if gifted else 0)
    qi = min(field(packed, CELL_QI), state[W_FACEUP + field(packed, CELL_QI_COLOUR)])
    return field(packed, CELL_WISDOM), qi, max(0, cost - bonded), bonded, field(packed, CELL_COSMOS)


@njit(cache=True, inline="always")
def gains_value(wisdom, qi, paid, steps):
    """The heuristic's value of ``placement_gains``' terms, in points."""
    return wisdom + CARD_VALUE * (qi - paid) + DRAGON_STEP_VALUE * steps


@njit(cache=True, inline="always")
def with_beasts(value, defended, progressed, points, tortoise, bird_cards):
    """``value`` plus the heuristic's value of ``beast_terms``' terms."""
    return (
        value + DEFEND * defended + PROGRESS * progressed + points + TORTOISE_VALUE * tortoise + CARD_VALUE * bird_cards
    )


@njit(cache=True, inline="always")
def beast_terms(state, guards, cell, gifted):
    """What a placement on ``cell`` does to the beasts whose mountains guard it, for the
    player to move: ``(defended, progressed, points, tortoise, bird_cards, stolen)``, the
    summed ``BEAST_WORTH`` of the held beasts it keeps (one more opposing stone would take
    them) and of those it draws level with or ahead on, the Dragon's and Tiger's points it
    takes, 1 when it takes the Tortoise, the cards the Bird brings (two, and up to two
    the opponent gives back), and the beasts it takes from the opponent."""
    player = state[W_TURN]
    base = player_base(player)
    other = player_base(1 - player)
    card = state[S_GIFTED]
    mine = state[base + P_STONES]
    theirs = state[other + P_STONES]
    my_gifted = state[base + P_GIFTED]
    their_gifted = state[other + P_GIFTED]
    defended = progressed = 0.0
    points = tortoise = bird_cards = stolen = 0
    for colour in range(NCOLOURS):
        mask = guards[colour]
        if not (mask >> cell) & 1:
            continue
        holder = state[W_HOLDER + colour]
        g_me = count(mine & mask) + 1
        g_them = count(theirs & mask)
        worth = BEAST_WORTH[colour]
        if holder == player:
            if g_them >= g_me - 1:  # one more of theirs would take it: this stone keeps it
                defended += worth
            continue
        tie_mine = card == FAVORED and (gifted or (my_gifted != NOBODY and (mask >> my_gifted) & 1))
        tie_theirs = card == FAVORED and their_gifted != NOBODY and (mask >> their_gifted) & 1
        wins = g_me > g_them or (g_me == g_them and tie_mine and not tie_theirs)
        if not wins or (holder == NOBODY and g_me < FIRST_GUARDS):
            if g_me >= g_them:  # level or ahead: the next stone here takes it
                progressed += worth
            continue
        taken = holder != NOBODY
        if taken:
            stolen += 1
        if colour == AZURE:
            points += DRAGON_POINTS * (2 if taken else 1)
        elif colour == WHITE:
            points += TIGER_POINTS * (2 if taken else 1)
        elif colour == BLACK:
            tortoise = 1
        elif colour == VERMILLION:
            bird_cards += 2
            if taken:
                bird_cards += min(2, state[other + P_HAND_SIZE])
    return defended, progressed, points, tortoise, bird_cards, stolen
