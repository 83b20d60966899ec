"""The questions the page asks, answered as the one-shot commands answer them.

Each answer carries the JSON that the command in its ``meta.same_as``
prints (`sponsio odds hand`, or `sponsio odds state --state` / `sponsio advise
--state` through the `sponsio table` session), and the same table as the
page shows it: each estimate with its 95 % interval in one cell, as the
command's table form prints it. The work of a question is a function
``work(post)`` that ``tabletop_mc.webserve.Worker`` runs in a thread;
``post`` takes the sharper answers on the way.
"""

from __future__ import annotations

import json
import math
import shlex

import pandas as pd

from tabletop_mc.clitools import package_version
from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.narration import narration
from sponsio_sim.analysis.advise.trickplay import PLAYS
from sponsio_sim.analysis.odds.query import OddsPlay, Query, odds
from sponsio_sim.analysis.odds.result import OddsResult
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cards import card_name, parse_cards
from sponsio_sim.cli.advise import compact
from sponsio_sim.cli.odds import TABLE_FORMATS, render_odds
from sponsio_sim.cli.table import _render
from sponsio_sim.cli.web.sessions import Tables, TableSpec
from sponsio_sim.rules import load_rules

COMMAND = "sponsio serve"
MAX_N = 20_000          # -n of one question on the page (rollouts, worlds or rounds)
MAX_WORLDS = 100        # --worlds of one question on the page
CI_RANGE = (0.01, 0.2)  # the target interval widths the page may ask the odds for
MAX_SEED = 2 ** 63


def _int(data: dict, key: str, default=None, lo: int = 0, hi: int = MAX_SEED) -> int:
    v = data.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise UserError(f"{key}: a whole number {lo:,}..{hi:,} (got {str(v)[:40]!r})")
    return v


def _text(data: dict, key: str, limit: int = 200) -> str | None:
    v = data.get(key)
    if v is not None and (not isinstance(v, str) or len(v) > limit):
        raise UserError(f"{key}: text of at most {limit} characters")
    return v or None


def cell(value, fmt: str | None) -> str:
    """One value as the page shows it (blank where it is missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if fmt is not None and isinstance(value, (int, float)):
        return fmt.format(value)
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def display(df: pd.DataFrame, formats: dict | None = None) -> dict:
    """A table as the page shows it: ``compact`` cells (an estimate and its interval in one), the rest
    to its precision; ``ci_low``/``ci_high`` are ``p``'s interval."""
    shown = compact(df.rename(columns={"ci_low": "p_low", "ci_high": "p_high"}), formats)
    columns = list(shown.columns)
    return {"columns": columns,
            "rows": [[cell(v, (formats or {}).get(c)) for c, v in zip(columns, row)]
                     for row in shown.itertuples(index=False)]}


def odds_message(res: OddsResult, seed: int, same_as: str, stake: float, target: float) -> dict:
    """An odds table for the page: its JSON, its cells, the rows whose interval is within ``target``
    already, the best bets (EV positive even at the low end of P's interval) and the positive ones."""
    meta = {"command": COMMAND, "same_as": same_as, "seed": seed, "version": package_version()}
    df = res.table
    low_ev = df["ci_low"] * df["multiplier"] - stake
    return {"answer": json.loads(render_odds(res, "json", meta)),
            "display": display(df, TABLE_FORMATS), "rounds": int(df["n"].sum()),
            "within": int((df["ci_high"] - df["ci_low"] <= target).sum()),
            "best": [int(i) for i in df.index[(low_ev > 0).to_numpy()]],
            "positive": [int(i) for i in df.index[(df["ev"] > 0).to_numpy()]]}


