"""The Python API (docs/api.md): its example runs; positions, agents' decisions, the
per-move hook and timing of play_game, external players in play_game and `tessera selfplay`."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tessera.agents import parse_agent, play_game
from tessera.errors import MoveError, OptionError, PositionError, TesseraError
from tessera.external import AgentError, ExternalAgent
from tessera.games import get_game
from tessera.kernels import games
from tessera.position import Position
from tests.limits import COLD_START_SECONDS
from tests.test_agents import LATE_POSITION

ROOT = Path(__file__).resolve().parents[1]
AZUL = get_game("azul")


def python_blocks(name):
    return re.findall(r"```python\n(.*?)```", (ROOT / "docs" / name).read_text(), re.S)


@pytest.mark.parametrize("name", ["api.md", "analyze.md"])
def test_the_documented_examples_run(name, capsys):
    blocks = python_blocks(name)
    assert blocks
    for code in blocks:
        exec(compile(code, name, "exec"), {"__name__": "docs_example"})
    assert capsys.readouterr().out


# ---- positions -----------------------------------------------------------------------


def test_a_position_reads_back_from_its_text_and_json_and_matches_the_engine():
    start = Position.new("azul", seed=3, players=3)
    assert np.array_equal(start.state, AZUL.new(3, players=3))
    assert Position.parse(start.text()) == start == Position.parse(start.to_json())
    assert start.players == 3 and start.to_move == 1 and not start.is_view
    codes = np.empty(games.MAX_MOVES, np.int64)
    state = start.state
    count = games.legal_moves(state, codes)
    assert start.legal_moves == [AZUL.format_move(state, c) for c in codes[:count]]


def test_play_returns_a_new_position_and_leaves_the_old_one():
    start = Position.new("pavilion", seed=2)
    first = start.legal_moves[0]
    after = start.play(first)
    assert after != start and start.to_move == 1
    state = start.state
    games.apply_move(state, get_game("pavilion").parse_move(state, first))
    assert np.array_equal(after.state, state)


def test_errors_are_the_projects_own_types():
    start = Position.new("azul", seed=1)
    with pytest.raises(MoveError, match="move 2 of 2"):
        start.play(start.legal_moves[0], "F9 blue 1")
    with pytest.raises(PositionError):
        Position.parse("azul players 7")
    with pytest.raises(OptionError):
        Position.new("azul", players=9)
    with pytest.raises(OptionError):
        Position.new("chess")
    with pytest.raises(OptionError):
        start.best(visits=10, temperature=2)
    with pytest.raises(TesseraError):
        start.view(3)
    view = Position.new("azure", seed=2).view(1)
    with pytest.raises(TesseraError, match="view"):
        view.play(view.legal_moves[0])


def test_chance_outcomes_and_a_seeded_draw():
    position = Position.new("azul", seed=4)
    while not position.is_chance:
        position = position.play(position.legal_moves[0])
    outcomes = position.chance_outcomes()
    assert position.to_move is None and outcomes
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert position.draw_chance(9) == position.draw_chance(9)
    drawn = position.draw_chance(9)
    assert drawn != position and drawn.hash != position.hash


def test_best_and_solve_are_the_documents_of_the_commands():
    late = Position.parse(LATE_POSITION)
    exact = late.solve()
    assert exact["command"] == "solve" and exact["proven"] and exact["best_moves"] == ["C blue 4"]
    found = late.best(algo="alphabeta", depth=4)
    assert found["moves"][0]["move"] == "C blue 4" and found["settings"]["depth"] == 4
    view = Position.new("azure", seed=5).view(1)
    searched = view.best(visits=100, seed=1)
    assert searched["algo"] == "ismcts" and searched["root"]["visits"] == 100
    assert {m["move"] for m in searched["moves"]} <= set(view.legal_moves)


# ---- agents and play_game ------------------------------------------------------------


def test_a_search_agent_decides_with_its_search_result():
    state = AZUL.parse_position(LATE_POSITION)
    decision = parse_agent("mcts:iters=300", seed=2).decide(state)
    assert decision.result.visits == 300 and decision.move == decision.result.best.move
    assert decision.seconds >= decision.result.seconds > 0
    deep = parse_agent("alphabeta:depth=3").decide(state)
    assert deep.result.depth == 3 and deep.move == deep.result.best.move
    assert parse_agent("greedy", seed=1).decide(state).result is None


def test_play_game_calls_the_hook_after_every_move_and_times_the_seats():
    def agents():
        return [parse_agent("mcts:iters=30", seed=1), parse_agent("random", seed=2)]

    events = []
    record = play_game(AZUL, {}, agents(), seed=5, on_move=events.append)
    assert play_game(AZUL, {}, agents(), seed=5).moves == record.moves  # the hook changes nothing
    assert [e.ply for e in events] == list(range(len(record.moves)))
    assert [(e.player, e.move) for e in events] == record.moves
    replay = Position.new("azul", seed=5)
    from tessera.kernels.rng import CHANCE_SALT, make_rng

    chance = make_rng(5 ^ CHANCE_SALT)
    state = replay.state
    for event in events:
        while games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, chance)
        assert event.text == AZUL.format_move(state, event.move)
        games.apply_move(state, event.move)
    for seat in (0, 1):
        assert record.seconds[seat] == pytest.approx(sum(e.decision.seconds for e in events if e.player == seat))
    assert all(e.decision.result.visits == 30 for e in events if e.player == 0)
    assert all(e.decision.result is None for e in events if e.player == 1)


def test_an_external_player_sits_at_a_seat_and_sees_its_view():
    seen = []

    def lowest_text(position):
        seen.append(position)
        return min(position.legal_moves)

    azure = get_game("azure")
    record = play_game(azure, {}, [ExternalAgent(lowest_text), parse_agent("greedy", seed=1)], seed=3)
    mine = [move for seat, move in record.moves if seat == 0]
    assert len(seen) == len(mine) > 0
    assert all(p.is_view and p.to_move == 1 for p in seen)
    assert [p.parse_move(min(p.legal_moves)) for p in seen] == mine


@pytest.mark.parametrize(
    "function, message",
    [
        (lambda position: "F9 blue 9", "illegal move"),
        (lambda position: 1 / 0, "ZeroDivisionError"),
        (lambda position: None, "not a move"),
        (lambda position: -5, "not legal"),
    ],
)
def test_an_external_player_that_fails_ends_the_game_with_an_agent_error(function, message):
    with pytest.raises(AgentError, match=message):
        play_game(AZUL, {}, [ExternalAgent(function), parse_agent("random")], seed=1)


BOT = """
def last(position):
    return position.legal_moves[-1]


