"""The JSON document of a search (docs/best.schema.json): `tessera best --json`,
`tessera solve --json` and the answers of `tessera analyze` all come from here."""

from typing import TYPE_CHECKING, Any

import numpy as np

from tessera.kernels import games
from tessera.search.result import SearchResult

if TYPE_CHECKING:
    from tessera.games import Game

JSON_VERSION = 1  # of the documents in docs/best.schema.json
HASH_MASK = 2**64 - 1


def search_report(
    command: str, game: "Game", state: np.ndarray, result: SearchResult, settings: dict[str, Any], interrupted: bool
) -> dict[str, Any]:
    """The document for ``result``, a search of ``state`` (a position of ``game``)."""
    moves = [_move_report(game, state, line) for line in result.moves]
    if "exploration" in settings:  # MCTS: what was left to the game, filled in
        from tessera.search.mcts import game_defaults

        settings = {
            **settings,
            **{name: own for name, own in game_defaults(game.name).items() if settings.get(name) is None},
        }
    report: dict[str, Any] = {
        "version": JSON_VERSION,
        "command": command,
        "game": game.name,
        "algo": result.algo,
        "position_hash": f"{result.position_hash & HASH_MASK:016x}",
        "player": result.player + 1,
        "settings": settings,
        "root": {
            "visits": result.visits,
            "seconds": result.seconds,
            "nodes_per_second": result.nodes_per_second,
            "win_rate": result.value,
            "margin": result.margin,
            "exact": _exact_json(result.exact),
            "depth": result.depth,
            "tree_nodes": result.tree_nodes,
            "tree_bytes": result.tree_bytes,
            "compactions": result.compactions,
            "tt_hit_rate": result.tt_hit_rate,
            "threads": result.threads,
            "compile_seconds": result.compile_seconds,
        },
        "interrupted": interrupted,
        "moves": moves,
        "proven": result.exact is not None,
    }
    if command == "solve":
        report["best_moves"] = [
            move["move"] for move in moves if report["proven"] and move["exact"] == report["root"]["exact"]
        ]
        report["pv"] = moves[0]["pv"] if moves else []
    return report


def _move_report(game, state, line):
    return {
        "move": game.format_move(state, line.move),
        "code": line.move,
        "visits": line.visits,
        "win_rate": line.win_rate,
        "margin": line.margin,
        "lcb": line.lcb,
        "prior": line.prior,
        "pv": _pv_texts(game, state, line.pv),
        "exact": _exact_json(line.exact),
    }


def _pv_texts(game, state, pv):
    """The line in notation, each move written in its own position; it stops at chance."""
    position = state.copy()
    texts = []
    for move in pv:
        if games.to_move(position) < 0:
            break
        texts.append(game.format_move(position, move))
        games.apply_move(position, move)
    return texts


def _exact_json(exact):
    if exact is None:
        return None
    return {"margin": exact.margin, "horizon": exact.horizon, "result": exact.result, "win_rate": exact.win_rate}
