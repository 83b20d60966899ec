"""Odds and card advice in the trick phase.

Worlds are every seat's hand as betting ended, uniform given what the
viewing seat sees (its own hand, the talon, revealed and played cards,
voids shown: ``kernels.advise.layouts``) and weighted by the others'
betting as the betting advice reads it (``analysis.advise.infer``). In each
world the tricks so far are replayed and the round goes on (``play``):

- ``profile``: every seat plays on by its play policy in ``--profile``;
- ``pimc``: the viewing seat plays its later cards by PIMC (``--worlds``
  layouts per decision), the others by their policies;
- ``dd``: the worlds are solved double dummy: can the seat make all its bets
  (and each alone) against every other seat (worst case), and with every
  seat helping (best case)?

``trick_odds`` gives the chance of every bet every seat holds;
``rank_cards`` plays each legal card of the seat to play in the same worlds
with the same streams (paired), and ranks them by the coins the round pays
the seat (payouts, troll pay, round bonus). Intervals use the effective
sample (``result.mean_eff``). A bet the finished tricks already settle is
exact (its interval is the point).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from tabletop_mc.errors import UserError
from tabletop_mc.jitcache import COMPILE_NOTE, needs_compile
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed
from tabletop_mc.stats import wilson
from sponsio_sim.analysis.advise.infer import MIN_PROPOSALS, Reading, Worlds, draw_worlds
from sponsio_sim.analysis.advise.result import BATCH, Advice, mean_eff, next_best
from sponsio_sim.analysis.game.setup import rows_of, rulebook
from sponsio_sim.cards import card_name
from sponsio_sim.kernels.advise.layouts import propose_layouts
from sponsio_sim.kernels.advise.tricks import CardOutcomes, CardQuestion, play_cards, play_cards_pimc
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.kernels.bets import BET_FIELDS
from sponsio_sim.kernels.contexts import QueryArrays
from sponsio_sim.kernels.dd.core import tally_layout
from sponsio_sim.kernels.layout import MAX_BETS, RULES, TRICK_RULES, TRICK_STATE
from sponsio_sim.kernels.odds.dd import solve_deals
from sponsio_sim.kernels.play.pimc import trick_counters
from tabletop_mc.workshare import new_ticket

PLAYS = ("profile", "pimc", "dd")
DEFAULT_N = {"profile": 2500, "pimc": 50, "dd": 100}
PIMC_WORLDS = 10
PROPOSALS_PER_WORLD = 25   # inference: proposals per world (at least infer.MIN_PROPOSALS; scripts/bench_table.py)
CHUNK = 500   # worlds per kernel call (progress and Ctrl-C come between calls)


@dataclass(frozen=True)
class CardPlay:
    """How the round is played on in each world of the trick phase (module docstring): ``play``
    (profile, pimc or dd), ``worlds`` layouts per PIMC decision, and ``open_hands``: every hand as
    dealt is known (the worlds are that deal)."""
    play: str = "profile"
    worlds: int = PIMC_WORLDS
    open_hands: bool = False


def trick_worlds(tt, n: int, seed: int, reading: Reading, *, rules, strategies, memo: dict | None = None):
    """``n`` worlds (hands as betting ended) for the trick phase ``tt``, read as ``reading`` says
    (``memo``: the seats' likelihoods kept across calls, ``infer.seat_logliks``)."""
    layouts = tt.layouts
    if len(layouts.pool) == 0:   # every card is known: one deal, nothing to weigh
        hands = np.tile(layouts.fixed, (n, 1))
        return Worlds(hands, hands[:1], np.ones(1), float(n), "nothing is hidden: every world is the same deal")

    def propose(key, out):
        propose_layouts(layouts, key, out)

    reading = replace(reading, proposals=reading.proposals or max(PROPOSALS_PER_WORLD * n, MIN_PROPOSALS))
    return draw_worlds(tt.arrays, n, seed, reading, rules=rules, strategies=strategies, propose=propose, memo=memo)


def _check_play(tt, play: str, seat: int) -> None:
    if play not in PLAYS:
        raise UserError(f"--play {play}: choose from {', '.join(PLAYS)}")
    if play in ("pimc", "dd") and int(tt.counts[seat]) == 0 and not tt.over:
        raise UserError(f"--play {play} plays for seat {seat}'s bets, and it holds none (a troll): use --play profile")


def _played(tt, cards, worlds, n, seed, card_play, prog):
    """Coins of the viewing seat and every bet's result, per candidate and world (``play_cards``)."""
    play, pimc_worlds = card_play.play, card_play.worlds
    board, game_state, money = tt.arrays.now
    players = int(rulebook(game_state)[0][RULES.players])
    coins = np.zeros((len(cards), n))
    results = np.zeros((len(cards), n, players, MAX_BETS), dtype=np.int64)
    key = seed_key(derive_seed(seed, "advise", "tricks"))
    cand = np.array(cards, dtype=np.int64)
    step = BATCH if play == "pimc" else CHUNK
    question = CardQuestion(np.int64(tt.arrays.seat), cand, tt.script, worlds, key)
    out = CardOutcomes(coins, results)
    for r0 in range(0, n, step):
        r1 = min(r0 + step, n)
        if play == "pimc" and not tt.over:
            play_cards_pimc(question, np.int64(r0), np.int64(r1), board, game_state, money, np.int64(pimc_worlds),
                            out)
        else:
            play_cards(question, np.int64(r0), np.int64(r1), board, game_state, money, out)
        prog.advance(len(cards) * (r1 - r0))
    return coins, results


def _solved(tt, ask: int, roots, worlds, n, rows, row_counts, prog):
    """``ok[q, r, world]`` = (row r made in the worst case, possible in the best case) when ``ask``'s
    next card is ``roots[q]`` (0: any), solved double dummy in every world."""
    board, game_state, _ = tt.public
    book, _ = rulebook(game_state)
    players = int(book[RULES.players])
    n_col = int(book[RULES.colours])
    played = np.uint64(int(sum(1 << int(c) for c in tt.script)))
    ctr = np.zeros(tally_layout(players, n_col)[4], dtype=np.int64)
    trick_counters(ctr, np.int64(players), np.int64(n_col), tt.codes, tt.counts, np.int64(tt.nine_lost), board,
                   game_state)
    trick = np.array(tt.trick, dtype=np.int64)
    ok = np.zeros((n, len(roots), len(rows), 2), dtype=np.bool_)
    query = QueryArrays(np.int64(ask), np.int64(tt.leader), tt.codes, tt.counts, np.int64(n_col),
                        np.int64(book[TRICK_RULES.flags]))
    for r0 in range(0, n, BATCH):
        r1 = min(r0 + BATCH, n)
        deals = worlds[r0:r1] & ~played
        solve_deals(deals, new_ticket(), query, trick, ctr, np.array(roots, dtype=np.uint64), rows, row_counts,
                    ok[r0:r1])
        prog.advance(len(roots) * (r1 - r0))
    return np.moveaxis(ok, 0, 2)


def _bet_rows(tt, seat: int):
    """Seat's bets as ``solve_deals`` rows: all of them, then each alone (when it holds more than one)."""
    k = int(tt.counts[seat])
    sets = [list(range(k))] + ([[i] for i in range(k)] if k > 1 else [])
    rows = np.zeros((len(sets), MAX_BETS, BET_FIELDS), dtype=np.int64)
    for r, idx in enumerate(sets):
        for j, i in enumerate(idx):
            rows[r, j] = tt.codes[seat, i]
    return rows, np.array([len(x) for x in sets], dtype=np.int64)


def _names(tt, rules, seat):
    names = [b.notation(rules) for b in rows_of(rules)]
    return [names[b] for b in tt.bets(seat)]


def _ci(wins, k, eff, exact):
    """(p, low, high) on the effective sample; the point itself for an exact (decided) value."""
    p, lo, hi = wilson(eff * wins, eff * k)
    return (p, p, p) if exact else (p, lo, hi)


@dataclass(frozen=True)
class TrickOdds:
    """What ``trick_odds`` returns: ``table``, one row per bet held (and per seat's bets together), and what the
    title and JSON meta of `sponsio odds state` print: the ``situation`` in words, how the hidden cards were read
    (``inference``), the viewing ``seat``, the ``seed``, the card ``play``, the ``rules`` summary, the seats without
    bets (``trolls``), the ``effective`` sample of weighted worlds, and the ``profile`` playing on (one strategy per
    seat; ``analysis.advise.odds.state_odds`` fills it in). Typed fields rather than pandas' experimental ``attrs``:
    the signature says what the job returns, and no pandas operation on the table drops them."""
    table: pd.DataFrame
    situation: str
    inference: str
    seat: int
    seed: int
    play: str
    rules: str
    trolls: list[int]
    effective: float
    profile: tuple[str, ...] = ()


def trick_odds(tt, rules, strategies, *, card_play: CardPlay = CardPlay(), reading: Reading = Reading(),
               n: int | None = None, seed: int = 1, progress: bool | None = False,
               memo: dict | None = None) -> TrickOdds:
    """The chance of every bet every seat holds (and of all of a seat's bets), from the view of ``tt``'s seat
    (``card_play.open_hands``: ``tt`` was built with every hand known, ``build_trick_phase``)."""
    seat = tt.arrays.seat
    play = card_play.play
    reading = replace(reading, infer=reading.infer and not card_play.open_hands)   # every hand known: nothing to read
    _check_play(tt, play, seat)
    n = n or DEFAULT_N[play]
    bettors = [s for s in [seat] + [t for t in range(rules.players) if t != seat] if tt.counts[s] > 0]
    total = n * (sum(len(_bet_rows(tt, s)[0]) for s in bettors) if play == "dd" and not tt.over else 1)
    with Progress(total, "sponsio odds", enabled=progress) as prog:
        if needs_compile(play_cards):
            prog.note(COMPILE_NOTE)
        worlds = trick_worlds(tt, n, seed, reading, rules=rules, strategies=strategies, memo=memo)
        eff = min(1.0, worlds.ess / n)
        rows = []
        if play == "dd" and not tt.over:
            for s in bettors:
                sets, counts = _bet_rows(tt, s)
                ok = _solved(tt, s, [0], worlds.hands, n, sets, counts, prog)[0]
                names = _names(tt, rules, s)
                labels = ["all:" + ",".join(names)] + names if len(names) > 1 else names
                single = [None] + list(range(len(names))) if len(names) > 1 else [0]
                for r, label in enumerate(labels):
                    exact = (single[r] is not None and bool(tt.decided[s, single[r]])
                             and tt.codes[s, single[r], 0] != FAIL)
                    w = _ci(ok[r, :, 0].sum(), n, eff, exact)
                    b = _ci(ok[r, :, 1].sum(), n, eff, exact)
                    rows.append(dict(seat=s, bet=label, n=n, n_eff=int(round(eff * n)), p_worst=w[0], worst_low=w[1],
                                     worst_high=w[2], p_best=b[0], best_low=b[1], best_high=b[2], exact=exact))
        else:
            _, results = _played(tt, [-1], worlds.hands, n, seed, card_play, prog)
            exact_of = settled(tt, results[0])
            for s in bettors:
                names = _names(tt, rules, s)
                res = results[0, :, s, :len(names)]
                for i, name in enumerate(names):
                    exact = bool(exact_of[s, i])
                    p = _ci(res[:, i].sum(), n, eff, exact)
                    rows.append(dict(seat=s, bet=name, n=n, n_eff=int(round(eff * n)), p=p[0], ci_low=p[1],
                                     ci_high=p[2], exact=exact))
                if len(names) > 1:
                    lost = any(exact_of[s, i] and res[0, i] == 0 for i in range(len(names)))
                    exact = bool(lost or exact_of[s, :len(names)].all())
                    p = _ci(res.min(axis=1).sum(), n, eff, exact)
                    rows.append(dict(seat=s, bet="all:" + ",".join(names), n=n, n_eff=int(round(eff * n)), p=p[0],
                                     ci_low=p[1], ci_high=p[2], exact=exact))
    cols = (["seat", "bet", "n", "n_eff", "p_worst", "worst_low", "worst_high", "p_best", "best_low", "best_high",
             "exact"] if play == "dd" and not tt.over else ["seat", "bet", "n", "n_eff", "p", "ci_low", "ci_high",
                                                           "exact"])
    trolls = [s for s in range(rules.players) if tt.counts[s] == 0]
    return TrickOdds(pd.DataFrame(rows, columns=cols), situation=situation(tt, rules), inference=worlds.note,
                     seat=seat, seed=seed, play=play, rules=rules.summary(), trolls=trolls, effective=eff * n)


def settled(tt, results) -> np.ndarray:
    """``out[s, i]``: seat s's bet i is settled by the tricks finished so far
    (``tt.decided``; ``results[world, s, i]`` its outcome, the same in every
    world then). A fail bet is, once a bet of its target is lost, or once
    every bet of its target (none a fail bet) is won."""
    out = tt.decided.copy()
    if tt.over:
        return out
    players = out.shape[0]
    for s in range(players):
        for i in range(int(tt.counts[s])):
            a = int(tt.codes[s, i, 1])
            if tt.codes[s, i, 0] != FAIL or a < 0:
                continue
            mine = range(int(tt.counts[a]))
            lost = any(tt.decided[a, j] and tt.codes[a, j, 0] != FAIL and results[0, a, j] == 0 for j in mine)
            won = all(tt.decided[a, j] and tt.codes[a, j, 0] != FAIL and results[0, a, j] == 1 for j in mine)
            out[s, i] = lost or (won and len(mine) > 0)
    return out


def situation(tt, rules) -> str:
    """Where the round stands, in words."""
    done = len(tt.script) // rules.players
    if tt.over:
        where = f"every trick played ({done})"
    else:
        where = (f"trick {done + 1}, seat {tt.to_play} to play"
                 + (f" after {' '.join(card_name(c, rules) for c in tt.trick)}" if tt.trick else " (leads)"))
    won = ", ".join(f"seat {s} {int(tt.public[1][TRICK_STATE.tricks_won + s])}" for s in range(rules.players))
    return f"seat {tt.arrays.seat}'s view: {where}; tricks won: {won}"


def rank_cards(tt, rules, strategies, *, card_play: CardPlay = CardPlay(), reading: Reading = Reading(),
               n: int | None = None, seed: int = 1, progress: bool | None = False, memo: dict | None = None) -> Advice:
    """Every legal card of the seat to play, played in the same worlds and ranked (module docstring;
    ``card_play.open_hands``: ``tt`` was built with every hand known, ``build_trick_phase``)."""
    seat = tt.arrays.seat
    play = card_play.play
    reading = replace(reading, infer=reading.infer and not card_play.open_hands)   # every hand known: nothing to read
    if tt.over:
        raise UserError("every card of the round is played: nothing is left to decide (sponsio odds gives the "
                        "outcome of every bet)")
    if tt.to_play != seat:
        raise UserError(f"seat {seat} does not play now: seat {tt.to_play} does; leave out --seat, or give the cards "
                        f"played up to seat {seat}'s turn")
    _check_play(tt, play, seat)
    n = n or DEFAULT_N[play]
    cards = sorted(tt.legal)
    names = _names(tt, rules, seat)
    sets = _bet_rows(tt, seat)
    with Progress(n * len(cards) * (len(sets[0]) if play == "dd" else 1), "advise", enabled=progress) as prog:
        if needs_compile(play_cards):
            prog.note(COMPILE_NOTE)
        worlds = trick_worlds(tt, n, seed, reading, rules=rules, strategies=strategies, memo=memo)
        eff = min(1.0, worlds.ess / n)
        if play == "dd":
            ok = _solved(tt, seat, [1 << c for c in cards], worlds.hands, n, *sets, prog)
            df = _dd_frame(ok, cards, names, n, eff, rules)
        else:
            coins, results = _played(tt, cards, worlds.hands, n, seed, card_play, prog)
            df = _play_frame(coins, results[:, :, seat, :len(names)], cards, names, n, eff, rules)
    best = df.iloc[0]
    if play == "dd":
        head = (f"Advice for seat {seat}: play {best['card']} (all its bets made against every defence in "
                f"{best['p_worst']:.3f} of the worlds, possible in {best['p_best']:.3f})")
        text = next_best(df, head, label="card", unit="in the worst case", fmt="{:+.3f}",
                         only="the only legal card")
    else:
        head = (f"Advice for seat {seat}: play {best['card']} ({best['coins']:+.2f} coins from the round on average"
                + (f", all its bets {best['p_all']:.3f}" if names else ", as a troll") + ")")
        text = next_best(df, head, label="card", only="the only legal card")
    notes = [worlds.note]
    if eff < 1:
        notes.append(f"intervals count the {n:,} worlds played as {eff * n:,.0f} (the effective sample: resampled "
                     "worlds repeat); none below 30")
    meta = dict(seat=seat, decision="card", situation=situation(tt, rules), play=play,
                profile=[s.text for s in strategies], assume=reading.assume, infer=bool(reading.infer),
                effective_sample=round(worlds.ess, 1), worlds=int(n), tremble=float(reading.tremble),
                rules=rules.summary(),
                bets=names)
    return Advice(df, pd.DataFrame(), text, notes, meta, (_card_id(best["card"], cards, rules),))


def _card_id(name: str, cards, rules) -> int:
    """The card id of ``name`` among ``cards``."""
    return next(c for c in cards if card_name(c, rules) == name)


def _rows(df_rows, key, second=None) -> pd.DataFrame:
    df = pd.DataFrame(df_rows)
    order = [key] + ([second] if second else [])
    df = df.sort_values(order, ascending=False, kind="stable").reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


def _play_frame(coins, mine, cards, names, n, eff, rules) -> pd.DataFrame:
    """One row per card: coins (mean, t interval), paired gap to the best, chance of all bets and of each."""
    top = int(np.argmax(coins.mean(axis=1)))
    out = []
    for i, c in enumerate(cards):
        m, lo, hi = mean_eff(coins[i], eff)
        d, dlo, dhi = mean_eff(coins[i] - coins[top], eff)
        row = dict(card=card_name(c, rules), coins=m, coins_low=lo, coins_high=hi, vs_best=d, vs_best_low=dlo,
                   vs_best_high=dhi)
        if names:
            row.update(zip(("p_all", "p_all_low", "p_all_high"), wilson(eff * mine[i].min(axis=1).sum(), eff * n)))
            for j, name in enumerate(names):
                row.update(zip((name, f"{name}_low", f"{name}_high"), wilson(eff * mine[i, :, j].sum(), eff * n)))
        out.append(dict(row, rollouts=n))
    return _rows(out, "coins")


def _dd_frame(ok, cards, names, n, eff, rules) -> pd.DataFrame:
    """One row per card: worst and best case of all the seat's bets (and each alone), paired gap in the worst case."""
    worst = ok[:, 0, :, 0].astype(float)
    best = ok[:, 0, :, 1].astype(float)
    top = max(range(len(cards)), key=lambda i: (worst[i].sum(), best[i].sum()))
    out = []
    for i, c in enumerate(cards):
        row = dict(card=card_name(c, rules))
        row.update(zip(("p_worst", "p_worst_low", "p_worst_high"), wilson(eff * worst[i].sum(), eff * n)))
        row.update(zip(("vs_best", "vs_best_low", "vs_best_high"), mean_eff(worst[i] - worst[top], eff)))
        row.update(zip(("p_best", "p_best_low", "p_best_high"), wilson(eff * best[i].sum(), eff * n)))
        if len(names) > 1:
            for j, name in enumerate(names):
                row[f"{name} worst"] = ok[i, 1 + j, :, 0].mean()
                row[f"{name} best"] = ok[i, 1 + j, :, 1].mean()
        out.append(dict(row, rollouts=n))
    return _rows(out, "p_worst", "p_best")
