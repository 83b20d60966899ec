"""What a game's local web server needs, apart from its page and routes.

A game's package builds the routes (``sponsio_sim.cli.web``); this module
keeps the server safe and its work bounded, whatever the game:

- ``Guard``: who may ask. Bound to a loopback address, only requests whose
  Host is that loopback name (a page elsewhere cannot reach the server
  through a name it controls). Bound to another address, every request
  must carry the access token printed with the URL (``?token=``, the
  ``X-Access-Token`` header, or the cookie the page gets on its first
  load). A POST must be JSON: a page of another site cannot send one
  without asking first (CORS), and this server never grants that.
- ``read_json``: a request's body, bounded in bytes, as a dict.
- ``Worker``: questions run in worker threads, a few at once, a few more
  waiting, the rest refused with a message. Each answer streams as lines of
  JSON: progress, sharper answers, then the answer or one error line. The
  work stops at its next batch once the browser goes away, the time allowed
  is spent or the server stops (``tabletop_mc.progress.watching``). No
  stack trace reaches the page: an unexpected error is logged here and the
  page gets one line.
- ``run_server``: uvicorn on a socket bound here (so a port in use is one
  clear error), quiet; Ctrl-C stops it with one line.

Starlette and uvicorn, not Flask: an asyncio server streams an answer
while its work runs in a thread and learns at once that the browser left,
which a WSGI server cannot tell the application; Starlette is small (the
page needs routes, a streamed response and an exception handler, no more)
and both are widely used and maintained. They are the ``serve`` extra:
only this module and the game's web package import them.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import secrets
import socket
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

import anyio

from tabletop_mc import progress
from tabletop_mc.errors import UserError

TOKEN_COOKIE = "access_token"
TOKEN_HEADER = "x-access-token"
TICK = 0.25   # seconds between two lines of a streamed answer, at most (a line also tells whether the browser left)


class Refused(Exception):
    """A request this server will not serve: its HTTP status and one line for the page."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Abandoned(Exception):
    """The question's browser went away, or the server is stopping: its work stops."""


class TimeUp(Exception):
    """The question ran past the time allowed."""


class CompileClock:
    """Seconds this thread has spent compiling kernels (numba's ``numba:compile`` events, the
    outermost of nested ones): a question's time limit leaves out the first use of a kernel."""

    def __init__(self):
        import numba.core.event as event

        clock = self
        self.local = threading.local()

        class Listener(event.Listener):
            def on_start(self, ev):
                depth = getattr(clock.local, "depth", 0)
                if depth == 0:
                    clock.local.since = time.monotonic()
                clock.local.depth = depth + 1

            def on_end(self, ev):
                clock.local.depth -= 1
                if clock.local.depth == 0:
                    clock.local.total = clock.seconds() + time.monotonic() - clock.local.since

        event.register("numba:compile", Listener())

    def seconds(self) -> float:
        return getattr(self.local, "total", 0.0)


@dataclass(frozen=True)
class Limits:
    """The bounds on one server's work: ``body_bytes`` per request, questions ``running`` at once and
    ``waiting`` beyond those (the rest are refused), ``seconds`` per question."""
    body_bytes: int = 64 * 1024
    running: int = 2
    waiting: int = 4
    seconds: float = 120.0


