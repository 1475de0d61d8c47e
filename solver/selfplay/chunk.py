"""Play one chunk of a run: its records as a pyarrow table.

Games whose seats are all cheap agents (random, greedy) are played together by
the numba kernel ``kernels.selfplay.play_batch``, over as many threads as numba
has; the others are played one at a time by ``solver.agents.play_game``. Both
start from ``Game.new(game seed)``, draw chance from ``game seed ^ CHANCE_SALT``
and seed each seat's agent alike, so a game is the same whichever plays it.
"""
import numpy as np

from kernels import selfplay as kernel
from solver.agents import CHANCE_SALT, GreedyAgent, RandomAgent, parse_agent, play_game
from solver.games import get_game
from solver.selfplay import records

BATCHED_KINDS = {RandomAgent: kernel.RANDOM, GreedyAgent: kernel.GREEDY}
NOT_BATCHED = -1
FIRST_MAX_PLIES = 256       # doubled for the games that need more, up to
MAX_PLIES = 1 << 16         # this: a longer game is a bug in the game's kernel


def play_chunk(plan, chunk):
    """The records of chunk ``chunk`` of ``plan``."""
    indices = plan.chunk_games(chunk)
    seeds = plan.game_seeds(indices)
    lineups = plan.lineups(indices)
    seat_seeds = plan.agent_seeds(seeds)
    kinds = np.array([_batched_kind(spec) for spec in plan.agents], np.int8)[lineups]
    batched = (kinds != NOT_BATCHED).all(axis=1)
    games = len(indices)
    moves, movers = [None] * games, [None] * games
    scores = np.zeros((games, plan.seats), np.int64)
    payoffs = np.zeros((games, plan.seats), np.float64)
    game = get_game(plan.game)
    rows = np.flatnonzero(batched)
    if len(rows):
        starts = np.stack([game.new(int(seeds[g]), **plan.options) for g in rows])
        played = play_batched(starts, seeds[rows] ^ CHANCE_SALT, seat_seeds[rows], kinds[rows])
        for g, result in zip(rows, played):
            moves[g], movers[g], scores[g], payoffs[g] = result
    for g in np.flatnonzero(~batched):
        agents = [parse_agent(plan.agents[a], seed=int(seat_seeds[g, s]))
                  for s, a in enumerate(lineups[g])]
        record = play_game(game, plan.options, agents, int(seeds[g]))
        moves[g] = np.array([move for _, move in record.moves], np.int64)
        movers[g] = np.array([who for who, _ in record.moves], np.int8)
        scores[g], payoffs[g] = record.scores, record.payoffs
    return records.chunk_table(indices, seeds, plan.agents, lineups, seat_seeds, moves, movers,
                               scores, payoffs)


def _batched_kind(spec):
    return BATCHED_KINDS.get(type(parse_agent(spec)), NOT_BATCHED)


def play_batched(starts, chance_seeds, agent_seeds, kinds):
    """Play the games with the kernel: a list of (moves, movers, scores, payoffs) per game.

    A game longer than the plies allowed is played again with twice as many; it
    replays identically, as everything it draws comes from its own seeds.
    """
    games, seats = kinds.shape
    results = [None] * games
    pending = np.arange(games)
    max_plies = FIRST_MAX_PLIES
    while len(pending):
        if max_plies > MAX_PLIES:
            raise RuntimeError(f"{len(pending)} games did not end within {MAX_PLIES} player "
                               f"moves (chance seeds {chance_seeds[pending][:5].tolist()})")
        n = len(pending)
        moves = np.zeros((n, max_plies), np.int64)
        movers = np.zeros((n, max_plies), np.int8)
        lengths = np.zeros(n, np.int64)
        scores = np.zeros((n, seats), np.int64)
        payoffs = np.zeros((n, seats), np.float64)
        kernel.play_batch(np.ascontiguousarray(starts[pending]),
                          np.ascontiguousarray(chance_seeds[pending]),
                          np.ascontiguousarray(agent_seeds[pending]),
                          np.ascontiguousarray(kinds[pending]),
                          moves, movers, lengths, scores, payoffs)
        for row, g in enumerate(pending):
            if lengths[row] != kernel.OVERFLOW:
                played = lengths[row]
                results[g] = (moves[row, :played], movers[row, :played], scores[row], payoffs[row])
        pending = pending[lengths == kernel.OVERFLOW]
        max_plies *= 2
    return results


def warm_up(plan):
    """Compile (or load from numba's cache) what the plan's chunks will run, here, once:
    workers started afterwards on this machine load it from the cache. A search agent
    chooses one move of the start position for that (its budget for one move)."""
    start = get_game(plan.game).new(0, **plan.options)
    kinds = [_batched_kind(spec) for spec in plan.agents]
    if any(kind != NOT_BATCHED for kind in kinds):
        cheap = np.full((1, plan.seats), kernel.RANDOM, np.int8)
        play_batched(start[None, :], np.zeros(1, np.int64), np.zeros((1, plan.seats), np.int64),
                     cheap)
    for spec, kind in zip(plan.agents, kinds):
        if kind == NOT_BATCHED:
            parse_agent(spec).choose(start.copy())
