"""Seeded, seat-rotated matches between agents of this checkout and agents of another commit.

    python bench/versus.py GAME A B [--players N] [--games N] [--seed S]
                           [--baseline COMMIT | --baseline-dir DIR [--baseline-cache DIR]]
                           [--option KEY=VALUE ...]
                           [--out FILE]

A and B are agent specs (``greedy``, ``mcts:time=0.002``, see ``tessera.agents``); a spec
ending in ``@base`` is played by the baseline: the commit ``--baseline`` (default
e696baa) exported with ``git archive`` into a cache folder (``$TESSERA_VERSUS_CACHE``,
default ``<tmp>/tessera-versus``) with its own numba cache, or the source tree
``--baseline-dir`` used as it is (with the numba cache ``--baseline-cache``, default
``$NUMBA_CACHE_DIR``: numba does not notice edits to inlined helpers, so give each
edited tree a cache of its own). The baseline runs in a worker process of its own
(``tessera.strength.baseline``), whichever layout its tree has.

The match is ``tessera.strength.match``: seeded and seat-rotated, so a run is
reproducible and both sides meet the same deals from both seats; every baseline move is
checked against this checkout's rules. The report (also in ``--out``) gives A's wins,
draws and losses, the win rate with its Wilson 95% interval, the mean margin with its
95% interval, the same by A's seat, and each side's wall time a move.
"""

import argparse
import sys
from pathlib import Path

from tessera.bench import machine, write_report
from tessera.errors import OptionError, TesseraError
from tessera.games import get_game
from tessera.strength import BASE_SUFFIX, Baseline, VersusError, describe, match

DEFAULT_BASELINE = "e696baa"
REPO = Path(__file__).resolve().parents[1]


def parse_options(game_name, items):
    """``KEY=VALUE`` game options; a yes/no option takes yes or no."""
    known = get_game(game_name).options
    options = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or key not in known or key == "players":
            raise OptionError(
                f"--option expects KEY=VALUE with KEY one of "
                f"{', '.join(k for k in known if k != 'players')}, not '{item}'"
            )
        options[key] = value in ("yes", "true") if known[key][0] is bool else value
    return options


def run(args):
    options = parse_options(args.game, args.option)
    uses_base = any(spec.endswith(BASE_SUFFIX) for spec in (args.a, args.b))
    baseline = None
    if uses_base:
        if args.baseline_dir:
            if not (Path(args.baseline_dir) / "solver").is_dir():
                raise VersusError(f"{args.baseline_dir} holds no solver package")
            baseline = Baseline(args.baseline_dir, numba_cache=args.baseline_cache, label=args.baseline_dir)
        else:
            baseline = Baseline.of_commit(REPO, args.baseline)
    try:
        report, _ = match(
            args.game,
            args.a,
            args.b,
            args.games,
            seed=args.seed,
            players=args.players,
            options=options,
            baseline=baseline,
        )
    finally:
        if baseline:
            baseline.close()
    report = {
        "command": "python bench/versus.py " + " ".join(sys.argv[1:]),
        "game": args.game,
        "options": options,
        "seed": args.seed,
        "baseline": (args.baseline_dir or args.baseline) if uses_base else None,
        **report,
        "machine": machine(),
    }
    print(describe(report))
    write_report(args.out, report)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("a", help="agent spec; '<spec>@base' for the baseline's agent")
    parser.add_argument("b", help="its opponent, likewise")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], help="a game option KEY=VALUE")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--baseline", default=DEFAULT_BASELINE, help="commit of the @base agents")
    source.add_argument("--baseline-dir", help="a source tree for the @base agents, used as it is")
    parser.add_argument("--baseline-cache", help="numba cache of a --baseline-dir (default: $NUMBA_CACHE_DIR)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    try:
        run(args)
    except TesseraError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
