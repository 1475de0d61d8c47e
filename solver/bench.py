"""The fixed positions of ``tessera bench``, and what the speed scripts in bench/ record.

Each position is a seeded start (``Game.new``) followed by a number of random
player moves; the moves and any refill they reach are drawn with the kernels'
splitmix generator, so the list depends only on the seeds, on move generation and
on the kernels' chance sampling. At a fixed depth the total perft count over the
list is the bench signature.

The speed scripts (bench/*_speed.py) time the kernels with ``timed``, ``playout_rate``
and ``perft_rate`` and write their figures with ``machine`` and ``write_report``, so
every results file measures and describes its machine the same way.
"""

import json
import os
import platform
import statistics
import time
from typing import NamedTuple

BENCH_DEPTH = 4


class BenchPosition(NamedTuple):
    game: str
    options: dict
    seed: int
    plies: int  # random player moves played after the start

    @property
    def label(self):
        options = " ".join(f"{name}={value}" for name, value in self.options.items())
        return f"{self.game} {options} seed={self.seed} plies={self.plies}"


BENCH_POSITIONS = (
    BenchPosition("azul", {"players": 2, "variant": "colour"}, seed=1, plies=0),
    BenchPosition("azul", {"players": 3, "variant": "colour"}, seed=2, plies=0),
    BenchPosition("azul", {"players": 4, "variant": "colour"}, seed=3, plies=0),
    BenchPosition("azul", {"players": 2, "variant": "gray"}, seed=4, plies=0),
    BenchPosition("azul", {"players": 3, "variant": "gray"}, seed=5, plies=0),
    BenchPosition("azul", {"players": 4, "variant": "gray"}, seed=6, plies=0),
    # Mid-round, late in a round, a gray-wall tiling choice, and later rounds.
    BenchPosition("azul", {"players": 2, "variant": "colour"}, seed=7, plies=4),
    BenchPosition("azul", {"players": 3, "variant": "colour"}, seed=9, plies=8),
    BenchPosition("azul", {"players": 2, "variant": "gray"}, seed=8, plies=10),
    BenchPosition("azul", {"players": 4, "variant": "gray"}, seed=10, plies=9),
    BenchPosition("azul", {"players": 2, "variant": "colour"}, seed=11, plies=25),
    BenchPosition("azul", {"players": 3, "variant": "gray"}, seed=12, plies=40),
    # Summer Pavilion: openings, placing in rounds 1, 2 and 4, and a keep choice.
    BenchPosition("pavilion", {"players": 2}, seed=21, plies=0),
    BenchPosition("pavilion", {"players": 4}, seed=23, plies=0),
    BenchPosition("pavilion", {"players": 2}, seed=38, plies=31),
    BenchPosition("pavilion", {"players": 3}, seed=46, plies=12),
    BenchPosition("pavilion", {"players": 4}, seed=39, plies=16),
    BenchPosition("pavilion", {"players": 2}, seed=60, plies=76),
    BenchPosition("pavilion", {"players": 2}, seed=46, plies=13),
    # Azure: openings, the middle and late game, each Gifted card, Cosmos.
    BenchPosition("azure", {"gifted": "none", "cosmos": False}, seed=31, plies=0),
    BenchPosition("azure", {"gifted": "none", "cosmos": False}, seed=32, plies=6),
    BenchPosition("azure", {"gifted": "none", "cosmos": False}, seed=33, plies=12),
    BenchPosition("azure", {"gifted": "none", "cosmos": False}, seed=34, plies=20),
    BenchPosition("azure", {"gifted": "mighty", "cosmos": False}, seed=40, plies=8),
    BenchPosition("azure", {"gifted": "perceptive", "cosmos": False}, seed=41, plies=8),
    BenchPosition("azure", {"gifted": "bountiful", "cosmos": False}, seed=42, plies=8),
    BenchPosition("azure", {"gifted": "favored", "cosmos": False}, seed=43, plies=8),
    BenchPosition("azure", {"gifted": "none", "cosmos": True}, seed=50, plies=0),
    BenchPosition("azure", {"gifted": "bountiful", "cosmos": True}, seed=51, plies=10),
)


