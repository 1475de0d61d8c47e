"""Information-set MCTS in numba: single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012).

A template (``tessera.kernels.bind``): each game runs its own instances, one per rollout,
``bind.instance(game, "ismcts", rollout)``, where ``games`` is that game's interface.

The root may be a player's view (``tessera.kernels.games``): every iteration draws a
determinization of it with ``games.determinize`` for the player to move at the
root (the observer) and plays one simulation in that complete state. The tree
is shared by all determinizations: a node is the sequence of player moves from
the root, whatever the hidden cards and chance outcomes were, so it stands for
what the observer knows there (an information set), and its statistics average
over the determinizations that reached it.

- Children: the moves legal in one determinization may be missing in another,
  so children are a linked list (``FIRST`` child, ``NEXT`` sibling) that grows
  as moves show up. With UCT a node gains one child per visit: when some move
  legal in this determinization has no child, one of them is picked at random
  and the simulation rolls out from it. With PUCT every legal move missing a
  child gets one at once, prior from the softmax of the move heuristic (or of a
  model's policy, when it has one) over this determinization's moves.
- Selection (ISUCT) runs over the children whose move is legal in this
  determinization. Each such child counts one ``AVAIL`` (availability) per
  selection it took part in, and replaces the parent's visits in the
  exploration term: ``value + c * sqrt(ln AVAIL / VISITS)`` (PUCT:
  ``q + c * prior * sqrt(AVAIL) / (1 + VISITS)``). A move that is rarely legal
  is not starved by the many visits its parent had without it.
- Chance is open loop: chance acts inside the determinization with the
  iteration's generator and is not part of the tree, so the children below a
  node are simply the player moves that follow, whatever chance did.
- Every simulation rolls out (uniform random or epsilon-greedy to the end; "round" to
  the next round boundary, scored by the game's estimate or a learned value; "mixed"
  both) and backs up, for every player, the payoff and the score margin, as in
  ``tessera.kernels.search.mcts``, whose values, parameters and rollouts are shared
  (the backup is IS-MCTS's own: ``backup``).
  The tree's layout and ``new_tree`` are ``tessera.kernels.search.ismcts_layout``'s.
- When the node arrays are nearly full the tree is compacted (``compact``): the
  children of the least visited nodes are freed, the rest packed to the front, and
  the tree keeps growing where the visits go (the memory bound, as in
  ``tessera.kernels.search.mcts``). A simulation that still finds the arrays full rolls out
  from the node it reached.

Opponents' nodes average over the observer's uncertainty too, so the tree models
them as choosing without their own hidden cards (known limits, strategy fusion
and non-locality: docs/hidden-information.md).
"""

import numpy as np

from tessera.kernels.arrays import copy_into, ints, sort_prefix, zero_ints
from tessera.kernels.bind import kernel, sibling, template_games
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import below
from tessera.kernels.search.clock import FOREVER, now, simulations_until_check
from tessera.kernels.search.ismcts_layout import (
    AVAIL,
    COMPACTIONS,
    FIRST,
    FREED,
    MARGIN,
    MOVE,
    NEXT,
    NO_NODE,
    PRIOR,
    STAT_COLUMNS,
    USED,
    VISITS,
    WIN,
)
from tessera.kernels.search.mcts_layout import MAX_PLAYERS, SELECT_PUCT
from tessera.kernels.search.tree import VISIT_CLASSES, keep_threshold, number_kept, visit_class

games = template_games(__name__)
_mcts = sibling(__name__, "mcts")  # the same game's MCTS kernels, with the same rollout
node_value, rollout = _mcts.node_value, _mcts.rollout
scored_outcome, mixed_outcome, MIX = _mcts.scored_outcome, _mcts.mixed_outcome, _mcts.MIX
first_play, feature_rows, ROLLOUT = _mcts.first_play, _mcts.feature_rows, _mcts.ROLLOUT
move_priors, POLICY_ROOM = _mcts.move_priors, _mcts.POLICY_ROOM
simulation_buffers = _mcts.simulation_buffers
puct, uct = _mcts.puct, _mcts.uct


