"""Start times: the first commands a new user runs, cold (empty numba cache) and warm.

    python bench/start_speed.py [--runs 3] [--before TREE] [--no-clone] [--out results/start.json]

The positions are written once first (with a cache of their own). Every run first does what
the README's set-up command does on a new machine (``readme_fresh_clone``): a clone of the
repository's HEAD, a new virtual environment, ``pip install -e`` of the clone (its seconds:
``install_s``; pip's own cache of downloaded packages is kept, as on a machine that has
installed them before) and the README's command with an empty ``NUMBA_CACHE_DIR``, through
the clone's ``tessera`` script, every module's bytecode compiled afresh. Then it times, in order,
the README's main command with a fresh ``NUMBA_CACHE_DIR`` (cold: the kernels shipped
compiled load, ``tessera.kernels.prebuilt``), the same without them (``readme_compiling``,
``TESSERA_PREBUILT=0``: what a machine they do not serve sees), ``tessera moves`` on an
Azul position (cold, another fresh cache), then in the first command's cache (Azul
warm) the first ``best`` on a Summer Pavilion position and on an Azure view, and
finally every command again warm. A ``best`` figure has its search's own seconds
beside it (``search_median_s``, from the rate line), the part of a warm run that is no
start-up. Each figure is the median of ``--runs`` runs with its range, in wall seconds and in CPU
seconds (user and system, of the command's processes: on a shared machine the wall
time also counts the other work, the CPU time hardly). The commands run through
``python -m tessera`` (what the ``tessera`` script runs), so the script measures the
sources on ``PYTHONPATH`` as well as the installed ones: ``--before TREE`` measures the
source tree ``TREE`` (an earlier version, e.g. ``git archive`` output) too, its run
``i`` just before this tree's run ``i``, so both see the same machine. Last, one
process each profiles the compiles of the README command's search (empty cache) and of
the first Summer Pavilion and Azure view searches after it (``compile_profile``), with no
helper process compiling beside it. CPU seconds count a helper's too.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SHELL_PRELUDE = f'tessera() {{ "{sys.executable}" -m tessera "$@"; }}\n'
README = "tessera new azul --seed 1 | tessera best - --iterations 20000"
# The positions the other commands read, written once first with a cache of their own.
POSITIONS = (
    "tessera new azul --seed 1 > {dir}/azul.txt && tessera new pavilion --seed 2 > {dir}/pav.txt"
    " && tessera new azure --seed 5 | tessera view - --player 1 > {dir}/view.txt"
)
MOVES = "tessera moves {dir}/azul.txt"
PAVILION = "tessera best {dir}/pav.txt --iterations 20000"
AZURE = "tessera best {dir}/view.txt --iterations 20000"
# The figures, in the order one run measures them: (key, command, cache).
STEPS = (
    ("readme_cold", README, "fresh"),
    ("readme_compiling", README, "compiling"),
    ("moves_cold", MOVES, "fresh"),
    ("pavilion_best_after_azul", PAVILION, "azul"),
    ("azure_view_best_after_azul", AZURE, "azul"),
    ("readme_warm", README, "azul"),
    ("moves_warm", MOVES, "azul"),
    ("pavilion_best_warm", PAVILION, "azul"),
    ("azure_view_best_warm", AZURE, "azul"),
)
# One command's search in one process, numba's compile events recorded: the README command
# with an empty cache, then the first best on Summer Pavilion and on an Azure view in that cache.
PROFILE = """
import json, sys
from tessera.compiletime import compile_clock
from tessera.cli import main
with compile_clock() as clock:
    main(["best", sys.argv[1], "--iterations", "20000"], standalone_mode=False)
with open(sys.argv[2], "w") as out:
    json.dump({"compile_s": clock.in_events, "heaviest": clock.heaviest(10)}, out)
