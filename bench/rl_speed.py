"""Speed of the batched environment (``tessera.rl.vector``): environment steps per second
with random legal actions, observations and masks included.

    python bench/rl_speed.py [--envs N,N...] [--games G,G...] [--seconds S] [--repeats R]
                             [--spiel-seconds S] [--out FILE]

Then the OpenSpiel adapter (``tessera.rl.spiel``) against native C++ OpenSpiel games of
about the same size, through the same pyspiel calls: microseconds per action (chance's
included) of random games, each action ``legal_actions`` or ``chance_outcomes``, a
random choice and ``apply_action``.

Each run resets ``--envs`` games (each of the batch sizes given: a small batch keeps its
arrays in cache, a large one spreads a call's fixed cost for threads) and then steps them all with a random legal action
per game (``TesseraVectorEnv.random_actions``, numba) for about ``--seconds`` of wall
time, without copying the outputs (``copy=False``), on one numba thread and on two
(``threads=2``: the rows in two chunks, each stepped on a thread of its own). The two
settings run in pairs of short windows, ``--repeats`` pairs, the order swapped every
other pair; the median counts and the range is kept.

The machine may be shared: each run records the CPU the other work on the machine
took meanwhile (``others_cores``: from /proc/stat, every process, less this one) and
its own CPU rate (steps per CPU second of this process, all threads), which other work
hardly changes. ``speedup`` is the median over the pairs of the ratio of their
wall-time rates, with its quartiles: this machine's speed drifts by up to half within
minutes (one thread ranged 1.4-2.1 M steps/s between runs of one session), and the
two windows of a pair, a fraction of a second apart, see nearly the same machine,
where medians of runs seconds apart do not. It needs a second idle core to mean
anything; ``cpu_efficiency`` is the ratio of CPU rates (1.0 when two threads waste
nothing on sharing the work: two idle cores then give twice one's rate). The load
average is recorded before and after.
"""

import argparse
import json
import os
import platform
import statistics
import time

import numba
import numpy as np

from tessera.rl.vector import TesseraVectorEnv

SETTINGS = (
    ("azul", {"players": 2}),
    ("pavilion", {"players": 2}),
    ("azure", {}),
)
TARGET_ONE_CORE = 2_000_000
TARGET_SPEEDUP = 1.8


def busy_jiffies():
    """CPU time of every process on the machine, in clock ticks (/proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4]  # less idle and iowait


def run(env, seconds, rngs):
    env.reset(seed=1)
    steps = 0
    jiffies, cpu, start = busy_jiffies(), time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            env.step(env.random_actions(rngs))
        steps += 20 * env.num_envs
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    others = (busy_jiffies() - jiffies) / os.sysconf("SC_CLK_TCK") - cpu
    return {
        "steps_per_s": steps / wall,
        "steps_per_cpu_s": steps / cpu,
        "others_cores": round(max(others, 0.0) / wall, 2),
    }


def summary(runs):
    rates = [r["steps_per_s"] for r in runs]
    return {
        "steps_per_s": round(statistics.median(rates)),
        "range": [round(min(rates)), round(max(rates))],
        "steps_per_cpu_s": round(statistics.median(r["steps_per_cpu_s"] for r in runs)),
        "others_cores": [r["others_cores"] for r in runs],
    }


def measure(game, options, envs, seconds, repeats):
    rngs = np.arange(envs, dtype=np.uint64)
    one = TesseraVectorEnv(game, envs, copy=False, **options)
    two = TesseraVectorEnv(game, envs, threads=2, copy=False, **options)
    for env in (one, two):  # compile (or load) before any clock starts
        run(env, 0.2, rngs)
    runs = {1: [], 2: []}
    for pair in range(repeats):
        order = ((1, one), (2, two)) if pair % 2 == 0 else ((2, two), (1, one))
        for threads, env in order:
            runs[threads].append(run(env, seconds, rngs))
    one_core, two_cores = summary(runs[1]), summary(runs[2])
    ratios = [b["steps_per_s"] / a["steps_per_s"] for a, b in zip(runs[1], runs[2])]
    quartiles = statistics.quantiles(ratios, n=4)
    return {
        "game": game,
        "options": options,
        "envs": envs,
        "observation_size": one.encoding.observation_size,
        "actions": one.encoding.num_actions,
        "one_thread": one_core,
        "two_threads": two_cores,
        "speedup": round(statistics.median(ratios), 2),
        "speedup_quartiles": [round(quartiles[0], 2), round(quartiles[2], 2)],
        "cpu_efficiency": round(two_cores["steps_per_cpu_s"] / one_core["steps_per_cpu_s"], 2),
    }


SPIEL_GAMES = (("tessera_azul", {}), ("backgammon", {}), ("tessera_azure", {}), ("tessera_pavilion", {}))


def spiel_per_action(name, params, seconds):
    """Microseconds (of CPU) per action of random games of an OpenSpiel game, for ``seconds``;
    the choices by Python's ``random`` (cheaper than numpy's for one draw)."""
    import random

    import pyspiel

    import tessera.rl.spiel  # noqa: F401  (registers Tessera's games)

    game = pyspiel.load_game(name, params)
    rng = random.Random(1)
    actions, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return round((time.process_time() - start) / actions * 1e6, 2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", default="1024,4096")
    parser.add_argument("--games", default="azul,pavilion,azure", help="the games to measure")
    parser.add_argument("--seconds", type=float, default=0.25, help="one window's seconds")
    parser.add_argument("--repeats", type=int, default=40, help="pairs of windows")
    parser.add_argument(
        "--spiel-seconds", type=float, default=2.0, help="CPU seconds of random games per OpenSpiel game"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    numba.set_num_threads(2)
    load_before = [round(x, 2) for x in os.getloadavg()]
    sizes = [int(n) for n in args.envs.split(",")]
    results = [
        measure(game, options, envs, args.seconds, args.repeats)
        for envs in sizes
        for game, options in SETTINGS
        if game in args.games.split(",")
    ]
    azul = [r for r in results if r["game"] == "azul"]
    best_one = max(azul, key=lambda r: r["one_thread"]["steps_per_cpu_s"])
    best_two = max(azul, key=lambda r: r["cpu_efficiency"])
    spiel = {name: spiel_per_action(name, params, args.spiel_seconds) for name, params in SPIEL_GAMES}
    report = {
        "command": "python bench/rl_speed.py "
        + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if v is not None),
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "numba": numba.__version__,
            "numpy": np.__version__,
        },
        "load_before": load_before,
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "results": results,
        "openspiel_us_per_action_cpu": spiel,
        "targets": {
            "azul_2p_one_core": TARGET_ONE_CORE,
            "envs": best_one["envs"],
            "one_core_ratio": round(best_one["one_thread"]["steps_per_s"] / TARGET_ONE_CORE, 2),
            "one_core_cpu_ratio": round(best_one["one_thread"]["steps_per_cpu_s"] / TARGET_ONE_CORE, 2),
            "speedup": TARGET_SPEEDUP,
            "speedup_envs": best_two["envs"],
            "azul_speedup": best_two["speedup"],
            "azul_cpu_efficiency": best_two["cpu_efficiency"],
        },
    }
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()
