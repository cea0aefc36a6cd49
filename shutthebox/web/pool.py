"""The listening side of ``serve``: one selector thread reads request heads and sends answers, a fixed
pool of threads makes the answers.

A connection costs a worker thread only while its answer is being made, never
while it arrives or while it is sent: the selector thread reads every head
(and closes a connection whose head is not complete within the timeout), a
worker makes the answer in memory (the handler: headers and a short body, or a
file's descriptor), and the selector thread sends it without blocking, so idle,
half-sent and slowly read connections (slowloris, slow readers) hold no worker.
An answer is cut off when its client accepts nothing for the timeout, or when
it is not completely sent within ``ANSWER_TIMES`` times the timeout.

A request head must arrive at ``HEAD_RATE`` bytes a second after the first
``GRACE`` seconds (a browser sends it whole at once), and within the timeout;
a client sending it more slowly is dropped. So slow clients are bounded by
the rate of their heads, not by how many connections an address holds: the
page's user shares 127.0.0.1 with any local program, and 128 slow connections
from there must not shut the user out. When ``OPEN`` connections are still
sending their heads, a new one takes the place of the one furthest behind
(the slowest, a new connection is never that), so that a browser's request
still arrives during a flood of slow connections. Other bounds: ``WAITING``
complete requests queued for a worker, ``CONNECTIONS`` connections in all;
beyond them a connection is answered 503 at once. The listen backlog is 128.

HTTP/1.1: once an answer is sent whole, a connection the handler keeps (an HTTP/1.1
request without ``Connection: close`` or a body) waits for its next request head
exactly as a new connection does (the same deadlines, so an idle one is closed
after ``GRACE`` seconds); one whose answer was cut short, or that sent bytes past
its request head (pipelined, or a body), is closed. Standard library only.
"""

from __future__ import annotations

import heapq
import itertools
import os
import queue
import selectors
import socket
import sys
import threading
import time
from http.server import HTTPServer

from .handler import DISCONNECTS, escape
from .headers import security_headers
from .tables import PROG

THREADS = 16  # workers: a page load asks for a handful of files at once
WAITING = 256  # complete requests queued for a worker
OPEN = 512  # connections whose request head is still arriving
CONNECTIONS = 768  # connections in all: arriving, waiting, answered and being sent
GRACE = 2.0  # seconds a new connection may stay silent (a browser's preconnection) before HEAD_RATE applies
HEAD_RATE = 128  # bytes a second a request head must arrive at, after GRACE
ANSWER_TIMES = 12  # an answer must be sent within this many timeouts (2 minutes by default)
HEAD_LIMIT = 1 << 16  # a longer request head is refused (431)
_CHUNK = 1 << 16
_BURST = 16  # sends to one connection before the others get their turn


def _answer(status: str, text: str, headers=security_headers()) -> bytes:
    """An answer made before (or without) the handler, with the headers every answer carries."""
    body = text.encode()
    extra = "".join("%s: %s\r\n" % header for header in headers).encode("latin-1")
    return (b"HTTP/1.1 %s\r\nServer: ShutTheBox\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
            b"Retry-After: 1\r\n%sConnection: close\r\n\r\n%s" % (status.encode(), len(body), extra, body))


_WORDS = {"busy": ("503 Service Unavailable", "503: the server is busy; try again\n"),
          "failed": ("500 Internal Server Error", "500: the server failed to answer; its standard error says why\n"),
          "too long": ("431 Request Header Fields Too Large", "431: the request head is too long\n")}


