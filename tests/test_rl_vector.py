"""The batched environment (``tessera.rl.vector``, ``tessera.kernels.vecenv``): its masks, action
lists and observations against the Python API on the positions it reaches, seeds, restarts,
rewards, threads and bad actions."""

import gc
import time
import types

import numpy as np
import pytest

from tessera.position import Position
from tessera.rl.encoding import Encoding

pytest.importorskip("gymnasium")
from tessera.rl.vector import TesseraVectorEnv, _ChunkServers  # noqa: E402

# Each game's vector kernels compile on first use (the package does not ship them compiled):
# the quick tier checks Azul's.
SETTINGS = [
    ("azul", {"players": 2}),
    ("azul", {"players": 3, "variant": "gray"}),
    pytest.param("pavilion", {"players": 2}, marks=pytest.mark.long),
    pytest.param("azure", {"gifted": "bountiful"}, marks=pytest.mark.long),
]


def random_steps(env, steps, seed=9):
    """Step ``env`` ``steps`` times with random legal actions; yield each step's outputs."""
    rngs = np.arange(env.num_envs, dtype=np.uint64) + np.uint64(seed)
    for _ in range(steps):
        yield env.step(env.random_actions(rngs))


@pytest.mark.parametrize("game,options", SETTINGS)
def test_masks_lists_and_observations_agree_with_the_python_api(game, options):
    env = TesseraVectorEnv(game, 8, seed=3, **options)
    encoding = Encoding(game, **options)
    obs, info = env.reset()
    checked = 0
    for step, (obs, _reward, _terminated, _truncated, info) in enumerate(random_steps(env, 120)):
        if step % 10:
            continue
        for i, (state, position) in enumerate(zip(env.states, env.positions())):
            assert np.array_equal(position.state, state)
            assert position.to_move == info["to_move"][i] + 1
            legal = {encoding.action_of_move(state, position.parse_move(text)) for text in position.legal_moves}
            assert set(np.flatnonzero(info["action_mask"][i])) == legal
            assert sorted(env.legal[i, : env.n_legal[i]].tolist()) == sorted(legal)
            assert np.array_equal(obs[i], encoding.observation(state, position.to_move - 1))
            checked += 1
    assert checked == 8 * 12
    assert env.observation_space.contains(obs)


def test_a_chunk_that_never_finishes_is_not_waited_for_forever():
    """The calling thread spins on the chunks' marks a bounded number of reads, then looks
    for a failed chunk server (whose error it raises) before it spins again."""
    from tessera.kernels import bind

    wait_finished = bind.instance("azul", "vecenv").wait_finished
    assert wait_finished(np.ones(3, np.int64), 10)
    assert not wait_finished(np.array([1, 0, 1], np.int64), 1000)


def test_the_same_seed_plays_the_same_games_and_threads_do_not_matter():
    runs = []
    for threads in (1, 2, 1):
        env = TesseraVectorEnv("azul", 6, seed=11, threads=threads)
        env.reset()
        runs.append([(o, r, t, info["game_seed"]) for o, r, t, _, info in random_steps(env, 150)])
    other = TesseraVectorEnv("azul", 6, seed=12)
    other.reset()
    different = [o for o, *_ in random_steps(other, 150)]
    for a, b in zip(runs[0], runs[1]):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
    for a, b in zip(runs[0], runs[2]):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(o, d) for (o, *_), d in zip(runs[0], different))


@pytest.mark.parametrize(
    "game,options",
    [
        ("azul", {"players": 2}),
        pytest.param("pavilion", {"players": 3}, marks=pytest.mark.long),  # as SETTINGS
        pytest.param("azure", {}, marks=pytest.mark.long),
    ],
)
def test_finished_games_restart_from_their_seeded_deals(game, options):
    """A row whose game ended holds at once a new game: ``Position.new(game, seed)`` of its
    new ``game_seed`` (Azure: the seed's realm of the env's starts, dealt by that seed);
    the finished game's rewards sum to 0 and the mover's reward is its own."""
    from tessera.kernels.rng import make_rng

    env = TesseraVectorEnv(game, 16, seed=5, **options)
    _, info = env.reset()
    seeds, previous_to_move = info["game_seed"], info["to_move"]
    restarts = 0
    for _obs, reward, terminated, truncated, info in random_steps(env, 400 if game != "azure" else 120):
        rewards = info["rewards"]
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            assert info["game_seed"][i] != seeds[i]
            seed = int(info["game_seed"][i])
            if game == "azure":
                expected = env.starts[seed % len(env.starts)].copy()
                env.kernels.games.resolve_chance(expected, make_rng(seed))
            else:
                expected = Position.new(game, seed=seed, **options).state
            assert np.array_equal(env.states[i], expected)
            assert rewards[i].sum() == pytest.approx(0.0) and rewards[i].min() >= -1
            restarts += 1
        assert np.all(rewards[~terminated] == 0)
        assert np.array_equal(reward, rewards[np.arange(env.num_envs), previous_to_move])
        previous_to_move = info["to_move"]
        seeds = info["game_seed"]
    assert restarts >= 8


