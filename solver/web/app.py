"""The Starlette application of `tessera serve`: the page (package data under static/)
and its JSON API (docs/web.md). Every answer is JSON: bad input is answered with HTTP
400 (413 for a body too large) and ``{"error": "<the engine's one-line message>"}``, an
unknown route or method with 404 or 405, a request from elsewhere with 403 or 415
(``guard``); the server goes on."""

import asyncio
import contextlib
import json
import os

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import FileResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tessera.errors import BoardDataError, TesseraError
from tessera.games import get_game, registered_games
from tessera.web import documents, inputs
from tessera.web.analysis import (
    DEFAULT_IDLE_SECONDS,
    DEFAULT_MEMORY_MB,
    DEFAULT_REVIEW_SECONDS,
    MAX_SECONDS,
    AnalysisHub,
)
from tessera.web.documents import BadRequest
from tessera.web.editor import routes as editor_routes
from tessera.web.guard import Guard
from tessera.web.http import Json, json_body, json_route
from tessera.web.review import routes as review_routes
from tessera.web.runs import routes as run_routes
from tessera.web.warming import Warming, not_warming
from tessera.web.why import routes as why_routes

STATIC = ("tessera.web", "static")
KEEPALIVE_SECONDS = 15.0  # an event-stream comment this often keeps proxies open
MAX_ERROR = 500  # characters of an error message answered
MAX_PLAYER = 4  # seats of the largest game; the position checks its own


