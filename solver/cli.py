"""The ``tessera`` command line: new, show, view, moves, play, perft, bench, best, solve,
analyze, serve, selfplay and stats.

Every user error ends the same way: one line ``error: ...`` on stderr and exit
code 2 (``TesseraGroup``); click's own usage errors keep click's message and its
exit code, also 2. Kernels and notation are imported inside the commands, so help
pages and option errors do not pay for loading numba.
"""
import json
import os
import secrets
import select
import sys
import time
from contextlib import contextmanager

import click

import tessera
from tessera.kernels import patches
from tessera.kernels.boarddata import BoardDataError
from tessera.bench import BENCH_DEPTH, bench_states
from tessera.errors import MoveError, TesseraError
from tessera.games import game_of_position, get_game, registered_games

USER_ERROR = 2
POSITION_HELP = ("POS is a position: a file, '-' for stdin, or the position itself (text, with"
                 " ';' or newlines between its lines, or JSON).")


class TesseraGroup(click.Group):
    """The one place where user errors become ``error: ...`` lines."""

    def invoke(self, ctx):
        try:
            with _scipy_hidden():
                return super().invoke(ctx)
        except (TesseraError, BoardDataError) as err:
            click.echo("error: " + " ".join(str(err).split()), err=True)
            ctx.exit(USER_ERROR)


@contextmanager
def _scipy_hidden():
    """Keep numba from importing scipy while a command runs.

    On its first compile or cache load numba imports scipy only to see whether BLAS
    is there (about 0.6 s, a third of a warm start); the kernels use no linear
    algebra. scipy is importable again afterwards. One of the patches
    ``tessera.kernels.patches`` lists: where they are off, numba imports scipy.
    """
    if "scipy" in sys.modules or not patches.interpreter_patches():
        yield
        return
    sys.modules["scipy"] = None             # makes `import scipy...` raise ImportError
    try:
        yield
    finally:
        if "scipy" in sys.modules and sys.modules["scipy"] is None:
            del sys.modules["scipy"]


@click.group(cls=TesseraGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=POSITION_HELP)
@click.version_option(tessera.__version__, "--version", "-V", prog_name="tessera",
                      message="%(prog)s %(version)s")
def main():
    """Tessera: positions, moves, perft, search and self-play for Azul, Azul: Summer
    Pavilion and Azure."""


# ---- reading positions ---------------------------------------------------------------

def load_position(pos):
    """(game, state) of POS: a file path, '-' for stdin, or the position text itself."""
    if pos == "-":
        return game_of_position(_nonempty(_utf8(_stdin_after_shared_kernels(), "stdin"), "stdin"))
    if os.path.isdir(pos):
        raise TesseraError(f"{pos} is a directory, not a position")
    if os.path.isfile(pos):
        return game_of_position(_nonempty(_read_file(pos), pos))
    try:
        return game_of_position(pos)
    except TesseraError:
        # One word that is not JSON was most likely meant as a file name.
        if len(pos.split()) == 1 and not pos.lstrip().startswith("{"):
            raise TesseraError(f"'{pos}' is neither a file nor a position") from None
        raise


def _read_file(path):
    try:
        with open(path, "rb") as file:
            return _utf8(file.read(), path)
    except OSError as err:
        raise TesseraError(f"cannot read {path}: {err.strerror}") from None


def _stdin_after_shared_kernels():
    """All of stdin. While the input has not come, the kernels every search shares are
    loaded from numba's cache or compiled (``tessera.kernels.shared``); the first of them sets
    up what every later load or compile needs.

    In a pipe (``tessera new azul | tessera best -``) the writer, itself starting numba,
    sends the position only when it is done: this work runs meanwhile on the other core,
    and the position waits in the pipe."""
    from tessera.kernels.shared import prepare
    if sys.stdin is None:
        raise TesseraError("stdin is closed (expected a position)")
    prepare(until=_stdin_has_input)
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError) as err:      # e.g. a closed or unreadable stream
        raise TesseraError(f"stdin could not be read ({err})") from None


def _stdin_has_input():
    """Whether stdin has input waiting (or its end): a read would not block."""
    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):       # not a selectable stream: do not wait on it
        return True


def _utf8(data, source):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TesseraError(f"cannot read {source}: not UTF-8 text") from None


