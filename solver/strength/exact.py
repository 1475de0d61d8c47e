"""MCTS against exact play in Azul's last round: positions where the game must end this
round, and how far MCTS's move falls short of the best there (bench/exact_check.py).

Positions. Half come from 2-player random-vs-random games, half from greedy-vs-greedy
games (``tessera.agents.play_game``, colour wall). Game ``g`` of a kind is dealt with
seed ``S + g`` (both kinds meet the same deals) and its seat ``k`` agent is seeded
``2 (S + g) + k``; ``ply`` is the index of the position's move in the game record. A
position qualifies when the game must end with this round whatever is played (some
player already has a full pattern line whose tile completes a wall row: a full line
cannot change, and it is tiled at the end of the round), so that the solver, which
searches to the end of the round, is exact to the end of the game. It must also have
at most ``max_tiles`` tiles on the table and at least two legal moves. Each game gives
one position, drawn from those that qualify by ``random.Random(game seed)``; a game
without one is skipped.

The check. MCTS with ``tessera best``'s default options but one thread and a fixed
number of simulations, seeded with the game seed; the solver (``solve``) gives every
root move its exact final score margin. A move is optimal when its margin equals the
best; its loss is the best margin less its own, in points.
"""

import random
import statistics
import time

import numpy as np

from tessera.agents import parse_agent, play_game
from tessera.bench import load_average
from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.azul import layout
from tessera.kernels.constants import CHANCE
from tessera.kernels.rng import chance_rng
from tessera.search.alphabeta import solve
from tessera.search.mcts import Mcts, MctsOptions

KINDS = ("random", "greedy")
OPTIONS = {"players": 2, "variant": "colour"}
WORST_SHOWN = 10


def game_positions(kind, game_seed):
    """(ply, state) of every player decision of the seeded ``kind``-vs-``kind`` game."""
    game = get_game("azul")
    agents = [parse_agent(kind, seed=2 * game_seed + seat) for seat in range(2)]
    record = play_game(game, OPTIONS, agents, game_seed)
    state = game.new(game_seed, **OPTIONS)
    rules = bind.interface(state[0])
    chance = chance_rng(game_seed)  # the chance stream of play_game: the record replays
    positions = []
    for ply, (_, move) in enumerate(record.moves):
        while rules.to_move(state) == CHANCE:
            rules.resolve_chance(state, chance)
        positions.append((ply, state.copy()))
        rules.apply_move(state, move)
    return positions


def game_must_end(state):
    """Whether some player has a full pattern line whose tile completes a wall row."""
    for player in range(int(state[layout.W_PLAYERS])):
        base = layout.PLAYER_BASE + player * layout.PLAYER_WORDS
        wall = 0
        for colour in range(layout.NCOLOURS):
            wall |= int(state[base + layout.P_WALL + colour])
        lines = int(state[base + layout.P_LINES])
        for row in range(5):
            count = (lines >> (layout.LANE_BITS * row)) & layout.LINE_COUNT_MASK
            if count == row + 1 and bin((wall >> (5 * row)) & 0b11111).count("1") == 4:
                return True
    return False


def table_tiles(state):
    """Tiles in the factories and the centre."""
    sets = [int(state[layout.W_CENTRE])] + [int(state[layout.W_FACTORY + f]) for f in range(layout.MAX_FACTORIES)]
    return sum(
        (tiles >> (layout.LANE_BITS * colour)) & layout.LANE_MASK for tiles in sets for colour in range(layout.NCOLOURS)
    )


def pick_position(kind, game_seed, max_tiles):
    """(ply, state) drawn from the game's qualifying positions, or None when there are none."""
    positions = game_positions(kind, game_seed)
    rules = bind.interface(positions[0][1][0])
    moves = np.empty(rules.MAX_MOVES, np.int64)
    qualifying = [
        (ply, state)
        for ply, state in positions
        if game_must_end(state) and table_tiles(state) <= max_tiles and rules.legal_moves(state, moves) >= 2
    ]
    return random.Random(game_seed).choice(qualifying) if qualifying else None


def select_positions(count, seed, max_tiles):
    """``count`` positions, half of each kind (random first when odd), with the games skipped."""
    chosen, skipped = [], []
    for index, kind in enumerate(KINDS):
        wanted = (count + 1 - index) // 2
        game_seed = seed
        found = 0
        while found < wanted:
            picked = pick_position(kind, game_seed, max_tiles)
            if picked is None:
                skipped.append({"kind": kind, "game_seed": game_seed})
            else:
                chosen.append({"kind": kind, "game_seed": game_seed, "ply": picked[0], "state": picked[1]})
                found += 1
            game_seed += 1
    return chosen, skipped


def mcts_options(iterations=None, time_limit=None, seed=0):
    """``tessera best``'s defaults (MctsOptions), on one thread."""
    return MctsOptions(iterations=iterations, time_limit=time_limit, threads=1, seed=seed)


