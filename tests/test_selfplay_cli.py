"""tessera selfplay and tessera stats: output, files, and one-line errors."""

import json

import pytest
from click.testing import CliRunner

from tessera.cli import main

BATCH = ["--games", "120", "--agents", "random,greedy", "--seed", "3", "--chunk-size", "50"]


def run(*args):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def ok(*args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


def error_line(*args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay") / "run"
    return out, ok("selfplay", "azul", *BATCH, "--workers", "1", "--out", out)


def test_selfplay_writes_records_summary_and_plots(finished):
    out, result = finished
    assert sorted(p.name for p in (out / "chunks").iterdir()) == [f"chunk-00000{k}.parquet" for k in range(3)]
    for name in ("run.json", "summary.json", "scores.png", "seats.png", "lengths.png"):
        assert (out / name).stat().st_size > 0
    run_file = json.loads((out / "run.json").read_text())
    assert run_file["options"] == {"players": 2, "variant": "colour"}
    assert run_file["agents"] == ["random", "greedy"] and run_file["seed"] == 3
    assert "120 of 120 games" in result.stdout
    assert "Score of random vs greedy:" in result.stdout and "Elo difference:" in result.stdout
    assert "120 games played in" in result.stderr


def test_stats_prints_the_same_report(finished):
    out, result = finished
    assert ok("stats", out, "--no-plots").stdout == result.stdout
    summary = json.loads(ok("stats", out, "--json", "--no-plots").stdout)
    assert summary["games"] == 120 and summary["head_to_head"]["games"] == 120
    assert summary == json.loads((out / "summary.json").read_text())["stats"]


def test_resume_takes_the_stored_seed(finished):
    out, _ = finished
    result = ok(
        "selfplay",
        "azul",
        "--games",
        "120",
        "--agents",
        "random,greedy",
        "--chunk-size",
        "50",
        "--out",
        out,
        "--resume",
        "--no-plots",
    )
    assert "0 games played in" in result.stderr


def test_resume_takes_the_stored_chunk_size(tmp_path):
    out = tmp_path / "run"
    ok(
        "selfplay",
        "azul",
        "--games",
        "30",
        "--agents",
        "random",
        "--seed",
        "1",
        "--chunk-size",
        "7",
        "--out",
        out,
        "--no-plots",
    )
    (out / "chunks" / "chunk-000002.parquet").unlink()
    result = ok("selfplay", "azul", "--games", "30", "--agents", "random", "--resume", "--out", out, "--no-plots")
    assert "7 games played" in result.stderr
    assert json.loads((out / "run.json").read_text())["chunk_size"] == 7


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("chunk_size", "5", "chunk_size is '5', not a whole number"),
        ("chunk_size", 0, "chunk_size is 0, not at least 1"),
        ("seed", 1.5, "seed is 1.5, not a whole number"),
        ("agents", ["random", 3], "agents ['random', 3] are not agent specs"),
    ],
)
def test_a_damaged_run_file_gives_one_line_on_resume(tmp_path, field, value, message):
    out = tmp_path / "run"
    ok("selfplay", "azul", "--games", "20", "--agents", "random", "--seed", "1", "--out", out, "--no-plots")
    run_file = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps({**run_file, field: value}))
    line = error_line("selfplay", "azul", "--games", "20", "--agents", "random", "--resume", "--out", out)
    assert line == f"error: {out / 'run.json'} is not a self-play run file ({message})"


def test_one_agent_plays_itself_at_the_game_default(tmp_path):
    result = ok(
        "selfplay", "azul", "--games", "20", "--agents", "greedy", "--seed", "1", "--out", tmp_path, "--no-plots"
    )
    assert "one agent in every game" in result.stdout
    assert json.loads((tmp_path / "run.json").read_text())["seats"] == 2


def test_option_players_is_not_overridden_by_the_agent_count(tmp_path):
    ok(
        "selfplay",
        "azul",
        "--games",
        "6",
        "--agents",
        "random,greedy",
        "--seed",
        "1",
        "--option",
        "players=3",
        "--out",
        tmp_path,
        "--no-plots",
    )
    run_file = json.loads((tmp_path / "run.json").read_text())
    assert run_file["options"]["players"] == 3 and run_file["seats"] == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (["chess", *BATCH], "error: unknown game 'chess' (known: azul"),
        (
            ["azul", "--games", "10", "--agents", "random,mcts:iters=ten"],
            "error: bad agent spec 'mcts:iters=ten': iters must be a whole number, not 'ten'",
        ),
        (
            ["azul", "--games", "10", "--agents", "random,minimax"],
            "error: bad agent spec 'minimax': unknown agent 'minimax'",
        ),
        (["azul", "--games", "10", "--agents", "random,,greedy"], "has an empty agent spec"),
        (["azul", "--games", "0", "--agents", "random"], "error: --games must be at least 1, not 0"),
        (["azul", *BATCH, "--players", "7"], "error: players must be 2, 3 or 4, not 7"),
        (["azul", *BATCH, "--variant", "blue"], "error: unknown variant 'blue'"),
        (
            ["azul", *BATCH, "--players", "3", "--option", "players=4"],
            "error: --players 3 and --option players=4 disagree",
        ),
        (["azul", *BATCH, "--workers", "0"], "error: --workers must be at least 1, not 0"),
        (
            ["azul", *BATCH, "--workers", "2", "--cluster", "tcp://127.0.0.1:8786"],
            "error: --workers is for this machine or --cluster local",
        ),
    ],
)
def test_bad_input_gives_one_line(tmp_path, args, message):
    assert message in error_line("selfplay", *args, "--out", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_unwritable_output_directory_gives_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    line = error_line("selfplay", "azul", *BATCH, "--out", blocker / "run")
    assert line == f"error: cannot write to {blocker / 'run'}: Not a directory"


def test_a_finished_run_is_not_overwritten(finished):
    out, _ = finished
    line = error_line("selfplay", "azul", *BATCH, "--out", out)
    assert "already holds a run (120 of 120 games): add --resume" in line
    line = error_line("selfplay", "azul", *BATCH[:-2], "--chunk-size", "60", "--out", out, "--resume")
    assert line == (f"error: cannot resume {out}: it holds a different run (chunk_size 50 there, 60 here)")


def test_stats_of_a_directory_without_a_run(tmp_path):
    assert error_line("stats", tmp_path) == f"error: no self-play run in {tmp_path} (no run.json)"


@pytest.mark.long  # a second of waiting for the cluster
def test_an_unreachable_cluster_gives_one_line(tmp_path, monkeypatch):
    from tessera.selfplay import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    line = error_line("selfplay", "azul", *BATCH, "--cluster", "tcp://127.0.0.1:1", "--out", tmp_path)
    assert line.startswith("error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:1': ")
    assert not (tmp_path / "run.json").exists()