def broken(position):
    raise ValueError("boom")
"""


@pytest.mark.long  # a self-play run with an external player
def test_an_external_player_in_tessera_selfplay(tmp_path):
    (tmp_path / "bot.py").write_text(BOT)

    def selfplay(spec, out):
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "tessera",
                "selfplay",
                "azul",
                "--games",
                "4",
                "--seed",
                "2",
                "--agents",
                f"greedy,{spec}",
                "--out",
                out,
                "--workers",
                "2",
                "--no-plots",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=COLD_START_SECONDS,
        )

    done = selfplay("python:file=bot.py,function=last", "runs")
    assert done.returncode == 0, done.stderr
    assert "4 of 4" in done.stderr and "python:file=bot.py,function=last" in done.stdout
    bad = selfplay("python:file=bot.py,function=first", "runs2")
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "error: bad agent spec 'python:file=bot.py,function=first': first is not a function of bot.py"
    ]
    raising = selfplay("python:file=bot.py,function=broken", "runs3")
    assert raising.returncode == 2
    assert raising.stderr.strip().splitlines() == [
        "error: player python:file=bot.py,function=broken raised ValueError: boom"
    ]


def test_a_players_file_is_loaded_once_per_process(tmp_path):
    from tessera.agents import parse_agent as build

    counter = tmp_path / "loads.txt"
    (tmp_path / "counted.py").write_text(f"open({str(counter)!r}, 'a').write('x')\n" + BOT)
    spec = f"python:file={tmp_path / 'counted.py'},function=last"
    agents = [build(spec, seed=s) for s in range(3)]
    assert all(agent.function is agents[0].function for agent in agents)
    assert counter.read_text() == "x"
