"""The memory bound of MCTS: a full tree is compacted (the subtrees of its least visited
nodes freed, the rest packed) and keeps growing (docs/search.md, "Memory bound")."""

import numpy as np
import pytest

from tessera.errors import OptionError
from tessera.games import get_game
from tessera.kernels import bind, games
from tessera.kernels.rng import make_rng
from tessera.kernels.search import mcts_layout as kernel
from tessera.kernels.search import tree
from tessera.kernels.search.clock import FOREVER
from tessera.search.mcts import MIN_NODES, Mcts, MctsOptions
from tessera.search.value_model import NO_MODEL
from tests.test_agents import LATE_POSITION, position
from tests.test_chosen_value import late_in_a_round

AZUL = get_game("azul")
SEARCH = bind.instance("azul", "mcts", "random")
PRM = MctsOptions(select="puct", value="win", exploration=1.4).kernel_params("azul")  # deeper trees than UCT's


def grown(iterations, max_nodes, seed=1):
    """A tree of the 2-player Azul opening after ``iterations`` simulations."""
    nodes, stats, size = kernel.new_tree(max_nodes)
    state, rng = AZUL.new(1, players=2), make_rng(seed)
    while iterations:  # the search's loop: the kernel stops when the tree needs room
        tree.make_room(nodes, stats, size, SEARCH.room.py_func(PRM, 1))
        iterations -= SEARCH.run_tree(nodes, stats, size, state, iterations, FOREVER, PRM, rng, 1, NO_MODEL)
    return nodes, stats, size


def by_path(nodes, stats, used):
    """Every node reachable from the root: (moves from the root) -> (node row, stats row),
    checking on the way that blocks lie inside the used nodes and no node is reached twice."""
    found, seen, stack = {}, set(), [(0, ())]
    while stack:
        node, path = stack.pop()
        assert node not in seen and 0 <= node < used
        seen.add(node)
        found[path] = (nodes[node].copy(), stats[node].copy())
        first = nodes[node, kernel.FIRST]
        if first == kernel.UNEXPANDED:
            assert nodes[node, kernel.COUNT] == 0 or node == 0
            continue
        assert nodes[node, kernel.COUNT] <= nodes[node, kernel.CAPACITY]
        assert nodes[node, kernel.VISITS] >= nodes[first : first + nodes[node, kernel.COUNT], kernel.VISITS].sum()
        for child in range(first, first + nodes[node, kernel.COUNT]):
            stack.append((child, path + (int(nodes[child, kernel.MOVE]),)))
    return found, seen