def build(position):
    """The state of a bench position."""
    import numpy as np

    from tessera.games import get_game
    from tessera.kernels import bind
    from tessera.kernels.constants import TERMINAL
    from tessera.kernels.rng import below, make_rng

    state = get_game(position.game).new(position.seed, **position.options)
    rules = bind.interface(state[0])
    rng = make_rng(position.seed)
    moves = np.empty(rules.MAX_MOVES, np.int64)
    for _ in range(position.plies):
        if rules.to_move(state) == TERMINAL:
            break
        rules.apply_move(state, moves[below(rng, rules.legal_moves(state, moves))])
        rules.resolve_chance(state, rng)
    return state


def bench_states():
    """(label, state) for every bench position, in order."""
    return [(position.label, build(position)) for position in BENCH_POSITIONS]


FINAL_ROUND_COLOURS = "BYRKW"

# The exact solver's speed positions (bench/solver_speed.py): two boards in round 5, where
# player 1's white on pattern line 1 completes wall row 1, so the game ends this round;
# only the tiles on the table differ.
FINAL_ROUND_BOARDS = (
    "player 1 score 30 wall BYRK./.BY../..BY./...B./..... lines W/../.../..../..... floor -",
    "player 2 score 28 wall BYR.W/WB.../.W.../..W../..... lines ./../.../..../..... floor -",
)
# Tiles on the table -> (factories, centre). Five factories in a 2-player game.
FINAL_ROUND_TABLES = {
    8: ("BYRK YRKW - - -", "1"),
    10: ("BYRK YRKW - - -", "1BW"),
    12: ("BYRK YRKW BBWK - -", "1"),
    14: ("BYRK YRKW BBWK - -", "1YR"),
}


def final_round(tiles):
    """The hand-written Azul final-round position with ``tiles`` (a key of
    ``FINAL_ROUND_TABLES``) on the table."""
    factories, centre = FINAL_ROUND_TABLES[tiles]
    shown = " ".join([factories, centre, *FINAL_ROUND_BOARDS])
    # The bag holds whatever is not shown, so every colour has its 20 tiles.
    bag = "/".join(str(20 - _count_tiles(shown, c)) for c in FINAL_ROUND_COLOURS)
    text = "; ".join(
        [
            "azul players 2 wall colour round 5 phase draft turn 1 starter 1",
            f"factories {factories}",
            f"centre {centre}",
            f"bag {bag}",
            "lid 0/0/0/0/0",
            *FINAL_ROUND_BOARDS,
        ]
    )
    from tessera.games import get_game

    return get_game("azul").parse_position(text)


def _count_tiles(text, colour):
    """Tiles of a colour in board and table text (walls are written with letters)."""
    tokens = text.replace("/", " ").split()
    letters = set(FINAL_ROUND_COLOURS + ".-1")
    return sum(token.count(colour) for token in tokens if set(token) <= letters)


def random_decisions(name, seed, **options):
    """Every position of a game played by uniformly random moves where a player decides:
    ``Game.new(seed, **options)``, each move drawn by ``random.Random(seed)`` and chance
    by ``make_rng(seed)`` (the late positions of results/azure-solve.json and the tests)."""
    import random

    import numpy as np

    from tessera.games import get_game
    from tessera.kernels import bind
    from tessera.kernels.constants import CHANCE, TERMINAL
    from tessera.kernels.rng import make_rng

    state = get_game(name).new(seed, **options)
    rules = bind.interface(state[0])
    pick, chance = random.Random(seed), make_rng(seed)
    moves = np.empty(rules.MAX_MOVES, np.int64)
    decisions = []
    while rules.to_move(state) != TERMINAL:
        if rules.to_move(state) == CHANCE:
            rules.resolve_chance(state, chance)
            continue
        decisions.append(state.copy())
        rules.apply_move(state, moves[pick.randrange(rules.legal_moves(state, moves))])
    return decisions


def load_average():
    return [round(x, 2) for x in os.getloadavg()]


def machine(load_before=None):
    """The machine and library versions; the load average before (if given) and now."""
    import numba
    import numpy as np

    info = {
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "processor": platform.processor() or platform.machine(),
    }
    if load_before is None:
        info["load_average"] = load_average()
    else:
        info["load_average_1_5_15_min"] = {"before": load_before, "after": load_average()}
    return info


def write_report(path, report):
    """Write ``report`` as indented JSON to ``path`` (nothing when ``path`` is None)."""
    if path:
        with open(path, "w") as file:
            json.dump(report, file, indent=2)
            file.write("\n")


