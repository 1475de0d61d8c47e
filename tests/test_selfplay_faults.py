"""Self-play runs meeting faults: damaged chunks, a full disk, a read-only run folder and a
killed parent. Each is met for real (a tmpfs, a read-only bind mount, SIGKILL) where the
machine lets the tests mount; docs/selfplay.md, "Faults", says what each does."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).parents[1]
PLAYING_TIMEOUT = 120       # seconds for a run to start playing (numba's cache may be cold)
EXIT_TIMEOUT = 15           # seconds for orphaned processes to notice and exit


def tessera(*args):
    return [sys.executable, "-m", "solver", *(str(arg) for arg in args)]


def _gone(process):
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_workers_exit_when_the_run_is_killed(tmp_path):
    """SIGKILL leaves the pool no chance to stop its workers: they and the fork server must
    notice on their own that the run is gone."""
    out = tmp_path / "run"
    process = subprocess.Popen(
        tessera("selfplay", "azul", "--games", "100000", "--agents", "greedy,random",
                "--players", "4", "--seed", "9", "--chunk-size", "200", "--workers", "2",
                "--out", out, "--no-plots"),
        cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run = psutil.Process(process.pid)
    deadline = time.monotonic() + PLAYING_TIMEOUT
    while not list((out / "chunks").glob("*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = run.children(recursive=True)
    workers = [child for child in left if child.ppid() != process.pid]
    assert len(workers) == 2, left          # forked by the fork server, a child of the run
    process.kill()
    process.wait()
    deadline = time.monotonic() + EXIT_TIMEOUT
    try:
        while not all(_gone(child) for child in left) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [child for child in left if not _gone(child)] == []
    finally:
        for child in left:
            if not _gone(child):
                child.kill()
