"""POS, the position the commands take: a file, '-' for stdin, or the position itself;
and the checks a command makes of the position it read."""

import os

from tessera.cli.startup import stdin_after_shared_kernels
from tessera.errors import TesseraError
from tessera.games import game_of_position

POSITION_HELP = (
    "POS is a position: a file, '-' for stdin, or the position itself (text, with"
    " ';' or newlines between its lines, or JSON)."
)


def load_position(pos):
    """(game, state) of POS: a file path, '-' for stdin, or the position text itself."""
    if pos == "-":
        return game_of_position(_nonempty(_utf8(stdin_after_shared_kernels(), "stdin"), "stdin"))
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


def _utf8(data, source):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TesseraError(f"cannot read {source}: not UTF-8 text") from None


def _nonempty(text, source):
    if not text.strip():
        raise TesseraError(f"{source} is empty (expected a position)")
    return text


def check_complete(state, command):
    """The rules play out only on complete positions: a view hides what they need."""
    from tessera.position import Position

    if Position.from_state(state).is_view:
        raise TesseraError(
            f"{command} needs a complete position; this is a player's view, which "
            "hides the opponent's cards and the hidden deck"
        )


def check_observer_acts(game, state):
    """On a view, only the observer's own moves are known."""
    from tessera.position import Position

    observer = game.observer(state)
    position = Position(game, state)
    if observer is not None and not position.is_over and position.to_move != observer + 1:
        actor = "chance" if position.is_chance else f"player {position.to_move}"
        raise TesseraError(f"in player {observer + 1}'s view {actor} acts: its moves depend on cards the view hides")
