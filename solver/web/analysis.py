"""Live analysis for the page's tabs through the engine of `tessera analyze`
(``tessera.analysis.engine.Engine``, its search processes forked from a warm fork server).

Each tab opens one event stream and gets an id; it runs at most one search at a time
(a new one stops the old), its budget capped, and the search stops when the stream
closes (the tab was closed or lost). The engine writes its JSON answer lines to this
hub, which hands each to the tab whose query it answers, on the server's event loop.

Memory is bounded: the board's searches share ``memory`` bytes. The engine
(``tessera.analysis.engine``) keeps up to ``KEEP`` finished trees in each search process
beside the one it grows, so each MCTS search gets ``memory / (searches * (KEEP + 1))`` as
its ``memory`` bound; the kept trees are dropped when a page's stream closes and once
no search has run for ``idle`` seconds (``clear_cache``), so an idle board holds no tree.
"""

import asyncio
import itertools
import json
import secrets
import threading
import time

from tessera.errors import TesseraError, require_extra
from tessera.web.inputs import seconds as seconds_field
from tessera.web.inputs import shown

MAX_SECONDS = 120.0  # one search's time at most, whatever the page asks
MAX_VISITS = 5_000_000
MAX_TABS = 16  # event streams at once
REPORT_EVERY = 0.25  # seconds between partial answers while a search runs
ENGINE_START_TIMEOUT = 180.0  # an engine's processes start (on a cold cache, compiling)
LOAD_TIMEOUT = 1800.0  # a game's search compiled in an empty cache, on a busy machine
ALGOS = ("mcts", "solve")
MB = 1 << 20
DEFAULT_MEMORY_MB = 2048  # the trees of all the board's searches together
DEFAULT_IDLE_SECONDS = 60.0  # kept trees are dropped after this long without a search
DEFAULT_REVIEW_SECONDS = 2.0  # a game review's search of one position at most


class Tab:
    def __init__(self, loop):
        self.id = secrets.token_hex(8)
        self.loop = loop
        self.events = asyncio.Queue()
        self.query = None  # the id of its running query, or None
        self.watcher = None  # the task that sees its stream's end

    def deliver(self, document):
        """Called on the engine's threads: the document goes to the tab's stream."""
        self.loop.call_soon_threadsafe(self.events.put_nowait, document)


