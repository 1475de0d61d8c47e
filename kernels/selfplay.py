"""Whole games between cheap agents (random, greedy), a batch at a time, prange over games.

A template (``tessera.kernels.bind``): each game runs its own instance, ``bind.instance(game,
"selfplay")``, where ``games`` is that game's interface.

Each seat of a game plays one kind (``tessera.kernels.selfplay_layout``): ``RANDOM``
(``games.random_move``) or ``GREEDY`` (``greedy_move``). Game ``g`` starts from
``starts[g]``, draws chance from ``make_rng(chance_seeds[g])`` and gives seat ``s`` the generator
``make_rng(agent_seeds[g, s])``. A greedy seat decides on what it may know: in a game
with hidden information, on a determinization of its view drawn from
``make_rng(agent_seeds[g, s] ^ SAMPLE_SALT)``. That is what ``tessera.agents.play_game``
does with ``RandomAgent`` and ``GreedyAgent`` built on the same seeds, so a game is the same
move for move whichever of the two plays it (tests/test_selfplay_kernel.py).
Every game has its own generators, so results do not depend on the thread count.

``deal_batch`` deals the start positions of a batch the way ``Game.new`` does: each
undealt start's chance resolved by ``make_rng(seed)``, in its own prange slot.

``deal_serial`` and ``play_serial`` do the same one game after another, without
numba's threading layer: for a caller that runs the kernel on one thread (a worker
process, or one of several threads that each play their own batch; numba's
threading layers are not all safe to enter from several threads at once).
"""

import numpy as np
from numba import prange

from tessera.kernels.arrays import copy_into
from tessera.kernels.bind import kernel, template_games
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import SAMPLE_SALT, below, make_rng
from tessera.kernels.selfplay_layout import GREEDY, OVERFLOW

games = template_games(__name__)
view_of = games.view  # numba takes ``games.view(...)`` for ndarray.view


@kernel(parallel=True, nogil=True)
def deal_batch(starts, seeds):
    """Resolve the chance of each undealt start ``starts[g]`` with ``make_rng(seeds[g])``,
    in place: what ``Game.new(seeds[g])`` does to its undealt start."""
    for g in prange(seeds.shape[0]):
        games.resolve_chance(starts[g], make_rng(seeds[g]))


@kernel(nogil=True)
def deal_serial(starts, seeds):
    """``deal_batch`` one game after another, on the calling thread."""
    for g in range(seeds.shape[0]):
        games.resolve_chance(starts[g], make_rng(seeds[g]))


@kernel
def greedy_move(state, rng, moves, tied, child, values):
    """``GreedyAgent``'s move: the best ``games.evaluate`` for the mover after the move.

    Ties on that value go to the best value less the best other player's; moves
    still equal are kept in legal-move order and one is drawn with ``below(rng, n)``,
    a draw made even when only one move is left, as the agent does.
    ``moves``, ``tied``, ``child`` and ``values`` are scratch space.
    """
    mover = games.to_move(state)
    count = games.legal_moves(state, moves)
    seats = games.players(state)
    best_own, best_lead = -np.inf, -np.inf
    n_tied = 0
    for i in range(count):
        copy_into(child, state)
        games.apply_move(child, moves[i])
        games.evaluate(child, values)
        own = values[mover]
        best_other = -np.inf
        for p in range(seats):
            if p != mover and values[p] > best_other:
                best_other = values[p]
        lead = own - best_other if seats > 1 else 0.0
        if own > best_own or (own == best_own and lead > best_lead):
            best_own, best_lead = own, lead
            n_tied = 0
        if own == best_own and lead == best_lead:
            tied[n_tied] = moves[i]
            n_tied += 1
    return tied[below(rng, n_tied)]


@kernel
def play_game(start, chance_seed, agent_seeds, kinds, moves_out, movers_out, scores_out, payoffs_out):
    """Play one game from ``start``; return its player moves, or ``OVERFLOW`` if they do
    not fit in ``moves_out``."""
    state = start.copy()
    chance_rng = make_rng(chance_seed)
    seats = games.players(state)
    rngs = np.empty(seats, np.uint64)
    samplers = np.empty(seats, np.uint64)
    for s in range(seats):
        rngs[s] = make_rng(agent_seeds[s])[0]
        samplers[s] = make_rng(agent_seeds[s] ^ SAMPLE_SALT)[0]
    moves = np.empty(games.MAX_MOVES, np.int64)
    tied = np.empty(games.MAX_MOVES, np.int64)
    child = np.empty_like(state)
    seen = np.empty_like(state)
    sample = np.empty_like(state)
    values = np.zeros(seats, np.float64)
    made = 0
    while True:
        who = games.to_move(state)
        if who == TERMINAL:
            break
        if who == CHANCE:
            games.resolve_chance(state, chance_rng)
            continue
        if made == moves_out.shape[0]:
            return OVERFLOW
        rng = rngs[who : who + 1]  # a view: draws advance the seat's generator
        if kinds[who] == GREEDY:
            view_of(state, who, seen)
            if games.is_complete(seen):
                move = greedy_move(state, rng, moves, tied, child, values)
            else:
                games.determinize(seen, who, samplers[who : who + 1], sample)
                move = greedy_move(sample, rng, moves, tied, child, values)
        else:
            move = games.random_move(state, rng, moves)
        moves_out[made] = move
        movers_out[made] = who
        made += 1
        games.apply_move(state, move)
    games.scores(state, scores_out)
    games.payoffs(state, payoffs_out)
    return made


@kernel(nogil=True)
def gather_moves(moves, movers, lengths, flat_moves, flat_movers):
    """The first ``lengths[g]`` entries of row ``g`` of ``moves`` and ``movers``, for the rows
    ``g`` in order, one game after another into ``flat_moves`` and ``flat_movers``."""
    at = 0
    for g in range(lengths.shape[0]):
        for k in range(lengths[g]):
            flat_moves[at] = moves[g, k]
            flat_movers[at] = movers[g, k]
            at += 1


@kernel(parallel=True, nogil=True)
def play_batch(starts, chance_seeds, agent_seeds, kinds, moves, movers, lengths, scores, payoffs):
    """Play game ``g`` of the batch for every row ``g`` of the inputs, in parallel.

    The GIL is released while it plays, so a Dask worker's event loop keeps running.

    Inputs: ``starts`` [games, state words], ``chance_seeds`` [games],
    ``agent_seeds`` and ``kinds`` [games, seats]. Outputs: ``moves`` and ``movers``
    [games, max plies], ``lengths`` [games] (``OVERFLOW`` when a game did not fit),
    ``scores`` and ``payoffs`` [games, seats].
    """
    for g in prange(starts.shape[0]):
        lengths[g] = play_game(
            starts[g], chance_seeds[g], agent_seeds[g], kinds[g], moves[g], movers[g], scores[g], payoffs[g]
        )


@kernel(nogil=True)
def play_serial(starts, chance_seeds, agent_seeds, kinds, moves, movers, lengths, scores, payoffs):
    """``play_batch`` one game after another, on the calling thread (the GIL released)."""
    for g in range(starts.shape[0]):
        lengths[g] = play_game(
            starts[g], chance_seeds[g], agent_seeds[g], kinds[g], moves[g], movers[g], scores[g], payoffs[g]
        )
