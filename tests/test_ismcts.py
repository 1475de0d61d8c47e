"""Information-set MCTS and the determinization hook, on the hidden-high-card toy and on Azul.

The toy's values are known exactly (docs/hidden-information.md): holding card h
of N, player 1's bet wins with probability (h - 1) / (N - 1) and its mean score
margin is (2h - N - 1) / (N - 1); a pass is a draw, 0.5 and margin 0.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.errors import TesseraError
from tessera.kernels import bind, games, toy
from tessera.kernels.arrays import sort_prefix
from tessera.kernels.rng import make_rng
from tessera.kernels.search import ismcts_layout as kernel
from tessera.kernels.toy.layout import (
    BET,
    CALL,
    DEAL_BASE,
    HIDDEN,
    MAX_CARDS,
    PASS,
    RAISE,
    W_CARDS,
    W_HAND,
)
from tessera.notation.azul import parse_move, parse_position
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import Mcts, MctsOptions
from tessera.search.value_model import NO_MODEL

N = 7


def dealt(mine, theirs, reply=False):
    """The complete toy position after the deal: player 1 holds ``mine``, player 2 ``theirs``."""
    state = toy.new_game(N, reply)
    games.apply_move(state, DEAL_BASE + mine)
    games.apply_move(state, DEAL_BASE + theirs)
    return state


def view_of(state, observer=0):
    out = np.empty_like(state)
    toy.view(state, observer, out)
    return out


# The toy's expectations are worked out for textbook UCT with the win value.
TEXTBOOK = {"select": "uct", "rollout": "random", "value": "win"}


def search(state, iterations=20_000, **options):
    return Ismcts(MctsOptions(iterations=iterations, **{**TEXTBOOK, **options})).search(state)


def line_for(result, move):
    return next(line for line in result.moves if line.move == move)


def bet_win_rate(card):
    return (card - 1) / (N - 1)


def bet_margin(card):
    return (2 * card - N - 1) / (N - 1)


# ---- the toy's rules ----------------------------------------------------------------


# The toy game's IS-MCTS compiles on first use (the package ships no toy kernels): the quick
# tier leaves its searches out, and searches IS-MCTS on Azure's views with the shipped kernels
# (tests/test_search_defaults.py, tests/test_ismcts_memory.py).
TOY_SEARCH = pytest.mark.long


def test_toy_rules_by_hand():
    state = dealt(5, 2, reply=True)
    moves = np.empty(games.MAX_MOVES, np.int64)
    assert games.to_move(state) == 0
    assert sorted(moves[: games.legal_moves(state, moves)]) == [PASS, BET]
    games.apply_move(state, BET)
    assert games.to_move(state) == 1
    assert list(moves[: games.legal_moves(state, moves)]) == [CALL]  # 2 is no raising card
    games.apply_move(state, CALL)
    out = np.zeros(4)
    games.payoffs(state, out)
    assert games.to_move(state) == games.TERMINAL and list(out[:2]) == [1.0, 0.0]

    state = dealt(3, 6, reply=True)
    games.apply_move(state, BET)
    assert sorted(moves[: games.legal_moves(state, moves)]) == [CALL, RAISE]
    games.apply_move(state, RAISE)
    games.scores(state, out)
    assert list(out[:2]) == [0, 2]

    state = dealt(3, 6)
    games.apply_move(state, PASS)
    games.payoffs(state, out)
    assert list(out[:2]) == [0.5, 0.5]


def test_toy_deal_is_uniform_over_the_cards_left():
    state = toy.new_game(N, False)
    games.apply_move(state, DEAL_BASE + 4)
    moves = np.empty(games.MAX_MOVES, np.int64)
    probs = np.empty(games.MAX_MOVES)
    n = games.chance_outcomes(state, moves, probs)
    assert sorted(moves[:n] - DEAL_BASE) == [1, 2, 3, 5, 6, 7]
    assert np.allclose(probs[:n], 1 / 6)


# ---- determinize --------------------------------------------------------------------


@st.composite
def toy_views(draw):
    """A toy position reached by random play, and the view of a random player."""
    state = toy.new_game(draw(st.integers(2, MAX_CARDS)), draw(st.booleans()))
    rng = make_rng(draw(st.integers(0, 2**32)))
    moves = np.empty(games.MAX_MOVES, np.int64)
    for _ in range(draw(st.integers(0, 4))):
        if games.to_move(state) == games.TERMINAL:
            break
        if games.to_move(state) == games.CHANCE:
            games.apply_move(state, games.sample_chance(state, rng))
        else:
            games.apply_move(state, games.random_move(state, rng, moves))
    observer = draw(st.integers(0, 1))
    return state, observer, view_of(state, observer)


@settings(max_examples=200, deadline=None)
@given(case=toy_views(), seed=st.integers(0, 2**32))
def test_determinize_completes_the_view_consistently(case, seed):
    state, observer, view = case
    det = np.empty_like(view)
    games.determinize(view, observer, make_rng(seed), det)
    hidden = [W_HAND + p for p in range(2) if view[W_HAND + p] == HIDDEN]
    known = [i for i in range(view.size) if i not in hidden]
    assert np.array_equal(det[known], view[known])  # the observer's knowledge kept
    assert games.is_complete(det) and games.is_complete(view) == (not hidden)
    hands = [int(det[W_HAND + p]) for p in range(2) if det[W_HAND + p] != 0]
    assert len(set(hands)) == len(hands) and all(1 <= c <= det[W_CARDS] for c in hands)
    assert np.array_equal(view_of(det, observer), view)  # the same view: a legal completion
    moves = np.empty(games.MAX_MOVES, np.int64)
    rng = make_rng(seed)
    while games.to_move(det) != games.TERMINAL:  # and it plays on to the end
        games.apply_move(
            det, games.random_move(det, rng, moves) if games.to_move(det) >= 0 else games.sample_chance(det, rng)
        )


def test_determinize_deals_the_hidden_card_uniformly():
    view = view_of(dealt(4, 2))
    rng = make_rng(5)
    det = np.empty_like(view)
    counts = {c: 0 for c in (1, 2, 3, 5, 6, 7)}
    for _ in range(6000):
        games.determinize(view, 0, rng, det)
        counts[int(det[W_HAND + 1])] += 1
    chi2 = sum((k - 1000) ** 2 / 1000 for k in counts.values())
    assert chi2 < 25  # 5 degrees of freedom, p < 1e-4


def test_determinize_copies_complete_states():
    from tessera.games import get_game

    azul_state = get_game("azul").new(7)
    for state in (dealt(4, 2), azul_state):
        out = np.zeros_like(state)
        games.determinize(state, 0, make_rng(1), out)
        assert games.is_complete(state) and np.array_equal(out, state)


# ---- IS-MCTS on the toy -------------------------------------------------------------


@TOY_SEARCH
@pytest.mark.parametrize("card, best", [(2, PASS), (3, PASS), (5, BET), (6, BET)])
def test_bets_a_high_card_and_passes_a_low_one(card, best):
    for reply in (False, True):
        assert search(view_of(dealt(card, 1, reply))).best.move == best


@TOY_SEARCH
def test_decision_ignores_the_hidden_card():
    low, high = view_of(dealt(6, 3)), view_of(dealt(6, 7))
    assert np.array_equal(low, high)
    a, b = search(low, seed=3), search(high, seed=3)
    assert [(m.move, m.visits, m.win_rate) for m in a.moves] == [(m.move, m.visits, m.win_rate) for m in b.moves]
    # Knowing the card (a complete state) the answer depends on it.
    assert search(dealt(6, 3)).best.move == BET
    assert search(dealt(6, 7)).best.move == PASS
    assert line_for(search(dealt(6, 7)), BET).win_rate == 0.0


@TOY_SEARCH
@pytest.mark.parametrize("card", range(1, N + 1))
def test_root_values_match_the_exact_expectation(card):
    """Wide exploration gives both root moves many visits, so both values are estimated well."""
    result = search(view_of(dealt(card, 2 if card == 1 else 1)), exploration=50.0, seed=card)
    bet, fold = line_for(result, BET), line_for(result, PASS)
    assert min(bet.visits, fold.visits) > 5000
    assert bet.win_rate == pytest.approx(bet_win_rate(card), abs=0.025)
    assert bet.margin == pytest.approx(bet_margin(card), abs=0.05)
    assert (fold.win_rate, fold.margin) == (0.5, 0.0)


@TOY_SEARCH
def test_availability_counts_a_reply_legal_in_some_determinizations():
    """Player 2 may raise only with a card above N // 2: legal in 3 of 6 deals against a 6."""
    card = 6
    nodes, stats, size = kernel.new_tree(100_000)
    prm = MctsOptions(iterations=1, **TEXTBOOK).kernel_params("toy")
    bind.instance("toy", "ismcts", TEXTBOOK["rollout"]).run_tree(
        nodes[0], stats[0], size[0], view_of(dealt(card, 1, reply=True)), 20_000, np.inf, prm, make_rng(2), NO_MODEL
    )
    tree = nodes[0]
    bet = child_with_move(tree, 0, BET)
    call, raise_ = child_with_move(tree, bet, CALL), child_with_move(tree, bet, RAISE)
    passes = tree[bet, kernel.VISITS] - 1  # the visit that added it stopped there
    assert tree[call, kernel.VISITS] + tree[raise_, kernel.VISITS] == passes
    assert passes - 1 <= tree[call, kernel.AVAIL] <= passes  # call is always legal
    assert tree[raise_, kernel.AVAIL] / passes == pytest.approx(3 / 6, abs=0.03)
    assert tree[raise_, kernel.VISITS] <= tree[raise_, kernel.AVAIL]
    # Whatever player 2 answers, the showdown's winner is the higher card.
    assert stats[0, bet, kernel.WIN] / tree[bet, kernel.VISITS] == pytest.approx(bet_win_rate(card), abs=0.02)


