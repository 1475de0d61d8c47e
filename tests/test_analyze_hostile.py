"""`tessera analyze` against hostile input: every line it reads gets exactly one answer
line, valid JSON that docs/analyze.schema.json accepts, and the engine lives on.

The cases one by one (deep nesting, huge and non-finite numbers, whole-number floats,
bytes that are not UTF-8, lone surrogates, oversized lines, options the game must not
get), a seeded hypothesis fuzzer of such lines, all against one real engine through its
pipes. ``pytest -m slow`` runs the long fuzz. (tests/test_analyze_limits.py: the query
schema and the code agree; the search processes die with a killed engine.)
"""

import functools
import itertools
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referencing import Registry, Resource

from tessera.analysis.protocol import QUERY_SCHEMA
from tessera.analysis.searching import MAX_ERROR_CHARS
from tests.limits import EXIT_SECONDS, kill

pytestmark = pytest.mark.repo  # answers are checked against docs/analyze.schema.json

DOCS = Path(__file__).resolve().parents[1] / "docs"
MAX_ERROR_LINE = 2 * MAX_ERROR_CHARS + 200  # bytes: an error never echoes a long value
SHORT, LONG = 400, 3000  # fuzz examples in the default and the slow run


class Engine:
    """A real `tessera analyze --threads 1` written to and read in bytes."""

    def __init__(self, *options):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tessera", "analyze", "--threads", "1", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines = queue.Queue()
        self.errors = []
        self.syncs = itertools.count()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_errors(self):
        for line in self.process.stderr:
            self.errors.append(line.decode("utf-8", "replace"))

    def write(self, data):
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def exchange(self, data):
        """The lines that answer the line ``data``: all up to the answer of a search sent
        after it (the one search process runs the searches in the order they came; errors
        found in the line itself come at once)."""
        self.write(data)
        sync = f"sync-{next(self.syncs)}"
        self.write(json.dumps({"id": sync, "game": "azul", "maxVisits": 1}).encode())
        lines = []
        while True:
            raw = self.lines.get(timeout=120)
            assert raw is not None, f"the engine ended; stderr: {self.errors[-20:]}"
            document = strict_json(raw)
            answer_schema().validate(document)
            if document.get("id") == sync:
                assert "error" not in document, document
                return lines
            lines.append((raw, document))

    def answer(self, data):
        """The one final line (an answer or an error) that answers ``data``."""
        lines = self.exchange(data)
        finals = [doc for _, doc in lines if "warning" not in doc and not doc.get("isDuringSearch")]
        assert len(finals) == 1, lines
        for raw, document in lines:
            if "error" in document:
                assert len(raw) <= MAX_ERROR_LINE and len(document["error"]) <= MAX_ERROR_CHARS
        assert not any("Traceback" in line for line in self.errors), "".join(self.errors)
        return finals[0]

    def close(self):
        self.process.stdin.close()
        rest = []
        while (line := self.lines.get(timeout=120)) is not None:
            rest.append(line)
        assert self.process.wait(timeout=EXIT_SECONDS) == 0
        return rest


@functools.cache
def answer_schema():
    schemas = [json.loads((DOCS / name).read_text()) for name in ("best.schema.json", "analyze.schema.json")]
    return jsonschema.Draft202012Validator(
        schemas[1],
        registry=Registry().with_resources((schema["$id"], Resource.from_contents(schema)) for schema in schemas),
    )


def strict_json(raw):
    """An output line as JSON, refusing anything a strict reader refuses."""

    def refuse(token):
        raise AssertionError(f"{token} in an output line")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


def text(query):
    return json.dumps(query).encode()


@pytest.fixture(scope="module")
def engine():
    process = Engine()
    yield process
    try:
        assert process.close() == []
        assert not any("Traceback" in line for line in process.errors), "".join(process.errors)
    finally:
        kill(process.process)


# ---- the cases one by one ----------------------------------------------------------


