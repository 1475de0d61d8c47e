"""Run the board's server (`tessera serve`): uvicorn on one host and port, the kernels
of every game loaded in the background as it starts (``warming``), so the first moves
and searches answer at once.

Listening beyond loopback (``--host``) is said on stderr, and the board then needs a
token (made up unless ``--token`` gives one), printed in the page's address. The
connections are held to read and write deadlines and a cap (``tessera.web.connections``)."""

import asyncio
import math
import secrets
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from tessera.errors import TesseraError, require_extra

SHUTDOWN_SECONDS = 5


def serve(
    host,
    port,
    open_page,
    searches,
    runs=(),
    token=None,
    memory_mb=None,
    idle=None,
    review_seconds=None,
    max_connections=None,
    header_seconds=None,
    body_seconds=None,
    write_seconds=None,
):
    """Serve the board until Ctrl-C. ``review_seconds``: a game review's search time a
    position; the connections' cap and read and write deadlines (``tessera.web.connections``). Each
    None is its default."""
    uvicorn = require_extra("uvicorn", "web", "tessera serve")
    from tessera.web.analysis import (
        DEFAULT_IDLE_SECONDS,
        DEFAULT_MEMORY_MB,
        DEFAULT_REVIEW_SECONDS,
        search_memory_mb,
    )
    from tessera.web.app import create_app
    from tessera.web.connections import BACKLOG, Limits, connection_cap, guarded_protocol, quiet_accept_errors
    from tessera.web.guard import is_loopback, url_host

    for option, value in (
        ("--idle", idle),
        ("--review-seconds", review_seconds),
        ("--header-timeout", header_seconds),
        ("--body-timeout", body_seconds),
        ("--write-timeout", write_seconds),
    ):
        if value is not None and not math.isfinite(value):
            raise TesseraError(f"{option} must be a number of seconds, not {value}")
    for root in runs:
        if not Path(root).is_dir():
            raise TesseraError(f"--runs {root}: no such directory")
    if token is not None and not token:
        raise TesseraError("--token must not be empty")
    # It travels in a cookie, a header and the page's address: printable ASCII only.
    if token is not None and not all("!" <= char <= "~" and char not in '"\\;,%&#?' for char in token):
        raise TesseraError('--token may hold only printable ASCII characters, without spaces or " \\ ; , % & # ?')
    memory_mb = DEFAULT_MEMORY_MB if memory_mb is None else memory_mb
    search_memory_mb(memory_mb, searches)  # too little is said before anything starts
    if not is_loopback(host):
        token = token or secrets.token_urlsafe(24)
        print(
            f"warning: tessera serve listens on {host}, beyond this machine: anyone who can "
            f"reach port {port} can drive the board (and read the run folders under --runs) "
            f"once they have its token, which is in the address printed below",
            file=sys.stderr,
            flush=True,
        )
    _check_free(host, port)
    app = create_app(
        searches=searches,
        runs=list(runs) or None,
        host=host,
        token=token,
        memory_mb=memory_mb,
        idle=DEFAULT_IDLE_SECONDS if idle is None else idle,
        review_seconds=DEFAULT_REVIEW_SECONDS if review_seconds is None else review_seconds,
        warm=True,
    )
    given = {
        "header_seconds": header_seconds,
        "body_seconds": body_seconds,
        "write_seconds": write_seconds,
        "max_connections": max_connections,
    }
    limits = Limits(**{name: value for name, value in given.items() if value is not None})
    limits.max_connections = connection_cap(limits.max_connections)

    class BoardServer(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # An open page keeps its event stream open, and uvicorn waits for every
            # response to end: end the streams first (and, failing that, after a while).
            app.state.hub.end_streams()
            super().handle_exit(sig, frame)

        async def startup(self, sockets=None):
            quiet_accept_errors(asyncio.get_running_loop())
            await super().startup(sockets)

    # uvicorn's h11 protocol on asyncio's own loop, whatever else is installed: the one the
    # connections' guard extends; no websockets (the board has none). Its warnings are of
    # clients' malformed requests, already answered with a 400: the log has its errors only.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(limits),
        loop="asyncio",
        ws="none",
        backlog=BACKLOG,
        log_level="error",
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    server = BoardServer(config)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else url_host(host)}:{port}/"
    if token is not None:
        url += f"?token={token}"
    threading.Thread(target=_announce, args=(server, url, open_page), daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has shut down
        pass


def _announce(server, url, open_page):
    import time

    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    print(f"Tessera board at {url} (Ctrl-C stops it)", flush=True)
    if open_page:
        webbrowser.open(url)


def _check_free(host, port):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            raise TesseraError(f"cannot listen on {host}:{port}: {err.strerror}") from None
