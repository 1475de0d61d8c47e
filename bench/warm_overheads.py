"""What a warm ``tessera best`` spends besides its work: the garbage collector, and the
exit after the answer is printed.

    python bench/warm_overheads.py [--runs 8] [--before TREE] [--out FILE]

Runs ``tessera best POS --iterations 20000`` on the 2-player Azul opening (``tessera new
azul --seed 1``), warm (one run first to fill numba's cache), through a wrapper that
times every collection (``gc.callbacks``) and notes the moment the exit handlers run.
Per run: the wall seconds from launch to the end of the process; the collector's
seconds; the exit's seconds, from the exit handlers to the end of the process. With
``--before TREE`` (a source tree, e.g. ``git archive`` of an older commit) the same runs
with ``TREE`` on ``PYTHONPATH``, taking turns with this tree's. Between them, the floor
under any command: the wall seconds of a process that only imports click, numpy and numba
(scipy hidden, as the commands hide it). Medians with ranges.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from tessera.bench import load_average, machine, write_report

ITERATIONS = 20_000
WRAPPER = """
import atexit, gc, json, os, sys, time
collecting = [0.0, 0.0]

def timed(phase, info):
    if phase == "start":
        collecting[1] = time.perf_counter()
    else:
        collecting[0] += time.perf_counter() - collecting[1]

def report():
    print(json.dumps({"collector_s": collecting[0], "exiting_at": time.time()}),
          file=sys.stderr, flush=True)

gc.callbacks.append(timed)
atexit.register(report)
sys.argv = ["tessera", *sys.argv[1:]]
import tessera
if os.path.exists(os.path.join(os.path.dirname(tessera.__file__), "console.py")):
    from tessera.console import run
else:                                # a tree from before the console script's own exit
    from tessera.cli import main as run
run()
"""


def one_run(position, tree):
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    started = time.time()
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, "best", position, "--iterations", str(ITERATIONS)],
        capture_output=True,
        text=True,
        env=env,
        cwd=os.path.dirname(position),
    )
    ended = time.time()
    if done.returncode != 0:
        raise SystemExit(f"tessera best failed: {done.stderr.strip()}")
    found = json.loads(done.stderr.strip().splitlines()[-1])
    return {"wall_s": ended - started, "collector_s": found["collector_s"], "exit_s": ended - found["exiting_at"]}


IMPORTS = "import sys; sys.modules['scipy'] = None; import click, numpy, numba"


def imports_run():
    started = time.time()
    subprocess.run([sys.executable, "-c", IMPORTS], check=True)
    return {"wall_s": time.time() - started}


def summary(runs):
    figures = {}
    for key in ("wall_s", "collector_s", "exit_s"):
        if key not in runs[0]:
            continue
        values = sorted(run[key] for run in runs)
        figures[key] = {
            "median": round(statistics.median(values), 3),
            "range": [round(values[0], 3), round(values[-1], 3)],
        }
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--before", help="a source tree to measure too, taking turns")
    parser.add_argument("--out")
    args = parser.parse_args()
    load_before = load_average()
    with tempfile.TemporaryDirectory() as folder:
        position = os.path.join(folder, "azul.txt")
        with open(position, "w") as out:
            subprocess.run([sys.executable, "-m", "tessera", "new", "azul", "--seed", "1"], stdout=out, check=True)
        trees = {"this tree": None}
        if args.before:
            trees = {"before": os.path.abspath(args.before), **trees}
        for tree in trees.values():
            one_run(position, tree)  # fills numba's cache
        runs = {name: [] for name in trees}
        runs["imports alone"] = []
        for i in range(args.runs):
            order = list(trees) if i % 2 == 0 else list(reversed(trees))
            for name in order:
                runs[name].append(one_run(position, trees[name]))
                if name == order[0]:
                    runs["imports alone"].append(imports_run())
    figures = {name: summary(found) for name, found in runs.items()}
    for name, figure in figures.items():
        print(name + ": " + ", ".join(f"{key} {value['median']} {value['range']}" for key, value in figure.items()))
    write_report(
        args.out,
        {
            "command": "python bench/warm_overheads.py " + " ".join(sys.argv[1:]),
            "machine": machine(load_before),
            "figures": figures,
            "runs": runs,
        },
    )


if __name__ == "__main__":
    main()
