"""The layout of an MCTS tree and of the search parameters, shared by the MCTS template
(``tessera.kernels.search.mcts``), the kernels of its tree that know no game
(``tessera.kernels.search.tree``), IS-MCTS (``tessera.kernels.search.ismcts_layout``) and
the searches in Python (``tessera.search``), which never import the template itself.

A tree is two preallocated arrays (``new_tree``): ``nodes`` (int64 columns ``VISITS``,
``FIRST``, ``COUNT``, ``CAPACITY``, ``MOVE``, ``PROVEN``) and ``stats`` (float64: ``PRIOR``, then
per-player payoff sums from ``WIN`` and margin sums from ``MARGIN``, then ``CHOSEN_VALUE``),
plus ``size``, the tree's counters. The kernels read all of these as compile-time constants (numba freezes a
module's integer globals, not a class's attributes). The search parameters are one named
tuple (``SearchParams``, made by ``params``), so the kernels take a single argument and read
its fields by name.
"""

from typing import NamedTuple

import numpy as np

MAX_PLAYERS = 4
UNEXPANDED = -1  # FIRST of a node without children
EXPANDING = -2  # FIRST while one thread gives the node its children

# The rollouts a search may run, each compiled into instances of its own (``bind.VARIANTS``).
ROLLOUTS = ("random", "greedy", "round", "mixed")
# The rollouts that stop at the next round boundary and score it: where a value model acts.
CUT_ROLLOUTS = ("round", "mixed")

# nodes[:, column]
VISITS = 0
FIRST = 1
COUNT = 2
CAPACITY = 3
MOVE = 4  # the move from the parent; below a chance node, the outcome's seed
# 1 once the node's value is exact (the MCTS-solver of ``mcts.prove_path``): a finished
# game, or a player node whose children are all proven; its sums are then its exact value
# times its visits.
PROVEN = 5
NODE_COLUMNS = 6
# stats[:, column]
PRIOR = 0
WIN = 1  # WIN + p: payoff sum of player p
MARGIN = WIN + MAX_PLAYERS
# The node's value, by the search's value (``SearchParams.value``), for the player who chose
# it (the player to move at its parent), kept up to date whenever its sums change: an MCTS
# selection reads one number a child instead of working out every child's value (for the
# margin, a tanh each). IS-MCTS leaves it unused (``ismcts.run_tree``).
CHOSEN_VALUE = MARGIN + MAX_PLAYERS
STAT_COLUMNS = CHOSEN_VALUE + 1

# size[column], a tree's counters
USED = 0  # nodes in use, from 0
COMPACTIONS = 1  # times the full tree was compacted
FREED = 2  # nodes the compactions freed, in all
SIZE_COLUMNS = 3
# Bytes a node costs: its rows in ``nodes`` and ``stats``, and its slot in a compaction's
# index (``tree.compact``); the memory budget divides by this.
NODE_BYTES = 8 * (NODE_COLUMNS + STAT_COLUMNS + 1)

# Values a selection maximises (``SearchParams.value``).
VALUE_WIN = 0  # mean payoff
VALUE_MARGIN = 1  # mean score margin, squashed into 0..1
VALUE_BLEND = 2  # the average of the two

# The rows of a learned model as the kernels take it (``run_tree``'s ``model``, made by
# ``tessera.search.value_model``), padded with zeros to the longest; no rows: no model.
# - ``MODEL_MARGIN``, ``MODEL_WIN``: the linear weights of the final margin and of the win
#   chance's logit over the game's value features;
# - ``MODEL_POLICY``: the weights of a move's logit over the game's move features (PUCT's
#   priors), zeros when the model has no policy;
# - ``MODEL_SHAPE``: the model's shape, ``SHAPE_HIDDEN`` its hidden units (0: linear) and
#   ``SHAPE_POLICY`` 1 when it has a policy;
# - from ``MODEL_HIDDEN``, one row a hidden unit: its weight in the margin
#   (``HIDDEN_MARGIN``) and in the logit (``HIDDEN_WIN``), then from ``HIDDEN_INPUT`` its
#   weights over the value features (the constant feature carries its bias).
MODEL_MARGIN = 0
MODEL_WIN = 1
MODEL_POLICY = 2
MODEL_SHAPE = 3
MODEL_HIDDEN = 4
SHAPE_HIDDEN = 0
SHAPE_POLICY = 1
HIDDEN_MARGIN = 0
HIDDEN_WIN = 1
HIDDEN_INPUT = 2

# Selection rules (``SearchParams.select``).
SELECT_UCT = 0
SELECT_PUCT = 1


class SearchParams(NamedTuple):
    """The parameters of a search, one argument of the kernels. Every field always holds
    its own Python type (``params``): numba compiles a kernel once per argument type."""

    exploration: float  # the exploration constant c
    value: int  # a VALUE_ code
    select: int  # a SELECT_ code
    chance_width: int  # outcomes a chance node keeps
    prior_temperature: float  # PUCT: the softmax temperature of the move heuristic's priors
    policy_temperature: float  # PUCT: the softmax temperature of a learned policy's priors
    fpu: float  # first-play urgency: an unvisited child's value under PUCT (``first_play``)


def new_tree(max_nodes):
    """``(nodes, stats, size)`` of a tree of ``max_nodes`` nodes, the root alone in it;
    ``size`` holds its counters (``USED``, ``COMPACTIONS``, ``FREED``)."""
    tree = (
        np.zeros((max_nodes, NODE_COLUMNS), np.int64),
        np.zeros((max_nodes, STAT_COLUMNS), np.float64),
        np.zeros(SIZE_COLUMNS, np.int64),
    )
    return clear_tree(tree)


def clear_tree(tree):
    """Make ``tree`` (``new_tree``'s arrays) the root alone again, in place, and return it.
    The nodes past the root keep what they held: a node is written whole when it is
    added (``init_node``), so no search reads one it has not added."""
    nodes, stats, size = tree
    nodes[0] = 0
    nodes[0, FIRST] = UNEXPANDED
    stats[0] = 0.0
    size[:] = 0
    size[USED] = 1
    return tree


def params(exploration, value, select, chance_width, prior_temperature, policy_temperature, fpu):
    """The parameters of a search; every value given (the product's defaults live in
    ``tessera.search.mcts.MctsOptions``)."""
    return SearchParams(
        float(exploration),
        int(value),
        int(select),
        int(chance_width),
        float(prior_temperature),
        float(policy_temperature),
        float(fpu),
    )
