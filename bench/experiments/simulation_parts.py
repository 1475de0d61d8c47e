"""Where an MCTS simulation's time goes: the default search's parts, timed one by one.

    python bench/experiments/simulation_parts.py [--game azul] [--players 2]
                                                 [--simulations 5000] [--positions 60]

The positions: every player decision of seeded greedy-vs-greedy games, up to
``--positions`` of them, spread over the game. From each, the default search (one thread,
``--simulations``, the defaults of a 20-ms budget) is timed whole, in CPU time, and its
tree read for what a simulation does on average: how many tree nodes it passes on its way
down, and how many player nodes it expands (each expansion lists the moves and gives them
their priors). Then, on the same positions, numba loops time each part alone, in the
search's own kernels (the game's MCTS instance for the search's rollout):

- ``rollout``: a copy of the position, the rollout from it and its scoring (at the round's
  end, the learned value), as a leaf's simulation runs them;
- ``expand``: the legal moves and their priors (a learned policy's, or the heuristic's);
- ``step``: one move applied, as the way down applies one a node.

What is left of a simulation's time is selection, backup and the simulation's own
bookkeeping. The positions of the loops are the searches' roots, not their leaves (a leaf
lies a few moves below), so the split is an estimate; the whole is measured.
"""

import argparse
import statistics
import time

import numpy as np
from numba import njit

from tessera.agents import parse_agent, play_game
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.constants import CHANCE
from tessera.kernels.rng import chance_rng, make_rng
from tessera.kernels.search import mcts_layout as layout
from tessera.search.mcts import Mcts, MctsOptions