def _nonempty(text, source):
    if not text.strip():
        raise TesseraError(f"{source} is empty (expected a position)")
    return text


def _echo_position(game, state, as_json):
    if as_json:
        click.echo(json.dumps(game.position_to_json(state)))
    else:
        click.echo(game.format_position(state))


def _scores(state):
    import numpy as np
    from tessera.kernels import games
    out = np.zeros(games.players(state), np.int64)
    games.scores(state, out)
    return [int(score) for score in out]


def _counted(n, noun):
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _check_depth(depth):
    if depth < 0:
        raise TesseraError(f"--depth must be 0 or more, not {depth}")


# ---- new -----------------------------------------------------------------------------

class NewCommands(click.Group):
    """``tessera new GAME``: a subcommand per registered game, with that game's options."""

    def list_commands(self, ctx):
        return sorted(registered_games())

    def get_command(self, ctx, name):
        return _new_command(get_game(name))     # an unknown game names the known ones


def _new_command(game):
    params = [
        click.Option(["--seed"], type=int,
                     help="seed for the chance that sets the game up (default: a random one)"),
        click.Option(["--json", "as_json"], is_flag=True, help="print the position as JSON"),
    ]
    for name, (kind, default, help_text) in game.options.items():
        if kind is bool:
            params.append(click.Option([f"--{name}"], is_flag=True, default=default, help=help_text))
            continue
        # Choices go to the game unchecked, so a bad one gets the game's one-line error.
        metavar = f"[{'|'.join(kind)}]" if isinstance(kind, tuple) else None
        params.append(click.Option([f"--{name}"], type=str if metavar else kind, metavar=metavar,
                                   default=default, show_default=True, help=help_text))

    def new_position(seed, as_json, **options):
        seed = secrets.randbelow(2**31) if seed is None else seed
        _echo_position(game, game.new(seed, **options), as_json)

    return click.Command(game.name, params=params, callback=new_position,
                         help=f"Print a start position of {game.name}, chance drawn with --seed.")


main.add_command(NewCommands("new", help="Print a start position of GAME."))


# ---- show, moves, play ---------------------------------------------------------------

@main.command(epilog=POSITION_HELP)
@click.argument("pos")
def show(pos):
    """Draw the position POS."""
    from rich.console import Console
    game, state = load_position(pos)
    Console().print(game.render(state))


@main.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--player", "-p", "observer", type=int, required=True,
              help="whose view, counted from 1 (player 1 starts)")
@click.option("--json", "as_json", is_flag=True, help="print the view as JSON")
def view(pos, observer, as_json):
    """Print what one player knows of the complete position POS.

    In Azure a view keeps the player's own hand, the opponent's hand size and the
    cards of it that are public, and the hidden deck's size; `tessera best` on a
    view searches it with information-set MCTS. In Azul and Summer Pavilion nothing
    is hidden and the view is the position itself.
    """
    from tessera.kernels import games
    game, state = load_position(pos)
    if not games.is_complete(state):
        raise TesseraError("POS is already a player's view; a view is made from a complete position")
    seats = games.players(state)
    if not 1 <= observer <= seats:
        raise TesseraError(f"--player must be 1 to {seats}, not {observer}")
    _echo_position(game, game.view(state, observer - 1), as_json)


@main.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--json", "as_json", is_flag=True, help="print who acts and the moves as JSON")
def moves(pos, as_json):
    """List the legal moves of POS, one per line, after a line saying who acts.

    At a refill chance acts: each draw is listed with its probability.
    """
    import numpy as np
    from tessera.kernels import games
    game, state = load_position(pos)
    _check_observer_acts(game, state)
    codes = np.empty(games.max_moves(state), np.int64)
    probabilities = np.empty(games.max_moves(state), np.float64)
    who = games.to_move(state)
    if who == games.CHANCE:
        count = games.chance_outcomes(state, codes, probabilities)
        actor, heading = "chance", f"chance to draw: {_counted(count, 'outcome')}"
    elif who == games.TERMINAL:
        count = 0
        actor, heading = "nobody", "game over: no moves"
    else:
        count = games.legal_moves(state, codes)
        actor, heading = "player", f"player {who + 1} to move: {_counted(count, 'move')}"
    texts = [game.format_move(state, move) for move in codes[:count]]
    chances = [float(p) for p in probabilities[:count]] if actor == "chance" else None
    if as_json:
        listing = {"to_move": actor, "player": int(who) + 1 if actor == "player" else None,
                   "moves": texts}
        if chances:
            listing["probabilities"] = chances
        click.echo(json.dumps(listing))
        return
    click.echo(heading)
    for i, text in enumerate(texts):
        click.echo(f"{text}  p={chances[i]:.4f}" if chances else text)


