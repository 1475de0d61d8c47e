"""Microseconds of the parts of a batched-environment step, one thread and two.

    python bench/experiments/vecenv_step_parts.py [--envs N] [--steps S]

Azul, 2 players, ``copy=False``: after 50 warm-up steps, ``S`` steps each timing
``random_actions``, ``first_illegal`` (the legality check ``step`` makes first) and
``step`` itself; medians, wall time. Steps follow each other as in a training loop
that chooses actions in numba (``bench/rl_speed.py``).
"""

import argparse
import statistics
import time

import numpy as np

from tessera.rl.vector import TesseraVectorEnv


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    rngs = np.arange(args.envs, dtype=np.uint64)
    for threads in (1, 2):
        env = TesseraVectorEnv("azul", args.envs, threads=threads, copy=False, players=2)
        env.reset(seed=1)
        for _ in range(50):
            env.step(env.random_actions(rngs))
        parts = {"random_actions": [], "first_illegal": [], "step": []}
        for _ in range(args.steps):
            t0 = time.perf_counter()
            actions = env.random_actions(rngs)
            t1 = time.perf_counter()
            env.kernels.first_illegal(actions, env.masks)
            t2 = time.perf_counter()
            env.step(actions)
            t3 = time.perf_counter()
            for name, seconds in zip(parts, (t1 - t0, t2 - t1, t3 - t2)):
                parts[name].append(seconds)
        env.close()
        print(
            f"threads {threads}: "
            + ", ".join(f"{name} {statistics.median(v) * 1e6:.1f} µs" for name, v in parts.items())
        )


if __name__ == "__main__":
    main()