def nested(depth, inner="1"):
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize(
    "line, query_id, field",
    [
        ('{"id": "d", "game": "azul", "x": %s}' % nested(1000), "d", None),
        ('{"id": "d", "game": "azul", "options": {"players": %s}}' % nested(100_000), "d", None),
        ('{"id": "d", "position": {"a": %s}}' % nested(5000), "d", None),
        ('{"game": "azul", "id": "d", "x": %s}' % nested(1000), None, None),  # id not first
        ('{"id": "d", "x": "%s", "y": %s}' % ("[" * 5000, nested(65)), "d", None),
        ('{"id": "d", "x": %s' % ("[" * 100_000), "d", None),  # and never closed
    ],
)
def test_nesting_deeper_than_the_limit_is_one_error(engine, line, query_id, field):
    answer = engine.answer(line.encode())
    assert (answer["id"], answer["field"]) == (query_id, field)
    assert "nested" in answer["error"]


def test_nesting_within_the_limit_and_brackets_inside_strings_are_read(engine):
    line = '{"id": "n", "game": "azul", "maxVisits": 1, "position": %s}' % nested(60)
    assert engine.answer(line.encode())["field"] == "position"  # read: not a position
    line = '{"id": "n", "game": "azul", "maxVisits": 1, "moves": ["%s"]}' % ("[{" * 90)
    assert engine.answer(line.encode())["field"] == "moves"


@pytest.mark.parametrize(
    "line, field",
    [
        ('{"id": "h", "game": "azul", "startSeed": %s}' % ("9" * 5000), "startSeed"),
        ('{"id": "h", "game": "azul", "maxVisits": -%s}' % ("1" * 100_000), "maxVisits"),
        ('{"id": "h", "game": "azul", "options": {"players": %s}}' % ("3" * 5000), "options"),
        ('{"id": "h", "position": {"factories": [%s]}}' % ("7" * 5000), "position"),
        ('{"id": "h", "game": "azul", "analyzeTurns": [%s]}' % ("5" * 4301), "analyzeTurns"),
        ('{"id": "h", "game": "azul", "startSeed": 9223372036854775808}', "startSeed"),
        ('{"id": "h", "game": "azul", "seed": 4294967296}', "seed"),
        ('{"id": "h", "game": "azul", "memory": 1e308}', "memory"),
        ('{"id": "h", "game": "azul", "memory": 1e400}', "memory"),
        ('{"id": "h", "game": "azul", "memory": 1e9}', "memory"),
        ('{"id": "h", "game": "azul", "memory": NaN}', "memory"),
        ('{"id": "h", "game": "azul", "memory": Infinity}', "memory"),
        ('{"id": "h", "game": "azul", "exploration": -Infinity}', "exploration"),
        ('{"id": "h", "game": "azul", "maxTime": NaN}', "maxTime"),
        ('{"id": "h", "game": "azul", "maxVisits": 1, "reportDuringSearchEvery": NaN}', "reportDuringSearchEvery"),
        ('{"id": "h", "game": "azul", "startSeed": 3.5}', "startSeed"),
        ('{"id": "h", "game": "azul", "topMoves": 1e9}', "topMoves"),
        ('{"id": "h", "game": "azul", "analyzeTurns": [0.5]}', "analyzeTurns"),
        ('{"id": "h", "game": "azul", "depth": 1e300, "algo": "alphabeta"}', "depth"),
        ('{"id": "h", "game": "azul", "threads": 65}', "threads"),
        ('{"id": "h", "game": "azul", "options": {"seed": 1}}', "options"),
        ('{"id": "h", "game": "azul", "options": {"players": 2.5}}', "options"),
        ('{"id": "h", "game": "azul", "options": {"players": NaN}}', "options"),
    ],
)
def test_a_number_out_of_range_is_one_error_naming_its_field(engine, line, field):
    answer = engine.answer(line.encode())
    assert (answer["id"], answer["field"]) == ("h", field), answer
    assert set(answer) == {"id", "error", "field"}


def test_options_seed_points_to_start_seed(engine):
    answer = engine.answer(b'{"id": "o", "game": "azul", "options": {"seed": 1}}')
    assert "startSeed" in answer["error"] and "'seed'" in answer["error"]


