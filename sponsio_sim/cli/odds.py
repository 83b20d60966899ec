"""`sponsio odds`: the odds of bets, for a hand as dealt (`odds hand`) or in a round under way (`odds state`)."""

import click

from tabletop_mc.cliparams import ASCII, ASCII_NONEMPTY, StrictInt, count_type, positive_int
from tabletop_mc.clitools import ModeGroup, common_options, current_meta, emit, gather, scale_options
from tabletop_mc.output import render
from tabletop_mc.stats import CI_METHOD
from tabletop_mc.runner import set_threads
from sponsio_sim import play_policies
from sponsio_sim.analysis.advise.trickplay import PLAYS, CardPlay, TrickOdds
from sponsio_sim.analysis.odds.query import OddsPlay, Query, odds
from sponsio_sim.analysis.odds.result import OddsResult
from sponsio_sim.analysis.settings import Run
from sponsio_sim.cli.root import main
from sponsio_sim.cli.advise import OPEN_HELP, PLAY_HELP, table_state_options

TABLE_FORMATS = {"multiplier": "{:g}", "ev": "{:+.3f}", "fair_multiplier": "{:.2f}"}


@main.group("odds", cls=ModeGroup, default="hand")
def odds_cmd():
    """Odds of your bets: for a hand as dealt, or in a round under way.

    \b
    Two jobs, one subcommand each (`sponsio odds hand --help`,
    `sponsio odds state --help`):
      hand   every bet's odds, EV and fair multiplier for your hand, the
             others' revealed cards and bets as you give them
      state  the odds in a round under way, from a `sponsio game --verbose`
             excerpt or the betting and tricks so far: each bet you could
             place now, or every bet every seat holds in the trick phase

    Without a subcommand, `sponsio odds --hand ...` is `sponsio odds hand`.

    \b
    Example:
      sponsio odds hand --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7"
      sponsio odds state --state tricks.txt --seat 0
    """


def _query(*, hand, talon, seat, lead, revealed, bets, others) -> Query:
    return Query(hand, talon, seat=seat, lead=lead, revealed=revealed, bets=bets, others=others)


@odds_cmd.command("hand")
@click.option("--hand", required=True, type=ASCII, help='Your cards, e.g. "R9 R7 R2 B8 B5 G6 G1 Y3".')
@click.option("--talon", default=None, type=ASCII, help="The talon's cards; omit if unknown (dealt at random).")
@click.option("--players", type=StrictInt(), default=None, help="Number of players (3 or 4; default from --rules, else 4).")
@click.option("--seat", type=StrictInt(), default=0, show_default=True, help="Your seat (0..players-1).")
@click.option("--lead", type=StrictInt(), default=0, show_default=True, help="Seat that leads the first trick.")
@click.option("--revealed", default=None, type=ASCII, help='Other seats\' revealed cards, e.g. "1:G9 Y1; 2:B2".')
@click.option("--bets", default=None, type=ASCII_NONEMPTY, help='Your bets, e.g. "tricks=2,last" (default: every catalogue bet, one row each).')
@click.option("--others", default=None, type=ASCII_NONEMPTY, help='Other seats\' bets, e.g. "1:tricks=3; 2:colour:R=0" (seats without bets play as trolls).')
@click.option("--policy", default="goal", show_default=True, type=ASCII,
              help=f"Your play policy: {play_policies.in_words('pimc')}; or dd (double-dummy worst/best-case "
                   "brackets); or POLICY,dd for both side by side.")
@click.option("--worlds", type=positive_int(), default=20, show_default=True,
              help="pimc: sampled layouts of the hidden cards per decision.")
@click.option("--opponents", default="goal", show_default=True, type=ASCII, help="The other seats' play policy.")
@click.option("-n", "n", type=count_type(), default=None, help="Rounds per simulation (a cap when --target-ci is given).")
@click.option("--target-ci", type=float, default=None,
              help="Stop when every 95 % CI is narrower than this (default 0.01 when -n is not given).")
@common_options
@scale_options
@gather("query", _query, "hand", "talon", "seat", "lead", "revealed", "bets", "others")
@gather("play", OddsPlay, "policy", "opponents", "worlds")
@gather("run", lambda **o: Run(progress=None, **o), "seed", "threads", "scheduler", "workers")
def odds_hand_cmd(query, play, players, n, target_ci, run, fmt, rules, overrides):
    """Odds, EV and fair multiplier of each bet for your hand.

    Without --bets: one row per catalogue bet, your seat playing for that bet
    (under the goal policy), sorted by EV = P x multiplier - stake. With
    --bets: your seat plays for that set; each bet's odds and the joint odds
    that all succeed (row "all:...").

    \b
    Example:
      sponsio odds hand --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" \\
          --others "1:tricks=3" --seed 1
      sponsio odds hand --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --bets "tricks=2,last" --format json
      sponsio odds hand --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" --policy goal,dd -n 2000
      sponsio odds hand --hand "R9 R7 R2 B8 B5 G6 G1 Y3" --talon "R1 B9 G4 Y7" --bets tricks=2 \\
          --policy pimc --worlds 20 -n 1000
    """
    emit(render_odds(odds(query, play, n=n, target_ci=target_ci, rules=rules, players=players, overrides=overrides,
                          run=run), fmt))


