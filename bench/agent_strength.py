"""Agent strength: MCTS against greedy and greedy against random, in 2-player games.

    python bench/agent_strength.py [--games N] [--seed S] [--out results/agents-strength.json]

Each pairing plays N games with the seats alternating; game i is dealt with seed
S + i and the two agents are seeded from it too, so a run is reproducible.
tests/test_agents.py asserts that the first two pairings win by clear margins.
"""
import argparse
import sys
import time

from tessera.agents import parse_agent, play_game
from tessera.bench import machine, write_report
from tessera.games import get_game

MCTS_SPEC = "mcts:iters=300,select=puct,rollout=greedy,value=margin"
# The last pairing is for reference: the default MCTS options on the same budget.
PAIRINGS = ((MCTS_SPEC, "greedy"), ("greedy", "random"), ("mcts:iters=300", "greedy"))
GAME = "azul"


def head_to_head(spec, opponent, games, seed=0, game_name=GAME):
    """``spec`` against ``opponent`` over ``games`` 2-player games; the figures of ``spec``."""
    game = get_game(game_name)
    wins = margin = score = 0.0
    started = time.perf_counter()
    for i in range(games):
        seat = i % 2                    # spec plays first in even games, second in odd ones
        specs = [spec, opponent] if seat == 0 else [opponent, spec]
        agents = [parse_agent(s, seed=2 * (seed + i) + k) for k, s in enumerate(specs)]
        record = play_game(game, {"players": 2}, agents, seed + i)
        wins += record.payoffs[seat]
        margin += record.scores[seat] - record.scores[1 - seat]
        score += record.scores[seat]
    return {"agent": spec, "opponent": opponent, "games": games, "seed": seed,
            "wins": wins, "win_rate": round(wins / games, 3),
            "mean_margin": round(margin / games, 2), "mean_score": round(score / games, 2),
            "seconds": round(time.perf_counter() - started, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    report = {
        "command": "python bench/agent_strength.py " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "game": GAME,
        "pairings": [head_to_head(spec, opponent, args.games, args.seed)
                     for spec, opponent in PAIRINGS],
    }
    for row in report["pairings"]:
        print(f"{row['agent']} vs {row['opponent']}: {row['wins']:g}/{row['games']} wins, "
              f"mean margin {row['mean_margin']:+}, {row['seconds']} s")
    write_report(args.out, report)


if __name__ == "__main__":
    main()
