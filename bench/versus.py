"""Seeded, seat-rotated matches between agents of this checkout and agents of another commit.

    python bench/versus.py GAME A B [--players N] [--games N] [--seed S]
                           [--baseline COMMIT | --baseline-dir DIR [--baseline-cache DIR]]
                           [--option KEY=VALUE ...]
                           [--out FILE]

A and B are agent specs (``greedy``, ``mcts:time=0.002``, see solver/agents.py); a spec
ending in ``@base`` is played by the baseline: the commit ``--baseline`` (default
e696baa) exported with ``git archive`` into a cache folder (``$TESSERA_VERSUS_CACHE``,
default ``<tmp>/tessera-versus``) with its own numba cache, or the source tree
``--baseline-dir`` used as it is (with the numba cache ``--baseline-cache``, default
``$NUMBA_CACHE_DIR``: numba does not notice edits to inlined helpers, so give each
edited tree a cache of its own). Each version's kernels are compiled with its own
rules and heuristics, so the baseline runs in a subprocess (bench/versus_worker.py)
that reads positions and answers moves in the notation both share.

Game ``i`` is dealt with seed ``S + i`` and its chance events are drawn here from that
seed, as ``tessera.agents.play_game`` does; A sits in seat ``i mod N`` and B in every
other seat; the agent in seat ``k`` is seeded ``(S + i) * N + k``. So a run is
reproducible, and both sides meet the same deals from both seats. Every move of the
baseline is checked against this checkout's rules: an illegal one stops the run with
an error naming it.

The report gives A's wins (a shared win counts its share), draws and losses, the win
rate with its Wilson 95% interval, the mean margin (A's score less the best other
score) with its 95% interval, the same split by A's seat, and each side's wall time a
move (``ms_a_move``: median and quartiles of its agents' ``choose``, a baseline's timed
in its worker), so that a match meant to be at equal time can be seen to be.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from tessera.agents import GameRecord, parse_agent
from tessera.bench import machine, write_report
from tessera.errors import OptionError, TesseraError
from tessera.games import get_game
from tessera.selfplay.stats import mean_interval, wilson

DEFAULT_BASELINE = "e696baa"
BASE_SUFFIX = "@base"
HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORKER = HERE / "versus_worker.py"
# Commits from before the board data was packaged read it from $TESSERA_SHARED/data:
# the worker is pointed at a copy of this checkout's packaged data (newer commits ignore it).
PACKAGED_DATA = REPO / "kernels" / "data"


class VersusError(TesseraError):
    """A match that cannot be played: a bad baseline, or a baseline agent that failed."""


# ---- the baseline: an exported commit and a worker process ----------------------------

def export_commit(commit, cache_root):
    """The folder holding ``commit`` exported (``src``), its numba cache and its board data."""
    try:
        sha = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except subprocess.CalledProcessError:
        raise VersusError(f"no commit '{commit}' in {REPO}") from None
    folder = Path(cache_root) / sha[:12]
    src = folder / "src"
    if not (folder / "exported").is_file():
        partial = folder / "src.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", sha], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(partial)], input=archive.stdout, check=True)
        shutil.rmtree(src, ignore_errors=True)
        partial.rename(src)
        (folder / "exported").write_text(sha + "\n")
    return folder


class Baseline:
    """A worker process serving the agents of the source tree ``src``."""

    def __init__(self, src, numba_cache=None, shared=None, label=None):
        self.src = Path(src).resolve()
        self.label = label or str(self.src)
        env = dict(os.environ, PYTHONPATH=str(self.src))
        if numba_cache:
            env["NUMBA_CACHE_DIR"] = str(numba_cache)
        if shared:
            env["TESSERA_SHARED"] = str(shared)
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([sys.executable, str(WORKER)], cwd=self.src, env=env, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        where = Path(self.ask({"op": "hello"})["solver"]).resolve()
        if self.src not in where.parents:
            self.close()
            raise VersusError(f"the baseline worker imported solver from {where}, not from {self.src}")

    @classmethod
    def of_commit(cls, commit, cache_root=None):
        cache_root = cache_root or os.environ.get("TESSERA_VERSUS_CACHE") or \
            Path(tempfile.gettempdir()) / "tessera-versus"
        folder = export_commit(commit, cache_root)
        shared = folder / "shared"
        (shared / "data").mkdir(parents=True, exist_ok=True)
        for path in PACKAGED_DATA.glob("*.json"):
            shutil.copyfile(path, shared / "data" / path.name)
        return cls(folder / "src", numba_cache=folder / "numba", shared=shared, label=commit)

    def ask(self, request):
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            raise VersusError(f"the baseline worker ({self.label}) stopped: {self._stderr_tail()}")
        reply = json.loads(line)
        if "error" in reply:
            raise VersusError(f"baseline ({self.label}): {reply['error']}")
        return reply

    def _stderr_tail(self):
        self.process.wait(timeout=10)
        self.stderr.seek(0)
        lines = self.stderr.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {self.process.returncode}"

    def agent(self, spec, seed):
        return RemoteAgent(self, spec, seed)

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)
        self.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RemoteAgent:
    """An agent of the baseline, seen through its worker: positions out, move text back."""

    def __init__(self, baseline, spec, seed):
        self.baseline = baseline
        self.spec = spec + BASE_SUFFIX
        self.id = baseline.ask({"op": "agent", "spec": spec, "seed": seed})["agent"]
        self.seen = []

    def choose_text(self, position):
        """The move's text, and the wall seconds the agent took to choose it (in the worker)."""
        reply = self.baseline.ask({"op": "choose", "agent": self.id, "position": position, "seen": self.seen})
        self.seen = []
        return reply["move"], reply["seconds"]

    def saw(self, position, move_text):
        self.seen.append([position, move_text])

    def drop(self):
        self.baseline.ask({"op": "drop", "agent": self.id})


