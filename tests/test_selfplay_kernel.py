"""The batched self-play kernel plays exactly the games of solver.agents, on any thread count."""

import numba
import numpy as np
import pytest

from tessera.agents import parse_agent, play_game
from tessera.games import get_game, registered_games
from tessera.kernels import bind, games
from tessera.kernels import selfplay_layout as kernel
from tessera.kernels.rng import CHANCE_SALT
from tessera.selfplay import chunk

AZUL = get_game("azul")
KIND_SPECS = {kernel.RANDOM: "random", kernel.GREEDY: "greedy"}


def batch(options, seeds, kinds, agent_seeds, game=AZUL):
    """(moves, movers, scores, payoffs) of each game, played by ``chunk.play_batched``."""
    starts = np.stack([game.new(int(seed), **options) for seed in seeds])
    played = chunk.play_batched(
        starts, np.asarray(seeds, np.int64) ^ CHANCE_SALT, np.asarray(agent_seeds, np.int64), np.asarray(kinds, np.int8)
    )
    ends = np.cumsum(played.lengths)
    starts_of = ends - played.lengths
    return [
        (played.moves[a:b], played.movers[a:b], played.scores[g], played.payoffs[g])
        for g, (a, b) in enumerate(zip(starts_of, ends))
    ]


def reference(options, seed, kinds, agent_seeds, game=AZUL):
    agents = [parse_agent(KIND_SPECS[kind], seed=int(s)) for kind, s in zip(kinds, agent_seeds)]
    return play_game(game, options, agents, int(seed))


@pytest.mark.parametrize(
    "options, kinds",
    [
        ({"players": 2}, [kernel.GREEDY, kernel.RANDOM]),
        ({"players": 2}, [kernel.GREEDY, kernel.GREEDY]),
        ({"players": 3}, [kernel.RANDOM, kernel.GREEDY, kernel.GREEDY]),
        ({"players": 4, "variant": "gray"}, [kernel.GREEDY, kernel.RANDOM, kernel.GREEDY, kernel.RANDOM]),
    ],
)
def test_kernel_games_match_the_python_agents_move_for_move(options, kinds):
    seeds = [3, 17, 2024, 99991]
    agent_seeds = [[11 * g + s for s in range(len(kinds))] for g in range(len(seeds))]
    played = batch(options, seeds, [kinds] * len(seeds), agent_seeds)
    for seed, seat_seeds, (moves, movers, scores, payoffs) in zip(seeds, agent_seeds, played):
        record = reference(options, seed, kinds, seat_seeds)
        assert moves.tolist() == [move for _, move in record.moves]
        assert movers.tolist() == [who for who, _ in record.moves]
        assert scores.tolist() == record.scores and payoffs.tolist() == record.payoffs


@pytest.mark.parametrize("name", sorted(registered_games()))
def test_every_game_plays_the_same_through_the_kernel(name):
    game = get_game(name)
    options = {"players": 3} if "players" in game.options else {}
    seats = games.players(game.new(0, **options))
    kinds = [kernel.GREEDY, kernel.RANDOM, kernel.GREEDY][:seats]
    seeds, agent_seeds = [8, 9], [[1, 2, 3][:seats], [4, 5, 6][:seats]]
    played = batch(options, seeds, [kinds] * 2, agent_seeds, game)
    for seed, seat_seeds, (moves, _, scores, _) in zip(seeds, agent_seeds, played):
        record = reference(options, seed, kinds, seat_seeds, game)
        assert moves.tolist() == [move for _, move in record.moves]
        assert scores.tolist() == record.scores


@pytest.mark.parametrize("options", [{}, {"cosmos": True}])
def test_greedy_decides_on_its_own_determinization_of_a_hidden_hand(options):
    # Azure hides hands: the Python agent sees a view and decides on a determinization
    # drawn from its sample stream; the kernel must draw the same one, not peek. (With
    # the Cosmos board, seeds 23 and others play differently when the kernel peeks.)
    azure = get_game("azure")
    seeds = list(range(30))
    kinds = [[kernel.GREEDY, kernel.GREEDY]] * len(seeds)
    agent_seeds = [[7 * g + 1, 7 * g + 2] for g in seeds]
    played = batch(options, seeds, kinds, agent_seeds, azure)
    for seed, seat_seeds, (moves, _, scores, _) in zip(seeds, agent_seeds, played):
        record = reference(options, seed, [kernel.GREEDY] * 2, seat_seeds, azure)
        assert moves.tolist() == [move for _, move in record.moves], f"seed {seed}"
        assert scores.tolist() == record.scores


def test_greedy_move_breaks_ties_like_the_agent():
    state = AZUL.new(3)  # several moves tie (tests/test_agents.py)
    moves = np.empty(games.MAX_MOVES, np.int64)
    tied = np.empty(games.MAX_MOVES, np.int64)
    child = np.empty_like(state)
    values = np.zeros(2, np.float64)
    from tessera.kernels.rng import make_rng

    picks = [
        bind.instance("azul", "selfplay").greedy_move(state, make_rng(seed), moves, tied, child, values)
        for seed in range(20)
    ]
    assert picks == [parse_agent("greedy", seed=seed).choose(state) for seed in range(20)]
    assert len(set(picks)) > 1


def test_results_do_not_depend_on_the_thread_count():
    seeds = list(range(40))
    kinds = [[kernel.RANDOM, kernel.GREEDY]] * len(seeds)
    agent_seeds = [[2 * g, 2 * g + 1] for g in seeds]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = batch({"players": 2}, seeds, kinds, agent_seeds)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = batch({"players": 2}, seeds, kinds, agent_seeds)
    finally:
        numba.set_num_threads(before)
    for a, b in zip(one, many):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))


def test_a_game_too_long_for_the_batch_is_played_again_with_room(monkeypatch):
    seeds, kinds, agent_seeds = [5, 6], [[kernel.RANDOM] * 2] * 2, [[1, 2], [3, 4]]
    roomy = batch({"players": 2}, seeds, kinds, agent_seeds)
    monkeypatch.setattr(chunk, "FIRST_MAX_PLIES", 8)
    cramped = batch({"players": 2}, seeds, kinds, agent_seeds)
    for a, b in zip(roomy, cramped):
        assert len(a[0]) > 8 and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_a_game_that_never_ends_is_an_error(monkeypatch):
    monkeypatch.setattr(chunk, "FIRST_MAX_PLIES", 8)
    monkeypatch.setattr(chunk, "MAX_PLIES", 16)
    with pytest.raises(RuntimeError, match="2 games did not end within 16 player moves"):
        batch({"players": 2}, [5, 6], [[kernel.RANDOM] * 2] * 2, [[1, 2], [3, 4]])
