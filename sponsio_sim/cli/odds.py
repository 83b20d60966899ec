"""`sponsio odds`: the odds of every bet for a hand."""

import click

from tabletop_mc.cliparams import ASCII, ASCII_NONEMPTY, StrictInt, count_type, positive_int
from tabletop_mc.clitools import common_options, current_meta, emit, scale_options
from tabletop_mc.errors import UserError
from tabletop_mc.output import render
from tabletop_mc.stats import CI_METHOD
from tabletop_mc.runner import set_threads
from sponsio_sim.analysis.advise.state import RoundFacts
from sponsio_sim.analysis.advise.trickplay import PLAYS, CardPlay
from sponsio_sim.analysis.odds.query import OddsPlay, Query, odds
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli.root import main
from sponsio_sim.cli.advise import OPEN_HELP, PLAY_HELP, TRICKS_HELP, read_table_state
from sponsio_sim.rules import load_rules

TABLE_FORMATS = {"multiplier": "{:g}", "ev": "{:+.3f}", "fair_multiplier": "{:.2f}"}


@main.command("odds")
@click.option("--hand", default=None, type=ASCII, help='Your cards, e.g. "R9 R7 R2 B8 B5 G6 G1 Y3" (with --state: '
              'as dealt, from the excerpt).')
@click.option("--talon", default=None, type=ASCII, help="The talon's cards; omit if unknown (dealt at random).")
@click.option("--players", type=StrictInt(), default=None, help="Number of players (3 or 4; default from --rules, else 4).")
@click.option("--seat", type=StrictInt(), default=None, help="Your seat (0..players-1; default 0, with --history the "
              "seat about to act).")
@click.option("--lead", type=StrictInt(), default=None, help="Seat that leads the first trick (default 0).")
@click.option("--revealed", default=None, type=ASCII, help='Other seats\' revealed cards, e.g. "1:G9 Y1; 2:B2".')
@click.option("--bets", default=None, type=ASCII_NONEMPTY, help='Your bets, e.g. "tricks=2,last" (default: every catalogue bet, one row each).')
@click.option("--others", default=None, type=ASCII_NONEMPTY, help='Other seats\' bets, e.g. "1:tricks=3; 2:colour:R=0" (seats without bets play as trolls).')
@click.option("--policy", default="goal", show_default=True, type=ASCII,
              help="Your play policy: random, greedy, goal or pimc; or dd (double-dummy worst/best-case "
                   "brackets); or POLICY,dd for both side by side.")
@click.option("--worlds", type=positive_int(), default=20, show_default=True,
              help="pimc: sampled layouts of the hidden cards per decision.")
@click.option("--history", default=None, type=ASCII,
              help='The betting so far this round, as `sponsio advise --history` reads it, e.g. "0: reveal Y1, bet '
                   'colour:R=4; 1: pass": odds of each bet you place now, the hidden cards weighted by what the '
                   'others did (needs --dealer and --talon).')
@click.option("--dealer", type=StrictInt(0), default=None, help="With --history: the dealer's seat this round.")
@click.option("--state", "state_file", default=None, metavar="FILE",
              help="A `sponsio game --verbose` excerpt up to now ('-' reads stdin): in the betting, the odds of each bet "
                   "you could place now (as --history); in the trick phase (mid-trick included), of every bet every "
                   "seat holds, given everything public. --hand, --talon, --history, --tricks, --seat override it.")
@click.option("--tricks", default=None, type=ASCII, help=TRICKS_HELP)
@click.option("--coins", default=None, type=ASCII, help="With --state: every seat's coins at the start of the round.")
@click.option("--track", default=None, type=ASCII, help="With --state: every seat's streak-track position.")
@click.option("--round", "round_no", type=StrictInt(1), default=None, help="With --state: the round (1-based).")
@click.option("--play", type=click.Choice(PLAYS), default="profile", show_default=True, help=PLAY_HELP)
@click.option("--open", "open_hands", is_flag=True, help=OPEN_HELP)
@click.option("--profile", default=None, type=ASCII,
              help="With --state or --history: how every seat plays on (default: the reference profile).")
@click.option("--infer/--no-infer", default=True, show_default=True,
              help="With --history: weight the hidden cards by the others' actions.")
@click.option("--opponents", default="goal", show_default=True, type=ASCII, help="The other seats' play policy.")
@click.option("-n", "n", type=count_type(), default=None, help="Rounds per simulation (a cap when --target-ci is given).")
@click.option("--target-ci", type=float, default=None,
              help="Stop when every 95 % CI is narrower than this (default 0.01 when -n is not given).")
