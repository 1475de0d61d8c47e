"""Run the board's server (`tessera serve`): uvicorn on one host and port, the kernels
of every game loaded in the background so the first moves answer at once."""
import socket
import threading
import webbrowser

from tessera.errors import TesseraError

SHUTDOWN_SECONDS = 5


def serve(host, port, open_page, searches):
    try:
        import uvicorn
        from tessera.web.app import create_app
    except ImportError as err:
        raise TesseraError(f"tessera serve needs the web extra (pip install 'tessera-games[web]'): "
                           f"{err}") from None
    _check_free(host, port)
    app = create_app(searches=searches)

    class BoardServer(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # An open page keeps its event stream open, and uvicorn waits for every
            # response to end: end the streams first (and, failing that, after a while).
            app.state.hub.end_streams()
            super().handle_exit(sig, frame)

    server = BoardServer(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                        timeout_graceful_shutdown=SHUTDOWN_SECONDS))
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    threading.Thread(target=_announce, args=(server, url, open_page), daemon=True).start()
    threading.Thread(target=warm_up, daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:       # uvicorn raises the Ctrl-C again once it has shut down
        pass


def warm_up():
    """Load (or compile) what a position's page needs, for every game: the first request
    of each game then costs milliseconds."""
    from tessera.position import Position
    from tessera.web.documents import document, new_game, play
    for name in ("azul", "pavilion", "azure"):
        start, rng = new_game(name, 0, {})
        document(play(start, start.legal_moves[0], rng, True)[0], rng)
        Position.parse(start.text())


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
