"""Alpha-beta's game mode: expectimax through chance to the end of the game.

The reference is a plain expectimax written here in Python over the game
interface (``expectimax``): a player node takes the best child for its player,
a chance node the probability-weighted mean of its outcomes, a finished game the
root player's payoff, the depth limit the logistic of the ``games.evaluate``
margin; chance steps cost no depth. It memoises values by position hash and
depth (a position has one value), and prunes nothing.

Azure is the game the mode is for: its only mid-game chance is the Bird's two
draws from the hidden deck. The positions are late ones of seeded random games,
a few decisions from the end, solved exactly, and middle ones searched to a
depth. Azul's refill is a longer run of chance steps in a row (a tile each): a
round end with a tiny bag is searched to a depth. Then: window bounds at chance
nodes, the table, the results' conventions, and the mode of each game.
"""

import math
import random

import numpy as np
import pytest

from tessera.bench import random_decisions
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.azul.layout import W_BAG, W_LID
from tessera.kernels.azul.tiles import one_of
from tessera.kernels.search import alphabeta_layout as kernel
from tessera.kernels.search import ttable
from tessera.search.alphabeta import WIN_RATE, search_alphabeta, solve

AZUL = get_game("azul")
AZURE = get_game("azure")
TOLERANCE = 1e-9


# ---- the reference -----------------------------------------------------------------


class Expectimax:
    """Plain expectimax from ``root``'s side; counts the positions and chance nodes met."""

    def __init__(self, root):
        self.root = root
        self.memo = {}
        self.chance_nodes = 0
        self.chance_states = []  # (state, value) of chance nodes searched to the end

    def value(self, state, depth=None):
        """The value of ``state`` searched ``depth`` decisions deep (None: to the end)."""
        key = (int(games.position_hash(state)), depth)
        if key not in self.memo:
            self.memo[key] = self._value(state, depth)
        return self.memo[key]

    def _value(self, state, depth):
        who = games.to_move(state)
        scores = np.zeros(games.players(state))
        moves = np.empty(games.MAX_MOVES, np.int64)
        if who == games.TERMINAL:
            games.payoffs(state, scores)
            return scores[self.root]
        if who == games.CHANCE:
            self.chance_nodes += 1
            probs = np.empty(games.MAX_MOVES)
            n = games.chance_outcomes(state, moves, probs)
            assert n > 0 and abs(probs[:n].sum() - 1) < 1e-12
            value = sum(p * self.value(child, depth) for p, child in zip(probs[:n], children(state, moves[:n])))
            if depth is None:
                self.chance_states.append((state.copy(), value))
            return value
        if depth == 0:
            games.evaluate(state, scores)
            margin = scores[self.root] - max(v for p, v in enumerate(scores) if p != self.root)
            return 1 / (1 + math.exp(-margin / kernel.LOGISTIC_POINTS))
        n = games.legal_moves(state, moves)
        below = None if depth is None else depth - 1
        values = [self.value(child, below) for child in children(state, moves[:n])]
        return max(values) if who == self.root else min(values)


def children(state, moves):
    for move in moves:
        child = state.copy()
        games.apply_move(child, move)
        yield child


