"""The listening side of ``serve``: one thread gathers request heads, a fixed pool of threads answers.

A connection costs a thread only once its request head has arrived, so idle
or half-sent connections (slowloris) hold none: the gathering thread reads
every head with a selector and closes a connection whose head is not complete
within the timeout. Beyond ``OPEN`` connections still sending, or ``WAITING``
complete requests queued for a worker, a connection is answered 503 at once.
The listen backlog is 128. Standard library only.
"""

from __future__ import annotations

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
HEAD_LIMIT = 1 << 16  # a longer request head is refused (431)
_CHUNK = 1 << 16


def _answer(status: str, text: str) -> bytes:
    body = text.encode()
    return (b"HTTP/1.0 %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n"
            b"Retry-After: 1\r\nConnection: close\r\n\r\n%s" % (status.encode(), len(body), body))


BUSY = _answer("503 Service Unavailable", "503: the server is busy; try again\n")
TOO_LONG = _answer("431 Request Header Fields Too Large", "431: the request head is too long\n")


class Server(HTTPServer):
    """``HTTPServer`` with a bounded pool; ``timeout`` (seconds) bounds the wait for a request head."""

    request_queue_size = 128  # the listen backlog

    def __init__(self, address, handler, timeout=10.0, threads=THREADS):
        self.head_timeout = timeout
        self._heads: dict = {}
        self._queue: queue.Queue = queue.Queue(WAITING)
        self._stop = threading.Event()
        self._workers: list = []  # server_close runs when binding fails
        super().__init__(address, handler)
        self._workers = [threading.Thread(target=self._work, name="serve-%d" % n, daemon=True)
                         for n in range(threads)]
        for worker in self._workers:
            worker.start()

    def take_head(self, request) -> bytes:
        """The request head the gathering thread read for ``request`` (the handler reads it from here)."""
        return self._heads.pop(request, b"")

    def serve_forever(self, poll_interval=0.5):
        selector = selectors.DefaultSelector()
        self.socket.setblocking(False)
        selector.register(self.socket, selectors.EVENT_READ)
        arriving: dict = {}  # socket -> [head so far, client address, deadline], oldest first
        try:
            while not self._stop.is_set():
                wait = poll_interval
                if arriving:
                    wait = min(wait, max(0.0, next(iter(arriving.values()))[2] - time.monotonic()))
                for key, _ in selector.select(wait):
                    if key.fileobj is self.socket:
                        self._accept(selector, arriving)
                    else:
                        self._read(selector, arriving, key.fileobj)
                now = time.monotonic()
                while arriving:  # deadlines grow with accept order: the oldest first
                    sock, (_, _, deadline) = next(iter(arriving.items()))
                    if deadline > now:
                        break
                    self._drop(selector, arriving, sock)
        finally:
            for sock in list(arriving):
                self._drop(selector, arriving, sock)
            selector.close()

    def _accept(self, selector, arriving):
        for _ in range(64):  # then look at the other sockets again
            try:
                sock, address = self.socket.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, or the client gave up already
                return
            if len(arriving) >= OPEN:
                _refuse(sock, BUSY)
                continue
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
                _refuse(sock, BUSY)
        elif len(head) > HEAD_LIMIT:
            selector.unregister(sock)
            del arriving[sock]
            _refuse(sock, TOO_LONG)

    def _drop(self, selector, arriving, sock):
        """A connection that closed or sent no complete request in time: closed without a word."""
        selector.unregister(sock)
        del arriving[sock]
        sock.close()

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
            finally:
                self._heads.pop(sock, None)
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