@kernel
def add_child(nodes, stats, size, parent, move, prior):
    """A new first child of ``parent`` for ``move``; NO_NODE when the arrays are full."""
    child = size[USED]
    if child >= nodes.shape[0]:
        return NO_NODE
    size[USED] = child + 1
    nodes[child, VISITS] = 0
    nodes[child, AVAIL] = 0
    nodes[child, FIRST] = NO_NODE
    nodes[child, NEXT] = nodes[parent, FIRST]
    nodes[child, MOVE] = move
    stats[child, :] = 0.0
    stats[child, PRIOR] = prior
    nodes[parent, FIRST] = child
    return child


@kernel
def match_children(nodes, node, moves, n, slot):
    """``slot[i]``: the child of ``node`` for ``moves[i]`` (sorted), or NO_NODE; returns how many lack one."""
    slot[:n] = NO_NODE
    missing = n
    child = nodes[node, FIRST]
    while child != NO_NODE:
        move = nodes[child, MOVE]
        i = np.searchsorted(moves[:n], move)
        if i < n and moves[i] == move:
            slot[i] = child
            missing -= 1
        child = nodes[child, NEXT]
    return missing


@kernel
def nth_missing(slot, n, k):
    """The index of the ``k``-th move without a child; -1 when fewer than ``k + 1`` lack one."""
    for i in range(n):
        if slot[i] == NO_NODE:
            if k == 0:
                return i
            k -= 1
    return -1


@kernel
def best_available(nodes, stats, node, slot, n, player, prm):
    """ISUCT (or PUCT) over the children of ``node`` in ``slot``, with availability for
    parent visits; each child's value worked out for ``player`` (``run_tree``: IS-MCTS
    keeps no ``CHOSEN_VALUE``)."""
    by_puct = prm.select == SELECT_PUCT
    c = prm.exploration
    mode = prm.value
    unvisited = first_play(nodes, stats, node, player, mode, prm.fpu)
    best = NO_NODE
    best_score = -np.inf
    for i in range(n):
        child = slot[i]
        avail = nodes[child, AVAIL]
        visits = nodes[child, VISITS]
        if by_puct:
            q = node_value(nodes, stats, child, player, mode) if visits > 0 else unvisited
            score = puct(q, stats[child, PRIOR], visits, c, np.sqrt(avail))
        else:
            # With UCT every child got its first visit when it was added.
            score = uct(node_value(nodes, stats, child, player, mode), visits, c, np.log(avail))
        if score > best_score:
            best_score = score
            best = child
    return best


@kernel
def choose(nodes, stats, size, node, state, player, prm, rng, moves, values, slot, prior_rows, model, move_rows):
    """The child of ``node`` this determinization follows, adding children as needed.
    PUCT's priors: as in ``tessera.kernels.search.mcts.expand``, the policy of ``model`` when
    it has one (``move_rows``: room for the moves' features), else the move heuristic's.

    Counts one availability for every child legal here. Returns NO_NODE when the
    tree is full; a child with no visits is a new leaf.
    """
    n = games.legal_moves(state, moves)
    sort_prefix(moves, n)
    missing = match_children(nodes, node, moves, n, slot)
    if missing > 0 and prm.select != SELECT_PUCT:
        i = nth_missing(slot, n, below(rng, missing))
        slot[i] = add_child(nodes, stats, size, node, moves[i], 0.0)
        if slot[i] == NO_NODE:
            return NO_NODE
        count_available(nodes, slot, n)
        return slot[i]
    if missing > 0:
        if size[USED] + missing > nodes.shape[0]:
            return NO_NODE
        move_priors(prior_rows, state, 0, n, moves, values, prm, model, move_rows)
        for i in range(n):
            if slot[i] == NO_NODE:
                slot[i] = add_child(nodes, stats, size, node, moves[i], prior_rows[i, PRIOR])
    count_available(nodes, slot, n)
    return best_available(nodes, stats, node, slot, n, player, prm)


@kernel
def count_available(nodes, slot, n):
    for i in range(n):
        if slot[i] != NO_NODE:
            nodes[slot[i], AVAIL] += 1


