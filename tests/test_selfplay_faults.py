"""Self-play runs meeting faults: damaged chunks, a full disk, a read-only run folder and a
killed parent. Each is met for real (a tmpfs, a read-only bind mount, SIGKILL) where the
machine lets the tests mount; docs/selfplay.md, "Faults", says what each does."""

import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.selfplay import checksums, records
from tests.limits import CHILD_SECONDS, kill

ROOT = Path(__file__).parents[1]
PLAYING_TIMEOUT = 120  # seconds for a run to start playing (numba's cache may be cold)
EXIT_TIMEOUT = 15  # seconds for orphaned processes to notice and exit
RUN = ["azul", "--games", "60", "--agents", "random,greedy", "--players", "3", "--seed", "5", "--chunk-size", "20"]
RESUME = "tessera selfplay azul --games 60 --agents random,greedy --players 3 --variant colour"


def tessera(*args):
    return [sys.executable, "-m", "tessera", *(str(arg) for arg in args)]


def cli(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def ok(*args):
    result = cli(*args)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def finished(tmp_path):
    """A finished run of three chunks, and its report."""
    out = tmp_path / "run"
    ok("selfplay", *RUN, "--out", out, "--no-plots")
    return out, ok("stats", out, "--no-plots").stdout


def emptied(data):
    return b""


def cut_in_half(data):
    return data[: len(data) // 2]


def flipped_inside(data):
    """``data`` with one bit flipped 64 bytes after its leading magic, inside its first data
    page: its footer is intact and pyarrow reads it without complaint, only with other
    numbers (asserted)."""
    start = len(b"PAR1") + 64
    changed = bytearray(data)
    changed[start] ^= 0x01
    changed = bytes(changed)
    assert not pq.read_table(pa.BufferReader(changed)).equals(pq.read_table(pa.BufferReader(data)))
    return changed


@pytest.mark.parametrize(
    "damage, reason",
    [
        (emptied, "it is empty"),
        (cut_in_half, "its SHA-256 is not the one recorded in chunks.sha256 when it was written"),
        (flipped_inside, "its SHA-256 is not the one recorded in chunks.sha256 when it was written"),
    ],
)
def test_a_damaged_chunk_is_named_by_stats_and_played_again_by_resume(finished, damage, reason):
    out, report = finished
    chunk = records.chunk_path(out, 1)
    before = records.read_records(out)
    chunk.write_bytes(damage(chunk.read_bytes()))
    result = cli("stats", out, "--no-plots")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"error: {chunk} is damaged ({reason}): `{RESUME} --out {out} --resume` plays it again\n")
    command = shlex.split(result.stderr.split("`")[1])
    assert command[0] == "tessera"
    resumed = ok(*command[1:], "--no-plots")
    assert f"warning: {chunk} is damaged ({reason}): playing it again\n" in resumed.stderr
    assert "20 games played" in resumed.stderr
    assert records.read_records(out).equals(before)
    assert ok("stats", out, "--no-plots").stdout == report


def test_the_manifest_is_sha256sum_s(finished):
    out, _ = finished
    lines = sorted((out / checksums.MANIFEST).read_text().splitlines())  # in landing order
    assert lines == [
        f"{checksums.digest(records.chunk_path(out, k).read_bytes())}  chunks/chunk-00000{k}.parquet" for k in range(3)
    ]
    check = subprocess.run(
        ["sha256sum", "-c", checksums.MANIFEST], cwd=out, text=True, capture_output=True, timeout=CHILD_SECONDS
    )
    assert check.returncode == 0 and check.stdout.count(": OK") == 3


def test_a_run_from_before_checksums_is_read_whole_and_resumed_with_them(finished):
    out, report = finished
    manifest = checksums.read(out)
    (out / checksums.MANIFEST).unlink()
    assert ok("stats", out, "--no-plots").stdout == report
    resumed = ok("selfplay", *RUN, "--out", out, "--resume", "--no-plots")
    assert "0 games played" in resumed.stderr and checksums.read(out) == manifest
    (out / checksums.MANIFEST).unlink()
    chunk = records.chunk_path(out, 2)
    chunk.write_bytes(cut_in_half(chunk.read_bytes()))
    line = cli("stats", out, "--no-plots").stderr
    assert line.startswith(f"error: {chunk} is damaged (not a whole Parquet file: Parquet magic")
    resumed = ok("selfplay", *RUN, "--out", out, "--resume", "--no-plots")
    assert "20 games played" in resumed.stderr
    assert checksums.read(out) == manifest  # the sound ones adopted, the other played
    assert ok("stats", out, "--no-plots").stdout == report


def test_a_line_cut_short_in_the_manifest_is_skipped(finished):
    out, report = finished
    with open(out / checksums.MANIFEST, "a") as manifest:
        manifest.write("0123abc")  # a kill in the middle of a line
    assert ok("stats", out, "--no-plots").stdout == report
    assert set(checksums.read(out)) == {records.chunk_name(k) for k in range(3)}


def test_stats_says_in_one_line_that_the_plots_were_not_written(finished):
    """An existing directory where a plot goes: a write that fails, even for root."""
    out, report = finished
    (out / "scores.png").mkdir()
    result = cli("stats", out)
    assert result.exit_code == 0 and result.stdout == report
    assert result.stderr == (
        f"warning: the plots were not written: cannot write {out / 'scores.png'}: Is a directory\n"
    )
    assert sorted(path.name for path in out.iterdir()) == [
        "chunks",
        "chunks.sha256",
        "run.json",
        "scores.png",
        "summary.json",
    ]


def _gone(process):
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.mark.long  # a run with worker processes, killed
def test_workers_exit_when_the_run_is_killed(tmp_path):
    """SIGKILL leaves the pool no chance to stop its workers: they and the fork server must
    notice on their own that the run is gone."""
    out = tmp_path / "run"
    process = subprocess.Popen(
        tessera(
            "selfplay",
            "azul",
            "--games",
            "100000",
            "--agents",
            "greedy,random",
            "--players",
            "4",
            "--seed",
            "9",
            "--chunk-size",
            "200",
            "--workers",
            "2",
            "--out",
            out,
            "--no-plots",
        ),
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        run = psutil.Process(process.pid)
        deadline = time.monotonic() + PLAYING_TIMEOUT
        while not list((out / "chunks").glob("*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = run.children(recursive=True)
        workers = [child for child in left if child.ppid() != process.pid]
        assert len(workers) == 2, left  # forked by the fork server, a child of the run
    finally:
        kill(process)  # the run alone: its workers are to notice on their own
    deadline = time.monotonic() + EXIT_TIMEOUT
    try:
        while not all(_gone(child) for child in left) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [child for child in left if not _gone(child)] == []
    finally:
        for child in left:
            if not _gone(child):
                child.kill()


# ---- faults of the file system, met for real in a mount namespace of the test's own ------


def in_own_mounts(script, **env):
    """Run the shell ``script`` in a mount namespace of its own (``unshare --mount``, as
    root): what it mounts is seen by it alone and goes when it ends. ``env``: its
    variables, with ``PYTHON`` this interpreter."""
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-euc", script],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable, **{name: str(value) for name, value in env.items()}},
        capture_output=True,
        text=True,
        timeout=PLAYING_TIMEOUT,
    )


@pytest.fixture(scope="module")
def mounts(tmp_path_factory):
    """Skips where this process may not mount (not root, or no mount namespaces)."""
    point = tmp_path_factory.mktemp("mount")
    trial = in_own_mounts('mount -t tmpfs -o size=64k tessera-test "$POINT"', POINT=point)
    if trial.returncode != 0:
        pytest.skip(f"cannot mount in a namespace of its own here: {trial.stderr.strip()}")


@pytest.mark.long  # a self-play run on a full disk
def test_a_full_disk_ends_the_run_in_one_line_and_keeps_what_was_written(tmp_path, mounts):
    """A tmpfs of 64 KiB: room for the run's small files and three chunks of about 14 KiB,
    not for ten. What it held is copied out before the namespace ends, and resumed there."""
    full, kept = tmp_path / "full", tmp_path / "kept"
    full.mkdir()
    run = ["azul", "--games", "1000", "--agents", "random,greedy", "--seed", "5", "--chunk-size", "100"]
    ended = in_own_mounts(
        'mount -t tmpfs -o size=64k tessera-full "$FULL"\n'
        'status=0; "$PYTHON" -m tessera selfplay $RUN --out "$FULL/run" >/dev/null || status=$?\n'
        'cp -a "$FULL/run" "$KEPT"\n'
        "exit $status",
        FULL=full,
        KEPT=kept,
        RUN=" ".join(run),
    )
    assert ended.returncode == 2, ended.stderr
    (line,) = ended.stderr.splitlines()
    assert (
        line.startswith(f"error: cannot write {full / 'run'}/")
        and ": No space left on device; the chunks written so far (" in line
        and line.endswith(") are kept: make room (or make the folder writable), then add --resume to finish")
    )
    check = records.check_chunks(kept)
    assert check.good and not check.damaged and not check.unrecorded
    assert not list(kept.glob("**/*.partial"))
    resumed = ok("selfplay", *run, "--out", kept, "--resume", "--no-plots")
    assert f"{1000 - 100 * len(check.good):,} games played" in resumed.stderr
    fresh = tmp_path / "fresh"
    ok("selfplay", *run, "--out", fresh, "--no-plots")
    assert records.read_records(kept).equals(records.read_records(fresh))
    assert json.loads((kept / "summary.json").read_text())["complete"]


def test_stats_of_a_read_only_run_prints_its_tables(finished, mounts):
    """The run folder bind-mounted read-only over itself: root cannot write there either."""
    out, report = finished
    result = in_own_mounts(
        'mount --bind "$OUT" "$OUT"\nmount -o remount,bind,ro "$OUT"\nexec "$PYTHON" -m tessera stats "$OUT"', OUT=out
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == report
    assert result.stderr == (
        f"warning: the plots were not written: cannot write {out / 'scores.png'}: Read-only file system\n"
    )
    assert not list(out.glob("*.png"))


def test_the_command_stats_names_resumes_a_run_with_options_of_its_own(tmp_path):
    """Flags and options of every kind (a choice, yes/no, one left to the game, a spec with
    a comma, a folder with a space) come back to the same run."""
    out = tmp_path / "my runs" / "az"
    ok(
        "selfplay",
        "azure",
        "--games",
        "4",
        "--agents",
        "random,mcts:iters=3,c=0.7",
        "--option",
        "gifted=favored",
        "--option",
        "cosmos=yes",
        "--seed",
        "2",
        "--chunk-size",
        "2",
        "--out",
        out,
        "--no-plots",
    )
    records.chunk_path(out, 1).write_bytes(b"PAR1")
    line = cli("stats", out).stderr
    command = line.split("`")[1]
    assert command == (
        "tessera selfplay azure --games 4 --agents random,mcts:iters=3,c=0.7 "
        f"--option gifted=favored --option cosmos=yes --out '{out}' --resume"
    )
    resumed = ok(*shlex.split(command)[1:], "--no-plots")
    assert "2 games played" in resumed.stderr and "4 of 4 games" in resumed.stdout
