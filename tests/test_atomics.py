"""The atomic operations threads sharing a search tree use (kernels/atomics.py): two
threads hammering the same elements lose no update."""

import threading

import numpy as np

from tessera.kernels.atomics import add_float, compare_exchange, fetch_add, load_acquire, store_release
from tessera.kernels.jit import njit

ROUNDS = 200_000


@njit(nogil=True, cache=True)
def hammer(counts, sums, rounds):
    """Per round: an add, a float add and an increment by compare-exchange, all on
    elements the other thread updates too."""
    for _ in range(rounds):
        fetch_add(counts, (0, 1), 1)
        fetch_add(counts[1], 0, 3)
        add_float(sums, (1, 0), 0.5)
        while True:
            seen = load_acquire(counts, (2, 2))
            if compare_exchange(counts, (2, 2), seen, seen + 2) == seen:
                break


def test_two_threads_lose_no_update():
    counts, sums = np.zeros((3, 3), np.int64), np.zeros((2, 2))
    hammer(counts, sums, 1)  # compile before the threads start
    counts[:], sums[:] = 0, 0
    threads = [threading.Thread(target=hammer, args=(counts, sums, ROUNDS)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = np.zeros((3, 3), np.int64)
    expected[0, 1], expected[1, 0], expected[2, 2] = 2 * ROUNDS, 6 * ROUNDS, 4 * ROUNDS
    assert np.array_equal(counts, expected)
    assert sums[1, 0] == ROUNDS and np.count_nonzero(sums) == 1


@njit(cache=True)
def exchange_twice(values):
    first = compare_exchange(values, 0, 5, 9)  # holds 5: stores 9
    second = compare_exchange(values, 0, 5, 7)  # holds 9: stores nothing
    store_release(values, 1, -2)
    return first, second, load_acquire(values, 0), fetch_add(values, 1, 4)


def test_compare_exchange_stores_only_over_the_expected_value():
    values = np.array([5, 0], np.int64)
    assert exchange_twice(values) == (5, 9, 9, -2)
    assert list(values) == [9, 2]
