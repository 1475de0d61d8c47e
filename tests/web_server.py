"""A real `tessera serve` in a child process on a free port, and Debian's chromium to open
it, for the web board's tests and bench/web_speed.py."""

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager

from tests.limits import EXIT_SECONDS, wait_or_kill

START_TIMEOUT = 60
# Debian's builds of Chromium; Playwright's own browsers are not used. The benches open the
# board in the browser a user runs; the tests in Chromium's headless shell, the same Blink and
# V8 without the desktop browser's layers, which costs the tests' machine less CPU a page.
CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_headless_shell(playwright):
    """Chromium's headless shell, as a Playwright browser: each of its contexts is a fresh
    profile of its own."""
    return playwright.chromium.launch(executable_path=HEADLESS_SHELL, headless=True, args=CHROMIUM_ARGS)


def launch_chromium(playwright, profile_dir):
    """A headless chromium with a fresh profile in ``profile_dir``, as a Playwright context."""
    return playwright.chromium.launch_persistent_context(
        str(profile_dir),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1400, "height": 1000},
    )


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_server(*args, env=None, open_files=None):
    """Yields (the page's URL, the process); Ctrl-C (SIGINT) stops it at the end, which
    must exit cleanly. ``process.output`` is what it printed so far (stdout and stderr).
    ``env``: variables added to the server's environment; ``open_files``: the server's
    limit of open descriptors (soft and hard), when given."""
    port = free_port()

    def limit_files():
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    process = subprocess.Popen(
        [sys.executable, "-m", "tessera", "serve", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1", **(env or {})),
        preexec_fn=limit_files if open_files is not None else None,
    )
    lines = queue.Queue()
    output = process.output = []

    def read():
        for line in process.stdout:
            output.append(line)
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        while True:
            line = lines.get(timeout=START_TIMEOUT)
            assert line is not None, f"tessera serve ended: {''.join(output)}"
            if line.startswith("Tessera board at"):
                break
        yield f"http://127.0.0.1:{port}", process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                wait_or_kill(process, EXIT_SECONDS)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"tessera serve did not stop on Ctrl-C: {''.join(output)}") from None
    assert process.returncode == 0, "".join(output)