def is_loopback(host: str) -> bool:
    """Is ``host`` (a name or an address) this machine's loopback?"""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Guard:
    """ASGI middleware: the access rules of the module docstring (``token`` None: loopback only)."""

    def __init__(self, app, *, token: str | None):
        self.app, self.token = app, token

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        refusal, set_cookie = self._check(scope, headers, query)
        if refusal is not None:
            return await _plain(send, refusal.status, str(refusal))

        async def send_with_cookie(message):
            if message["type"] == "http.response.start" and set_cookie:
                cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie.encode())]}
            await send(message)

        return await self.app(scope, receive, send_with_cookie)

    def _check(self, scope, headers: dict, query: dict) -> tuple[Refused | None, bool]:
        if self.token is None:
            host = headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if not is_loopback(name):
                return Refused(403, f"this server answers only on this machine (Host {host[:60]!r})"), False
        else:
            cookie = SimpleCookie()
            try:
                cookie.load(headers.get("cookie", ""))
            except Exception:   # a malformed cookie header is no token
                cookie = SimpleCookie()
            given = [query.get("token", [""])[0], headers.get(TOKEN_HEADER, ""),
                     cookie[TOKEN_COOKIE].value if TOKEN_COOKIE in cookie else ""]
            ok = [hmac.compare_digest(g.encode(), self.token.encode()) for g in given]
            if not any(ok):
                return Refused(403, "this server needs its access token: open the URL it printed "
                                    "(with ?token=...)"), False
            if ok[0] and not ok[2]:
                return self._post_check(scope, headers), True
        return self._post_check(scope, headers), False

    @staticmethod
    def _post_check(scope, headers: dict) -> Refused | None:
        if scope["method"] not in ("GET", "HEAD", "POST"):
            return Refused(405, f"method {scope['method']} is not served")
        if scope["method"] == "POST" and headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return Refused(415, "questions are JSON (Content-Type: application/json)")
        return None


