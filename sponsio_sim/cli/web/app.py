"""The routes of `sponsio serve` (Starlette).

    GET  /                the page            GET  /static/NAME   its script and style (from memory)
    POST /api/table       record lines, or look at the table (the session's view)
    POST /api/cards       read pasted card notation
    POST /api/odds        the odds of every bet for a hand, streamed as they sharpen
    POST /api/ask         the session's odds or advice, streamed (progress, then the answer)
    POST /api/narration   the table as a narration for `sponsio advise --state`
    GET  /api/status      questions running, waiting, answered, abandoned

Short questions (recording a line) run in Starlette's thread pool; the
simulations run in ``tabletop_mc.webserve.Worker``'s threads. Bad input is
one message (``{"error": ...}``) and changes nothing.
"""

from __future__ import annotations

import sys
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tabletop_mc.errors import UserError
from tabletop_mc.webserve import Guard, Limits, Refused, Worker, read_json
from sponsio_sim.cli.web import answers
from sponsio_sim.cli.web.sessions import Tables, TableSpec, view

STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
SECURITY = {"cache-control": "no-cache", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
            "content-security-policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                                       "base-uri 'none'; form-action 'none'"}


def page_files() -> dict[str, bytes]:
    """The page's files, read once from the package (a request names none of them: it picks one by key)."""
    folder = resources.files("sponsio_sim.cli.web").joinpath("static")
    return {name: folder.joinpath(name).read_bytes() for name in ("index.html", *STATIC)}


def build_app(tables: Tables, worker: Worker, *, token: str | None, limits: Limits = Limits()) -> Guard:
    files = page_files()

    async def index(request: Request) -> Response:
        return Response(files["index.html"], media_type="text/html; charset=utf-8", headers=SECURITY)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise Refused(404, "no such file")
        return Response(files[name], media_type=STATIC[name], headers=SECURITY)

    async def status(request: Request) -> Response:
        return JSONResponse({**worker.status(), "seed": tables.seed, "profile": tables.profile or "reference",
                             "rules": tables.rule_options})

    async def table(request: Request) -> Response:
        data = await read_json(request, limits.body_bytes)

        def record():
            spec = TableSpec.read(data.get("table"))
            add = data.get("add") or []
            if not isinstance(add, list):
                raise UserError("add: a list of lines")
            new, events, session = tables.add(spec, add)
            return {"table": new.as_json(), "events": events, "view": view(session)}
        return JSONResponse(await run_in_threadpool(record))

    async def cards(request: Request) -> Response:
        data = await read_json(request, limits.body_bytes)
        return JSONResponse(await run_in_threadpool(answers.cards, tables, data))

    async def narration(request: Request) -> Response:
        data = await read_json(request, limits.body_bytes)
        return JSONResponse(await run_in_threadpool(answers.export, tables, data))

    async def hand_odds(request: Request):
        data = await read_json(request, limits.body_bytes)
        return worker.answer(await run_in_threadpool(answers.hand_odds, tables, data))

    async def ask(request: Request):
        data = await read_json(request, limits.body_bytes)
        return worker.answer(await run_in_threadpool(answers.question, tables, data))

    async def refused(request: Request, exc: Refused) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    async def bad_input(request: Request, exc: UserError) -> Response:
        return JSONResponse({"error": " ".join(str(exc).split())}, status_code=400)

    async def failed(request: Request, exc: Exception) -> Response:
        print(f"error in {request.url.path}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return JSONResponse({"error": "internal error (the server's terminal has the details)"}, status_code=500)

    app = Starlette(routes=[
        Route("/", index), Route("/static/{name}", static), Route("/api/status", status),
        Route("/api/table", table, methods=["POST"]), Route("/api/cards", cards, methods=["POST"]),
        Route("/api/narration", narration, methods=["POST"]), Route("/api/odds", hand_odds, methods=["POST"]),
        Route("/api/ask", ask, methods=["POST"]),
    ], exception_handlers={Refused: refused, UserError: bad_input, Exception: failed})
    return Guard(app, token=token)
