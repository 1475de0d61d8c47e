"""Hand features of an Azure move for a learned policy (docs/learning.md, "Move priors").

``move_features(state, moves, n, out)`` writes ``N_POLICY_FEATURES`` float64 values for each
of the ``n`` moves of the player to move, one row a move; a policy is a weight vector over
them, as for Azul (``tessera.kernels.azul.policy``). IS-MCTS computes them on each
determinization, so, like the move heuristic, they read only what the mover knows: their
own hand, the public realm and decks, the opponent's stones and hand size.

The features are the move heuristic's terms taken apart (``heuristic``: its
``placement_gains`` and ``beast_terms``, each computed once), with the heuristic itself
first, so a policy can start from it, and a few things the heuristic does not weigh: the mover's and
the opponent's bonds toward the space, and the mountains that space guards. A placement
sets the placement features, a choice (a boon, a Cosmos card taken or given back, the
Bird's pair) its kind's and ``hand_colour``; chance moves set none.
"""

from tessera.kernels.azure.heuristic import (
    WIN_BONUS,
    beast_terms,
    choice_value,
    gains_value,
    mountain_guards,
    placement_gains,
    with_beasts,
)
from tessera.kernels.azure.layout import (
    BOON_BASE,
    BOON_QI,
    BOON_WISDOM,
    DRAW_BASE,
    GIFTED_BASE,
    NCOLOURS,
    P_HAND,
    P_SCORE,
    PAIR_BASE,
    RETURN_BASE,
    S_GIFTED,
    TAKE_BASE,
    W_BIRD_LOSER,
    W_TURN,
    WIN_SCORE,
)
from tessera.kernels.azure.moves import bonds
from tessera.kernels.azure.state import player_base
from tessera.kernels.jit import njit

POLICY_FEATURE_NAMES = (
    "heuristic",  # the move heuristic (heuristic.move_heuristic), in its units
    "placement",  # 1 for a stone placed
    "gifted",  # 1 for the gifted stone
    "wisdom",  # the space's wisdom symbols: its points
    "qi",  # qi cards it draws from the face-up row
    "paid",  # cards it pays (its cost less the mover's bonds)
    "bonds",  # the mover's bonds toward the space
    "their_bonds",  # the opponent's bonds toward it: what taking it keeps from them
    "cosmos_steps",  # the Yellow Dragon's steps it brings (Cosmos)
    "wins",  # 1 when its wisdom reaches 25
    "guarded",  # mountains whose guards the space is among
    "defended",  # worth of the held beasts it keeps (one more opposing stone takes them)
    "progressed",  # worth of the beasts it draws level with or ahead on
    "beast_points",  # the Dragon's and Tiger's points it takes
    "tortoise",  # 1 when it takes the Tortoise
    "bird_cards",  # cards the Bird brings
    "stolen",  # beasts it takes from the opponent
    "boon_card",  # Bountiful's boon: a card
    "boon_point",  # a point
    "boon_step",  # a cosmos step
    "take_card",  # 1 for a Cosmos card taken
    "return_card",  # 1 for a card given back
    "return_pair",  # 1 for the Bird's two cards given back
    "hand_colour",  # the chooser's cards of the colour(s) it takes or gives back
)
N_POLICY_FEATURES = len(POLICY_FEATURE_NAMES)

(
    HEURISTIC,
    PLACEMENT,
    GIFTED,
    WISDOM,
    QI,
    PAID,
    BONDS,
    THEIR_BONDS,
    COSMOS_STEPS,
    WINS,
    GUARDED,
    DEFENDED,
    PROGRESSED,
    BEAST_POINTS,
    TORTOISE,
    BIRD_CARDS,
    STOLEN,
    BOON_CARD,
    BOON_POINT,
    BOON_STEP,
    TAKE_CARD,
    RETURN_CARD,
    RETURN_PAIR,
    HAND_COLOUR,
) = range(N_POLICY_FEATURES)


@njit(cache=True)
def move_features(state, moves, n, out):
    """``out[i, :]``: the features of ``moves[i]`` for i < n (``out``: float64
    [at least n, N_POLICY_FEATURES]), for the player to move."""
    guards = mountain_guards(state)
    for i in range(n):
        move = moves[i]
        for k in range(N_POLICY_FEATURES):
            out[i, k] = 0.0
        if move < BOON_BASE:
            placement_features(state, guards, move % GIFTED_BASE, move >= GIFTED_BASE, out[i])
        elif move < DRAW_BASE:
            out[i, HEURISTIC] = choice_value(state, move)
            choice_features(state, move, out[i])


@njit(cache=True, inline="always")
def placement_features(state, guards, cell, gifted, row):
    """A placement's features into ``row``, the heuristic put together from its terms as
    ``heuristic.placement_value_guarded`` does."""
    player = state[W_TURN]
    base = player_base(player)
    wisdom, qi, paid, bonded, steps = placement_gains(state, base, cell, gifted)
    wins = state[base + P_SCORE] + wisdom >= WIN_SCORE
    defended, progressed, points, tortoise, bird_cards, stolen = beast_terms(state, guards, cell, gifted)
    value = gains_value(wisdom, qi, paid, steps)
    if wins:
        row[HEURISTIC] = value + WIN_BONUS
    else:
        row[HEURISTIC] = with_beasts(value, defended, progressed, points, tortoise, bird_cards)
    row[PLACEMENT] = 1.0
    row[GIFTED] = 1.0 if gifted else 0.0
    row[WISDOM] = wisdom
    row[QI] = qi
    row[PAID] = paid
    row[BONDS] = bonded
    row[THEIR_BONDS] = bonds(state, player_base(1 - player), cell, state[S_GIFTED])
    row[COSMOS_STEPS] = steps
    row[WINS] = 1.0 if wins else 0.0
    for colour in range(NCOLOURS):
        row[GUARDED] += (guards[colour] >> cell) & 1
    row[DEFENDED] = defended
    row[PROGRESSED] = progressed
    row[BEAST_POINTS] = points
    row[TORTOISE] = tortoise
    row[BIRD_CARDS] = bird_cards
    row[STOLEN] = stolen


@njit(cache=True, inline="always")
def choice_features(state, move, row):
    """A choice's features but the heuristic (a boon, a card taken or given back, the
    Bird's pair), into ``row``: its kind, and the cards of its colours that the hand the
    heuristic reads holds."""
    player = state[W_TURN]
    if move >= PAIR_BASE:
        hand = player_base(state[W_BIRD_LOSER]) + P_HAND
        code = move - PAIR_BASE
        row[RETURN_PAIR] = 1.0
        row[HAND_COLOUR] = state[hand + code // NCOLOURS] + state[hand + code % NCOLOURS]
    elif move >= RETURN_BASE:
        row[RETURN_CARD] = 1.0
        row[HAND_COLOUR] = state[player_base(1 - player) + P_HAND + move - RETURN_BASE]
    elif move >= TAKE_BASE:
        row[TAKE_CARD] = 1.0
        row[HAND_COLOUR] = state[player_base(player) + P_HAND + move - TAKE_BASE]
    else:
        kind = move - BOON_BASE
        if kind == BOON_QI:
            row[BOON_CARD] = 1.0
        elif kind == BOON_WISDOM:
            row[BOON_POINT] = 1.0
        else:
            row[BOON_STEP] = 1.0