async def _plain(send, status: int, text: str) -> None:
    body = json.dumps({"error": text}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


async def read_json(request, limit: int) -> dict:
    """The request's body as a JSON object, refused (413) past ``limit`` bytes before it is all read."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused(413, f"the request is larger than this server takes ({limit:,} bytes)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"the request is larger than this server takes ({limit:,} bytes)")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise Refused(400, "the request is not JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the request is not a JSON object")
    return data


class Worker:
    """Questions answered in threads, a few at once (module docstring); ``counts`` for the status page."""

    def __init__(self, limits: Limits = Limits(), *, on_thread_start=None, log=None):
        """``on_thread_start``: called in each worker thread as it starts (numba's thread count is per thread)."""
        self.limits = limits
        self.pool = ThreadPoolExecutor(limits.running, thread_name_prefix="answer", initializer=on_thread_start)
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.log = log or sys.stderr
        self.counts = {"running": 0, "waiting": 0, "answered": 0, "invalid": 0, "abandoned": 0, "timed_out": 0,
                       "failed": 0, "refused": 0}
        self.compiling = CompileClock()

    def status(self) -> dict:
        with self.lock:
            return dict(self.counts, max_running=self.limits.running, max_waiting=self.limits.waiting,
                        seconds=self.limits.seconds)

    def stop(self) -> None:
        """Every question stops at its next batch; no new one starts."""
        self.stopping.set()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def run_now(self, work):
        """Run ``work()`` in this thread under the same rules (the server's warm-up)."""
        with progress.watching(self._watcher(threading.Event(), None)):
            return work()

    def answer(self, work) -> "StreamedAnswer":
        """A streamed response for ``work(post)``, which returns the answer (a dict) and may ``post`` sharper
        ones (dicts) on the way; refused (503) when too many questions are already running and waiting."""
        with self.lock:
            if self.stopping.is_set():
                raise Refused(503, "the server is stopping")
            if self.counts["running"] + self.counts["waiting"] >= self.limits.running + self.limits.waiting:
                self.counts["refused"] += 1
                raise Refused(503, f"the server is answering {self.counts['running']} questions and "
                                   f"{self.counts['waiting']} are waiting: ask again in a moment")
            self.counts["waiting"] += 1
        return StreamedAnswer(self, work)

    def _watcher(self, cancel: threading.Event, post):
        """The watcher of one question's work (``progress.watching``): it stops the work when the question is
        abandoned or has run past the time allowed (compiling kernels left out), and posts its progress."""
        shown = [0.0]
        start, compiled = time.monotonic(), self.compiling.seconds()

        def watch(bar):
            if cancel.is_set() or self.stopping.is_set():
                raise Abandoned()
            now = time.monotonic()
            if now - start - (self.compiling.seconds() - compiled) > self.limits.seconds:
                raise TimeUp()
            if post is not None and now - shown[0] >= TICK:
                shown[0] = now
                post({"kind": "progress", "done": int(bar.done), "total": int(bar.total), "label": bar.label})
        return watch

    def _run(self, work, post, cancel: threading.Event) -> None:
        with self.lock:
            self.counts["waiting"] -= 1
            self.counts["running"] += 1
        outcome = "failed"
        try:
            if cancel.is_set() or self.stopping.is_set():
                raise Abandoned()
            with progress.watching(self._watcher(cancel, post)):
                result = work(lambda item: post({**item, "kind": "partial"}))
            post({**result, "kind": "answer"})
            outcome = "answered"
        except Abandoned:
            outcome = "abandoned"
            post({"kind": "error", "error": "stopped: the question was abandoned"})
        except TimeUp:
            outcome = "timed_out"
            post({"kind": "error", "error": f"the question ran past {self.limits.seconds:g} s (compiling kernels "
                                            "not counted) and was stopped: ask with fewer samples"})
        except UserError as exc:
            outcome = "invalid"
            post({"kind": "error", "error": " ".join(str(exc).split())})
        except Exception as exc:   # never a stack trace on the page: one line there, the trace here
            print(f"error while answering: {type(exc).__name__}: {exc}", file=self.log)
            traceback.print_exc(file=self.log)
            post({"kind": "error", "error": "internal error: the question could not be answered (the server's "
                                            "terminal has the details)"})
        finally:
            with self.lock:
                self.counts["running"] -= 1
                self.counts[outcome] += 1
            post(None)


class StreamedAnswer:
    """An ASGI response: the lines of one question's answer (``Worker.answer``). It listens for the
    browser leaving and then cancels the work, whichever ASGI version the server speaks."""

    def __init__(self, worker: Worker, work):
        self.worker, self.work = worker, work
        self.cancel = threading.Event()

    async def __call__(self, scope, receive, send):
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue = asyncio.Queue()

        def post(item):
            try:
                loop.call_soon_threadsafe(lines.put_nowait, item)
            except RuntimeError:   # the server's loop has closed: nobody is listening
                pass

        try:
            self.worker.pool.submit(self.worker._run, self.work, post, self.cancel)
        except RuntimeError:   # the pool was shut down: the server is stopping
            with self.worker.lock:
                self.worker.counts["waiting"] -= 1
            return await _plain(send, 503, "the server is stopping")
        try:
            async with anyio.create_task_group() as group:
                async def watch():
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    self.cancel.set()
                    group.cancel_scope.cancel()

                group.start_soon(watch)
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"content-type", b"application/x-ndjson"), (b"cache-control", b"no-store"),
                                        (b"x-content-type-options", b"nosniff")]})
                while True:
                    try:
                        item = await asyncio.wait_for(lines.get(), TICK)
                    except asyncio.TimeoutError:
                        item = {"kind": "tick"}
                    if item is None:
                        break
                    await send({"type": "http.response.body", "more_body": True,
                                "body": (json.dumps(item, allow_nan=False) + "\n").encode()})
                await send({"type": "http.response.body", "body": b""})
                group.cancel_scope.cancel()
        except OSError:   # the browser went away while a line was sent
            pass
        finally:
            self.cancel.set()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port), or one clear error."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UserError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        why = "in use: give another --port" if exc.errno == 98 else exc.strerror
        raise UserError(f"cannot listen on {host}:{port}: {why}") from None
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def is_unspecified(host: str) -> bool:
    """``0.0.0.0`` or ``::``: every address of this machine."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def url_of(sock: socket.socket, host: str, token: str | None) -> str:
    """The URL to open (on this machine, for a server on every address)."""
    port = sock.getsockname()[1]
    if is_unspecified(host):
        host = "::1" if ":" in host else "127.0.0.1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def run_server(app, sock: socket.socket, worker: Worker) -> None:
    """Serve ``app`` on ``sock`` until Ctrl-C (or SIGTERM); the questions still running stop."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None):
            worker.stop()
            await super().shutdown(sockets=sockets)

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False,
                            limit_concurrency=64, timeout_keep_alive=5, timeout_graceful_shutdown=2)
    try:
        Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        worker.stop()
        sock.close()
