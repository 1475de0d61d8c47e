"""A tree node's ``CHOSEN_VALUE`` (kernels/search/mcts_layout.py): MCTS's selection reads it
instead of working out every child's value, so after a search it must equal the value of
the node's own sums for the player who chose it, by the search's value (win, margin or
their blend). IS-MCTS keeps none: its selections work the values out."""

from itertools import islice

import numpy as np
import pytest

from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.constants import CHANCE
from tessera.kernels.rng import make_rng, reseed
from tessera.kernels.search import ismcts_layout
from tessera.kernels.search import mcts_layout as layout
from tessera.kernels.search.clock import FOREVER
from tessera.search.mcts import Mcts, MctsOptions
from tessera.search.value_model import NO_MODEL
from tests.random_games import random_game

AZUL, AZURE = get_game("azul"), get_game("azure")
MARGIN_SCALE = bind.instance("azul", "mcts", "round").MARGIN_SCALE


def value_of_sums(stats, nodes, node, player, value):
    """The value ``player`` has for ``node`` by its sums, worked out in numpy."""
    visits = nodes[node, layout.VISITS]
    win = stats[node, layout.WIN + player] / visits
    margin = 0.5 + 0.5 * np.tanh(stats[node, layout.MARGIN + player] / visits / MARGIN_SCALE)
    return {"win": win, "margin": margin, "blend": 0.5 * (win + margin)}[value]


def checked_nodes(nodes, stats, rules, root, value, depth):
    """Compare every visited node down to ``depth`` levels below ``root`` (node 0 of the
    tree) with ``value_of_sums`` for its chooser, replaying chance's outcomes from their
    seeds; ``(compared, compared below a chance node)``."""
    compared = after_chance = 0
    frontier = [(0, root.copy(), False)]
    for _ in range(depth):
        deeper = []
        for node, state, past_chance in frontier:
            chooser = rules.to_move(state)
            first = nodes[node, layout.FIRST]
            if first < 0 or (chooser < 0 and chooser != CHANCE):
                continue  # a leaf, or the game's end
            for child in range(first, first + max(nodes[node, layout.COUNT], 0)):
                if nodes[child, layout.VISITS] == 0:
                    continue
                after = state.copy()
                if chooser == CHANCE:  # an outcome: chance chose it
                    rng = make_rng(0)
                    reseed(rng, nodes[child, layout.MOVE])
                    rules.resolve_chance(after, rng)
                    deeper.append((child, after, True))
                    continue
                assert stats[child, layout.CHOSEN_VALUE] == pytest.approx(
                    value_of_sums(stats, nodes, child, chooser, value), abs=1e-12
                )
                compared += 1
                after_chance += past_chance
                rules.apply_move(after, nodes[child, layout.MOVE])
                deeper.append((child, after, past_chance))
        frontier = deeper
    return compared, after_chance


def late_in_a_round(seed, players=2, moves_played=8):
    """A position ``moves_played`` random draft moves into a fresh deal."""
    state = next(islice(random_game("azul", {"players": players}, seed), moves_played, None))
    assert AZUL.kernels().to_move(state) >= 0
    return state


@pytest.mark.parametrize("value", ["blend", "win", "margin"])
@pytest.mark.parametrize("select, fpu", [("puct", 0.5), ("uct", 0.5), ("puct", -0.1)])
def test_each_node_keeps_the_value_of_its_sums_for_the_player_who_chose_it(value, select, fpu):
    searcher = Mcts(
        MctsOptions(
            iterations=2000, seed=3, threads=1, value=value, select=select, fpu=fpu, rollout="round", model="builtin"
        )
    )
    searcher.search(AZUL.new(4))
    nodes, stats, _ = searcher.tree
    compared, _ = checked_nodes(nodes, stats, searcher.rules, searcher.root, value, 2)
    assert compared > 100


def test_three_players_and_chance_nodes_keep_them_too():
    """Late in a round, the tree passes the refill: a chance node keeps the value of the
    player who moved into it, and the players' nodes below its outcomes theirs."""
    searcher = Mcts(MctsOptions(iterations=5000, seed=3, threads=1, value="blend"))
    searcher.search(late_in_a_round(6, players=3))
    nodes, stats, _ = searcher.tree
    compared, after_chance = checked_nodes(nodes, stats, searcher.rules, searcher.root, "blend", 8)
    assert compared > 100 and after_chance > 10


@pytest.mark.long  # a second of searches
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
    nodes, stats, _ = searcher.tree
    compared, _ = checked_nodes(nodes, stats, searcher.rules, searcher.root, "blend", 2)
    assert compared > 100


def test_a_search_for_threads_keeps_them_through_virtual_losses():
    """``run_tree`` told of two threads gives every visit a virtual loss on the way down
    and keeps the root's sums apart; called from one Python thread it runs alone, so at
    its end every node's value is exact."""
    state = AZUL.new(5)
    options = MctsOptions(iterations=1, rollout="round", model="builtin").for_position(state)
    nodes, stats, size = layout.new_tree(200_000)
    bind.instance("azul", "mcts", "round").run_tree(
        nodes,
        stats,
        size,
        state,
        3000,
        FOREVER,
        options.kernel_params(state[0]),
        make_rng(4),
        2,
        options.kernel_model(state),
    )
    compared, _ = checked_nodes(nodes, stats, AZUL.kernels(), state, options.value, 3)
    assert compared > 100


def test_information_set_trees_keep_no_chosen_values():
    """After the same moves the player to move may differ between determinizations, so
    IS-MCTS works every value out for the player choosing and keeps none."""
    state = AZURE.new(4)
    observer = int(AZURE.kernels().to_move(state))
    prm = MctsOptions(iterations=1, value="blend").kernel_params("azure")
    nodes, stats, size = ismcts_layout.new_tree(100_000)
    nodes, stats, size = nodes[0], stats[0], size[0]
    bind.instance("azure", "ismcts", "greedy").run_tree(
        nodes, stats, size, AZURE.view(state, observer), 3000, FOREVER, prm, make_rng(7), NO_MODEL
    )
    used = size[ismcts_layout.USED]
    assert used > 100 and (nodes[1:used, ismcts_layout.VISITS] > 0).sum() > 100
    assert not stats[:used, ismcts_layout.CHOSEN_VALUE].any()


def test_a_tree_kept_by_another_value_is_not_reused():
    """The nodes' chosen values are by the search's value: a searcher whose value changes
    between two searches of one position starts afresh; with the same value it continues."""
    state = AZUL.new(2)
    searcher = Mcts(MctsOptions(iterations=500, seed=3, threads=1, value="win"))
    searcher.search(state)
    assert searcher.search(state).reused_visits == 500
    searcher.options.value = "margin"
    assert searcher.search(state).reused_visits == 0
    nodes, stats, _ = searcher.tree
    compared, _ = checked_nodes(nodes, stats, searcher.rules, searcher.root, "margin", 2)
    assert compared > 20
