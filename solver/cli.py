"""The ``tessera`` command line: new, show, moves, play, perft and bench.

Every user error ends the same way: one line ``error: ...`` on stderr and exit
code 2 (``TesseraGroup``); click's own usage errors keep click's message and its
exit code, also 2. Kernels and notation are imported inside the commands, so help
pages and option errors do not pay for loading numba.
"""
import json
import os
import secrets
import sys
import time
from contextlib import contextmanager

import click

from solver.bench import BENCH_DEPTH, bench_states
from solver.errors import MoveError, TesseraError
from solver.games import game_of_position, get_game, registered_games

USER_ERROR = 2
POSITION_HELP = ("POS is a position: a file, '-' for stdin, or the position itself (text, with"
                 " ';' or newlines between its lines, or JSON).")


class TesseraGroup(click.Group):
    """The one place where user errors become ``error: ...`` lines."""

    def invoke(self, ctx):
        try:
            with _scipy_hidden():
                return super().invoke(ctx)
        except TesseraError as err:
            click.echo("error: " + " ".join(str(err).split()), err=True)
            ctx.exit(USER_ERROR)


@contextmanager
def _scipy_hidden():
    """Keep numba from importing scipy while a command runs.

    On its first compile or cache load numba imports scipy only to see whether BLAS
    is there (about 0.6 s, a third of a warm start); the kernels use no linear
    algebra. scipy is importable again afterwards.
    """
    if "scipy" in sys.modules:
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
def main():
    """Tessera: positions, moves and perft for Azul."""


# ---- reading positions ---------------------------------------------------------------

def load_position(pos):
    """(game, state) of POS: a file path, '-' for stdin, or the position text itself."""
    if pos == "-":
        return game_of_position(_nonempty(click.get_text_stream("stdin").read(), "stdin"))
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
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as err:
        raise TesseraError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise TesseraError(f"cannot read {path}: not UTF-8 text") from None


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
    from kernels import games
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
                     help="seed for the first refill (default: a random one)"),
        click.Option(["--json", "as_json"], is_flag=True, help="print the position as JSON"),
    ]
    for name, (kind, default, help_text) in game.options.items():
        # Choices go to the game unchecked, so a bad one gets the game's one-line error.
        metavar = f"[{'|'.join(kind)}]" if isinstance(kind, tuple) else None
        params.append(click.Option([f"--{name}"], type=str if metavar else kind, metavar=metavar,
                                   default=default, show_default=True, help=help_text))

    def new_position(seed, as_json, **options):
        seed = secrets.randbelow(2**31) if seed is None else seed
        _echo_position(game, game.new(seed, **options), as_json)

    return click.Command(game.name, params=params, callback=new_position,
                         help=f"Print a start position of {game.name}, refill drawn with --seed.")


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
@click.option("--json", "as_json", is_flag=True, help="print who acts and the moves as JSON")
def moves(pos, as_json):
    """List the legal moves of POS, one per line, after a line saying who acts.

    At a refill chance acts: each draw is listed with its probability.
    """
    import numpy as np
    from kernels import games
    game, state = load_position(pos)
    codes = np.empty(games.MAX_MOVES, np.int64)
    probabilities = np.empty(games.MAX_MOVES, np.float64)
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
    from kernels import games
    game, state = load_position(pos)
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
    from kernels import games
    from kernels.perft import perft as count_paths, perft_divide
    _check_depth(depth)
    game, state = load_position(pos)
    dividing = divide and depth > 0 and games.to_move(state) >= 0   # else no root moves
    if dividing:
        counts = np.zeros(games.MAX_MOVES, np.int64)
        codes = np.empty(games.MAX_MOVES, np.int64)
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
    from kernels.perft import perft as count_paths
    _check_depth(depth)
    total_nodes, total_time = 0, 0.0
    for i, (label, state) in enumerate(bench_states(), 1):
        count_paths(state, 0)
        start = time.perf_counter()
        nodes = int(count_paths(state, depth))
        elapsed = time.perf_counter() - start
        total_nodes += nodes
        total_time += elapsed
        click.echo(f"{i:>2} {label:<48} {nodes:>12} nodes {elapsed:>8.3f} s")
    click.echo()
    click.echo(f"depth {depth}")
    click.echo(f"nodes {total_nodes}")
    click.echo(f"time {total_time:.3f} s")
    click.echo(f"nodes/s {_rate(total_nodes, total_time)}")
    click.echo(f"signature {total_nodes}")