@main.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.argument("move_texts", metavar="MOVE...", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True,
              help="print the moves, position and scores as one JSON object")
def play(pos, move_texts, as_json):
    """Play each MOVE in order from POS and print the new position.

    Quote each move: tessera play POS "F1 blue 3" "C red floor". The position goes
    to stdout and the score changes to stderr, so the output can be piped on.
    """
    from tessera.kernels import games
    game, state = load_position(pos)
    _check_complete(state, "play")
    before = _scores(state)
    played = []
    for i, text in enumerate(move_texts, 1):
        try:
            move = game.parse_move(state, text)
        except MoveError as err:
            raise TesseraError(f"move {i} of {len(move_texts)}: {err}") from None
        played.append(game.format_move(state, move))
        games.apply_move(state, move)
    after = _scores(state)
    changes = [new - old for old, new in zip(before, after)]
    if as_json:
        click.echo(json.dumps({"moves": played, "position": game.position_to_json(state),
                               "scores": after, "score_changes": changes}))
        return
    click.echo(game.format_position(state))
    click.echo("score changes: " + ", ".join(
        f"player {p} {change:+d} (now {score})"
        for p, (change, score) in enumerate(zip(changes, after), 1)), err=True)


# ---- perft and bench -----------------------------------------------------------------

@main.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--depth", "-d", type=int, required=True, help="plies to count, 0 or more")
@click.option("--divide", is_flag=True, help="also print the count below each root move")
def perft(pos, depth, divide):
    """Count the move paths of --depth plies from POS.

    Perft stops at chance steps: a path that reaches a refill or the end of the game
    counts as one leaf, whatever depth is left, so it measures move generation and
    never the bag.
    """
    import numpy as np
    from tessera.kernels import bind, games
    _check_depth(depth)
    game, state = load_position(pos)
    _check_complete(state, "perft")
    kernels = bind.instance(state[0], "perft")
    count_paths, perft_divide = kernels.perft, kernels.perft_divide
    dividing = divide and depth > 0 and games.to_move(state) >= 0   # else no root moves
    if dividing:
        counts = np.zeros(games.max_moves(state), np.int64)
        codes = np.empty(games.max_moves(state), np.int64)
        perft_divide(state, 1, counts)          # load the kernel before timing it
        start = time.perf_counter()
        count = perft_divide(state, depth, counts)
        elapsed = time.perf_counter() - start
        games.legal_moves(state, codes)         # perft_divide's counts follow this order
        for move, nodes in zip(codes[:count], counts[:count]):
            click.echo(f"{game.format_move(state, move)}: {nodes}")
        nodes = int(counts[:count].sum())
        click.echo()
    else:
        count_paths(state, 0)
        start = time.perf_counter()
        nodes = int(count_paths(state, depth))
        elapsed = time.perf_counter() - start
    click.echo(f"nodes {nodes}")
    click.echo(f"time {elapsed:.3f} s")
    click.echo(f"nodes/s {_rate(nodes, elapsed)}")


def _rate(nodes, seconds):
    return f"{nodes / seconds:.0f}" if seconds > 0 else "-"


@main.command()
@click.option("--depth", "-d", type=int, default=BENCH_DEPTH, show_default=True,
              help="perft depth")
def bench(depth):
    """Perft on a fixed list of positions (solver/bench.py), for speed and correctness.

    Prints nodes and time per position, then the totals and the signature: the total
    node count, the same on every run and machine at a given depth. It changes only
    when move generation (or the seeded sampling that builds the positions) changes.
    """
    from tessera.kernels import bind
    _check_depth(depth)
    total_nodes, total_time = 0, 0.0
    positions = bench_states()
    width = max(len(label) for label, _ in positions)
    for i, (label, state) in enumerate(positions, 1):
        count_paths = bind.instance(state[0], "perft").perft
        count_paths(state, 0)
        start = time.perf_counter()
        nodes = int(count_paths(state, depth))
        elapsed = time.perf_counter() - start
        total_nodes += nodes
        total_time += elapsed
        click.echo(f"{i:>2} {label:<{width}} {nodes:>12} nodes {elapsed:>8.3f} s")
    click.echo()
    click.echo(f"depth {depth}")
    click.echo(f"nodes {total_nodes}")
    click.echo(f"time {total_time:.3f} s")
    click.echo(f"nodes/s {_rate(total_nodes, total_time)}")
    click.echo(f"signature {total_nodes}")


