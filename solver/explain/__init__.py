"""Why a move: its effect broken down in its game's own terms (docs/api.md, docs/web.md).

``explain(position, move)`` plays the move on a copy and reads the position before and
after it. Every game has its module here (``tessera.explain.<game>``) with one function,
``breakdown(before, move, after)``, which returns the move's kind, its fields in the
game's terms, and ``terms``: the same facts as short lines for a reader, each
``{"term": name, "value": number or true, "text": line}``.

The breakdown is of the move alone: chance that follows it (a refill, a draw) is not
dealt, so ``after`` is the position the move itself leaves.
"""

from __future__ import annotations

import importlib

from tessera.position import Position


def explain(position: Position, move: str) -> dict:
    """The breakdown of ``move`` (its text) in ``position``: ``move`` (canonical text),
    ``player`` (who makes it, from 1; None for a chance outcome), ``kind``,
    ``score_change`` (every player's, as the move leaves the scores), the game's fields
    and ``terms``. MoveError when the move is not legal there; TesseraError on a view."""
    canonical = position.move_text(position.parse_move(move))
    after = position.play(canonical)
    change = [a - b for a, b in zip(after.scores, position.scores)]
    game = importlib.import_module(f"tessera.explain.{position.game}")
    found = (
        game.breakdown(position, canonical, after) if position.to_move is not None else {"kind": "chance", "terms": []}
    )
    return {"move": canonical, "player": position.to_move, "score_change": change, **found}


def term(name: str, value, text: str) -> dict:
    """One line of a breakdown: its name, its value (a number, or true for a fact) and
    what a reader sees."""
    return {"term": name, "value": value, "text": text}


def signed(points: int) -> str:
    """Points with their sign, as the breakdown writes them: +3, -2, 0."""
    return f"{points:+d}" if points else "0"


def letter_counts(tiles: str, letters: str) -> dict:
    """{letter: how many} of ``tiles`` (a notation string such as ``BBY`` or ``-``), for
    every letter of ``letters``."""
    return {letter: tiles.count(letter) for letter in letters}