def test_compaction_keeps_the_root_and_the_visited_part_of_the_tree_whole():
    nodes, stats, size = grown(3000, 200_000)
    used = int(size[kernel.USED])
    before, _ = by_path(nodes, stats, used)
    tree.compact(nodes, stats, size, used // 2)
    after, seen = by_path(nodes, stats, int(size[kernel.USED]))
    assert size[kernel.USED] <= used // 2 and size[kernel.COMPACTIONS] == 1
    assert size[kernel.FREED] == used - size[kernel.USED]
    # Packed: every node in use is reachable (chance blocks keep their unused slots).
    slots = sum(int(row[kernel.CAPACITY] - row[kernel.COUNT]) for row, _ in after.values())
    assert len(seen) + slots == size[kernel.USED]
    # Every node kept has the statistics it had; the root's children all survive.
    first = before[()][0][kernel.FIRST]
    root_children = [path for path in before if len(path) == 1]
    assert all(path in after for path in root_children) and len(root_children) > 20
    for path, (row, sums) in after.items():
        old_row, old_sums = before[path]
        assert row[kernel.VISITS] == old_row[kernel.VISITS] and np.array_equal(sums, old_sums)
    # What was freed hung below nodes with fewer visits than anything kept below.
    cut = [
        path
        for path, (row, _) in after.items()
        if row[kernel.FIRST] == kernel.UNEXPANDED and before[path][0][kernel.FIRST] != kernel.UNEXPANDED
    ]
    still = [path for path, (row, _) in after.items() if row[kernel.FIRST] != kernel.UNEXPANDED and path]
    assert cut and still and first >= 0
    assert max(after[p][0][kernel.VISITS] for p in cut) < min(after[p][0][kernel.VISITS] for p in still)


def test_a_tree_at_its_bound_keeps_growing():
    """With room for 20,000 nodes, 20,000 simulations compact the tree several times and
    make many more nodes than fit at once; the tree is consistent after them."""
    nodes, stats, size = grown(20_000, 20_000)
    assert size[kernel.COMPACTIONS] >= 2
    assert size[kernel.FREED] + size[kernel.USED] > 2 * 20_000
    _, seen = by_path(nodes, stats, int(size[kernel.USED]))
    assert nodes[0, kernel.VISITS] == 20_000
    first, count = nodes[0, kernel.FIRST], nodes[0, kernel.COUNT]
    assert nodes[first : first + count, kernel.VISITS].sum() == 20_000  # the root expands at once


def test_a_bounded_search_finds_the_forced_move():
    """The late position has one best move (C blue 4); a tree of the smallest size allowed
    finds it as an unbounded one does, through many compactions. Every move wins, so the
    search values the margin alone (``test_best_cli``); at Azul's exploration of 2.0 both
    trees need more than 20,000 visits to settle on it."""
    state = position(LATE_POSITION)
    small = Mcts(MctsOptions(iterations=40_000, seed=3, max_nodes=MIN_NODES, value="margin"))
    result = small.search(state)
    assert small.tree[2][kernel.COMPACTIONS] > 5
    assert AZUL.format_move(state, result.best.move) == "C blue 4"
    assert result.visits == 40_000 and sum(line.visits for line in result.moves) == 40_000


def test_the_memory_budget_sets_the_size_of_the_tree_the_threads_share():
    options = MctsOptions(iterations=1, memory=64 * 2**20, threads=2)
    assert options.shared_tree_nodes(kernel.NODE_BYTES) == 64 * 2**20 // kernel.NODE_BYTES
    searcher = Mcts(options)
    result = searcher.search(AZUL.new(1, players=2))
    assert result.tree_nodes > 0 and len(searcher.tree[0]) == 64 * 2**20 // kernel.NODE_BYTES
    with pytest.raises(OptionError, match="memory must be at least"):
        MctsOptions(iterations=1, memory=2**16).check()


@pytest.mark.long  # a second of threaded searches
def test_threads_at_the_bound_compact_their_shared_tree_and_keep_it_whole():
    """Two threads in a tree of 2 x 1,000 nodes on the opening: the tree is compacted many
    times while they run, and after it every node is reachable once and the visits add up."""
    searcher = Mcts(MctsOptions(iterations=20_000, threads=2, seed=3, max_nodes=MIN_NODES))
    result = searcher.search(AZUL.new(1, players=2))
    nodes, stats, size = searcher.tree
    assert size[kernel.COMPACTIONS] > 5 and result.visits == nodes[0, kernel.VISITS] == 20_000
    by_path(nodes, stats, int(size[kernel.USED]))
    assert sum(line.visits for line in result.moves) == 20_000


def test_reuse_with_fewer_iterations_than_threads_keeps_the_subtree():
    """Three visits on four threads: one thread gets no share; following a move keeps what
    the others found below it."""
    state = position(LATE_POSITION)
    searcher = Mcts(MctsOptions(iterations=3, threads=4, seed=1))
    first = searcher.search(state)
    assert searcher.tree[0][0, kernel.VISITS] == 3
    move = first.moves[0].move
    searcher.play(move)
    assert searcher.root is not None and searcher.root_node > 0
    games.apply_move(state, move)
    searcher.options.iterations = 4
    again = searcher.search(state)
    assert again.reused_visits == first.moves[0].visits > 0
    assert again.visits == 4


def test_reuse_keeps_only_the_subtree_played_into():
    state = position(LATE_POSITION)
    searcher = Mcts(MctsOptions(iterations=3000, seed=1))
    first = searcher.search(state)
    move = first.best.move
    nodes, stats, size = searcher.tree
    child = next(
        c
        for c in range(nodes[0, kernel.FIRST], nodes[0, kernel.FIRST] + nodes[0, kernel.COUNT])
        if nodes[c, kernel.MOVE] == move
    )
    below, _ = by_path(nodes, stats, int(size[kernel.USED]))
    kept = {path[1:]: value for path, value in below.items() if path[:1] == (move,)}
    searcher.play(move)
    games.apply_move(state, move)
    searcher.options.iterations = 1
    searcher.search(state)
    nodes, stats, size = searcher.tree
    assert stats[0, kernel.WIN] > 0 and child > 0
    now, _ = by_path(nodes, stats, int(size[kernel.USED]))
    assert set(kept) <= set(now) and len(now) <= len(kept) + games.MAX_MOVES


def test_every_simulation_of_threads_on_a_fresh_tree_goes_through_a_root_move():
    """Threads starting together on an unexpanded root: the one that does not expand it
    waits for the root's children instead of rolling out from the root itself, so the
    root's visits are its moves' visits (and ``best`` ranks every simulation)."""
    state = AZUL.new(1, players=2)
    for seed in range(300):
        searcher = Mcts(MctsOptions(iterations=8, threads=4, seed=seed))
        result = searcher.search(state)
        assert result.visits == sum(line.visits for line in result.moves) == 8


def test_keeping_a_subtree_in_place_keeps_it_whole_and_packed():
    """``keep_subtree`` (tree reuse) moves the subtree under a root move to the front of the
    same arrays: every node of it keeps its row (its children's index aside) and its
    statistics, under the same moves, chance nodes' unused outcomes too (the search, late in
    a round, passes the refill), and nothing else stays; the counters start again."""
    searcher = Mcts(MctsOptions(iterations=3000, seed=3, threads=1))
    searcher.search(late_in_a_round(6, players=3))
    nodes, stats, size = searcher.tree
    size[kernel.COMPACTIONS], size[kernel.FREED] = 2, 100
    first, count = nodes[0, kernel.FIRST], nodes[0, kernel.COUNT]
    child = max(range(first, first + count), key=lambda c: nodes[c, kernel.VISITS])
    before, _ = by_path(nodes, stats, int(size[kernel.USED]))
    move = int(nodes[child, kernel.MOVE])
    wanted = {path[1:]: value for path, value in before.items() if path[:1] == (move,)}
    assert len(wanted) > 100 and child > 0
    kept = tree.keep_subtree(nodes, stats, size, child)
    after, seen = by_path(nodes, stats, kept)
    assert kept == size[kernel.USED] and set(after) == set(wanted)
    other = [c for c in range(kernel.NODE_COLUMNS) if c != kernel.FIRST]
    for path, (row, sums) in after.items():
        assert np.array_equal(row[other], wanted[path][0][other]) and np.array_equal(sums, wanted[path][1])
    slots = sum(int(row[kernel.CAPACITY] - row[kernel.COUNT]) for row, _ in after.values())
    assert slots > 0 and len(seen) + slots == kept  # packed: chance blocks keep their unused slots
    assert size[kernel.COMPACTIONS] == size[kernel.FREED] == 0


def test_a_searcher_searches_again_in_its_own_arrays_as_in_new_ones():
    """A search of another position clears the tree in the arrays it has: the same arrays,
    and the same visits and sums as a searcher given new arrays (the rows past the root
    hold the last search's nodes, which the search must never read)."""
    late, opening = position(LATE_POSITION), AZUL.new(2, players=2)
    kept, fresh = (Mcts(MctsOptions(iterations=3000, seed=4)) for _ in range(2))
    for searcher in (kept, fresh):
        searcher.search(opening)
    arrays, stale = kept.tree[0], int(kept.tree[2][kernel.USED])
    fresh.tree = None
    one, other = kept.search(late), fresh.search(late)
    assert kept.tree[0] is arrays and fresh.tree[0] is not arrays and stale > one.tree_nodes
    assert_same_search(one, other)


def assert_same_search(one, other):
    """Two search results alike: the tree's size and compactions, the root's value and
    margin, and every move's line."""
    assert (one.tree_nodes, one.compactions) == (other.tree_nodes, other.compactions)
    assert (one.value, one.margin) == (other.value, other.margin)
    assert [(line.move, line.visits, line.win_rate, line.margin) for line in one.moves] == [
        (line.move, line.visits, line.win_rate, line.margin) for line in other.moves
    ]