@main.command()
@click.argument("names", metavar="[GAME]...", nargs=-1)
@click.option("--progress/--no-progress", default=None,
              help="a progress bar on stderr [default: when stderr is a terminal]")
def warmup(names, progress):
    """Compile the kernels of each GAME (default: every game) into numba's cache.

    Commands compile the kernels they use on first use and cache them; warmup does it
    ahead of time, for a container image or a cluster worker, so that every later
    command starts from the cache (set NUMBA_CACHE_DIR to choose where it goes).
    """
    from tessera.warmup import warm
    with _progress_bar(_progress_wanted(progress), limited=True) as show:
        warmed = warm(names, None if show is None else
                      (lambda description, done, total: show(description, done / total)))
    for game in warmed:
        how = (f"compiled in {game.compile_seconds:.1f} s" if game.compile_seconds > 0
               else "already in the cache")
        click.echo(f"{game.game}: {how} ({game.seconds:.1f} s in all)")


# ---- best and solve ------------------------------------------------------------------

ALGOS = ("mcts", "alphabeta", "solve")
DEFAULT_ITERATIONS = 10_000
MAX_SEARCH_SEED = 2**32 - 1
NOT_PROVEN = 3                  # exit code of `solve` when its time limit ran out first
DEFAULT_TOP = 10                # moves `best` prints; its JSON has them all
MCTS_ALGOS = ("mcts", "ismcts")   # the report's algo: ismcts on a player's view


@main.command(epilog=POSITION_HELP)
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
    _check_observer_acts(game, state)
    if algo != "mcts":
        _check_complete(state, f"best --algo {algo}")
    show_progress = _progress_wanted(progress)
    if algo == "mcts":
        settings = _mcts_settings(iterations, time_limit, mcts_settings)
        result, interrupted = _search_mcts(state, settings, show_progress)
    elif algo == "alphabeta":
        settings = {"depth": depth, "time": time_limit, "mode": _search_mode(state)}
        result, interrupted = _search_alphabeta(state, depth, time_limit, show_progress), False
    else:
        settings = {"time": time_limit, "mode": _search_mode(state)}
        result, interrupted = _solve(state, time_limit, show_progress), False
    _compile_note(result)
    from tessera.search.report import search_report
    report = search_report("best", game, state, result, settings, interrupted)
    if as_json:
        click.echo(json.dumps(report))
    else:
        _print_best(report, top)


@main.command(epilog=POSITION_HELP)
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
    _check_complete(state, "solve")
    result = _solve(state, time_limit, _progress_wanted(progress))
    _compile_note(result)
    from tessera.search.report import search_report
    report = search_report("solve", game, state, result,
                     {"time": time_limit, "mode": _search_mode(state)}, False)
    if as_json:
        click.echo(json.dumps(report))
    else:
        _print_solve(report)
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


def _check_complete(state, command):
    """The rules play out only on complete positions: a view hides what they need."""
    from tessera.kernels import games
    if not games.is_complete(state):
        raise TesseraError(f"{command} needs a complete position; this is a player's view, which "
                           "hides the opponent's cards and the hidden deck")


def _check_observer_acts(game, state):
    """On a view, only the observer's own moves are known."""
    from tessera.kernels import games
    observer = game.observer(state)
    who = games.to_move(state)
    if observer is not None and who not in (observer, games.TERMINAL):
        actor = "chance" if who == games.CHANCE else f"player {who + 1}"
        raise TesseraError(f"in player {observer + 1}'s view {actor} acts: its moves depend on "
                           "cards the view hides")


def _progress_wanted(flag):
    return sys.stderr.isatty() if flag is None else flag


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
    with _progress_bar(show_progress, limited=True) as show:
        report = None if show is None else (lambda done, _, seconds: show(
            f"MCTS {done:,} simulations",
            _fraction(done, options.iterations, seconds, options.time_limit)))
        searcher = Mcts(options) if games.is_complete(state) else Ismcts(options)
        result = searcher.search(state, report)
    return result, result.interrupted


