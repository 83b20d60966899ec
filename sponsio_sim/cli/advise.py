"""`sponsio advise`: the best action at the table."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

import click
import pandas as pd

from tabletop_mc.cliparams import ASCII, FiniteFloat, StrictInt
from tabletop_mc.clitools import common_options, current_meta, emit, gather
from tabletop_mc.errors import UserError
from tabletop_mc.inputfile import read_text
from tabletop_mc.output import render_tables
from tabletop_mc.runner import set_threads
from sponsio_sim.analysis.advise.infer import DEFAULT_TREMBLE, Reading
from sponsio_sim.analysis.advise.ranking import DEFAULT_N, KEEP, SCREEN, Rollouts, advise
from sponsio_sim.analysis.advise.trickplay import DEFAULT_N as TRICK_N, PIMC_WORLDS, PLAYS, CardPlay
from sponsio_sim.analysis.advise.state import RoundFacts, TableState, table_state
from sponsio_sim.analysis.game.setup import STRATEGY_HELP
from sponsio_sim.cli.root import main
from sponsio_sim.rules import load_rules

# table form: each estimate with its 95 % CI in one column (JSON and CSV keep *_low/*_high columns)
COMPACT = {"gain": "{:+.2f}", "vs_best": "{:+.2f}", "vs_listed": "{:+.2f}", "p_bet": "{:.3f}", "win": "{:.3f}",
           "win_vs_first": "{:+.3f}", "win_vs_keep": "{:+.3f}", "win_vs_best": "{:+.3f}", "coins": "{:+.2f}"}
PROBABILITY = "{:.3f}"   # any other estimate with an interval (a card's bets: p_all, each bet, p_worst, p_best)


def compact(df: pd.DataFrame, formats: dict | None = None) -> pd.DataFrame:
    """``x``, ``x_low``, ``x_high`` as one text column ``x [low, high]`` (blank where x is missing)."""
    out = df.copy()
    formats = {**COMPACT, **(formats or {})}
    for col in [c for c in df.columns if f"{c}_low" in df.columns and f"{c}_high" in df.columns]:
        f = formats.get(col, PROBABILITY).format
        out[col] = [("" if pd.isna(v) else f"{f(v)} [{f(lo)}, {f(hi)}]" if pd.notna(lo) else f(v))
                    for v, lo, hi in zip(out[col], out[f"{col}_low"], out[f"{col}_high"])]
        out = out.drop(columns=[f"{col}_low", f"{col}_high"])
    if "rebet" in out.columns:
        if (out["rebet"].fillna(0) > 0).any():
            out["rebet"] = ["" if pd.isna(v) else f"{v:.0%}" for v in out["rebet"]]
        else:
            out = out.drop(columns=["rebet"])
    return out.rename(columns={"win_vs_first": "win_vs_pass", "rollouts": "n"})


def read_state(path: str | None) -> str | None:
    """``--state FILE`` as text ('-': stdin; None: no excerpt), bounded (``tabletop_mc.inputfile``)."""
    if path is None:
        return None
    return read_text(path, f"--state {path}")


def _rules_line(text: str | None) -> str | None:
    """The ``rules NAME: ...`` line a narration starts with, if the excerpt has it."""
    for line in (text or "").splitlines():
        if re.match(r"^rules \S+: \d+ players", line.strip()):
            return line.strip()
    return None


TRICKS_HELP = ('The trick phase so far, e.g. "trick 1: seat 0 leads Y9, R1, Y1, Y5; trick 2: seat 1 leads B3" (a '
               'trick in progress may end early; "R5 R9" goes on from the last card).')
PLAY_HELP = ("Trick phase: how the round is played on in each world: profile (every seat by its play policy in "
             "--profile), pimc (your later cards by PIMC, --worlds layouts per decision) or dd (solved double dummy: "
             "worst and best case).")
OPEN_HELP = "Trick phase: every seat's hand as the excerpt deals it is known (the worlds are that deal)."


FACTS = tuple(f.name for f in fields(RoundFacts))


@dataclass(frozen=True)
class TableInput:
    """Where a table state comes from: ``--state FILE`` (None: no excerpt) and the options' ``facts``
    that override it, under the rule set ``rules``, ``players`` and ``overrides`` name."""
    state_file: str | None
    facts: RoundFacts
    rules: str | None = None
    players: int | None = None
    overrides: tuple = ()

    @classmethod
    def of(cls, *, state_file, rules, players, overrides, **facts) -> "TableInput":
        return cls(state_file, RoundFacts(**facts), rules, players, overrides)

    def read(self, *, missing: str) -> TableState:
        """The table state, under the rule set the excerpt and the options name (``state_rules``);
        ``missing``: the error when neither gives a hand."""
        text = read_state(self.state_file)
        ruleset = state_rules(text, self.rules, self.players, self.overrides)
        if text is None and self.facts.hand is None:
            raise UserError(missing)
        return table_state(ruleset, text, self.facts)


def table_state_options(state_help: str):
    """The options that give a table state: ``--state FILE`` (its help ``state_help``), the round's
    facts that override it and ``--players``; with ``--rules`` and ``--set`` (``common_options``)
    they reach the command as one ``TableInput``, ``table``."""
    options = [
        click.option("--state", "state_file", default=None, metavar="FILE", help=state_help),
        click.option("--hand", default=None, type=ASCII, help='Your hand as dealt, e.g. "R9 R5 R2 B6 G6 Y8 Y3 Y1".'),
        click.option("--talon", default=None, type=ASCII, help="The talon as dealt."),
        click.option("--seat", type=StrictInt(0), default=None,
                     help="Your seat (default: the seat that acts next, or plays next in the trick phase)."),
        click.option("--dealer", type=StrictInt(0), default=None, help="The dealer's seat this round."),
        click.option("--round", "round_no", type=StrictInt(1), default=None, help="The round (1-based; default 1)."),
        click.option("--history", default=None, type=ASCII,
                     help='The round so far, e.g. "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, take double '
                          '(reveal B2); end 0: double #1".'),
        click.option("--tricks", default=None, type=ASCII, help=TRICKS_HELP),
        click.option("--coins", default=None, type=ASCII,
                     help="Every seat's coins at the start of the round, e.g. 10,12,9,10."),
        click.option("--track", default=None, type=ASCII, help="Every seat's streak-track position, e.g. 0,1,0,0."),
        click.option("--players", type=StrictInt(), default=None,
                     help="Number of players (3 or 4; default from --rules, else 4)."),
    ]

    def decorate(f):
        f = gather("table", TableInput.of, "state_file", *FACTS, "players", "rules", "overrides")(f)
        for opt in reversed(options):
            f = opt(f)
        return f
    return decorate


@main.command("advise")
@table_state_options("A `sponsio game --verbose` excerpt from the round's first line up to the decision (in the "
                     "betting or the trick phase, mid-trick included), or to the end of its settlement to decide on "
                     "cashing in ('-' reads stdin); the options below override what it says.")
@click.option("--profile", default=None, type=ASCII,
              help=f"How every seat plays the rest of the game (default: the reference profile): {STRATEGY_HELP}.")
@click.option("--infer/--no-infer", default=True, show_default=True,
              help="Weight the hidden cards by how likely the other seats' actions are with them.")
@click.option("--assume", default=None, type=ASCII,
              help="The betting policy the others' actions are read under, ev or evT (default: each seat's "
                   "own in --profile).")
@click.option("--tremble", type=FiniteFloat(), default=DEFAULT_TREMBLE, show_default=True,
              help="Inference: the weight of an action the assumed policy would not take (0 < t <= 1).")
@click.option("--proposals", type=StrictInt(1000, 10_000_000), default=None,
              help="Inference: deals of the hidden cards weighed (default: 50 per world played, at least 50,000); "
                   "more give a larger effective sample.")
@click.option("--play", type=click.Choice(PLAYS), default="profile", show_default=True, help=PLAY_HELP)
@click.option("--worlds", type=StrictInt(1, 1000), default=PIMC_WORLDS, show_default=True,
              help="--play pimc: layouts of the hidden cards per decision.")
@click.option("--open", "open_hands", is_flag=True, help=OPEN_HELP)
@click.option("-n", "n", type=StrictInt(1, 100_000), default=None,
              help=f"Rollouts for the best {KEEP} actions and the baseline (every action gets {SCREEN}; default "
                   f"{DEFAULT_N:,}); in the trick phase, worlds each card is played in (default "
                   + ", ".join(f"{v:,} {k}" for k, v in TRICK_N.items()) + ").")
@click.option("--by", type=click.Choice(["gain", "win"]), default="gain", show_default=True,
              help="Rank by the round's mean coin gain or by the chance to win the game.")
@click.option("--model", default=None, metavar="NPZ", help="Success model of the ev policy (default: shipped).")
@common_options
@gather("reading", Reading, "infer", "assume", "tremble", "proposals")
@gather("card_play", CardPlay, "play", "worlds", "open_hands")
@gather("rollouts", Rollouts, "n", "by")
def advise_cmd(table, profile, reading, card_play, rollouts, model, seed, fmt, threads):
    """Every legal action of a decision, ranked: a betting action, a cash-in
    or a card to play, by the round's expected coins (95 % CI), each bet's
    chance and the chance to win the game.

    The others' actions so far are read as evidence about their hands
    (--no-infer to compare): hidden cards are dealt consistent with what is
    public and weighted by how likely each seat's actions are under the
    assumed policy. Every action is played out in the same worlds; the best
    ones get -n rollouts. An excerpt that ends after a round's settlement
    asks whether --seat should cash its streak in: both choices are played
    to the game's end. In the trick phase, every legal card of the seat to
    play is ranked by the coins the round pays it (troll pay included), with
    the chance of all its bets and of each, in the same worlds (consistent
    with the cards played and the voids shown).

    \b
    Example:
      sponsio game --profile "ev:goal x4" --seed 3 --verbose | sed -n 4,17p > state.txt
      sponsio advise --state state.txt --seed 1
      sponsio advise --hand "R1 G8 G3 G2 Y9 Y7 Y5 Y4" --talon "R3 B9 G7 G5" --dealer 3 \\
          --history "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, bet colour:B=0"
      sponsio game --profile reference --seed 3 --verbose | sed -n 4,32p > tricks.txt
      sponsio advise --state tricks.txt --play dd -n 50
    """
    if not 0 < reading.tremble <= 1:
        raise UserError(f"--tremble {reading.tremble:g}: must be in (0, 1]")
    st = table.read(missing="give --state FILE or --hand (with --talon, --dealer and --history)")
    set_threads(threads)
    a = advise(st, profile=profile, model=model, reading=reading, rollouts=rollouts, card_play=card_play, seed=seed)
    emit(render_advice(a, fmt, seed))


def state_rules(text: str | None, rules, players, overrides):
    """The rule set: an excerpt's own (its ``rules NAME: ...`` line) unless the options name one; they must agree."""
    shown = _rules_line(text)
    if shown and rules is None and players is None and not overrides:
        rules = shown.split(":")[0].split()[1]   # the excerpt's own rule set (a shipped name)
    ruleset = load_rules(rules, players, overrides)
    if shown and shown != ruleset.summary():
        raise UserError(f"--state was played under '{shown}', not under '{ruleset.summary()}': give the same "
                        "--rules, --players and --set")
    return ruleset


