"""Monte Carlo tree search in numba, for any game of ``tessera.kernels.games``.

A template (``tessera.kernels.bind``): each game runs its own instances, one per rollout,
``bind.instance(game, "mcts", rollout)``, where ``games`` is that game's interface and
``ROLLOUT`` the instance's rollout ("random", "greedy", "round" or "mixed", ``ROLLOUTS``).
The layout of the tree, the search parameters (``SearchParams``, by ``params``), ``new_tree``
and ``ROLLOUTS`` are ``tessera.kernels.search.mcts_layout``'s.

A tree is two preallocated arrays (``new_tree``): ``nodes`` (int64 columns
``VISITS``, ``FIRST``, ``COUNT``, ``CAPACITY``, ``MOVE``, ``PROVEN``) and ``stats`` (float64:
``PRIOR``, then per-player payoff sums from ``WIN`` and margin sums from
``MARGIN``, then ``CHOSEN_VALUE``, the node's value for the player who chose it, which
selection reads), plus ``size``, the nodes in use. Node 0 is the root; a node is the
position reached by the moves on its path. Children of a node are one contiguous
block of ``CAPACITY`` slots from ``FIRST``, ``COUNT`` of them in use.

- Player nodes: every legal move gets a child when the node is expanded, which
  happens on its second visit. Selection is UCT or PUCT from the point of view
  of the player to move (max-n: each player maximises its own value), so 3 and 4
  players work the same way as 2. PUCT's priors are a softmax of the game's move
  heuristic, or of a learned policy's logits when ``run_tree``'s ``model`` has one.
- Chance nodes (a refill): chance nodes with sampled children. A chance node
  keeps ``chance_width`` children; each child is a whole chance outcome, stored
  as the seed that draws it, so it is replayed exactly on every visit. The first
  ``chance_width`` visits each take a new outcome; after that a visit picks one
  of them uniformly, each being an equally likely sample.
- Every simulation ends with a rollout to the end of the game (uniform random or
  epsilon-greedy on the game's move heuristic), or epsilon-greedy to the next round
  boundary ("round": in Azul the chance event that ends the round; in Azure, which counts
  its rounds in turns, ``ROUND_TURNS`` turns on) scored with the game's ``estimate``,
  and backs up, for every player, the payoff (winners share 1; a rollout cut short:
  the leaders by the estimate, or with a learned value model (``run_tree``'s ``model``),
  its win chances normalised to sum to 1) and the score margin (own score minus the best
  other score; the model's predicted margin). "mixed" scores the round's end the same
  way, plays on to the end of the game, and backs up a weighted mean of the two
  (``mixed_outcome``).
- Proven values (MCTS-solver: Winands, Björnsson and Saito 2008, "Monte-Carlo Tree
  Search Solver", here for max-n values and margins): a node where the game is over is
  proven, and so is a player node whose children are all proven (``prove_path``). A
  proven node's ``CHOSEN_VALUE`` is exact and stays so: the value of the finished game its
  proven line ends in, the line that follows the best child for the player to move at
  every node (``follow_proven_line``). Its sums go on as any node's. Selection takes a
  proven child at its value, with nothing added for exploration, and a simulation that
  reaches a proven node follows its line and backs up that game's result, with no
  rollout: the subtree costs little more, and its value stops being an average of
  guesses. Near the end of a game the root's moves get exact values (``Mcts`` then ranks
  them by those).
- When the node arrays are nearly full the tree is compacted (``tessera.kernels.search.tree``,
  which also holds the other kernels of the tree that know no game): the
  subtrees below the least visited nodes are freed, the rest packed to the front,
  and the tree keeps growing where the visits go (the memory bound).
- Several threads may search one tree at once (``run_tree`` releases the GIL).
  They update it with atomic operations (``tessera.kernels.atomics``): a visit counts as
  soon as a simulation passes through a node, lost by ``VIRTUAL_MARGIN`` until its
  payoff is backed up (a virtual loss, which spreads the threads over the moves), the nodes a block of
  children takes are reserved with a compare-exchange, and one thread at a time
  gives a node its children (``claim``; the others roll out from it meanwhile).
  With threads, which thread reaches a node first varies from run to run: only a
  one-thread search is reproducible.
"""

import numpy as np

from tessera.kernels.arrays import copy_into, floats, ints, zero_floats, zero_ints
from tessera.kernels.atomics import add_float, compare_exchange, fetch_add, load_acquire, store_release
from tessera.kernels.bind import kernel, sibling, template_games, variant
from tessera.kernels.common import share_win
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import below, make_rng, next_u64, reseed
from tessera.kernels.search.clock import FOREVER, now, simulations_until_check
from tessera.kernels.search.mcts_layout import (
    CAPACITY,
    CHOSEN_VALUE,
    COUNT,
    CUT_ROLLOUTS,
    EXPANDING,
    FIRST,
    HIDDEN_INPUT,
    HIDDEN_MARGIN,
    HIDDEN_WIN,
    MARGIN,
    MAX_PLAYERS,
    MODEL_HIDDEN,
    MODEL_MARGIN,
    MODEL_POLICY,
    MODEL_SHAPE,
    MODEL_WIN,
    MOVE,
    PRIOR,
    PROVEN,
    SELECT_PUCT,
    SHAPE_HIDDEN,
    SHAPE_POLICY,
    STAT_COLUMNS,
    UNEXPANDED,
    USED,
    VALUE_MARGIN,
    VALUE_WIN,
    VISITS,
    WIN,
)

