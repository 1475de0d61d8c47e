"""Alpha-beta search, for any game of ``tessera.kernels.games``, in one of two modes.

A template (``tessera.kernels.bind``): each game runs its own instance, ``bind.instance(game,
"alphabeta")``, where ``games`` is that game's interface.

``MODE_ROUND`` (Azul, Summer Pavilion) searches to the end of the round. A value
is the root player's score margin (their score minus the best other score),
times ``SCALE``, from the root player's side, at the horizon:

- chance to act (the end of the round): the margin of the current scores;
- the game over: the final margin, plus a tie-break step of +1 / -1 when the
  payoffs say the root player won / lost outright (0 when the win is shared), so
  that a tie on points still tells win, draw and loss apart;
- the depth limit: the margin of ``games.evaluate`` (a heuristic cut-off).

``MODE_GAME`` (Azure) searches to the end of the game, through chance: a value is
the root player's win probability, in [0, 1]:

- the game over: the root player's payoff (1 a win, 0 a loss, 0.5 a shared win);
- chance to act: the probability-weighted mean of its outcomes' values
  (expectimax), each outcome searched with a window derived from the node's (Star1,
  with the value range [0, 1]). Chance steps do not count against the depth;
- the depth limit: ``1 / (1 + exp(-margin / LOGISTIC_POINTS))`` of the
  ``games.evaluate`` margin (a heuristic cut-off).

The mode is word ``MODE`` of the ``limits`` array (``new_limits(..., mode=)``); the values,
modes, ``counters`` and ``limits`` are laid out, and made, in ``tessera.kernels.search.alphabeta_layout``.

The root player maximises; every other player minimises (2 players: minimax; 3-4
players: the paranoid choice). Who maximises is decided by ``to_move`` at each
node, not by alternation, because a player may move several times in a row.

A subtree is proven when it reached no heuristic leaf (and no unproven table
entry); proven results go into the table with depth ``ttable.PROVEN`` and are
reused at any depth. docs/search-alphabeta.md has the design.
"""

import time

import numpy as np
from numba import objmode

from tessera.kernels.arrays import copy_into
from tessera.kernels.bind import kernel, template_games
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.search import ttable
from tessera.kernels.search.alphabeta_layout import (
    ABORTED,
    DEADLINE,
    DEEPEST,
    LOGISTIC_POINTS,
    MODE,
    MODE_GAME,
    NEXT_CLOCK,
    NODE_LIMIT,
    NODES,
    SCALE,
    TOLERANCE,
    UNPROVEN,
)

games = template_games(__name__)

INFINITY = 1e18
CLOCK_EVERY = 1024  # nodes between two looks at the clock
LOW = 0.0  # MODE_GAME: the lowest and highest possible values
HIGH = 1.0
HISTORY_SLOTS = 1024  # MODE_GAME move ordering: cut-off counts per side and move code (masked)

# What ``_expand`` found each child to be.
HORIZON = 0  # game over, or chance in MODE_ROUND: valued exactly
CUT_OFF = 1  # out of depth: valued by the heuristic
INNER = 2  # searched further
DUPLICATE = 3  # same position as an earlier visited sibling: not searched again


def new_work(state, max_ply):
    """Per-ply scratch: children, their moves, hashes, static values, kinds and order;
    a per-player score buffer; the chance outcomes' probabilities (MODE_GAME), also the
    children's ranks at player nodes; the history counts (MODE_GAME), kept over a search."""
    shape = (max_ply, games.MAX_MOVES)
    return (
        np.empty(shape + (state.size,), np.int64),
        np.empty(shape, np.int64),
        np.empty(shape, np.int64),
        np.empty(shape, np.float64),
        np.empty(shape, np.int8),
        np.empty(shape, np.int64),
        np.empty(max(1, games.players(state)), np.float64),
        np.empty(shape, np.float64),
        np.zeros(2 * HISTORY_SLOTS, np.float64),
    )


@kernel
def _now():
    with objmode(t="float64"):
        t = time.perf_counter()
    return t


@kernel
def _out_of_budget(counters, limits):
    """True once the node limit or the deadline has passed.

    The clock is read sparingly, and never without a deadline: the first read in a
    process costs a few tenths of a second (numba sets up its object mode).
    """
    if counters[ABORTED]:
        return True
    if counters[NODES] >= limits[NODE_LIMIT]:
        counters[ABORTED] = 1
    elif limits[DEADLINE] < np.inf and counters[NODES] >= counters[NEXT_CLOCK]:
        counters[NEXT_CLOCK] = counters[NODES] + CLOCK_EVERY
        if _now() > limits[DEADLINE]:
            counters[ABORTED] = 1
    return counters[ABORTED] != 0


