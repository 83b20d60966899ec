"""`sponsio odds state` in the betting: odds of a bet placed now, given what the
others did this round.

The seat about to act places the bet now and takes no further betting
action (its later turns pass, its tokens stay unused); the others bet on by
``--profile`` and everyone plays the tricks by it. Hidden cards come from
the inference's worlds (``analysis.advise.infer``), so the odds condition
on the others' actions; each bet is played in the same worlds. The
intervals are Wilson intervals on the effective sample (``result.mean_eff``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.progress import Progress
from tabletop_mc.rng import seed_key
from tabletop_mc.runner import derive_seed, set_threads
from sponsio_sim.analysis.advise.infer import Reading, draw_worlds, seat_strategies
from sponsio_sim.analysis.advise.result import BATCH, standing_wins
from sponsio_sim.analysis.advise.state import RoundFacts, TableState, table_state
from sponsio_sim.analysis.advise.arrays import betting_over, build_state_arrays, pending_token
from sponsio_sim.analysis.advise.trickplay import CardPlay, TrickOdds, trick_odds
from sponsio_sim.analysis.advise.trickphase import build_trick_phase
from sponsio_sim.analysis.game.setup import rows_of, rulebook
from sponsio_sim.analysis.odds.job import odds_table
from sponsio_sim.analysis.odds.result import OddsResult
from sponsio_sim.bets import parse_bet
from sponsio_sim.kernels.advise.evaluate import ActionOutcomes, ActionQuestion, evaluate
from sponsio_sim.kernels.betting.policies import cheap_card
from sponsio_sim.betting_policies import BET_TROLL
from sponsio_sim.kernels.layout import BET, BOARD, GAME, MAX_BETS, MONEY, MONEY_RULES, RULES, stats_size
from sponsio_sim.rules import TOKENS, load_rules

DEFAULT_N = 2000


def history_odds(facts: RoundFacts, *, rules=None, bets=None, profile=None, infer: bool = True, n: int | None = None,
                 seed: int = 1, threads: int | None = None, progress: bool | None = False) -> OddsResult:
    """The odds (``analysis.odds.result.OddsResult``) of each bet the
    seat about to act could place now (``bets``: only those), after the
    betting ``facts.history`` of the round ``facts.dealer`` dealt (``rules``:
    a RuleSet or what ``load_rules`` reads)."""
    ruleset = load_rules(rules)
    if facts.talon is None:
        raise UserError("--history needs --talon (the talon as dealt)")
    st = table_state(ruleset, facts=facts)
    set_threads(threads)
    return betting_odds(st, bets=bets, profile=profile, infer=infer, n=n, seed=seed, progress=progress)


def state_odds(st: TableState, *, bets=None, profile=None, infer: bool = True, n: int | None = None, seed: int = 1,
               card_play: CardPlay = CardPlay(), memo: dict | None = None,
               progress: bool | None = False) -> OddsResult | TrickOdds:
    """The odds at a table state: in the betting, of each bet the seat about
    to act could place now (``betting_odds``, an ``OddsResult``); once the
    betting is done, of every bet every seat holds (``trickplay.trick_odds``,
    a ``TrickOdds``, the round played on as ``card_play`` says)."""
    ruleset = st.rules
    if st.after_round():
        raise UserError("the state ends after the round's settlement: every bet is settled (ask during a round)")
    pending = None if st.in_tricks() else pending_token(st)
    if pending is not None:
        raise UserError(f"the betting is over and seat {pending[1]} still decides its {TOKENS[pending[0]]} token: give "
                        f"its use (end {pending[1]}: ...) or the first card played")
    if not (st.in_tricks() or betting_over(st)):
        if card_play.play != "profile" or card_play.open_hands:
            raise UserError("--play and --open are for the trick phase (this state is in the betting)")
        return betting_odds(st, bets=bets, profile=profile, infer=infer, n=n, seed=seed, progress=progress)
    if bets is not None:
        raise UserError("--bets is for the betting; in the trick phase the odds are of the bets every seat holds")
    _, lineup = seat_strategies(profile, ruleset, state=st, seed=seed)
    strategies, success = lineup.strategies, lineup.model
    tt = build_trick_phase(st, strategies, success, open_hands=card_play.open_hands)
    res = trick_odds(tt, ruleset, strategies, card_play=card_play, reading=Reading(infer=infer), n=n, seed=seed,
                     progress=progress, memo=memo)
    res = replace(res, profile=tuple(x.text for x in strategies))
    if strategies.name:   # a field: how the other seats were read
        res = replace(res, inference="\n".join(filter(None, [strategies.name, res.inference])))
    return res


def betting_odds(st: TableState, *, bets=None, profile=None, infer: bool = True, n: int | None = None,
                 seed: int = 1, progress: bool | None = False) -> OddsResult:
    """``history_odds`` at the betting state ``st``."""
    ruleset = st.rules
    _, lineup = seat_strategies(profile, ruleset, state=st, seed=seed)
    strategies, success = lineup.strategies, lineup.model
    arrays = build_state_arrays(st, strategies, success)
    s = arrays.seat
    if arrays.step >= ruleset.betting_turns * ruleset.players:
        raise UserError("--history: the betting is over, no bet can be placed any more")
    for a in (arrays.start, arrays.now):   # the seat takes no further betting action
        a[1][GAME.betting_policy + s] = BET_TROLL
    board, game_state, money = arrays.now
    rows = rows_of(ruleset)
    wanted = None if bets is None else {parse_bet(b, ruleset, s).code() for b in bets.split(",") if b.strip()}
    held = {int(rulebook(game_state)[0][RULES.catalogue + 3 * int(game_state[GAME.bet_row + s * MAX_BETS + i])])
            for i in range(int(game_state[GAME.bet_count + s]))}
    picks = [r for r, b in enumerate(rows)
             if (wanted is None or b.code() in wanted) and not (b.kind == "fail" and b.a == s)]
    taken = [r for r in picks if rows[r].code()[0] in held]
    if taken and wanted is not None:
        raise UserError(f"seat {s} already holds a bet of the type of {rows[taken[0]].notation(ruleset)} "
                        "(one bet per type)")
    kinds_held = list(dict.fromkeys(rows[r].kind for r in taken))   # in catalogue order
    picks = [r for r in picks if r not in taken]
    if not picks:
        raise UserError(f"seat {s} already holds a bet of every type it could place (one bet per type)")
    if money[MONEY.coins + s] < max(rulebook(game_state)[1][MONEY_RULES.stake], 1e-12):
        raise UserError(f"seat {s} has {money[MONEY.coins + s]:g} coins: it cannot stake a bet")
    reveal = int(cheap_card(board[BOARD.hands + s] & ~board[BOARD.revealed]))
    if reveal < 0:
        raise UserError(f"seat {s} has no unrevealed card left: it cannot act")
    n = n or DEFAULT_N
    worlds = draw_worlds(arrays, n, seed, Reading(infer=infer), rules=ruleset, strategies=strategies)
    acts = np.array([(BET, r, -1, reveal) for r in picks], dtype=np.int64).reshape(-1, 4)
    key = seed_key(derive_seed(seed, "advise", "rollouts"))
    gain = np.zeros((len(acts), n))
    won = np.zeros((len(acts), n), dtype=np.int64)
    final = np.zeros((len(acts), n, MAX_BETS), dtype=np.int64)
    share = np.zeros((len(acts), n))
    pick = np.arange(len(acts), dtype=np.int64)
    stats = np.zeros(stats_size(ruleset.players))
    with Progress(len(acts) * n, "sponsio odds", enabled=progress) as prog:
        for r0 in range(0, n, BATCH):
            r1 = min(r0 + BATCH, n)
            evaluate(ActionQuestion(np.int64(arrays.step), np.int64(s), acts, pick, worlds.hands, key), np.int64(r0),
                     np.int64(r1), False, *arrays.now, stats, ActionOutcomes(gain, won, final, share))
            prog.advance(len(acts) * (r1 - r0))
    eff = min(1.0, worlds.ess / n)
    bit = int(game_state[GAME.bet_count + s])
    # The seat passes from here on, so its bet stands unless a rebet token it
    # already holds changes it: count only the rollouts where it stands.
    counts = [standing_wins(won[i], final[i], bit, r) for i, r in enumerate(picks)]
    results = [(rows[r].notation(ruleset), eff * wins, eff * k, ruleset.multiplier_for(rows[r]), ruleset.stake)
               for (wins, k), r in zip(counts, picks)]
    df = odds_table(results, joint=False, by_ev=bets is None)
    df["n"] = n
    df.insert(2, "n_eff", int(round(eff * n)))
    return OddsResult(df, situation=f"seat {s} about to act at betting step {arrays.step + 1} after: "
                      + ("; ".join(st.texts) or "nothing yet"), rules=ruleset.summary(), seat=s, seed=seed,
                      policy=f"{strategies[s].play} (placing the bet now, then passing)",
                      opponents=", ".join(x.text for i, x in enumerate(strategies) if i != s),
                      inference="\n".join(filter(None, [strategies.name, worlds.note])), effective=eff * n,
                      model=success.source,
                      left_out=(f"left out the {', '.join(kinds_held)} bets: seat {s} already holds one"
                                + (" of each" if len(kinds_held) > 1 else "") + " (one bet per type)")
                      if kinds_held else "")
