"""The simulations a timed MCTS search runs a move, over seeded games of two copies of it.

    python bench/simulations_per_move.py AGENT [--game azul] [--players 2] [--games 6]
                                         [--runs 3] [--seed 9300] [--out FILE]

AGENT is an ``mcts:time=T,...`` spec. Both seats play it, with tree reuse as in a match,
on the deals of ``--seed`` on; each search's new simulations (not the visits it kept
from the move before) are counted. A run is ``--games`` games; the report gives each
run's median and quartiles and the median of the runs' medians with their range. The
searches run by the clock, so the figure depends on the machine and its load (recorded).
It is how a time budget is turned into the simulations of the same search
(docs/search.md, "Defaults per game and player count").
"""

import argparse
import statistics
import sys

from tessera.agents import parse_agent, play_game
from tessera.bench import load_average, machine, write_report
from tessera.games import get_game


def simulations(game, options, spec, games, seed):
    """New simulations of every search of ``games`` games from deal ``seed`` on."""
    found = []
    for deal in range(seed, seed + games):
        agents = [parse_agent(spec, seed=2 * deal + seat) for seat in range(options.get("players", 2))]

        def count(event, agents=agents):
            found.append(agents[event.player].last_result.visits)

        play_game(game, options, agents, deal, on_move=count)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", help="an mcts agent spec with a time budget")
    parser.add_argument("--game", default="azul")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=9300)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if not args.agent.startswith("mcts:") or "time=" not in args.agent:
        parser.error("AGENT must be an mcts spec with a time budget (mcts:time=T,...)")
    for name in ("games", "runs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    game = get_game(args.game)
    options = {"players": args.players} if "players" in game.options else {}
    load_before = load_average()
    parse_agent(args.agent).choose(game.new(0, **options))  # load its kernels before the clock
    runs = []
    for _ in range(args.runs):
        found = sorted(simulations(game, options, args.agent, args.games, args.seed))
        quartiles = statistics.quantiles(found, n=4)
        runs.append(
            {
                "moves": len(found),
                "median": statistics.median(found),
                "quartiles": [quartiles[0], quartiles[2]],
                "min": found[0],
                "max": found[-1],
                "load_average": load_average()[0],
            }
        )
    medians = [run["median"] for run in runs]
    report = {
        "command": "python bench/simulations_per_move.py " + " ".join(sys.argv[1:]),
        "agent": args.agent,
        "game": args.game,
        "options": options,
        "median": statistics.median(medians),
        "range": [min(medians), max(medians)],
        "runs": runs,
        "machine": machine(load_before),
    }
    print(
        f"{args.agent}: median {report['median']:g} simulations a move "
        f"(runs' medians {report['range'][0]:g}-{report['range'][1]:g}; {len(runs)} runs of "
        f"{args.games} games), load {load_before} before, {load_average()} after"
    )
    write_report(args.out, report)


if __name__ == "__main__":
    main()
