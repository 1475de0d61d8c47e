"""MCTS's proven values (the MCTS-solver of kernels/search/mcts.py, ``prove_path``): in
Azul's last round the tree reaches the end of the game, and the values MCTS proves there
must be the exact solver's, move by move."""

import numpy as np
import pytest

from tessera.games import get_game
from tessera.kernels.search import mcts_layout as layout
from tessera.position import Position
from tessera.search.alphabeta import solve
from tessera.search.mcts import Mcts, MctsOptions
from tessera.strength.exact import select_positions
from tests.test_best_cli import document, ok

AZUL = get_game("azul")

VISITS = 60_000


@pytest.fixture(scope="module")
def positions():
    """Last-round positions with few tiles left (tessera.strength.exact), a random and a
    greedy game's."""
    chosen, _ = select_positions(4, seed=0, max_tiles=8)
    return [position["state"] for position in chosen]


def exact_margins(state):
    """{move: its exact final margin for the player to move}, by the alpha-beta solver."""
    return {line.move: line.exact.margin for line in solve(state).moves}


@pytest.mark.parametrize("threads", [1, 2])
def test_proven_moves_have_the_exact_solvers_margins(positions, threads):
    proven_roots = 0
    for state in positions:
        result = Mcts(MctsOptions(iterations=VISITS, threads=threads, seed=3)).search(state)
        exact = exact_margins(state)
        proven = [line for line in result.moves if line.exact is not None]
        assert proven  # the last round's short lines end the game inside the tree
        for line in proven:
            assert line.exact.margin == exact[line.move]
            # a finished game's payoff: a share of the one win
            assert line.exact.result == {0.0: "loss", 0.5: "draw", 1.0: "win"}[line.exact.win_rate]
        if result.exact is not None:  # every move proven: the best of them first
            proven_roots += 1
            assert len(proven) == len(result.moves)
            assert result.exact == result.best.exact
            assert result.best.exact.margin == max(exact.values())
    assert proven_roots >= (3 if threads == 1 else 1)  # two threads share the visits by their timing


def test_a_proven_root_ranks_its_moves_by_value_not_visits(positions):
    for state in positions:
        result = Mcts(MctsOptions(iterations=VISITS, seed=5)).search(state)
        if result.exact is None:
            continue
        values = [line.win_rate for line in result.moves]
        assert values[0] == max(values)
        margins = [line.exact.margin for line in result.moves]
        assert margins[0] == max(margins)


def test_a_short_search_proves_only_what_it_reached(positions):
    """With few simulations the root is not proven; the moves that are, are exact."""
    state = positions[-1]
    exact = exact_margins(state)
    result = Mcts(MctsOptions(iterations=50, seed=1)).search(state)
    assert result.exact is None
    for line in result.moves:
        if line.exact is not None:
            assert line.exact.margin == exact[line.move]


def test_proven_subtrees_cost_no_more_nodes(positions):
    """Once the root is proven, further simulations follow proven lines to their ends: the
    tree stops growing."""
    searchers = [Mcts(MctsOptions(iterations=VISITS, seed=2)) for _ in positions]
    proven = [(searcher, state) for searcher, state in zip(searchers, positions) if searcher.search(state).exact]
    assert proven
    for searcher, state in proven:
        nodes, _, size = searcher.tree
        assert nodes[0, layout.PROVEN] == 1
        used = int(size[layout.USED])
        again = searcher.search(state)  # the same position: the tree is reused and searched again
        assert again.reused_visits == VISITS and again.visits == VISITS
        assert int(size[layout.USED]) == used


def test_positions_before_the_last_round_prove_nothing_at_the_root():
    """Chance (the next refill) lies below every line of an opening: no move is proven."""
    result = Mcts(MctsOptions(iterations=2000, seed=0)).search(Position.new("azul", seed=4).state)
    assert result.exact is None and all(line.exact is None for line in result.moves)
    assert not np.isnan(result.value)


def test_tessera_best_reports_what_mcts_proved(positions):
    """`tessera best --json` (docs/best.schema.json) and its table carry the proven values."""
    state = next(s for s in positions if Mcts(MctsOptions(iterations=VISITS, threads=1, seed=3)).search(s).exact)
    text = AZUL.format_position(state)
    report = document("best", text, "-n", VISITS, "--seed", 3, "--threads", 1)
    assert report["proven"] and report["root"]["exact"] == report["moves"][0]["exact"]
    exact = exact_margins(state)
    assert {move["code"]: move["exact"]["margin"] for move in report["moves"]} == exact
    assert all(move["exact"]["horizon"] == "game" for move in report["moves"])
    table = ok("best", text, "-n", VISITS, "--seed", 3, "--threads", 1).stdout
    assert "exact value: " in table
