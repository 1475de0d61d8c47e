"""Start times: the first commands a new user runs, cold (empty numba cache) and warm.

    python bench/start_speed.py [--runs 3] [--before TREE] [--out results/start.json]

The positions are written once first (with a cache of their own); every run times, in order, the
README's main command with a fresh ``NUMBA_CACHE_DIR`` (cold), ``tessera moves`` on an
Azul position (cold, another fresh cache), then in the first command's cache (Azul
warm) the first ``best`` on a Summer Pavilion position and on an Azure view, and
finally every command again warm. Each
figure is the median of ``--runs`` runs with its range, in wall seconds and in CPU
seconds (user and system, of the command's processes: on a shared machine the wall
time also counts the other work, the CPU time hardly). The commands run through
``python -m solver`` (what the ``tessera`` script runs), so the script measures the
sources on ``PYTHONPATH`` as well as the installed ones: ``--before TREE`` measures the
source tree ``TREE`` (an earlier version, e.g. ``git archive`` output) too, its run
``i`` just before this tree's run ``i``, so both see the same machine.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SHELL_PRELUDE = f'tessera() {{ "{sys.executable}" -m solver "$@"; }}\n'
README = "tessera new azul --seed 1 | tessera best - --iterations 20000"
# The positions the other commands read, written once first with a cache of their own.
POSITIONS = ("tessera new azul --seed 1 > {dir}/azul.txt && tessera new pavilion --seed 2 > {dir}/pav.txt"
             " && tessera new azure --seed 5 | tessera view - --player 1 > {dir}/view.txt")
MOVES = "tessera moves {dir}/azul.txt"
PAVILION = "tessera best {dir}/pav.txt --iterations 20000"
AZURE = "tessera best {dir}/view.txt --iterations 20000"
# The figures, in the order one run measures them: (key, command, cache).
STEPS = (
    ("readme_cold", README, "fresh"),
    ("moves_cold", MOVES, "fresh"),
    ("pavilion_best_after_azul", PAVILION, "azul"),
    ("azure_view_best_after_azul", AZURE, "azul"),
    ("readme_warm", README, "azul"),
    ("moves_warm", MOVES, "azul"),
    ("pavilion_best_warm", PAVILION, "azul"),
    ("azure_view_best_warm", AZURE, "azul"),
)
# The README command in one process with an empty cache, numba's compile events recorded.
PROFILE = """
import json, sys
from solver.compiletime import compile_clock
from solver.cli import main
with compile_clock() as clock:
    main(["new", "azul", "--seed", "1"], standalone_mode=False)
    main(["best", sys.argv[1], "--iterations", "20000"], standalone_mode=False)
with open(sys.argv[2], "w") as out:
    json.dump({"compile_s": clock.seconds, "heaviest": clock.heaviest(10)}, out)
"""
TARGETS = {"readme_cold": 15.0, "moves_cold": 5.0, "pavilion_best_after_azul": 8.0,
           "azure_view_best_after_azul": 8.0, "readme_warm": 1.0, "moves_warm": 1.0,
           "pavilion_best_warm": 1.0, "azure_view_best_warm": 1.0}


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_shell(command, cache, positions, tree):
    """(wall, CPU) seconds of ``command`` (bash, ``tessera`` being ``python -m solver``) with
    ``cache``, on the sources of ``tree`` (None: the installed ones)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    if tree is not None:
        env["PYTHONPATH"] = tree
    start, cpu = time.perf_counter(), children_cpu()
    # From the positions' folder: ``python -m`` puts the working directory before PYTHONPATH.
    subprocess.run(["bash", "-c", SHELL_PRELUDE + "set -o pipefail\n" + command.format(dir=positions)],
                   check=True, env=env, stdout=subprocess.DEVNULL, cwd=positions)
    return time.perf_counter() - start, children_cpu() - cpu


