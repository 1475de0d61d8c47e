"""Start positions dealt a batch at a time in numba are the positions Game.new deals."""

import numba
import numpy as np
import pytest

from tessera.games import get_game, registered_games
from tessera.selfplay import starts

SEEDS = [0, 1, 2, 3, 99, 2024, 123456789, 2**62 + 17, 2**63 - 1]


def option_values(kind):
    if isinstance(kind, tuple):
        return kind
    return {int: (2, 3, 4), bool: (False, True)}.get(kind, ())


# Every value of every option with a few values, one at a time; Azul's 4-player gray wall.
CASES = [
    (name, {option: value})
    for name, game in sorted(registered_games().items())
    for option, (kind, _, _) in game.options.items()
    for value in option_values(kind)
] + [("azul", {"players": 4, "variant": "gray"})]


@pytest.mark.parametrize("serial", [True, False])
@pytest.mark.parametrize("name, options", CASES)
def test_batched_starts_are_the_starts_of_game_new(name, options, serial):
    game = get_game(name)
    dealt = starts.start_positions(name, options, np.array(SEEDS, np.int64), serial=serial)
    assert dealt.shape[0] == len(SEEDS)
    for state, seed in zip(dealt, SEEDS):
        assert np.array_equal(state, game.new(seed, **options))
    assert len({state.tobytes() for state in dealt}) == len(SEEDS)  # the seeds deal apart


def test_the_deal_does_not_depend_on_the_thread_count():
    seeds = np.arange(1000, dtype=np.int64) * 7919
    options = {"players": 3, "variant": "colour"}
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = starts.start_positions("azul", options, seeds)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = starts.start_positions("azul", options, seeds)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, many)