# ---- one game, a match ----------------------------------------------------------------

def play(game, options, seats, seed, move_seconds=None):
    """One game between ``seats`` (local agents and ``RemoteAgent``s), seat 1 first, chance
    drawn as in ``tessera.agents.play_game``; a baseline move is checked against the rules here.
    ``move_seconds``, if given, gets ``(seat, seconds)`` for every decision: the wall time
    of the agent's ``choose`` (a baseline's as its worker timed it)."""
    from tessera.kernels import games
    from tessera.kernels.rng import chance_rng
    state = game.new(seed, **options)
    if games.players(state) != len(seats):
        raise OptionError(f"{game.name} with these options has {games.players(state)} seats, not {len(seats)}")
    remote = [agent for agent in seats if isinstance(agent, RemoteAgent)]
    chance = chance_rng(seed)
    played = []
    while (who := games.to_move(state)) != games.TERMINAL:
        if who == games.CHANCE:
            games.resolve_chance(state, chance)
            continue
        view = game.view(state, who)
        position = game.format_position(view) if remote else None
        agent = seats[who]
        if isinstance(agent, RemoteAgent):
            text, seconds = agent.choose_text(position)
            try:
                move = game.parse_move(view, text)
            except TesseraError as err:
                raise VersusError(f"baseline agent {agent.spec} in seat {who + 1} of game seed {seed} "
                                  f"answered '{text}', which is not legal here: {err}") from None
        else:
            started = time.perf_counter()
            move = int(agent.choose(view))
            seconds = time.perf_counter() - started
        if move_seconds is not None:
            move_seconds.append((int(who), seconds))
        if remote:
            text = game.format_move(view, move)
            for other in remote:
                other.saw(position, text)
        played.append((int(who), int(move)))
        games.apply_move(state, move)
        for other in seats:
            if not isinstance(other, RemoteAgent):
                other.observe(move)
    scores = np.zeros(len(seats), np.int64)
    payoffs = np.zeros(len(seats), np.float64)
    games.scores(state, scores)
    games.payoffs(state, payoffs)
    for agent in remote:
        agent.drop()
    return GameRecord(game=game.name, options=dict(options), seed=seed, agents=[a.spec for a in seats],
                      moves=played, scores=scores.tolist(), payoffs=payoffs.tolist())


def make_agent(spec, seed, baseline):
    if spec.endswith(BASE_SUFFIX):
        if baseline is None:
            raise OptionError(f"'{spec}' asks for the baseline, but there is none")
        return baseline.agent(spec[:-len(BASE_SUFFIX)], seed)
    return parse_agent(spec, seed=seed)


def warm_up(game, options, specs, baseline):
    """One move of each agent on a start position, so no compilation falls inside a timed move."""
    from tessera.kernels import games
    start = game.new(0, **options)
    view = game.view(start, games.to_move(start))
    for spec in specs:
        agent = make_agent(spec, 0, baseline)
        if isinstance(agent, RemoteAgent):
            agent.choose_text(game.format_position(view))
            agent.drop()
        else:
            agent.choose(view)