games = template_games(__name__)
random_playout = sibling(__name__, "playout").random_playout
# The rollout, a compile-time choice: the other rollouts' code is pruned before typing, so
# a search compiles only its own rollout's chain of kernels (docs/internals/compile.md); one
# of ``mcts_layout.ROLLOUTS``.
ROLLOUT = variant(__name__)  # None in the template itself
# A game that shares work between the moves of a position scores them in one call
# (kernels.games: ``move_heuristics``).
GAME_SCORES_MOVES_TOGETHER = hasattr(games, "move_heuristics")
# A game that finds its best move by the heuristic without listing and scoring every move
# (kernels.games: ``best_heuristic_move``) does so in greedy rollouts.
GAME_FINDS_BEST_MOVE = hasattr(games, "best_heuristic_move")
# A game with a feature kernel (kernels.games: ``players_value_features``) can score a round
# rollout's cut position with a learned value (``learned_outcome``); the others compile no
# such code.
GAME_HAS_VALUE_FEATURES = hasattr(games, "players_value_features")
# Room for one player's features (1 for a game without them: a zero-length array is no room);
# ``feature_rows`` makes room for every player's.
FEATURE_ROOM = max(getattr(games, "N_VALUE_FEATURES", 0), 1)
# A game with a move feature kernel (kernels.games: ``move_features``) takes PUCT's priors
# from a model's policy when the model has one (``policy_priors``); the others compile no
# such code and keep the heuristic's priors.
GAME_HAS_MOVE_FEATURES = hasattr(games, "move_features")
POLICY_ROOM = max(getattr(games, "N_POLICY_FEATURES", 0), 1)  # one move's features
# A game where chance also acts inside a round (Summer Pavilion's supply top-ups) says
# which chance positions end one (``is_round_boundary``): round rollouts play through the
# others. Elsewhere every chance position after a move is a round's end.
GAME_MARKS_ROUND_BOUNDARIES = hasattr(games, "is_round_boundary")
# A game whose chance marks no round (Azure: the hidden deck's draws come seldom, between
# any two turns) counts its rounds in turns instead: a round rollout stops at the start of a
# turn (``starts_turn``) once it has played ``ROUND_TURNS`` of them, and plays through chance.
GAME_COUNTS_ROUND_TURNS = hasattr(games, "ROUND_TURNS")
ROUND_TURNS = getattr(games, "ROUND_TURNS", 0)
# Whether this instance's rollout stops at the next round boundary and scores it
# (``scored_outcome``).
CUT_AT_ROUND = ROLLOUT in CUT_ROLLOUTS

# The helpers of one simulation are inlined into ``simulate`` (``inline="always"``): one
# function for LLVM to optimise rather than a chain of them, each optimised again with all
# it calls, compiles faster and runs as fast (bench/start_speed.py measures the compile).
PATH_LENGTH = 1024  # nodes on a simulation's path, the root included
MARGIN_SCALE = 10.0  # tanh scale of VALUE_MARGIN: a 10-point mean margin counts as 0.88

# Greedy rollouts still play a random move this often; a game may set its own
# (``ROLLOUT_EPSILON`` in its interface module).
GREEDY_EPSILON = getattr(games, "ROLLOUT_EPSILON", 0.1)
# The margin every player loses on a visit a thread has not backed up yet, when threads
# share the tree: with the payoff missing too, the visit counts as a clear loss by any
# value (a mean margin of -10 squashes to 0.12).
VIRTUAL_MARGIN = MARGIN_SCALE
# A "mixed" rollout's weight of the value at the round's end against the finished game's
# result (``mixed_outcome``): AlphaGo's even mix.
MIX = 0.5
# How a simulation's way down ended (``simulate``): at a leaf to roll out from, at a finished
# game, or at a proven node.
OPEN, AT_END, AT_PROVEN = 0, 1, 2


@kernel(inline="always")
def node_value(nodes, stats, node, player, mode):
    n = nodes[node, VISITS]
    return value_of(stats[node, WIN + player] / n, stats[node, MARGIN + player] / n, mode)


@kernel(inline="always")
def value_of(payoff, margin, mode):
    """A value by ``mode`` of a mean ``payoff`` and a mean score ``margin``."""
    if mode == VALUE_WIN:
        return payoff
    squashed = 0.5 + 0.5 * np.tanh(margin / MARGIN_SCALE)
    if mode == VALUE_MARGIN:
        return squashed
    return 0.5 * (payoff + squashed)


