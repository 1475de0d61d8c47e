"""Azure's hidden information: known cards, players' views and determinizations.

docs/azure.md (hidden information): a view keeps the observer's hand, the opponent's
known cards and hand size, the deck's size and everything public; ``determinize``
deals the opponent's unknown cards uniformly from the cards the observer cannot
place and puts the rest in the hidden deck.
"""

import math
from collections import Counter
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.kernels import azure, games
from tessera.kernels.azure.layout import (
    CARDS_PER_COLOUR,
    CELL_DOMAIN,
    CELL_QI,
    CELL_QI_COLOUR,
    DRAW_BASE,
    FAVORED,
    GIFTED_BASE,
    HIDDEN,
    NCOLOURS,
    NOBODY,
    P_HAND,
    P_HAND_SIZE,
    P_KNOWN,
    PLAYERS,
    S_CELL,
    W_DECK,
    W_DECK_SIZE,
    W_DRAW_FOR,
    W_FACEUP,
    W_VIEW,
    player_word,
)
from tessera.kernels.azure.setup import deal_new_game
from tessera.kernels.rng import make_rng
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import MctsOptions
from tests.test_azure_conformance import CONFIGURATIONS, check_azure_invariants

MOVES = np.empty(games.MAX_MOVES, np.int64)


def played(options, seed, plies):
    """A complete position after ``plies`` random moves (chance included) from a new game."""
    state = deal_new_game(seed, **options)
    rng = make_rng(seed)
    for _ in range(plies):
        who = games.to_move(state)
        if who == games.TERMINAL:
            break
        games.apply_move(
            state, games.sample_chance(state, rng) if who == games.CHANCE else games.random_move(state, rng, MOVES)
        )
    return state


def view_of(state, observer):
    out = np.empty_like(state)
    azure.view(state, observer, out)
    return out


def hand(state, p, offset=P_HAND):
    return [int(state[player_word(p, offset + c)]) for c in range(NCOLOURS)]


def hidden_words(observer):
    """The words a view may not show as they are: the opponent's hand and the deck's colours."""
    other = 1 - observer
    return {W_VIEW} | {player_word(other, P_HAND + c) for c in range(NCOLOURS)} | {W_DECK + c for c in range(NCOLOURS)}


def unseen(view, observer):
    other = 1 - observer
    return [
        CARDS_PER_COLOUR - int(view[W_FACEUP + c]) - hand(view, observer)[c] - hand(view, other, P_KNOWN)[c]
        for c in range(NCOLOURS)
    ]


# ---- views --------------------------------------------------------------------------


def test_a_view_shows_the_own_hand_and_the_opponents_known_cards():
    state = played({}, 4, 30)
    for observer in range(PLAYERS):
        view = view_of(state, observer)
        other = 1 - observer
        assert view[W_VIEW] == observer
        assert not games.is_complete(view) and games.is_complete(state)
        assert hand(view, observer) == hand(state, observer)
        assert hand(view, other) == hand(state, other, P_KNOWN)
        assert view[player_word(other, P_HAND_SIZE)] == state[player_word(other, P_HAND_SIZE)]
        assert [view[W_DECK + c] for c in range(NCOLOURS)] == [HIDDEN] * NCOLOURS
        assert view[W_DECK_SIZE] == state[W_DECK_SIZE]
        same = [i for i in range(state.size) if i not in hidden_words(observer)]
        assert np.array_equal(view[same], state[same])


def test_at_setup_nothing_of_the_opponent_is_known():
    state = played({}, 9, 5)  # the five starting draws
    assert games.to_move(state) == 0
    for p in range(PLAYERS):
        assert hand(state, p, P_KNOWN) == [0] * NCOLOURS
        assert sum(hand(state, p)) == (2, 3)[p]
    view = view_of(state, 0)
    assert hand(view, 1) == [0] * NCOLOURS and view[player_word(1, P_HAND_SIZE)] == 3


