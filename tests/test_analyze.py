"""`tessera analyze` driven through its pipes: answers, concurrency, terminate, errors,
tree reuse, the end of input and SIGTERM; every line checked against docs/analyze.schema.json."""

import json
import os
import random
import signal
import time
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from referencing import Registry, Resource

from tessera.agents import parse_agent, play_game
from tessera.analysis.client import AnalysisProcess
from tessera.games import get_game
from tessera.kernels import games
from tessera.kernels.rng import CHANCE_SALT, make_rng
from tessera.position import Position
from tessera.search.batches import kept_back
from tests.limits import COLD_START_SECONDS, EXIT_SECONDS

DOCS = Path(__file__).resolve().parents[1] / "docs"
BEST_SCHEMA = json.loads((DOCS / "best.schema.json").read_text())
ANSWER_SCHEMA = json.loads((DOCS / "analyze.schema.json").read_text())
REGISTRY = Registry().with_resources(
    (schema["$id"], Resource.from_contents(schema)) for schema in (BEST_SCHEMA, ANSWER_SCHEMA)
)
VALIDATOR = jsonschema.Draft202012Validator(ANSWER_SCHEMA, registry=REGISTRY)
AZUL, AZURE = get_game("azul"), get_game("azure")


def checked(line):
    VALIDATOR.validate(line)
    return line


def legal_texts(game, state):
    moves = np.empty(games.MAX_MOVES, np.int64)
    return {game.format_move(state, m) for m in moves[: games.legal_moves(state, moves)]}


def position_hash(state):
    return f"{int(games.position_hash(state)) & (2**64 - 1):016x}"


def replayed(record, count):
    """The texts of a record's first ``count`` moves and the hashes of the positions after
    0..count of them, chance drawn as `tessera selfplay` draws it."""
    state = AZUL.new(record.seed)
    chance = make_rng(record.seed ^ CHANCE_SALT)
    texts, hashes = [], [position_hash(state)]
    for _, move in record.moves[:count]:
        texts.append(AZUL.format_move(state, move))
        games.apply_move(state, move)
        while games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, chance)
        hashes.append(position_hash(state))
    return texts, hashes


@pytest.fixture(scope="module")
def engine():
    with AnalysisProcess(threads=2, options=["--warm", "all"]) as process:
        process.send({"id": "warm", "game": "azul", "maxVisits": 1})
        process.answer_to("warm", timeout=COLD_START_SECONDS)
        yield process


def test_the_schemas_are_valid():
    from tessera.analysis.protocol import QUERY_SCHEMA

    for schema in (BEST_SCHEMA, ANSWER_SCHEMA, QUERY_SCHEMA):
        jsonschema.Draft202012Validator.check_schema(schema)