def timed(clock, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` and the seconds it took on ``clock``."""
    start = clock()
    result = fn(*args, **kwargs)
    return result, clock() - start


def interleaved(measures, rounds=3):
    """Run each of ``measures`` (callables returning ``(count, seconds)``) ``rounds`` times,
    taking turns, so that a change of load on the machine falls on all of them alike;
    the runs of each, in order."""
    runs = [[] for _ in measures]
    for _ in range(rounds):
        for measure, found in zip(measures, runs):
            found.append(measure())
    return runs


def median_rate(runs):
    """The median rate (count per second) of ``runs`` and its range ``[slowest, fastest]``."""
    rates = sorted(count / seconds for count, seconds in runs)
    return round(statistics.median(rates)), [round(rates[0]), round(rates[-1])]


def playout_rates(states, n_games, clock=time.process_time, rounds=3):
    """Random games from each of ``states``, ``n_games`` a run: the median of ``rounds``
    interleaved runs and the range, per state."""
    import numpy as np

    from tessera.kernels import bind

    scores = np.zeros((n_games, 4), np.int64)

    def measure(state):
        playout = bind.instance(state[0], "playout")
        playout.playouts(state, 0, 10, scores[:10])  # compile or load
        runs = []

        def run():
            made, seconds = timed(clock, playout.playouts, state, len(runs) + 1, n_games, scores)
            runs.append(made)
            return made, seconds

        return run

    rows = []
    for runs in interleaved([measure(state) for state in states], rounds):
        games_per_s, games_range = median_rate([(n_games, seconds) for _, seconds in runs])
        moves_per_s, _ = median_rate(runs)
        made = statistics.median(count for count, _ in runs)
        rows.append(
            {
                "games": n_games,
                "games_per_s": games_per_s,
                "games_per_s_range": games_range,
                "moves_per_s": moves_per_s,
                "moves_per_game": round(made / n_games, 1),
                "runs": rounds,
            }
        )
    return rows


def playout_rate(state, n_games, clock=time.process_time):
    """Random games from ``state``: the median of three runs of ``n_games`` and the range."""
    return playout_rates([state], n_games, clock)[0]


def perft_rates(labelled, depth, clock=time.process_time, rounds=3):
    """Perft of each ``(label, state)`` to ``depth``: the median of ``rounds`` interleaved
    runs and the range."""
    from tessera.kernels import bind

    def measure(state):
        perft = bind.instance(state[0], "perft")
        perft.perft(state, 1)  # compile or load
        return lambda: timed(clock, perft.perft, state, depth)

    rows = []
    for (label, _), runs in zip(labelled, interleaved([measure(state) for _, state in labelled], rounds)):
        nodes_per_s, nodes_range = median_rate(runs)
        rows.append(
            {
                "position": label,
                "depth": depth,
                "nodes": int(runs[0][0]),
                "nodes_per_s": nodes_per_s,
                "nodes_per_s_range": nodes_range,
                "runs": rounds,
            }
        )
    return rows


def perft_rate(label, state, depth, clock=time.process_time, runs=3):
    """Perft of ``state`` to ``depth``: the median of ``runs`` and the range."""
    return perft_rates([(label, state)], depth, clock, runs)[0]


def playout_bar(games_per_s, target):
    """The speed target: 2-player random games per second on one core against ``target``."""
    return {"games_per_s_2p_one_core": games_per_s, "target": target, "ratio": round(games_per_s / target, 2)}


def playout_line(label, row):
    """One printed line of a ``playout_rate`` row."""
    low, high = row["games_per_s_range"]
    return (
        f"playouts {label} {row['games_per_s']:>8} games/s ({low}-{high}) "
        f"{row['moves_per_s']:>9} moves/s ({row['moves_per_game']} moves/game)"
    )


def perft_line(row, width):
    """One printed line of a ``perft_rate`` row, its position padded to ``width``."""
    low, high = row["nodes_per_s_range"]
    return (
        f"perft {row['depth']} {row['position']:<{width}} {row['nodes']:>9} nodes "
        f"{row['nodes_per_s']:>11} nodes/s ({low}-{high})"
    )


def bar_line(bar):
    """The printed line of a ``playout_bar``."""
    return f"bar: {bar['games_per_s_2p_one_core']} / {bar['target']} games/s = {bar['ratio']}x"