@pytest.mark.parametrize(
    "whole, meant",
    [
        ({"topMoves": 2.0}, {"topMoves": 2}),
        ({"threads": 2.0}, {"threads": 2}),
        ({"startSeed": 3.0}, {"startSeed": 3}),
        ({"maxVisits": 2e1}, {"maxVisits": 20}),
        ({"analyzeTurns": [0.0]}, {"analyzeTurns": [0]}),
        ({"seed": 4.0}, {"seed": 4}),
        ({"options": {"players": 3.0}}, {"options": {"players": 3}}),
        ({"algo": "alphabeta", "depth": 1.0}, {"algo": "alphabeta", "depth": 1}),
    ],
)
def test_a_whole_number_float_counts_as_its_integer(engine, whole, meant):
    base = {"game": "azul", "maxVisits": 20}
    got = engine.answer(text({"id": "w", **base, **whole}))
    expected = engine.answer(text({"id": "w", **base, **meant}))
    assert "error" not in got, got
    assert (got["position_hash"], got["settings"]) == (expected["position_hash"], expected["settings"])
    assert got["turn"] == expected["turn"] and got["root"]["threads"] == expected["root"]["threads"]
    if "topMoves" in meant:
        assert len(got["moves"]) == 2


@pytest.mark.parametrize(
    "data, query_id",
    [
        (b'{"id": "u", "game": "azul", "position": "\xff\xfe"}', "u"),
        (b'{"id": "\xc3\x28", "game": "azul"}', None),
        (b'\xed\xa0\x80{"id": "u"}', None),  # a surrogate in UTF-8 bytes
        (b"\x00\x01\x02", None),
        (b'{"id": "u", "game": "azul", "moves": ["F1 \\ud800"]}', "u"),  # a lone surrogate escape
        (b'{"id": "\\udc00", "game": "azul"}', None),
        (b'{"id": "u", "game": "azul", "options": {"\\ud800": 1}}', "u"),
    ],
)
def test_bytes_that_are_not_unicode_text_are_one_error(engine, data, query_id):
    answer = engine.answer(data)
    assert answer["id"] == query_id and "error" in answer


def test_a_long_bad_value_is_never_echoed(engine):
    value = "z" * 900_000
    for query in (
        {"id": "l", "game": value},
        {"id": "l", "game": "azul", value: 1},
        {"id": "l", "game": "azul", "moves": [value]},
        {"id": "l", "game": "azul", "options": {"variant": value}},
        {"id": "l", "position": value},
        {"id": value, "game": "azul"},
    ):
        answer = engine.answer(text(query))
        assert "error" in answer and value[:100] not in json.dumps(answer)


def test_a_line_beyond_the_limit_is_answered_without_being_read(engine):
    line = json.dumps({"id": "big", "game": "azul", "position": "x" * 20_000_000}).encode()
    answer = engine.answer(line)
    assert answer["id"] == "big" and "20,000,0" in answer["error"]
    answer = engine.answer(b"[" * 3_000_000)
    assert answer["id"] is None and "bytes long" in answer["error"]


@pytest.mark.long  # an analysis engine of its own
def test_the_line_limit_is_an_option():
    process = Engine("--max-line-bytes", "1000")
    try:
        padded = b'{"id": "p", "game": "azul", "maxVisits": 1}'.ljust(1000)
        assert "error" not in process.answer(padded)
        answer = process.answer(padded + b" ")
        assert answer["id"] == "p" and "1,001 bytes" in answer["error"]
        assert process.close() == []
    finally:
        kill(process.process)


# ---- the fuzzer ----------------------------------------------------------------------

HUGE_INTEGERS = st.integers(min_value=50, max_value=6000).map(lambda n: "9" * n)
NON_FINITE = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
FRACTIONS = st.floats(-10, 10).filter(lambda x: not x.is_integer()).map(repr)
NEGATIVES = st.integers(max_value=-1).map(str)
NUMBER_TOKENS = st.one_of(HUGE_INTEGERS, NON_FINITE, FRACTIONS, NEGATIVES)
STRINGS = st.one_of(st.text(max_size=30), st.sampled_from(['"\\ud800"', '"\\udfff x"']))


def json_token(value):
    """A string value of the strategies above is JSON text already when it is quoted."""
    return value if isinstance(value, str) and value.startswith('"') else json.dumps(value)


