"""`tessera selfplay --record-search`: each MCTS move's root statistics in the records."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from tessera.games import get_game
from tessera.kernels import bind
from tessera.kernels.constants import CHANCE, TERMINAL
from tessera.kernels.rng import chance_rng
from tessera.selfplay import records
from tessera.selfplay.searchstats import COLUMNS, DEFAULT_TOP
from tests.limits import CHILD_SECONDS, COLD_START_SECONDS

SEARCHER = "mcts:iters=50"


def selfplay(out_dir, *args, game="azul", agents=f"{SEARCHER},greedy", seed=7, check=True):
    """`tessera selfplay` in a process of its own: (exit code, stderr)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tessera",
            "selfplay",
            game,
            "--games",
            "2",
            "--agents",
            agents,
            "--seed",
            str(seed),
            "--workers",
            "1",
            "--out",
            str(out_dir),
            "--no-plots",
            "--no-progress",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=COLD_START_SECONDS,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done.returncode, done.stderr


def run_plan(out_dir):
    return json.loads((Path(out_dir) / "run.json").read_text())


def chunk_bytes(out_dir):
    return {path.name: path.read_bytes() for path in records.chunk_files(out_dir).values()}


def replay(plan, row):
    """(player to move, legal moves) before each player move of a recorded game, replayed
    from its seed with chance drawn as ``tessera.agents.play_game`` draws it."""
    state = get_game(plan["game"]).new(row["seed"], **plan["options"])
    rules = bind.interface(state[0])
    chance = chance_rng(row["seed"])
    buffer = np.empty(rules.MAX_MOVES, np.int64)
    for move in row["moves"]:
        while rules.to_move(state) == CHANCE:
            rules.resolve_chance(state, chance)
        yield int(rules.to_move(state)), set(buffer[: rules.legal_moves(state, buffer)].tolist())
        rules.apply_move(state, move)
    while rules.to_move(state) == CHANCE:
        rules.resolve_chance(state, chance)
    assert rules.to_move(state) == TERMINAL


def check_search_columns(out_dir, top):
    """Every ply of every game: a searcher's move has its root's statistics, consistent
    with the position before it (replayed from the game's seed); other moves none."""
    plan = run_plan(out_dir)
    table = records.read_records(out_dir)
    assert table.schema.equals(records.SEARCH_SCHEMA)
    searched = 0
    for row in table.to_pylist():
        plies = len(row["moves"])
        assert all(len(row[name]) == plies for name in COLUMNS)
        before = replay(plan, row)
        for ply, (move, mover) in enumerate(zip(row["moves"], row["movers"])):
            to_move, legal = next(before)
            moves, visits = row["search_moves"][ply], row["search_visits"][ply]
            root, win_rate = row["search_root_visits"][ply], row["search_win_rate"][ply]
            margin = row["search_margin"][ply]
            assert to_move == mover and move in legal
            if row["agents"][mover] == SEARCHER:
                searched += 1
                assert 1 <= len(moves) <= top and len(moves) == len(visits)
                assert len(set(moves)) == len(moves) and set(moves) <= legal
                assert all(count > 0 for count in visits)
                assert visits == sorted(visits, reverse=True)
                assert sum(visits) <= root
                # MCTS plays its most visited move, which is recorded first.
                assert moves[0] == move
                assert 0.0 <= win_rate <= 1.0 and math.isfinite(margin)
            else:
                assert moves == [] and visits == []
                assert root is None and win_rate is None and margin is None
        assert next(before, None) is None  # the replay reached the game's end
    assert searched > 0
    return table


