"""A seat that plays its cards by trick-phase advice in whole games, and how
its cards compare with the double-dummy optimum.

``card_tricks`` is ``duel.play``'s ``tricks`` hook: each round's tricks
are played step by step from the betting as it ended. The other seats play
by their policies up to the advised seat's turn (``play_scripted`` halting
at it), the seat's card comes from ``trickplay.rank_cards`` on what it sees,
and the round is then replayed whole and scored as ``play_out`` scores it.
With an ``Audit``, every decision where the seat holds bets and has a
choice is also judged with every hand known: the cards the DD solver finds
best (all its bets made against every defence, else with every seat
helping), the card the advice picks with every hand known (one world), the
card it picked seeing only what it may, and the card its own play policy
would play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tabletop_mc.runner import derive_seed
from sponsio_sim.analysis.advise.infer import Reading
from sponsio_sim.analysis.advise.arrays import StateArrays
from sponsio_sim.analysis.advise.trickplay import CardPlay, rank_cards
from sponsio_sim.analysis.advise.trickphase import trick_phase
from sponsio_sim.cards import parse_cards
from sponsio_sim.kernels.advise.tricks import PLAY_ON
from sponsio_sim.analysis.game.setup import rulebook
from sponsio_sim.kernels.layout import BOARD, END_TOKENS, RULES, TRICK_STATE
from sponsio_sim.kernels.betting.scoring import ready_tricks, score_round
from sponsio_sim.kernels.play.tricks import play_scripted


@dataclass
class Audit:
    """Counts over the judged decisions (``decisive``: the DD solver does not find every legal card equal)."""
    decisions: dict = field(default_factory=lambda: {"all": 0, "decisive": 0})
    agree: dict = field(default_factory=lambda: {(w, k): 0 for w in ("open advice", "advice", "policy")
                                                 for k in ("all", "decisive")})

    def add(self, best: set, picks: dict) -> None:
        kinds = ["all"] + (["decisive"] if picks.pop("_decisive") else [])
        for k in kinds:
            self.decisions[k] += 1
            for who, card in picks.items():
                self.agree[(who, k)] += card in best


def _play(end, state, cards, halt, hands, codes, counts, playpol):
    """The round from the end of betting with ``cards`` played first, then the policies up to ``halt``
    (``play_scripted``); returns the arrays, the first leader and play_scripted's result."""
    board, game_state, money = (a.copy() for a in end)
    leader = ready_tricks(board, game_state, hands, codes, counts, playpol)
    run = np.array([len(cards), halt, *cards], dtype=np.int64)
    players = rulebook(game_state)[0][RULES.players]
    out = play_scripted(players, leader, playpol, board, game_state, money, state.copy(), None, None, run)
    return (board, game_state, money), leader, out


@dataclass(frozen=True)
class Decision:
    """A card decision of the advised seat: the round's arrays at its start and at the end of
    betting (``start``, ``end``), the betting ``history``, the round's random ``stream`` state, the
    cards played so far and the seat's ``pick``."""
    start: tuple
    end: tuple
    history: np.ndarray
    stream: np.ndarray
    cards: list
    pick: int


def card_tricks(rules, strategies, seat: int, *, seed: int, game: int, n: int, reading: Reading = Reading(),
                audit: Audit | None = None, by: str = "advice"):
    """The ``tricks`` hook of ``duel.play`` for a seat that plays its cards
    by advice read as ``reading`` says (``by="policy"``: by its own play policy, through the same
    steps; with deterministic play policies (greedy, goal) that is the
    engine's own play card for card, a check of this driver; a random seat
    draws afresh in each replay)."""
    players = rules.players
    total = players * rules.hand_size
    n_bet = rules.betting_turns * players

    def tricks(start, hist, work):
        rnd, board, game_state, money, state, hands, codes, counts, result, failed, playpol = work
        end = (board.copy(), game_state.copy(), money.copy())
        cards: list[int] = []
        taken = 0
        while True:
            (t2, i2, _), _, _ = _play(end, state, cards, seat, hands, codes, counts, playpol)
            k = total - sum(bin(int(t2[BOARD.hands + s])).count("1") for s in range(players))
            cards += [int(c) for c in i2[TRICK_STATE.seq + len(cards):TRICK_STATE.seq + k]]
            if k == total:
                break
            tt = trick_phase(StateArrays(start, end, hist, seat, n_bet + len(END_TOKENS), None), rules, cards)
            if len(tt.legal) == 1:
                cards.append(tt.legal[0])
                continue
            step_seed = derive_seed(seed, game, rnd, len(cards))
            if by == "policy":
                (_, i3, _), _, _ = _play(end, state, cards, PLAY_ON, hands, codes, counts, playpol)
                cards.append(int(i3[TRICK_STATE.seq + len(cards)]))
                continue
            card = rank_cards(tt, rules, strategies, reading=reading, n=n, seed=step_seed).choice[0]
            taken += 1
            if audit is not None and tt.counts[seat] > 0:
                _judge(audit, Decision(start, end, hist, state, cards, card), step_seed, rules, strategies, seat,
                       (hands, codes, counts, playpol))
            cards.append(card)
        (t2, i2, w2), leader, (last, nine_lost) = _play(end, state, cards, PLAY_ON, hands, codes, counts, playpol)
        board[:], game_state[:], money[:] = t2, i2, w2
        n_failed = score_round(nine_lost, board, game_state, money, codes, counts, result, failed)
        return (leader, last, nine_lost, n_failed), taken

    return tricks


def _judge(audit, decision: Decision, seed, rules, strategies, seat, work) -> None:
    """One decision judged with every hand known (module docstring); ``work``: the round's hands, bet
    codes and counts, and play policies."""
    start, end, hist, state, cards = decision.start, decision.end, decision.history, decision.stream, decision.cards
    players = rules.players
    truth = [int(end[0][BOARD.hands + s]) for s in range(players)]
    arrays = StateArrays(start, end, hist, seat, rules.betting_turns * players + len(END_TOKENS), None)
    tt = trick_phase(arrays, rules, cards, hands=truth)
    known = Reading(infer=False)
    dd = rank_cards(tt, rules, strategies, card_play=CardPlay("dd"), reading=known, n=1, seed=seed).table
    value = {parse_cards(c, rules)[0]: (w, b) for c, w, b in zip(dd["card"], dd["p_worst"], dd["p_best"])}
    top = max(value.values())
    best = {c for c, v in value.items() if v == top}
    opened = rank_cards(tt, rules, strategies, reading=known, n=1, seed=seed).choice[0]
    (_, i2, _), _, _ = _play(end, state, cards, PLAY_ON, *work)
    audit.add(best, {"open advice": opened, "advice": decision.pick, "policy": int(i2[TRICK_STATE.seq + len(cards)]),
                     "_decisive": len(best) < len(value)})