def match(game_name, spec_a, spec_b, games_count, seed=0, players=2, options=None, baseline=None,
          warm=True):
    """A against B over ``games_count`` games (see the module docstring): (report, records)."""
    game = get_game(game_name)
    options = dict(options or {})
    if "players" in game.options:
        options["players"] = players
    if warm:
        warm_up(game, options, (spec_a, spec_b), baseline)
    records = []
    move_seconds = {"agent": [], "opponent": []}
    started = time.perf_counter()
    for i in range(games_count):
        game_seed = seed + i
        seat_a = i % players
        seats = [make_agent(spec_a if k == seat_a else spec_b, game_seed * players + k, baseline)
                 for k in range(players)]
        timed = []
        records.append((seat_a, play(game, options, seats, game_seed, timed)))
        for seat, seconds in timed:
            move_seconds["agent" if seat == seat_a else "opponent"].append(seconds)
    report = summarize(spec_a, spec_b, records, players, time.perf_counter() - started)
    report["ms_a_move"] = {side: _spread(times) for side, times in move_seconds.items()}
    return report, records


def _spread(seconds):
    """Median and quartiles of a side's wall times a move, in milliseconds."""
    if not seconds:
        return None
    q1, median, q3 = np.percentile(np.array(seconds) * 1e3, [25, 50, 75])
    return {"median": round(float(median), 2), "quartiles": [round(float(q1), 2), round(float(q3), 2)]}


def summarize(spec_a, spec_b, records, players, seconds):
    share = np.array([record.payoffs[seat] for seat, record in records])
    margin = np.array([record.scores[seat] - max(s for k, s in enumerate(record.scores) if k != seat)
                       for seat, record in records], np.float64)
    seats = np.array([seat for seat, _ in records])
    report = {"agent": spec_a, "opponent": spec_b, "players": players, **_figures(share, margin),
              "mean_score": round(float(np.mean([r.scores[s] for s, r in records])), 2),
              "opponent_mean_score": round(float(np.mean(
                  [np.mean([x for k, x in enumerate(r.scores) if k != s]) for s, r in records])), 2),
              "by_seat": [{"seat": k + 1, **_figures(share[seats == k], margin[seats == k])}
                          for k in range(players)],
              "seconds": round(seconds, 1)}
    return report


def _figures(share, margin):
    games_count = len(share)
    won = int(np.sum(np.isclose(share, 1.0)))
    lost = int(np.sum(np.isclose(share, 0.0)))
    interval = wilson(float(share.sum()), games_count)
    mean, half = mean_interval(margin)
    return {"games": games_count, "wins": round(float(share.sum()), 2), "won": won,
            "drawn": games_count - won - lost, "lost": lost,
            "win_rate": round(float(share.mean()), 3) if games_count else None,
            "win_interval": [round(x, 3) for x in interval] if interval else None,
            "mean_margin": round(mean, 2) if mean is not None else None,
            "margin_interval": [round(mean - half, 2), round(mean + half, 2)] if half is not None else None}


def describe(report):
    by_seat = ", ".join(f"seat {row['seat']} {row['wins']:g}/{row['games']}" for row in report["by_seat"])
    lo, hi = report["win_interval"]
    times = "".join(f"; {side} {spread['median']} ms a move"
                    for side, spread in report.get("ms_a_move", {}).items() if spread)
    return (f"{report['agent']} vs {report['opponent']} ({report['players']}p): "
            f"{report['wins']:g}/{report['games']} = {report['win_rate']:.3f} [{lo:.3f}, {hi:.3f}], "
            f"mean margin {report['mean_margin']:+.2f}, {by_seat}; {report['seconds']} s{times}")


# ---- command line ---------------------------------------------------------------------

def parse_options(game_name, items):
    """``KEY=VALUE`` game options; a yes/no option takes yes or no."""
    known = get_game(game_name).options
    options = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or key not in known or key == "players":
            raise OptionError(f"--option expects KEY=VALUE with KEY one of "
                              f"{', '.join(k for k in known if k != 'players')}, not '{item}'")
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
            baseline = Baseline.of_commit(args.baseline)
    try:
        report, _ = match(args.game, args.a, args.b, args.games, seed=args.seed, players=args.players,
                          options=options, baseline=baseline)
    finally:
        if baseline:
            baseline.close()
    report = {"command": "python bench/versus.py " + " ".join(sys.argv[1:]), "game": args.game,
              "options": options, "seed": args.seed,
              "baseline": (args.baseline_dir or args.baseline) if uses_base else None,
              **report, "machine": machine()}
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