def calibrate(positions):
    """Simulations one thread runs in 1 s on each of ``positions``, and the load around it."""
    load_before = load_average()
    counts, cpu = [], []
    for position in positions:
        searcher = Mcts(mcts_options(time_limit=1.0, seed=position["game_seed"]))
        cpu_before = time.process_time()
        counts.append(searcher.search(position["state"]).visits)
        cpu.append(time.process_time() - cpu_before)
    # Under load a thread gets less than a core; per CPU second is what a free core runs.
    return {
        "positions": len(counts),
        "seconds": 1.0,
        "simulations": counts,
        "cpu_seconds": [round(seconds, 3) for seconds in cpu],
        "median": statistics.median(counts),
        "min": min(counts),
        "max": max(counts),
        "median_per_cpu_second": round(statistics.median(count / seconds for count, seconds in zip(counts, cpu))),
        "load_average_1_5_15_min": {"before": load_before, "after": load_average()},
    }


def check(position, iterations):
    """The row of one position: MCTS's move against every move's exact margin."""
    game = get_game("azul")
    state = position["state"]
    search = Mcts(mcts_options(iterations=iterations, seed=position["game_seed"])).search(state)
    chosen = search.best.move
    solved = solve(state)
    if solved.exact is None or any(line.exact.horizon != "game" for line in solved.moves):
        raise RuntimeError(
            f"{position['kind']} game {position['game_seed']} ply {position['ply']}: "
            "the solver's value does not reach the end of the game"
        )
    exact = {line.move: line.exact for line in solved.moves}
    best = solved.moves[0].exact.margin
    if chosen not in exact:
        raise RuntimeError(f"MCTS chose {chosen}, not a legal move")
    seen = {line.move: line for line in search.moves}
    solver_best = seen[solved.moves[0].move]
    return {
        "kind": position["kind"],
        "game_seed": position["game_seed"],
        "ply": position["ply"],
        "round": int(state[layout.W_ROUND]),
        "tiles": table_tiles(state),
        "moves": len(solved.moves),
        "position": game.format_position(state),
        "chosen": game.format_move(state, chosen),
        "chosen_visits_share": round(search.best.visits / search.visits, 3),
        # What MCTS itself measured: the mean margins of its move and of the solver's best.
        "mcts_margin_chosen": round(search.best.margin, 2),
        "mcts_margin_best": round(solver_best.margin, 2),
        "best_visits_share": round(solver_best.visits / search.visits, 3),
        "tree_nodes": search.tree_nodes,
        "compactions": search.compactions,
        "chosen_margin": exact[chosen].margin,
        "chosen_result": exact[chosen].result,
        "best_margin": best,
        "best_result": solved.moves[0].exact.result,
        "best_moves": [game.format_move(state, line.move) for line in solved.moves if line.exact.margin == best],
        "margins": {game.format_move(state, move): value.margin for move, value in exact.items()},
        "distinct_values": len({value.margin for value in exact.values()}),
        "loss": best - exact[chosen].margin,
        "solve_nodes": solved.visits,
        "solve_seconds": round(solved.seconds, 3),
    }


def summarise(rows):
    def rate(part):
        optimal = sum(row["loss"] == 0 for row in part)
        return {"positions": len(part), "optimal": optimal, "rate": round(optimal / len(part), 4) if part else None}

    losing = sorted((row for row in rows if row["loss"] > 0), key=lambda row: -row["loss"])
    return {
        **rate(rows),
        "by_kind": {kind: rate([row for row in rows if row["kind"] == kind]) for kind in KINDS},
        # Positions where some move is worse than another: the ones where a choice matters.
        "with_a_choice": rate([row for row in rows if row["distinct_values"] > 1]),
        # MCTS's margin value is 0.5 + 0.5 tanh(margin / 10): flat beyond about 10 points.
        "best_margin_under_10": rate([row for row in rows if abs(row["best_margin"]) < 10]),
        "best_margin_10_or_more": rate([row for row in rows if abs(row["best_margin"]) >= 10]),
        "mean_loss": round(statistics.mean(row["loss"] for row in rows), 3),
        "losses": {
            str(loss): sum(row["loss"] == loss for row in rows) for loss in sorted({row["loss"] for row in rows})
        },
        "result_changed": sum(row["chosen_result"] != row["best_result"] for row in rows),
        "worst": [
            {
                key: row[key]
                for key in (
                    "kind",
                    "game_seed",
                    "ply",
                    "tiles",
                    "moves",
                    "chosen",
                    "best_moves",
                    "best_margin",
                    "loss",
                    "chosen_visits_share",
                    "best_visits_share",
                    "mcts_margin_chosen",
                    "mcts_margin_best",
                )
            }
            for row in losing[:WORST_SHOWN]
        ],
    }