@kernel(inline="always")
def init_node(nodes, stats, node, move, prior):
    nodes[node, VISITS] = 0
    nodes[node, FIRST] = UNEXPANDED
    nodes[node, COUNT] = 0
    nodes[node, CAPACITY] = 0
    nodes[node, MOVE] = move
    nodes[node, PROVEN] = 0
    stats[node, :] = 0.0
    stats[node, PRIOR] = prior


@kernel(inline="always")
def first_play(nodes, stats, node, player, mode, fpu):
    """The value PUCT gives the unvisited children of ``node``: ``fpu`` when it is 0 or more
    (0.5 by default); when negative, the node's own value for ``player`` plus ``fpu``."""
    if fpu >= 0:
        return fpu
    if nodes[node, VISITS] == 0:
        return 0.5
    return node_value(nodes, stats, node, player, mode) + fpu


@kernel(inline="always")
def keep_chosen_value(nodes, stats, node, chooser, mode):
    """Set ``node``'s ``CHOSEN_VALUE`` from its sums: its value for ``chooser``, the player
    who chose it (-1: chance did, and no selection reads it)."""
    if chooser >= 0:
        stats[node, CHOSEN_VALUE] = node_value(nodes, stats, node, chooser, mode)


@kernel(inline="always")
def puct(value, prior, visits, c, sqrt_n):
    """PUCT's score of a child: its ``value`` for the player choosing plus exploration
    weighted by its ``prior``; ``sqrt_n``: the square root of the parent's visits (IS-MCTS:
    of the child's availability)."""
    return value + c * prior * sqrt_n / (1 + visits)


@kernel(inline="always")
def uct(value, visits, c, log_n):
    """UCT's score of a visited child of ``value`` for the player choosing; ``log_n``: the
    log of the parent's visits (IS-MCTS: of the child's availability)."""
    return value + c * np.sqrt(log_n / visits)


@kernel(inline="always")
def puct_score(nodes, stats, child, c, sqrt_n, unvisited):
    """``puct`` of a child by its ``CHOSEN_VALUE`` (``unvisited`` before the first visit);
    of a proven child, its value alone: there is nothing left to explore below it."""
    v = nodes[child, VISITS]
    if v == 0:
        return puct(unvisited, stats[child, PRIOR], v, c, sqrt_n)
    if nodes[child, PROVEN] != 0:
        return stats[child, CHOSEN_VALUE]
    return puct(stats[child, CHOSEN_VALUE], stats[child, PRIOR], v, c, sqrt_n)


@kernel(inline="always")
def uct_score(nodes, stats, child, c, log_n):
    """``uct`` of a visited child by its ``CHOSEN_VALUE``; of a proven child, its value alone."""
    if nodes[child, PROVEN] != 0:
        return stats[child, CHOSEN_VALUE]
    return uct(stats[child, CHOSEN_VALUE], nodes[child, VISITS], c, log_n)


@kernel(inline="always")
def select_child(nodes, stats, node, player, prm, rng):
    """The child ``player``, to move at ``node``, picks: unvisited children first, then UCT
    or PUCT (the children's ``CHOSEN_VALUE`` is ``player``'s)."""
    start = nodes[node, FIRST]
    puct = prm.select == SELECT_PUCT
    c = prm.exploration
    mode = prm.value
    parent_visits = max(nodes[node, VISITS], 1)
    log_n = np.log(parent_visits)
    sqrt_n = np.sqrt(parent_visits)
    unvisited = first_play(nodes, stats, node, player, mode, prm.fpu)
    best = start
    best_score = -np.inf
    for child in range(start, start + nodes[node, COUNT]):
        if puct:
            score = puct_score(nodes, stats, child, c, sqrt_n, unvisited)
        elif nodes[child, VISITS] == 0:
            # Unvisited first, in random order so the move list's order does not matter.
            score = 1e9 + float(next_u64(rng) >> np.uint64(40))
        else:
            score = uct_score(nodes, stats, child, c, log_n)
        if score > best_score:
            best_score = score
            best = child
    return best


@kernel(inline="always")
def claim(nodes, node):
    """Take the right to give ``node`` its children: False if another thread has it, or did."""
    return compare_exchange(nodes, (node, FIRST), UNEXPANDED, EXPANDING) == UNEXPANDED


@kernel(inline="always")
def publish(nodes, node, start, count, capacity):
    """Give a claimed ``node`` its block of children, whole: a thread that sees ``FIRST``
    (``load_acquire``) sees the block written before it."""
    nodes[node, COUNT] = count
    nodes[node, CAPACITY] = capacity
    store_release(nodes, (node, FIRST), start)


@kernel(inline="always")
def reserve(nodes, size, node, n):
    """The first of ``n`` free slots for the block of the claimed ``node``, taken from the
    arrays (threads may share them); -1 when they do not have ``n`` left, and ``node`` is
    unexpanded again."""
    while True:
        used = load_acquire(size, USED)
        if used + n > nodes.shape[0]:
            store_release(nodes, (node, FIRST), UNEXPANDED)
            return -1
        if compare_exchange(size, USED, used, used + n) == used:
            return used