@odds_cmd.command("state")
@table_state_options("A `sponsio game --verbose` excerpt from the round's first line up to now, in the betting or "
                     "the trick phase, mid-trick included ('-' reads stdin); the options below override what it "
                     "says.")
@click.option("--bets", default=None, type=ASCII_NONEMPTY,
              help='In the betting: only these bets you could place now, e.g. "tricks=2,last".')
@click.option("--profile", default=None, type=ASCII,
              help="How every seat plays on (default: the reference profile).")
@click.option("--infer/--no-infer", default=True, show_default=True,
              help="Weight the hidden cards by the others' actions.")
@click.option("--play", type=click.Choice(PLAYS), default="profile", show_default=True, help=PLAY_HELP)
@click.option("--worlds", type=positive_int(), default=20, show_default=True,
              help="--play pimc: sampled layouts of the hidden cards per decision.")
@click.option("--open", "open_hands", is_flag=True, help=OPEN_HELP)
@click.option("-n", "n", type=count_type(), default=None,
              help="Worlds played out: for each bet in the betting, for the round in the trick phase.")
@common_options
@gather("card_play", CardPlay, "play", "worlds", "open_hands")
def odds_state_cmd(table, bets, profile, infer, card_play, n, seed, fmt, threads):
    """The odds in a round under way, given everything public.

    In the betting: the odds of each bet you could place now (you then pass
    for the rest of the round), the hidden cards weighted by what the others
    did (--no-infer to compare), the others betting on by --profile. In the
    trick phase, mid-trick included: the chance of every bet every seat
    holds (the cards played, voids shown, the betting read as evidence), the
    round played on by --profile (--play pimc or dd). The state is an
    excerpt (--state FILE) or --hand, --talon, --dealer and --history (and
    --tricks), as `sponsio advise` reads it.

    \b
    Example:
      sponsio odds state --hand "R1 G8 G3 G2 Y9 Y7 Y5 Y4" --talon "R3 B9 G7 G5" --dealer 3 \\
          --history "0: reveal Y1, bet colour:R=4; 1: pass; 2: reveal B1, bet colour:B=0"
      sponsio game --profile reference --seed 3 --verbose | sed -n 4,32p > tricks.txt
      sponsio odds state --state tricks.txt --seat 0
    """
    from sponsio_sim.analysis.advise.odds import state_odds
    st = table.read(missing="give --state FILE, or --hand with --talon, --dealer and --history")
    set_threads(threads)
    emit(render_state_odds(state_odds(st, bets=bets, profile=profile, infer=infer, n=n, seed=seed,
                                      card_play=card_play, progress=None), fmt))


def render_odds(res: OddsResult, fmt: str, meta: dict | None = None) -> str:
    """The odds table as text (its title from the result's fields), JSON or CSV."""
    df = res.table
    title = None
    if fmt == "table":
        title = (f"{res.situation}\n{res.rules}\n"
                 f"play: seat {res.seat} {res.policy}, others {res.opponents}; "
                 f"seed {res.seed}; {CI_METHOD.split(';')[0]}"
                 + ("; EV in coins per 1-coin stake" if "ev" in df.columns else ""))
        if res.left_out:
            title += "\n" + res.left_out
        if res.inference:
            title += "\n" + res.inference
        if "p_worst" in df.columns:
            title += ("\ndd: worst = makeable against all other seats, best = possible with all seats "
                      "cooperating (every card known)")
        if res.outside:
            title += "\noutside the dd brackets: " + "; ".join(res.outside)
    if fmt == "json":
        meta = dict(current_meta() if meta is None else meta)
        if "fair_multiplier" in df.columns:
            meta["nulls"] = "fair_multiplier is null where p = 0 (no finite fair multiplier)"
        if res.left_out:
            meta["left_out"] = res.left_out
        if res.inference:
            meta.update(inference=res.inference, situation=res.situation)
    return render(df, fmt, title=title, formats=TABLE_FORMATS, meta=meta)


def render_state_odds(res: OddsResult | TrickOdds, fmt: str, meta: dict | None = None) -> str:
    """``state_odds``' result as text, JSON or CSV: the trick phase's odds, or the betting's (as --history)."""
    if isinstance(res, OddsResult):
        return render_odds(res, fmt, meta)
    df = res.table
    if fmt == "json":
        meta = {**(current_meta() if meta is None else meta), "situation": res.situation,
                "inference": res.inference, "seat": res.seat, "play": res.play, "profile": res.profile,
                "trolls": res.trolls}
        return render(df, fmt, meta=meta)
    trolls = ", ".join(str(t) for t in res.trolls)
    title = "\n".join([res.situation, res.rules,
                       f"play on by {res.play} ({', '.join(res.profile)}); seed {res.seed}; "
                       f"{CI_METHOD.split(';')[0]}", res.inference]
                      + ([f"no bets (trolls): seat{'s' if len(res.trolls) > 1 else ''} {trolls}"] if res.trolls
                         else [])
                      + ["exact: settled by the tricks finished so far (its interval is the point)"])
    return render(df, fmt, title=title if fmt == "table" else None)
