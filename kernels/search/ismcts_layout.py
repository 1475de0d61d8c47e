"""The layout of an IS-MCTS tree, shared by the IS-MCTS template
(``tessera.kernels.search.ismcts``) and the search in Python (``tessera.search.ismcts``),
which never imports the template itself.

``nodes`` has IS-MCTS's own int64 columns: children are a linked list that grows as moves
show up (``FIRST`` child, ``NEXT`` sibling), and ``AVAIL`` counts the selections a node
was legal in. ``stats``, ``size`` and the search parameters are laid out as in MCTS
(``tessera.kernels.search.mcts_layout``), whose payoffs, values and parameters IS-MCTS
shares: the names below are those of that module.
"""

import numpy as np

from tessera.kernels.search import mcts_layout

NO_NODE = -1  # FIRST or NEXT where there is no child, or no sibling

# nodes[:, column]
VISITS = mcts_layout.VISITS  # column 0 as in MCTS: its node_value and backup read and count it
AVAIL = 1  # selections this node was legal in (availability)
FIRST = 2  # first child, or NO_NODE
NEXT = 3  # next sibling, or NO_NODE
MOVE = 4  # the move from the parent
NODE_COLUMNS = 5
# stats[:, column], as in MCTS: the prior, per-player payoff and margin sums, and
# ``CHOSEN_VALUE``, which IS-MCTS leaves unused (``backup``).
PRIOR = mcts_layout.PRIOR
WIN = mcts_layout.WIN  # WIN + p: payoff sum of player p
MARGIN = mcts_layout.MARGIN  # MARGIN + p: margin sum of player p
CHOSEN_VALUE = mcts_layout.CHOSEN_VALUE
STAT_COLUMNS = mcts_layout.STAT_COLUMNS
# size[t, column], tree t's counters, as in MCTS.
USED = mcts_layout.USED
COMPACTIONS = mcts_layout.COMPACTIONS
FREED = mcts_layout.FREED
SIZE_COLUMNS = mcts_layout.SIZE_COLUMNS
# Bytes a node costs: its rows in ``nodes`` and ``stats``, and its slot in a compaction's
# index (``compact``); the memory budget divides by this.
NODE_BYTES = 8 * (NODE_COLUMNS + STAT_COLUMNS + 1)


def new_tree(max_nodes, trees=1):
    """``(nodes, stats, size)`` for ``trees`` independent trees of ``max_nodes`` nodes;
    ``size[t]`` holds tree t's counters (``USED``, ``COMPACTIONS``, ``FREED``)."""
    tree = (
        np.zeros((trees, max_nodes, NODE_COLUMNS), np.int64),
        np.zeros((trees, max_nodes, STAT_COLUMNS), np.float64),
        np.zeros((trees, SIZE_COLUMNS), np.int64),
    )
    return clear_tree(tree)


def clear_tree(tree):
    """Make every tree of ``tree`` (``new_tree``'s arrays) its root alone again, in place,
    and return it. The nodes past the roots keep what they held: a node is written whole
    when it is added (``add_child``), so no search reads one it has not added."""
    nodes, stats, size = tree
    nodes[:, 0] = 0
    nodes[:, 0, FIRST] = NO_NODE
    nodes[:, 0, NEXT] = NO_NODE
    stats[:, 0] = 0.0
    size[:] = 0
    size[:, USED] = 1
    return tree
