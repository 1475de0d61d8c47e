"""The games of a self-play run folder (`tessera selfplay --out DIR`), replayed for the
page to step through: a game's start from its seed, then each player move and the
position after it, chance drawn as the run drew it (``tessera.agents.GameRecord``).

Only folders under the directories the server was given (``tessera serve --runs``) are
read, after links and ``..`` are resolved: a page cannot make the server read elsewhere.

The records are Parquet, read with pyarrow, which is the ``selfplay`` extra's and not the
``web`` extra's: without it the board works and opening a run answers with the one line
that names the extra to install."""

from pathlib import Path

from starlette.routing import Route

from tessera.errors import TesseraError, require_extra
from tessera.position import ChanceDraws, Position
from tessera.selfplay import checksums
from tessera.selfplay.records import CHUNKS, chunk_files, read_records
from tessera.selfplay.rundir import RUN_FILE, load_plan
from tessera.web.documents import BadRequest
from tessera.web.http import json_route
from tessera.web.inputs import shown, whole

LISTED = 1000  # games of a run listed at most
MAX_INDEX = 2**53  # a game's number in a run, at most
OPENING = "opening a self-play run on the board"  # what needs the selfplay extra


class RunFolders:
    """The directories whose run folders the page may open (resolved once, at start)."""

    def __init__(self, roots):
        self.roots = [Path(root).resolve() for root in roots]

    def folder(self, given):
        """The resolved path of ``given`` (relative to the server's working directory),
        or a BadRequest when it is not a text or lies outside every root."""
        if not isinstance(given, str) or not given:
            raise BadRequest(f"folder must be a self-play run folder's path, not {shown(given)}")
        try:
            path = Path(given).expanduser().resolve()
        except (OSError, ValueError, RuntimeError) as err:
            raise BadRequest(f"folder {shown(given)} is no path here: {err}") from None
        if not self._inside(path):
            raise BadRequest(
                f"folder {shown(given)} is outside the run directories this server "
                f"reads ({', '.join(map(str, self.roots))}; tessera serve --runs)",
            )
        for read in _files_read(path):  # a link inside the folder may point out of it
            if not self._inside(read.resolve()):
                raise BadRequest(
                    f"folder {shown(given)} links {read.name} outside the run directories this server reads"
                )
        return path

    def _inside(self, path):
        return any(path.is_relative_to(root) for root in self.roots)


def _files_read(folder):
    """The files of a run folder the viewer reads: its plan, checksums and chunks (none when
    the folder cannot be listed: reading it then answers what is wrong)."""
    try:
        return [folder / RUN_FILE, folder / checksums.MANIFEST, folder / CHUNKS, *chunk_files(folder).values()]
    except OSError:
        return []


def run_games(folder):
    """{"game", "options", "agents", "games": [{index, seed, agents, scores, length}]}"""
    plan = load_plan(folder)
    table = read_records(folder, ["game", "seed", "agents", "scores", "length"]).to_pylist()
    return {
        "game": plan.game,
        "options": plan.options,
        "agents": plan.agents,
        "count": len(table),
        "games": [
            {
                "index": row["game"],
                "seed": row["seed"],
                "agents": row["agents"],
                "scores": row["scores"],
                "length": row["length"],
            }
            for row in table[:LISTED]
        ],
    }


def replay(folder, index):
    """The start and every player move of game ``index``, each with the position after it
    as text and the chance generator's state (to go on playing from any of them)."""
    pc = require_extra("pyarrow.compute", "selfplay", OPENING)
    plan = load_plan(folder)
    table = read_records(folder, ["game", "seed", "moves"])
    rows = table.filter(pc.equal(table["game"], index)).to_pylist()
    if not rows:
        raise TesseraError(f"the run in {folder} has no game {index}")
    row = rows[0]
    position = Position.new(plan.game, seed=row["seed"], **plan.options)
    draws = ChanceDraws(row["seed"])
    plies = []
    start = {"text": position.text(), "rng": str(draws.state)}
    for move in row["moves"]:
        text = position.move_text(move)
        position = draws.deal(position.play_codes(move))
        plies.append({"move": text, "text": position.text(), "rng": str(draws.state)})
    return {"game": plan.game, "seed": row["seed"], "start": start, "plies": plies}


def _reading(folder, read):
    """``read()``, a file system or record error answered as the run's (HTTP 400), as is
    a server without pyarrow (``MissingExtra``)."""
    pa = require_extra("pyarrow", "selfplay", OPENING)
    try:
        return read()
    except OSError as err:
        raise BadRequest(f"cannot read the run in {folder}: {err.strerror or err}") from None
    except (ValueError, pa.ArrowException) as err:
        raise BadRequest(f"the run in {folder} cannot be read: {err}") from None


def routes(roots):
    folders = RunFolders(roots)

    def listing(body):
        folder = folders.folder(body.get("folder"))
        return _reading(folder, lambda: run_games(folder))

    def game(body):
        folder = folders.folder(body.get("folder"))
        index = whole(body, "index", 0, MAX_INDEX)
        return _reading(folder, lambda: replay(folder, index))

    return [
        Route("/api/run", json_route(listing), methods=["POST"]),
        Route("/api/run/game", json_route(game), methods=["POST"]),
    ]
