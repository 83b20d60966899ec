"""`sponsio table`: a warm session at the table (``analysis.advise.session``)."""

from __future__ import annotations

import json
import sys

import click

from tabletop_mc.cliparams import ASCII, StrictInt
from tabletop_mc.clitools import common_options, package_version
from tabletop_mc.errors import UserError
from tabletop_mc.runner import set_threads
from sponsio_sim.analysis.advise.session import HELP, Question, Session
from sponsio_sim.analysis.game.setup import STRATEGY_HELP
from sponsio_sim.cli.root import main
from sponsio_sim.cli.advise import advise_cmd, read_state, render_advice, state_rules
from sponsio_sim.cli.odds import odds_state_cmd, render_state_odds

PROMPT = "table> "


def _say(text: str) -> None:
    click.echo(text)
    sys.stdout.flush()


def _line(text: str, fmt: str, key: str = "reply") -> str:
    """A line that is not an answer (``key`` reply or error): as text (an error starting
    ``error:``), or with --format json a JSON object of its own, so every line a script reads is JSON."""
    if fmt == "json":
        return json.dumps({key: text}, separators=(",", ":"))
    return f"error: {text}" if key == "error" else text


def check_option(kind: str, name: str, text: str):
    """A question's option value as `sponsio odds state` / `sponsio advise` read it: the same types,
    limits and messages."""
    param = next(p for p in (odds_state_cmd if kind == "odds" else advise_cmd).params if p.name == name)
    try:
        return param.type.convert(text, param, None)
    except click.UsageError as exc:
        raise UserError(exc.format_message()) from None


def _render(session: Session, answer, line: str, fmt: str, command: str = "sponsio table") -> str:
    """An answer as the one-shot command prints it; JSON on one line, with the command that gives the same."""
    meta = {"command": command, "question": line.strip(), "same_as": answer.command, "seed": answer.seed,
            "version": package_version()}
    if answer.kind == "odds":
        text = render_state_odds(answer.result, fmt, meta)
    else:
        text = render_advice(answer.result, fmt, answer.seed, meta)
    if fmt == "json":
        return json.dumps(json.loads(text), separators=(",", ":"))
    return text


@main.command("table")
@click.option("--state", "state_file", default=None, metavar="FILE",
              help="Start from a `sponsio game --verbose` excerpt (the round's first line up to now).")
@click.option("--seat", type=StrictInt(0), default=None,
              help="Your seat (default 0; with --state, the seat that acts or plays next).")
@click.option("--players", type=StrictInt(), default=None, help="Number of players (3 or 4; default from --rules, else 4).")
@click.option("--profile", default=None, type=ASCII,
              help=f"How every seat plays on in the answers (default: the reference profile): {STRATEGY_HELP}.")
@common_options
def table_cmd(state_file, seat, players, profile, seed, fmt, rules, overrides, threads):
    """A warm session at the table: type the round as it happens, ask for odds
    and advice at any point.

    Kernels, the success model and the inference's likelihoods stay loaded
    between questions. On a terminal it prompts; on a pipe it reads a line
    and writes its event (or answer) line by line. A line that does not fit
    is one error line and changes nothing; Ctrl-C abandons the question being
    answered, not the session. Each answer is the one-shot command's for the
    same state and options (--seed, -n, ...); `command` prints that command.

    \b
    Lines:
      seat S | dealer D | round N | coins 10,10,10,10 | track 0,0,0,0
      hand CARDS | talon CARDS      your hand and the talon as dealt
      S: ACTION | end S: USE        a betting action ("1: reveal B3, bet tricks=2")
      trick: CARDS                  the next card(s) played ("trick: R5")
      odds [OPTIONS] | advise [OPTIONS]   -n N, --seed S, --play profile|pimc|dd, ...
      show | command | undo | new | help | quit
    A `sponsio game --verbose` line is read as the excerpt reads it.

    \b
    Example:
      sponsio table --seat 0
      sponsio game --profile reference --seed 3 --verbose | sed -n 4,32p > now.txt
      sponsio table --state now.txt
    """
    if state_file == "-":
        raise UserError("--state -: the session reads its lines from stdin; give the excerpt as a file")
    text = read_state(state_file)
    ruleset = state_rules(text, rules, players, overrides)
    set_threads(threads)
    given = (["--rules", rules] if rules else []) + [x for o in overrides for x in ("--set", o)]
    session = Session(ruleset, profile=profile, seat=seat, state_text=text, seed=seed, rule_options=given,
                      check_option=check_option)
    interactive = sys.stdin.isatty()
    if interactive:
        import readline  # noqa: F401  (line editing and history at the prompt)
        _say(_line("sponsio table: type help for the lines it reads, quit to leave", fmt))
    _say(_line(session.where(), fmt))
    while True:
        try:
            line = input(PROMPT) if interactive else sys.stdin.readline()
        except EOFError:
            break
        except KeyboardInterrupt:
            _say(_line("(Ctrl-C: nothing to stop; type quit to leave)", fmt))
            continue
        if not interactive and line == "":
            break
        if line.strip().lower() in ("quit", "exit", "q"):
            break
        try:
            out = session.handle(line)
            if isinstance(out, Question):
                if interactive:   # on a terminal: say the work has begun (Ctrl-C abandons it)
                    click.echo(f"answering {line.strip()} (Ctrl-C abandons it)", err=True)
                out = _render(session, session.ask(out), line, fmt)
            elif out == HELP:
                out = _line("lines:\n" + HELP, fmt)
            elif out:
                out = _line(out, fmt)
            if out:
                _say(out)
        except UserError as e:
            _say(_line(" ".join(str(e).split()), fmt, "error"))
        except KeyboardInterrupt:
            _say(_line("interrupted: the question was abandoned; the state is as it was", fmt, "error"))