def sample_positions(game, players, count):
    """Player decisions of seeded greedy games, ``count`` of them spread over the games."""
    rules = None
    positions = []
    seed = 0
    while len(positions) < 4 * count:
        agents = [parse_agent("greedy", seed=seed + p) for p in range(players)]
        record = play_game(game, {"players": players}, agents, seed)
        state = game.new(seed, players=players)
        rules = rules or bind.interface(state[0])
        chance = chance_rng(seed)
        for _, move in record.moves:
            while rules.to_move(state) == CHANCE:
                rules.resolve_chance(state, chance)
            positions.append(state.copy())
            rules.apply_move(state, move)
        seed += 1
    return positions[:: len(positions) // count][:count]


def part_loops(instance, rules):
    """Numba loops timing each part of a simulation over an array of positions."""
    rollout, scored_outcome, move_priors = instance.greedy_rollout, instance.scored_outcome, instance.move_priors
    legal_moves, apply_move, cut = rules.legal_moves, rules.apply_move, instance.CUT_AT_ROUND
    max_moves, players, stat_columns = rules.MAX_MOVES, layout.MAX_PLAYERS, layout.STAT_COLUMNS
    feature_room, policy_room, prior = instance.FEATURE_ROOM, instance.POLICY_ROOM, layout.PRIOR

    @njit
    def rollouts(states, model, repeats):
        rng = make_rng(1)
        moves = np.empty(max_moves, np.int64)
        values = np.empty(max_moves)
        payoff, margin = np.zeros(players), np.zeros(players)
        score = np.zeros(players, np.int64)
        features = np.empty((players, feature_room))
        state = states[0].copy()
        total = 0.0
        for _ in range(repeats):
            for s in range(states.shape[0]):
                state[:] = states[s]
                rollout(state, rng, moves, values, cut)
                scored_outcome(state, payoff, margin, score, model, features)
                total += payoff[0]
        return total

    @njit
    def expansions(states, model, prm, repeats):
        moves = np.empty(max_moves, np.int64)
        values = np.empty(max_moves)
        stats = np.zeros((max_moves, stat_columns))
        move_rows = np.empty((max_moves, policy_room))
        total = 0.0
        for _ in range(repeats):
            for s in range(states.shape[0]):
                n = legal_moves(states[s], moves)
                move_priors(stats, states[s], 0, n, moves, values, prm, model, move_rows)
                total += stats[0, prior]
        return total

    @njit
    def steps(states, first_moves, repeats):
        state = states[0].copy()
        total = 0
        for _ in range(repeats):
            for s in range(states.shape[0]):
                state[:] = states[s]
                apply_move(state, first_moves[s])
                total += state[1]
        return total

    return rollouts, expansions, steps


def per_call(function, args, calls, repeats):
    """CPU seconds a call of a part: the median of 5 timed runs of ``repeats`` over ``calls``."""
    function(*args[:-1], 1)  # compile
    times = []
    for _ in range(5):
        started = time.process_time()
        function(*args[:-1], repeats)
        times.append((time.process_time() - started) / (calls * repeats))
    return statistics.median(times)


def tree_counts(searcher):
    """(nodes passed on the way down, expansions) a simulation, from the searcher's tree."""
    nodes, _, size = searcher.tree
    used = int(size[layout.USED])
    visits = nodes[:used, layout.VISITS]
    root_visits = int(visits[0])
    expanded = int((nodes[1:used, layout.FIRST] >= 0).sum()) + 1
    return (int(visits[1:].sum()) / root_visits, expanded / root_visits)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="azul")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=5000)
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    game = get_game(args.game)
    positions = sample_positions(game, args.players, args.positions)
    options = MctsOptions(iterations=args.simulations, time_limit=0.02, threads=1, seed=1)
    resolved = options.for_position(positions[0])
    model = resolved.kernel_model(positions[0])
    rules = bind.interface(positions[0][0])
    instance = bind.instance(positions[0][0], "mcts", resolved.rollout)
    print(f"{args.game} {args.players}p, rollout {resolved.rollout}, model {resolved.model}", end=", ")
    print(f"{len(positions)} positions")

    whole, passed, expanded = [], [], []
    options = MctsOptions(
        iterations=args.simulations,
        threads=1,
        seed=1,
        rollout=resolved.rollout,
        policy_temperature=resolved.policy_temperature,
        reuse=False,
    )
    for state in positions:
        searcher = Mcts(options)
        searcher.search(state)  # compiles once; the tree's pages touched
        started = time.process_time()
        result = searcher.search(state)
        whole.append((time.process_time() - started) / result.visits)
        down, expansions_per = tree_counts(searcher)
        passed.append(down)
        expanded.append(expansions_per)

    states = np.stack(positions)
    moves = np.empty(rules.MAX_MOVES, np.int64)
    first_moves = np.array([moves[rules.legal_moves(s, moves) - 1] for s in positions], np.int64)
    prm = resolved.kernel_params(positions[0][0])
    rollouts, expansions, steps = part_loops(instance, rules)
    calls = len(positions)
    rollout_s = per_call(rollouts, (states, model, 20), calls, 20)
    expand_s = per_call(expansions, (states, model, prm, 50), calls, 50)
    step_s = per_call(steps, (states, first_moves, 500), calls, 500)

    simulation = statistics.median(whole)
    down = statistics.mean(passed)
    expansions_per = statistics.mean(expanded)
    parts = {
        "rollout and its scoring": rollout_s,
        f"expansions ({expansions_per:.2f} a simulation)": expansions_per * expand_s,
        f"moves on the way down ({down:.2f} a simulation)": down * step_s,
    }
    parts["selection, backup, bookkeeping (the rest)"] = simulation - sum(parts.values())
    print(f"a simulation: {simulation * 1e6:.2f} µs of CPU (median over the positions)")
    for name, seconds in parts.items():
        print(f"  {name}: {seconds * 1e6:.2f} µs, {100 * seconds / simulation:.0f}%")
    print(f"  (one rollout {rollout_s * 1e6:.2f} µs, one expansion {expand_s * 1e6:.2f} µs", end=", ")
    print(f"one move {step_s * 1e9:.0f} ns)")


if __name__ == "__main__":
    main()
