"""One table of search options (tessera.search.options) behind every front end: the flags
of `tessera best`, the agents' keys, the analyze query's fields and `Position.best`'s
keywords are the table's, and one request gives one seeded result on every surface."""

import inspect
import json

import click
import pytest

import tessera
from tessera.agents import ALPHABETA_KEYS, MCTS_KEYS, parse_agent
from tessera.analysis.client import AnalysisProcess
from tessera.analysis.protocol import MCTS_ONLY, QUERY_SCHEMA
from tessera.cli.search import best
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.position import MCTS_EXTRAS, Position
from tessera.search.options import ALPHABETA, MCTS, MCTS_OPTIONS, OPTION, OPTIONS, aliases
from tessera.search.request import SearchRequest
from tests.cli_process import tessera as run_tessera
from tests.value_models import save_model, weights

AZUL = get_game("azul")
START = AZUL.format_position(AZUL.new(3))
# A value of each option, not its default, within every surface's range.
SAMPLES = {
    "visits": 7,
    "time": 2.5,
    "algo": "alphabeta",
    "depth": 3,
    "threads": 2,
    "seed": 11,
    "value": "win",
    "select": "uct",
    "rollout": "round",
    "exploration": 0.3,
    "memory": 64.0,
    "fpu": -0.2,
    "width": 3,
    "model": "value.npz",
    "policy_temperature": 1.75,
}
SCHEMA_TYPES = {int: "integer", float: "number", str: "string"}


def test_the_samples_cover_the_table():
    assert set(SAMPLES) == {option.name for option in OPTIONS}


# ---- the table against each surface --------------------------------------------------


def test_the_flags_of_best_are_the_tables_in_its_order():
    params = {param.name: param for param in best.params}
    shown = [param.name for param in best.params if param.name in SAMPLES]
    assert shown == [option.name for option in OPTIONS if option.cli]
    for option in OPTIONS:
        param = params[option.name]
        assert set(param.opts) == set(option.cli), option.name
        assert param.help == option.help_text and "{" not in param.help, option.name
        if option.kind is not str:
            assert param.type == click.types.convert_type(option.kind), option.name
    assert params["algo"].default == OPTION["algo"].default and params["algo"].show_default


def test_the_agents_keys_are_the_tables(tmp_path, monkeypatch):
    assert MCTS_KEYS == aliases("agent", [o for o in OPTIONS if MCTS in o.algos])
    assert set(ALPHABETA_KEYS) == {"depth", "time"}
    monkeypatch.chdir(tmp_path)  # the sample model file, by its relative path
    save_model(SAMPLES["model"], weights(constant=1.0), weights())
    settings = {key: SAMPLES[option.name] for key, option in MCTS_KEYS.items()}
    agent = parse_agent("mcts:" + ",".join(f"{key}={value}" for key, value in settings.items()), seed=11)
    wanted = SearchRequest(
        **{option.name: SAMPLES[option.name] for option in MCTS_KEYS.values()}, seed=11
    ).mcts_options()
    assert agent.mcts.options == wanted
    assert (wanted.fpu, wanted.chance_width, wanted.memory) == (-0.2, 3, 64 << 20)
    assert wanted.policy_temperature == 1.75


def test_every_analyze_field_is_in_the_schema_with_the_tables_range():
    properties = QUERY_SCHEMA["properties"]
    for field, option in aliases("analyze").items():
        schema = properties[field]
        if option.choices:
            assert schema["enum"] == list(option.choices), field
            continue
        assert schema["type"] == SCHEMA_TYPES[option.kind], field
        if option.kind is str:
            assert schema["minLength"] == 1 and schema["maxLength"] >= 1024, field
            continue
        assert schema.get("minimum") == option.minimum, field
        assert schema.get("exclusiveMinimum") == option.above, field
        assert schema["maximum"] == option.maximum, field
    assert set(MCTS_ONLY) == {*aliases("analyze", MCTS_OPTIONS), "reportDuringSearchEvery"}