@kernel(inline="always")  # into run_tree: not compiled (optimised, emitted) a second time on its own
def simulate(
    nodes,
    stats,
    size,
    root,
    observer,
    prm,
    rng,
    state,
    moves,
    values,
    slot,
    prior_rows,
    path,
    payoff,
    margin,
    score,
    model,
    features,
    move_rows,
    kept,
    root_slot,
    root_moves,
):
    """One iteration: determinize, select, expand, roll out, back up (``model``, ``features``,
    ``kept``: the round and mixed rollouts' scoring, as in ``tessera.kernels.search.mcts``;
    ``model`` and ``move_rows``: ``choose``'s priors).

    The observer's moves at the root are the same in every determinization (what it may
    play, it knows): once each of the ``root_moves`` has its child, ``root_slot`` holds
    them in ``choose``'s order, and the root's selection takes them from there instead of
    listing and matching the moves again (``root_slot[0]`` is NO_NODE until then)."""
    games.determinize(root, observer, rng, state)
    depth = 0
    path[0] = 0
    node = 0
    while depth + 1 < path.size:
        who = games.to_move(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            games.resolve_chance(state, rng)  # open loop: not in the tree
            continue
        if node == 0 and root_slot[0] != NO_NODE:
            count_available(nodes, root_slot, root_moves)
            child = best_available(nodes, stats, 0, root_slot, root_moves, who, prm)
        else:
            child = choose(
                nodes, stats, size, node, state, who, prm, rng, moves, values, slot, prior_rows, model, move_rows
            )
            if node == 0 and child != NO_NODE and nth_missing(slot, root_moves, 0) < 0:
                root_slot[:root_moves] = slot[:root_moves]  # no root move lacks a child
        if child == NO_NODE:
            break  # tree full
        games.apply_move(state, nodes[child, MOVE])
        depth += 1
        path[depth] = child
        node = child
        if nodes[child, VISITS] == 0:
            break  # a new leaf: roll out
    rollout(state, rng, moves, values)
    scored_outcome(state, payoff, margin, score, model, features)
    if ROLLOUT == "mixed":
        mixed_outcome(state, rng, moves, values, payoff, margin, score, MIX, kept)
    backup(nodes, stats, path, depth, games.players(state), payoff, margin)


@kernel(inline="always")
def backup(nodes, stats, path, depth, players, payoff, margin):
    """A visit, and every player's payoff and margin, for each node of ``path[:depth + 1]``.
    Plain adds: a tree is one thread's (MCTS's ``backup`` adds atomically, for the threads
    that share its tree). Nor does a node keep a chosen value, as MCTS's do: chance is
    open loop, so the player to move after the same moves may differ between
    determinizations, and a value kept for one chooser would be read by another;
    ``best_available`` works each value out instead."""
    for i in range(depth + 1):
        node = path[i]
        nodes[node, VISITS] += 1
        for p in range(players):
            stats[node, WIN + p] += payoff[p]
            stats[node, MARGIN + p] += margin[p]


@kernel(nogil=True)  # the trees of a parallel search run on Python threads
def run_tree(nodes, stats, size, root, iterations, deadline, prm, rng, model):
    """Up to ``iterations`` simulations for the player to move at ``root``, stopping once
    ``time.perf_counter()`` passes ``deadline``; returns the simulations run. ``rng``
    carries on between calls; generator and size are kept thread-local while it runs
    (as in ``tessera.kernels.search.mcts.run_tree``). ``model``: a learned value that scores
    where round and mixed rollouts stop (``tessera.kernels.search.mcts.run_tree``'s), shape
    (0, 0) for none; its policy, when it has one, gives PUCT's priors (``choose``)."""
    observer = games.to_move(root)
    state = root.copy()
    local_rng = rng.copy()
    local_size = size.copy()
    moves, values, path, _, payoff, margin, score = simulation_buffers()
    slot = ints(games.MAX_MOVES)
    prior_rows = np.zeros((games.MAX_MOVES, STAT_COLUMNS), np.float64)  # move_priors' output
    features = feature_rows()
    move_rows = np.empty((games.MAX_MOVES, POLICY_ROOM), np.float64)
    kept = np.zeros(2 * MAX_PLAYERS, np.float64)
    root_slot = np.full(games.MAX_MOVES, NO_NODE, np.int64)  # simulate's root children, once known
    root_moves = games.legal_moves(root, moves)
    # A simulation adds children mostly at one node (one move's worth under UCT, a
    # determinization's missing moves under PUCT): with this much room it seldom finds the
    # arrays full; below that the tree is compacted to half its arrays and keeps growing.
    room = games.MAX_MOVES
    timed = deadline < FOREVER
    started = now() if timed else 0.0
    done = 0
    check = 1
    while done < iterations:
        if local_size[USED] + room > nodes.shape[0]:
            compact(nodes, stats, local_size, nodes.shape[0] // 2)
            # Listed again: compaction renumbers nodes (the root's children, made first,
            # keep their places, but nothing here relies on that).
            root_slot[0] = NO_NODE
        simulate(
            nodes,
            stats,
            local_size,
            root,
            observer,
            prm,
            local_rng,
            state,
            moves,
            values,
            slot,
            prior_rows,
            path,
            payoff,
            margin,
            score,
            model,
            features,
            move_rows,
            kept,
            root_slot,
            root_moves,
        )
        done += 1
        if timed and done >= check:
            t = now()
            if t >= deadline:
                break
            check = done + simulations_until_check(done, started, t)
    rng[0] = local_rng[0]
    copy_into(size, local_size)
    return done


@kernel
def compact(nodes, stats, size, target):
    """Free the children of the nodes that matter least until at most ``target`` nodes are
    in use, and pack the rest at the front of the arrays, as ``tessera.kernels.search.tree.compact``
    does for its trees: every node below ``threshold`` visits (the smallest threshold
    that brings the tree to ``target``, by ``visit_class``) loses its children and is a
    leaf again, its own statistics and availability kept; the root keeps its children.

    A child is always added after its parent, so packing in order moves every node
    towards the front, and a node's children are kept or freed together, so the sibling
    links of the kept ones stay whole. Between simulations only.
    """
    used = size[USED]
    # Children by the visits of their parent: a node has no more visits than its parent,
    # so a node's children are kept exactly when it has threshold visits.
    blocks = zero_ints(VISIT_CLASSES)
    for node in range(1, used):
        cls = visit_class(nodes[node, VISITS])
        child = nodes[node, FIRST]
        while child != NO_NODE:
            blocks[cls] += 1
            child = nodes[child, NEXT]
    threshold = keep_threshold(blocks, used - blocks.sum(), target)  # the root and its children
    # New index of every node (-1: freed), decided parents first.
    index = np.full(used, -1, np.int64)
    index[0] = 0
    for node in range(used):
        if index[node] < 0 or (node != 0 and nodes[node, VISITS] < threshold):
            continue
        child = nodes[node, FIRST]
        while child != NO_NODE:
            index[child] = 1
            child = nodes[child, NEXT]
    n = number_kept(index, used)
    for node in range(used):
        new = index[node]
        if new < 0:
            continue
        first, sibling = nodes[node, FIRST], nodes[node, NEXT]
        copy_into(nodes[new], nodes[node])
        copy_into(stats[new], stats[node])
        nodes[new, FIRST] = NO_NODE if first == NO_NODE or index[first] < 0 else index[first]
        nodes[new, NEXT] = NO_NODE if sibling == NO_NODE else index[sibling]
    size[USED] = n
    size[COMPACTIONS] += 1
    size[FREED] += used - n


@kernel
def children(nodes, node, out):
    """The children of ``node`` into ``out``; the count."""
    n = 0
    child = nodes[node, FIRST]
    while child != NO_NODE:
        out[n] = child
        n += 1
        child = nodes[child, NEXT]
    return n


@kernel
def principal_variation(nodes, node, out):
    """Moves from ``node`` down the most visited children (``node``'s own move first)."""
    n = 1
    out[0] = nodes[node, MOVE]
    while n < out.size:
        best = NO_NODE
        best_visits = 0
        child = nodes[node, FIRST]
        while child != NO_NODE:
            if nodes[child, VISITS] > best_visits:
                best_visits = nodes[child, VISITS]
                best = child
            child = nodes[child, NEXT]
        if best == NO_NODE:
            break
        out[n] = nodes[best, MOVE]
        n += 1
        node = best
    return n
