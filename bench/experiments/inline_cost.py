"""What numba's inlining costs a first search, with and without ``tessera.kernels.inliner``.

    python bench/experiments/inline_cost.py [--rounds N]

Each round, for each setting (``off``: ``tessera.kernels.inliner.install`` made a no-op; ``on``:
as the kernels run it), one process per command with a fresh ``NUMBA_CACHE_DIR`` and no
helper process (``TESSERA_COMPILE_HELPER=0``): ``best --iterations 200`` on an Azul
position, then on a Summer Pavilion position and on an Azure view in that cache. Each
prints its CPU seconds and the seconds in numba's ``InlineWorker.inline_ir`` and
``inline_function`` (outermost calls: the nested ones are inside). CPU seconds, so a
busy machine changes them little; the settings alternate round by round.
"""

import argparse
import os
import subprocess
import sys
import tempfile

PROBE = r"""
import json, os, sys, time
import tessera.kernels.inliner
from numba.core import inline_closurecall as icc
if sys.argv[2] == "off":
    tessera.kernels.inliner.install = lambda: None
else:
    tessera.kernels.inliner.install()
spent = {"inline_ir": 0.0, "inline_function": 0.0}
depth = {"inline_ir": 0, "inline_function": 0}

def timed(name):
    inner = getattr(icc.InlineWorker, name)
    def wrapper(self, *args, **kwargs):
        depth[name] += 1
        start = time.process_time()
        try:
            return inner(self, *args, **kwargs)
        finally:
            depth[name] -= 1
            if depth[name] == 0:
                spent[name] += time.process_time() - start
    wrapper.one_memo_per_scope = getattr(inner, "one_memo_per_scope", False)
    setattr(icc.InlineWorker, name, wrapper)

timed("inline_ir")
timed("inline_function")
from tessera.cli import main
start = time.process_time()
main(["best", sys.argv[1], "--iterations", "200"], standalone_mode=False)
print(json.dumps({"cpu_s": time.process_time() - start, **spent}), file=sys.stderr)
"""
COMMANDS = (
    "tessera new azul --seed 1 > {d}/azul.txt && tessera new pavilion --seed 2 > {d}/pav.txt"
    " && tessera new azure --seed 5 | tessera view - --player 1 > {d}/view.txt"
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        tessera = f'tessera() {{ "{sys.executable}" -m tessera "$@"; }}\n'
        subprocess.run(
            ["bash", "-c", tessera + COMMANDS.format(d=work)],
            check=True,
            env=dict(os.environ, NUMBA_CACHE_DIR=os.path.join(work, "positions-cache")),
        )
        for round_ in range(args.rounds):
            for setting in ("off", "on"):
                cache = tempfile.mkdtemp(dir=work)
                env = dict(os.environ, NUMBA_CACHE_DIR=cache, TESSERA_COMPILE_HELPER="0")
                for position in ("azul.txt", "pav.txt", "view.txt"):
                    done = subprocess.run(
                        [sys.executable, "-c", PROBE, os.path.join(work, position), setting],
                        env=env,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE,
                        text=True,
                        check=True,
                    )
                    print(f"round {round_ + 1} {setting:3} {position:9} {done.stderr.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
