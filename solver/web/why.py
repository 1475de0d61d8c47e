"""``POST /api/explain``: the engine's breakdown of moves in a position, for the analysis
table's "why" lines (docs/web.md, "Why a move")."""

from starlette.routing import Route

from tessera.explain import explain
from tessera.web.documents import BadRequest, read_position
from tessera.web.http import json_route
from tessera.web.inputs import shown

MAX_MOVES = 64  # moves explained by one request (the table shows 10)


def routes():
    return [Route("/api/explain", explain_moves, methods=["POST"])]


@json_route
def explain_moves(body):
    """{"moves": [breakdown, ...]}: each move of ``moves`` (texts) in ``position``, in order."""
    position = read_position(body.get("position"))
    moves = body.get("moves")
    if (
        not isinstance(moves, list)
        or not 1 <= len(moves) <= MAX_MOVES
        or not all(isinstance(move, str) and move for move in moves)
    ):
        raise BadRequest(f"moves must be a list of 1 to {MAX_MOVES} move texts, not {shown(moves)}")
    return {"moves": [explain(position, move) for move in moves]}
