"""A tree node's ``CHOSEN_VALUE`` (kernels/search/mcts_layout.py): selection reads it instead
of working out every child's value, so after a search it must equal the value of the node's
own sums for the player who chose it, by the search's value (win, margin or their blend)."""
import numpy as np
import pytest

from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.rng import make_rng
from tessera.kernels.search import ismcts_layout
from tessera.kernels.search import mcts_layout as layout
from tessera.kernels.search.clock import FOREVER
from tessera.search.mcts import Mcts, MctsOptions
from tessera.search.value_model import NO_MODEL

AZUL, AZURE = get_game("azul"), get_game("azure")
MARGIN_SCALE = bind.instance("azul", "mcts", "round").MARGIN_SCALE


def value_of_sums(stats, nodes, node, player, value):
    """The value ``player`` has for ``node`` by its sums, worked out in numpy."""
    visits = nodes[node, layout.VISITS]
    win = stats[node, layout.WIN + player] / visits
    margin = 0.5 + 0.5 * np.tanh(stats[node, layout.MARGIN + player] / visits / MARGIN_SCALE)
    return {"win": win, "margin": margin, "blend": 0.5 * (win + margin)}[value]


def checked_nodes(searcher, value, depth=2):
    """Compare every visited node down to ``depth`` moves below the root of an MCTS
    searcher's tree with ``value_of_sums`` for its chooser; the number compared."""
    nodes, stats, _ = searcher.tree
    rules = searcher.rules
    compared = 0
    frontier = [(searcher.root_node, searcher.root.copy())]
    for _ in range(depth):
        deeper = []
        for node, state in frontier:
            chooser = rules.to_move(state)
            first = nodes[node, layout.FIRST]
            if chooser < 0 or first < 0:
                continue                                # chance, the game's end or a leaf
            for child in range(first, first + nodes[node, layout.COUNT]):
                if nodes[child, layout.VISITS] == 0:
                    continue
                assert stats[child, layout.CHOSEN_VALUE] == pytest.approx(
                    value_of_sums(stats, nodes, child, chooser, value), abs=1e-12)
                compared += 1
                after = state.copy()
                rules.apply_move(after, nodes[child, layout.MOVE])
                deeper.append((child, after))
        frontier = deeper
    return compared


@pytest.mark.parametrize("value", ["blend", "win", "margin"])
@pytest.mark.parametrize("players", [2, 3])
def test_each_node_keeps_the_value_of_its_sums_for_the_player_who_chose_it(value, players):
    searcher = Mcts(MctsOptions(iterations=2000, seed=3, threads=1, value=value,
                                rollout="round", model="builtin"))
    searcher.search(AZUL.new(4, players=players))
    assert checked_nodes(searcher, value) > 100


def test_the_values_survive_compaction_and_reuse():
    searcher = Mcts(MctsOptions(iterations=20000, seed=3, threads=1, max_nodes=15000))
    state = AZUL.new(3)
    result = searcher.search(state)
    assert result.compactions > 0
    move = result.moves[0].move
    searcher.play(move)
    searcher.rules.apply_move(state, move)
    result = searcher.search(state)
    assert result.reused_visits > 0 and result.compactions > 0
    assert checked_nodes(searcher, "blend") > 100


def test_under_threads_the_values_are_kept_too():
    """Threads update the sums concurrently, so a node's kept value may lag a backup behind
    them: a child of 100 visits or more is then within a hundredth of its sums' value."""
    searcher = Mcts(MctsOptions(iterations=20000, seed=3, threads=2, rollout="round", model="builtin"))
    searcher.search(AZUL.new(5))
    nodes, stats, _ = searcher.tree
    first, count = nodes[0, layout.FIRST], nodes[0, layout.COUNT]
    player = searcher.rules.to_move(searcher.root)
    visited = [c for c in range(first, first + count) if nodes[c, layout.VISITS] >= 100]
    for child in visited:
        assert stats[child, layout.CHOSEN_VALUE] == pytest.approx(
            value_of_sums(stats, nodes, child, player, "blend"), abs=0.02)
    assert len(visited) >= 5


@pytest.mark.parametrize("select", ["puct", "uct"])
def test_information_set_trees_keep_the_observers_values(select):
    state = AZURE.new(4)
    observer = int(AZURE.kernels().to_move(state))
    prm = MctsOptions(iterations=1, select=select, value="blend").kernel_params("azure")
    nodes, stats, size = ismcts_layout.new_tree(100_000)
    nodes, stats, size = nodes[0], stats[0], size[0]
    bind.instance("azure", "ismcts", "greedy").run_tree(
        nodes, stats, size, AZURE.view(state, observer), 3000, FOREVER, prm, make_rng(7), NO_MODEL)
    child = nodes[0, ismcts_layout.FIRST]
    compared = 0
    while child != ismcts_layout.NO_NODE:
        if nodes[child, ismcts_layout.VISITS] > 0:
            assert stats[child, layout.CHOSEN_VALUE] == pytest.approx(
                value_of_sums(stats, nodes, child, observer, "blend"), abs=1e-12)
            compared += 1
        child = nodes[child, ismcts_layout.NEXT]
    assert compared >= 3