@kernel
def _margin(values, root):
    best_other = -INFINITY
    for p in range(values.size):
        if p != root and values[p] > best_other:
            best_other = values[p]
    return values[root] - best_other


@kernel
def horizon_value(state, root, scratch):
    """MODE_ROUND: the exact value where chance acts or the game is over."""
    games.scores(state, scratch)
    value = SCALE * _margin(scratch, root)
    if games.to_move(state) == TERMINAL:
        games.payoffs(state, scratch)
        if scratch[root] == 1.0:
            value += 1.0
        elif scratch[root] == 0.0:
            value -= 1.0
    return value


@kernel
def heuristic_value(state, root, scratch):
    """MODE_ROUND: the cut-off value, the margin of ``games.evaluate``."""
    games.evaluate(state, scratch)
    return SCALE * _margin(scratch, root)


@kernel
def game_value(state, root, scratch):
    """MODE_GAME: the root player's payoff in a finished game."""
    games.payoffs(state, scratch)
    return scratch[root]


@kernel
def win_estimate(state, root, scratch):
    """MODE_GAME: the cut-off value, a logistic of the ``games.evaluate`` margin."""
    games.evaluate(state, scratch)
    return 1.0 / (1.0 + np.exp(-_margin(scratch, root) / LOGISTIC_POINTS))


@kernel
def _game_mode(limits):
    return limits[MODE] == MODE_GAME


@kernel
def _classify(child, ply, child_depth, root, game, room, static, kinds, scratch, i):
    """Set ``kinds[ply, i]`` and ``static[ply, i]`` for ``child``, to be searched to ``child_depth``.

    A finished game is valued exactly, and so is chance in MODE_ROUND (the horizon).
    In MODE_GAME a chance child is always searched (chance steps cost no depth),
    unless the ply buffer is full (``room`` False); a child with a player to move is
    searched when depth is left. Otherwise the child is a cut-off, valued by the
    heuristic. (The arrays are passed one by one, not as ``work``: a tuple of arrays
    costs reference counting at every call, and this one is made for every child.)
    """
    who = games.to_move(child)
    if who == TERMINAL:
        kinds[ply, i] = HORIZON
        static[ply, i] = game_value(child, root, scratch) if game else horizon_value(child, root, scratch)
    elif who == CHANCE and not game:
        kinds[ply, i] = HORIZON
        static[ply, i] = horizon_value(child, root, scratch)
    else:
        inner = room and (who == CHANCE or child_depth >= 1)
        kinds[ply, i] = INNER if inner else CUT_OFF
        static[ply, i] = win_estimate(child, root, scratch) if game else heuristic_value(child, root, scratch)


@kernel
def _expand(state, ply, depth, root, tt_move, game, work):
    """Make the children of ``state`` (a player to move) at ``ply``, value them statically
    and order them.

    ``order[ply, :n]`` lists them best first for the player to move: the table's
    move, then by static value (the root player's highest, the others' lowest). In
    MODE_GAME (``_game_ranks``) a certain win comes after the table's move, then the
    history counts decide, then the static value.
    Returns n.
    """
    children, moves, _, static, kinds, order, scratch, ranks, _ = work
    room = ply + 1 < children.shape[0]
    n = games.legal_moves(state, moves[ply])
    for i in range(n):
        child = children[ply, i]
        copy_into(child, state)
        games.apply_move(child, moves[ply, i])
        _classify(child, ply, depth - 1, root, game, room, static, kinds, scratch, i)
        order[ply, i] = i
    maximising = games.to_move(state) == root
    if game:
        _game_ranks(ply, n, maximising, work)
        _sort_children(ply, n, maximising, tt_move, moves, ranks, order)
    else:
        _sort_children(ply, n, maximising, tt_move, moves, static, order)
    return n


