"""`tessera analyze`'s limits: the query schema and the code agree on every number's
range (what one takes the other takes, whole-number floats as integers), and the fork
server and search processes end when the engine is killed, a running search too."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tessera.analysis.protocol import QUERY_SCHEMA, LineError, parse_query
from tests.limits import COLD_START_SECONDS, KILL_SECONDS, kill, line_queue


def text(query):
    return json.dumps(query).encode()


# ---- the query schema and the code agree ----------------------------------------------

NUMBER_FIELDS = sorted(
    name
    for name, schema in QUERY_SCHEMA["properties"].items()
    if schema.get("type") in ("integer", "number") or schema.get("items", {}).get("type") in ("integer", "number")
)


def query_with(name, value):
    query = {"id": "s", "game": "azul", name: value}
    if name == "depth":
        query["algo"] = "alphabeta"
    if name == "analyzeTurns":
        query.update(analyzeTurns=[value], moves=["x"] * 1000)
    return query


def parsed(query):
    return parse_query(json.dumps(query))


def test_every_number_field_has_a_range():
    assert {
        "startSeed",
        "analyzeTurns",
        "maxVisits",
        "maxTime",
        "depth",
        "threads",
        "topMoves",
        "seed",
        "exploration",
        "memory",
        "reportDuringSearchEvery",
    } <= set(NUMBER_FIELDS)
    for name in NUMBER_FIELDS:
        schema = QUERY_SCHEMA["properties"][name]
        schema = schema.get("items", schema)
        assert "maximum" in schema and ("minimum" in schema or "exclusiveMinimum" in schema), name


@pytest.mark.parametrize("name", NUMBER_FIELDS)
def test_the_code_takes_what_the_schema_takes_and_refuses_the_rest(name):
    schema = QUERY_SCHEMA["properties"][name]
    schema = schema.get("items", schema)
    top, integer = schema["maximum"], schema["type"] == "integer"
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    try:
        parsed(query_with(name, top))
    except LineError as err:  # only the machine's memory may be less
        assert (name, err.error.field) == ("memory", "memory") and "machine" in str(err)
    inside = [low + 1, float(low + 1)] if integer else [low + 0.5 if low + 0.5 <= top else top]
    for value in inside:
        parsed(query_with(name, value))
    outside = [top + 1, top * 2 + 1, -1 if low >= 0 else low - 1, low - 1]
    outside += [low + 1.5] if integer else []
    if "exclusiveMinimum" in schema:
        outside.append(low)
    for value in outside:
        with pytest.raises(LineError) as refused:
            parsed(query_with(name, value))
        assert refused.value.error.field == name, (value, str(refused.value))
    for token in ("NaN", "Infinity", "-Infinity", "9" * 5000):
        line = json.dumps(query_with(name, 0)).replace(": 0", ": " + token).replace("[0]", f"[{token}]")
        with pytest.raises(LineError) as refused:
            parse_query(line)
        assert refused.value.error.field == name, token


@pytest.mark.parametrize(
    "name, value, attribute",
    [
        ("threads", 2.0, lambda q: q.mcts.threads),
        ("topMoves", 3.0, lambda q: q.top_moves),
        ("maxVisits", 5.0, lambda q: q.mcts.iterations),
        ("seed", 7.0, lambda q: q.mcts.seed),
        ("analyzeTurns", 0.0, lambda q: q.turns[0]),
        ("startSeed", 3.0, lambda q: q.source["startSeed"]),
        ("depth", 2.0, lambda q: q.settings["depth"]),
    ],
)
def test_a_whole_number_float_becomes_an_integer(name, value, attribute):
    got = attribute(parsed(query_with(name, value)))
    assert got == int(value) and type(got) is int


# ---- the search processes end with the engine -------------------------------------------


def process_table():
    """{pid: (parent pid, state)} of every process, read from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, parent = stat[stat.rindex(")") + 2 :].split()[:2]
        table[int(entry)] = (int(parent), state)
    return table


def descendants(pid):
    table = process_table()
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        children = [child for child, (ppid, _) in table.items() if ppid == parent]
        found += children
        todo += children
    return found


def running(pids):
    table = process_table()
    return [pid for pid in pids if pid in table and table[pid][1] != "Z"]  # zombies hold nothing


@pytest.mark.long  # an analysis engine of its own
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_engine_takes_its_fork_server_and_searches_with_it():
    process = subprocess.Popen(
        [sys.executable, "-m", "tessera", "analyze", "--threads", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    family = []
    try:
        lines = line_queue(process.stdout)
        process.stdin.write(text({"id": "w", "game": "azul", "maxVisits": 1}) + b"\n")
        process.stdin.flush()
        assert json.loads(lines.get(timeout=COLD_START_SECONDS))["id"] == "w"
        # A 4-player solve without a time limit runs for far longer than this test.
        process.stdin.write(text({"id": "long", "game": "azul", "options": {"players": 4}, "algo": "solve"}) + b"\n")
        process.stdin.write(text({"id": "many", "game": "azul", "maxVisits": 100_000_000}) + b"\n")
        process.stdin.flush()
        time.sleep(1.0)
        family += descendants(process.pid)
        assert len(family) >= 3  # the fork server and two search processes
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=KILL_SECONDS)
        deadline = time.monotonic() + 30
        while running(family) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert running(family) == []
    finally:
        kill(process)
        for pid in running(family):  # what this test started, should it fail
            os.kill(pid, signal.SIGKILL)