@kernel(inline="always")
def expand(nodes, stats, size, node, state, moves, values, prm, model, move_rows):
    """Give a claimed player node one child per legal move; False when the arrays are full
    (the node is then unexpanded again). PUCT's priors: the policy of ``model`` when it has
    one (``move_rows``: room for the moves' features), else the move heuristic's."""
    n = games.legal_moves(state, moves)
    start = reserve(nodes, size, node, n)
    if start < 0:
        return False
    for i in range(n):
        init_node(nodes, stats, start + i, moves[i], 1.0 / n)
    if prm.select == SELECT_PUCT:
        move_priors(stats, state, start, n, moves, values, prm, model, move_rows)
    publish(nodes, node, start, n, n)
    return True


@kernel(inline="always")
def move_priors(stats, state, start, n, moves, values, prm, model, move_rows):
    """PUCT's priors of ``moves[:n]`` into ``stats[start:start + n, PRIOR]``: the policy of
    ``model`` when it has one (``move_rows``: room for the moves' features), else the move
    heuristic's (``values``: room for the logits or the heuristics)."""
    if GAME_HAS_MOVE_FEATURES:  # pruned before typing, like ROLLOUT
        if model_has_policy(model):
            policy_priors(stats, state, start, n, moves, values, model, move_rows, prm.policy_temperature)
            return
    set_priors(stats, state, start, n, moves, values, prm.prior_temperature)


@kernel(inline="always")
def set_priors(stats, state, start, n, moves, values, temperature):
    """Softmax of the game's move heuristic (``values``: room for the heuristics)."""
    move_heuristics(state, moves, n, values)
    softmax_priors(stats, start, n, values, temperature)


@kernel(inline="always")
def policy_priors(stats, state, start, n, moves, values, model, move_rows, temperature):
    """Softmax at ``temperature`` of a linear policy's logits: per move, the row
    ``model[MODEL_POLICY]`` of weights dotted with the game's move features (``move_rows``:
    room for them; ``values``: for the logits)."""
    games.move_features(state, moves, n, move_rows)
    for i in range(n):
        logit = 0.0
        for k in range(move_rows.shape[1]):
            logit += model[MODEL_POLICY, k] * move_rows[i, k]
        values[i] = logit
    softmax_priors(stats, start, n, values, temperature)


@kernel(inline="always")
def softmax_priors(stats, start, n, values, temperature):
    """The children's priors from ``start``: the softmax of ``values[:n]`` at ``temperature``."""
    top = -np.inf
    for i in range(n):
        top = max(top, values[i])
    total = 0.0
    for i in range(n):
        p = np.exp((values[i] - top) / temperature)
        stats[start + i, PRIOR] = p
        total += p
    for i in range(n):
        stats[start + i, PRIOR] /= total


@kernel(inline="always")
def chance_child(nodes, stats, size, node, width, rng):
    """A sampled outcome below a chance node (the next new one while there are some left);
    -1 if the arrays are full or another thread is giving the node its outcomes.

    The node's ``width`` outcomes are drawn when it is first visited, and ``COUNT`` of
    them are in use: so an outcome is whole before any thread can reach it.
    """
    first = load_acquire(nodes, (node, FIRST))
    if first == UNEXPANDED:
        if not claim(nodes, node):
            return -1
        first = reserve(nodes, size, node, width)
        if first < 0:
            return -1
        for i in range(width):
            init_node(nodes, stats, first + i, np.int64(next_u64(rng) >> np.uint64(1)), 1.0 / width)
        publish(nodes, node, first, 0, width)
    elif first == EXPANDING:
        return -1
    while True:
        used = load_acquire(nodes, (node, COUNT))
        if used >= width:
            return first + below(rng, used)
        if compare_exchange(nodes, (node, COUNT), used, used + 1) == used:
            return first + used


