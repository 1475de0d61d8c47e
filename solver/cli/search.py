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
from tessera.search.options import ALGOS, MCTS, MCTS_OPTIONS, OPTION, SOLVE, aliases, click_options
from tessera.search.request import SearchRequest

FLAGS = {option.name: flag for flag, option in aliases("cli").items()}  # visits: iterations
MAX_SEARCH_SEED = OPTION["seed"].maximum
NOT_PROVEN = 3  # exit code of `solve` when its time limit ran out first
DEFAULT_TOP = 10  # moves `best` prints; its JSON has them all


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click_options  # the search's options, from tessera.search.options
@click.option(
    "--progress/--no-progress", default=None, help="a progress bar on stderr [default: when stderr is a terminal]"
)
@click.option(
    "--top",
    type=int,
    default=DEFAULT_TOP,
    show_default=True,
    help="how many of the best moves to print; 0 for all (JSON has every move)",
)
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON (docs/best.schema.json)")
def best(pos, progress, top, as_json, **options):
    """Rank every move of POS by a search: visits, value, bounds, prior and line.

    The text shows the --top moves, each line cut to the terminal's width; --json
    gives every move with its whole line.

    Values are for the player to move: win rate (winners share 1), mean score
    margin (own score less the best other), the win rate's lower 95% bound (LCB),
    and the exact value where a move is proven. Ctrl-C stops an MCTS search and
    prints what it found so far. docs/search.md describes the searches and the JSON.
    """
    _check_search_options(options)
    if top < 0:
        raise TesseraError(f"--top must be 0 (every move) or more, not {top}")
    game, state = load_position(pos)
    _check_searchable(game, state)
    check_observer_acts(game, state)
    algo = options["algo"]
    if algo != MCTS:
        check_complete(state, f"best --algo {algo}")
    request = _request(options)
    result, settings = _run(state, request, progress_wanted(progress))
    compile_note(result)
    from tessera.search.report import search_report

    report = search_report("best", game, state, result, settings, result.interrupted)
    if as_json:
        click.echo(json.dumps(report))
    else:
        from rich.console import Console

        console = Console()
        for part in best_text(report, top):
            console.print(part, highlight=False)


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--time", "-t", "time_limit", type=float, help="give up after this many seconds [default: no limit]")
@click.option(
    "--progress/--no-progress", default=None, help="a progress bar on stderr [default: when stderr is a terminal]"
)
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON (docs/best.schema.json)")
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
    _check_searchable(game, state)
    check_complete(state, "solve")
    result, settings = _run(state, SearchRequest(algo=SOLVE, time=time_limit), progress_wanted(progress))
    compile_note(result)
    from tessera.search.report import search_report

    report = search_report("solve", game, state, result, settings, False)
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(solve_text(report))
    if not report["proven"]:
        click.get_current_context().exit(NOT_PROVEN)


# ---- checking the options ------------------------------------------------------------


def _check_search_options(options):
    """The command line's own checks, before the position is read (the searcher checks
    the rest: ``MctsOptions.check``)."""
    algo = options["algo"]
    if algo not in ALGOS:
        raise TesseraError(f"unknown --algo '{algo}' (known: {', '.join(ALGOS)})")
    if algo != MCTS:
        given = [option.name for option in MCTS_OPTIONS if options[option.name] is not None]
        if given:
            raise TesseraError(f"--{FLAGS[given[0]]} is an MCTS option; --algo {algo} does not take it")
    if options["depth"] is not None and algo not in OPTION["depth"].algos:
        raise TesseraError(f"--depth is an alpha-beta option; --algo {algo} does not take it")
    for name in ("visits", "depth", "threads"):
        if options[name] is not None and options[name] < 1:
            raise TesseraError(f"--{FLAGS[name]} must be at least 1, not {options[name]}")
    if options["memory"] is not None and not options["memory"] > 0:
        raise TesseraError(f"--memory must be more than 0 MB, not {options['memory']:g}")
    seed = options["seed"]
    if seed is not None and not 0 <= seed <= MAX_SEARCH_SEED:
        raise TesseraError(f"--seed must be from 0 to {MAX_SEARCH_SEED}, not {seed}")
    _check_time(options["time"])


def _check_time(time_limit):
    if time_limit is not None and not time_limit > 0:
        raise TesseraError(f"--time must be more than 0 seconds, not {time_limit}")


def _check_searchable(game, state):
    from tessera.position import Position

    position = Position(game, state)
    if position.is_over:
        raise TesseraError("the game is over: there is no move to search")
    if position.is_chance:
        raise TesseraError("chance acts in this position (a refill): there is no move to choose")


# ---- running the searches ------------------------------------------------------------


def _request(options):
    """The ``SearchRequest`` of the command's options; MCTS's threads default to the
    cores and its seed to a random one (shown in the output)."""
    from tessera.cores import available_cores

    given = {name: value for name, value in options.items() if value is not None}
    if options["algo"] == MCTS:
        given.setdefault("threads", available_cores())
        given.setdefault("seed", secrets.randbelow(2**31))
    return SearchRequest(**given)


def _run(state, request, show_progress):
    """(result, settings) of ``request`` with a progress bar on stderr if wanted. Ctrl-C
    ends an MCTS search early with the tree it has grown; a player's view (hidden cards)
    is searched by information-set MCTS (docs/hidden-information.md)."""
    from tessera.search.request import run_search

    budget = request.visit_budget if request.algo == MCTS else request.depth
    limited = request.algo == MCTS or budget is not None or request.time is not None
    with progress_bar(show_progress, limited=limited) as show:
        return run_search(state, request, None if show is None else _progress(request, budget, show))


def _progress(request, budget, show):
    """The search's progress callback, showing on the bar what the search has done."""
    if request.algo == MCTS:
        return lambda done, _, seconds: show(
            f"MCTS {done:,} simulations", fraction(done, budget, seconds, request.time)
        )
    if request.algo == SOLVE:
        return lambda reached, nodes, seconds: show(
            f"solving: depth {reached}, {nodes:,} nodes", fraction(0, None, seconds, request.time)
        )
    return lambda reached, nodes, seconds: show(
        f"alpha-beta depth {reached}, {nodes:,} nodes", fraction(reached, budget, seconds, request.time)
    )