def test_best_json_on_a_view_follows_the_schema():
    """The search of a view is "ismcts", which best.schema.json did not list."""
    from click.testing import CliRunner

    from tessera.cli import main

    view = AZURE.format_position(AZURE.view(AZURE.new(5), 0))
    result = CliRunner().invoke(main, ["best", view, "-n", "50", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["algo"] == "ismcts"
    jsonschema.Draft202012Validator(BEST_SCHEMA).validate(report)


@pytest.mark.parametrize(
    "query, game",
    [
        ({"game": "azul"}, "azul"),
        ({"game": "azul", "threads": 2}, "azul"),
        ({"game": "azul", "options": {"players": 3, "variant": "gray"}, "startSeed": 4}, "azul"),
        ({"game": "pavilion", "options": {"players": 2}}, "pavilion"),
        ({"game": "azure", "options": {"gifted": "mighty"}}, "azure"),
        ({"position": AZURE.format_position(AZURE.view(AZURE.new(5), 0))}, "azure"),
        ({"position": AZURE.position_to_json(AZURE.new(6))}, "azure"),
    ],
)
def test_a_query_for_each_game_and_an_azure_view(engine, query, game):
    engine.send({"id": "q", "maxVisits": 200, "seed": 3, **query})
    answer = checked(engine.answer_to("q"))
    assert answer["game"] == game and answer["turn"] == 0 and not answer["interrupted"]
    if "position" in query:
        text = query["position"]
        state = (
            get_game(game).parse_position(text) if isinstance(text, str) else get_game(game).position_from_json(text)
        )
    else:
        state = get_game(game).new(query.get("startSeed", 0), **query.get("options", {}))
    assert answer["position_hash"] == position_hash(state)
    assert answer["algo"] == ("mcts" if games.is_complete(state) else "ismcts")
    assert {m["move"] for m in answer["moves"]} <= legal_texts(get_game(game), state)
    threads = query.get("threads", 1)
    assert answer["root"]["visits"] == 200 and answer["root"]["threads"] == threads  # the budget is the search's


@pytest.mark.long  # a search of two seconds
def test_answers_come_as_searches_finish_tagged_by_id(engine):
    engine.send({"id": "slow", "game": "azul", "maxTime": 2.0})
    engine.send({"id": "fast", "game": "pavilion", "maxVisits": 20})
    first = checked(engine.next())
    second = checked(engine.next(timeout=30))
    assert (first["id"], second["id"]) == ("fast", "slow")
    assert first["game"] == "pavilion" and second["game"] == "azul"
    assert second["root"]["seconds"] >= 2.0 - kept_back(2.0)  # what it keeps for the result
    assert not first["isDuringSearch"] and not second["isDuringSearch"]


@pytest.mark.long  # a search that runs until it is stopped
def test_terminate_stops_a_running_search_with_what_it_has(engine):
    engine.send({"id": "long", "game": "azul", "maxTime": 60})
    time.sleep(1.0)
    started = time.monotonic()
    engine.send({"id": "stop", "action": "terminate", "terminateId": "long"})
    assert checked(engine.next()) == {"id": "stop", "action": "terminate", "terminateId": "long"}
    answer = checked(engine.answer_to("long", timeout=10))
    assert time.monotonic() - started < 5
    assert answer["interrupted"] and answer["root"]["visits"] > 0 and answer["moves"]


@pytest.mark.long  # a search process stopped and started again
def test_terminate_of_alphabeta_replaces_its_process_and_the_engine_goes_on(engine):
    engine.send({"id": "deep", "game": "azul", "options": {"players": 4}, "algo": "solve"})
    time.sleep(1.0)
    engine.send({"id": "stop", "action": "terminate", "terminateId": "deep"})
    assert checked(engine.next())["action"] == "terminate"
    answer = checked(engine.answer_to("deep", timeout=20))
    assert answer["field"] is None and answer["error"].startswith("terminated")
    for i in range(3):  # both processes serve again
        engine.send({"id": f"after{i}", "game": "azul", "maxVisits": 10})
    answers = engine.answers_to([f"after{i}" for i in range(3)])
    assert all(checked(answer)["root"]["visits"] == 10 for answer in answers.values())


@pytest.mark.long  # a search long enough to report as it goes
def test_partial_answers_during_a_search(engine):
    engine.send({"id": "p", "game": "azul", "maxTime": 1.0, "reportDuringSearchEvery": 0.25})
    lines = []
    while not lines or lines[-1]["isDuringSearch"]:
        lines.append(checked(engine.next()))
    partial, final = lines[:-1], lines[-1]
    assert len(partial) >= 2 and all(line["id"] == "p" for line in lines)
    visits = [line["root"]["visits"] for line in lines]
    assert visits == sorted(visits) and visits[0] < visits[-1]
    assert final["root"]["seconds"] >= 1.0 - kept_back(1.0) and not final["interrupted"]


def test_analyze_turns_answer_each_turn_of_a_replayed_selfplay_game(engine):
    """startSeed and the player moves of a self-play record replay its game, chance included."""
    agents = [parse_agent("random", seed=1), parse_agent("random", seed=2)]
    record = play_game(AZUL, {}, agents, seed=11)
    texts, hashes = replayed(record, 30)
    turns = [0, 7, 25, 30]
    engine.send({"id": "rec", "game": "azul", "startSeed": 11, "moves": texts, "analyzeTurns": turns, "maxVisits": 20})
    answers = [checked(engine.answer_to("rec")) for _ in turns]
    assert sorted(a["turn"] for a in answers) == turns
    for answer in answers:
        assert answer["position_hash"] == hashes[answer["turn"]]


BAD_QUERIES = [
    ("{not json", None, None),
    ('["a list"]', None, None),
    ({"id": "b", "game": "azul", "maxVisit": 3}, "b", "maxVisit"),
    ({"id": "b", "game": "azul", "maxVisits": 0}, "b", "maxVisits"),
    ({"id": "b", "game": "azul", "maxTime": -1}, "b", "maxTime"),
    ({"id": "b", "game": "azul", "threads": 0}, "b", "threads"),
    ({"id": "b", "game": "azul", "algo": "minimax"}, "b", "algo"),
    ({"id": "b", "game": "chess"}, "b", "game"),
    ({"id": "b", "game": "azul", "options": {"colours": 3}}, "b", "options"),
    ({"id": "b", "game": "azul", "options": {"players": 9}}, "b", "options"),
    ({"id": "b", "position": "azul what"}, "b", "position"),
    ({"id": "b"}, "b", "position"),
    ({"id": "b", "game": "azul", "moves": ["F9 blue 3"]}, "b", "moves"),
    ({"id": "b", "game": "azul", "moves": ["F1 blue"]}, "b", "moves"),
    ({"id": "b", "game": "azul", "moves": [], "analyzeTurns": [1]}, "b", "analyzeTurns"),
    ({"id": "b", "game": "azul", "moves": 3}, "b", "moves"),
    ({"id": "b", "action": "terminate"}, "b", "terminateId"),
    ({"id": "b", "action": "resign"}, "b", "action"),
    ({"game": "azul"}, None, "id"),
]


@pytest.mark.parametrize("query, query_id, field", BAD_QUERIES)
def test_a_bad_query_gets_an_error_naming_its_field(engine, query, query_id, field):
    engine.send(query)
    answer = checked(engine.next())
    assert set(answer) == {"id", "error", "field"}
    assert (answer["id"], answer["field"]) == (query_id, field)
    assert "\n" not in answer["error"]


@pytest.mark.parametrize(
    "query, fields",
    [
        ({"game": "azul", "algo": "alphabeta", "depth": 1, "maxVisits": 5, "seed": 2}, {"maxVisits", "seed"}),
        ({"game": "azul", "depth": 3, "maxVisits": 5}, {"depth"}),
        ({"position": AZUL.format_position(AZUL.new(1)), "options": {"players": 3}, "maxVisits": 5}, {"options"}),
        (
            {
                "position": AZURE.position_to_json(AZURE.view(AZURE.new(2), 0)),
                "maxVisits": 5,
                "reportDuringSearchEvery": 0.5,
            },
            {"reportDuringSearchEvery"},
        ),
        ({"action": "query_version", "maxVisits": 5}, {"maxVisits"}),
    ],
)
def test_unused_fields_get_warnings_and_the_query_runs(engine, query, fields):
    engine.send({"id": "w", **query})
    lines = [checked(engine.next())]
    while "warning" in lines[-1]:
        lines.append(checked(engine.next()))
    assert {(line["id"], line["field"]) for line in lines[:-1]} == {("w", f) for f in fields}
    assert lines[-1]["id"] == "w" and "error" not in lines[-1]


def test_chance_outcomes_in_the_moves_are_played_as_given(engine):
    position, texts = Position.new("azul", seed=8), []
    while not position.is_chance:
        texts.append(position.legal_moves[0])
        position = position.play(texts[-1])
    while position.is_chance:  # the refill, drawn by hand: the last colour each time
        texts.append(position.legal_moves[-1])
        position = position.play(texts[-1])
    engine.send({"id": "drawn", "game": "azul", "startSeed": 8, "moves": texts, "maxVisits": 5})
    assert checked(engine.answer_to("drawn"))["position_hash"] == position.hash
    first_draw = next(i for i, t in enumerate(texts) if t.startswith("draw"))
    engine.send({"id": "seeded", "game": "azul", "startSeed": 8, "moves": texts[:first_draw], "maxVisits": 5})
    by_seed = Position.new("azul", seed=8).play(*texts[:first_draw]).draw_chance(8 ^ CHANCE_SALT)
    assert checked(engine.answer_to("seeded"))["position_hash"] == by_seed.hash != position.hash


def test_a_turn_that_cannot_be_searched_is_an_error_the_others_run(engine):
    agents = [parse_agent("greedy", seed=1), parse_agent("greedy", seed=2)]
    record = play_game(AZUL, {}, agents, seed=4)
    texts, _ = replayed(record, len(record.moves))
    end = len(texts)
    engine.send(
        {"id": "t", "game": "azul", "startSeed": 4, "moves": texts, "analyzeTurns": [end, end - 1], "maxVisits": 5}
    )
    over, searched = sorted((checked(engine.next()) for _ in range(2)), key=lambda a: -a["turn"])
    assert (over["turn"], over["field"]) == (end, "analyzeTurns") and "game is over" in over["error"]
    assert searched["turn"] == end - 1 and searched["root"]["visits"] == 5


def test_a_query_that_follows_a_game_reuses_the_tree_until_the_cache_is_cleared(engine):
    base = {"game": "azul", "startSeed": 21, "maxVisits": 3000, "seed": 1}
    engine.send({"id": "r0", **base})
    first = checked(engine.answer_to("r0"))
    assert first["reusedVisits"] == 0
    move = first["moves"][0]["move"]
    engine.send({"id": "r1", **base, "moves": [move]})
    followed = checked(engine.answer_to("r1"))
    assert followed["reusedVisits"] == first["moves"][0]["visits"] > 0
    assert followed["root"]["visits"] == 3000  # new simulations, on top of the kept ones
    engine.send({"id": "c", "action": "clear_cache"})
    assert checked(engine.next()) == {"id": "c", "action": "clear_cache"}
    engine.send({"id": "r2", **base, "moves": [move]})
    assert checked(engine.answer_to("r2"))["reusedVisits"] == 0


def test_query_version(engine):
    engine.send({"id": "v", "action": "query_version"})
    answer = checked(engine.next())
    assert answer["id"] == "v" and answer["protocol"] == 1 and answer["version"]


def test_a_fresh_search_is_reproducible_from_its_seed(engine):
    query = {"game": "pavilion", "startSeed": 3, "maxVisits": 300, "seed": 9}
    engine.send({"id": "c", "action": "clear_cache"})
    engine.next()
    results = []
    for name in ("s1", "s2"):
        engine.send({"id": name, **query})
        results.append(checked(engine.answer_to(name)))
        engine.send({"id": "c", "action": "clear_cache"})
        engine.next()
    assert [(m["move"], m["visits"]) for m in results[0]["moves"]] == [
        (m["move"], m["visits"]) for m in results[1]["moves"]
    ]


@pytest.mark.long  # an analysis engine of its own, a thousand queries
def test_a_thousand_mixed_queries_each_get_an_answer_and_the_engine_lives():
    rng = random.Random(5)
    kinds = [
        ({"game": "azul", "maxVisits": 2}, True),
        ({"game": "pavilion", "maxVisits": 2}, True),
        ({"game": "azure", "maxVisits": 2}, True),
        ({"game": "azul", "maxVisits": -2}, False),
        ({"game": "azul", "moves": ["nonsense"]}, False),
        ({"game": "tetris"}, False),
        ({"game": "azul", "bogus": 1}, False),
    ]
    with AnalysisProcess(threads=2) as process:
        expected = {}
        for i in range(1000):
            query, good = rng.choice(kinds)
            expected[f"m{i}"] = good
            process.send({"id": f"m{i}", "startSeed": i, **query})
            if i % 100 == 0:
                process.send("}{ not a query")
        process.send({"id": "alive", "action": "query_version"})
        lines = process.close(timeout=120)
        assert process.process.returncode == 0
    answers = {}
    for line in lines:
        checked(line)
        answers.setdefault(line["id"], []).append(line)
    assert answers["alive"][0]["action"] == "query_version"
    assert len(answers[None]) == 10
    for query_id, good in expected.items():
        [answer] = answers[query_id]
        assert ("error" not in answer) == good, answer


@pytest.mark.long  # an analysis engine of its own
def test_end_of_input_finishes_every_query_then_exits():
    with AnalysisProcess(threads=1) as process:
        for i in range(4):
            process.send({"id": f"e{i}", "game": "azul", "maxVisits": 50, "startSeed": i})
        lines = process.close(timeout=120)
        assert process.process.returncode == 0
    assert sorted(line["id"] for line in lines) == [f"e{i}" for i in range(4)]
    assert all(not line["interrupted"] and line["root"]["visits"] == 50 for line in lines)


def lines_after_sigterm(process, timeout):
    """SIGTERM to the engine ``process``: the lines it writes until it ends (each waited
    for up to ``timeout`` seconds), once it has exited with status 0."""
    process.process.send_signal(signal.SIGTERM)
    lines = []
    while (line := process.next(timeout=timeout)) is not None:
        lines.append(checked(line))
    assert process.process.wait(timeout=EXIT_SECONDS) == 0
    return lines


@pytest.mark.long  # an analysis engine of its own
def test_sigterm_stops_running_searches_cleanly():
    with AnalysisProcess(threads=1) as process:
        process.send({"id": "warm", "game": "azul", "maxVisits": 1})
        process.answer_to("warm", timeout=COLD_START_SECONDS)
        process.send({"id": "run", "game": "azul", "maxTime": 60, "reportDuringSearchEvery": 0.5})
        process.send({"id": "queued", "game": "azul", "maxTime": 60})
        # Its first partial answer: the search runs (a long budget's kernels are loaded).
        assert checked(process.next(timeout=COLD_START_SECONDS))["isDuringSearch"]
        started = time.monotonic()
        lines = lines_after_sigterm(process, timeout=30)
        assert time.monotonic() - started < 10
    by_id = {line["id"]: line for line in lines}
    assert by_id["run"]["interrupted"] is True
    assert "stopped" in by_id["queued"]["error"]


@pytest.mark.cold
def test_sigterm_answers_a_search_still_loading_its_kernels(tmp_path):
    """A search sees a stop only between slices of its simulations. One still compiling on
    an empty cache when SIGTERM comes answers as interrupted if it starts searching within
    the engine's 10 s, else with an error: either way once, and the engine exits with 0."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), TESSERA_PREBUILT="0")
    with AnalysisProcess(threads=1, env=env) as process:
        process.send({"id": "up", "action": "query_version"})
        assert process.next(timeout=COLD_START_SECONDS)["id"] == "up"  # SIGTERM is handled
        process.send({"id": "run", "game": "azul", "maxTime": 60})
        time.sleep(0.5)
        # The engine may be compiling too (the query's position) when the signal comes.
        lines = lines_after_sigterm(process, timeout=COLD_START_SECONDS)
    final = [line for line in lines if not line.get("isDuringSearch")]
    assert [line["id"] for line in final] == ["run"]
    assert final[0].get("interrupted") is True or final[0] == {
        "id": "run",
        "turn": 0,
        "error": "the engine stopped and this search did not answer within 10 s",
        "field": None,
    }


@pytest.mark.long  # an analysis engine of its own
def test_a_search_process_that_dies_is_answered_for_and_replaced():
    import psutil

    with AnalysisProcess(threads=1) as process:
        process.send({"id": "warm", "game": "azul", "maxVisits": 1})
        process.answer_to("warm", timeout=COLD_START_SECONDS)
        process.send({"id": "doomed", "game": "azul", "maxTime": 60})
        time.sleep(0.5)
        server = next(
            child
            for child in psutil.Process(process.process.pid).children()
            if "forkserver" in " ".join(child.cmdline())
        )
        for search in server.children():
            search.kill()
        lost = checked(process.answer_to("doomed", timeout=30))
        assert lost["error"] == "the search process ended unexpectedly"
        process.send({"id": "next", "game": "azul", "maxVisits": 20})
        assert checked(process.answer_to("next", timeout=60))["root"]["visits"] == 20
        assert process.close() == [] and process.process.returncode == 0


def test_a_position_queried_again_is_the_same_whatever_was_played_from_it(engine):
    start = Position.new("pavilion", seed=12)
    ahead = start.play(start.legal_moves[3])
    for name, moves, expected in (("x1", [start.legal_moves[3]], ahead), ("x2", [], start)):
        engine.send({"id": name, "position": start.text(), "moves": moves, "maxVisits": 5})
        assert checked(engine.answer_to(name))["position_hash"] == expected.hash


def test_a_bad_move_fails_a_query_of_many_turns_once(engine):
    first = Position.new("azul", seed=0).legal_moves[0]
    engine.send(
        {"id": "many", "game": "azul", "moves": [first, "F9 blue 1"], "analyzeTurns": [0, 1, 2], "maxVisits": 5}
    )
    engine.send({"id": "after", "game": "azul", "maxVisits": 50})  # queued behind its turns
    lines = []
    while not lines or lines[-1]["id"] != "after":
        lines.append(checked(engine.next()))
    time.sleep(0.5)
    engine.send({"id": "v", "action": "query_version"})
    while lines[-1]["id"] != "v":
        lines.append(checked(engine.next()))
    many = [line for line in lines if line["id"] == "many"]
    assert [(line["field"], "turn" in line) for line in many] == [("moves", False)]
    assert "move 2 of 2" in many[0]["error"]


def test_threads_below_one_is_a_one_line_error():
    from click.testing import CliRunner

    from tessera.cli import main

    result = CliRunner().invoke(main, ["analyze", "--threads", "0"])
    assert result.exit_code == 2
    assert result.output == "error: --threads must be at least 1, not 0\n"


def test_bytes_that_are_not_utf8_are_a_line_that_is_not_json(engine):
    engine.process.stdin.flush()
    engine.process.stdin.buffer.write(b'{"id": "\xff\xfe"\n')
    engine.process.stdin.buffer.flush()
    answer = checked(engine.next())
    assert answer["id"] is None and answer["error"].startswith("not valid JSON")
    engine.send({"id": "v", "action": "query_version"})
    assert checked(engine.next())["id"] == "v"


@pytest.mark.slow  # compiles two games in an empty cache: about 70 s
def test_only_the_warmed_games_and_the_queried_ones_are_compiled(tmp_path):
    """Before: every search process's fork server compiled all three games (minutes on a
    fresh cache) before the first answer."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), TESSERA_PREBUILT="0")
    with AnalysisProcess(env=env, options=["--warm", "pavilion"]) as process:
        process.send({"id": "a", "game": "azul", "maxVisits": 20})
        assert "moves" in checked(process.answer_to("a", timeout=300))
    cached = {
        game
        for game in ("azul", "pavilion", "azure")
        if any(game in path.name or game in path.parent.name for path in tmp_path.rglob("*.nbi"))
    }
    assert cached == {"azul", "pavilion"}


def test_an_unknown_game_to_warm_is_a_one_line_error():
    from click.testing import CliRunner

    from tessera.cli import main

    result = CliRunner().invoke(main, ["analyze", "--warm", "chess"])
    assert result.exit_code == 2
    assert result.output.startswith("error: unknown game 'chess'")