@common_options
@scale_options
def odds_cmd(hand, talon, players, seat, lead, revealed, bets, others, policy, worlds, history, dealer, state_file,
             tricks, coins, track, round_no, play, open_hands, profile, infer, opponents, n, target_ci, seed, fmt, rules,
             overrides, threads, scheduler, workers):
    """Odds, EV and fair multiplier of each bet for your hand.

    Without --bets: one row per catalogue bet, your seat playing for that bet
    (under the goal policy), sorted by EV = P x multiplier - stake. With
    --bets: your seat plays for that set; each bet's odds and the joint odds
    that all succeed (row "all:...").

    With --state (or --tricks) in the trick phase, mid-trick included: the
    chance of every bet every seat holds, given everything public (the cards
    played, voids shown, the others' betting read as evidence; --no-infer
    to compare), the round played on by --profile (--play pimc or dd).

    \b
    Example:
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" \\
          --others "1:tricks=3" --seed 1
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --bets "tricks=2,last" --format json
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" --policy goal,dd -n 2000
      sponsio odds --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" --bets tricks=2 \\
          --policy pimc --worlds 20 -n 1000
      sponsio odds --hand "R1 G8 G3 G2 Y9 Y7 Y5 Y4" --talon "R3 B9 G7 G5" --dealer 3 \\
          --history "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, bet colour:B=0"
      sponsio game --profile reference --seed 3 --verbose | sed -n 4,32p > tricks.txt
      sponsio odds --state tricks.txt --seat 0
    """
    facts = RoundFacts(hand=hand, talon=talon, seat=seat, dealer=dealer, round_no=round_no, history=history,
                       tricks=tricks, coins=coins, track=track)
    clash = _plain_options(lead, revealed, others, policy, opponents, target_ci, scheduler, workers)
    if any(v is not None for v in (state_file, tricks, coins, track, round_no)):
        from sponsio_sim.analysis.advise.odds import state_odds
        if clash:
            raise UserError(f"{clash[0]} does not go with --state or --tricks (the state says who revealed, bet, "
                            "leads and played; everyone plays on by --profile, and --play sets how)")
        st = read_table_state(state_file, facts, rules, players, overrides,
                              missing="give --state FILE, or --hand with --talon, --dealer and --history")
        set_threads(threads)
        df = state_odds(st, bets=bets, profile=profile, infer=infer, n=n, seed=seed,
                        card_play=CardPlay(play, worlds, open_hands), progress=None)
        emit(render_state_odds(df, fmt, seed))
        return
    if play != "profile" or open_hands:
        raise UserError("--play and --open go with --state or --tricks (the trick phase)")
    if hand is None:
        raise UserError("give --hand (your cards), or --state FILE")
    if history is not None or dealer is not None:
        from sponsio_sim.analysis.advise.odds import history_odds
        if history is None or dealer is None:
            raise UserError("--history and --dealer go together (the round so far and who dealt it)")
        if clash:
            raise UserError(f"{clash[0]} does not go with --history (the history says who revealed, bet and leads; "
                            "everyone plays by the reference profile)")
        df = history_odds(facts, rules=load_rules(rules, players, overrides), bets=bets, profile=profile,
                          infer=infer, n=n, seed=seed, threads=threads, progress=None)
    else:
        query = Query(hand, talon, seat=seat or 0, lead=lead or 0, revealed=revealed, bets=bets, others=others)
        df = odds(query, OddsPlay(policy, opponents, worlds), n=n, target_ci=target_ci, rules=rules,
                  players=players, overrides=overrides,
                  run=Run(seed=seed, threads=threads, progress=None, scheduler=scheduler, workers=workers))
    emit(render_odds(df, fmt, policy, opponents, seed))


def render_odds(df, fmt: str, policy, opponents, seed, meta: dict | None = None) -> str:
    """The odds table as text (its title from ``df.attrs``), JSON or CSV."""
    a = df.attrs
    title = None
    if fmt == "table":
        title = (f"{a['situation']}\n{a['rules']}\n"
                 f"play: seat {a['seat']} {a.get('policy', policy)}, others {a.get('opponents', opponents)}; "
                 f"seed {seed}; {CI_METHOD.split(';')[0]}"
                 + ("; EV in coins per 1-coin stake" if "ev" in df.columns else ""))
        if a.get("left_out"):
            title += "\n" + a["left_out"]
        if a.get("inference"):
            title += "\n" + a["inference"]
        if "p_worst" in df.columns:
            title += ("\ndd: worst = makeable against all other seats, best = possible with all seats "
                      "cooperating (every card known)")
        if a.get("outside"):
            title += "\noutside the dd brackets: " + "; ".join(a["outside"])
    if fmt == "json":
        meta = dict(current_meta() if meta is None else meta)
        if "fair_multiplier" in df.columns:
            meta["nulls"] = "fair_multiplier is null where p = 0 (no finite fair multiplier)"
        if a.get("left_out"):
            meta["left_out"] = a["left_out"]
        if a.get("inference"):
            meta.update(inference=a["inference"], situation=a["situation"])
    return render(df, fmt, title=title, formats=TABLE_FORMATS, meta=meta)


def _plain_options(lead, revealed, others, policy, opponents, target_ci, scheduler, workers) -> list[str]:
    """The options of plain odds that a table state (--history, --state) already answers, as given."""
    return [name for name, value, default in (("--lead", lead, None), ("--revealed", revealed, None),
                                              ("--others", others, None), ("--policy", policy, "goal"),
                                              ("--opponents", opponents, "goal"), ("--target-ci", target_ci, None),
                                              ("--scheduler", scheduler, None), ("--workers", workers, None))
            if value != default]


def render_state_odds(df, fmt: str, seed, meta: dict | None = None) -> str:
    """``state_odds``' table as text, JSON or CSV: the trick phase's odds, or the betting's (as --history)."""
    a = df.attrs
    if "exact" not in df.columns:
        return render_odds(df, fmt, "goal", "goal", seed, meta)
    if fmt == "json":
        meta = {**(current_meta() if meta is None else meta), **{k: a[k] for k in ("situation", "inference", "seat",
                                                                                    "play", "profile", "trolls")}}
        return render(df, fmt, meta=meta)
    trolls = ", ".join(str(t) for t in a["trolls"])
    title = "\n".join([a["situation"], a["rules"],
                       f"play on by {a['play']} ({', '.join(a['profile'])}); seed {seed}; {CI_METHOD.split(';')[0]}",
                       a["inference"]]
                      + ([f"no bets (trolls): seat{'s' if len(a['trolls']) > 1 else ''} {trolls}"] if a["trolls"]
                         else [])
                      + ["exact: settled by the tricks finished so far (its interval is the point)"])
    return render(df, fmt, title=title if fmt == "table" else None)
