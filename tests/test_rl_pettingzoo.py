"""PettingZoo's own checks on the AEC and parallel environments (``tessera.rl.aec``), and
what an illegal action does."""

import functools
import types

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, max_cycles_test, seed_test  # noqa: E402

from tessera.errors import MoveError  # noqa: E402
from tessera.position import Position  # noqa: E402
from tessera.rl import aec  # noqa: E402

# Each game's encoding kernels compile on first use (the package does not ship them compiled):
# the quick tier checks Azul's.
SETTINGS = [
    ("azul", {}),
    ("azul", {"players": 4, "variant": "gray"}),
    pytest.param("pavilion", {"players": 3}, marks=pytest.mark.long),
    pytest.param("azure", {"gifted": "favored"}, marks=pytest.mark.long),
    pytest.param("azure", {"cosmos": True}, marks=pytest.mark.long),
]


@pytest.mark.parametrize("game,options", SETTINGS)
def test_pettingzoo_api_and_seed_tests(game, options):
    api_test(aec.env(game, **options), num_cycles=200)
    seed_test(functools.partial(aec.env, game, **options), num_cycles=100)


MAX_CYCLES = 4  # what pettingzoo.test.max_cycles_test uses
TURN_ORDER_SETTINGS = [
    ("azul", {}),
    ("azul", {"players": 3, "variant": "gray"}),
    ("azul", {"players": 4}),
    ("azul", {"players": 4, "variant": "gray"}),
    pytest.param("pavilion", {"players": 4}, marks=pytest.mark.long),  # as SETTINGS
    pytest.param("azure", {"cosmos": True}, marks=pytest.mark.long),
]


def max_cycles_module(game, seed, options):
    """What max_cycles_test takes; it samples actions without the mask, so they are folded."""
    return types.SimpleNamespace(
        env=functools.partial(aec.env, game, illegal_action="fold", seed=seed, **options),
        parallel_env=functools.partial(aec.parallel_env, game, seed=seed, **options),
    )


def movers(make_env, moves):
    """The seats of the first ``moves`` movers of the untruncated game that max_cycles_test's
    AEC loop plays (the same deal and the same sampled actions: each agent's space is seeded)."""
    env = make_env(max_cycles=None)
    env.reset()
    order = []
    for agent in env.agent_iter(moves):
        order.append(env.possible_agents.index(agent))
        env.step(env.action_space(agent).sample())
    return order


def some_truncation_passes(order, players):
    """Whether the game could be cut after some prefix of ``order`` with the most moves of an
    agent and the median agent's both MAX_CYCLES: what max_cycles_test asserts."""
    counts = np.zeros(players)
    for seat in order:
        counts[seat] += 1
        if counts.max() == MAX_CYCLES and np.median(counts) == MAX_CYCLES:
            return True
    return False


@pytest.mark.parametrize("game,options", TURN_ORDER_SETTINGS)
def test_max_cycles_cuts_the_game_when_the_agent_to_act_has_made_that_many_moves(game, options):
    env = aec.env(game, illegal_action="fold", seed=5, max_cycles=MAX_CYCLES, **options)
    env.reset()
    moves = dict.fromkeys(env.possible_agents, 0)
    while not any(env.truncations.values()):
        agent = env.agent_selection
        assert moves[agent] < MAX_CYCLES
        moves[agent] += 1
        env.step(env.action_space(agent).sample())
    assert all(env.truncations.values()) and not env.table.is_over
    assert moves[env.possible_agents[env.table.to_move]] == MAX_CYCLES


