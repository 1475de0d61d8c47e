"""The position commands: new, show, view, moves and play."""

import json
import secrets

import click

from tessera.cli.printing import counted, move_listing, score_changes
from tessera.cli.reading import POSITION_HELP, check_complete, check_observer_acts, load_position
from tessera.errors import MoveError, TesseraError
from tessera.games import get_game, registered_games


def _echo_position(game, state, as_json):
    if as_json:
        click.echo(json.dumps(game.position_to_json(state)))
    else:
        click.echo(game.format_position(state))


# ---- new -----------------------------------------------------------------------------


class NewCommands(click.Group):
    """``tessera new GAME``: a subcommand per registered game, with that game's options."""

    def list_commands(self, ctx):
        return sorted(registered_games())

    def get_command(self, ctx, name):
        return _new_command(get_game(name))  # an unknown game names the known ones


def _new_command(game):
    params = [
        click.Option(["--seed"], type=int, help="seed for the chance that sets the game up (default: a random one)"),
        click.Option(["--json", "as_json"], is_flag=True, help="print the position as JSON"),
    ]
    for name, (kind, default, help_text) in game.options.items():
        if kind is bool:
            params.append(click.Option([f"--{name}"], is_flag=True, default=default, help=help_text))
            continue
        # Choices go to the game unchecked, so a bad one gets the game's one-line error.
        metavar = f"[{'|'.join(kind)}]" if isinstance(kind, tuple) else None
        params.append(
            click.Option(
                [f"--{name}"],
                type=str if metavar else kind,
                metavar=metavar,
                default=default,
                show_default=True,
                help=help_text,
            )
        )

    def new_position(seed, as_json, **options):
        seed = secrets.randbelow(2**31) if seed is None else seed
        _echo_position(game, game.new(seed, **options), as_json)

    return click.Command(
        game.name,
        params=params,
        callback=new_position,
        help=f"Print a start position of {game.name}, chance drawn with --seed.",
    )


new = NewCommands("new", help="Print a start position of GAME.")


# ---- show, view, moves, play ---------------------------------------------------------


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
def show(pos):
    """Draw the position POS."""
    from rich.console import Console

    game, state = load_position(pos)
    Console().print(game.render(state))


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option(
    "--player", "-p", "observer", type=int, required=True, help="whose view, counted from 1 (player 1 starts)"
)
@click.option("--json", "as_json", is_flag=True, help="print the view as JSON")
def view(pos, observer, as_json):
    """Print what one player knows of the complete position POS.

    In Azure a view keeps the player's own hand, the opponent's hand size and the
    cards of it that are public, and the hidden deck's size; `tessera best` on a
    view searches it with information-set MCTS. In Azul and Summer Pavilion nothing
    is hidden and the view is the position itself.
    """
    from tessera.position import Position

    game, state = load_position(pos)
    position = Position(game, state)
    if position.is_view:
        raise TesseraError("POS is already a player's view; a view is made from a complete position")
    seats = position.players
    if not 1 <= observer <= seats:
        raise TesseraError(f"--player must be 1 to {seats}, not {observer}")
    _echo_position(game, game.view(state, observer - 1), as_json)


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.option("--json", "as_json", is_flag=True, help="print who acts and the moves as JSON")
def moves(pos, as_json):
    """List the legal moves of POS, one per line, after a line saying who acts.

    At a refill chance acts: each draw is listed with its probability.
    """
    from tessera.position import Position

    game, state = load_position(pos)
    check_observer_acts(game, state)
    position = Position(game, state)
    chances = None
    if position.is_chance:
        outcomes = position.chance_outcomes()
        texts, chances = [text for text, _ in outcomes], [p for _, p in outcomes]
        actor, heading = "chance", f"chance to draw: {counted(len(texts), 'outcome')}"
    elif position.is_over:
        texts = []
        actor, heading = "nobody", "game over: no moves"
    else:
        texts = position.legal_moves
        actor, heading = "player", f"player {position.to_move} to move: {counted(len(texts), 'move')}"
    if as_json:
        listing = {"to_move": actor, "player": position.to_move if actor == "player" else None, "moves": texts}
        if chances:
            listing["probabilities"] = chances
        click.echo(json.dumps(listing))
        return
    click.echo("\n".join(move_listing(heading, texts, chances)))


@click.command(epilog=POSITION_HELP)
@click.argument("pos")
@click.argument("move_texts", metavar="MOVE...", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="print the moves, position and scores as one JSON object")
def play(pos, move_texts, as_json):
    """Play each MOVE in order from POS and print the new position.

    Quote each move: tessera play POS "F1 blue 3" "C red floor". The position goes
    to stdout and the score changes to stderr, so the output can be piped on.
    """
    from tessera.position import Position

    game, state = load_position(pos)
    check_complete(state, "play")
    position = Position(game, state)
    before = position.scores
    played = []
    for i, text in enumerate(move_texts, 1):
        try:
            move = position.parse_move(text)
        except MoveError as err:
            raise TesseraError(f"move {i} of {len(move_texts)}: {err}") from None
        played.append(position.move_text(move))
        position = position.play_codes(move)
    after = position.scores
    changes = [new - old for old, new in zip(before, after)]
    if as_json:
        click.echo(
            json.dumps({"moves": played, "position": position.to_json(), "scores": after, "score_changes": changes})
        )
        return
    click.echo(position.text())
    click.echo(score_changes(changes, after), err=True)