def _search_alphabeta(state, depth, time_limit, show_progress):
    from tessera.search.alphabeta import search_alphabeta
    with _progress_bar(show_progress, limited=depth is not None or time_limit is not None) as show:
        report = None if show is None else (lambda reached, nodes, seconds: show(
            f"alpha-beta depth {reached}, {nodes:,} nodes",
            _fraction(reached, depth, seconds, time_limit)))
        return search_alphabeta(state, depth=depth, time_limit=time_limit, progress=report)


def _solve(state, time_limit, show_progress):
    from tessera.search.alphabeta import solve as solve_exactly
    with _progress_bar(show_progress, limited=time_limit is not None) as show:
        report = None if show is None else (lambda reached, nodes, seconds: show(
            f"solving: depth {reached}, {nodes:,} nodes", _fraction(0, None, seconds, time_limit)))
        return solve_exactly(state, time_limit=time_limit, progress=report)


def _compile_note(result):
    """A line of its own on stderr when the search's kernels were compiled (the first run):
    the compile is not in the search's time and rate."""
    if result.compile_seconds > 0:
        click.echo(f"compiled the search kernels in {result.compile_seconds:.1f} s before searching "
                   "(numba caches them: `tessera warmup` does it ahead of time)", err=True)


def _fraction(done, budget, seconds, time_limit):
    """How far a search is through its budget: the larger of its two shares, at most 1."""
    shares = [done / budget if budget else 0.0, seconds / time_limit if time_limit else 0.0]
    return min(1.0, max(shares))


@contextmanager
def _progress_bar(enabled, limited):
    """``show(description, fraction)`` driving a bar on stderr, or None when not wanted.

    Without a budget (``limited`` False) the bar only pulses.
    """
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("searching", total=1.0 if limited else None)

        def show(description, fraction):
            bar.update(task, description=description, completed=fraction)
        yield show


# ---- reporting -----------------------------------------------------------------------

def _search_mode(state):
    from tessera.search.alphabeta import search_mode
    return search_mode(state)


