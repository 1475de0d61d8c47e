"""PettingZoo's own checks on the AEC and parallel environments (``solver.rl.aec``), and
what an illegal action does."""
import functools
import types

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, max_cycles_test, seed_test  # noqa: E402

from solver.errors import MoveError  # noqa: E402
from solver.position import Position  # noqa: E402
from solver.rl import aec  # noqa: E402

SETTINGS = [("azul", {}), ("azul", {"players": 4, "variant": "gray"}), ("pavilion", {"players": 3}),
            ("azure", {"gifted": "favored"}), ("azure", {"cosmos": True})]


@pytest.mark.parametrize("game,options", SETTINGS)
def test_pettingzoo_api_and_seed_tests(game, options):
    api_test(aec.env(game, **options), num_cycles=200)
    seed_test(functools.partial(aec.env, game, **options), num_cycles=100)


@pytest.mark.parametrize("game,options", [("azul", {}), ("pavilion", {}), ("azure", {"gifted": "mighty"})])
def test_pettingzoo_max_cycles_test(game, options):
    """Seeded, on 2-player deals whose first cycles rotate (solver/rl/aec.py says why only
    those). It samples actions without the mask: illegal actions are folded."""
    module = types.SimpleNamespace(
        env=functools.partial(aec.env, game, illegal_action="fold", seed=3, **options),
        parallel_env=functools.partial(aec.parallel_env, game, seed=3, **options))
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
    from solver.errors import OptionError
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