@pytest.mark.parametrize("game,options", TURN_ORDER_SETTINGS)
def test_pettingzoo_max_cycles_test_passes_on_every_deal_a_truncation_can_pass(game, options):
    """max_cycles_test wants the agent that moved most and the median agent to have moved
    exactly max_cycles times. Where a player moves twice in a row (a gray-wall player tiling,
    a round opened by whoever took the marker, Azure's decisions after a placement, Summer
    Pavilion's players who have passed) the counts can jump past every such point, and then
    no truncation passes it (docs/rl.md). The env passes every other deal."""
    passed = 0
    for seed in range(12):
        module = max_cycles_module(game, seed, options)
        players = len(module.env().possible_agents)
        possible = some_truncation_passes(movers(module.env, 3 * MAX_CYCLES * players), players)
        try:
            max_cycles_test(module)
        except AssertionError:
            assert not possible, seed
        else:
            assert possible, seed
            passed += 1
    assert passed


def test_a_round_opened_by_the_marker_taker_can_leave_no_truncation_passing():
    """Four players, seed 6: the first round ends with seat 1's move after 14 moves (4, 4, 3
    and 3 moves a seat) and seat 1, who took the marker, opens the next, reaching 5 moves
    before a third seat has 4."""
    module = max_cycles_module("azul", 6, {"players": 4})
    order = movers(module.env, 3 * MAX_CYCLES * 4)
    assert order[:16] == [0, 1, 2, 3] * 3 + [0, 1, 1, 2]
    assert not some_truncation_passes(order, 4)
    with pytest.raises(AssertionError):
        max_cycles_test(module)


def test_a_game_played_through_the_env_is_the_game_of_its_position():
    """The mask is the position's legal moves; observations follow the played moves; the
    final rewards are the winners' (returns summing to 0)."""
    env = aec.env("azul", players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    encoding = env.table.encoding
    finals = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[agent] = reward
            env.step(None)
            continue
        state = env.table.state
        position = Position.from_state(state)
        assert agent == f"player_{position.to_move}"
        legal = {encoding.action_of_move(state, position.parse_move(t)) for t in position.legal_moves}
        assert set(np.flatnonzero(observation["action_mask"])) == legal
        env.step(int(rng.choice(sorted(legal))))
    assert env.table.is_over
    assert finals == dict(zip(env.possible_agents, env.table.returns().tolist()))
    assert sum(finals.values()) == 0 and set(finals.values()) <= {-1.0, 0.0, 1.0}


def test_illegal_actions_terminate_raise_or_fold():
    env = aec.env("azul")
    env.reset(seed=1)
    mover = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[mover] == -1.0
    assert env.infos[mover] == {"illegal_action": illegal}
    strict = aec.env("azul", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(MoveError):
        strict.step(illegal)
    folding = aec.env("azul", illegal_action="fold")
    folding.reset(seed=1)
    legal = folding.table.legal_actions()
    before = folding.table.state.copy()
    folding.step(illegal)
    expected = aec.env("azul")
    expected.reset(seed=1)
    expected.step(legal[illegal % len(legal)])
    assert not np.array_equal(before, folding.table.state)
    assert np.array_equal(folding.table.state, expected.table.state)


@pytest.mark.parametrize("action", [None, "F1 blue 1", 1.0, True])
def test_an_action_that_is_not_an_id_is_a_move_error_and_changes_nothing(action):
    env = aec.env("azul")
    env.reset(seed=1)
    before = env.table.state.copy()
    with pytest.raises(MoveError, match="action id"):
        env.step(action)
    assert np.array_equal(before, env.table.state) and not any(env.terminations.values())


def test_bad_settings_are_option_errors():
    from tessera.errors import OptionError

    with pytest.raises(OptionError, match="seed is a whole number"):
        aec.env("azul", seed="x")
    with pytest.raises(OptionError, match="illegal_action"):
        aec.env("azul", illegal_action="ignore")
    with pytest.raises(OptionError, match="unknown game"):
        aec.env("chess")


def test_ansi_rendering_is_the_positions_notation():
    env = aec.env("pavilion", render_mode="ansi", players=3)
    env.reset(seed=2)
    assert env.render() == Position.new("pavilion", seed=env.table.deal_seed, players=3).text()
