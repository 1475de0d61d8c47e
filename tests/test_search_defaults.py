"""The rollout and value model a search leaves to its game, player count and budget
(docs/search.md, "Defaults per game and player count"): Azul, 2- and 3-player Summer
Pavilion and Azure search with the built-in model scoring round rollouts, Azul with mixed
ones from a long budget on, as the matches chose; every other game and player count with
full greedy rollouts and no model; what a request names is what it gets."""

import math
from importlib import resources

import numpy as np
import pytest

import tessera
from tessera.analysis.client import AnalysisProcess
from tessera.errors import OptionError
from tessera.games import get_game
from tessera.games.spec import LongBudget
from tessera.kernels.azul.features import N_VALUE_FEATURES
from tessera.kernels.azul.policy import N_POLICY_FEATURES
from tessera.learning.model import load_model
from tessera.search.mcts import MctsOptions, is_long_budget, position_defaults
from tests.best_schema import best_report
from tests.cli_process import tessera as run_tessera
from tests.test_learned_value import top_visits
from tests.value_models import save_model, save_policy_model

AZUL, AZURE, PAVILION = get_game("azul"), get_game("azure"), get_game("pavilion")
VISITS = 200
SHORT = AZUL.spec.search.long_budget.seconds / 2  # a time limit below Azul's long budget


def start(game, players):
    return game.new(5) if game is AZURE else game.new(5, players=players)


@pytest.mark.parametrize(
    "game, players, short, long",
    [
        (AZUL, 2, ("round", "builtin"), ("mixed", "builtin")),
        (AZUL, 3, ("round", "builtin"), ("mixed", "builtin")),
        (AZUL, 4, ("round", "builtin"), ("mixed", "builtin")),
        (PAVILION, 2, ("round", "builtin"), ("round", "builtin")),
        (PAVILION, 3, ("round", "builtin"), ("round", "builtin")),
        (PAVILION, 4, ("greedy", "none"), ("greedy", "none")),
        (AZURE, 2, ("round", "builtin"), ("round", "builtin")),
    ],
)
def test_what_each_game_and_player_count_leaves_to_itself(game, players, short, long):
    state = start(game, players)
    assert position_defaults(state, None, None, time_limit=SHORT) == short
    assert position_defaults(state, None, None, iterations=VISITS) == short
    assert position_defaults(state, None, None, time_limit=10.0) == long
    assert position_defaults(state, None, None) == long  # no limit: as long as it takes


def test_a_budget_is_long_when_each_of_its_limits_is():
    """A search ends at the first of its limits: one short limit makes the budget short."""
    budget = LongBudget(seconds=0.05, simulations=2000)
    assert is_long_budget(budget, None, None)
    assert is_long_budget(budget, 0.05, None) and not is_long_budget(budget, 0.049, None)
    assert is_long_budget(budget, None, 2000) and not is_long_budget(budget, None, 1999)
    assert is_long_budget(budget, 0.05, 2000) and is_long_budget(budget, 5.0, 10**6)
    assert not is_long_budget(budget, 5.0, 1999) and not is_long_budget(budget, 0.049, 10**6)


@pytest.mark.long  # a search on every surface
def test_two_player_azul_follows_its_budget_through_every_surface():
    """`best`, an agent and the analysis engine name the rollout their whole budget chose;
    the engine's during-search reports too, though each slice of its search is short."""
    from tessera.agents import parse_agent

    budget = AZUL.spec.search.long_budget
    position = AZUL.format_position(start(AZUL, 2))
    short, long = best_json(position), best_json(position, "-n", budget.simulations)
    assert (short["settings"]["rollout"], short["settings"]["model"]) == ("round", "builtin")
    assert (long["settings"]["rollout"], long["settings"]["model"]) == ("mixed", "builtin")
    for agent, rollout in ((f"mcts:time={SHORT}", "round"), ("mcts:time=1", "mixed")):
        assert parse_agent(agent).mcts.options.for_position(start(AZUL, 2)).rollout == rollout
    with AnalysisProcess(threads=1) as engine:
        engine.send(
            {
                "id": "q",
                "position": position,
                "maxVisits": budget.simulations,
                "seed": 3,
                "threads": 1,
                "reportDuringSearchEvery": 0.01,
            }
        )
        answers = [engine.next(timeout=300)]
        while answers[-1].get("isDuringSearch"):
            answers.append(engine.next(timeout=300))
    assert len(answers) > 1 and "error" not in answers[-1], answers
    assert all(answer["settings"]["rollout"] == "mixed" for answer in answers)
    assert top_visits(answers[-1]["moves"]) == top_visits(long["moves"])


