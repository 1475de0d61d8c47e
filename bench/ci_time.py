"""How long the README's test command takes on a clean clone, as CI runs it.

    python bench/ci_time.py [--out results/ci.json]

Clones the repository's HEAD into a temporary folder and runs ``bash .ci/run`` there with
``CI=true`` (a fresh virtual environment, the installs, the default test run, then the
run without the numba patches), timing the whole in wall seconds and each part by the
lines pytest prints. An apt install of chromium, where .ci/run makes one, is timed apart
and left out of the total (on CI's machine it is there already). Records the passed,
failed and skipped counts of each pytest run and the slowest tests of the default run
(``--durations`` in .ci/run), which tests/README.md lists. Then times the quick tier
(``python -m pytest --quick``) in the clone's environment on an empty numba cache.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tessera.bench import machine, write_report

REPOSITORY = Path(__file__).resolve().parents[1]
SUMMARY = re.compile(r"^=*\s*(?P<counts>(\d+ \w+(, )?)+) in (?P<seconds>[0-9.]+)s")
DURATION = re.compile(r"^(?P<seconds>[0-9.]+)s (?P<phase>call|setup|teardown)\s+(?P<test>\S+)")


def counts(text):
    """``{"passed": 2112, "skipped": 2, ...}`` of a pytest summary's counts."""
    return {word: int(number) for number, word in re.findall(r"(\d+) (\w+)", text)}


def read_output(lines):
    """The pytest runs' summaries and the slowest tests, from .ci/run's output."""
    runs, slowest = [], []
    for line in lines:
        summary = SUMMARY.match(line.strip())
        if summary:
            runs.append({"counts": counts(summary["counts"]), "seconds": float(summary["seconds"])})
        duration = DURATION.match(line.strip())
        if duration and not runs:  # the default run prints its durations first
            slowest.append(
                {"test": duration["test"], "phase": duration["phase"], "seconds": float(duration["seconds"])}
            )
    return runs, slowest


def time_quick_tier(clone):
    """``python -m pytest --quick`` in the clone's environment after .ci/run, on an empty numba
    cache: its wall seconds, counts and the summary lines of the tests that failed."""
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        done = subprocess.run(
            [str(clone / ".venv" / "bin" / "python"), "-m", "pytest", "--quick", "-q", "-p", "no:cacheprovider"],
            cwd=clone,
            # As .ci/run's activated venv: the tests run the clone's ``tessera`` by name.
            env=dict(
                os.environ,
                NUMBA_CACHE_DIR=cache,
                PATH=f"{clone / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}",
                VIRTUAL_ENV=str(clone / ".venv"),
            ),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        wall = time.perf_counter() - started
    runs, _ = read_output(done.stdout.splitlines())
    return {
        "command": "python -m pytest --quick",
        "exit_status": done.returncode,
        "wall_s": round(wall, 1),
        "target_s": 90,
        "counts": runs[-1]["counts"] if runs else {},
        "failed": [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    apt = 0.0
    if subprocess.run(["bash", "-c", "command -v chromium-headless-shell"], capture_output=True, timeout=60).returncode:
        started = time.perf_counter()
        subprocess.run(
            ["bash", "-c", "apt-get update -qq && apt-get install -y -qq chromium-headless-shell"],
            check=True,
            timeout=1800,
            stdout=subprocess.DEVNULL,
        )
        apt = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as workdir:
        clone = Path(workdir) / "tessera"
        subprocess.run(
            ["git", "clone", "--quiet", "--no-hardlinks", str(REPOSITORY), str(clone)], check=True, timeout=600
        )
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True, check=True, timeout=60
        ).stdout.strip()
        started = time.perf_counter()
        done = subprocess.run(
            ["bash", ".ci/run"],
            cwd=clone,
            env=dict(os.environ, CI="true"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=5400,
        )
        wall = time.perf_counter() - started
        quick = time_quick_tier(clone)
    sys.stdout.write(done.stdout)
    runs, slowest = read_output(done.stdout.splitlines())
    report = {
        "command": "python bench/ci_time.py " + " ".join(sys.argv[1:]),
        "commit": commit,
        "machine": machine(),
        "exit_status": done.returncode,
        "wall_s": round(wall, 1),
        "target_s": 480,
        "apt_chromium_s": round(apt, 1),
        "pytest_runs": runs,
        "quick": quick,
        "slowest": slowest,
    }
    print(
        f"bash .ci/run: {wall:.0f} s wall (exit {done.returncode}); pytest runs: "
        + "; ".join(f"{run['counts']} in {run['seconds']:.0f} s" for run in runs)
        + f"; then pytest --quick: {quick['wall_s']:.0f} s (exit {quick['exit_status']})"
    )
    write_report(args.out, report)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