def create_app(
    searches=2,
    analysis=True,
    runs=None,
    host="127.0.0.1",
    token=None,
    memory_mb=DEFAULT_MEMORY_MB,
    idle=DEFAULT_IDLE_SECONDS,
    review_seconds=DEFAULT_REVIEW_SECONDS,
    warm=False,
):
    """The application; ``searches`` analysis processes (none started when ``analysis``
    is false, for tests of the board alone) sharing ``memory_mb`` MB, their kept trees
    dropped after ``idle`` seconds without a search, a game review searching each position
    ``review_seconds`` at most; self-play runs read from under the
    directories ``runs`` (default: the working directory); requests checked by ``Guard``
    for the server listening on ``host``, with ``token`` when given. ``warm``: every game's
    kernels load in the background as it starts (``warming``; `tessera serve` does)."""
    hub = AnalysisHub(searches, memory_mb, idle, review_seconds) if analysis else None
    warming = Warming([game.name for game in registered_games().values()], hub) if warm else None

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if hub is not None:
            hub.start()
        if warming is not None:
            warming.start()
        yield
        if hub is not None:
            await asyncio.to_thread(hub.close)

    async def index(request):
        return FileResponse(_static_file("index.html"))

    async def game_list(request):
        return Json(
            {
                name: {option: _option(spec) for option, spec in game.options.items()}
                for name, game in registered_games().items()
            }
        )

    # The rules run in a worker thread: a compile or a long replay holds no other page.
    @json_route
    def new(body):
        game = get_game(inputs.text(body, "game", "a game's name"))
        options = inputs.game_options(game, body.get("options", {}))
        position, rng = documents.new_game(game.name, body.get("seed", 0), options)
        return documents.document(position, rng)

    @json_route
    def position(body):
        read = documents.read_position(body.get("position"))
        return documents.document(read, documents.read_rng(body.get("rng")))

    @json_route
    def play(body):
        before = documents.read_position(body.get("position"))
        move = inputs.text(body, "move", "a move's text")
        rng = documents.read_rng(body.get("rng"))
        after, dealt = documents.play(before, move, rng, inputs.flag(body, "deal", True))
        return {**documents.document(after, rng), "dealt": dealt}

    @json_route
    def deal(body):
        rng = documents.read_rng(body.get("rng"))
        after, dealt = documents.deal_chance(documents.read_position(body.get("position")), rng)
        return {**documents.document(after, rng), "dealt": dealt}

    @json_route
    def view(body):
        complete = documents.read_position(body.get("position"))
        player = inputs.whole(body, "player", 1, MAX_PLAYER)
        return documents.document(complete.view(player))

    def _hub():
        if hub is None:
            raise BadRequest("analysis is off on this server")
        return hub

    async def stream(request):
        tab = _hub().open_tab(asyncio.get_running_loop())

        async def watch():
            """The page went away: its search stops and its stream ends. Watched apart from
            the stream, which is left hanging when a write to the closed connection fails."""
            while (await request.receive())["type"] != "http.disconnect":
                pass
            await asyncio.to_thread(hub.close_tab, tab)
            tab.events.put_nowait(None)

        async def events():
            tab.watcher = asyncio.create_task(watch())
            try:
                yield _event("tab", {"tab": tab.id})
                while True:
                    try:
                        document = await asyncio.wait_for(tab.events.get(), KEEPALIVE_SECONDS)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if document is None:
                        return
                    # A game review's answers are its own events (tessera.web.review).
                    yield _event("review" if "review" in document else "analysis", document)
            finally:
                await asyncio.to_thread(hub.close_tab, tab)

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def analyse(request):
        body = await json_body(request)
        tab = _hub().tab(body.get("tab"))
        text = documents.read_position(body.get("position")).text()
        query_id = await asyncio.to_thread(
            hub.analyse, tab, text, body.get("seconds", 30), body.get("visits"), body.get("algo", "mcts")
        )
        return Json({"id": query_id})

    async def stop(request):
        body = await json_body(request)
        tab = _hub().tab(body.get("tab"))
        await asyncio.to_thread(hub.stop, tab)
        return Json({"stopped": True})

    async def analysis_status(request):
        """How many pages have a stream open and how many of them search now; with
        ``?tab=ID``, whether that page's stream is open and whether it searches."""
        tabs = dict(_hub().tabs)
        if "tab" in request.query_params:
            tab = tabs.get(request.query_params["tab"])
            return Json({"open": tab is not None, "searching": tab is not None and tab.query is not None})
        return Json({"tabs": len(tabs), "searching": sum(tab.query is not None for tab in tabs.values())})

    async def server_status(request):
        """The analysis's pages and searches and the memory of its search processes."""
        if hub is None:
            return Json({"analysis": False})
        tabs = dict(hub.tabs)
        return Json(
            {
                "analysis": True,
                "searches": hub.searches,
                "tabs": len(tabs),
                "searching": sum(tab.query is not None for tab in tabs.values()),
                "max_seconds": MAX_SECONDS,
                "review_seconds": hub.review_seconds,
                "memory": await asyncio.to_thread(hub.memory_status),
            }
        )

    async def warmup_status(request):
        """How far the games' kernels have loaded (``warming``)."""
        return Json(warming.report() if warming is not None else not_warming())

    async def engine_move(request):
        """The engine's move for whoever acts: on an Azure position, found from that
        player's view (the engine does not peek at the cards that player cannot see); a
        view (a shared one) is searched as it is."""
        body = await json_body(request)
        tab = _hub().tab(body.get("tab"))
        current = documents.read_position(body.get("position"))
        if current.to_move is None:
            raise BadRequest("no player acts in this position")
        hidden = get_game(current.game).spec.hidden and not current.is_view
        searched = current.view(current.to_move) if hidden else current
        answer = await hub.choose(tab, searched.text(), body.get("seconds", 1.0))
        if "error" in answer:
            raise TesseraError(answer["error"])
        return Json({"move": answer["moves"][0]["move"], "answer": answer})

    routes = [
        Route("/", index),
        Route("/api/games", game_list),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/deal", deal, methods=["POST"]),
        Route("/api/view", view, methods=["POST"]),
        Route("/api/analysis/stream", stream),
        Route("/api/analysis/start", analyse, methods=["POST"]),
        Route("/api/analysis/stop", stop, methods=["POST"]),
        Route("/api/analysis/status", analysis_status),
        Route("/api/status", server_status),
        Route("/api/warmup", warmup_status),
        Route("/api/engine-move", engine_move, methods=["POST"]),
        Mount("/static", StaticFiles(packages=[STATIC]), name="static"),
    ]
    routes[-1:-1] = run_routes(runs or [os.getcwd()])
    routes[-1:-1] = review_routes(_hub)
    routes[-1:-1] = why_routes()
    routes[-1:-1] = editor_routes()
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Guard, host=host, token=token)],
        exception_handlers={TesseraError: _user_error, BoardDataError: _user_error, HTTPException: _http_error},
    )
    app.state.hub = hub
    return app


def _static_file(name):
    from importlib.resources import files

    return str(files(STATIC[0]).joinpath(STATIC[1], name))


def _option(spec):
    kind, default, help_text = spec
    if isinstance(kind, tuple):
        return {"type": "choice", "choices": list(kind), "default": default, "help": help_text}
    return {"type": {int: "int", bool: "bool"}.get(kind, "text"), "default": default, "help": help_text}


def _event(kind, document):
    return f"event: {kind}\ndata: {json.dumps(document)}\n\n"


def _one_line(message):
    line = " ".join(str(message).split())
    return line if len(line) <= MAX_ERROR else line[:MAX_ERROR] + "..."


async def _user_error(request, err):
    return Json({"error": _one_line(err)}, status_code=getattr(err, "status", 400))


async def _http_error(request, err):
    """404, 405 and the like, as JSON like every other answer."""
    return Json({"error": _one_line(err.detail)}, status_code=err.status_code, headers=err.headers)
