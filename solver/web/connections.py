"""The board's connections, held on an open network: read and write deadlines, a cap on
open connections, and accept errors kept out of the log.

uvicorn reads a request for as long as its client takes, waits for as long as its client
takes to read an answer, and takes every connection it can accept. So `tessera serve`
runs uvicorn's h11 protocol with four additions
(``guarded_protocol``; the uvicorn series it extends is pinned in pyproject's ``web`` extra):

- a request's headers must have arrived ``header_seconds`` after its first byte (after
  the connection opened, for its first request), and its body ``body_seconds`` after its
  headers: these are deadlines, not idle times, so a client that trickles a byte now and
  then is cut as surely as one that stops. A client cut mid-request gets a 408 (what it
  sends after that is read and dropped for ``LINGER`` seconds, so that the answer is not
  lost to a reset); one that sent nothing is closed without a word (a browser opens
  spare connections ahead);
- an answer its client does not read: once the connection's send buffers are full (the
  transport pauses writing), the client has ``write_seconds`` to take some of it, else the
  connection is reset, what was not sent dropped. An event stream to a page that stopped
  reading would otherwise keep its analysis slot, and the search in it, for good. The
  kernel's send buffer of a connection is held to ``SEND_BUFFER`` (it would grow to
  megabytes, each of a connection that reads nothing, and take a minute of answers to fill);
- at most ``max_connections`` are open at once. A new one past the cap closes the
  connection that has waited longest for its request to be read (one sending its
  headers or body, or idle between requests), since a client that means it sends its
  request at once. A connection is not closed so before the event loop has had a turn to
  read it: when the longest waiting one is that new, or every open connection is being
  answered (event streams, a search), the new one is closed instead. Either is closed at
  once, without a log line;
- the event loop's report of a failed accept (out of descriptors: the cap is set below
  the process's limit, ``connection_cap``) is one line a minute, not a traceback each time.
"""

import contextlib
import socket
import struct
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_HEADER_SECONDS = 10.0  # a request's headers, from its first byte (or the connection's start)
DEFAULT_BODY_SECONDS = 30.0  # its body, from its headers (1 MB at most: tessera.web.http.MAX_BODY)
DEFAULT_WRITE_SECONDS = 30.0  # an answer's client reads some of it, once the send buffers are full
SEND_BUFFER = 64 * 1024  # bytes of a connection's kernel send buffer (Linux doubles it), beyond its transport's
DEFAULT_MAX_CONNECTIONS = 1000
BACKLOG = 256  # connections the kernel queues for accept(); the loop accepts this many at a time
# Accepted sockets wait up to three turns of the event loop before their protocol can close
# them (accepted, transport made, connection made): so many descriptors the cap leaves free,
# and these for everything else (the search processes' pipes, files).
IN_FLIGHT = 3 * BACKLOG
RESERVED_FILES = 256
MIN_CONNECTIONS = 64  # the cap however low the descriptors' limit: past it, accepts wait (quietly)
ACCEPT_ERROR_EVERY = 60.0  # seconds between two log lines of failed accepts
ACCEPT_ERROR = "socket.accept() out of system resource"  # asyncio's message for it
TIMED_OUT = b'{"error": "the request did not arrive in time"}'
# Seconds a connection cut with a 408 drops what its client still sends, before it closes:
# closing while unread bytes arrive resets the connection, and a reset loses the 408 a busy
# client has not read yet. A lingering connection is the first to go for a new one.
LINGER = 1.0


@dataclass
class Limits:
    """A server's read and write deadlines (seconds) and its cap on open connections."""

    header_seconds: float = DEFAULT_HEADER_SECONDS
    body_seconds: float = DEFAULT_BODY_SECONDS
    write_seconds: float = DEFAULT_WRITE_SECONDS
    max_connections: int = DEFAULT_MAX_CONNECTIONS