@kernel(inline="always")
def greedy_rollout(state, rng, moves, values, to_round):
    """Epsilon-greedy on the move heuristic (``values``: room for it); ties go to the first
    best move. With ``to_round``, it stops at the first round boundary: a chance event
    (``at_round_boundary``), left unresolved, or in a game that counts its rounds in turns,
    the start of a turn once ``ROUND_TURNS`` turns are played."""
    turns = 0
    while True:
        who = games.to_move(state)
        if who == TERMINAL:
            return
        if who == CHANCE:
            if to_round and at_round_boundary(state):
                return
            games.resolve_chance(state, rng)
            continue
        if GAME_COUNTS_ROUND_TURNS:  # pruned before typing, like ROLLOUT
            if to_round and games.starts_turn(state):
                if turns == ROUND_TURNS:
                    return
                turns += 1
        if (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < GREEDY_EPSILON:
            pick = moves[below(rng, games.legal_moves(state, moves))]
        else:
            pick = best_heuristic_move(state, moves, values)
        games.apply_move(state, pick)


@kernel(inline="always")
def at_round_boundary(state):
    """Whether the chance event due in ``state`` ends a round (where round rollouts stop)."""
    if GAME_COUNTS_ROUND_TURNS:  # its rounds are turns: no chance ends one
        return False
    if GAME_MARKS_ROUND_BOUNDARIES:  # pruned before typing, like ROLLOUT
        return games.is_round_boundary(state)
    return True


@kernel(inline="always")
def best_heuristic_move(state, moves, values):
    """The legal move of the highest move heuristic, the first of equals in the list's
    order: the game's own ``best_heuristic_move`` if it has one, else the moves listed and
    scored (``moves``, ``values``: room)."""
    if GAME_FINDS_BEST_MOVE:  # pruned before typing, like ROLLOUT
        return games.best_heuristic_move(state, values)
    n = games.legal_moves(state, moves)
    move_heuristics(state, moves, n, values)
    pick, best = moves[0], values[0]
    for i in range(1, n):
        if values[i] > best:
            pick, best = moves[i], values[i]
    return pick


@kernel(inline="always")
def move_heuristics(state, moves, n, out):
    """``out[i]``: the move heuristic of ``moves[i]``, for i < n: the game's own
    ``move_heuristics`` if it has one, else one ``move_heuristic`` call a move."""
    if GAME_SCORES_MOVES_TOGETHER:  # pruned before typing, like ROLLOUT
        games.move_heuristics(state, moves, n, out)
    else:
        for i in range(n):
            out[i] = games.move_heuristic(state, moves[i])


@kernel(inline="always")
def outcome(state, payoff, margin, score):
    """Per player: the payoff and the score margin over the best other player (``score``:
    room for the scores); of a game not over (a rollout cut short), those of the final
    scores ``games.estimate`` expects."""
    n = games.players(state)
    # Only round and mixed rollouts stop before the end: the other instances compile no
    # estimate (the branch on the constant is pruned before typing).
    if CUT_AT_ROUND:
        final_or_estimated_scores(state, payoff, margin, score, n)
    else:
        final_scores(state, payoff, margin, score, n)
    # ``margin`` holds the scores: the best, and the best of the others of its holder.
    first, second = -1e18, -1e18
    for p in range(n):
        if margin[p] > first:
            first, second = margin[p], first
        elif margin[p] > second:
            second = margin[p]
    for p in range(n):
        margin[p] -= second if margin[p] == first else first


@kernel(inline="always")
def final_scores(state, payoff, margin, score, n):
    """The payoffs of a finished game, and its scores in ``margin`` (``score``: room)."""
    games.payoffs(state, payoff)
    games.scores(state, score)
    for p in range(n):
        margin[p] = score[p]


@kernel(inline="always")
def final_or_estimated_scores(state, payoff, margin, score, n):
    """``final_scores``; of a game not over, the scores ``games.estimate`` expects, whose
    leaders share the payoff."""
    if games.to_move(state) == TERMINAL:
        final_scores(state, payoff, margin, score, n)
    else:
        games.estimate(state, margin)
        share_win(margin[:n], payoff)  # the leaders by the estimate


@kernel(inline="always")
def scored_outcome(state, payoff, margin, score, model, features):
    """``outcome``, except that a round or mixed rollout cut short is scored with the
    learned value ``model`` when there is one (``model`` has rows; shape (0, 0): none)."""
    if CUT_AT_ROUND:
        if GAME_HAS_VALUE_FEATURES:  # pruned before typing, like ROLLOUT
            if model.shape[0] > 0 and games.to_move(state) != TERMINAL:
                learned_outcome(state, payoff, margin, model, features, games.players(state))
                return
    outcome(state, payoff, margin, score)


@kernel(inline="always")
def model_has_policy(model):
    """Whether the learned model ``model`` (shape (0, 0): none) carries a policy."""
    return model.shape[0] > 0 and model[MODEL_SHAPE, SHAPE_POLICY] != 0.0


@kernel(inline="always")
def learned_outcome(state, payoff, margin, model, features, n):
    """The payoff and margin of a game not over, by a learned value model: per player p,
    the predicted final margin and the win chance's logit, each linear in the game's value
    features f(p) seen from p (rows ``MODEL_MARGIN`` and ``MODEL_WIN``; the constant
    feature carries the bias) plus, for a model with hidden units, each unit's weight
    times its activation relu(w . f(p)) (the rows from ``MODEL_HIDDEN``: a linear model
    with a one-layer perceptron beside it). ``features``: room for every player's row.
    Each player's chance is predicted on its own, so they need not sum to 1: the payoffs
    are the chances divided by their sum, a share of the one win as a finished game's
    payoffs are."""
    games.players_value_features(state, features)
    hidden = model[MODEL_SHAPE, SHAPE_HIDDEN] > 0.0
    total = 0.0
    for p in range(n):
        predicted_margin = 0.0
        logit = 0.0
        for i in range(features.shape[1]):
            predicted_margin += model[MODEL_MARGIN, i] * features[p, i]
            logit += model[MODEL_WIN, i] * features[p, i]
        if hidden:
            extra_margin, extra_logit = hidden_units(model, features, p)
            predicted_margin += extra_margin
            logit += extra_logit
        margin[p] = predicted_margin
        payoff[p] = 1.0 / (1.0 + np.exp(-logit))
        total += payoff[p]
    for p in range(n):
        payoff[p] /= total


@kernel
def hidden_units(model, features, p):
    """What a model's hidden units add to player ``p``'s margin and logit (``learned_outcome``):
    the sums over the units of each one's weights times its activation relu(w . f(p))."""
    extra_margin = 0.0
    extra_logit = 0.0
    for h in range(MODEL_HIDDEN, MODEL_HIDDEN + int(model[MODEL_SHAPE, SHAPE_HIDDEN])):
        activation = 0.0
        for i in range(features.shape[1]):
            activation += model[h, HIDDEN_INPUT + i] * features[p, i]
        if activation > 0.0:
            extra_margin += model[h, HIDDEN_MARGIN] * activation
            extra_logit += model[h, HIDDEN_WIN] * activation
    return extra_margin, extra_logit


@kernel(inline="always")
def mixed_outcome(state, rng, moves, values, payoff, margin, score, mix, kept):
    """A "mixed" rollout's payoff and margin: ``payoff`` and ``margin`` hold those of the
    round's end (``scored_outcome``) when this is called; unless the game is over there,
    the rollout plays on, greedy, to the end of the game, and each becomes ``mix`` times
    the round end's plus ``1 - mix`` times the finished game's (``kept``: room for the
    first). Mixing a learned value with the results of fast rollouts at every leaf is
    AlphaGo's evaluation (Silver et al. 2016, "Mastering the game of Go with deep neural
    networks and tree search", λ = 1 - ``mix``): the value's bias and the rollouts' noise
    partly cancel."""
    if games.to_move(state) == TERMINAL:
        return
    n = games.players(state)
    for p in range(n):
        kept[p] = payoff[p]
        kept[MAX_PLAYERS + p] = margin[p]
    greedy_rollout(state, rng, moves, values, False)
    outcome(state, payoff, margin, score)
    for p in range(n):
        payoff[p] = mix * kept[p] + (1.0 - mix) * payoff[p]
        margin[p] = mix * kept[MAX_PLAYERS + p] + (1.0 - mix) * margin[p]


@kernel(inline="always")
def rollout(state, rng, moves, values):
    """Play ``state`` with the instance's rollout: to the end of the game, or ("round",
    "mixed") to the next round boundary."""
    if ROLLOUT == "random":
        random_playout(state, rng, moves)
    else:
        greedy_rollout(state, rng, moves, values, CUT_AT_ROUND)


@kernel(inline="always")
def backup(nodes, stats, path, choosers, first, depth, counted, virtual, players, payoff, margin, mode):
    """Every player's payoff and margin for each node of ``path[first:depth + 1]``, and a
    visit for each past the first ``counted``: MCTS counts those on the way down, with a
    ``virtual`` margin lost, which comes back here (``simulate``). Each node's
    ``CHOSEN_VALUE`` follows, by ``mode``, for ``choosers[i]``, who chose ``path[i]``, but for
    a proven node's, which is exact (``prove_path``)."""
    for i in range(first, depth + 1):
        n = path[i]
        back = 0.0
        if i >= counted:
            fetch_add(nodes, (n, VISITS), 1)
        else:
            back = virtual
        for p in range(players):
            add_float(stats, (n, WIN + p), payoff[p])
            add_float(stats, (n, MARGIN + p), margin[p] + back)
        if load_acquire(nodes, (n, PROVEN)) == 0:
            keep_chosen_value(nodes, stats, n, choosers[i], mode)


@kernel(inline="always")
def follow_proven_line(nodes, stats, node, state):
    """Play ``state``, the position of the proven ``node``, down its proven line to the end
    of the game: at each node the child of the highest ``CHOSEN_VALUE``, the best for the
    player to move (a proven node's children are all proven). False if the line leaves the
    tree first (a compaction freed a proven node's children): ``state`` is then where it
    left, its value unknown."""
    while games.to_move(state) != TERMINAL:
        first = load_acquire(nodes, (node, FIRST))
        if first < 0:
            return False
        best = first
        for child in range(first + 1, first + nodes[node, COUNT]):
            if stats[child, CHOSEN_VALUE] > stats[best, CHOSEN_VALUE]:
                best = child
        games.apply_move(state, nodes[best, MOVE])
        node = best
    return True


@kernel(inline="always")
def replay(nodes, path, choosers, depth, root, state, chance_rng):
    """``state``: the position of ``path[depth]``, replayed from ``root`` as the simulation
    went down (chance's outcomes from their seeds)."""
    copy_into(state, root)
    for i in range(1, depth + 1):
        if choosers[i] < 0:
            reseed(chance_rng, nodes[path[i], MOVE])
            games.resolve_chance(state, chance_rng)
        else:
            games.apply_move(state, nodes[path[i], MOVE])


@kernel(inline="always")
def prove_path(nodes, stats, path, choosers, depth, root, state, chance_rng, payoff, margin, score, mode):
    """After a simulation that ended at the proven ``path[depth]``: prove its ancestors that
    now can be, from the deepest up, and stop at the first that cannot. A player node is
    proven when all its children are; its ``CHOSEN_VALUE`` becomes the exact value, for
    the player who chose it, of the game its proven line ends in (``follow_proven_line``;
    ``state``, ``payoff``, ``margin``, ``score``: room). A chance node is never proven: its
    outcomes are samples of chance."""
    for i in range(depth - 1, -1, -1):
        node = path[i]
        first = nodes[node, FIRST]
        if choosers[i + 1] < 0 or first < 0 or load_acquire(nodes, (node, PROVEN)) != 0:
            return
        for child in range(first, first + nodes[node, COUNT]):
            if load_acquire(nodes, (child, PROVEN)) == 0:
                return
        if node != 0:  # nobody chose the root: it has no chosen value
            replay(nodes, path, choosers, i, root, state, chance_rng)
            if not follow_proven_line(nodes, stats, node, state):
                return
            outcome(state, payoff, margin, score)
            stats[node, CHOSEN_VALUE] = value_of(payoff[choosers[i]], margin[choosers[i]], mode)
        store_release(nodes, (node, PROVEN), 1)


@kernel
def simulation_buffers():
    """The work arrays of a tree's simulations: ``(moves, values, path, choosers, payoff,
    margin, score)`` (``values``: the move heuristics of ``moves``; ``choosers[i]``: the
    player who chose ``path[i]``, -1 for the root and chance's outcomes)."""
    return (
        ints(games.MAX_MOVES),
        floats(games.MAX_MOVES),
        ints(PATH_LENGTH),
        ints(PATH_LENGTH),
        zero_floats(MAX_PLAYERS),
        zero_floats(MAX_PLAYERS),
        zero_ints(MAX_PLAYERS),
    )


@kernel
def feature_rows():
    """Room for every player's value features (``learned_outcome``)."""
    return np.empty((MAX_PLAYERS, FEATURE_ROOM), np.float64)


@kernel(inline="always")  # into run_tree: not compiled (optimised, emitted) a second time on its own
def simulate(
    nodes,
    stats,
    size,
    root,
    prm,
    rng,
    scratch,
    chance_rng,
    moves,
    values,
    path,
    choosers,
    payoff,
    margin,
    score,
    virtual,
    root_sums,
    local_root,
    model,
    features,
    move_rows,
    kept,
):
    """One iteration: select, expand, roll out, back up (``model``, ``features``:
    ``scored_outcome``'s; ``model`` and ``move_rows``: ``expand``'s priors; ``kept``:
    ``mixed_outcome``'s).

    A node's visit counts from when the simulation leaves it for a child, before the
    rollout, with no payoff and a margin of ``-virtual`` for every player: a thread
    sharing the tree sees a lost visit (a virtual loss) and tends to other moves
    meanwhile; the backup adds the real payoff and gives the margin back. Alone in the
    tree (``virtual`` 0), every choice reads the same sums as when visits are counted at
    the backup. With ``local_root`` (threads sharing the tree), a thread adds the root's
    payoffs and margins to its own ``root_sums`` (``run_tree`` adds them to the tree at
    its end) and gives the root no virtual loss: every simulation passes the root, so its
    sums would take a write to one cache line from every thread each time, and no choice
    reads them. A node's ``CHOSEN_VALUE`` follows its sums: at the backup, and on the way
    down when a virtual loss changes them.
    """
    state = scratch
    copy_into(state, root)
    players = games.players(state)
    node = 0
    depth = 0
    path[0] = 0
    choosers[0] = -1
    width = prm.chance_width
    ended = OPEN
    while True:
        who = games.to_move(state)
        if who == TERMINAL:
            ended = AT_END
            break
        if node != 0 and load_acquire(nodes, (node, PROVEN)) != 0:
            ended = AT_PROVEN
            break
        if who == CHANCE:
            child = chance_child(nodes, stats, size, node, width, rng)
            if child < 0:
                break  # tree full, or being expanded
            reseed(chance_rng, nodes[child, MOVE])
            games.resolve_chance(state, chance_rng)
            chooser = -1
        else:
            first = load_acquire(nodes, (node, FIRST))
            if first == EXPANDING:
                if node == 0:
                    continue  # wait for the root's children: every simulation goes through one
                break  # another thread expands it: roll out
            if first == UNEXPANDED:
                if nodes[node, VISITS] == 0 and node != 0:
                    break  # a new leaf: roll out
                if not claim(nodes, node):
                    break
                if not expand(nodes, stats, size, node, state, moves, values, prm, model, move_rows):
                    break  # tree full
            child = select_child(nodes, stats, node, who, prm, rng)
            games.apply_move(state, nodes[child, MOVE])
            chooser = who
        fetch_add(nodes, (node, VISITS), 1)
        if virtual != 0.0 and not (local_root and node == 0):
            for p in range(players):
                add_float(stats, (node, MARGIN + p), -virtual)
            keep_chosen_value(nodes, stats, node, choosers[depth], prm.value)
        node = child
        depth += 1
        path[depth] = node
        choosers[depth] = chooser
    if ended == AT_PROVEN and follow_proven_line(nodes, stats, node, state):
        outcome(state, payoff, margin, score)  # the proven line's game, over
    else:
        rollout(state, rng, moves, values)
        scored_outcome(state, payoff, margin, score, model, features)
        if ROLLOUT == "mixed":
            mixed_outcome(state, rng, moves, values, payoff, margin, score, MIX, kept)
    backup(
        nodes, stats, path, choosers, 1 if local_root else 0, depth, depth, virtual, players, payoff, margin, prm.value
    )
    if local_root:
        if depth == 0:
            fetch_add(nodes, (0, VISITS), 1)  # not counted on the way down
        for p in range(players):
            root_sums[WIN + p] += payoff[p]
            root_sums[MARGIN + p] += margin[p]
    newly_proven = False
    if ended == AT_END and load_acquire(nodes, (node, PROVEN)) == 0:  # a finished game, reached first
        if choosers[depth] >= 0:
            stats[node, CHOSEN_VALUE] = value_of(payoff[choosers[depth]], margin[choosers[depth]], prm.value)
        store_release(nodes, (node, PROVEN), 1)
        newly_proven = True
    # A node proven now may prove its ancestors (last: the replays take the simulation's
    # state and outcome arrays). Alone in the tree, every proof looks up from itself once,
    # which is all it takes; with threads, two siblings proven at once may each see the
    # other unproven, so a simulation that reaches a proven node looks again.
    if newly_proven or (ended != OPEN and virtual != 0.0):
        prove_path(nodes, stats, path, choosers, depth, root, state, chance_rng, payoff, margin, score, prm.value)


@kernel(inline="always")
def room(prm, threads):
    """Free nodes the tree needs before a simulation: each of ``threads`` may add a block of
    children and a chance node's outcomes."""
    return threads * (games.MAX_MOVES + prm.chance_width)


@kernel(nogil=True)  # the threads of a search run it on the one tree, from Python threads
def run_tree(nodes, stats, size, root, iterations, deadline, prm, rng, threads, model):
    """Up to ``iterations`` simulations, stopping once ``time.perf_counter()`` passes
    ``deadline`` (``clock.FOREVER``: never) or the tree lacks ``room`` for ``threads``
    threads (``tessera.kernels.search.tree.make_room`` then compacts it, with every thread
    stopped); returns the simulations run. Each thread has its own ``rng``, which carries
    on between calls. ``model``: a learned model (float64, the rows of ``mcts_layout``:
    the value's weights over the game's value features, its hidden units, and a policy's
    over its move features), or shape (0, 0) for none; only the "round"
    and "mixed" instances read the value, every instance under PUCT the policy."""
    scratch = root.copy()
    chance_rng = make_rng(0)
    # The generator lives in this thread's own array while it runs: the callers' array
    # holds every thread's in one cache line, which the threads would share.
    local_rng = rng.copy()
    moves, values, path, choosers, payoff, margin, score = simulation_buffers()
    features = feature_rows()
    kept = zero_floats(2 * MAX_PLAYERS)
    move_rows = np.empty((games.MAX_MOVES, POLICY_ROOM), np.float64)
    needed = room(prm, threads)
    virtual = VIRTUAL_MARGIN if threads > 1 else 0.0
    # The root's sums stay in the thread (``simulate``) unless a negative fpu reads them.
    local_root = threads > 1 and prm.fpu >= 0
    root_sums = zero_floats(STAT_COLUMNS)
    timed = deadline < FOREVER
    started = now() if timed else 0.0
    done = 0
    check = 1
    while done < iterations and load_acquire(size, USED) + needed <= nodes.shape[0]:
        simulate(
            nodes,
            stats,
            size,
            root,
            prm,
            local_rng,
            scratch,
            chance_rng,
            moves,
            values,
            path,
            choosers,
            payoff,
            margin,
            score,
            virtual,
            root_sums,
            local_root,
            model,
            features,
            move_rows,
            kept,
        )
        done += 1
        if timed and done >= check:
            t = now()
            if t >= deadline:
                break
            check = done + simulations_until_check(done, started, t)
    rng[0] = local_rng[0]
    for column in range(WIN, CHOSEN_VALUE):  # the root's sums: nobody chose the root
        if root_sums[column] != 0.0:
            add_float(stats, (0, column), root_sums[column])
    return done