def test_position_best_takes_every_api_keyword():
    named = set(inspect.signature(Position.best).parameters) - {"self", "mcts"}
    assert named | MCTS_EXTRAS == set(aliases("api")) and not named & MCTS_EXTRAS
    with pytest.raises(
        OptionError,
        match="known: algo, visits, time, depth, threads, seed, "
        "exploration, fpu, memory, model, policy_temperature, rollout, "
        "select, value, width",
    ):
        Position.parse(START).best(visits=10, chance_width=4)


def test_the_alpha_beta_options_are_the_tables():
    assert {o.name for o in OPTIONS if ALPHABETA in o.algos} == {"time", "algo", "depth"}


# ---- one request, one result ---------------------------------------------------------

REQUEST = {"visits": 400, "seed": 5, "threads": 1, "fpu": 0.3, "width": 4}


def top_visits(moves, count=6):
    """[(move code, visits)] of the first ``count`` moves of a ranked list."""
    return [(move["code"], move["visits"]) for move in moves[:count]]


@pytest.mark.long  # a search on every surface
def test_one_request_gives_the_same_search_on_every_surface():
    args = [arg for name, value in REQUEST.items() for arg in (OPTION[name].cli[0], value)]
    done = run_tessera("best", START, *args, "--json")
    assert done.returncode == 0, done.stderr
    by_cli = json.loads(done.stdout)

    by_api = tessera.best(START, **{OPTION[name].api: value for name, value in REQUEST.items()})

    spec = "mcts:" + ",".join(
        f"{OPTION[name].agent}={value}" for name, value in REQUEST.items() if name != "seed"
    )  # an agent's seed is parse_agent's
    decision = parse_agent(spec, seed=REQUEST["seed"]).decide(AZUL.parse_position(START))
    by_agent = [{"code": line.move, "visits": line.visits} for line in decision.result.moves]

    with AnalysisProcess(threads=1) as engine:
        engine.send({"id": "q", "position": START, **{OPTION[name].analyze: value for name, value in REQUEST.items()}})
        by_analyze = engine.answer_to("q", timeout=300)
    assert "error" not in by_analyze, by_analyze

    assert (
        by_cli["root"]["visits"]
        == by_api["root"]["visits"]
        == decision.result.visits
        == by_analyze["root"]["visits"]
        == 400
    )
    expected = top_visits(by_cli["moves"])
    assert top_visits(by_api["moves"]) == top_visits(by_agent) == top_visits(by_analyze["moves"]) == expected
    assert by_cli["settings"] == by_api["settings"] == by_analyze["settings"]


def test_fpu_and_width_change_the_search():
    """The new options reach the kernels: another first-play value ranks differently."""
    plain = tessera.best(START, visits=400, seed=5)
    other = tessera.best(START, visits=400, seed=5, fpu=0.3)
    assert top_visits(plain["moves"], 20) != top_visits(other["moves"], 20)


@pytest.mark.parametrize(
    "args, names",
    [
        (["--fpu", 2], "fpu must be from -1 to 1, not 2.0"),
        (["--width", 0], "chance width must be at least 1, not 0"),
        (["--algo", "alphabeta", "--fpu", 0.2], "--fpu is an MCTS option; --algo alphabeta does not take it"),
        (["--algo", "solve", "--width", 2], "--width is an MCTS option; --algo solve does not take it"),
    ],
)
def test_bad_new_options_give_one_line(args, names):
    done = run_tessera("best", START, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"error: {names}"]


@pytest.mark.long  # an analysis engine of its own
def test_analyze_checks_the_new_fields():
    with AnalysisProcess(threads=1) as engine:
        for query, field in [
            ({"fpu": 1.5}, "fpu"),
            ({"chanceWidth": 0}, "chanceWidth"),
            ({"chanceWidth": 2.5}, "chanceWidth"),
        ]:
            engine.send({"id": field, "position": START, "maxVisits": 10, **query})
            answer = engine.answer_to(field)
            assert answer["field"] == field and "error" in answer, answer