@pytest.mark.long  # a self-play run
def test_mcts_moves_have_their_root_statistics(tmp_path):
    selfplay(tmp_path, "--record-search")
    assert run_plan(tmp_path)["record_search"] == DEFAULT_TOP
    table = check_search_columns(tmp_path, DEFAULT_TOP)
    # What the statistics and the run viewer read is there as in any run.
    assert (
        records.read_records(tmp_path, ["game", "seed", "moves"]).to_pylist()
        == table.select(["game", "seed", "moves"]).to_pylist()
    )
    done = subprocess.run(
        [sys.executable, "-m", "tessera", "stats", str(tmp_path), "--json", "--no-plots"],
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2


@pytest.mark.long  # three self-play runs
def test_same_seed_same_columns_and_a_resume_plays_them_again(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    selfplay(first, "--record-search", "--record-top", "5", "--chunk-size", "1")
    table = check_search_columns(first, 5)
    selfplay(second, "--record-search", "--record-top", "5", "--chunk-size", "1")
    assert records.read_records(second).equals(table)
    assert chunk_bytes(second) == chunk_bytes(first)
    sums = (second / "chunks.sha256").read_text()
    records.chunk_path(second, 1).unlink()
    selfplay(second, "--resume")  # the run's flag comes from its run.json
    assert chunk_bytes(second) == chunk_bytes(first)
    assert (second / "chunks.sha256").read_text() == sums
    assert records.read_records(second).equals(table)


@pytest.mark.long  # three self-play runs
def test_a_resume_with_another_flag_is_refused(tmp_path):
    selfplay(tmp_path, "--record-search", "--chunk-size", "1")
    records.chunk_path(tmp_path, 1).unlink()
    for flags, shown in (
        (["--no-record-search"], "off here"),
        (["--record-search", "--record-top", "3"], "on (top 3) here"),
    ):
        code, err = selfplay(tmp_path, "--resume", *flags, check=False)
        assert code != 0 and "Traceback" not in err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "cannot resume" in lines[0] and shown in lines[0]
    assert list(records.chunk_files(tmp_path)) == [0]


@pytest.mark.long  # two self-play runs
def test_a_run_without_the_flag_keeps_the_old_records(tmp_path):
    selfplay(tmp_path)
    assert "record_search" not in run_plan(tmp_path)
    for path in records.chunk_files(tmp_path).values():
        assert pq.read_schema(path).equals(records.SCHEMA)
    assert records.read_records(tmp_path).schema.equals(records.SCHEMA)
    code, err = selfplay(tmp_path, "--resume", "--record-search", check=False)
    assert code != 0 and "record_search off there, on (top 16) here" in err


def test_record_top_needs_record_search(tmp_path):
    for args, message in (
        (["--record-top", "4"], "--record-top goes with --record-search"),
        (["--record-search", "--record-top", "0"], "--record-top must be at least 1, not 0"),
    ):
        code, err = selfplay(tmp_path / "run", *args, check=False)
        assert code != 0 and err.strip().splitlines() == [f"error: {message}"]


def test_kernel_games_have_empty_entries(tmp_path):
    selfplay(tmp_path, "--record-search", agents="random,greedy")
    table = records.read_records(tmp_path)
    assert table.schema.equals(records.SEARCH_SCHEMA)
    for row in table.to_pylist():
        assert row["search_moves"] == [[]] * len(row["moves"])
        assert row["search_root_visits"] == [None] * len(row["moves"])


def test_azure_views_record_information_set_searches(tmp_path):
    selfplay(tmp_path, "--record-search", "--record-top", "4", game="azure", agents=f"{SEARCHER},random")
    check_search_columns(tmp_path, 4)


# ---- what each search resolves to ------------------------------------------------------


def test_run_json_records_what_each_agents_search_resolves_to(tmp_path):
    """mcts:iters=50 in 2-player Azul leaves rollout, model, exploration and value to the
    game: a short budget takes round rollouts scored by the built-in model at exploration
    1.0 (docs/search.md, "Defaults per game and player count"); greedy does not search."""
    from tessera.learning.model import load_model
    from tessera.search.value_model import builtin_model_file

    selfplay(tmp_path)
    first, second = run_plan(tmp_path)["searches"]
    assert second is None
    assert first["rollout"] == "round" and first["model"] == "builtin"
    assert first["exploration"] == 1.0
    assert first["model_hash"] == load_model(builtin_model_file("azul", 2)).hash


@pytest.mark.long  # two self-play runs
def test_a_resume_whose_defaults_resolve_otherwise_is_refused(tmp_path):
    """A run started by a version whose default for the same spec was another rollout (as
    run.json says) would mix two searches under one name: the resume is refused, in one line."""
    selfplay(tmp_path, "--chunk-size", "1")
    records.chunk_path(tmp_path, 1).unlink()
    plan = run_plan(tmp_path)
    plan["searches"][0] = {**plan["searches"][0], "rollout": "mixed", "exploration": 2.0}
    (tmp_path / "run.json").write_text(json.dumps(plan))
    code, err = selfplay(tmp_path, "--resume", check=False)
    lines = err.strip().splitlines()
    assert code != 0 and "Traceback" not in err and len(lines) == 1
    assert f"{SEARCHER}'s search rollout=mixed exploration=2.0" in lines[0]
    assert "rollout=round exploration=1.0" in lines[0]
    assert "finish it with the version that started it" in lines[0]
    assert list(records.chunk_files(tmp_path)) == [0]


@pytest.mark.long  # two self-play runs
def test_a_run_json_from_before_searches_were_recorded_resumes(tmp_path):
    selfplay(tmp_path, "--chunk-size", "1")
    first = records.read_records(tmp_path)
    records.chunk_path(tmp_path, 1).unlink()
    plan = run_plan(tmp_path)
    del plan["searches"]
    (tmp_path / "run.json").write_text(json.dumps(plan))
    selfplay(tmp_path, "--resume")
    assert records.read_records(tmp_path).equals(first)