def guarded_protocol(limits):
    """uvicorn's h11 protocol class with ``limits`` (a ``Limits``): the deadlines and the
    cap of the module's docstring. Each call makes a class of its own, with its own count
    of open connections (one per server)."""
    opened = set()  # every connection taken and not yet closed
    waiting = OrderedDict()  # those whose request is being read, or idle: longest waiting first

    class GuardedProtocol(H11Protocol):
        refused = False
        phase = None  # "headers", "body", "idle" (between requests), "linger" or None (being answered)
        deadline = None  # the timer of the phase's deadline
        write_deadline = None  # the timer of a write the client does not take
        heard = False  # a byte of the current request has arrived
        seen = False  # the event loop has had a turn to read it

        def connection_made(self, transport):
            if len(opened) >= limits.max_connections:
                oldest = next(iter(waiting), None)
                if oldest is None or not oldest.seen:
                    self.refused = True
                    transport.abort()
                    return
                oldest.cut()
            opened.add(self)
            _set_option(transport, socket.SO_SNDBUF, SEND_BUFFER)
            super().connection_made(transport)
            self.watch()
            # Its reader is registered in the next turn of the loop, and data waiting for it
            # read in the turn after: after those two it may be closed for a newer one.
            self.loop.call_soon(self.loop.call_soon, self.see)

        def see(self):
            self.seen = True

        def connection_lost(self, exc):
            if self.refused:
                return
            self.forget()
            super().connection_lost(exc)

        def data_received(self, data):
            if self.phase == "linger":
                return  # answered with a 408 already
            self.heard = self.heard or bool(data)
            super().data_received(data)
            self.watch()

        def on_response_complete(self):
            self.heard = False  # what comes next is another request
            super().on_response_complete()
            self.watch()

        # ---- the deadlines -------------------------------------------------------------

        def watch(self):
            """Set the phase from h11's view of the client, and its deadline with it."""
            if self.transport.is_closing():
                self.forget()
                return
            if self.phase == "linger":
                return
            state = self.conn.their_state
            if state is h11.IDLE:
                if self.timeout_keep_alive_task is not None:
                    phase = "idle"  # uvicorn's keep-alive timeout closes it
                else:
                    phase = "headers"
            elif state is h11.SEND_BODY:
                phase = "body"
            else:
                phase = None
            if phase == self.phase:
                return
            self.deadline = _cancelled(self.deadline)
            if phase is None:
                waiting.pop(self, None)
            else:
                if phase == "headers" or self not in waiting:
                    waiting.pop(self, None)  # a new request's read starts: last in the line
                    waiting[self] = None
                if phase != "idle":
                    seconds = limits.header_seconds if phase == "headers" else limits.body_seconds
                    self.deadline = self.loop.call_later(seconds, self.too_slow)
            self.phase = phase

        def too_slow(self):
            """The deadline passed: a 408 to a client that sent part of a request (then
            LINGER), or close at once."""
            self.deadline = None
            if self.transport.is_closing():
                return
            if not (self.phase == "body" or self.heard) or self.conn.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
                self.forget()
                self.transport.close()
                return
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(TIMED_OUT), TIMED_OUT)
            )
            try:
                self.transport.write_eof()  # the answer, then the end, while its sending is dropped
            except OSError:  # the client is gone already
                self.cut()
                return
            # Still counted under the cap, and first to go for a new connection.
            self.phase = "linger"
            self.deadline = self.loop.call_later(LINGER, self.cut)

        def pause_writing(self):
            super().pause_writing()
            if self.write_deadline is None:
                self.write_deadline = self.loop.call_later(limits.write_seconds, self.not_reading)

        def resume_writing(self):
            self.write_deadline = _cancelled(self.write_deadline)
            super().resume_writing()

        def not_reading(self):
            """The client took nothing of the answer for ``write_seconds``: reset, the answer
            not sent dropped (a plain close would keep it in the kernel for as long as the
            client holds out)."""
            self.write_deadline = None
            _set_option(self.transport, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.cut()

        def cut(self):
            """Closed at once to make room for a new connection."""
            self.forget()
            self.transport.abort()

        def forget(self):
            self.deadline = _cancelled(self.deadline)
            self.write_deadline = _cancelled(self.write_deadline)
            waiting.pop(self, None)
            opened.discard(self)
            self.phase = None

    GuardedProtocol.opened = opened
    return GuardedProtocol


def _cancelled(timer):
    """Cancel ``timer`` (an event loop's timer handle, or None); None, to store in its place."""
    if timer is not None:
        timer.cancel()
    return None


def _set_option(transport, option, value):
    """A socket option of ``transport``'s connection, where it has a socket that takes it."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, option, value)


def connection_cap(wanted):
    """How many connections the server may hold: ``wanted``, or fewer when the process may
    not open that many descriptors beside IN_FLIGHT and RESERVED_FILES (MIN_CONNECTIONS at
    least). The soft limit of open files is raised towards the hard one first, as far as
    that needs."""
    try:
        import resource
    except ImportError:  # no such limit to read (Windows): the cap as asked
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + IN_FLIGHT + RESERVED_FILES
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(hard, needed)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return min(wanted, max(MIN_CONNECTIONS, soft - IN_FLIGHT - RESERVED_FILES))


def quiet_accept_errors(loop):
    """The loop's report of a failed accept (asyncio then waits a second and accepts again)
    becomes one line on stderr a minute; every other report goes where it went."""
    previous = loop.get_exception_handler()
    last = [None]  # when the last line was written

    def handler(loop, context):
        if context.get("message") == ACCEPT_ERROR:
            now = time.monotonic()
            if last[0] is None or now - last[0] >= ACCEPT_ERROR_EVERY:
                last[0] = now
                error = context.get("exception")
                reason = getattr(error, "strerror", None) or str(error)
                print(
                    f"warning: tessera serve cannot accept connections for now ({reason}); it tries again each second",
                    file=sys.stderr,
                    flush=True,
                )
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
