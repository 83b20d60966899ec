"""Words and shapes for the Circus Maximus report (``reports``): the opening summary, the field
sentence, seat names and the field's meta-game section."""

from __future__ import annotations

import pandas as pd

from tabletop_mc.htmlreport import HtmlReport
from tabletop_mc.verdicts import fmt_ci
from tabletop_mc.ladder import Finding
from caesar_sim import weights as WT
from caesar_sim.fieldplay import field_play
from caesar_sim.profile import REFERENCE

def seat_name(seat: int, first: int = 0) -> str:
    """``seat 0 (starts)`` for the seat that starts day 1, ``seat 2`` otherwise."""
    return f"seat {seat} (starts)" if seat == first else f"seat {seat}"


def named_seats(df: pd.DataFrame, first: int = 0) -> pd.DataFrame:
    """``df`` with its ``seat`` column as seat names (and without ``starts_day1``, which the name says)."""
    out = df.assign(seat=[seat_name(int(s), first) for s in df["seat"]])
    return out.drop(columns=[c for c in ("starts_day1",) if c in out.columns])


def weights_note() -> str:
    """How the shipped weights were made (each player count's `tuned` and `distilled` commands)."""
    lines = []
    for players in (3, 4, 5):
        t, d = WT.shipped(players)["meta"], WT.shipped(players, "distilled")["meta"]
        lines.append(f"{players} players: tuned by `{t['command']}`, distilled by `{d['command']}`")
    return "Shipped weights: " + "; ".join(lines) + "."


def best_exploit(ex: pd.DataFrame) -> pd.Series:
    """The deviation of ``exploit``'s table with the largest gain lower bound (the gain, in tiny runs)."""
    key = "gain" if ex["gain_low"].isna().all() else "gain_low"
    return ex.loc[ex[key].idxmax()]


def field_sentence(players: int, ex: pd.DataFrame) -> str:
    """What the reference field is, and how far its best known exploit gains (from ``exploit``'s table)."""
    play = field_play(REFERENCE, players)
    best = best_exploit(ex)
    return (f"The reference field ({players} players) draws every seat's strategy per game from the equilibrium "
            f"mixture {play.mixture()} of the meta-game over {', '.join(play.field.members)} (`caesar meta`); "
            f"its best known exploit, '{best['deviation']}', gains "
            f"{fmt_ci(best['gain'], best['gain_low'], best['gain_high'], sign=True)} win share (n = {int(best['n']):,} paired games).")


def summary(players: int, wins: pd.DataFrame, found: list[Finding], ex: pd.DataFrame,
            moved: pd.DataFrame | None = None) -> str:
    """The page's opening paragraph in plain words, from the reference field's numbers (``found``: the
    ladder's findings, ``ranked``; ``moved``: ``balance.levers.headline``, the lever effects that moved)."""
    play = field_play(REFERENCE, players)
    by_name = {f.name: f for f in found}
    ref = "reference field"

    def value(prefix: str) -> float | None:
        f = next((f for name, f in by_name.items() if name.startswith(prefix)), None)
        return None if f is None or ref not in f.estimates else f.estimates[ref].value
    close, merch = value("4 players: games the winner"), value("4 players: the share of a day's coins")
    gold, start = value("4 players: one extra gold favour"), value("4 players: the start seat")
    holding = [f for f in found if f.holds]
    best = best_exploit(ex)
    sd = float(wins["score_sd"].mean())
    parts = [f"Circus Maximus (standard rules, {players} players) played by the reference field: "
             f"{play.mixture()}, the equilibrium of a meta-game over {len(play.field.members)} strategies (no "
             "member of that population gains against it)."]
    if close is not None and gold is not None:
        # a seat's spread across games (the lever tables' "score spread" is the seats' spread within a game)
        parts.append(f"Games are tight: a seat's final coins vary from game to game by SD {sd:.2f} around "
                     f"{wins['score_mean'].mean():.1f}, "
                     f"the winner leads by 2 coins or fewer in {close:.0%} of games, and one extra gold favour a "
                     f"day (2 coins) raises a seat's win rate by {gold:+.2f}.")
    if merch is not None:
        parts.append(f"Merchant cards left unplayed score {merch:.0%} of a day's coins, so every bid is weighed "
                     "against the coins its card would keep.")
    if start is not None:
        parts.append(f"The start seat wins {start:.3f} of 4-player games (fair share 0.25).")
    if moved is not None and not moved.empty:
        gap = moved[(moved["players"] == players) & moved["measure"].isin(("start seat - fair share",
                                                                           "largest seat gap"))]
        if not gap.empty:
            g = gap.iloc[0]
            parts.append(f"The strongest lever on seat balance tried: {g['lever']} = {g['value']} changes the "
                         f"{g['measure']} by {fmt_ci(g['effect'], g['effect_low'], g['effect_high'], sign=True)}.")
    parts.append(f"{len(holding)} of {len(found)} headline findings hold under all three player models (this "
                 "field, mc:8 in every seat, the best fast single profile). The findings below, per player count, "
                 "are those out of their band under every model and those that depend on the players, largest "
                 "first, each with the rule lever that would change it; the healthy ones and those not decided "
                 f"(underpowered or unclear) are listed by name under them. The field is beatable by search: its best known exploit, '{best['deviation']}', "
                 f"gains {best['gain']:+.2f} win share against it.")
    return " ".join(parts)


def field_section(doc: HtmlReport) -> str:
    """The meta-game behind each shipped field: members, weights and regrets with CIs, the oracle's record."""
    rows, oracle = [], []
    for players in (3, 4, 5):
        f = field_play(REFERENCE, players).field
        for i, m in enumerate(f.members):
            rows.append({"players": players, "member": m, "weight": f.weights[i], "weight_low": f.weights_low[i],
                         "weight_high": f.weights_high[i], "regret": f.regret[i], "regret_high": f.regret_high[i]})
        for r in f.notes.get("oracle", []):
            oracle.append({"players": players, **{k: v for k, v in r.items() if k not in ("seed", "addable")}})
    f4 = field_play(REFERENCE, 4).field
    anchor = doc.section("The reference field: the meta-game's equilibrium (3, 4 and 5 players)",
                         "Each player count's shipped field (caesar_sim/fields/reference-<P>p.json) is the symmetric "
                         "equilibrium of the meta-game over its population: every profile played "
                         f"{f4.games_per_profile:,} games (seats rotated, common random numbers), replicator dynamics "
                         "from several starts, weights and regrets (a member's gain over the mixture's value) with "
                         "bootstrap 95% intervals; PSRO rounds added the best responses that gained more than 0.01. "
                         f"Made by `{f4.command}`. mc is the auditor, not a member (one mc seat plays a few hundred "
                         "games/s/core; the field must play 5,000).")
    doc.table(pd.DataFrame(rows), "field_members", key=True, fold=20)
    if oracle:
        doc.table(pd.DataFrame(oracle), "field_oracle")
    return anchor