@kernel
def _game_ranks(ply, n, maximising, work):
    """MODE_GAME: the children's ranks for ordering, into ``ranks[ply]`` (the probs scratch).

    The history heuristic: a move (code, side) that cut off searches before is tried
    first, by its count of cut-offs; static values order moves of equal counts. A
    child that is a certain win for the mover (the game over, or chance to act, and
    valued 1 for the root player, 0 for the others) goes before all of them.
    """
    _, moves, _, static, kinds, _, _, ranks, history = work
    side = HISTORY_SLOTS if maximising else 0
    for i in range(n):
        count = 2.0 * history[side + (moves[ply, i] & (HISTORY_SLOTS - 1))]
        value = static[ply, i]
        if kinds[ply, i] == HORIZON and value == (HIGH if maximising else LOW):
            count = INFINITY / 2
        ranks[ply, i] = value + count if maximising else value - count


@kernel(inline="always")
def _count_cut_off(maximising, move, history):
    """MODE_GAME: a cut-off by ``move`` of the side to move (maximising or not)."""
    history[(HISTORY_SLOTS if maximising else 0) + (move & (HISTORY_SLOTS - 1))] += 1.0


@kernel
def _expand_chance(state, ply, depth, root, work):
    """MODE_GAME: make the outcomes of the chance node ``state`` at ``ply``.

    ``probs[ply, i]`` is outcome i's probability; ``order[ply, :n]`` lists the
    outcomes most probable first. The outcomes keep the node's depth. Returns n.
    """
    children, moves, _, static, kinds, order, scratch, probs, _ = work
    room = ply + 1 < children.shape[0]
    n = games.chance_outcomes(state, moves[ply], probs[ply])
    for i in range(n):
        child = children[ply, i]
        copy_into(child, state)
        games.apply_move(child, moves[ply, i])
        _classify(child, ply, depth, root, True, room, static, kinds, scratch, i)
        # Insertion by probability, the more probable first; equal ones keep their order.
        j = i
        while j > 0 and probs[ply, order[ply, j - 1]] < probs[ply, i]:
            order[ply, j] = order[ply, j - 1]
            j -= 1
        order[ply, j] = i
    return n


@kernel
def _sort_children(ply, count, maximising, tt_move, moves, static, order):
    """Insertion sort of ``order[ply, :count]``, best first (a few dozen children)."""
    for k in range(1, count):
        i = order[ply, k]
        rank = _rank(moves[ply, i], static[ply, i], maximising, tt_move)
        j = k
        while j > 0:
            prev = order[ply, j - 1]
            if _rank(moves[ply, prev], static[ply, prev], maximising, tt_move) >= rank:
                break
            order[ply, j] = prev
            j -= 1
        order[ply, j] = i


@kernel(inline="always")
def _rank(move, value, maximising, tt_move):
    if move == tt_move:
        return INFINITY
    return value if maximising else -value


@kernel
def _hash_unless_duplicate(ply, k, work):
    """Hash the k-th child in order, an INNER one; return the earlier twin's index or -1.

    Hashing waits until a child is visited, so pruned children cost no hash. A child
    whose hash equals an earlier visited sibling's is the same position: it is
    marked DUPLICATE and not searched again.
    """
    children, _, hashes, _, kinds, order, _, _, _ = work
    i = order[ply, k]
    key = games.position_hash(children[ply, i])
    hashes[ply, i] = key
    for m in range(k):
        j = order[ply, m]
        if kinds[ply, j] == INNER and hashes[ply, j] == key:
            kinds[ply, i] = DUPLICATE
            return j
    return -1


