"""`game`: one logged game told as text, plus its result table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tabletop_mc.rng import seed_key
from caesar_sim.analysis.game.bids import LOCATIONS
from caesar_sim.kernels import layout
from caesar_sim.analysis.game.runs import game_keys
from caesar_sim.fieldplay import field_play
from caesar_sim.kernels.game.engine import draw_seats, play_field_one, play_one
from caesar_sim.profile import is_field, parse_profile
from caesar_sim.rules import FAVOUR_TYPES, VENUES, check_players, kernel_rules, load_rules

PHASES = ("favours (Caesars Villa)", "tickets (Forum Romanum)", "visitors (the venues)")
FAV_WITH = ("", " + boost", " + double")


def _item(row, code, coin, extra):
    if row == 0:
        return "the start-player card" if code == layout.START_CARD else f"a {FAVOUR_TYPES[code]} favour"
    if row == 1:
        cc = f" (+{extra} coin card{'s' if extra != 1 else ''})" if extra else ""
        return f"a {VENUES[code]} ticket worth {coin}{cc}"
    return f"a visitor worth {coin}"


REMOVED = ("favours", "tickets", "visitors worth")


def _removed_line(removed: dict[int, list[str]]) -> str:
    return "Removed before the game: " + "; ".join(
        f"{REMOVED[k]} {', '.join(removed[k])}" for k in sorted(removed)) + "."


def narrate(log: np.ndarray, names: list[str], verbose: bool = False, favour_tickets: int = 1) -> str:
    """The log's events as lines of text (passes only when ``verbose``); ``favour_tickets`` is the
    rule set's number of favours each player may use as tickets at the Caesar venue."""
    out = []
    disp = {"t": [], "v": []}
    removed: dict[int, list[str]] = {}

    def flush_display():
        if disp["t"]:
            out.append("  tickets: " + ", ".join(disp["t"]))
        if disp["v"]:
            out.append("  visitors: " + ", ".join(disp["v"]))
        disp["t"].clear()
        disp["v"].clear()

    for ev, a, b, c, d, e, f, g, h in log[1:log[0, 0] + 1, :9]:
        if ev == layout.EV_REMOVE:
            removed.setdefault(a, []).append(FAVOUR_TYPES[b] if a == layout.RM_FAVOUR else
                                             f"{VENUES[b]} {c}" if a == layout.RM_TICKET else str(c))
        elif ev == layout.EV_DAY:
            if removed:
                out.append(_removed_line(removed))
                removed.clear()
            out.append(f"\n=== Day {a + 1} (start player: {names[b]})")
        elif ev == layout.EV_FAVOURS_SHOWN:
            out.append(f"  favours on display: boost x{a}, double x{b}, gold x{c}; start-player card")
        elif ev == layout.EV_TICKET:
            disp["t"].append(f"{VENUES[a]} {b}{' [special event]' if c else ''}")
        elif ev == layout.EV_VISITOR:
            disp["v"].append(f"{VENUES[a]} {b}")
        elif ev == layout.EV_CAESAR:
            disp["v"].append(f"{VENUES[a]} CAESAR (every player may use up to {favour_tickets} "
                             f"favour{'s' if favour_tickets != 1 else ''} as tickets there)")
        elif ev == layout.EV_SHORT:
            flush_display()
            what = "ticket" if a == layout.SHORT_TICKETS else "visitor"
            out.append(f"  the {what} deck has run out: {b} {what}{'s' if b != 1 else ''} short today")
        elif ev == layout.EV_PHASE:
            flush_display()
            out.append(f"-- Phase {b + 1}: {PHASES[b]}, {names[c]} starts")
        elif ev == layout.EV_BID:
            where = f" at {LOCATIONS[c]}" if c >= 2 else ""
            out.append(f"  {names[a]} plays {b}{FAV_WITH[d]}{where} (counts {e}, row position {f + 1})")
        elif ev == layout.EV_PASS and verbose:
            out.append(f"  {names[a]} {'has no merchants left' if b else 'passes'}")
        elif ev == layout.EV_TAKE:
            out.append(f"    -> {names[a]} ({b}) takes {_item(c, d, e, f)}")
        elif ev == layout.EV_NOTHING:
            out.append(f"    -> {names[a]} ({b} at {LOCATIONS[c]}) gets nothing")
        elif ev == layout.EV_START_CARD_FALLS:
            out.append(f"    -> nobody took the start-player card: it goes to {names[a]} (leftmost merchant)")
        elif ev == layout.EV_FAVOUR_TICKET:
            out.append(f"  {names[a]} uses a {FAVOUR_TYPES[d]} favour as a {VENUES[b]} ticket for a visitor worth {c}")
        elif ev == layout.EV_SCORE:
            out.append(f"  {names[a]}: merchants {b} + visitors {c} + tickets {d} + coin cards {e} + gold {f}"
                       f" = {g} today, {h} in all")
    return "\n".join(out).lstrip("\n")


def narrated_game(players: int, profile: str, *, seed: int = 1, rules=None, overrides=None,
                  verbose: bool = False, mc_horizon: str = "day") -> tuple[str, pd.DataFrame, str]:
    """Play game 0 of ``seed`` (the first game `simulate` plays with that seed, unrotated; with a field,
    its seats drawn as `simulate --profile` that field draws them).

    Returns (narration, result table by seat, rule summary).
    """
    check_players(players)
    rs = load_rules(rules, overrides)
    log = np.zeros((layout.MAX_LOG_ROWS, layout.LOG_FIELDS), dtype=np.int64)
    rulebook = kernel_rules(rs, players)
    if is_field(profile):
        play = field_play(profile, players)
        weight_table, pols, ks, cum, _ = play.kernel_tables(mc_horizon)
        dkey, gkey = game_keys(seed)
        seating = np.zeros(layout.MAX_PLAYERS, dtype=np.int64)
        draw_seats(cum, dkey, 0, players, seating)
        totals = play_field_one(rulebook, weight_table, pols, ks, seating, gkey, log)[:players]
        entries = [play.members[m].label for m in seating[:players]]
    else:
        prof = parse_profile(profile, players)
        totals = play_one(rulebook, prof.kernel_weights(mc_horizon), prof.policies, prof.rollouts, seed_key(seed),
                          log)[:players]
        entries = list(prof.entries)
    names = [f"seat {s} ({entries[s]})" for s in range(players)]
    top = totals == totals.max()
    table = pd.DataFrame({"seat": range(players), "policy": entries, "coins": totals,
                          "win_share": top / top.sum()})
    text = narrate(log, names, verbose, rs.caesar_favour_tickets)
    return text, table, rs.summary()