class _Arriving:
    """The connections whose request head is arriving, the one furthest behind first: each must have its head
    by ``start + min(timeout, GRACE + received / HEAD_RATE)``, a deadline that only grows as bytes arrive
    (kept in a heap, fixed when it comes to the top)."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.entries: dict = {}  # socket -> [head so far, client address, start]
        self._heap: list = []  # (deadline when pushed, order, socket)
        self._order = itertools.count()

    def __len__(self):
        return len(self.entries)

    def __contains__(self, sock):
        return sock in self.entries

    def add(self, sock, address, now):
        self.entries[sock] = [b"", address, now]
        heapq.heappush(self._heap, (self._deadline(self.entries[sock]), next(self._order), sock))

    def pop(self, sock):
        return self.entries.pop(sock)

    def _deadline(self, entry):
        return entry[2] + min(self.timeout, GRACE + len(entry[0]) / HEAD_RATE)

    def first(self):
        """(deadline, socket) of the connection furthest behind, or None."""
        while self._heap:
            pushed, _, sock = self._heap[0]
            entry = self.entries.get(sock)
            if entry is None:  # answered or dropped since
                heapq.heappop(self._heap)
                continue
            deadline = self._deadline(entry)
            if deadline > pushed:  # it sent more since: further down
                heapq.heapreplace(self._heap, (deadline, next(self._order), sock))
                continue
            return deadline, sock
        return None


class _Sending:
    """An answer on its way: bytes made by a worker, then (maybe) a file read a chunk at a time."""

    __slots__ = ("address", "pending", "descriptor", "left", "moved", "deadline", "keep")

    def __init__(self, address, data, body, now, answer_time, keep=False):
        self.address = address
        self.keep = keep  # once sent whole, the connection waits for its next request
        self.pending = memoryview(data)
        self.descriptor, self.left = body if body is not None else (None, 0)
        self.moved = now  # when the client last took bytes
        self.deadline = now + answer_time

    def close_file(self):
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None


class Server(HTTPServer):
    """``HTTPServer`` with a bounded pool; ``timeout`` (seconds) bounds the wait for a request head and for
    a client to take bytes of its answer."""

    request_queue_size = 128  # the listen backlog

    def __init__(self, address, handler, timeout=10.0, threads=THREADS, open_limit=OPEN):
        self.head_timeout = timeout
        self.answer_time = timeout * ANSWER_TIMES
        self.open_limit = open_limit
        headers = getattr(handler, "security", security_headers())
        self._said = {name: _answer(*words, headers) for name, words in _WORDS.items()}
        self._heads: dict = {}
        self._answers: dict = {}  # socket -> (bytes, file body, keep the connection) made by a worker
        self._spilled: set = set()  # sockets that sent bytes past their request head: closed after the answer
        self._arriving = _Arriving(timeout)
        self._queue: queue.Queue = queue.Queue(WAITING)
        self._made: queue.SimpleQueue = queue.SimpleQueue()  # (socket, address) whose answer is made
        self._connections = 0  # open: arriving, waiting, answered and being sent (the selector thread's alone)
        self._stop = threading.Event()
        self._workers: list = []  # server_close runs when binding fails
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._wake_write.setblocking(False)
        super().__init__(address, handler)
        self._workers = [threading.Thread(target=self._work, name="serve-%d" % n, daemon=True)
                         for n in range(threads)]
        for worker in self._workers:
            worker.start()

    def take_head(self, request) -> bytes:
        """The request head the selector thread read for ``request`` (the handler reads it from here)."""
        return self._heads.pop(request, b"")

    def keep_answer(self, request, data: bytes, body, keep=False) -> None:
        """The answer the handler made for ``request``: ``data`` (headers and a short body) and ``body``,
        None or ``(descriptor, length)`` of a file to send after it (the server closes the descriptor);
        ``keep``: the connection then waits for its next request (HTTP/1.1), else it is closed."""
        old = self._answers.pop(request, None)
        if old is not None and old[1] is not None:
            os.close(old[1][0])
        self._answers[request] = (data, body, keep)

    def serve_forever(self, poll_interval=0.5):
        selector = selectors.DefaultSelector()
        self.socket.setblocking(False)
        selector.register(self.socket, selectors.EVENT_READ)
        selector.register(self._wake_read, selectors.EVENT_READ)
        arriving = self._arriving
        sending: dict = {}  # socket -> _Sending
        try:
            while not self._stop.is_set():
                wait = poll_interval
                first = arriving.first()
                if first is not None:
                    wait = min(wait, max(0.0, first[0] - time.monotonic()))
                if sending:
                    wait = min(wait, 0.25)
                for key, _ in selector.select(wait):
                    if key.fileobj is self.socket:
                        self._accept(selector, arriving, sending)
                    elif key.fileobj is self._wake_read:
                        self._take_made(selector, sending)
                    elif key.fileobj in sending:
                        self._push(selector, sending, key.fileobj)
                    elif key.fileobj in arriving:
                        self._read(selector, arriving, key.fileobj)
                now = time.monotonic()
                while (first := arriving.first()) is not None and first[0] <= now:  # too slow, or too late
                    self._drop(selector, arriving, first[1])
                for sock, answer in list(sending.items()):  # a client that stopped reading, or too slow
                    if now - answer.moved > self.head_timeout or now > answer.deadline:
                        self._end(selector, sending, sock)
        finally:
            for sock in list(arriving.entries):
                self._drop(selector, arriving, sock)
            for sock in list(sending):
                self._end(selector, sending, sock)
            selector.close()

    # -- arriving: the request head ------------------------------------------------------------------------

    def _accept(self, selector, arriving, sending):
        for _ in range(64):  # then look at the other sockets again
            try:
                sock, address = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, or the client gave up already
                return
            if (len(arriving) >= self.open_limit or self._connections >= CONNECTIONS) and len(arriving):
                self._drop(selector, arriving, arriving.first()[1])  # the one furthest behind makes room
            if self._connections >= CONNECTIONS:  # every other one is answered or being sent
                _refuse(sock, self._said["busy"])
                continue
            self._connections += 1
            sock.setblocking(False)
            arriving.add(sock, address, time.monotonic())
            selector.register(sock, selectors.EVENT_READ)

    def _read(self, selector, arriving, sock):
        entry = arriving.entries[sock]
        try:
            chunk = sock.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._drop(selector, arriving, sock)
            return
        entry[0] += chunk
        head = entry[0]
        ends = [at + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (at := head.find(mark)) >= 0]
        if ends:
            selector.unregister(sock)
            arriving.pop(sock)
            sock.setblocking(True)
            if len(head) > min(ends):
                self._spilled.add(sock)
            self._heads[sock] = head
            try:
                self._queue.put_nowait((sock, entry[1]))
            except queue.Full:
                self._heads.pop(sock, None)
                self._spilled.discard(sock)
                self._gone(entry[1])
                _refuse(sock, self._said["busy"])
        elif len(head) > HEAD_LIMIT:
            selector.unregister(sock)
            arriving.pop(sock)
            self._gone(entry[1])
            _refuse(sock, self._said["too long"])

    def _drop(self, selector, arriving, sock):
        """A connection that closed or sent no complete request in time: closed without a word."""
        selector.unregister(sock)
        self._gone(arriving.pop(sock)[1])
        sock.close()

    def _gone(self, address):
        """A connection is closed (``address``: its client's, for a log line)."""
        self._connections -= 1

    # -- the workers: the answer made in memory -------------------------------------------------------------

    def _work(self):
        while True:
            item = self._queue.get()
            if item is None:
                return
            sock, address = item
            try:
                self.finish_request(sock, address)
            except Exception:  # noqa: BLE001 - one request's failure never ends a worker
                self.handle_error(sock, address)
                self.keep_answer(sock, self._said["failed"], None)  # what the handler made is partial: the client hears why
            finally:
                self._heads.pop(sock, None)
                self._made.put((sock, address))
                try:
                    self._wake_write.send(b"\0")
                except OSError:  # the wake-up is pending already (buffer full), or the server is closing
                    pass

    # -- sending: the answer, without blocking ----------------------------------------------------------------

    def _take_made(self, selector, sending):
        try:
            while self._wake_read.recv(4096):
                pass
        except (BlockingIOError, InterruptedError, OSError):
            pass
        now = time.monotonic()
        while True:
            try:
                sock, address = self._made.get_nowait()
            except queue.Empty:
                return
            data, body, keep = self._answers.pop(sock, (b"", None, False))
            if sock in self._spilled:
                self._spilled.discard(sock)
                keep = False
            answer = sending[sock] = _Sending(address, data, body, now, self.answer_time, keep)
            try:
                sock.setblocking(False)
            except OSError:
                pass
            selector.register(sock, selectors.EVENT_WRITE)
            if answer.pending or answer.left:
                self._push(selector, sending, sock)
            else:
                self._end(selector, sending, sock, sent=True)

    def _push(self, selector, sending, sock):
        """Send what the client takes now; the answer ends when all is sent or the client is gone."""
        answer = sending[sock]
        for _ in range(_BURST):
            if not answer.pending:
                if not answer.left:
                    break
                try:
                    chunk = os.read(answer.descriptor, min(_CHUNK, answer.left))
                except OSError:
                    chunk = b""
                if not chunk:  # the file shrank: the client sees a short answer, and the connection ends
                    answer.left, answer.keep = 0, False
                    break
                answer.left -= len(chunk)
                answer.pending = memoryview(chunk)
            try:
                sent = sock.send(answer.pending)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # reset or closed by the client: nothing to report
                answer.pending, answer.left, answer.keep = memoryview(b""), 0, False
                break
            answer.pending = answer.pending[sent:]
            answer.moved = time.monotonic()
        else:
            return  # more to send: after the other connections' turn
        if not answer.pending and not answer.left:
            self._end(selector, sending, sock, sent=True)

    def _end(self, selector, sending, sock, sent=False):
        """The answer is sent (``sent``: whole) or cut off: a kept connection waits for its next request head,
        as a new one does; any other is closed."""
        answer = sending.pop(sock)
        answer.close_file()
        try:
            selector.unregister(sock)
        except (KeyError, ValueError):
            pass
        if sent and answer.keep and not self._stop.is_set():
            self._arriving.add(sock, answer.address, time.monotonic())
            selector.register(sock, selectors.EVENT_READ)
            return
        self._gone(answer.address)
        self.shutdown_request(sock)

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, DISCONNECTS):
            return  # the client went away: not an error of ours
        sys.stderr.write("%s: error answering %s: %s\n" % (PROG, client_address[0], escape(str(error) or
                                                                                             type(error).__name__)))

    def shutdown(self):
        self._stop.set()

    def server_close(self):
        self._stop.set()
        super().server_close()
        for _ in self._workers:
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                break  # workers are daemon threads: they end with the process
        for end in (self._wake_read, self._wake_write):
            end.close()


def _refuse(sock, answer):
    """Answer at once without waiting for the client, then close."""
    try:
        sock.setblocking(False)
        sock.send(answer)
    except OSError:
        pass
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    sock.close()