def child_with_move(tree, node, move):
    ids = np.empty(games.MAX_MOVES, np.int64)
    return next(
        c
        for c in ids[: bind.instance("toy", "ismcts", TEXTBOOK["rollout"]).children(tree, node, ids)]
        if tree[c, kernel.MOVE] == move
    )


@TOY_SEARCH
def test_same_seed_same_result():
    view = view_of(dealt(5, 2, reply=True))
    runs = [search(view, iterations=3000, seed=seed) for seed in (8, 8, 9)]
    summaries = [[(m.move, m.visits, m.win_rate, m.margin, m.pv) for m in r.moves] for r in runs]
    assert summaries[0] == summaries[1] != summaries[2]


# Greedy rollouts compile the toy's IS-MCTS once more: the quick tier leaves that case out.
@TOY_SEARCH
@pytest.mark.parametrize("select, rollout", [("puct", "random"), pytest.param("uct", "greedy", marks=pytest.mark.long)])
def test_options_and_threads(select, rollout):
    result = search(
        view_of(dealt(6, 1, reply=True)), iterations=4000, threads=2, select=select, rollout=rollout, value="blend"
    )
    assert result.algo == "ismcts" and result.threads == 2
    assert result.visits == 4000 == sum(m.visits for m in result.moves)
    assert result.best.move == BET and result.best.pv[0] == BET
    assert (result.best.prior is not None) == (select == "puct")


