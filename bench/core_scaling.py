"""How much a second core gives on this machine, for work of known shape: the ceiling the
two-thread targets of the searches and the batched environment are measured against.

    python bench/core_scaling.py [--seconds S] [--repeats R] [--out FILE]

Three numba kernels, each run on one Python thread and on two at once (the GIL
released, as the search and environment kernels run), with wall-time rates compared:

- ``alu``: a chain of integer multiplies and xor-shifts in registers (no memory);
- ``l2``: a pass writing and reading 256 KB per thread, which stays in each core's L2;
- ``stream``: writing 64 MB per thread, far beyond the caches, so the memory bus
  takes every byte (as the batched environment's outputs do for a large batch).

A ratio well below 2 for ``alu`` says the two cores share execution units (hardware
threads of one core, as a virtual machine's two vCPUs may be); below 2 for ``stream``
alone says memory bandwidth is the limit. Runs alternate one and two threads,
``--repeats`` of each; medians with their range.
"""

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from tessera.bench import machine, write_report


@numba.njit(nogil=True, cache=True)
def alu(rounds, seed):
    x = np.uint64(seed) | np.uint64(1)
    for _ in range(rounds):
        x *= np.uint64(0x9E3779B97F4A7C15)
        x ^= x >> np.uint64(29)
    return x


@numba.njit(nogil=True, cache=True)
def touch(buffer, rounds):
    total = 0.0
    for r in range(rounds):
        for i in range(buffer.size):
            buffer[i] = r + i
        total += buffer[r % buffer.size]
    return total


KERNELS = ("alu", "l2", "stream")
FLOATS = {"l2": 256 * 1024 // 4, "stream": 64 * 1024 * 1024 // 4}  # float32 per thread


def work(name, seed, seconds):
    """Units of ``name``'s work done on this thread in about ``seconds``."""
    done, start = 0, time.perf_counter()
    if name == "alu":
        while time.perf_counter() - start < seconds:
            alu(2_000_000, seed)
            done += 2_000_000
        return done
    buffer = np.zeros(FLOATS[name], np.float32)
    rounds = 200 if name == "l2" else 1
    while time.perf_counter() - start < seconds:
        touch(buffer, rounds)
        done += rounds * buffer.size
    return done


def rate(name, threads, seconds, pool):
    start = time.perf_counter()
    done = sum(pool.map(lambda t: work(name, t + 1, seconds), range(threads)))
    return done / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    report = {"command": "python bench/core_scaling.py " + " ".join(sys.argv[1:]), "machine": machine(), "kernels": {}}
    with ThreadPoolExecutor(2) as pool:
        for name in KERNELS:
            work(name, 1, 0.01)  # compile before timing
            rates = {1: [], 2: []}
            for _ in range(args.repeats):
                for threads in (1, 2):
                    rates[threads].append(rate(name, threads, args.seconds, pool))
            one, two = statistics.median(rates[1]), statistics.median(rates[2])
            report["kernels"][name] = {
                "one_thread_per_s": {"median": round(one), "range": [round(min(rates[1])), round(max(rates[1]))]},
                "two_threads_per_s": {"median": round(two), "range": [round(min(rates[2])), round(max(rates[2]))]},
                "speedup": round(two / one, 3),
            }
            print(f"{name:7} two threads / one: {two / one:.2f}x", file=sys.stderr)
    print(json.dumps(report["kernels"], indent=2))
    write_report(args.out, report)


if __name__ == "__main__":
    main()
