"""Seeded outputs of this checkout against other commits: what a change that must not
change meaning (a reformat, a refactor, a compiler setting) leaves identical.

    python bench/seeded_outputs.py COMMIT [COMMIT ...] [--out results/FILE.json]

For each tree (this checkout, then each commit exported from git), with an empty numba
cache of its own:

- ``tessera bench --depth 3``: the signature, the total perft node count of the fixed
  positions (move generation and the seeded sampling that builds them);
- ``tessera new GAME --seed 7 | tessera best - --iterations 3000 --seed 5 --threads 1
  --json`` for every game: a seeded single-threaded search, its whole ranked document
  (visits, values, priors and lines of every move), timings left out.

Prints whether each commit's outputs equal this checkout's, and the first difference where
they do not. Wall time is not measured here: bench/speed_versus.py compares speed.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tessera.bench import machine, write_report
from tessera.strength.baseline import export_commit

REPO = Path(__file__).resolve().parents[1]
GAMES = ("azul", "pavilion", "azure")
THIS = "this checkout"
SECONDS = 1800  # a tree compiles every kernel it runs on an empty cache: minutes
TIMING_KEYS = ("seconds", "nodes_per_second", "simulations_per_second", "elapsed")


def import_tree(src, folder):
    """A folder to put first on ``PYTHONPATH`` so that ``tessera`` is the tree ``src``:
    its solver/ as ``tessera``, its kernels/ as ``tessera.kernels``."""
    package = Path(folder) / "tessera"
    shutil.copytree(src / "solver", package)
    shutil.copytree(src / "kernels", package / "kernels")
    return folder


def without_timings(value):
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key not in TIMING_KEYS}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def outputs(path_entry, cache):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["NUMBA_CACHE_DIR"] = str(cache)
    if path_entry is not None:
        env["PYTHONPATH"] = str(path_entry)
    cache.mkdir(parents=True)

    def tessera(*args, stdin=None):
        # From an empty folder: ``python -m`` puts the working folder first on the path.
        result = subprocess.run(
            [sys.executable, "-m", "tessera", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=cache,
            timeout=SECONDS,
        )
        if result.returncode != 0:
            sys.exit(f"tessera {' '.join(args)} failed: {result.stderr.strip().splitlines()[-1:]}")
        return result.stdout

    signature = next(line for line in tessera("bench", "--depth", "3").splitlines() if "signature" in line)
    searches = {}
    for game in GAMES:
        position = tessera("new", game, "--seed", "7")
        document = tessera(
            "best", "-", "--iterations", "3000", "--seed", "5", "--threads", "1", "--json", stdin=position
        )
        searches[game] = without_timings(json.loads(document))
    return {"bench": signature.strip(), "best": searches}


def digest(result):
    return hashlib.sha256(json.dumps(result, sort_keys=True).encode()).hexdigest()


def first_difference(a, b, where=""):
    if type(a) is not type(b):
        return f"{where or 'the whole'}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}/{key}: only in one"
            found = first_difference(a[key], b[key], f"{where}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{where}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{where}: {a!r} != {b!r}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commits", nargs="+", metavar="COMMIT")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tessera-seeded-") as work:
        work = Path(work)
        results = {THIS: outputs(None, work / "cache-this")}
        for commit in args.commits:
            src = export_commit(REPO, commit, work / "exports") / "src"
            tree = import_tree(src, work / f"tree-{commit}")
            results[commit] = outputs(tree, work / f"cache-{commit}")
    ours = results[THIS]
    report = {
        "command": "python bench/seeded_outputs.py " + " ".join(args.commits),
        "machine": machine(),
        "trees": {
            name: {
                "bench": result["bench"],
                "sha256": digest(result),
                "identical_to_this_checkout": result == ours,
                "first_difference": first_difference(ours, result),
            }
            for name, result in results.items()
        },
    }
    for name, tree in report["trees"].items():
        verdict = "identical" if tree["identical_to_this_checkout"] else f"differs: {tree['first_difference']}"
        print(f"{name:16} {tree['bench']:24} {verdict}")
    if args.out:
        write_report(args.out, report)
    return 0 if all(tree["identical_to_this_checkout"] for tree in report["trees"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