@TOY_SEARCH
def test_time_limit_and_progress():
    calls = []
    options = MctsOptions(time_limit=0.2, rollout=TEXTBOOK["rollout"])  # the rollout the other tests compile
    result = Ismcts(options).search(view_of(dealt(6, 1)), lambda *a: calls.append(a))
    assert calls and calls[-1][0] == result.visits and calls[-1][1] is None


@TOY_SEARCH
def test_no_move_to_search():
    with pytest.raises(TesseraError):
        search(toy.new_game(N, False))  # chance deals first
    over = dealt(3, 4)
    games.apply_move(over, PASS)
    with pytest.raises(TesseraError):
        search(over)


# ---- Azul: complete information -----------------------------------------------------


@pytest.mark.long  # compiles Azul's IS-MCTS, which the package does not ship compiled
def test_agrees_with_mcts_on_azul():
    """The last move of a game: only 'F1 white 4' (79 points, more complete rows) beats 79."""
    state = parse_position(
        "azul players 2 wall colour round 6 phase draft turn 1 starter 1; factories WWWW - - - -; "
        "centre 1; bag 12/15/15/15/14; lid 0/0/0/0/0; "
        "player 1 score 40 wall BYRK./WBYR./K.B../R..B./Y...B lines W/KK/.../..../..... floor -; "
        "player 2 score 79 wall BYRK./.BYR./..B../...../..... lines ./../.../..../..... floor -"
    )
    best = parse_move(state, "F1 white 4")
    options = MctsOptions(iterations=2000, seed=1, **TEXTBOOK)
    by_ismcts = Ismcts(options).search(state)
    by_mcts = Mcts(options).search(state)
    assert by_ismcts.best.move == by_mcts.best.move == best
    assert by_ismcts.best.win_rate == by_mcts.best.win_rate == 1.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-5, 300), max_size=40), st.data())
def test_sort_prefix_sorts_the_first_n_like_numpy_and_leaves_the_rest(values, data):
    """The children of a node are matched to the sorted legal moves (choose)."""
    n = data.draw(st.integers(0, len(values)))
    array = np.array(values, np.int64)
    sort_prefix(array, n)
    assert array[:n].tolist() == sorted(values[:n]) and array[n:].tolist() == values[n:]