class AnalysisHub:
    def __init__(
        self, searches=2, memory_mb=DEFAULT_MEMORY_MB, idle=DEFAULT_IDLE_SECONDS, review_seconds=DEFAULT_REVIEW_SECONDS
    ):
        self.searches = searches
        self.review_seconds = review_seconds  # each position of a game review (tessera.web.review)
        self.memory_mb = memory_mb
        self.search_mb = search_memory_mb(memory_mb, searches)
        self.idle = idle
        self.last_search = time.monotonic()  # when a search last ran (or the hub started)
        self.idle_wakeup = threading.Event()
        self.tabs = {}
        self.routes = {}  # query id -> [callback(document), final lines to come]
        self.lock = threading.Lock()
        self.serials = itertools.count(1)
        self.engine = None
        self.ready = threading.Event()
        self.start_error = None
        self.closed = False

    # ---- the engine -------------------------------------------------------------------

    def start(self):
        """Start the engine in the background: its fork server loads the kernels first."""
        threading.Thread(target=self._start, name="analysis-engine", daemon=True).start()
        threading.Thread(target=self._drop_idle_trees, name="analysis-idle", daemon=True).start()

    def _start(self):
        from tessera.analysis.engine import Engine

        try:
            self.engine = Engine(self.searches, self)
        except Exception as err:  # shown to the page on its first search
            self.start_error = f"the analysis engine did not start: {err}"
        self.ready.set()

    def _engine(self):
        if not self.ready.wait(ENGINE_START_TIMEOUT) or self.engine is None:
            raise TesseraError(self.start_error or "the analysis engine is still starting")
        if self.closed:
            raise TesseraError("the server is stopping")
        return self.engine

    def close(self):
        self.closed = True
        self.idle_wakeup.set()
        if self.ready.wait(ENGINE_START_TIMEOUT) and self.engine is not None:
            self.engine.stop()

    # The engine writes its answer lines here.
    def write(self, text):
        for line in text.splitlines():
            document = json.loads(line)
            if "action" in document or "warning" in document:
                continue
            with self.lock:
                route = self.routes.get(document.get("id"))
                if route is not None and _is_final(document):
                    route[1] -= 1  # a turn answered; an error of the whole query ends it
                    if route[1] <= 0 or ("error" in document and "turn" not in document):
                        del self.routes[document["id"]]
            if route is not None:
                route[0](document)

    def flush(self):
        pass

    def _send(self, query, callback, answers=1):
        """Send ``query``; ``callback`` gets its lines until its last: ``answers`` final
        lines (one per turn of its ``analyzeTurns``) or an error of the whole query."""
        engine = self._engine()
        with self.lock:
            self.routes[query["id"]] = [callback, answers]
        engine.handle_line(json.dumps(query))

    def drop_trees(self):
        """The search processes drop the trees they keep (those being grown go on)."""
        serial = next(self.serials)
        if self.engine is not None and not self.closed:
            self.engine.handle_line(json.dumps({"id": f"clear-{serial}", "action": "clear_cache"}))

    def _drop_idle_trees(self):
        """Once no search has run for ``idle`` seconds, the kept trees go (those kept by a
        search that ended after a page's stream closed too)."""
        while not self.closed:
            self.idle_wakeup.wait(max(0.05, min(self.idle / 4, 5.0)))
            with self.lock:
                busy = any(tab.query is not None for tab in self.tabs.values())
                if busy:
                    self.last_search = time.monotonic()
                idle = not busy and time.monotonic() - self.last_search >= self.idle
            if idle and self.engine is not None and self.engine.kept and not self.closed:
                self.drop_trees()

    def load_search(self, game):
        """Load ``game``'s search kernels (compiled on an empty numba cache) in a search
        process: one search of a single visit of the game's start, waited for."""
        answered = threading.Event()
        finals = []

        def deliver(document):
            if _is_final(document):
                finals.append(document)
                answered.set()

        self._send(
            {"id": f"load-{game}-{next(self.serials)}", "game": game, "maxVisits": 1, "memory": self.search_mb}, deliver
        )
        if not answered.wait(LOAD_TIMEOUT):
            raise TesseraError(f"the search of {game} did not load in {LOAD_TIMEOUT:g} s")
        if "error" in finals[0]:
            raise TesseraError(finals[0]["error"])
        self.drop_trees()  # the engine keeps the tree of that one visit

    def memory_status(self):
        """The memory of the searches: the cap, each search's bound, what the search
        processes hold now (resident bytes) and how many finished trees they keep."""
        engine = self.engine
        held, kept = 0, 0
        if engine is not None:
            psutil = require_extra("psutil", "web", "the board's memory status")
            with engine.lock:
                pids = [process.process.pid for process in engine.pool.processes if process.alive]
                kept = len(engine.kept)
            for pid in pids:
                try:
                    held += psutil.Process(pid).memory_info().rss
                except psutil.Error:  # it ended meanwhile (a stopped solve is replaced)
                    pass
        return {
            "cap": self.memory_mb * MB,
            "per_search": self.search_mb * MB,
            "held": held,
            "kept_trees": kept,
            "idle_seconds": self.idle,
        }

    def _terminate(self, query_id):
        self._engine().handle_line(
            json.dumps({"id": f"stop-{query_id}", "action": "terminate", "terminateId": query_id})
        )

    # ---- tabs -------------------------------------------------------------------------

    def open_tab(self, loop):
        with self.lock:
            if len(self.tabs) >= MAX_TABS:
                raise TesseraError(f"at most {MAX_TABS} pages can analyse at once")
            tab = Tab(loop)
            self.tabs[tab.id] = tab
        return tab

    def end_streams(self):
        """The server stops: every page's stream ends (its search stops as it does)."""
        with self.lock:
            tabs = list(self.tabs.values())
        for tab in tabs:
            tab.loop.call_soon_threadsafe(tab.events.put_nowait, None)

    def close_tab(self, tab):
        """The tab's stream closed: its search stops and the kept trees go."""
        with self.lock:
            if self.tabs.pop(tab.id, None) is None:
                return  # closed already (the stream and its watcher both end)
        self.stop(tab)
        self.drop_trees()

    def tab(self, tab_id):
        tab = self.tabs.get(tab_id) if isinstance(tab_id, str) else None
        if tab is None:
            raise TesseraError("this page has no analysis stream open (reload the page)")
        return tab

    def analyse(self, tab, position_text, seconds, visits=None, algo="mcts"):
        """Start the tab's search of ``position_text`` (its old one stops); the query id.
        ``algo`` ``mcts`` reports as it searches; ``solve`` (exact values, alpha-beta)
        answers once, proven or, when its time runs out, with its estimate."""
        if algo not in ALGOS:
            raise TesseraError(f"algo must be one of {', '.join(ALGOS)}, not {shown(algo)}")
        query = {
            "id": f"{tab.id}.{next(self.serials)}",
            "position": position_text,
            "maxTime": _seconds(seconds),
            "algo": algo,
        }
        if algo == "mcts":
            query["memory"] = self.search_mb
            if not _is_view(position_text):
                query["reportDuringSearchEvery"] = REPORT_EVERY
        if visits is not None and algo == "mcts":
            if type(visits) is not int or not 1 <= visits <= MAX_VISITS:
                raise TesseraError(f"visits must be a whole number from 1 to {MAX_VISITS}")
            query["maxVisits"] = visits
        self._swap_query(tab, query["id"])  # once the query is good: a bad one changes nothing

        def deliver(document):
            if _is_final(document):
                self._finished(tab, document.get("id"))
            tab.deliver(document)

        self._send(query, deliver)
        return query["id"]

    def stop(self, tab):
        self._swap_query(tab, None)

    def search_for(self, tab, query, deliver, answers=1, replacing=None):
        """Send ``query`` (of ``answers`` turns) as ``tab``'s search, its old one stopped;
        ``deliver`` gets its lines on the engine's threads. With ``replacing`` (a query of the
        tab that has ended), only while that is still the tab's search: False otherwise
        (the page stopped it or started another)."""
        with self.lock:
            if replacing is not None and tab.query != replacing:
                return False
            old, tab.query = tab.query, query["id"]
            self.last_search = time.monotonic()
        if replacing is None and old is not None:
            self._terminate(old)
        self._send(query, deliver, answers)
        return True

    def is_current(self, tab, query_id):
        """Whether ``query_id`` is ``tab``'s search now."""
        with self.lock:
            return tab.query == query_id

    def release(self, tab, query_id):
        """``query_id`` answered for the last time: the tab searches no more, unless it has
        started another."""
        self._finished(tab, query_id)

    def _swap_query(self, tab, query_id):
        """``query_id`` becomes the tab's search and its old one stops: one swap under the
        lock, so two requests of one tab at once cannot both leave a search running."""
        with self.lock:
            old, tab.query = tab.query, query_id
            self.last_search = time.monotonic()
        if old is not None:
            self._terminate(old)

    def _finished(self, tab, query_id):
        """The query answered for the last time: the tab searches no more, unless it has
        started another (checked and cleared at once: the engine's threads call this)."""
        with self.lock:
            if tab.query == query_id:
                tab.query = None

    async def choose(self, tab, position_text, seconds):
        """The engine's answer for ``position_text`` in ``seconds`` (the tab's one search)."""
        loop = asyncio.get_running_loop()
        answered = loop.create_future()
        query = {
            "id": f"{tab.id}.{next(self.serials)}",
            "position": position_text,
            "maxTime": _seconds(seconds),
            "topMoves": 1,
            "memory": self.search_mb,
        }
        await asyncio.to_thread(self._swap_query, tab, query["id"])

        def deliver(document):
            if _is_final(document):
                loop.call_soon_threadsafe(_settle, answered, document)

        self._send(query, deliver)
        try:
            return await answered
        finally:
            self._finished(tab, query["id"])


def _is_view(position_text):
    """Information-set MCTS on a view gives only its final answer: no partial reports."""
    from tessera.position import Position

    return Position.parse(position_text).is_view


def _settle(future, document):
    if not future.done():
        future.set_result(document)


def _is_final(document):
    return not document.get("isDuringSearch", False)


def _seconds(value):
    return seconds_field({"seconds": value}, "seconds", MAX_SECONDS, None)


def search_memory_mb(memory_mb, searches):
    """Each search's memory bound (MB) when ``searches`` share ``memory_mb``, each
    process also keeping up to KEEP finished trees; TesseraError when it is too little."""
    from tessera.analysis.engine import KEEP
    from tessera.search.request import least_memory_mb

    share = memory_mb // (searches * (KEEP + 1))
    least = least_memory_mb()
    if share < least:
        raise TesseraError(
            f"--memory {memory_mb} MB is too little for {searches} searches: "
            f"at least {least * searches * (KEEP + 1)} MB"
        )
    return share
