"""Grading the goal policy against PIMC and the double-dummy brackets.

``grade(n)`` deals ``n`` random hands (seat ``seat``, random leader, talon
public as in play). On each the seat picks the bet the goal policy would:
the catalogue bet (fail bets excluded: the other seats hold no bets, so
they cannot fail) with the best goal-policy EV estimated from
``pick_rounds`` conditional rounds per bet. Then, on the real deal and with
that bet, it records whether ``random``, ``goal`` and ``pimc`` (``worlds``
sampled layouts per decision) win it, other seats playing goal as trolls
against it, and whether the bet is makeable against all three (DD worst
case) and possible at all (DD best case). Rates carry 95% Wilson
intervals over the ``n`` hands.

``write_report`` writes the table (CSV), a by-bet-kind table, the per-hand
outcomes and a PNG under ``reports/sponsio/grading/`` (``index.html`` via
``tabletop_mc.htmlreport``); ``scripts/grade_goal.py`` runs it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.rng import seed_key
from tabletop_mc.htmlreport import HtmlReport
from tabletop_mc.progress import Progress
from tabletop_mc.runner import chunk_counts, set_threads
from tabletop_mc.stats import CI_METHOD, wilson
from sponsio_sim.bets import catalogue
from sponsio_sim.kernels.odds.grading import (F_BEST, F_BET, F_GOAL, F_LEADER, F_PIMC, F_RANDOM, F_WORST, Grading,
                                             grade_chunks)
from sponsio_sim.rules import load_rules

HANDS_PER_CHUNK = 4
CHUNKS_PER_BATCH = 16
POLICIES = [("random", F_RANDOM), ("goal", F_GOAL), ("pimc", F_PIMC), ("dd worst", F_WORST),
            ("dd best", F_BEST)]
RATE_COLUMNS = ["policy", "n", "wins", "p", "ci_low", "ci_high"]


@dataclass(frozen=True)
class GradedHands:
    """What ``grade`` returns: ``hands``, the per-hand outcomes (one row per hand: the picked bet, its kind and
    estimated EV, the leader, and 0/1 for each of ``POLICIES``), and the settings the report describes: ``n`` hands,
    ``seed``, ``seat``, PIMC ``worlds``, ``pick_rounds``, the ``rules`` summary, and the kernels' run time
    (``seconds``) on ``threads`` threads. Typed fields rather than pandas' experimental ``attrs``: the signature
    says what the job returns."""
    hands: pd.DataFrame
    n: int
    seed: int
    seat: int
    worlds: int
    pick_rounds: int
    rules: str
    seconds: float
    threads: int


def grade(n: int = 1000, *, seed: int = 1, seat: int = 0, worlds: int = 20, pick_rounds: int = 128,
          rules=None, players: int | None = None, overrides=None, threads: int | None = None,
          progress: bool | None = False) -> GradedHands:
    """Per-hand outcomes (one row per hand: picked bet, its estimated EV, leader,
    and 0/1 for each of ``POLICIES``), with the settings and runtime (``GradedHands``)."""
    r = load_rules(rules, players, overrides)
    if n < 1:
        raise UserError(f"-n {n}: the number of hands must be at least 1")
    if worlds < 1 or pick_rounds < 1:
        raise UserError("--worlds and --pick-rounds must be at least 1")
    if not 0 <= seat < r.players:
        raise UserError(f"--seat {seat}: out of range 0..{r.players - 1}")
    bets = [b for b in catalogue(r, seat) if b.kind != "fail"]
    cand = np.array([b.code() for b in bets], dtype=np.int64)
    mult = np.array([r.multiplier_for(b) for b in bets], dtype=np.float64)
    set_threads(threads)
    grading = Grading(np.int64(seat), np.int64(r.players), np.int64(r.n_colours), np.int64(r.hand_size),
                      np.int64(r.talon_size), cand, mult, np.float64(r.stake), np.int64(pick_rounds),
                      np.int64(worlds), np.int64(r.kernel_flags))
    counts = chunk_counts(n, HANDS_PER_CHUNK)
    outs, evs = [], []
    t0 = time.perf_counter()
    with Progress(n, "grading", enabled=progress) as bar:
        for lo in range(0, len(counts), CHUNKS_PER_BATCH):
            part = counts[lo:lo + CHUNKS_PER_BATCH]
            out, ev = grade_chunks(seed_key(seed), np.int64(lo), part, grading)
            outs.append(out)
            evs.append(ev)
            bar.advance(int(part.sum()))
    out = np.concatenate(outs)
    df = pd.DataFrame({"bet": [bets[j].notation(r) for j in out[:, F_BET]],
                       "kind": [bets[j].kind for j in out[:, F_BET]],
                       "est_ev": np.concatenate(evs), "leader": out[:, F_LEADER]})
    for name, f in POLICIES:
        df[name] = out[:, f]
    return GradedHands(df, n=n, seed=seed, seat=seat, worlds=worlds, pick_rounds=pick_rounds, rules=r.summary(),
                       seconds=time.perf_counter() - t0, threads=set_threads(threads))


def rates(hands: pd.DataFrame, by: str | None = None) -> pd.DataFrame:
    """Success rate of each policy (and DD bracket) with its Wilson CI;
    ``by="kind"`` gives one block per bet kind."""
    groups = [("all", hands)] if by is None else list(hands.groupby(by, sort=True))
    rows = []
    for key, g in groups:
        for name, _ in POLICIES:
            k = int(g[name].sum())
            p, lo, hi = wilson(np.array([k]), np.array([len(g)]))
            rows.append({**({by: key} if by else {}), "policy": name, "n": len(g), "wins": k,
                         "p": float(p[0]), "ci_low": float(lo[0]), "ci_high": float(hi[0])})
    return pd.DataFrame(rows)


def checks(hands: pd.DataFrame) -> dict:
    """Invariants and paired comparisons: no policy wins a hand whose best
    case fails; how often goal and pimc lose makeable bets."""
    impossible = {name: int(((hands[name] == 1) & (hands["dd best"] == 0)).sum())
                  for name in ("random", "goal", "pimc")}
    makeable = hands["dd worst"] == 1
    return {
        "wins where the best case fails (must be 0)": impossible,
        "makeable hands": int(makeable.sum()),
        "goal loses a makeable bet": int((makeable & (hands["goal"] == 0)).sum()),
        "pimc loses a makeable bet": int((makeable & (hands["pimc"] == 0)).sum()),
        "pimc wins, goal loses": int(((hands["pimc"] == 1) & (hands["goal"] == 0)).sum()),
        "goal wins, pimc loses": int(((hands["goal"] == 1) & (hands["pimc"] == 0)).sum()),
        "goal within [worst, best] rates": bool(_between(hands, "goal")),
    }


def _between(hands, name):
    return hands["dd worst"].mean() <= hands[name].mean() <= hands["dd best"].mean()


def plot(table: pd.DataFrame, by_kind: pd.DataFrame, path, title: str) -> None:
    """Overall rates, then rates by bet kind, each with 95% CI bars."""
    from sponsio_sim.analysis.plots import plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5), gridspec_kw={"width_ratios": [1, 2]})
    colours = dict(zip([p for p, _ in POLICIES], ["tab:gray", "tab:blue", "tab:green", "tab:red", "tab:orange"]))
    err = np.vstack([table["p"] - table["ci_low"], table["ci_high"] - table["p"]])
    axes[0].bar(table["policy"], table["p"], yerr=err, capsize=3, color=[colours[p] for p in table["policy"]])
    axes[0].set_ylabel("P(picked bet won) with 95% Wilson CI")
    axes[0].set_ylim(0, 1)
    axes[0].set_title(f"all hands (n = {int(table['n'].iloc[0])})", fontsize=10)
    kinds = list(dict.fromkeys(by_kind["kind"]))
    width = 0.16
    for i, (name, _) in enumerate(POLICIES):
        d = by_kind[by_kind["policy"] == name].set_index("kind").loc[kinds]
        x = np.arange(len(kinds)) + (i - 2) * width
        e = np.vstack([d["p"] - d["ci_low"], d["ci_high"] - d["p"]])
        axes[1].bar(x, d["p"], width, yerr=e, capsize=2, color=colours[name], label=name)
    n_by = by_kind.drop_duplicates("kind").set_index("kind")["n"]
    axes[1].set_xticks(np.arange(len(kinds)), [f"{k}\n(n = {n_by[k]})" for k in kinds])
    axes[1].set_ylim(0, 1.18)
    axes[1].set_ylabel("P(picked bet won)")
    axes[1].legend(fontsize=8, ncol=5, loc="upper center")
    axes[1].set_title("by kind of the picked bet", fontsize=10)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def describe(graded: GradedHands) -> str:
    """The grading's settings in words (the report's introduction)."""
    return (f"{graded.rules}. {graded.n} random hands, seat {graded.seat}, random leader, talon public; seed "
            f"{graded.seed}. Bet = the non-fail catalogue bet with the best goal-policy EV estimated from "
            f"{graded.pick_rounds} conditional rounds per bet. Other seats hold no bets and play goal against "
            f"it. pimc: {graded.worlds} worlds per decision. dd worst: makeable against all other seats, "
            f"dd best: possible with all seats cooperating (every card known). {CI_METHOD.split(';')[0]}.")


def write_report(graded: GradedHands, out_dir) -> dict:
    """Tables (CSV), per-hand outcomes, PNG and ``index.html`` under ``out_dir``."""
    out = Path(out_dir)
    hands = graded.hands
    table = rates(hands)
    by_kind = rates(hands, by="kind")
    doc = HtmlReport(out)
    doc.section("Goal policy graded by PIMC and the double-dummy brackets", describe(graded))
    doc.image("grading", lambda p: plot(table, by_kind, p, "Success of the bet goal would pick "
                                                           f"(seed {graded.seed})"))
    doc.table(table, "grading")
    doc.note("By kind of the picked bet:")
    doc.table(by_kind, "grading_by_kind")
    picked = hands["bet"].value_counts().rename_axis("bet").reset_index(name="hands")
    doc.note("Bets picked:")
    doc.table(picked, "bets_picked")
    info = checks(hands)
    doc.note("Checks: " + "; ".join(f"{k}: {v}" for k, v in info.items()))
    doc.csv(hands, "hands")
    doc.write("Sponsio: grading the goal policy",
              f"Generated by scripts/grade_goal.py in {graded.seconds:.0f} s on "
              f"{graded.threads} thread(s).")
    return {"table": table, "by_kind": by_kind, "picked": picked, "checks": info}