@kernel
def _search(state, key, ply, depth, alpha, beta, root, work, table, counters, limits):
    """Fail-soft alpha-beta value of ``state``.

    ``state`` has a player to move and depth >= 1, or (MODE_GAME) is a chance node,
    at any depth >= 0. Returns 0.0 once out of budget (``counters[ABORTED]`` set);
    callers discard it.
    """
    if _out_of_budget(counters, limits):
        return 0.0
    counters[NODES] += 1
    counters[DEEPEST] = max(counters[DEEPEST], ply)
    _, values, bounds, depths, best_moves, _ = table
    tt_move = -1
    slot = ttable.probe(table, key)
    if slot >= 0:
        tt_move = best_moves[slot]
        if depths[slot] >= depth:
            value = values[slot]
            bound = bounds[slot]
            if (
                bound == ttable.EXACT
                or (bound == ttable.LOWER and value >= beta)
                or (bound == ttable.UPPER and value <= alpha)
            ):
                if depths[slot] != ttable.PROVEN:
                    counters[UNPROVEN] += 1
                return value

    children, moves, hashes, static, kinds, order, _, probs, history = work
    unproven_before = counters[UNPROVEN]
    game = _game_mode(limits)
    best_move = -1

    if games.to_move(state) == CHANCE:
        # Expectimax with Star1 bounds: the value is sum(p_i v_i), each v_i in [LOW, HIGH].
        # With ``total`` = sum(p_j v_j) over the outcomes searched and ``rest`` the
        # probability of those after outcome i, the node fails high once
        # total + p_i v_i + rest LOW >= beta, and low once total + p_i v_i + rest HIGH
        # <= alpha: outcome i is searched with the window those give for v_i.
        count = _expand_chance(state, ply, depth, root, work)
        total = 0.0
        mass = 0.0
        bound = ttable.EXACT
        best = 0.0
        for k in range(count):
            i = order[ply, k]
            p = probs[ply, i]
            rest = max(0.0, 1.0 - mass - p)
            child_alpha = (alpha - total - rest * HIGH) / p
            child_beta = (beta - total - rest * LOW) / p
            if kinds[ply, i] == INNER:
                child = children[ply, i]
                hashes[ply, i] = games.position_hash(child)
                value = _search(
                    child, hashes[ply, i], ply + 1, depth, child_alpha, child_beta, root, work, table, counters, limits
                )
                if counters[ABORTED]:
                    return 0.0
            else:
                counters[NODES] += 1
                if kinds[ply, i] == CUT_OFF:
                    counters[UNPROVEN] += 1
                value = static[ply, i]
            if value >= child_beta:  # v_i >= value: the node is at least beta
                best, bound = max(total + p * value + rest * LOW, beta), ttable.LOWER
                break
            if value <= child_alpha:  # v_i <= value: the node is at most alpha
                best, bound = min(total + p * value + rest * HIGH, alpha), ttable.UPPER
                break
            total += p * value
            mass += p
        if bound == ttable.EXACT:
            best = min(HIGH, max(LOW, total / mass))
        proven = counters[UNPROVEN] == unproven_before
        ttable.store(table, key, best, bound, ttable.PROVEN if proven else depth, best_move)
        return best

    maximising = games.to_move(state) == root
    count = _expand(state, ply, depth, root, tt_move, game, work)
    best = -INFINITY if maximising else INFINITY
    # MODE_GAME: no child can beat a certain win (for the root player) or loss.
    enough = (HIGH - TOLERANCE if maximising else LOW + TOLERANCE) if game else -best
    a, b = alpha, beta
    for k in range(count):
        i = order[ply, k]
        if kinds[ply, i] == INNER:
            if _hash_unless_duplicate(ply, k, work) >= 0:
                continue
            child, child_key = children[ply, i], hashes[ply, i]
            if best_move < 0:
                value = _search(child, child_key, ply + 1, depth - 1, a, b, root, work, table, counters, limits)
            elif maximising:
                # Principal variation search: after the first child, test a sibling with
                # a null window and search it fully only if it beats the best so far.
                value = _search(
                    child, child_key, ply + 1, depth - 1, a, a + TOLERANCE, root, work, table, counters, limits
                )
                if a < value < b:
                    value = _search(child, child_key, ply + 1, depth - 1, value, b, root, work, table, counters, limits)
            else:
                value = _search(
                    child, child_key, ply + 1, depth - 1, b - TOLERANCE, b, root, work, table, counters, limits
                )
                if a < value < b:
                    value = _search(child, child_key, ply + 1, depth - 1, a, value, root, work, table, counters, limits)
            if counters[ABORTED]:
                return 0.0
        else:
            counters[NODES] += 1
            if kinds[ply, i] == CUT_OFF:
                counters[UNPROVEN] += 1
            value = static[ply, i]
        if maximising:
            if value > best:
                best, best_move = value, moves[ply, i]
                a = max(a, best)
            if a >= b or best >= enough:
                if game and k > 0:
                    _count_cut_off(maximising, best_move, history)
                break
        else:
            if value < best:
                best, best_move = value, moves[ply, i]
                b = min(b, best)
            if a >= b or best <= enough:
                if game and k > 0:
                    _count_cut_off(maximising, best_move, history)
                break

    if best <= alpha:
        bound = ttable.UPPER
    elif best >= beta:
        bound = ttable.LOWER
    else:
        bound = ttable.EXACT
    proven = counters[UNPROVEN] == unproven_before
    ttable.store(table, key, best, bound, ttable.PROVEN if proven else depth, best_move)
    return best