@pytest.mark.parametrize(
    "rollout, model, expected",
    [
        ("greedy", None, ("greedy", "none")),  # another rollout: no model of its own
        ("random", None, ("random", "none")),
        ("round", None, ("round", "builtin")),
        (None, "none", ("greedy", "none")),
        ("round", "none", ("round", "none")),  # the hand-written estimate at the cut
    ],
)
def test_what_a_request_names_it_gets(rollout, model, expected):
    assert position_defaults(start(PAVILION, 2), rollout, model) == expected


def test_a_model_named_brings_the_rollouts_its_value_scores(tmp_path):
    """A value scores only where round and mixed rollouts stop, so a model brings them,
    with or without a policy; a policy's priors serve any rollout named."""
    value = str(tmp_path / "value.npz")
    save_model(value, np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    priors = str(tmp_path / "priors.npz")
    save_policy_model(priors, np.zeros(N_POLICY_FEATURES))
    azul = start(AZUL, 2)
    assert position_defaults(azul, None, "builtin", time_limit=SHORT) == ("round", "builtin")
    assert position_defaults(azul, None, value, time_limit=SHORT) == ("round", value)
    assert position_defaults(azul, None, value) == ("mixed", value)  # Azul's long budget
    assert position_defaults(azul, None, priors, time_limit=SHORT) == ("round", priors)
    assert position_defaults(azul, None, priors) == ("mixed", priors)
    assert position_defaults(azul, "greedy", priors) == ("greedy", priors)
    assert position_defaults(azul, "round", "none") == ("round", "none")
    assert position_defaults(azul, "greedy", None) == ("greedy", "none")


def best_json(position, *options):
    done = run_tessera("best", position, "-n", VISITS, "--seed", 3, "--threads", 1, "--json", *options)
    assert done.returncode == 0, done.stderr
    return best_report(done.stdout)


@pytest.mark.long  # a search on every surface
def test_two_player_pavilion_searches_with_the_builtin_model_by_default():
    position = PAVILION.format_position(start(PAVILION, 2))
    by_default = best_json(position)
    named = best_json(position, "--rollout", "round", "--model", "builtin")
    assert top_visits(by_default["moves"]) == top_visits(named["moves"])
    assert by_default["root"]["margin"] == named["root"]["margin"]
    shipped = load_model(tessera.learning.__path__[0] + "/models/pavilion.npz")
    for report in (by_default, named):
        assert report["settings"]["rollout"] == "round"
        assert report["settings"]["model"] == "builtin"
        assert report["settings"]["model_hash"] == shipped.hash
    greedy = best_json(position, "--rollout", "greedy")
    assert greedy["settings"]["rollout"] == "greedy" and "model" not in greedy["settings"]
    assert greedy["root"]["margin"] != by_default["root"]["margin"]


@pytest.mark.long  # a search on every surface
def test_four_player_pavilion_searches_as_before():
    for position in (PAVILION.format_position(start(PAVILION, 4)),):
        by_default = best_json(position)
        named = best_json(position, "--rollout", "greedy", "--model", "none")
        assert top_visits(by_default["moves"]) == top_visits(named["moves"])
        assert by_default["settings"]["rollout"] == "greedy"
        assert "model" not in by_default["settings"] and "model_hash" not in by_default["settings"]


@pytest.mark.long  # an analysis engine of its own
def test_the_analysis_engine_and_the_api_fill_in_the_same_defaults():
    position = PAVILION.format_position(start(PAVILION, 3))
    by_cli = best_json(position)
    by_api = tessera.best(position, visits=VISITS, seed=3, threads=1)
    with AnalysisProcess(threads=1) as engine:
        engine.send({"id": "q", "position": position, "maxVisits": VISITS, "seed": 3, "threads": 1})
        by_analyze = engine.answer_to("q", timeout=300)
    assert "error" not in by_analyze, by_analyze
    assert top_visits(by_api["moves"]) == top_visits(by_analyze["moves"]) == top_visits(by_cli["moves"])
    for settings in (by_cli["settings"], by_api["settings"], by_analyze["settings"]):
        assert settings["rollout"] == "round" and settings["model"] == "builtin"
        assert settings["model_hash"] == by_cli["settings"]["model_hash"]


def test_azure_searches_its_views_with_the_builtin_value_and_its_win_chance():
    """Azure's default (docs/search.md, "Defaults per game and player count"): round rollouts,
    four turns long, scored by the built-in model, selection on the win chance, exploration
    0.7, at every budget; a search that names another rollout or value keeps it."""
    view = AZURE.view(AZURE.new(5), 0)
    for time_limit in (SHORT, 10.0, None):
        options = MctsOptions(iterations=100, time_limit=time_limit).for_position(view)
        assert (options.rollout, options.model, options.value, options.exploration) == ("round", "builtin", "win", 0.7)
    greedy = MctsOptions(iterations=100, rollout="greedy").for_position(view)
    assert (greedy.model, greedy.value) == ("none", "margin")
    assert MctsOptions(iterations=100, value="blend").for_position(view).value == "blend"
    mixed = MctsOptions(iterations=100, rollout="mixed").for_position(view)
    assert (mixed.model, mixed.value) == ("builtin", "win")  # a learned value scores it too
    report = best_json(AZURE.format_position(view))
    assert report["algo"] == "ismcts"
    settings = report["settings"]
    assert (settings["rollout"], settings["model"], settings["value"], settings["exploration"]) == (
        "round",
        "builtin",
        "win",
        0.7,
    )
    assert settings["model_hash"] == load_model(resources.files("tessera.learning") / "models" / "azure.npz").hash
    # The search is the one the settings name: the win chance, not the margin, selects.
    position = AZURE.format_position(view)
    left = tessera.best(position, visits=VISITS, seed=2, threads=1)
    named = tessera.best(
        position, visits=VISITS, seed=2, threads=1, rollout="round", model="builtin", value="win", exploration=0.7
    )
    margin = tessera.best(position, visits=VISITS, seed=2, threads=1, value="margin")
    assert top_visits(left["moves"]) == top_visits(named["moves"]) != top_visits(margin["moves"])


def test_azure_with_cosmos_searches_without_the_builtin_value():
    """With Cosmos the built-in value (fitted to the base game) lost to the full greedy
    search (results/strength/README.md, "The learned default with Azure's modules"), so a
    Cosmos game searches as before it unless a model is named; the Gifted module keeps it."""
    cosmos = AZURE.view(AZURE.new(5, cosmos=True), 0)
    for time_limit in (SHORT, 10.0, None):
        options = MctsOptions(iterations=100, time_limit=time_limit).for_position(cosmos)
        assert (options.rollout, options.model, options.value, options.exploration) == ("greedy", "none", "margin", 0.7)
    assert MctsOptions(iterations=100, rollout="round").for_position(cosmos).model == "none"
    named = MctsOptions(iterations=100, model="builtin").for_position(cosmos)
    assert (named.rollout, named.model, named.value) == ("round", "builtin", "win")
    settings = best_json(AZURE.format_position(cosmos))["settings"]
    assert (settings["rollout"], settings["value"]) == ("greedy", "margin")
    assert "model" not in settings
    gifted = AZURE.view(AZURE.new(5, gifted="favored"), 0)
    assert MctsOptions(iterations=100).for_position(gifted).model == "builtin"


def test_information_set_mcts_takes_a_model_of_its_game_only(tmp_path):
    from tessera.errors import TesseraError
    from tessera.search.ismcts import Ismcts

    view = AZURE.view(AZURE.new(5), 0)
    save_model(tmp_path / "azul.npz", np.zeros(N_VALUE_FEATURES), np.zeros(N_VALUE_FEATURES))
    with pytest.raises(TesseraError, match="a model of azul, not azure"):
        Ismcts(MctsOptions(iterations=10, model=str(tmp_path / "azul.npz"))).search(view)
    assert Ismcts(MctsOptions(iterations=10, model="none")).search(view).visits == 10


def test_one_searcher_follows_the_player_count_of_each_position():
    """A searcher kept between positions (agents, the analysis engine) plays each one's own
    rollout: after a 2-player position (round rollouts), a 4-player one gets the greedy
    kernels, and back again."""
    from tessera.kernels import bind
    from tessera.search.mcts import Mcts

    kept = Mcts(MctsOptions(iterations=VISITS, seed=3))
    for players, rollout in ((2, "round"), (4, "greedy"), (2, "round")):
        kept.search(start(PAVILION, players))
        assert kept.kernels is bind.instance("pavilion", "mcts", rollout), players


def test_a_kept_tree_is_dropped_when_the_budget_brings_another_rollout():
    """An agent or engine whose budget changes between searches (2-player Azul, from long
    to short) searches the second afresh: the kept tree's values came from the other
    rollout."""
    from tessera.kernels import bind
    from tessera.search.mcts import Mcts

    state = start(AZUL, 2)
    kept = Mcts(MctsOptions(iterations=AZUL.spec.search.long_budget.simulations, seed=3, threads=1))
    assert kept.search(state).reused_visits == 0
    assert kept.kernels is bind.instance("azul", "mcts", "mixed")
    kept.options.iterations = VISITS
    assert kept.search(state).reused_visits == 0
    assert kept.kernels is bind.instance("azul", "mcts", "round")
    assert kept.search(state).reused_visits > 0  # the same rollout: kept


@pytest.mark.parametrize(
    "rollout, model, exploration, time_limit, expected",
    [
        (None, None, None, SHORT, 1.0),  # Azul's own at a short budget: round, learned value
        (None, None, None, 10.0, 2.0),  # at a long one: mixed rollouts keep Azul's constant
        ("greedy", None, None, SHORT, 2.0),
        ("round", "none", None, SHORT, 2.0),  # the hand-written estimate at the cut
        ("round", "builtin", None, 10.0, 1.0),  # a learned value at the cut: Azul's learned exploration
        ("round", "builtin", 1.7, SHORT, 1.7),  # what a request names
    ],
)
def test_a_learned_search_explores_with_the_games_learned_constant(rollout, model, exploration, time_limit, expected):
    options = MctsOptions(rollout=rollout, model=model, exploration=exploration, time_limit=time_limit)
    assert options.for_position(start(AZUL, 2)).exploration == expected


@pytest.mark.parametrize(
    "players, time_limit, expected",
    [
        (3, SHORT, ("round", "builtin", 1.0)),
        (3, 10.0, ("mixed", "builtin", 1.0)),  # 3 players: mixed rollouts explore less too
        (2, 10.0, ("mixed", "builtin", 2.0)),  # 2 players: mixed rollouts keep Azul's own
        (4, SHORT, ("round", "builtin", 1.0)),
        (4, 10.0, ("mixed", "builtin", 1.0)),
    ],
)
def test_three_and_four_player_azul_explore_less_with_either_learned_rollout(players, time_limit, expected):
    options = MctsOptions(time_limit=time_limit).for_position(start(AZUL, players))
    assert (options.rollout, options.model, options.exploration) == expected
    named = MctsOptions(time_limit=time_limit, rollout="mixed", model="none")
    assert named.for_position(start(AZUL, players)).exploration == 2.0  # no model: Azul's own


@pytest.mark.parametrize(
    "time_limit, iterations, expected",
    [
        (SHORT, None, 1.0),
        (None, VISITS, 1.0),  # short: the policy as fitted
        (10.0, None, 1.5),
        (None, None, 1.5),  # long: softer priors
        (10.0, VISITS, 1.0),  # long only when each limit is
    ],
)
def test_long_two_player_azul_searches_soften_the_policys_priors(time_limit, iterations, expected):
    options = MctsOptions(time_limit=time_limit, iterations=iterations)
    resolved = options.for_position(start(AZUL, 2))
    assert resolved.policy_temperature == expected
    assert resolved.kernel_params("azul").policy_temperature == expected
    for players in (3, 4):  # the priors as fitted, as their matches chose
        assert options.for_position(start(AZUL, players)).policy_temperature == 1.0
    with pytest.raises(OptionError, match="policy temperature must be more than 0, not 0"):
        MctsOptions(iterations=1, policy_temperature=0).check()
    named = MctsOptions(time_limit=10.0, policy_temperature=1.0)
    assert named.for_position(start(AZUL, 2)).policy_temperature == 1.0
    for time_limit in (SHORT, 10.0):  # Azure takes its priors as fitted at every budget
        assert MctsOptions(time_limit=time_limit).for_position(start(AZURE, 2)).policy_temperature == 1.0


def test_two_player_azul_takes_its_long_settings_in_by_the_budget():
    """From a long budget's start (0.035 s, 4,700 simulations) to a full one (0.2 s, 27,000)
    2-player Azul's exploration goes from the learned 1.0 to Azul's own 2.0 and its priors'
    temperature from 1 to 1.5, on a log scale of the budget; the rollout switches at once.
    Switched at once, the two cost a step down in strength (results/strength/README.md,
    "More time, never worse")."""
    state = start(AZUL, 2)

    def settings(**budget):
        resolved = MctsOptions(**budget).for_position(state)
        return resolved.rollout, resolved.exploration, resolved.policy_temperature

    assert settings(time_limit=0.034) == ("round", 1.0, 1.0)
    assert settings(time_limit=0.035) == ("mixed", 1.0, 1.0) == settings(iterations=4700)
    assert settings(time_limit=0.2) == ("mixed", 2.0, 1.5) == settings(iterations=27_000)
    assert settings(time_limit=5.0) == settings(iterations=10**7) == ("mixed", 2.0, 1.5)
    _, exploration, temperature = settings(time_limit=math.sqrt(0.035 * 0.2))  # halfway in log time
    assert exploration == pytest.approx(1.5) and temperature == pytest.approx(1.25)
    assert settings(time_limit=0.2, iterations=4700) == ("mixed", 1.0, 1.0)  # the shorter limit decides
    times = [0.035 * 1.1**k for k in range(25)]
    explorations = [settings(time_limit=t)[1] for t in times]
    temperatures = [settings(time_limit=t)[2] for t in times]
    assert explorations == sorted(explorations) and temperatures == sorted(temperatures)
    for players in (3, 4):  # their mixed rollouts explore as learned at every budget
        assert MctsOptions(time_limit=0.1).for_position(start(AZUL, players)).exploration == 1.0


@pytest.mark.long  # a search on every surface
@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_player_azul_search_with_the_model_fitted_to_their_count(players):
    position = AZUL.format_position(start(AZUL, players))
    shipped = load_model(resources.files("tessera.learning") / "models" / f"azul-{players}p.npz", "azul")
    assert shipped.players == [players]
    for budget, rollout in ((VISITS, "round"), (AZUL.spec.search.long_budget.simulations, "mixed")):
        settings = best_json(position, "-n", budget)["settings"]
        assert (settings["rollout"], settings["model"], settings["exploration"]) == (rollout, "builtin", 1.0)
        assert settings["model_hash"] == shipped.hash


@pytest.mark.long  # a search on every surface
def test_the_settings_name_the_exploration_the_learned_search_used():
    position = AZUL.format_position(start(AZUL, 2))
    learned = best_json(position, "--model", "builtin")
    named = best_json(position, "--model", "builtin", "-c", "1.0")
    assert learned["settings"]["exploration"] == named["settings"]["exploration"] == 1.0
    assert top_visits(learned["moves"]) == top_visits(named["moves"])
    assert best_json(position, "--model", "none")["settings"]["exploration"] == 2.0
