"""The kernels of an MCTS tree that know no game: compaction, the principal variation and
the subtree kept for tree reuse, on the arrays ``tessera.kernels.search.mcts_layout.new_tree`` makes.

Plain cached kernels, not a template: their arguments have the same types in every game
and rollout, so one compile serves them all, where template kernels would be compiled
again for each game and rollout (a second game's first ``best`` would pay for them
again). IS-MCTS's compaction shares their visit classes.
"""

import numpy as np

from tessera.kernels.arrays import copy_into
from tessera.kernels.jit import njit
from tessera.kernels.search.mcts_layout import (
    CAPACITY,
    COMPACTIONS,
    COUNT,
    FIRST,
    FREED,
    MOVE,
    UNEXPANDED,
    USED,
    VISITS,
)


@njit(cache=True)
def make_room(nodes, stats, size, needed):
    """Compact the tree to half its arrays if it lacks the ``needed`` free nodes of the next
    ``run_tree`` (its ``room``; with no thread in it): so the tree keeps growing where the
    visits go, within its arrays."""
    if size[USED] + needed > nodes.shape[0]:
        compact(nodes, stats, size, nodes.shape[0] // 2)


@njit(cache=True)
def compact(nodes, stats, size, target):
    """Free the subtrees that matter least until at most ``target`` nodes are in use,
    and pack the rest at the front of the arrays, each block of children still
    contiguous.

    Every expanded node below ``threshold`` visits (the smallest threshold that brings
    the tree to ``target``: any count below ``EXACT_VISITS``, a power of two above)
    loses its children and becomes a leaf again, its own statistics kept, so it is
    expanded afresh when selection comes back to it. The root's children are always
    kept. Nodes keep their order: a child block always lies after its parent (it was
    added later, and ``keep_subtree`` keeps the order), so packing moves every node towards the
    front. Between simulations only.
    """
    used = size[USED]
    # Blocks by the visits of their parent (``visit_class``). A node has no more visits
    # than its parent, so a block is kept exactly when its parent has threshold visits.
    blocks = np.zeros(VISIT_CLASSES, np.int64)
    for node in range(1, used):
        if nodes[node, FIRST] != UNEXPANDED:
            blocks[visit_class(nodes[node, VISITS])] += nodes[node, CAPACITY]
    threshold = keep_threshold(blocks, 1 + nodes[0, CAPACITY], target)
    # New index of every node (-1: freed), in order: parents are decided before children.
    index = np.full(used, -1, np.int64)
    index[0] = 0
    for node in range(used):
        first = nodes[node, FIRST]
        if index[node] < 0 or first == UNEXPANDED:
            continue
        if node == 0 or nodes[node, VISITS] >= threshold:
            for child in range(first, first + nodes[node, CAPACITY]):
                index[child] = 1
    n = number_kept(index, used)
    for node in range(used):
        new = index[node]
        if new < 0:
            continue
        first = nodes[node, FIRST]
        copy_into(nodes[new], nodes[node])
        copy_into(stats[new], stats[node])
        if first != UNEXPANDED and index[first] < 0:
            nodes[new, FIRST] = UNEXPANDED
            nodes[new, COUNT] = 0
            nodes[new, CAPACITY] = 0
        elif first != UNEXPANDED:
            nodes[new, FIRST] = index[first]
    size[USED] = n
    size[COMPACTIONS] += 1
    size[FREED] += used - n


# Visit counts as a compaction sorts them: each count below EXACT_VISITS its own class
# (most expanded nodes have a few visits, and dropping those with 2 should not drop those
# with 3), then one class per power of two.
EXACT_VISITS = 64
VISIT_CLASSES = EXACT_VISITS + 58  # up to 2**63


@njit(cache=True, inline="always")
def visit_class(visits):
    if visits < EXACT_VISITS:
        return max(visits, 1)
    cls = EXACT_VISITS
    while visits >= 2 * EXACT_VISITS:
        visits >>= np.int64(1)
        cls += 1
    return cls


@njit(cache=True, inline="always")
def keep_threshold(blocks, kept, target):
    """The fewest visits a node needs to keep its children, so that at most ``target``
    nodes stay: ``blocks[c]``, the children below nodes of visit class c; ``kept``, the
    nodes kept whatever the threshold (the root and its children)."""
    cls = VISIT_CLASSES
    while cls > 1 and kept + blocks[cls - 1] <= target:
        cls -= 1
        kept += blocks[cls]
    return class_visits(cls)


@njit(cache=True, inline="always")
def number_kept(index, used):
    """Number the nodes marked kept (``index`` > 0) in order after the root (0); freed
    ones stay -1. Returns the nodes kept."""
    n = 1
    for node in range(1, used):
        if index[node] > 0:
            index[node] = n
            n += 1
    return n


@njit(cache=True, inline="always")
def class_visits(cls):
    """The fewest visits of class ``cls`` (a class past the last: more than any count)."""
    if cls < EXACT_VISITS:
        return np.int64(cls)
    return np.int64(EXACT_VISITS) << np.int64(min(cls - EXACT_VISITS, 56))


@njit(cache=True)
def principal_variation(nodes, node, out):
    """Moves from ``node`` down the most visited children (``node``'s own move first)."""
    n = 1
    out[0] = nodes[node, MOVE]
    while nodes[node, FIRST] != UNEXPANDED and n < out.size:
        best = -1
        best_visits = 0
        start = nodes[node, FIRST]
        for child in range(start, start + nodes[node, COUNT]):
            if nodes[child, VISITS] > best_visits:
                best_visits = nodes[child, VISITS]
                best = child
        if best < 0:
            break
        out[n] = nodes[best, MOVE]
        n += 1
        node = best
    return n


@njit(cache=True)
def keep_subtree(nodes, stats, size, new_root):
    """Keep only the subtree under ``new_root``, in place: ``new_root`` becomes node 0 and
    the rest is packed after it in their order, each block of children still contiguous
    (a block lies after its parent, so every node moves towards the front, as in
    ``compact``). The work is the subtree's, not the tree's: a short search after a long
    one keeps a small part of a large tree. The arrays stay the tree's: their pages are
    touched already, and new arrays would fault every page on its first write. Returns
    the nodes kept."""
    kept = np.empty(size[USED] - new_root, np.int64)  # the subtree lies in [new_root, used)
    kept[0] = new_root
    n = 1
    head = 0
    while head < n:
        node = kept[head]
        head += 1
        first = nodes[node, FIRST]
        if first == UNEXPANDED:
            continue
        for child in range(first, first + nodes[node, CAPACITY]):  # a chance node's outcomes not yet in use too
            kept[n] = child
            n += 1
    kept = np.sort(kept[:n])  # their order: new_root first, every block contiguous
    for new in range(n):
        node = kept[new]
        first = nodes[node, FIRST]
        copy_into(nodes[new], nodes[node])
        copy_into(stats[new], stats[node])
        if first != UNEXPANDED:
            nodes[new, FIRST] = np.searchsorted(kept, first)
    size[USED] = n
    size[COMPACTIONS] = 0  # the counters are the search's, as in a new tree
    size[FREED] = 0
    return n