@kernel
def search_root(state, depth, work, table, counters, limits, values, nodes, proven):
    """Search every root move with a full window; return the number of root moves.

    The moves are ``work[1][0, :n]``; for each, ``values``, ``nodes`` (the nodes
    of its subtree) and ``proven`` are filled. A move whose child equals an earlier
    move's child gets that move's figures. Stops early when out of budget
    (``counters[ABORTED]``); the figures are then incomplete.
    """
    children, moves, hashes, static, kinds, order, _, _, _ = work
    root = games.to_move(state)
    counters[NEXT_CLOCK] = counters[NODES]  # look at the clock at the first node
    n = _expand(state, 0, depth, root, -1, _game_mode(limits), work)
    for k in range(n):
        i = order[0, k]
        if kinds[0, i] == INNER:
            twin = _hash_unless_duplicate(0, k, work)
            if twin >= 0:
                values[i], nodes[i], proven[i] = values[twin], nodes[twin], proven[twin]
                continue
        nodes_before, unproven_before = counters[NODES], counters[UNPROVEN]
        if kinds[0, i] == INNER:
            # np.int64: a literal 1 would compile a second specialisation of the recursive
            # _search, which numba cannot load back from its cache (numba issue 6061).
            values[i] = _search(
                children[0, i],
                hashes[0, i],
                np.int64(1),
                depth - 1,
                -INFINITY,
                INFINITY,
                root,
                work,
                table,
                counters,
                limits,
            )
            if counters[ABORTED]:
                break
        else:
            counters[NODES] += 1
            if kinds[0, i] == CUT_OFF:
                counters[UNPROVEN] += 1
            values[i] = static[0, i]
        nodes[i] = counters[NODES] - nodes_before
        proven[i] = counters[UNPROVEN] == unproven_before
    return n


@kernel
def principal_variation(state, value, depth, ply, root, work, table, counters, limits, pv):
    """Moves from ``state`` (searched to ``depth`` at ``ply``) that keep its ``value``.

    At each step the first child whose value equals the target (by a search with a
    window just around it, answered mostly by the table) is followed, until the
    horizon or the first chance step (in MODE_GAME too: what follows is chance's),
    the depth limit, or no child matches (an unproven search may not be
    reproducible). Writes into ``pv``; returns the length.
    """
    moves = np.empty(games.MAX_MOVES, np.int64)
    scratch = np.empty(work[6].size, np.float64)
    current = state.copy()
    child = np.empty_like(state)
    length = 0
    while length < pv.size and depth > 0 and ply < work[0].shape[0]:
        who = games.to_move(current)
        if who == CHANCE or who == TERMINAL:
            break
        n = games.legal_moves(current, moves)
        _table_move_first(current, moves, n, table)
        found = False
        for i in range(n):
            copy_into(child, current)
            games.apply_move(child, moves[i])
            child_value = _plain_child_value(
                child, ply + 1, depth - 1, value, root, work, table, counters, limits, scratch
            )
            if counters[ABORTED]:
                return length
            if abs(child_value - value) <= TOLERANCE:
                pv[length] = moves[i]
                length += 1
                copy_into(current, child)
                found = True
                break
        if not found:
            break
        ply += 1
        depth -= 1
    return length


@kernel
def _plain_child_value(child, ply, depth, target, root, work, table, counters, limits, scratch):
    """A child's value as the search sees it, searched with a window around ``target``."""
    who = games.to_move(child)
    game = _game_mode(limits)
    if who == TERMINAL:
        return game_value(child, root, scratch) if game else horizon_value(child, root, scratch)
    if who == CHANCE and not game:
        return horizon_value(child, root, scratch)
    if ply >= work[0].shape[0] or (who != CHANCE and depth <= 0):
        return win_estimate(child, root, scratch) if game else heuristic_value(child, root, scratch)
    return _search(
        child,
        games.position_hash(child),
        ply,
        depth,
        target - TOLERANCE,
        target + TOLERANCE,
        root,
        work,
        table,
        counters,
        limits,
    )


@kernel
def _table_move_first(state, moves, n, table):
    best_moves = table[4]
    slot = ttable.probe(table, games.position_hash(state))
    if slot < 0:
        return
    for i in range(n):
        if moves[i] == best_moves[slot]:
            moves[0], moves[i] = moves[i], moves[0]
            return
