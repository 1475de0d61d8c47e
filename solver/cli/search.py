"""best and solve: a search of POS, its options checked and filled in, its report printed
as text (``tessera.cli.printing``) or JSON."""
import json
import secrets

import click

from tessera.cli.printing import best_text, solve_text
from tessera.cli.progress import fraction, progress_bar, progress_wanted
from tessera.cli.reading import POSITION_HELP, check_complete, check_observer_acts, load_position
from tessera.cli.startup import compile_note
from tessera.errors import TesseraError

ALGOS = ("mcts", "alphabeta", "solve")
DEFAULT_ITERATIONS = 10_000
MAX_SEARCH_SEED = 2**32 - 1
NOT_PROVEN = 3                  # exit code of `solve` when its time limit ran out first
DEFAULT_TOP = 10                # moves `best` prints; its JSON has them all


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--iterations", "-n", type=int,
              help=f"MCTS simulations, shared by the threads [default: {DEFAULT_ITERATIONS} unless --time"
                   " is given]")
@click.option("--time", "-t", "time_limit", type=float,
              help="seconds to search (with --iterations too: whichever ends first)")
@click.option("--algo", default="mcts", show_default=True, metavar="[mcts|alphabeta|solve]",
              help="MCTS, depth-limited alpha-beta, or the exact solver")
@click.option("--depth", "-d", type=int,
              help="alpha-beta plies [default: deepen until --time, else to the end of the round]")
@click.option("--threads", type=int,
              help="search threads (MCTS: on one tree; reproducible with 1) [default: the cores this process may use]")
@click.option("--seed", type=int, help="MCTS seed [default: a random one, shown in the output]")
@click.option("--value", metavar="[win|margin|blend]",
              help="MCTS: what a node's value is [default: blend for Azul, margin for the others]")
@click.option("--select", metavar="[uct|puct]", help="MCTS: the selection rule [default: puct]")
@click.option("--rollout", metavar="[random|greedy|round]",
              help="MCTS: the rollout policy [default: greedy]")
@click.option("--exploration", "-c", type=float,
              help="MCTS: the exploration constant [default: Azul 2.0, Azure 0.7, the others 1.4]")
@click.option("--memory", type=float,
              help="MCTS: MB for the trees of all threads; a full tree frees its least visited"
                   " parts and keeps growing [default: 1024]")
@click.option("--progress/--no-progress", default=None,
              help="a progress bar on stderr [default: when stderr is a terminal]")
@click.option("--top", type=int, default=DEFAULT_TOP, show_default=True,
              help="how many of the best moves to print; 0 for all (JSON has every move)")
@click.option("--json", "as_json", is_flag=True,
              help="print the result as JSON (docs/best.schema.json)")
def best(pos, iterations, time_limit, algo, depth, threads, seed, value, select, rollout,
         exploration, memory, progress, top, as_json):
    """Rank every move of POS by a search: visits, value, bounds, prior and line.

    The text shows the --top moves, each line cut to the terminal's width; --json
    gives every move with its whole line.

    Values are for the player to move: win rate (winners share 1), mean score
    margin (own score less the best other), the win rate's lower 95% bound (LCB),
    and the exact value where a move is proven. Ctrl-C stops an MCTS search and
    prints what it found so far. docs/search.md describes the searches and the JSON.
    """
    mcts_settings = {"threads": threads, "seed": seed, "value": value, "select": select,
                     "rollout": rollout, "exploration": exploration, "memory": memory}
    _check_search_options(algo, iterations, time_limit, depth, mcts_settings)
    if top < 0:
        raise TesseraError(f"--top must be 0 (every move) or more, not {top}")
    game, state = load_position(pos)
    _check_searchable(state)
    check_observer_acts(game, state)
    if algo != "mcts":
        check_complete(state, f"best --algo {algo}")
    show_progress = progress_wanted(progress)
    if algo == "mcts":
        settings = _mcts_settings(iterations, time_limit, mcts_settings)
        result, interrupted = _search_mcts(state, settings, show_progress)
    elif algo == "alphabeta":
        settings = {"depth": depth, "time": time_limit, "mode": _search_mode(state)}
        result, interrupted = _search_alphabeta(state, depth, time_limit, show_progress), False
    else:
        settings = {"time": time_limit, "mode": _search_mode(state)}
        result, interrupted = _solve(state, time_limit, show_progress), False
    compile_note(result)
    from tessera.search.report import search_report
    report = search_report("best", game, state, result, settings, interrupted)
    if as_json:
        click.echo(json.dumps(report))
    else:
        from rich.console import Console
        console = Console()
        for part in best_text(report, top):
            console.print(part, highlight=False)


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--time", "-t", "time_limit", type=float,
              help="give up after this many seconds [default: no limit]")
@click.option("--progress/--no-progress", default=None,
              help="a progress bar on stderr [default: when stderr is a terminal]")
@click.option("--json", "as_json", is_flag=True,
              help="print the result as JSON (docs/best.schema.json)")