def test_the_observers_moves_are_the_same_in_the_view():
    checked = 0
    for i, options in enumerate(CONFIGURATIONS):
        for plies in range(5, 60, 7):
            state = played(options, 100 * i + plies, plies)
            who = games.to_move(state)
            if who < 0:
                continue
            view = view_of(state, who)
            assert games.to_move(view) == who
            a = np.empty(games.MAX_MOVES, np.int64)
            n = games.legal_moves(state, a)
            assert games.legal_moves(view, MOVES) == n and np.array_equal(a[:n], MOVES[:n])
            checked += 1
    assert checked > 20


# ---- determinize --------------------------------------------------------------------


@st.composite
def azure_views(draw):
    options = CONFIGURATIONS[draw(st.integers(0, len(CONFIGURATIONS) - 1))]
    state = played(options, draw(st.integers(0, 2**32)), draw(st.integers(0, 90)))
    observer = draw(st.integers(0, 1))
    return state, observer, view_of(state, observer)


@settings(max_examples=60, deadline=None)
@given(case=azure_views(), seed=st.integers(0, 2**32))
def test_determinize_completes_the_view_consistently(case, seed):
    state, observer, view = case
    det = np.empty_like(view)
    games.determinize(view, observer, make_rng(seed), det)
    same = [i for i in range(view.size) if i not in hidden_words(observer)]
    assert np.array_equal(det[same], view[same])  # every known part kept
    other = 1 - observer
    assert all(a >= k for a, k in zip(hand(det, other), hand(view, other)))  # known cards kept
    assert games.is_complete(det) and det[W_VIEW] == NOBODY
    check_azure_invariants(det)  # 12 cards a colour, sizes
    assert np.array_equal(view_of(det, observer), view)  # the same view
    # The unknown cards and the deck are exactly the unseen cards.
    dealt = [hand(det, other)[c] - hand(det, other, P_KNOWN)[c] + int(det[W_DECK + c]) for c in range(NCOLOURS)]
    assert dealt == unseen(view, observer)
    rng = make_rng(seed)  # legal moves apply to the end
    while games.to_move(det) != games.TERMINAL:
        if games.to_move(det) == games.CHANCE:
            games.apply_move(det, games.sample_chance(det, rng))
        else:
            games.apply_move(det, games.random_move(det, rng, MOVES))
        check_azure_invariants(det)


def test_determinize_copies_a_complete_state():
    state = played({"gifted": FAVORED}, 3, 20)
    out = np.zeros_like(state)
    games.determinize(state, 0, make_rng(1), out)
    assert np.array_equal(out, state)


def hypergeometric(counts, k):
    """Exact probabilities of each colour split of ``k`` cards drawn from ``counts``."""
    total = math.comb(sum(counts), k)
    out = {}
    for split in product(*(range(min(n, k) + 1) for n in counts)):
        if sum(split) == k:
            out[split] = math.prod(math.comb(n, s) for n, s in zip(counts, split)) / total
    return out