def _print_best(report, top):
    """The summary and the ``top`` best moves (0: all), each line cut to the width."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text
    root = report["root"]
    console = Console()
    console.print(_root_summary(report), highlight=False)
    moves = report["moves"][:top or None]
    table = Table(box=None, pad_edge=False)
    columns = [("#", "right"), ("move", "left"),
               ("visits" if report["algo"] in MCTS_ALGOS else "nodes", "right")]
    optional = [("win_rate", "win %"), ("margin", "margin"), ("lcb", "LCB %"),
                ("prior", "prior %"), ("exact", "exact")]
    shown = [(key, title) for key, title in optional if any(m[key] is not None for m in moves)]
    for title, justify in columns + [(title, "right") for _, title in shown]:
        table.add_column(title, justify=justify, no_wrap=True)
    # The one wrappable column, so the line is what narrows to the width; each cell
    # itself does not wrap, so it is cut with an ellipsis.
    table.add_column("PV")
    for rank, move in enumerate(moves, 1):
        cells = [str(rank), move["move"], f"{move['visits']:,}"]
        cells += [_cell(key, move[key], report["settings"].get("mode")) for key, _ in shown]
        table.add_row(*cells, Text(", ".join(move["pv"]), no_wrap=True, overflow="ellipsis"))
    console.print(table, highlight=False)
    if len(moves) < len(report["moves"]):
        console.print(f"the best {len(moves)} of {len(report['moves'])} moves"
                      " (--top 0 for all)", highlight=False)
    if root["exact"] is not None:
        console.print("exact value: " + _exact_text(root["exact"], report["settings"].get("mode")),
                      highlight=False)


def _root_summary(report):
    root, settings = report["root"], report["settings"]
    value = [f"margin {_signed(root['margin'])}"]
    if root["win_rate"] is not None:
        value.insert(0, f"win {100 * root['win_rate']:.1f}%")
    lines = [
        f"{report['game']} · player {report['player']} to move · "
        f"position hash {report['position_hash']}",
        f"algo {report['algo']} · threads {root['threads']}"
        + (f" · seed {settings['seed']}" if "seed" in settings else "")
        + (f" · depth {root['depth']}" if root["depth"] is not None else ""),
        "value: " + ", ".join(value) + _proof_note(report),
        f"{_counted(root['visits'], 'visit' if report['algo'] in MCTS_ALGOS else 'node')} in "
        f"{root['seconds']:.2f} s · {root['nodes_per_second']:,.0f} nodes/s",
    ]
    if report["interrupted"]:
        lines.append("interrupted: the figures are those of the search so far")
    return "\n".join(lines)


def _proof_note(report):
    """Whether an alpha-beta value is exact or the estimate of a search cut short."""
    if report["algo"] in MCTS_ALGOS:
        return ""
    if report["proven"]:
        return " (exact)"
    return f" (an estimate: not proven at depth {report['root']['depth']})"


def _cell(key, value, mode):
    if value is None:
        return "-"
    if key == "margin":
        return _signed(value)
    if key == "exact":
        return _exact_text(value, mode, short=True)
    return f"{100 * value:.1f}"


def _signed(number):
    return f"{number:+.0f}" if float(number).is_integer() else f"{number:+.2f}"


def _exact_text(exact, mode, short=False):
    """A proven value: a score margin (round mode), a result or a win probability (game mode)."""
    margin = _signed(exact["margin"])
    if exact["horizon"] == "round":
        return f"{margin} round" if short else \
            f"{margin} at the end of the round (the game goes on; docs/search.md)"
    if mode != "game":
        return f"{margin} {exact['result']}" if short else \
            f"{margin}, a {exact['result']} (the game ends within the line)"
    if exact["result"] is None:
        chance = f"{100 * exact['win_rate']:.1f}%"
        return f"win {chance}" if short else \
            f"a win probability of {chance} with best play (the draws decide)"
    return exact["result"] if short else f"a {exact['result']} with best play, whatever is drawn"


def _estimate_text(line, mode):
    """An unproven value: the win probability (game mode) or the searched margin."""
    if mode == "game":
        return f"win probability {100 * line['win_rate']:.1f}%"
    return f"margin {_signed(line['margin'])}"


def _print_solve(report):
    root = report["root"]
    lines = [f"{report['game']} · player {report['player']} to move · "
             f"position hash {report['position_hash']}"]
    if report["proven"]:
        best_moves = report["best_moves"]
        lines.append("exact value: " + _exact_text(root["exact"], report["settings"]["mode"]))
        lines.append(("best move: " if len(best_moves) == 1 else "best moves: ")
                     + ", ".join(best_moves))
    else:
        lines.append(f"not proven: the time limit of {report['settings']['time']:g} s ran out"
                     " before the value was proven")
        if report["moves"]:
            found = report["moves"][0]
            lines.append(f"best move found: {found['move']}, "
                         f"{_estimate_text(found, report['settings']['mode'])} (an estimate)")
    lines.append("line: " + (", ".join(report["pv"]) or "-"))
    lines.append(f"{_counted(root['visits'], 'node')} in {root['seconds']:.2f} s · "
                 f"{root['nodes_per_second']:,.0f} nodes/s")
    click.echo("\n".join(lines))


# ---- analyze -------------------------------------------------------------------------

@main.command()
@click.option("--threads", type=int, default=1, show_default=True,
              help="search processes: how many queries run at once")
@click.option("--warm", "warm_names", multiple=True, metavar="GAME",
              help="load this game's kernels before the first query (repeat it; 'all': every "
                   "game); other games load when a query first needs them")
@click.option("--max-line-bytes", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="a longer input line is answered with an error, not read")
def analyze(threads, warm_names, max_line_bytes):
    """Serve JSON queries from stdin, one per line, with JSON answers on stdout.

    Runs until stdin closes (every query is answered) or SIGTERM. docs/analyze.md
    describes the queries and answers.
    """
    if threads < 1:
        raise TesseraError(f"--threads must be at least 1, not {threads}")
    warm = sorted(registered_games()) if "all" in warm_names else \
        list(dict.fromkeys(get_game(name).name for name in warm_names))
    from tessera.analysis.engine import run
    click.get_current_context().exit(run(threads, sys.stdin, sys.stdout, warm, max_line_bytes))


# ---- serve ---------------------------------------------------------------------------

@main.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on (another than loopback opens the board to the "
                   "network, behind a token)")
@click.option("--open", "open_page", is_flag=True, help="open the page in a web browser")
@click.option("--searches", type=click.IntRange(1, 8), default=2, show_default=True,
              help="analysis processes: how many pages can search at once")
@click.option("--runs", "runs", multiple=True, metavar="DIR",
              help="a directory whose self-play run folders the page may open (repeat it; "
                   "default: the current directory)")
@click.option("--token", envvar="TESSERA_TOKEN", default=None,
              help="a secret every request must carry (the page gets it from ?token= in its "
                   "address); made up when --host is not loopback [env: TESSERA_TOKEN]")
@click.option("--memory", "memory_mb", type=click.IntRange(1), default=None, metavar="MB",
              help="memory for the trees of all searches together  [default: 2048]")
@click.option("--idle", type=click.FloatRange(0, min_open=True), default=None, metavar="SECONDS",
              help="drop the searches' kept trees after this long without a search  [default: 60]")
def serve(port, host, open_page, searches, runs, token, memory_mb, idle):
    """A local web page to set up, play and analyse positions of every game (docs/web.md)."""
    from tessera.web.serve import serve as run_server
    run_server(host, port, open_page, searches, runs, token, memory_mb, idle)


# ---- selfplay and stats --------------------------------------------------------------

FLAG_VALUES = {"yes": True, "true": True, "on": True, "1": True,
               "no": False, "false": False, "off": False, "0": False}


def _game_options(game, given):
    """``NAME=VALUE`` texts as the game's options, each converted as `tessera new` would."""
    options = {}
    for text in given:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise TesseraError(f"--option takes NAME=VALUE, not '{text}'")
        game.check_options([name])
        kind = game.options[name][0]
        if kind is bool:
            if value.lower() not in FLAG_VALUES:
                raise TesseraError(f"option {name} is yes or no, not '{value}'")
            options[name] = FLAG_VALUES[value.lower()]
        elif kind is int:
            try:
                options[name] = int(value)
            except ValueError:
                raise TesseraError(f"option {name} takes a whole number, not '{value}'") from None
        else:
            options[name] = value
    return options


