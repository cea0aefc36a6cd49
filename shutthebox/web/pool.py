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

Bounds: ``OPEN`` connections still sending their head, ``WAITING`` complete
requests queued for a worker, ``CONNECTIONS`` connections in all, and
``PER_CLIENT`` connections from one client address; beyond any of them a
connection is answered 503 at once. The listen backlog is 128. Standard
library only.
"""

from __future__ import annotations

import os
import queue
import selectors
import socket
import sys
import threading
import time
from http.server import HTTPServer

from .handler import DISCONNECTS, escape
from .tables import PROG

THREADS = 16  # workers: a page load asks for a handful of files at once
WAITING = 256  # complete requests queued for a worker
OPEN = 512  # connections whose request head is still arriving
CONNECTIONS = 768  # connections in all: arriving, waiting, answered and being sent
PER_CLIENT = 128  # connections from one client address (a browser opens 6 to a server)
ANSWER_TIMES = 12  # an answer must be sent within this many timeouts (2 minutes by default)
HEAD_LIMIT = 1 << 16  # a longer request head is refused (431)
_CHUNK = 1 << 16
_BURST = 16  # sends to one connection before the others get their turn


def _answer(status: str, text: str) -> bytes:
    body = text.encode()
    return (b"HTTP/1.0 %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
            b"Retry-After: 1\r\nContent-Security-Policy: frame-ancestors 'none'\r\nX-Frame-Options: DENY\r\n"
            b"Connection: close\r\n\r\n%s" % (status.encode(), len(body), body))


BUSY = _answer("503 Service Unavailable", "503: the server is busy; try again\n")
FAILED = _answer("500 Internal Server Error", "500: the server failed to answer; its standard error says why\n")
TOO_LONG = _answer("431 Request Header Fields Too Large", "431: the request head is too long\n")


class _Sending:
    """An answer on its way: bytes made by a worker, then (maybe) a file read a chunk at a time."""

    __slots__ = ("address", "pending", "descriptor", "left", "moved", "deadline")

    def __init__(self, address, data, body, now, answer_time):
        self.address = address
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

    def __init__(self, address, handler, timeout=10.0, threads=THREADS):
        self.head_timeout = timeout
        self.answer_time = timeout * ANSWER_TIMES
        self._heads: dict = {}
        self._answers: dict = {}  # socket -> (bytes, file body) made by a worker
        self._queue: queue.Queue = queue.Queue(WAITING)
        self._made: queue.SimpleQueue = queue.SimpleQueue()  # (socket, address) whose answer is made
        self._clients: dict = {}  # client address -> connections open (the selector thread's alone)
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

    def keep_answer(self, request, data: bytes, body) -> None:
        """The answer the handler made for ``request``: ``data`` (headers and a short body) and ``body``,
        None or ``(descriptor, length)`` of a file to send after it (the server closes the descriptor)."""
        old = self._answers.pop(request, None)
        if old is not None and old[1] is not None:
            os.close(old[1][0])
        self._answers[request] = (data, body)

    def serve_forever(self, poll_interval=0.5):
        selector = selectors.DefaultSelector()
        self.socket.setblocking(False)
        selector.register(self.socket, selectors.EVENT_READ)
        selector.register(self._wake_read, selectors.EVENT_READ)
        arriving: dict = {}  # socket -> [head so far, client address, deadline], oldest first
        sending: dict = {}  # socket -> _Sending
        try:
            while not self._stop.is_set():
                wait = poll_interval
                if arriving:
                    wait = min(wait, max(0.0, next(iter(arriving.values()))[2] - time.monotonic()))
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
                while arriving:  # deadlines grow with accept order: the oldest first
                    sock, (_, _, deadline) = next(iter(arriving.items()))
                    if deadline > now:
                        break
                    self._drop(selector, arriving, sock)
                for sock, answer in list(sending.items()):  # a client that stopped reading, or too slow
                    if now - answer.moved > self.head_timeout or now > answer.deadline:
                        self._end(selector, sending, sock)
        finally:
            for sock in list(arriving):
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
            client = address[0]
            if (len(arriving) >= OPEN or sum(self._clients.values()) >= CONNECTIONS
                    or self._clients.get(client, 0) >= PER_CLIENT):
                _refuse(sock, BUSY)
                continue
            self._clients[client] = self._clients.get(client, 0) + 1
            sock.setblocking(False)
            arriving[sock] = [b"", address, time.monotonic() + self.head_timeout]
            selector.register(sock, selectors.EVENT_READ)

    def _read(self, selector, arriving, sock):
        entry = arriving[sock]
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
        if b"\r\n\r\n" in head or b"\n\n" in head:
            selector.unregister(sock)
            del arriving[sock]
            sock.setblocking(True)
            self._heads[sock] = head
            try:
                self._queue.put_nowait((sock, entry[1]))
            except queue.Full:
                self._heads.pop(sock, None)
                self._gone(entry[1])
                _refuse(sock, BUSY)
        elif len(head) > HEAD_LIMIT:
            selector.unregister(sock)
            del arriving[sock]
            self._gone(entry[1])
            _refuse(sock, TOO_LONG)

    def _drop(self, selector, arriving, sock):
        """A connection that closed or sent no complete request in time: closed without a word."""
        selector.unregister(sock)
        self._gone(arriving.pop(sock)[1])
        sock.close()

    def _gone(self, address):
        client = address[0]
        left = self._clients.get(client, 0) - 1
        if left > 0:
            self._clients[client] = left
        else:
            self._clients.pop(client, None)

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
                self.keep_answer(sock, FAILED, None)  # what the handler made is partial: the client hears why
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
            data, body = self._answers.pop(sock, (b"", None))
            answer = sending[sock] = _Sending(address, data, body, now, self.answer_time)
            try:
                sock.setblocking(False)
            except OSError:
                pass
            selector.register(sock, selectors.EVENT_WRITE)
            if answer.pending or answer.left:
                self._push(selector, sending, sock)
            else:
                self._end(selector, sending, sock)

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
                if not chunk:  # the file shrank: the client sees a short answer
                    answer.left = 0
                    break
                answer.left -= len(chunk)
                answer.pending = memoryview(chunk)
            try:
                sent = sock.send(answer.pending)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # reset or closed by the client: nothing to report
                answer.pending, answer.left = memoryview(b""), 0
                break
            answer.pending = answer.pending[sent:]
            answer.moved = time.monotonic()
        else:
            return  # more to send: after the other connections' turn
        if not answer.pending and not answer.left:
            self._end(selector, sending, sock)

    def _end(self, selector, sending, sock):
        """The answer is sent (or cut off): the connection is closed."""
        answer = sending.pop(sock)
        answer.close_file()
        try:
            selector.unregister(sock)
        except (KeyError, ValueError):
            pass
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
