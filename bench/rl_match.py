"""Tessera's MCTS against OpenSpiel's MCTSBot on the same game, at (about) equal time per move
(Azure: Tessera's information-set MCTS on the player's view against OpenSpiel's ISMCTSBot).

    python bench/rl_match.py [--game azul] [--games N] [--seconds S] [--out FILE]

Both play the OpenSpiel game ``tessera_<game>`` (``tessera.rl.spiel``): Tessera's agent
``mcts:time=S`` (``tessera.agents``) on the position's array, OpenSpiel's Python
``MCTSBot`` (UCT constant 2, one random rollout per leaf) with a simulation count (it
takes no time budget) set before each move to what fits in S seconds at the speed of its
previous move (of a probe on the opening for its first), so each side gets about S
seconds a move; the seconds each side really took are recorded. Seats alternate; chance
is drawn from the game's seed, and each Azure game is played on the realm of its seed.
"""

import argparse
import json
import os
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tessera.rl.spiel  # noqa: F401  (registers the games)
from tessera.agents import parse_agent
from tessera.games import get_game
from tessera.rl.encoding import Encoding


def openspiel_bot(game, simulations, rng):
    """OpenSpiel's MCTS (IS-MCTS for a game of imperfect information) with random rollouts."""
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    if game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        # the opponent's legal moves depend on cards the searcher cannot see
        return ismcts.ISMCTSBot(
            game, evaluator, 2.0, simulations, random_state=rng, allow_inconsistent_action_sets=True
        )
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)


def bot_name(bot):
    return f"{type(bot).__module__}.{type(bot).__name__}"


def simulations_of(bot):
    return bot.max_simulations if hasattr(bot, "max_simulations") else bot._max_simulations


def set_simulations(bot, count):
    if hasattr(bot, "max_simulations"):
        bot.max_simulations = count
    else:
        bot._max_simulations = count  # ISMCTSBot keeps the count in a private field


def calibrate(game, seconds, rng):
    """OpenSpiel MCTS simulations that fit in ``seconds`` on a dealt opening."""
    state = deal(game.new_initial_state(), rng)
    probe = openspiel_bot(game, 10, rng)
    start = time.perf_counter()
    probe.step(state)
    per_simulation = (time.perf_counter() - start) / 10
    return max(1, int(seconds / per_simulation))


def deal(state, rng):
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def play(game, encoding, tessera_seat, simulations, seconds, seed):
    if encoding.game == "azure":  # each game on a realm of its own
        game = pyspiel.load_game("tessera_azure", {"realm_seed": seed})
    rng = np.random.RandomState(seed)
    bot = openspiel_bot(game, simulations, rng)
    rules = get_game(encoding.game)
    counts = []
    agent = parse_agent(f"mcts:time={seconds}", seed=seed)
    spent = {"tessera": 0.0, "openspiel": 0.0}
    moves = {"tessera": 0, "openspiel": 0}
    state = deal(game.new_initial_state(), rng)
    while not state.is_terminal():
        side = "tessera" if state.current_player() == tessera_seat else "openspiel"
        start = time.perf_counter()
        if side == "tessera":  # the player's view: all of it but in Azure
            seen = rules.view(state.array, state.current_player())
            action = encoding.action_of_move(state.array, agent.choose(seen))
        else:
            action = bot.step(state)
            per_simulation = (time.perf_counter() - start) / simulations_of(bot)
            counts.append(simulations_of(bot))
            set_simulations(bot, max(1, int(seconds / per_simulation)))
        spent[side] += time.perf_counter() - start
        moves[side] += 1
        state.apply_action(action)
        deal(state, rng)
    returns = state.returns()
    return {
        "seed": seed,
        "tessera_seat": tessera_seat + 1,
        "returns": returns,
        "tessera_result": returns[tessera_seat],
        "openspiel_simulations": [min(counts), int(np.median(counts)), max(counts)],
        "seconds_per_move": {side: round(spent[side] / max(moves[side], 1), 3) for side in spent},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="azul")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    game = pyspiel.load_game(f"tessera_{args.game}")
    encoding = Encoding(args.game)
    opening = deal(game.new_initial_state(), np.random.RandomState(0))
    parse_agent(f"mcts:time={args.seconds}").choose(  # compile before any clock
        get_game(args.game).view(opening.array, opening.current_player())
    )
    simulations = calibrate(game, args.seconds, np.random.RandomState(1))
    load_before = [round(x, 2) for x in os.getloadavg()]
    games = [play(game, encoding, g % 2, simulations, args.seconds, seed=100 + g) for g in range(args.games)]
    results = [g["tessera_result"] for g in games]
    report = {
        "command": f"python bench/rl_match.py --game {args.game} --games {args.games} --seconds {args.seconds}"
        + (f" --out {args.out}" if args.out else ""),
        "game": f"tessera_{args.game}",
        "seconds_per_move": args.seconds,
        "openspiel_first_simulations": simulations,
        "tessera": f"mcts:time={args.seconds}",
        "openspiel": bot_name(openspiel_bot(game, 1, np.random.RandomState(0))) + "(uct_c=2, random rollouts)",
        "tessera_wins": sum(r > 0 for r in results),
        "draws": sum(r == 0 for r in results),
        "openspiel_wins": sum(r < 0 for r in results),
        "load_before": load_before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "games": games,
    }
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