INTERRUPTED = 130               # exit code of `selfplay` stopped by Ctrl-C (128 + SIGINT)


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--games", "-n", "count", type=int, required=True, help="games in the batch")
@click.option("--agents", "-a", "agent_list", required=True,
              help="comma-separated agent specs, e.g. random,greedy,mcts:iters=1000 "
                   "(a bare key=value continues the spec before it)")
@click.option("--players", type=int,
              help="players per game [default: the number of agents; one agent: the game's]")
@click.option("--variant", help="the game's variant, for a game that has variants")
@click.option("--option", "game_options", multiple=True, metavar="NAME=VALUE",
              help="any option of `tessera new GAME`, e.g. gifted=mighty or cosmos=yes (repeatable)")
@click.option("--seed", type=int, help="batch seed [default: a random one, kept in run.json]")
@click.option("--workers", "-j", type=int,
              help="1: this process, on every core; K: K worker processes sharing the cores;"
                   " with --cluster local, its Dask workers [default: one per core; 1 with "
                   "only random and greedy agents]")
@click.option("--cluster", metavar="ADDRESS|local",
              help="run the chunks on the Dask scheduler at ADDRESS, or on a LocalCluster")
@click.option("--chunk-size", type=int,
              help="games per chunk: one task, written as one file [default: 2000 with only "
                   "random and greedy agents, else 250; on --resume, the run's]")
@click.option("--out", "-o", "out_dir", required=True, help="directory for the records")
@click.option("--resume", is_flag=True,
              help="finish the run in --out, playing only what is missing")
@click.option("--progress/--no-progress", default=None,
              help="a progress bar on stderr [default: when stderr is a terminal]")
@click.option("--plots/--no-plots", default=True, show_default=True,
              help="write the PNG plots into --out at the end")