def root_moves(state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return moves[: games.legal_moves(state, moves)].tolist()


def reference(state, depth=None):
    """Per root move (engine order): the expectimax value of its child; and the reference."""
    ref = Expectimax(games.to_move(state))
    moves = np.array(root_moves(state), np.int64)
    values = [ref.value(child, None if depth is None else depth - 1) for child in children(state, moves)]
    return values, ref


def kernel_values(state, depth, bits=16):
    """Per root move (engine order): game-mode values and proven flags, deepening to ``depth``."""
    table, counters = ttable.new_table(bits), kernel.new_counters()
    search = bind.instance(state[0], "alphabeta")
    work = search.new_work(state, 64)
    values = np.zeros(games.MAX_MOVES)
    nodes = np.zeros(games.MAX_MOVES, np.int64)
    proven = np.zeros(games.MAX_MOVES, np.bool_)
    for d in range(1, depth + 1):
        n = search.search_root(
            state, d, work, table, counters, kernel.new_limits(mode=kernel.MODE_GAME), values, nodes, proven
        )
    return values[:n].copy(), proven[:n].copy()


# ---- positions -------------------------------------------------------------------------


def azure_decisions(seed, **options):
    return random_decisions("azure", seed, **options)


def azure_late(seed, options, back):
    """The decision ``back`` decisions before the end of a seeded random game."""
    return azure_decisions(seed, **options)[-back]


LATE_REFERENCES = {}


def late_reference(seed, options, back):
    """``reference`` of ``azure_late``, computed once per position."""
    key = (seed, tuple(sorted(options.items())), back)
    if key not in LATE_REFERENCES:
        LATE_REFERENCES[key] = reference(azure_late(seed, options, back))
    return LATE_REFERENCES[key]


def azul_tiny_bag():
    """The last two tiles of a round, then a refill from a bag of five (one chance step each).

    Player 1 lacks only the white of wall row 1, player 2 only the blue; pattern
    lines are empty. The bag's five tiles fill factory 1 and put one on factory 2:
    which one is chance's.
    """
    from tests.test_alphabeta import hand_position

    lines = "-/../.../..../....."
    p1 = dict(score=10, wall="xxxx./...../...../...../.....", lines=lines, floor="-")
    p2 = dict(score=10, wall=".xxxx/...../...../...../.....", lines=lines, floor="-")
    # hand_position fills the bag up to 20 a colour; the state then gets a tiny bag.
    state = hand_position(["-"] * 5, "1YK", [p1, p2])
    state[W_BAG] = sum(one_of("BYRKW".index(c)) for c in "WBRYK")
    state[W_LID] = 0
    return state


# (seed, options, decisions before the end): values 0 and 1 only, and win probabilities.
LATE = [
    (0, {}, 4),
    (0, {}, 6),
    (1, {}, 6),
    (3, {}, 8),
    (2, {}, 8),
    (35, {}, 5),
    (0, {"gifted": "bountiful"}, 7),
    (1, {"gifted": "bountiful"}, 7),
    (2, {"cosmos": True}, 6),
]
# The slowest (the expectimax reference takes 15-25 s each): run with ``-m slow``.
LATE_SLOW = [(10, {"gifted": "mighty"}, 8), (16, {"gifted": "mighty"}, 7)]
# (seed, options): the middle decision of the game; chance acts within four decisions.
MIDDLE = [(0, {}), (1, {}), (2, {}), (6, {"gifted": "bountiful"}), (8, {"cosmos": True, "gifted": "perceptive"})]


# ---- values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seed, options, back",
    LATE[:2]  # the quick tier's
    + [pytest.param(*case, marks=pytest.mark.long) for case in LATE[2:]]
    + [pytest.param(*case, marks=pytest.mark.slow) for case in LATE_SLOW],
)
def test_solve_equals_expectimax_to_the_end(seed, options, back):
    state = azure_late(seed, options, back)
    expected, _ = late_reference(seed, options, back)
    result = solve(state)
    assert result.mode == "game" and result.exact is not None
    by_move = dict(zip(root_moves(state), expected))
    for line in result.moves:
        assert line.win_rate == pytest.approx(by_move[line.move], abs=TOLERANCE)
        assert line.exact.horizon == "game"
        assert line.exact.win_rate == line.win_rate
    assert result.value == pytest.approx(max(expected), abs=TOLERANCE)


@pytest.mark.long  # the expectimax reference of every late position
def test_late_positions_include_win_probabilities_and_chance():
    """The positions of the default run are not all certain wins and losses, and chance
    acts in them (the two slow ones add two more win probabilities)."""
    fractions, chance_nodes = 0, 0
    for seed, options, back in LATE:
        values, ref = late_reference(seed, options, back)
        fractions += sum(0 < v < 1 for v in values)
        chance_nodes += ref.chance_nodes
    assert fractions >= 1 and chance_nodes > 1000


