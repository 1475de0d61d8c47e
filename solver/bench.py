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
import time
from typing import NamedTuple

BENCH_DEPTH = 4


class BenchPosition(NamedTuple):
    game: str
    options: dict
    seed: int
    plies: int          # random player moves played after the start

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
    from kernels import bind
    from kernels.constants import TERMINAL
    from kernels.rng import below, make_rng
    from solver.games import get_game

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


def random_decisions(name, seed, **options):
    """Every position of a game played by uniformly random moves where a player decides:
    ``Game.new(seed, **options)``, each move drawn by ``random.Random(seed)`` and chance
    by ``make_rng(seed)`` (the late positions of results/azure-solve.json and the tests)."""
    import random

    import numpy as np

    from kernels import bind
    from kernels.constants import CHANCE, TERMINAL
    from kernels.rng import make_rng
    from solver.games import get_game
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
    info = {"cpu_count": os.cpu_count(), "python": platform.python_version(),
            "numba": numba.__version__, "numpy": np.__version__,
            "processor": platform.processor() or platform.machine()}
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


def fastest(runs):
    """The (result, seconds) of ``runs`` that took the fewest seconds."""
    return min(runs, key=lambda run: run[1])


def playout_rate(state, n_games, clock=time.process_time):
    """Random games from ``state``: the fastest of three runs of ``n_games``."""
    import numpy as np
    from kernels import bind
    playout = bind.instance(state[0], "playout")
    scores = np.zeros((n_games, 4), np.int64)
    playout.playouts(state, 0, 10, scores[:10])           # compile or load
    made, dt = fastest(timed(clock, playout.playouts, state, rep + 1, n_games, scores)
                       for rep in range(3))
    return {"games": n_games, "games_per_s": round(n_games / dt),
            "moves_per_s": round(made / dt), "moves_per_game": round(made / n_games, 1)}


def perft_rate(label, state, depth, clock=time.process_time, runs=3):
    """Perft of ``state`` to ``depth``: the fastest of ``runs``."""
    from kernels import bind
    perft = bind.instance(state[0], "perft")
    perft.perft(state, 1)                                 # compile or load
    nodes, dt = fastest(timed(clock, perft.perft, state, depth) for _ in range(runs))
    return {"position": label, "depth": depth, "nodes": int(nodes),
            "nodes_per_s": round(nodes / dt)}


def playout_bar(games_per_s, target):
    """The issue's bar: 2-player random games per second on one core against ``target``."""
    return {"games_per_s_2p_one_core": games_per_s, "target": target,
            "ratio": round(games_per_s / target, 2)}


def playout_line(label, row):
    """One printed line of a ``playout_rate`` row."""
    return (f"playouts {label} {row['games_per_s']:>8} games/s "
            f"{row['moves_per_s']:>9} moves/s ({row['moves_per_game']} moves/game)")


def perft_line(row, width):
    """One printed line of a ``perft_rate`` row, its position padded to ``width``."""
    return (f"perft {row['depth']} {row['position']:<{width}} {row['nodes']:>9} nodes "
            f"{row['nodes_per_s']:>11} nodes/s")


def bar_line(bar):
    """The printed line of a ``playout_bar``."""
    return f"bar: {bar['games_per_s_2p_one_core']} / {bar['target']} games/s = {bar['ratio']}x"