"""
PROFILED = (
    ("readme_cold", "azul.txt"),
    ("pavilion_best_after_azul", "pav.txt"),
    ("azure_view_best_after_azul", "view.txt"),
)
TARGETS = {
    "readme_fresh_clone": 5.0,
    "readme_cold": 5.0,
    "readme_compiling": None,
    "moves_cold": 5.0,
    "pavilion_best_after_azul": 5.0,
    "azure_view_best_after_azul": 5.0,
    "readme_warm": 1.0,
    "moves_warm": 1.0,
    "pavilion_best_warm": 1.0,
    "azure_view_best_warm": 1.0,
}
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fresh_clone_run(positions):
    """(wall, CPU, search) seconds of the README's command in a new clone of HEAD installed
    into a new virtual environment, and the install's wall seconds."""
    with tempfile.TemporaryDirectory() as workdir:
        clone, venv = os.path.join(workdir, "tessera"), os.path.join(workdir, "venv")
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", REPOSITORY, clone], check=True, timeout=300)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, timeout=300)
        started = time.perf_counter()
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "-e", clone], check=True, timeout=1800)
        install = time.perf_counter() - started
        prelude = f'export PATH="{os.path.join(venv, "bin")}:$PATH"\n'
        seconds = run_shell(README, os.path.join(workdir, "cache"), positions, None, prelude=prelude)
    return seconds, install


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_shell(command, cache, positions, tree, prelude=SHELL_PRELUDE, **env):
    """(wall, CPU, search) seconds of ``command`` (bash, ``tessera`` being ``python -m tessera``)
    with ``cache``, on the sources of ``tree`` (None: the installed ones); search: what the
    rate line of a ``best`` says ("20000 visits in 0.61 s"), else None. ``env``: more
    environment variables."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, **env)
    # As a user runs it: Python caches the modules' bytecode (without it every command
    # compiles the project's sources again, about 0.05 s).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tree is not None:
        env["PYTHONPATH"] = tree
    start, cpu = time.perf_counter(), children_cpu()
    # From the positions' folder: ``python -m`` puts the working directory before PYTHONPATH.
    done = subprocess.run(
        ["bash", "-c", prelude + "set -o pipefail\n" + command.format(dir=positions)],
        check=True,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        cwd=positions,
    )
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    rate = re.search(r"visits in ([0-9.]+) s", done.stdout)
    return wall, cpu, float(rate.group(1)) if rate else None


def one_run(positions, tree=None, clone=False):
    """One set of figures, each cache made fresh for this run; ``positions``: their folder;
    ``clone``: a fresh clone's figure first (with its install's seconds)."""
    seconds = {}
    if clone:
        seconds["readme_fresh_clone"], seconds["install"] = fresh_clone_run(positions)
        print(
            f"  readme_fresh_clone: {seconds['readme_fresh_clone'][0]:.2f} s (installed in {seconds['install']:.1f} s)",
            file=sys.stderr,
        )
    with tempfile.TemporaryDirectory() as workdir:
        azul_cache = os.path.join(workdir, "azul-cache")
        for key, command, cache in STEPS:
            if cache in ("fresh", "compiling"):
                cache_dir = tempfile.mkdtemp(dir=workdir)
                if key == "readme_cold":
                    azul_cache = cache_dir  # the later steps run after Azul is warm
            else:
                cache_dir = azul_cache
            env = {"TESSERA_PREBUILT": "0"} if cache == "compiling" else {}
            seconds[key] = run_shell(command, cache_dir, positions, tree, **env)
            print(f"  {key}: {seconds[key][0]:.2f} s, CPU {seconds[key][1]:.2f} s", file=sys.stderr)
    return seconds


def compile_profile(positions):
    """Compile seconds and the ten heaviest functions (own seconds, callees excluded) of the
    README command's search with an empty cache, then of the first Summer Pavilion and
    Azure view searches in that cache (``PROFILED``), each in a process of its own, with no
    helper process (``tessera.parallel_compile``), so that each function's seconds are all
    in the one process profiled."""
    profiles = {}
    with tempfile.TemporaryDirectory() as workdir:
        figures = os.path.join(workdir, "profile.json")
        env = dict(
            os.environ, NUMBA_CACHE_DIR=os.path.join(workdir, "cache"), TESSERA_COMPILE_HELPER="0", TESSERA_PREBUILT="0"
        )
        for key, position in PROFILED:
            subprocess.run(
                [sys.executable, "-c", PROFILE, os.path.join(positions, position), figures],
                check=True,
                env=env,
                stdout=subprocess.DEVNULL,
                cwd=positions,
            )
            with open(figures) as f:
                profile = json.load(f)
            profiles[key] = {
                "compile_s": round(profile["compile_s"], 2),
                "heaviest": [
                    {"function": name, "own_compile_s": round(seconds, 2)} for name, seconds in profile["heaviest"]
                ],
            }
    return profiles


def summary(samples):
    walls, cpus = [wall for wall, _, _ in samples], [cpu for _, cpu, _ in samples]
    figure = {
        "median_s": round(statistics.median(walls), 2),
        "range_s": [round(min(walls), 2), round(max(walls), 2)],
        "cpu_median_s": round(statistics.median(cpus), 2),
        "cpu_range_s": [round(min(cpus), 2), round(max(cpus), 2)],
    }
    searches = [search for _, _, search in samples if search is not None]
    if searches:
        figure["search_median_s"] = round(statistics.median(searches), 2)
    return figure


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", default=None, help="a source tree to measure too, first")
    parser.add_argument("--no-clone", action="store_true", help="leave out the fresh clone's figure")
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
            runs.append(one_run(positions, clone=not args.no_clone))
        print("compile profiles", file=sys.stderr)
        profiles = compile_profile(positions)
    commands = {key: command.format(dir="$DIR") for key, command, _ in STEPS}
    commands["readme_compiling"] = "TESSERA_PREBUILT=0 " + commands["readme_compiling"]
    keys = [key for key, _, _ in STEPS]
    if not args.no_clone:
        keys.insert(0, "readme_fresh_clone")
        commands["readme_fresh_clone"] = (
            f"git clone REPO tessera && python -m venv venv && venv/bin/pip install -e tessera && {README}"
        )
    figures = {
        key: {**summary([run[key] for run in runs]), "target_s": TARGETS[key], "command": commands[key]} for key in keys
    }
    if not args.no_clone:
        installs = [run["install"] for run in runs]
        figures["readme_fresh_clone"]["install_median_s"] = round(statistics.median(installs), 1)
        figures["readme_fresh_clone"]["install_range_s"] = [round(min(installs), 1), round(max(installs), 1)]
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
    report["compile_profile"] = profiles
    for key, figure in figures.items():
        low, high = figure["range_s"]
        search = f"  search {figure['search_median_s']:.2f} s" if "search_median_s" in figure else ""
        target = f"  target <= {figure['target_s']} s" if figure["target_s"] is not None else ""
        print(
            f"{key:28} {figure['median_s']:7.2f} s  ({low}-{high})  CPU {figure['cpu_median_s']:6.2f} s{target}{search}"
        )
        if before and key in report["before"]:
            was = report["before"][key]
            print(
                f"{'  before':28} {was['median_s']:7.2f} s  ({was['range_s'][0]}-{was['range_s'][1]})"
                f"  CPU {was['cpu_median_s']:6.2f} s"
            )
    for key, profile in report["compile_profile"].items():
        print(f"{key}: compiled {profile['compile_s']:.2f} s; the heaviest:")
        for row in profile["heaviest"]:
            print(f"  {row['own_compile_s']:6.2f} s  {row['function']}")
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