def one_run(positions, tree=None):
    """One set of figures, each cache made fresh for this run; ``positions``: their folder."""
    seconds = {}
    with tempfile.TemporaryDirectory() as workdir:
        azul_cache = os.path.join(workdir, "azul-cache")
        for key, command, cache in STEPS:
            if cache == "fresh":
                cache_dir = tempfile.mkdtemp(dir=workdir)
                if key == "readme_cold":
                    azul_cache = cache_dir          # the later steps run after Azul is warm
            else:
                cache_dir = azul_cache
            seconds[key] = run_shell(command, cache_dir, positions, tree)
            print(f"  {key}: {seconds[key][0]:.2f} s, CPU {seconds[key][1]:.2f} s", file=sys.stderr)
    return seconds


def compile_profile():
    """The README command's compile seconds and its ten heaviest functions (own seconds, callees
    excluded), from one fresh-cache run in one process."""
    with tempfile.TemporaryDirectory() as workdir:
        position, figures = os.path.join(workdir, "azul.txt"), os.path.join(workdir, "profile.json")
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(workdir, "cache"))
        with open(position, "w") as f:
            subprocess.run([sys.executable, "-m", "solver", "new", "azul", "--seed", "1"], check=True,
                           env=env, stdout=f)
        subprocess.run([sys.executable, "-c", PROFILE, position, figures], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        with open(figures) as f:
            profile = json.load(f)
    return {"compile_s": round(profile["compile_s"], 2),
            "heaviest": [{"function": name, "own_compile_s": round(seconds, 2)}
                         for name, seconds in profile["heaviest"]]}


def summary(samples):
    walls, cpus = [wall for wall, _ in samples], [cpu for _, cpu in samples]
    return {"median_s": round(statistics.median(walls), 2),
            "range_s": [round(min(walls), 2), round(max(walls), 2)],
            "cpu_median_s": round(statistics.median(cpus), 2),
            "cpu_range_s": [round(min(cpus), 2), round(max(cpus), 2)]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", default=None, help="a source tree to measure too, first")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    runs, before = [], []
    with tempfile.TemporaryDirectory() as positions:
        run_shell(POSITIONS, os.path.join(positions, "cache"), positions, None)
        for i in range(args.runs):
            if args.before:
                print(f"run {i + 1} of {args.runs}, before ({args.before})", file=sys.stderr)
                before.append(one_run(positions, os.path.abspath(args.before)))
            print(f"run {i + 1} of {args.runs}", file=sys.stderr)
            runs.append(one_run(positions))
    commands = {key: command.format(dir="$DIR") for key, command, _ in STEPS}
    figures = {key: {**summary([run[key] for run in runs]), "target_s": TARGETS[key],
                     "command": commands[key]} for key, _, _ in STEPS}
    report = {
        "command": "python bench/start_speed.py " + " ".join(sys.argv[1:]),
        "positions": POSITIONS.format(dir="$DIR"),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()),
        "runs": args.runs,
        "figures": figures,
    }
    if before:
        report["before"] = {key: summary([run[key] for run in before]) for key, _, _ in STEPS}
    print("compile profile of the README command", file=sys.stderr)
    report["compile_profile"] = compile_profile()
    for key, figure in figures.items():
        low, high = figure["range_s"]
        print(f"{key:28} {figure['median_s']:7.2f} s  ({low}-{high})  CPU {figure['cpu_median_s']:6.2f} s"
              f"  target <= {figure['target_s']} s")
        if before:
            was = report["before"][key]
            print(f"{'  before':28} {was['median_s']:7.2f} s  ({was['range_s'][0]}-{was['range_s'][1]})"
                  f"  CPU {was['cpu_median_s']:6.2f} s")
    for row in report["compile_profile"]["heaviest"]:
        print(f"compile {row['own_compile_s']:6.2f} s  {row['function']}")
    if args.out:
        existing = {}
        if os.path.exists(args.out):
            with open(args.out) as f:
                existing = json.load(f)
        existing.update(report)
        with open(args.out, "w") as f:
            json.dump(existing, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
