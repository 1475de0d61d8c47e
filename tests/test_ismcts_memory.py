"""The memory bound of IS-MCTS: a full tree is compacted (the children of its least visited
nodes freed, the rest packed, sibling lists kept whole) and keeps growing, as MCTS's does
(docs/search.md, "Memory bound")."""

import numpy as np
import pytest

from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.rng import make_rng
from tessera.kernels.search import ismcts_layout as kernel
from tessera.kernels.search.clock import FOREVER
from tessera.search.ismcts import Ismcts
from tessera.search.mcts import MIN_NODES, MctsOptions
from tessera.search.value_model import NO_MODEL
from tests.test_mcts_memory import assert_same_search

AZURE = get_game("azure")
SEARCH = bind.instance("azure", "ismcts", "greedy")
PRM = MctsOptions(iterations=1).kernel_params("azure")  # the defaults: PUCT, greedy rollouts


def azure_view():
    """The view of the player to move in a fresh 2-player Azure deal: the hidden hand is
    dealt anew in every simulation."""
    state = AZURE.new(5)
    return AZURE.view(state, int(AZURE.kernels().to_move(state)))


def grown(iterations, max_nodes, seed=1, prm=PRM):
    nodes, stats, size = kernel.new_tree(max_nodes)
    SEARCH.run_tree(nodes[0], stats[0], size[0], azure_view(), iterations, FOREVER, prm, make_rng(seed), NO_MODEL)
    return nodes[0], stats[0], size[0]


def by_path(nodes, stats, used):
    """Every node reachable from the root: (moves from the root) -> (node row, stats row),
    checking that links stay inside the used nodes, no node is reached twice, and a
    node has at least the visits of its children together."""
    found, seen, stack = {}, set(), [(0, ())]
    while stack:
        node, path = stack.pop()
        assert node not in seen and 0 <= node < used
        seen.add(node)
        found[path] = (nodes[node].copy(), stats[node].copy())
        child, below = nodes[node, kernel.FIRST], 0
        while child != kernel.NO_NODE:
            stack.append((child, path + (int(nodes[child, kernel.MOVE]),)))
            below += nodes[child, kernel.VISITS]
            child = nodes[child, kernel.NEXT]
        assert nodes[node, kernel.VISITS] >= below
    return found, seen


def test_compaction_keeps_the_root_and_the_visited_part_of_the_tree_whole():
    nodes, stats, size = grown(3000, 400_000)
    used = int(size[kernel.USED])
    before, _ = by_path(nodes, stats, used)
    SEARCH.compact(nodes, stats, size, used // 2)
    after, seen = by_path(nodes, stats, int(size[kernel.USED]))
    assert size[kernel.USED] <= used // 2 and size[kernel.COMPACTIONS] == 1
    assert size[kernel.FREED] == used - size[kernel.USED]
    assert len(seen) == size[kernel.USED]  # packed
    root_children = [path for path in before if len(path) == 1]
    legal = AZURE.kernels().legal_moves(azure_view(), np.empty(AZURE.kernels().MAX_MOVES, np.int64))
    assert all(path in after for path in root_children) and len(root_children) == legal
    for path, (row, sums) in after.items():
        old_row, old_sums = before[path]
        assert row[kernel.VISITS] == old_row[kernel.VISITS] and row[kernel.AVAIL] == old_row[kernel.AVAIL]
        assert np.array_equal(sums, old_sums)
    # What was freed hung below nodes with fewer visits than any that kept its children.
    cut = [
        path
        for path, (row, _) in after.items()
        if row[kernel.FIRST] == kernel.NO_NODE and before[path][0][kernel.FIRST] != kernel.NO_NODE
    ]
    still = [path for path, (row, _) in after.items() if row[kernel.FIRST] != kernel.NO_NODE and path]
    assert cut and still
    assert max(after[p][0][kernel.VISITS] for p in cut) < min(after[p][0][kernel.VISITS] for p in still)


@pytest.mark.parametrize("select", ["puct", "uct"])
def test_a_tree_at_its_bound_keeps_growing(select):
    """With room for 5,000 nodes, 10,000 simulations compact the tree several times and
    make many more nodes than fit at once; the tree is consistent after them, and every
    simulation went through the root's children (UCT adds them one a visit, so compaction
    moves them)."""
    prm = MctsOptions(iterations=1, select=select).kernel_params("azure")
    nodes, stats, size = grown(10_000, 5_000, prm=prm)
    assert size[kernel.COMPACTIONS] >= 2
    assert size[kernel.FREED] + size[kernel.USED] > 2 * 5_000
    found, _ = by_path(nodes, stats, int(size[kernel.USED]))
    assert nodes[0, kernel.VISITS] == 10_000
    assert sum(row[kernel.VISITS] for path, (row, _) in found.items() if len(path) == 1) == 10_000


def test_a_bounded_search_ranks_the_moves_as_an_unbounded_one():
    """The smallest tree allowed, compacted again and again, still picks a move the big
    tree rates among its best, and reports its compactions."""
    view = azure_view()
    small = Ismcts(MctsOptions(iterations=20_000, seed=3, max_nodes=MIN_NODES)).search(view)
    large = Ismcts(MctsOptions(iterations=20_000, seed=3)).search(view)
    assert small.compactions > 5 and large.compactions == 0
    assert small.visits == 20_000 and small.tree_nodes <= MIN_NODES
    top = [line.move for line in large.moves[:3]]
    assert small.best.move in top


def test_a_searcher_searches_again_in_its_own_arrays_as_in_new_ones():
    """Each search clears the threads' trees in the arrays it has: the same arrays, and the
    same visits and sums as a searcher given new arrays (the rows past the roots hold the
    last search's nodes, which the search must never read)."""
    state = AZURE.new(9)
    first_view, view = azure_view(), AZURE.view(state, int(AZURE.kernels().to_move(state)))
    kept, fresh = (Ismcts(MctsOptions(iterations=2000, seed=2, threads=2)) for _ in range(2))
    for searcher in (kept, fresh):
        searcher.search(first_view)
    arrays, stale = kept.tree[0], kept.tree[2][:, kernel.USED].copy()
    fresh.tree = None
    one, other = kept.search(view), fresh.search(view)
    assert kept.tree[0] is arrays and fresh.tree[0] is not arrays and stale.min() > 1
    assert_same_search(one, other)
