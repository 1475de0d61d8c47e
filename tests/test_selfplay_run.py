"""Self-play runs: reproducible records, worker counts, interrupts, resumes and lost workers."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tessera.agents import parse_agent, play_game
from tessera.cores import available_cores
from tessera.errors import TesseraError
from tessera.games import get_game
from tessera.selfplay import chunk, records
from tessera.selfplay.chunk import play_chunk, play_chunk_file
from tessera.selfplay.plan import make_plan
from tessera.selfplay.runner import choose_executor, run_selfplay
from tessera.selfplay.workers import InProcess, ProcessPool
from tests.limits import EXIT_SECONDS, communicate_or_kill

AZUL = get_game("azul")
ROOT = Path(__file__).parents[1]


def run(plan, out_dir, workers=1, resume=False, progress=None):
    return run_selfplay(plan, out_dir, choose_executor(workers), resume=resume, progress=progress)


def summary(out_dir):
    return json.loads((Path(out_dir) / "summary.json").read_text())


def test_records_are_the_games_play_game_plays(tmp_path):
    # Greedy against MCTS goes through solver.agents, greedy against random through the
    # kernel; game i is dealt and seated from (seed, i) alone either way.
    plan = make_plan(AZUL, {}, ["greedy", "random", "mcts:iters=20"], 8, 4, 3)
    run(plan, tmp_path)
    table = records.read_records(tmp_path)
    assert table.column("game").to_pylist() == list(range(8))
    for row in table.to_pylist():
        assert row["agents"] == [plan.agents[a] for a in row["seats"]]
        agents = [parse_agent(spec, seed=seed) for spec, seed in zip(row["agents"], row["agent_seeds"])]
        record = play_game(AZUL, plan.options, agents, row["seed"])
        assert row["moves"] == [move for _, move in record.moves]
        assert row["movers"] == [who for who, _ in record.moves]
        assert row["scores"] == record.scores and row["payoffs"] == record.payoffs
        assert row["length"] == len(record.moves)
        winners = [s for s, p in enumerate(record.payoffs) if p == 1]
        assert row["winner"] == (winners[0] if winners else -1)
    assert {tuple(row) for row in table.column("seats").to_pylist()[:6]} == {
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
    }


@pytest.mark.parametrize("agents", [["random", "greedy"], ["random", "greedy", "mcts:iters=5"]])
def test_a_finished_chunk_is_the_chunk_s_records_and_outcomes(agents):
    # What a worker sends back: the Parquet file's bytes and the outcomes, from arrays.
    plan = make_plan(AZUL, {"players": 2}, agents, 10, 6, 4)
    for index in range(plan.chunks):
        finished = play_chunk_file(plan, index)
        table = pq.read_table(pa.BufferReader(finished.data))
        assert table.equals(play_chunk(plan, index))
        assert table.column("game").to_pylist() == list(plan.chunk_games(index))
        assert table.column("length").to_pylist() == [len(moves) for moves in table.column("moves").to_pylist()]
        expected = records.outcomes_of(table, plan.seats)
        for name in ("seats", "scores", "payoffs", "lengths"):
            assert np.array_equal(getattr(finished.outcomes, name), getattr(expected, name))


def test_one_thread_and_two_threads_write_the_same_records(tmp_path):
    # With two threads, two chunks play at once, each kernel on its own thread.
    plan = make_plan(AZUL, {"players": 3}, ["greedy", "random"], 700, 12, 100)
    run_selfplay(plan, tmp_path / "one", InProcess(1))
    run_selfplay(plan, tmp_path / "two", InProcess(2))
    assert records.read_records(tmp_path / "one").equals(records.read_records(tmp_path / "two"))
    assert summary(tmp_path / "one")["stats"] == summary(tmp_path / "two")["stats"]


def test_cheap_agents_play_in_threads_of_this_process_unless_workers_are_asked_for():
    assert isinstance(choose_executor(None, batched=True), InProcess)
    assert choose_executor(None, batched=True).threads == available_cores()
    searching = choose_executor(None, batched=False)
    assert isinstance(searching, InProcess if available_cores() == 1 else ProcessPool)
    assert isinstance(choose_executor(2, batched=True), ProcessPool)


@pytest.mark.long  # a run with worker processes
def test_one_and_two_workers_write_the_same_records(tmp_path):
    plan = make_plan(AZUL, {}, ["random", "greedy"], 600, 11, 100)
    one = run(plan, tmp_path / "one", workers=1)
    two = run(plan, tmp_path / "two", workers=2)
    assert one.games_done == two.games_done == 600
    read_back = records.read_outcomes(tmp_path / "two", plan.seats)  # chunks land in any order
    for name in ("seats", "scores", "payoffs", "lengths"):
        assert np.array_equal(getattr(two.outcomes, name), getattr(read_back, name))
    assert records.read_records(tmp_path / "one").equals(records.read_records(tmp_path / "two"))
    assert summary(tmp_path / "one")["stats"] == summary(tmp_path / "two")["stats"]


@pytest.mark.parametrize("threads", [1, 2])
def test_an_interrupted_run_resumes_to_the_same_records(tmp_path, threads):
    plan = make_plan(AZUL, {"players": 3}, ["greedy", "random"], 1000, 3, 100)
    whole = run(plan, tmp_path / "whole")

    def ctrl_c_after_three_chunks(done, total, played_now, seconds):
        if done >= 300:
            raise KeyboardInterrupt

    cut = run_selfplay(plan, tmp_path / "cut", InProcess(threads), progress=ctrl_c_after_three_chunks)
    assert cut.interrupted and cut.games_done == 300
    kept = sorted(records.finished_chunks(tmp_path / "cut"))
    assert kept == [0, 1, 2] if threads == 1 else len(kept) == 3  # two threads: any three
    assert summary(tmp_path / "cut")["games_done"] == 300
    assert not summary(tmp_path / "cut")["complete"]
    resumed = run(plan, tmp_path / "cut", resume=True)
    assert not resumed.interrupted and resumed.played_now == 700 and resumed.games_done == 1000
    assert records.read_records(tmp_path / "cut").equals(records.read_records(tmp_path / "whole"))
    assert summary(tmp_path / "cut")["stats"] == summary(tmp_path / "whole")["stats"]
    assert summary(tmp_path / "cut")["complete"]
    again = run(plan, tmp_path / "cut", resume=True)  # nothing left to play
    assert again.played_now == 0 and again.games_done == whole.games_done


def test_a_chunk_gives_up_when_the_run_stops():
    plan = make_plan(AZUL, {}, ["random"], 600, 1, 600)
    chunk.STOP.set()
    try:
        with pytest.raises(chunk.Stopped):
            chunk.play_chunk_games(plan, 0)
    finally:
        chunk.STOP.clear()


@pytest.mark.long  # a run interrupted and resumed
def test_ctrl_c_stops_the_threads_playing_chunks(tmp_path):
    # The chunks in flight are given up at their next slice, and their threads end with
    # the run instead of playing those chunks to the end.
    plan = make_plan(AZUL, {"players": 4}, ["greedy"], 40 * 2000, 4)

    def ctrl_c_after_a_chunk(done, *_):
        if done:
            raise KeyboardInterrupt

    before = set(threading.enumerate())
    result = run_selfplay(plan, tmp_path, InProcess(2), progress=ctrl_c_after_a_chunk)
    assert result.interrupted and result.games_done % 2000 == 0
    assert set(threading.enumerate()) <= before
    assert len(records.finished_chunks(tmp_path)) == result.games_done // 2000 < 40


def test_resume_checks_the_directory(tmp_path):
    plan = make_plan(AZUL, {}, ["random", "greedy"], 200, 1, 100)
    run(plan, tmp_path)
    with pytest.raises(TesseraError, match="already holds a run .200 of 200 games.: add --resume"):
        run(plan, tmp_path)
    other = make_plan(AZUL, {}, ["random", "greedy"], 300, 2, 100)
    with pytest.raises(TesseraError) as err:
        run(other, tmp_path, resume=True)
    assert str(err.value) == (
        f"cannot resume {tmp_path}: it holds a different run (games 200 there, 300 here; seed 1 there, 2 here)"
    )
    stray = records.chunk_path(tmp_path, 7)
    stray.write_bytes(records.chunk_path(tmp_path, 0).read_bytes())
    with pytest.raises(TesseraError, match="chunk-000007.parquet does not belong to this run"):
        run(plan, tmp_path, resume=True)


def test_a_partial_chunk_left_by_a_kill_is_removed(tmp_path):
    plan = make_plan(AZUL, {}, ["random", "greedy"], 200, 1, 100)
    (tmp_path / "chunks").mkdir()
    (tmp_path / "chunks" / "chunk-000000.parquet.partial").write_text("cut short")
    run(plan, tmp_path)
    assert sorted(p.name for p in (tmp_path / "chunks").iterdir()) == ["chunk-000000.parquet", "chunk-000001.parquet"]


@pytest.mark.long  # a run with worker processes
def test_a_lost_worker_costs_only_the_chunks_in_flight(tmp_path):
    plan = make_plan(AZUL, {"players": 4}, ["greedy", "random"], 800, 8, 100)
    killed = []

    def kill_a_worker(done, total, played_now, seconds):
        if done and not killed:
            worker = multiprocessing.active_children()[0]
            os.kill(worker.pid, signal.SIGKILL)
            killed.append(worker.pid)

    result = run(plan, tmp_path / "pool", workers=2, progress=kill_a_worker)
    assert killed and result.games_done == 800 and not result.interrupted
    expected = records.read_records(tmp_path / "pool")
    for index in (0, 4, 7):
        assert play_chunk(plan, index).equals(expected.slice(index * 100, 100).combine_chunks().cast(records.SCHEMA))


@pytest.mark.long  # a run interrupted and resumed
@pytest.mark.parametrize("where", [["--workers", "2"], []])  # processes; threads (default)
def test_ctrl_c_keeps_the_finished_chunks(tmp_path, where):
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it."""
    out = tmp_path / "run"
    command = [
        sys.executable,
        "-m",
        "tessera",
        "selfplay",
        "azul",
        "--games",
        "40000",
        "--agents",
        "greedy,random",
        "--players",
        "4",
        "--seed",
        "9",
        "--chunk-size",
        "200",
        *where,
        "--out",
        str(out),
        "--no-plots",
    ]
    # As at a terminal, whatever this process was started with: a job started in the
    # background of a script ignores SIGINT, and its children would inherit that; a
    # handled signal is reset to its default in a child when it execs.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            command, cwd=ROOT, start_new_session=True, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    finally:
        signal.signal(signal.SIGINT, inherited)
    deadline = time.monotonic() + 120
    while not list((out / "chunks").glob("*.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = communicate_or_kill(process, EXIT_SECONDS, group=True)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted: every finished chunk is kept; add --resume to finish" in stderr
    done = records.finished_chunks(out)
    assert done and set(done.values()) == {200} and len(done) < 200
    assert summary(out)["games_done"] == 200 * len(done)
    assert f"{200 * len(done):,} of 40,000 games" in stdout
    assert not list((out / "chunks").glob("*.partial"))
    plan = make_plan(AZUL, {"players": 4}, ["greedy", "random"], 40000, 9, 200)
    first = min(done)
    assert play_chunk(plan, first).equals(records.read_records(out).slice(0, 200).combine_chunks().cast(records.SCHEMA))
    with pytest.raises(ProcessLookupError):  # no worker outlived the run
        for _ in range(100):
            os.killpg(process.pid, 0)
            time.sleep(0.1)


def test_summary_json_follows_the_chunks(tmp_path):
    plan = make_plan(AZUL, {}, ["random", "greedy"], 250, 1, 100)
    run(plan, tmp_path)
    document = summary(tmp_path)
    assert (document["games_done"], document["games_total"]) == (250, 250)
    assert (document["chunks_done"], document["chunks_total"]) == (3, 3)
    assert document["run"] == json.loads((tmp_path / "run.json").read_text())
    assert [row["games"] for row in document["stats"]["agent_results"]] == [250, 250]
    assert np.isclose(sum(row["win_share"] for row in document["stats"]["seat_results"]), 1)