def render_advice(a, fmt: str, seed, meta: dict | None = None) -> str:
    """An advice (``analysis.advise.result.Advice``) as text, JSON or CSV."""
    tables = {"actions": a.table}
    if not a.reveals.empty:
        tables["reveal"] = a.reveals
    if fmt == "json":
        meta = {**(current_meta() if meta is None else meta), **a.meta, "advice": a.text, "notes": a.notes}
        return render_tables(tables, "json", meta=meta)
    if fmt == "csv":
        return render_tables(tables, "csv")
    decision = a.meta["decision"]
    first = "not using the token" if decision == "end of betting" else "passing"
    dd = decision == "card" and a.meta["play"] == "dd"
    compacted = {k: compact(v, {"vs_best": "{:+.3f}"} if dd else None) for k, v in tables.items()}
    legend = ("gain: your coins won this round; vs_best: paired difference to the best action; p_bet: the "
              "bet's chance as placed, over the rollouts where your own later rebet did not replace it"
              + ("; rebet: how often it did" if "rebet" in compacted["actions"].columns else "")
              + "; held: your other bets' chances, the same way; win: your share "
              f"of the game's win; win_vs_pass: paired difference to {first}"
              + ("; win_vs_best: paired difference to the best action's win (the ranking's measure)"
                 if "win_vs_best" in compacted["actions"].columns else "") + "; n: rollouts; [95 % CI]")
    if decision == "cash-in":
        legend = ("coins_now: your coins after the choice; win: your share of the game's win; win_vs_keep: paired "
                  "difference to keeping the position; n: rollouts (each the rest of the game); [95 % CI]")
    elif dd:
        legend = ("p_worst: share of the worlds where the card still makes all your bets against every other seat "
                  "(double dummy); vs_best: its paired difference to the best card; p_best: where it can with every "
                  "seat helping; BET worst/best: each bet alone; n: worlds; [95 % CI]")
    elif decision == "card":
        legend = ("coins: what the round pays you (payouts, troll pay, round bonus); vs_best: paired difference to "
                  "the best card" + ("; p_all: the chance all your bets succeed, then each bet's" if a.meta["bets"]
                                     else "") + f"; play on by {a.meta['play']}; n: worlds; [95 % CI]")
    header = "\n".join([a.text, *a.notes] + ([a.meta["situation"]] if "situation" in a.meta else [])
                       + [f"{a.meta['rules']}", f"profile {', '.join(a.meta['profile'])}; seed {seed}", legend])
    formats = {"coins_now": "{:g}", **{c: "{:.3f}" for c in a.table.columns if c.endswith((" worst", " best"))}}
    return render_tables(compacted, "table", header=header, formats=formats)