def hand_odds(tables: Tables, data: dict):
    """`sponsio odds hand --hand ... --target-ci C`: every catalogue bet for a hand, as it sharpens."""
    players = _int(data, "players", 4, 2, 8)
    rules = load_rules(tables.rules_option, players, tables.overrides)
    seat = _int(data, "seat", 0, 0, players - 1)
    lead = _int(data, "lead", 0, 0, players - 1)
    seed = _int(data, "seed", tables.seed, -MAX_SEED, MAX_SEED)
    hand, talon = _text(data, "hand"), _text(data, "talon")
    target = data.get("target_ci", 0.01)
    if not isinstance(target, (int, float)) or isinstance(target, bool) or not CI_RANGE[0] <= target <= CI_RANGE[1]:
        raise UserError(f"target_ci: an interval width {CI_RANGE[0]}..{CI_RANGE[1]}")
    if hand is None:
        raise UserError("tap your hand's cards first")
    if len(parse_cards(hand, rules, "hand")) != rules.hand_size:
        raise UserError(f"hand: {len(parse_cards(hand, rules, 'hand'))} cards; rule set {rules.name} deals "
                        f"{rules.hand_size}")
    same_as = " ".join([f"sponsio odds hand --players {players}", *map(shlex.quote, tables.rule_options),
                        f"--hand {shlex.quote(hand)}"] + ([f"--talon {shlex.quote(talon)}"] if talon else [])
                       + [f"--seat {seat} --lead {lead} --target-ci {target:g} --seed {seed}"])
    query = Query(hand, talon, seat=seat, lead=lead)

    def work(post):
        res = odds(query, OddsPlay(), target_ci=float(target), rules=tables.rules_option, players=players,
                   overrides=tables.overrides, run=Run(seed=seed),
                   on_table=lambda partial: post(odds_message(partial, seed, same_as, rules.stake, target)))
        return odds_message(res, seed, same_as, rules.stake, target)
    return work


def question(tables: Tables, data: dict):
    """The session's ``odds`` or ``advise`` at the table's state, with the page's options."""
    spec = TableSpec.read(data.get("table"))
    kind = data.get("kind")
    if kind not in ("odds", "advise"):
        raise UserError("kind: odds or advise")
    opts = data.get("options") or {}
    if not isinstance(opts, dict):
        raise UserError("options: an object")
    words = [kind]
    if opts.get("n") is not None:
        words += ["-n", str(_int(opts, "n", None, 1, MAX_N))]
    words += ["--seed", str(_int(opts, "seed", tables.seed, -MAX_SEED, MAX_SEED))]
    if opts.get("play", "profile") not in PLAYS:
        raise UserError(f"play: one of {', '.join(PLAYS)}")
    if opts.get("play", "profile") != "profile":
        words += ["--play", opts["play"]]
    if opts.get("worlds") is not None:
        words += ["--worlds", str(_int(opts, "worlds", None, 1, MAX_WORLDS))]
    if opts.get("infer", True) is False:
        words.append("--no-infer")
    line = " ".join(words)

    def work(post):
        session = tables.checkout(spec)
        try:
            q = session.handle(line)
            answer = session.ask(q)
            text = _render(session, answer, line, "json", command=COMMAND)
        finally:
            tables.give_back(spec, session)
        out = {"answer": json.loads(text), "question": answer.kind}
        if answer.kind == "odds":
            odds_res = answer.result
            out["display"] = display(odds_res.table)
            out["title"] = odds_res.situation
            out["notes"] = [x for x in odds_res.inference.split("\n") if x]
        else:
            advice = answer.result
            out["display"] = display(advice.table)
            if not advice.reveals.empty:
                out["reveals"] = display(advice.reveals)
            out["title"], out["notes"] = advice.text, list(advice.notes)
        return out
    return work


def export(tables: Tables, data: dict) -> dict:
    """The table as a narration that `sponsio advise --state` reads, and the command that answers it."""
    spec = TableSpec.read(data.get("table"))
    session = tables.checkout(spec)
    try:
        st = session.st
        if st.dealer is None or st.talon is None:
            raise UserError("give the deal first (dealer, hand and talon): a narration starts there")
        text = narration(st)
        seat = st.seat
    finally:
        tables.give_back(spec, session)
    command = " ".join(["sponsio advise --state round.txt", f"--seat {seat}", *map(shlex.quote, tables.rule_options)]
                       + ([f"--profile {shlex.quote(tables.profile)}"] if tables.profile else [])
                       + [f"--seed {tables.seed}"])
    return {"text": text, "command": command}


def cards(tables: Tables, data: dict) -> dict:
    """Pasted card notation for the hand and the talon, read as the commands read it."""
    players = _int(data, "players", 4, 2, 8)
    rules = load_rules(tables.rules_option, players, tables.overrides)
    hand = parse_cards(_text(data, "hand"), rules, "hand")
    talon = parse_cards(_text(data, "talon"), rules, "talon")
    if len(hand) > rules.hand_size:
        raise UserError(f"hand: {len(hand)} cards; rule set {rules.name} deals {rules.hand_size}")
    if len(talon) > rules.talon_size:
        raise UserError(f"talon: {len(talon)} cards; rule set {rules.name} has {rules.talon_size}")
    both = sorted(set(hand) & set(talon))
    if both:
        raise UserError(f"card {card_name(both[0], rules)} is both in the hand and in the talon")
    return {"hand": [card_name(c, rules) for c in hand], "talon": [card_name(c, rules) for c in talon]}