def test_an_illegal_action_is_refused_and_changes_nothing():
    from tessera.errors import OptionError

    env = TesseraVectorEnv("azul", 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(OptionError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(OptionError, match="seed"):  # checked before Azure deals realms with it
        TesseraVectorEnv("azure", 2, seed="x")
    obs, info = env.reset()
    actions = np.array([np.flatnonzero(mask)[0] for mask in info["action_mask"]])
    actions[1] = np.flatnonzero(info["action_mask"][1] == 0)[0]
    states = env.states.copy()
    with pytest.raises(ValueError, match="not legal in game 1"):
        env.step(actions)
    assert np.array_equal(states, env.states)
    with pytest.raises(ValueError, match="need 3 actions"):
        env.step(actions[:2])


def test_random_actions_refuses_generators_it_cannot_advance_in_place():
    """Anything but uint64 [num_envs] is refused: numba would read and write past a short
    array (corrupting memory), and would advance a copy of another dtype or of a list."""
    env = TesseraVectorEnv("azul", 4, seed=1)
    env.reset()
    for rngs in (np.arange(4), [1, 2, 3, 4], np.zeros(3, np.uint64)):
        with pytest.raises(ValueError, match="rngs must be"):
            env.random_actions(rngs)
    rngs = np.arange(4, dtype=np.uint64)
    actions = env.random_actions(rngs)
    assert not np.array_equal(rngs, np.arange(4, dtype=np.uint64))  # advanced in place
    assert all(env.masks[i, a] for i, a in enumerate(actions))


def test_each_game_binds_its_own_encoding_and_the_template_alone_does_not_run():
    import importlib

    from tessera.kernels import bind

    template = importlib.import_module(bind.TEMPLATES["vecenv"])  # the template itself, as bind sees it
    for game in ("azul", "pavilion", "azure"):
        bound = bind.instance(game, "vecenv")
        assert bound.games is bind.interface(game)
        assert bound.encoding is importlib.import_module(f"tessera.kernels.{game}.encoding")
    assert template.encoding is None
    with pytest.raises(TypeError, match="vecenv"):
        template.step_range(0, 0)


@pytest.mark.repo
def test_the_examples_of_docs_rl_run():
    from tests.test_api import python_blocks

    blocks = python_blocks("rl.md")
    assert len(blocks) == 3
    for code in blocks:
        namespace = {"__name__": "docs_example"}
        exec(compile(code, "rl.md", "exec"), namespace)
    assert namespace["state"].is_chance_node() and namespace["game"].num_players() == 3


def test_chunk_servers_sleep_between_distant_steps_and_wake_for_the_next():
    alone, served = (TesseraVectorEnv("azul", 6, seed=11, threads=t) for t in (1, 2))
    for env in (alone, served):
        env.reset()
    servers, rngs = served._servers, np.arange(6, dtype=np.uint64)
    for i in range(8):
        if i % 2:  # let the server fall asleep (it spins about a millisecond)
            deadline = time.monotonic() + 10
            while not all(servers.sleeping) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert all(servers.sleeping)
        actions = alone.random_actions(rngs)
        for a, b in zip(alone.step(actions), served.step(actions)):
            if isinstance(a, dict):
                assert all(np.array_equal(a[key], b[key]) for key in a)
            else:
                assert np.array_equal(a, b)


def test_a_failed_chunk_server_s_error_is_raised_by_the_step():
    env = TesseraVectorEnv("azul", 6, seed=1, threads=2)
    env.reset()
    env.close()
    real = env.kernels

    def failing(*args):
        raise RuntimeError("chunk server failed")

    broken = types.SimpleNamespace(**{**vars(real), "serve_chunk": failing})
    env._closed = False
    env._servers = _ChunkServers(broken, [(0, 3)], env._finished, (env._actions, *[None] * 13))
    with pytest.raises(RuntimeError, match="chunk server failed"):
        env.step(env.random_actions(np.arange(6, dtype=np.uint64)))
    env._servers.stop()


def test_chunk_servers_stop_with_their_environment():
    env = TesseraVectorEnv("azul", 6, seed=1, threads=3)
    env.reset()
    threads = env._servers.threads
    assert len(threads) == 2 and all(thread.is_alive() for thread in threads)
    env.close()
    assert not any(thread.is_alive() for thread in threads)
    env = TesseraVectorEnv("azul", 6, seed=1, threads=2)
    threads = env._servers.threads
    del env
    gc.collect()
    for thread in threads:
        thread.join(10)
    assert not any(thread.is_alive() for thread in threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_closed_environment_refuses_to_step_or_reset(threads):
    import gymnasium

    env = TesseraVectorEnv("azul", 4, seed=1, threads=threads)
    env.reset()
    env.close()
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        env.step(np.zeros(4, np.int64))
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        env.reset()
