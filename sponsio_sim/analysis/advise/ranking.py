"""`sponsio advise`: every legal action of a table decision, ranked.

Each action is played out in the same worlds (``analysis.advise.infer``)
with the same random streams (``kernels.advise.evaluate``): the round's
coin gain of the deciding seat, whether each of its bets succeeds and its
share of the game's win. Every action gets ``screen`` rollouts; the best
``keep`` of them by mean gain (and the first action, pass or not using the
token, as the baseline) get the full ``n``. For the best action that
reveals a card, every card it could reveal instead is played out too.
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
from sponsio_sim.analysis.advise.cash import advise_cash
from sponsio_sim.analysis.advise.result import BATCH, Advice, bet_chances, mean_eff, next_best
from sponsio_sim.analysis.advise.infer import Reading, assumed_strategy, draw_worlds, seat_strategies
from sponsio_sim.analysis.advise.state import TableState, describe
from sponsio_sim.analysis.advise.arrays import betting_done, build_state_arrays
from sponsio_sim.analysis.advise.trickplay import CardPlay, rank_cards
from sponsio_sim.analysis.advise.trickphase import build_trick_phase
from sponsio_sim.analysis.game.setup import rows_of
from sponsio_sim.kernels.advise.actions import END_USE, MAX_ACTIONS, decision_actions, reveal_actions
from sponsio_sim.kernels.advise.evaluate import ActionOutcomes, ActionQuestion, evaluate
from sponsio_sim.kernels.layout import BET, GAME, MAX_BETS, REBET_TOKEN, stats_size
from sponsio_sim.rules import TOKENS

DEFAULT_N = 1000
SCREEN = 100
KEEP = 8


@dataclass(frozen=True)
class Rollouts:
    """How much a betting decision is played out (module docstring): ``n`` rollouts for the best
    ``keep`` actions and the first (None: ``DEFAULT_N``; in the trick phase the worlds each card is
    played in, None: ``trickplay.DEFAULT_N``), ``screen`` for every action; ranked ``by`` the
    round's mean coin gain ("gain") or the share of the game's win ("win")."""
    n: int | None = None
    screen: int = SCREEN
    keep: int = KEEP
    by: str = "gain"


def _action_row(seat, step, n_bet, act, token) -> tuple:
    """An action as a history row (for ``describe``)."""
    if step < n_bet:
        return (seat, int(act[0]), int(act[1]), int(act[2]), int(act[3]))
    return (seat, END_USE, token, int(act[1]), int(act[2]))


def _label(row, rules, token, held_names) -> str:
    """An action in narration words; a double or rebet also names the bet it acts on."""
    if row[1] == END_USE and row[3] < 0:
        return f"do not use the {TOKENS[token]} token"
    text = describe(row, rules)
    if row[1] == END_USE and TOKENS[token] in ("double", "rebet"):
        head, _, tail = text.partition(" to ")
        text = f"{head} ({held_names[row[3]]})" + (f" to {tail}" if tail else "")
    return text


def _run(arrays, acts, pick, worlds, span, key, with_game, stats, out, prog):
    """Fill rollouts ``span[0] .. span[1]-1`` of the picked actions into ``out`` (gain, won, final, share)."""
    question = ActionQuestion(np.int64(arrays.step), np.int64(arrays.seat), acts, pick, worlds, key)
    for r0 in range(span[0], span[1], BATCH):
        r1 = min(r0 + BATCH, span[1])
        evaluate(question, np.int64(r0), np.int64(r1), with_game, *arrays.now, stats, ActionOutcomes(*out))
        prog.advance(len(pick) * (r1 - r0))


def advise(st: TableState, *, profile=None, model=None, reading: Reading = Reading(),
           rollouts: Rollouts = Rollouts(), card_play: CardPlay = CardPlay(), seed: int = 1,
           progress: bool | None = None, memo: dict | None = None) -> Advice:
    """Rank every legal action of the decision ``st`` leads to (module
    docstring), every seat played by ``profile`` (``model``: the success
    model of its ev policy); in the trick phase every legal card
    (``trickplay.rank_cards``, played on as ``card_play`` says; ``memo``
    keeps the inference's likelihoods across calls with the same betting)."""
    rules = st.rules
    if reading.assume is not None:
        assumed_strategy(reading.assume, rules)
    _, lineup = seat_strategies(profile, rules, model, st, tremble=reading.tremble, seed=seed)
    strategies, success = lineup.strategies, lineup.model
    a = _advise(st, strategies, success, reading=reading, rollouts=rollouts, card_play=card_play, seed=seed,
                memo=memo, progress=progress)
    a.meta["model"] = success.source
    if strategies.name:   # a field: how the other seats were read
        a.notes.insert(0, strategies.name)
    return a


def _advise(st, strategies, success, *, reading, rollouts, card_play, seed, memo, progress):
    """``advise`` with the seats' strategies resolved: a cash-in, a card or a betting action."""
    rules = st.rules
    n = rollouts.n
    if st.after_round():
        return advise_cash(st, strategies, success, n=n or DEFAULT_N, seed=seed, progress=progress)
    if st.in_tricks() or betting_done(st):
        tt = build_trick_phase(st, strategies, success, open_hands=card_play.open_hands)
        return rank_cards(tt, rules, strategies, card_play=card_play, reading=reading, n=n, seed=seed,
                          progress=progress, memo=memo)
    if card_play.play != "profile" or card_play.open_hands:
        raise UserError("--play and --open are for the trick phase (this is a betting decision)")
    n = n or DEFAULT_N
    if n < SCREEN:
        raise UserError(f"-n {n}: a betting decision needs at least {SCREEN} rollouts")
    arrays = build_state_arrays(st, strategies, success)
    return rank(arrays, rules, strategies, reading=reading, rollouts=replace(rollouts, n=n), seed=seed,
                progress=progress)


def rank(arrays, rules, strategies, *, reading: Reading = Reading(), rollouts: Rollouts = Rollouts(), seed: int = 1,
         with_game: bool = True, reveals: bool = True, progress: bool | None = None) -> Advice:
    """Rank the legal actions of ``arrays`` (``analysis.advise.arrays.StateArrays``);
    without ``with_game`` the game is not played on (no win shares) and
    without ``reveals`` the reveal table is skipped (the faster form a
    seat playing by `advise` uses, ``analysis.advise.duel``)."""
    n_bet = rules.betting_turns * rules.players
    n, keep, by = rollouts.n or DEFAULT_N, rollouts.keep, rollouts.by
    screen = min(rollouts.screen, n)
    acts = np.zeros((MAX_ACTIONS, 4), dtype=np.int64)
    n_acts = decision_actions(np.int64(arrays.step), np.int64(arrays.seat), *arrays.now, acts)
    key = seed_key(derive_seed(seed, "advise", "rollouts"))
    stats = np.zeros(stats_size(rules.players), dtype=np.float64)   # the kernel's statistics (unread here)
    gain = np.zeros((n_acts, n))
    won = np.zeros((n_acts, n), dtype=np.int64)
    final = np.zeros((n_acts, n, MAX_BETS), dtype=np.int64)
    share = np.zeros((n_acts, n))
    pick = np.arange(n_acts, dtype=np.int64)
    if n_acts == 1:
        screen = n
    with Progress(n_acts * screen + min(keep + 1, n_acts) * (n - screen), "advise", enabled=progress) as prog:
        if needs_compile(evaluate):
            prog.note(COMPILE_NOTE)
        worlds = draw_worlds(arrays, n, seed, reading, rules=rules, strategies=strategies)
        _run(arrays, acts, pick, worlds.hands, (0, screen), key, with_game, stats, (gain, won, final, share), prog)
        score = gain if by == "gain" or not with_game else share
        order = np.argsort(-score[:, :screen].mean(axis=1), kind="stable")
        top = np.unique(np.concatenate([[0], order[:keep]])).astype(np.int64)
        if screen < n:
            sub = [np.zeros((len(top), n)), np.zeros((len(top), n), dtype=np.int64),
                   np.zeros((len(top), n, MAX_BETS), dtype=np.int64), np.zeros((len(top), n))]
            _run(arrays, acts, top, worlds.hands, (screen, n), key, with_game, stats, sub, prog)
            for full, part in zip((gain, won, final, share), sub):
                full[top, screen:] = part[:, screen:]
    eff = min(1.0, worlds.ess / n)
    played = np.full(n_acts, screen)
    played[top] = n
    df = _frame(arrays, acts[:n_acts], played, (gain, won, final, share), rules, by if with_game else "gain", eff)
    index = df.pop("index").to_numpy()
    if not with_game:
        df = df.drop(columns=[c for c in df.columns if c.startswith("win")])
    rev = _reveals(arrays, acts[index[0]], worlds, key, stats, n, rules, eff) if reveals else pd.DataFrame()
    best = df.iloc[0]
    text = f"Advice for seat {arrays.seat}: {best['action']}" + _verdict(df, by) + _reveal_note(rev)
    meta = dict(seat=arrays.seat, decision=("betting step" if arrays.step < n_bet else "end of betting"),
                step=int(arrays.step), profile=[s.text for s in strategies], assume=reading.assume,
                infer=bool(reading.infer), effective_sample=round(worlds.ess, 1), rollouts=int(n),
                screen=int(screen), keep=int(keep), tremble=float(reading.tremble), ranked_by=by,
                rules=rules.summary())
    choice = acts[index[0]]
    notes = [worlds.note]
    if eff < 1:
        notes.append(f"intervals count the {n:,} worlds played as {eff * n:,.0f} (the effective sample: resampled "
                     "worlds repeat); none below 30")
    return Advice(df, rev, text, notes, meta, tuple(int(v) for v in choice))


def _paired(x: np.ndarray, base: np.ndarray, eff: float):
    return mean_eff(x - base, eff)


def _frame(arrays, acts, rollouts, results, rules, by, eff) -> pd.DataFrame:
    """One row per action: gain, its paired gap to the best, the bets' chances (``bet_chances``:
    as placed, where they still stand) and the win share (intervals on the effective sample,
    ``mean_eff``); ``rollouts[i]``: how many of action i's ``results`` (gain, won, final, share)
    were played."""
    gain, won, final, share = results
    names = [b.notation(rules) for b in rows_of(rules)]
    n_bet = rules.betting_turns * rules.players
    game_state = arrays.now[1]
    held = [int(game_state[GAME.bet_row + arrays.seat * MAX_BETS + i])
            for i in range(int(game_state[GAME.bet_count + arrays.seat]))]
    means = np.array([gain[i, :rollouts[i]].mean() for i in range(len(acts))])
    wins = np.array([share[i, :rollouts[i]].mean() for i in range(len(acts))])
    key = means if by == "gain" else wins
    best = int(np.argmax(np.where(rollouts == rollouts.max(), key, -np.inf)))
    rows = []
    for i, act in enumerate(acts):
        k = int(rollouts[i])
        row = _action_row(arrays.seat, arrays.step, n_bet, act, arrays.token)
        g, gl, gh = mean_eff(gain[i, :k], eff)
        d, dl, dh = _paired(gain[i, :k], gain[best, :k], eff)
        w, wl, wh = mean_eff(share[i, :k], eff, lower=0.0, upper=1.0)
        e, el, eh = _paired(share[i, :k], share[0, :k], eff)
        ranked = {}
        if by == "win":   # the ranking measure's own paired gap to the best, for the verdict
            v, vl, vh = _paired(share[i, :k], share[best, :k], eff)
            ranked = dict(win_vs_best=v, win_vs_best_low=vl, win_vs_best_high=vh)
        bets = list(held)
        new = -1
        if arrays.step < n_bet and act[0] == BET:
            bets.append(int(act[1]))
            new = len(bets) - 1
        elif arrays.step >= n_bet and arrays.token == REBET_TOKEN and act[1] >= 0:
            bets[int(act[1])] = int(act[2])
            new = int(act[1])
        p = bet_chances(won[i, :k], final[i, :k], bets, eff)
        label = _label(row, rules, arrays.token, [names[h] for h in held])
        rows.append(dict(action=label, gain=g, gain_low=gl, gain_high=gh, vs_best=d, vs_best_low=dl, vs_best_high=dh,
                         bet=names[bets[new]] if new >= 0 else "",
                         p_bet=p[new][0] if new >= 0 else np.nan, p_bet_low=p[new][1] if new >= 0 else np.nan,
                         p_bet_high=p[new][2] if new >= 0 else np.nan,
                         rebet=p[new][3] if new >= 0 else np.nan,
                         held=", ".join(_held(names[bets[b]], p[b]) for b in range(len(bets)) if b != new),
                         win=w, win_low=wl, win_high=wh, win_vs_first=e, win_vs_first_low=el, win_vs_first_high=eh,
                         **ranked, rollouts=k, index=i))
    df = pd.DataFrame(rows)
    sort = "gain" if by == "gain" else "win"
    df = df.sort_values(["rollouts", sort], ascending=[False, False], kind="stable").reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


def _held(name: str, chance: tuple) -> str:
    """A held bet's chance as the ``held`` column shows it, with how often a later rebet replaces it."""
    p, _, _, replaced = chance
    text = f"{name} {p:.2f}" if np.isfinite(p) else f"{name} -"
    return text + (f" (rebet {replaced:.0%})" if replaced > 0 else "")


def _verdict(df: pd.DataFrame, by: str) -> str:
    """The top line's second half: what the best action is worth and how sure the ranking is."""
    best = df.iloc[0]
    head = (f" ({best['gain']:+.2f} coins this round on average"
            + (f", win chance {best['win']:.3f}" if "win" in df.columns else "") + ")")
    if by == "win" and "win_vs_best" in df.columns:   # ranked by the win chance: judged on its paired gap
        return next_best(df, head, gap="win_vs_best", unit="win chance", fmt="{:+.3f}")
    return next_best(df, head)


def _reveal_note(rev: pd.DataFrame) -> str:
    """Which card to show, when another than the listed one is clearly better."""
    if rev.empty:
        return ""
    top = rev.iloc[0]
    if not top["vs_listed_low"] > 0:
        return ""
    card = top["action"].split(",")[0].replace("reveal ", "")
    listed = rev[rev["listed"]].iloc[0]["action"].split(",")[0].replace("reveal ", "")
    return (f"; reveal {card} for it rather than {listed} ({top['vs_listed']:+.2f} [{top['vs_listed_low']:+.2f}, "
            f"{top['vs_listed_high']:+.2f}] coins)")


def _reveals(arrays, best, worlds, key, stats, n, rules, eff) -> pd.DataFrame:
    """The best action with each card it could reveal, paired against its listed reveal."""
    n_bet = rules.betting_turns * rules.players
    if arrays.step >= n_bet or best[3] < 0:
        return pd.DataFrame()
    alts = np.zeros((16, 4), dtype=np.int64)
    m = reveal_actions(np.int64(arrays.seat), best[0], best[1], best[2], arrays.now[0], alts)
    if m <= 1:
        return pd.DataFrame()
    gain = np.zeros((m, n))
    won = np.zeros((m, n), dtype=np.int64)
    final = np.zeros((m, n, MAX_BETS), dtype=np.int64)
    share = np.zeros((m, n))
    evaluate(ActionQuestion(np.int64(arrays.step), np.int64(arrays.seat), alts[:m], np.arange(m, dtype=np.int64),
                            worlds.hands, key), np.int64(0), np.int64(n), False, *arrays.now, stats,
             ActionOutcomes(gain, won, final, share))
    ref = int(np.flatnonzero(alts[:m, 3] == best[3])[0])
    rows = []
    for j in range(m):
        g, gl, gh = mean_eff(gain[j], eff)
        d, dl, dh = _paired(gain[j], gain[ref], eff)
        rows.append(dict(action=describe(_action_row(arrays.seat, arrays.step, n_bet, alts[j], None), rules),
                         gain=g, gain_low=gl, gain_high=gh, vs_listed=d, vs_listed_low=dl, vs_listed_high=dh,
                         listed=j == ref, rollouts=n))
    return pd.DataFrame(rows).sort_values("gain", ascending=False, kind="stable").reset_index(drop=True)