def solve(pos, time_limit, progress, as_json):
    """The exact value of POS for the player to move, its best moves and line.

    When the game ends in the current round the value is the final score margin
    (own score less the best other) and the result: win, draw or loss. Otherwise
    it is the exact margin at the end of the round, by the scores there: this
    round's scoring counted, nothing for later rounds or the end of the game
    (docs/search.md). If --time runs out first the value is not proven: the
    output says so and the exit code is 3.
    """
    _check_time(time_limit)
    game, state = load_position(pos)
    _check_searchable(state)
    check_complete(state, "solve")
    result = _solve(state, time_limit, progress_wanted(progress))
    compile_note(result)
    from tessera.search.report import search_report
    report = search_report("solve", game, state, result,
                     {"time": time_limit, "mode": _search_mode(state)}, False)
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(solve_text(report))
    if not report["proven"]:
        click.get_current_context().exit(NOT_PROVEN)


# ---- checking the options ------------------------------------------------------------

def _check_search_options(algo, iterations, time_limit, depth, mcts_settings):
    if algo not in ALGOS:
        raise TesseraError(f"unknown --algo '{algo}' (known: {', '.join(ALGOS)})")
    if algo != "mcts":
        given = [name for name, value in mcts_settings.items() if value is not None]
        if iterations is not None:
            given.insert(0, "iterations")
        if given:
            raise TesseraError(f"--{given[0]} is an MCTS option; --algo {algo} does not take it")
    if depth is not None and algo != "alphabeta":
        raise TesseraError(f"--depth is an alpha-beta option; --algo {algo} does not take it")
    if iterations is not None and iterations < 1:
        raise TesseraError(f"--iterations must be at least 1, not {iterations}")
    if depth is not None and depth < 1:
        raise TesseraError(f"--depth must be at least 1, not {depth}")
    if mcts_settings["threads"] is not None and mcts_settings["threads"] < 1:
        raise TesseraError(f"--threads must be at least 1, not {mcts_settings['threads']}")
    if mcts_settings["memory"] is not None and not mcts_settings["memory"] > 0:
        raise TesseraError(f"--memory must be more than 0 MB, not {mcts_settings['memory']:g}")
    seed = mcts_settings["seed"]
    if seed is not None and not 0 <= seed <= MAX_SEARCH_SEED:
        raise TesseraError(f"--seed must be from 0 to {MAX_SEARCH_SEED}, not {seed}")
    _check_time(time_limit)


def _check_time(time_limit):
    if time_limit is not None and not time_limit > 0:
        raise TesseraError(f"--time must be more than 0 seconds, not {time_limit}")


def _check_searchable(state):
    from tessera.kernels import games
    who = games.to_move(state)
    if who == games.TERMINAL:
        raise TesseraError("the game is over: there is no move to search")
    if who == games.CHANCE:
        raise TesseraError("chance acts in this position (a refill): there is no move to choose")


# ---- running the searches ------------------------------------------------------------

def _mcts_settings(iterations, time_limit, given):
    """The MCTS options in full, defaults filled in, as they go into the JSON."""
    from tessera.cores import available_cores
    from tessera.search.mcts import MctsOptions
    from tessera.search.report import memory_mb
    defaults = MctsOptions()
    settings = {"iterations": iterations, "time": time_limit}
    if iterations is None and time_limit is None:
        settings["iterations"] = DEFAULT_ITERATIONS
    settings["threads"] = given["threads"] or available_cores()
    settings["seed"] = secrets.randbelow(2**31) if given["seed"] is None else given["seed"]
    for name in ("value", "select", "rollout", "exploration"):
        settings[name] = getattr(defaults, name) if given[name] is None else given[name]
    settings["memory"] = memory_mb(defaults) if given["memory"] is None else given["memory"]
    return settings


def _search_mcts(state, settings, show_progress):
    """(result, interrupted): Ctrl-C ends the search early with the tree it has grown.

    A player's view (hidden cards) is searched by information-set MCTS, which
    samples what the player cannot see (docs/hidden-information.md).
    """
    from tessera.kernels import games
    from tessera.search.ismcts import Ismcts
    from tessera.search.mcts import MB, Mcts, MctsOptions
    options = MctsOptions(iterations=settings["iterations"], time_limit=settings["time"],
                          threads=settings["threads"], seed=settings["seed"],
                          value=settings["value"], select=settings["select"],
                          rollout=settings["rollout"], exploration=settings["exploration"],
                          memory=int(settings["memory"] * MB))
    with progress_bar(show_progress, limited=True) as show:
        report = None if show is None else (lambda done, _, seconds: show(
            f"MCTS {done:,} simulations",
            fraction(done, options.iterations, seconds, options.time_limit)))
        searcher = Mcts(options) if games.is_complete(state) else Ismcts(options)
        result = searcher.search(state, report)
    return result, result.interrupted


def _search_alphabeta(state, depth, time_limit, show_progress):
    from tessera.search.alphabeta import search_alphabeta
    with progress_bar(show_progress, limited=depth is not None or time_limit is not None) as show:
        report = None if show is None else (lambda reached, nodes, seconds: show(
            f"alpha-beta depth {reached}, {nodes:,} nodes",
            fraction(reached, depth, seconds, time_limit)))
        return search_alphabeta(state, depth=depth, time_limit=time_limit, progress=report)


def _solve(state, time_limit, show_progress):
    from tessera.search.alphabeta import solve as solve_exactly
    with progress_bar(show_progress, limited=time_limit is not None) as show:
        report = None if show is None else (lambda reached, nodes, seconds: show(
            f"solving: depth {reached}, {nodes:,} nodes", fraction(0, None, seconds, time_limit)))
        return solve_exactly(state, time_limit=time_limit, progress=report)


def _search_mode(state):
    from tessera.search.alphabeta import search_mode
    return search_mode(state)
