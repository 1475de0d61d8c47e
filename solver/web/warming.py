"""The kernels of every game loaded as `tessera serve` starts, in the background, and how
far that is, for the page (``GET /api/warmup``, docs/web.md).

Each game has two stages, and the two kinds run side by side, each game in turn:

- ``moves``: the rules, in the server's own process (what a position's page, a move and
  a parse call): the board answers moves once they are ready;
- ``search``: one search of a single visit of the game's start in the analysis engine's
  search processes: live analysis and the engine's moves start without loading anything.
  One game at a time, so that another search process stays free for a page.

On an empty numba cache each stage compiles (minutes in all); on a warm one it loads from
the cache (seconds). Moves never wait for the search: the stages run in separate threads
and the search in separate processes. A stage that fails says why; what needs it meets
the same error when it asks.
"""

import threading
import time

STAGES = ("moves", "search")
WAITING, COMPILING, READY, FAILED = "waiting", "compiling", "ready", "failed"


class Stage:
    def __init__(self):
        self.state = WAITING
        self.started = None  # time.monotonic() when it began
        self.ended = None
        self.error = None

    def report(self, now):
        report = {"state": self.state}
        if self.started is not None:
            report["seconds"] = round((self.ended or now) - self.started, 1)
        if self.error is not None:
            report["error"] = self.error
        return report


class Warming:
    """The stages of ``games`` (names, in the order they load); ``hub`` the board's
    ``AnalysisHub``, or None when the server has no analysis (then no search stage)."""

    def __init__(self, games, hub):
        self.games = list(games)
        self.hub = hub
        self.stages = {
            (game, stage): Stage() for game in self.games for stage in STAGES if stage != "search" or hub is not None
        }
        self.lock = threading.Lock()
        self.started = None
        # Whether the kernels load from those the package ships compiled (a second or two)
        # or compile (minutes): known once the moves' thread has looked, None before.
        self.compiled_ahead = None

    def start(self):
        self.started = time.monotonic()
        threading.Thread(target=self._load_moves, name="warm-moves", daemon=True).start()
        if self.hub is not None:
            threading.Thread(
                target=self._run_each, args=("search", self.hub.load_search), name="warm-search", daemon=True
            ).start()

    def _load_moves(self):
        from tessera.warmup import compiled_ahead

        self.compiled_ahead = compiled_ahead()
        self._run_each("moves", load_moves)

    def _run_each(self, stage_name, load):
        for game in self.games:
            stage = self.stages[game, stage_name]
            with self.lock:
                stage.state, stage.started = COMPILING, time.monotonic()
            try:
                load(game)
                state, error = READY, None
            except Exception as err:  # shown on the page; a request meets it again
                state, error = FAILED, " ".join(str(err).split()) or type(err).__name__
            with self.lock:
                stage.state, stage.error, stage.ended = state, error, time.monotonic()

    def report(self):
        """Each game's stages (``state`` waiting, compiling, ready or failed; ``seconds``
        since the stage began, or that it took; ``error`` of a failed one), how many
        stages have ended of how many, whether all are ready, and whether the kernels
        load from those shipped compiled (``compiled_ahead``: a stage "compiling" then only
        loads; None until known)."""
        now = time.monotonic()
        with self.lock:
            games = [
                {
                    "game": game,
                    "stages": {name: stage.report(now) for (of, name), stage in self.stages.items() if of == game},
                }
                for game in self.games
            ]
            states = [stage.state for stage in self.stages.values()]
        return {
            "games": games,
            "done": sum(state in (READY, FAILED) for state in states),
            "total": len(states),
            "ready": all(state == READY for state in states),
            "seconds": round(now - self.started, 1) if self.started is not None else 0.0,
            "compiled_ahead": self.compiled_ahead,
        }


def load_moves(name):
    """What a position's page of game ``name`` needs: a new game, a move played, its
    document, its text read back."""
    from tessera.position import Position
    from tessera.web.documents import document, new_game, play

    start, rng = new_game(name, 0, {})
    document(play(start, start.legal_moves[0], rng, True)[0], rng)
    Position.parse(start.text())


def not_warming():
    """The report of a server that loads nothing ahead (the board's tests)."""
    return {"games": [], "done": 0, "total": 0, "ready": True, "seconds": 0.0, "compiled_ahead": None}
