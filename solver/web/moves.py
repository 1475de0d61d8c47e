"""A move's text split into the fields the board's clicks map to.

The page finds the move a click means by matching these fields (a source and a
colour, then a destination; a star and a space; a cell) against the legal moves, so
the board never builds move text itself. Each game reads its own moves
(``Game.move_fields``), from the notation's canonical output (``format_move``) only.
"""

from tessera.games import get_game


def fields(game, text):
    """{"text": text, "kind": ..., and the move's parts} for a canonical move text of
    ``game`` (its name)."""
    return {"text": text, **get_game(game).move_fields(text)}