@pytest.mark.parametrize("seed, options", MIDDLE)
def test_depth_limited_game_mode_equals_expectimax(seed, options):
    decisions = azure_decisions(seed, **options)
    state = decisions[len(decisions) // 2]
    chance_nodes = 0
    for depth in (1, 2, 3, 4):
        expected, ref = reference(state, depth)
        values, proven = kernel_values(state, depth)
        assert values.tolist() == pytest.approx(expected, abs=TOLERANCE), f"depth {depth}"
        assert not proven.all()
        chance_nodes += ref.chance_nodes
    assert chance_nodes > 0


def test_chance_in_a_row_azul_refill():
    """Azul searched in game mode across the end of a round: five refill draws in a row."""
    state = azul_tiny_bag()
    chance_nodes = 0
    for depth in (1, 2, 3):
        expected, ref = reference(state, depth)
        values, _ = kernel_values(state, depth)
        assert values.tolist() == pytest.approx(expected, abs=TOLERANCE), f"depth {depth}"
        chance_nodes += ref.chance_nodes
    assert chance_nodes >= 5


def test_chance_node_bounds_hold_for_any_window():
    """A chance node searched with a window keeps the fail-soft contract.

    Below the window the result bounds the value from above, above it from below,
    inside it the result is the value: the outcomes' windows (Star1) lose nothing.
    The table is shared by all the searches, so bounds stored by one serve another.
    """
    state = azure_late(35, {}, 5)
    _, ref = late_reference(35, {}, 5)
    nodes = ref.chance_states[:60]
    assert len(nodes) >= 20
    root = ref.root
    table, counters = ttable.new_table(12), kernel.new_counters()
    search = bind.instance(state[0], "alphabeta")
    work = search.new_work(state, 64)
    limits = kernel.new_limits(mode=kernel.MODE_GAME)
    pick = random.Random(1)
    seen = {"below": 0, "above": 0, "inside": 0}
    for chance, value in nodes:
        key = games.position_hash(chance)
        for _ in range(6):
            a, b = sorted(pick.choice([value, pick.random(), 0.0, 1.0]) for _ in range(2))
            if b - a < 1e-6:
                a, b = a - 0.05, b + 0.05
            found = search._search(
                chance,
                key,
                np.int64(1),
                np.int64(kernel.UNLIMITED),
                np.float64(a),
                np.float64(b),
                np.int64(root),
                work,
                table,
                counters,
                limits,
            )
            if found <= a:
                assert value <= found + TOLERANCE
                seen["below"] += 1
            elif found >= b:
                assert value >= found - TOLERANCE
                seen["above"] += 1
            else:
                assert found == pytest.approx(value, abs=TOLERANCE)
                seen["inside"] += 1
    assert min(seen.values()) > 10, seen


def test_final_round_agrees_with_round_mode():
    """Where every line ends the game, the win rate is the round mode's result.

    A win, draw or loss is a monotone function of the round mode's value (margin
    and tie-break), so minimax on either gives the same result per move.
    """
    from tessera.bench import final_round
    from tests.test_alphabeta import late_in_round

    for state in (final_round(8), late_in_round(1, 2, "colour", 7, True)):
        by_round = {line.move: line for line in solve(state).moves}
        by_game = solve(state, mode="game")
        assert by_game.mode == "game" and by_game.exact is not None
        for line in by_game.moves:
            assert by_round[line.move].exact.horizon == "game"
            assert line.win_rate == WIN_RATE[by_round[line.move].exact.result]


# ---- the table ------------------------------------------------------------------------


@pytest.mark.parametrize("seed, options, back", [(35, {}, 5), (16, {"gifted": "mighty"}, 7)])
def test_table_never_changes_a_proven_win_rate(seed, options, back):
    state = azure_late(seed, options, back)
    large = {line.move: line.win_rate for line in solve(state, tt_bits=20).moves}
    for bits in (1, 6):
        small = {line.move: line.win_rate for line in solve(state, tt_bits=bits).moves}
        assert small == pytest.approx(large, abs=TOLERANCE)
    deepened = search_alphabeta(state, tt_bits=20)
    assert deepened.exact is not None
    assert {line.move: line.win_rate for line in deepened.moves} == pytest.approx(large, abs=TOLERANCE)


# ---- results ---------------------------------------------------------------------------


def replay(state, pv):
    end = state.copy()
    for move in pv:
        games.apply_move(end, move)
    return end


@pytest.mark.parametrize("seed, options, back", [(0, {}, 4), (35, {}, 5), (10, {"gifted": "mighty"}, 8)])
def test_results_of_the_game_mode(seed, options, back):
    """margin = 2 p - 1; a result only when certain; the line stops at the first chance step."""
    state = azure_late(seed, options, back)
    result = solve(state)
    root = games.to_move(state)
    assert result.margin == result.best.margin and result.value == result.best.win_rate
    for line in result.moves:
        p = line.win_rate
        assert 0 <= p <= 1 and line.margin == pytest.approx(2 * p - 1)
        assert line.exact.margin == line.margin
        assert line.exact.result == {1.0: "win", 0.0: "loss"}.get(p)
        assert line.pv[0] == line.move and line.lcb is None and line.prior is None
        end = replay(state, line.pv)
        assert games.to_move(end) in (games.CHANCE, games.TERMINAL)
        if games.to_move(end) == games.TERMINAL:
            payoffs = np.zeros(games.players(end))
            games.payoffs(end, payoffs)
            assert payoffs[root] == p
    ranked = [line.win_rate for line in result.moves]
    assert ranked == sorted(ranked, reverse=True)


def test_unproven_game_mode_values_are_estimates():
    decisions = azure_decisions(1)
    state = decisions[len(decisions) // 2]
    result = search_alphabeta(state, depth=2)
    assert result.mode == "game" and result.exact is None and result.depth == 2
    for line in result.moves:
        assert 0 <= line.win_rate <= 1 and line.exact is None
        assert line.margin == pytest.approx(2 * line.win_rate - 1)
    assert any(0 < line.win_rate < 1 for line in result.moves)


def test_mode_is_chosen_by_the_game():
    from tests.test_alphabeta import late_in_round

    azul = late_in_round(0, 2, "colour", 5, False)
    assert solve(azul).mode == "round"
    assert solve(azure_late(0, {}, 4)).mode == "game"
    assert solve(azure_late(0, {}, 4), mode="game").mode == "game"
    with pytest.raises(OptionError):
        solve(azul, mode="expectimax")


def test_one_compiled_specialisation_of_the_recursion():
    """Game mode compiles no second specialisation of _search (numba issue 6061)."""
    solve(azure_late(0, {}, 6))
    assert len(bind.instance("azure", "alphabeta")._search.signatures) <= 1