def test_determinize_deals_the_unknown_cards_uniformly():
    """The opponent's unknown cards follow the hypergeometric split of the unseen cards."""
    state = played({}, 12, 5)  # after the starting draws
    view = view_of(state, 0)
    pool = unseen(view, 0)
    assert sum(pool) == 10 and view[player_word(1, P_HAND_SIZE)] == 3
    exact = hypergeometric(pool, 3)
    det = np.empty_like(view)
    rng = make_rng(5)
    draws = 20_000
    seen = Counter()
    for _ in range(draws):
        games.determinize(view, 0, rng, det)
        seen[tuple(hand(det, 1))] += 1
    assert set(seen) <= set(exact)
    for split, p in exact.items():
        assert abs(seen[split] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-3, split


def test_determinize_keeps_known_cards_and_deals_only_the_rest():
    state = played({}, 21, 40)
    other = 1
    state[player_word(other, P_KNOWN) : player_word(other, P_KNOWN) + NCOLOURS] = state[
        player_word(other, P_HAND) : player_word(other, P_HAND) + NCOLOURS
    ]  # all known
    view = view_of(state, 0)
    det = np.empty_like(view)
    for seed in range(20):
        games.determinize(view, 0, make_rng(seed), det)
        assert np.array_equal(det, state)  # nothing left to guess


# ---- known cards --------------------------------------------------------------------


def test_only_draws_add_unknown_cards():
    """Through random games a hand's unknown cards grow only by a draw for that player,
    one card at a time (a card taken face up is known)."""
    for seed in range(30):
        state = deal_new_game(seed, gifted=seed % 5, cosmos=seed % 3 == 0)
        rng = make_rng(seed)
        while games.to_move(state) != games.TERMINAL:
            before = state.copy()
            who = games.to_move(state)
            move = games.sample_chance(state, rng) if who == games.CHANCE else games.random_move(state, rng, MOVES)
            games.apply_move(state, move)
            if who == games.CHANCE and before[W_DECK_SIZE] == 1:
                continue  # the deck ran out: everything known
            for p in range(PLAYERS):
                grown = [
                    (h1 - k1) - (h0 - k0)
                    for h0, k0, h1, k1 in zip(
                        hand(before, p), hand(before, p, P_KNOWN), hand(state, p), hand(state, p, P_KNOWN)
                    )
                ]
                if who == games.CHANCE and p == before[W_DRAW_FOR]:
                    assert grown == [int(c == move - DRAW_BASE) for c in range(NCOLOURS)]
                else:
                    assert max(grown) <= 0


def test_a_payment_spends_known_cards_first():
    state = played({}, 31, 5)  # player 1 to place, nothing known
    moves = MOVES[: games.legal_moves(state, MOVES)].copy()
    for move in moves:
        cell = int(move)
        packed = int(state[S_CELL + cell])
        colour = (packed >> CELL_DOMAIN) & 15
        qi_colour = (packed >> CELL_QI_COLOUR) & 15 if (packed >> CELL_QI) & 15 else -1
        if move >= GIFTED_BASE or qi_colour == colour:
            continue
        after = state.copy()
        games.apply_move(after, move)
        paid = state[player_word(0, P_HAND + colour)] - after[player_word(0, P_HAND + colour)]
        if paid == 0:
            continue
        # Nothing was known: the unknown cards paid for it, and the qi cards gained are known.
        assert hand(after, 0, P_KNOWN)[colour] == 0
        if qi_colour >= 0:
            gained = after[player_word(0, P_HAND + qi_colour)] - state[player_word(0, P_HAND + qi_colour)]
            assert gained > 0 and hand(after, 0, P_KNOWN)[qi_colour] == gained
        # The same payment with one card of that colour known spends the known one.
        known = state.copy()
        known[player_word(0, P_KNOWN + colour)] = 1
        games.apply_move(known, move)
        assert hand(known, 0, P_KNOWN)[colour] == 0
        assert hand(known, 0) == hand(after, 0)
        return
    pytest.fail("no paying placement found")


def test_a_deck_running_out_makes_every_hand_known():
    """A hidden deck of two cards at setup: the start player's draws empty it, both hands
    become known and three cards of each colour make the new deck."""
    state = deal_new_game(2)
    state[W_FACEUP : W_FACEUP + NCOLOURS] += state[W_DECK : W_DECK + NCOLOURS]
    state[W_DECK : W_DECK + NCOLOURS] = [1, 0, 1, 0]
    state[W_FACEUP + 0] -= 1
    state[W_FACEUP + 2] -= 1
    state[W_DECK_SIZE] = 2
    games.apply_move(state, DRAW_BASE + 0)
    assert hand(state, 0, P_KNOWN) == [0] * NCOLOURS  # drawn, not known
    games.apply_move(state, DRAW_BASE + 2)  # the last card: the deck runs out
    assert hand(state, 0) == hand(state, 0, P_KNOWN) == [1, 0, 1, 0]
    assert [int(state[W_DECK + c]) for c in range(NCOLOURS)] == [3] * NCOLOURS
    assert state[W_DECK_SIZE] == 12 and games.to_move(state) == games.CHANCE
    check_azure_invariants(state)
    games.resolve_chance(state, make_rng(1))  # player 2's draws: unknown again
    assert hand(state, 1, P_KNOWN) == [0] * NCOLOURS and sum(hand(state, 1)) == 3
    view = view_of(state, 1)
    assert hand(view, 0) == [1, 0, 1, 0]  # player 1's cards stay known


def test_an_empty_deck_with_empty_face_up_decks_draws_nothing():
    state = deal_new_game(3)
    # Every card in the hands: 2 for the start player, the rest for the other.
    state[W_FACEUP : W_FACEUP + NCOLOURS] = 0
    state[W_DECK : W_DECK + NCOLOURS] = [1, 1, 0, 0]
    state[W_DECK_SIZE] = 2
    other = player_word(1, P_HAND)
    state[other : other + NCOLOURS] = [11, 11, 12, 12]
    state[player_word(1, P_HAND_SIZE)] = 46
    games.apply_move(state, DRAW_BASE + 0)
    games.apply_move(state, DRAW_BASE + 1)  # runs out; nothing to rebuild
    assert state[W_DECK_SIZE] == 0
    assert games.to_move(state) == 0  # player 2's draws are skipped
    check_azure_invariants(state)


# ---- searching a view ---------------------------------------------------------------


def test_a_search_from_a_view_ignores_the_opponents_hidden_cards():
    """Two positions that differ only in the opponent's unknown cards have the same view
    (so a search from it cannot tell them apart), and IS-MCTS runs on that view."""
    state = played({}, 7, 5)
    other = state.copy()
    base = player_word(1, P_HAND)
    # Swap one unknown card of player 2 with a different colour from the deck.
    mine = [c for c in range(NCOLOURS) if state[base + c] > state[player_word(1, P_KNOWN + c)]]
    theirs = [c for c in range(NCOLOURS) if state[W_DECK + c] > 0 and c != mine[0]]
    other[base + mine[0]] -= 1
    other[base + theirs[0]] += 1
    other[W_DECK + mine[0]] += 1
    other[W_DECK + theirs[0]] -= 1
    check_azure_invariants(other)
    a, b = view_of(state, 0), view_of(other, 0)
    assert np.array_equal(a, b) and not np.array_equal(state, other)
    options = MctsOptions(iterations=1500, seed=3)
    result = Ismcts(options).search(a)
    assert result.algo == "ismcts" and result.visits == 1500
    assert {m.move for m in result.moves} == set(MOVES[: games.legal_moves(state, MOVES)].tolist())
    assert np.array_equal(a, view_of(state, 0))  # the search left the view alone


def test_the_heuristic_and_evaluation_read_only_what_the_mover_knows():
    """Deals of the unseen cards that give the mover the same view give every move the
    same heuristic value and every position the same evaluation."""
    checked = 0
    for i, options in enumerate(CONFIGURATIONS):
        for plies in (5, 19, 33, 47):
            state = played(options, 7 * i + plies, plies)
            who = games.to_move(state)
            if who < 0:
                continue
            view = view_of(state, who)
            n = games.legal_moves(state, MOVES)
            values = [games.move_heuristic(state, m) for m in MOVES[:n]]
            ev = np.zeros(2)
            games.evaluate(state, ev)
            det = np.empty_like(state)
            for seed in range(5):
                games.determinize(view, who, make_rng(seed), det)
                assert [games.move_heuristic(det, m) for m in MOVES[:n]] == values
                other = np.zeros(2)
                games.evaluate(det, other)
                assert np.array_equal(other, ev)
            checked += 1
    assert checked > 10