@st.composite
def hostile_values(draw, depth=0):
    """JSON text of a value with the tokens a careless or hostile client writes."""
    kind = draw(st.integers(0, 6 if depth < 3 else 3))
    if kind == 0:
        return draw(NUMBER_TOKENS)
    if kind == 1:
        return json_token(draw(STRINGS))
    if kind == 2:
        return draw(st.sampled_from(["true", "false", "null", "0", "1", "2.0", '""']))
    if kind == 3:
        return nested(draw(st.integers(60, 3000)), draw(NUMBER_TOKENS))
    if kind == 4:
        items = draw(st.lists(hostile_values(depth + 1), max_size=4))
        return "[" + ", ".join(items) + "]"
    keys = draw(st.lists(STRINGS, max_size=3))
    return "{" + ", ".join(f"{json_token(k)}: {draw(hostile_values(depth + 1))}" for k in keys) + "}"


def wrong_type(schema):
    """JSON text of a value whose type the field's schema refuses."""
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types or []
    choices = {
        "string": '"text"',
        "integer": "7",
        "number": "7.5",
        "boolean": "true",
        "array": "[1]",
        "object": '{"a": 1}',
        "null": "null",
    }
    refused = [
        token for name, token in choices.items() if name not in types and not (name == "integer" and "number" in types)
    ]
    if "enum" in schema:
        refused.append('"not-one-of-them"')
    return st.sampled_from(refused)


FIELDS = sorted(name for name in QUERY_SCHEMA["properties"] if name != "id")


@st.composite
def hostile_lines(draw):
    """Bytes of one input line (no newline): a query with one field made hostile, a valid
    query mangled byte by byte, or bytes at random. Its search costs one visit."""
    kind = draw(st.sampled_from(["field", "wrong type", "mangled", "bytes", "id"]))
    base = '"id": "f", "game": "azul", "maxVisits": 1'
    if kind in ("field", "wrong type"):
        name = draw(st.sampled_from(FIELDS + ["unknownField"]))
        schema = QUERY_SCHEMA["properties"].get(name, {})
        value = draw(hostile_values() if kind == "field" or name == "unknownField" else wrong_type(schema))
        if name == "maxVisits":
            base = '"id": "f", "game": "azul"'
        line = "{" + base + f", {json.dumps(name)}: {value}" + "}"
        return line.encode("utf-8", "surrogatepass")
    if kind == "id":
        return ("{" + f'"id": {draw(hostile_values())}, "game": "azul", "maxVisits": 1' + "}").encode()
    if kind == "mangled":
        data = bytearray(("{" + base + "}").encode())
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data)))
            data[at : at + draw(st.integers(0, 3))] = draw(st.binary(max_size=4))
        return bytes(data).replace(b"\n", b" ")
    return draw(st.binary(min_size=1, max_size=200)).replace(b"\n", b" ")


def fuzz_settings(examples):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None)


def check_one_answer(engine, line):
    if not line.strip():
        assert engine.exchange(line) == []  # a blank line is skipped
        return
    answer = engine.answer(line)  # one line that the answer schema accepts
    assert "error" in answer or "moves" in answer or "action" in answer


@pytest.mark.long  # about 10 s of fuzzing
@fuzz_settings(SHORT)
@given(line=hostile_lines())
def test_fuzz_every_hostile_line_gets_one_answer(engine, line):
    check_one_answer(engine, line)


@pytest.mark.slow
@fuzz_settings(LONG)
@given(line=hostile_lines())
def test_fuzz_long(engine, line):
    check_one_answer(engine, line)


@pytest.mark.slow
def test_a_200_mb_line_is_answered_in_a_short_line(engine):
    line = b'{"id": "vast", "game": "' + b"x" * 200_000_000 + b'"}'
    answer = engine.answer(line)
    assert answer["id"] == "vast" and "200,000,0" in answer["error"]


def test_the_engine_answers_a_good_query_after_all_that(engine):
    answer = engine.answer(text({"id": "good", "game": "azul", "maxVisits": 30, "topMoves": 3}))
    assert answer["root"]["visits"] == 30 and len(answer["moves"]) == 3
