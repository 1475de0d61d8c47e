"""The layout of an MCTS tree and of the search parameters, shared by the MCTS template
(``tessera.kernels.search.mcts``), the kernels of its tree that know no game
(``tessera.kernels.search.tree``), IS-MCTS (``tessera.kernels.search.ismcts_layout``) and
the searches in Python (``tessera.search``), which never import the template itself.

A tree is two preallocated arrays (``new_tree``): ``nodes`` (int64 columns ``VISITS``,
``FIRST``, ``COUNT``, ``CAPACITY``, ``MOVE``) and ``stats`` (float64: ``PRIOR``, then
per-player payoff sums from ``WIN`` and margin sums from ``MARGIN``), plus ``size``, the
tree's counters. The search parameters are one float64 array (``params``), so the kernels
take a single argument; its words are the ``P_`` indices. The kernels read all of these as
compile-time constants (numba freezes a module's integer globals, not a class's attributes).
"""
import numpy as np

MAX_PLAYERS = 4
UNEXPANDED = -1      # FIRST of a node without children
EXPANDING = -2       # FIRST while one thread gives the node its children

# The rollouts a search may run, each compiled into instances of its own (``bind.VARIANTS``).
ROLLOUTS = ("random", "greedy", "round")

# nodes[:, column]
VISITS = 0
FIRST = 1
COUNT = 2
CAPACITY = 3
MOVE = 4             # the move from the parent; below a chance node, the outcome's seed
NODE_COLUMNS = 5
# stats[:, column]
PRIOR = 0
WIN = 1              # WIN + p: payoff sum of player p
MARGIN = WIN + MAX_PLAYERS
STAT_COLUMNS = MARGIN + MAX_PLAYERS

# size[column], a tree's counters
USED = 0             # nodes in use, from 0
COMPACTIONS = 1      # times the full tree was compacted
FREED = 2            # nodes the compactions freed, in all
SIZE_COLUMNS = 3
# Bytes a node costs: its rows in ``nodes`` and ``stats``, and its slot in a compaction's
# index (``tree.compact``); the memory budget divides by this.
NODE_BYTES = 8 * (NODE_COLUMNS + STAT_COLUMNS + 1)

# Values a selection maximises (word P_VALUE).
VALUE_WIN = 0        # mean payoff
VALUE_MARGIN = 1     # mean score margin, squashed into 0..1
VALUE_BLEND = 2      # the average of the two

# Selection rules (word P_SELECT).
SELECT_UCT = 0
SELECT_PUCT = 1

# The words of the parameter array.
P_EXPLORATION = 0    # the exploration constant c
P_VALUE = 1          # a VALUE_ code
P_SELECT = 2         # a SELECT_ code
P_CHANCE_WIDTH = 3   # outcomes a chance node keeps
P_PRIOR_TEMPERATURE = 4   # PUCT: the softmax temperature of the move heuristic's priors
P_FPU = 5            # first-play urgency: the value of an unvisited child under PUCT (``first_play``)
N_PARAMS = 6


def new_tree(max_nodes):
    """``(nodes, stats, size)`` of a tree of ``max_nodes`` nodes, the root alone in it;
    ``size`` holds its counters (``USED``, ``COMPACTIONS``, ``FREED``)."""
    nodes = np.zeros((max_nodes, NODE_COLUMNS), np.int64)
    nodes[0, FIRST] = UNEXPANDED
    size = np.zeros(SIZE_COLUMNS, np.int64)
    size[USED] = 1
    return nodes, np.zeros((max_nodes, STAT_COLUMNS), np.float64), size


def params(exploration, value, select, chance_width, prior_temperature, fpu):
    """The parameter array of a search; every value given (the product's defaults live in
    ``tessera.search.mcts.MctsOptions``)."""
    p = np.zeros(N_PARAMS, np.float64)
    p[P_EXPLORATION] = exploration
    p[P_VALUE] = value
    p[P_SELECT] = select
    p[P_CHANCE_WIDTH] = chance_width
    p[P_PRIOR_TEMPERATURE] = prior_temperature
    p[P_FPU] = fpu
    return p