def selfplay(game_name, count, agent_list, players, variant, game_options, seed, workers, cluster,
             chunk_size, out_dir, resume, progress, plots):
    """Play a batch of GAME between agents, seats rotating, records to --out as Parquet.

    Random and greedy games run batched in numba; search agents (mcts, alphabeta)
    one game at a time in the worker processes. Ctrl-C keeps every finished chunk
    (exit code 130); --resume completes the batch. At the end the statistics of
    `tessera stats` are printed. docs/selfplay.md describes records and numbers.
    """
    from tessera.selfplay.chunk import all_batched
    from tessera.selfplay.plan import make_plan, split_agents
    from tessera.selfplay.rundir import stored_plan
    from tessera.selfplay.runner import choose_executor, run_selfplay
    game = get_game(game_name)
    agents = split_agents(agent_list)
    options = _game_options(game, game_options)
    if players is not None and options.get("players", players) != players:
        raise TesseraError(f"--players {players} and --option players={options['players']} disagree")
    if players is not None:
        options["players"] = players
    elif "players" in game.options and "players" not in options and len(agents) > 1:
        options["players"] = len(agents)         # one seat per agent unless told otherwise
    if variant is not None:
        options["variant"] = variant
    if workers is not None and workers < 1:
        raise TesseraError(f"--workers must be at least 1, not {workers}")
    if workers is not None and cluster not in (None, "local"):
        raise TesseraError("--workers is for this machine or --cluster local; "
                           "a Dask scheduler brings its own workers")
    stored = stored_plan(out_dir) if resume else None
    if seed is None:
        seed = stored.seed if stored else secrets.randbelow(2**31)
    if chunk_size is None and stored:
        chunk_size = stored.chunk_size
    plan = make_plan(game, options, agents, count, seed, chunk_size)
    executor = choose_executor(workers, cluster, all_batched(plan.agents))
    with _selfplay_progress(_progress_wanted(progress), plan.games) as show:
        result = run_selfplay(plan, out_dir, executor, resume=resume, progress=show)
    _print_selfplay_stats(out_dir, plan, result.outcomes, as_json=False, plots=plots)
    rate = result.played_now / result.seconds if result.seconds > 0 else 0.0
    click.echo(f"{result.played_now:,} games played in {result.seconds:.1f} s "
               f"({rate:,.0f} games/s); {result.games_done:,} of {plan.games:,} in {out_dir}",
               err=True)
    if result.interrupted:
        click.echo("interrupted: every finished chunk is kept; add --resume to finish", err=True)
        click.get_current_context().exit(INTERRUPTED)


@main.command()
@click.argument("out_dir", metavar="DIR")
@click.option("--json", "as_json", is_flag=True, help="print the statistics as JSON")
@click.option("--plots/--no-plots", default=True, show_default=True,
              help="write the PNG plots into DIR")
def stats(out_dir, as_json, plots):
    """The statistics of the self-play records in DIR (a --out of `tessera selfplay`).

    Wins, draws and losses per agent with Wilson 95% intervals, Bradley–Terry Elo
    ± 95%, score margins, seat advantage and game lengths; plots go to DIR.
    """
    from tessera.selfplay.rundir import checked_outcomes, load_plan
    plan = load_plan(out_dir)
    _print_selfplay_stats(out_dir, plan, checked_outcomes(out_dir, plan), as_json, plots)


def _print_selfplay_stats(out_dir, plan, outcomes, as_json, plots):
    """The report (or JSON) on stdout; the plots, or one line on stderr saying why not."""
    from tessera.selfplay.files import WriteError
    from tessera.selfplay.plots import write_plots
    from tessera.selfplay.report import format_report
    from tessera.selfplay.stats import summarize
    summary = summarize(outcomes, plan.labels())
    if plots and outcomes.games:
        try:
            write_plots(out_dir, outcomes, plan.labels(), summary)
        except WriteError as err:
            click.echo(f"warning: the plots were not written: {err}", err=True)
    if as_json:
        click.echo(json.dumps(summary))
        return
    options = " ".join(f"{name} {value}" for name, value in plan.options.items())
    title = (f"{plan.game} {options} · {outcomes.games:,} of {plan.games:,} games · "
             f"seed {plan.seed} · agents {', '.join(plan.labels())}")
    click.echo("\n".join(format_report(summary, title)))


@contextmanager
def _selfplay_progress(enabled, total):
    """``show(done, total, played_now, seconds)`` driving a bar on stderr, or None."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[eta]}"),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("self-play", total=total, rate="", eta="")

        def show(done, total, played_now, seconds):
            rate = played_now / seconds if seconds > 0 else 0.0
            eta = f"ETA {_clock((total - done) / rate)}" if rate > 0 else ""
            bar.update(task, completed=done, rate=f"{rate:,.0f} games/s", eta=eta)
        yield show


def _clock(seconds):
    minutes, seconds = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"
