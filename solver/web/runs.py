"""The games of a self-play run folder (`tessera selfplay --out DIR`), replayed for the
page to step through: a game's start from its seed, then each player move and the
position after it, chance drawn as the run drew it (``tessera.agents.GameRecord``)."""
import pyarrow.compute as pc
from starlette.routing import Route

from tessera.kernels import games
from tessera.kernels.rng import chance_rng
from tessera.errors import TesseraError
from tessera.games import get_game
from tessera.position import Position
from tessera.selfplay.records import read_records
from tessera.selfplay.rundir import load_plan
from tessera.web.http import json_route

LISTED = 1000                       # games of a run listed at most


def run_games(folder):
    """{"game", "options", "agents", "games": [{index, seed, agents, scores, length}]}"""
    plan = load_plan(_folder(folder))
    table = read_records(folder, ["game", "seed", "agents", "scores", "length"]).to_pylist()
    return {"game": plan.game, "options": plan.options, "agents": plan.agents,
            "count": len(table),
            "games": [{"index": row["game"], "seed": row["seed"], "agents": row["agents"],
                       "scores": row["scores"], "length": row["length"]} for row in table[:LISTED]]}


def replay(folder, index):
    """The start and every player move of game ``index``, each with the position after it
    as text and the chance generator's state (to go on playing from any of them)."""
    plan = load_plan(_folder(folder))
    if type(index) is not int:
        raise TesseraError(f"index must be a game's number, not {index!r}")
    table = read_records(folder, ["game", "seed", "moves"])
    rows = table.filter(pc.equal(table["game"], index)).to_pylist()
    if not rows:
        raise TesseraError(f"the run in {folder} has no game {index}")
    row = rows[0]
    game = get_game(plan.game)
    state = game.new(row["seed"], **plan.options)
    rng = chance_rng(row["seed"])
    plies = []
    start = {"text": game.format_position(state), "rng": str(int(rng[0]))}
    for move in row["moves"]:
        text = game.format_move(state, move)
        games.apply_move(state, move)
        if games.to_move(state) == games.CHANCE:
            games.resolve_chance(state, rng)
        plies.append({"move": text, "text": Position.from_state(state).text(),
                      "rng": str(int(rng[0]))})
    return {"game": plan.game, "seed": row["seed"], "start": start, "plies": plies}


def _folder(folder):
    if not isinstance(folder, str) or not folder:
        raise TesseraError("folder must be a self-play run folder's path")
    return folder


def routes():
    def listing(body):
        return run_games(body.get("folder"))

    def game(body):
        return replay(body.get("folder"), body.get("index"))

    return [Route("/api/run", json_route(listing), methods=["POST"]),
            Route("/api/run/game", json_route(game), methods=["POST"])]
