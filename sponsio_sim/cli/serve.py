"""`sponsio serve`: the table in a browser (``sponsio_sim.cli.web``)."""

from __future__ import annotations

import json
import sys

import click

from tabletop_mc.cliparams import ASCII, FiniteFloat, StrictInt
from tabletop_mc.clitools import common_options
from tabletop_mc.errors import UserError
from sponsio_sim.analysis.game.setup import STRATEGY_HELP
from sponsio_sim.cli.root import main

EXTRA = 'sponsio serve needs the serve extra: pip install -e ".[serve]" (in the project\'s folder)'
WARM_HAND, WARM_TALON = "R9 R8 R7 B9 B8 G9 G8 Y9", "R6 B7 G7 Y8"


def _need_extra() -> None:
    try:
        import anyio  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UserError(EXTRA) from None


def _say(text: str) -> None:
    click.echo(text)
    sys.stdout.flush()


def warm_up(tables, worker, players: int) -> None:
    """Compile (or load) the kernels the page uses, on a small round: odds for a hand, the session's odds
    and advice in the betting and at the first card."""
    from sponsio_sim.cli.web import answers
    from sponsio_sim.cli.web.sessions import TableSpec

    def run(work):
        worker.run_now(lambda: work(lambda item: None))

    run(answers.hand_odds(tables, {"players": players, "hand": WARM_HAND, "talon": WARM_TALON, "target_ci": 0.2}))
    last = players - 1
    deal = [f"dealer {last}", f"hand {WARM_HAND}", f"talon {WARM_TALON}"]
    spec, _, _ = tables.add(TableSpec(players, 0), deal)
    for kind, n in (("advise", 100), ("odds", 20)):   # a betting decision takes 100 rollouts at least
        run(answers.question(tables, {"table": spec.as_json(), "kind": kind, "options": {"n": n}}))
    steps = tables.ruleset(spec).betting_turns * players
    moves = ["0: pass", "1: reveal B6, bet tricks=2"] + [f"{k % players}: pass" for k in range(2, steps)]
    spec, _, _ = tables.add(spec, moves)
    for kind in ("advise", "odds"):
        run(answers.question(tables, {"table": spec.as_json(), "kind": kind, "options": {"n": 10}}))


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, type=ASCII,
              help="The address to listen on. Another than this machine's own (0.0.0.0: every network, to use a "
                   "phone on the same network) prints an access token in the URL; requests without it are refused.")
@click.option("--port", type=StrictInt(0, 65535), default=8765, show_default=True,
              help="The port (0: any free one).")
@click.option("--profile", default=None, type=ASCII,
              help=f"How every seat plays on in the answers (default: the reference profile): {STRATEGY_HELP}.")
@click.option("--jobs", type=StrictInt(1, 8), default=2, show_default=True,
              help="Questions answered at once; a few more wait, the rest are refused with a message.")
@click.option("--time-limit", type=FiniteFloat(1, 3600), default=120, show_default=True,
              help="Seconds one question may run before it is stopped.")
@click.option("--warm/--no-warm", default=True, show_default=True,
              help="Compile (or load) the kernels before the URL is printed, so the first answers come quickly.")
@common_options
def serve_cmd(host, port, profile, jobs, time_limit, warm, seed, fmt, rules, overrides, threads):
    """The table in a browser: tap your cards for the odds, record the round
    as it happens, and ask for odds and advice at any point.

    A local web server for one page, usable on a phone or a laptop. The
    page records the round as `sponsio table` does and answers with the
    same session and engines: each answer names the one-shot command that
    gives the same (`sponsio odds`, `sponsio advise --state`), and a
    recorded round exports as a narration that `sponsio advise --state`
    reads. --seed is the page's default seed; --rules and --set the rule set
    (the page picks 3 or 4 players). Ctrl-C stops the server.

    Needs the serve extra: pip install -e ".[serve]".

    \b
    Example:
      sponsio serve
      sponsio serve --port 8800 --seed 7
      sponsio serve --host 0.0.0.0      (a phone on the same network: open the URL with its token)
    """
    _need_extra()
    from tabletop_mc import progress
    from tabletop_mc.runner import set_threads
    from tabletop_mc.webserve import (Limits, Worker, bind, is_loopback, is_unspecified, new_token, run_server,
                                      url_of)
    from sponsio_sim.analysis.advise.infer import seat_strategies
    from sponsio_sim.cli.web.app import build_app
    from sponsio_sim.cli.web.sessions import Tables
    from sponsio_sim.rules import load_rules

    progress.set_mode("off")   # the terminal stays quiet; the page shows the progress
    players = load_rules(rules, None, overrides).players
    seat_strategies(profile, load_rules(rules, players, overrides))   # a bad --profile fails here, not on the page
    token = None if is_loopback(host) else new_token()
    sock = bind(host, port)
    limits = Limits(running=jobs, seconds=time_limit)
    worker = Worker(limits, on_thread_start=lambda: set_threads(threads))
    tables = Tables(rules=rules, overrides=overrides, profile=profile, seed=seed)
    if warm:
        click.echo("sponsio serve: warming the kernels (seconds; the first start after an install compiles them: "
                   "minutes)", err=True)
        set_threads(threads)
        warm_up(tables, worker, players)
    url = url_of(sock, host, token)
    if fmt == "json":
        _say(json.dumps({"url": url, "host": host, "port": sock.getsockname()[1], "token": token}))
    else:
        _say(f"sponsio serve: open {url}  (Ctrl-C stops)")
        if token is not None:
            _say("the URL carries an access token: requests without it are refused"
                 + ("; from a phone on the same network, put this machine's address in place of "
                    f"{url.split('/')[2].rsplit(':', 1)[0]}" if is_unspecified(host) else ""))
    run_server(build_app(tables, worker, token=token, limits=limits), sock, worker)
    click.echo("sponsio serve: stopped", err=True)
