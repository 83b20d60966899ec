"""A table state in the trick phase: the betting as it ended, the cards
played so far checked against the rules, what they made public, and the
hidden cards' layouts consistent with it.

The cards are replayed by the kernels' own trick loop (``kernels.advise.
tricks.replay_script``): who led and won each trick, the voids shown (a
seat that did not follow holds none of the led colour), tricks and cards
won, 9s lost. What the text claims (trick numbers, leaders, each card's
seat, winners) must agree with that; a card played twice, a card another
seat is known to hold, a revoke (not following while known to hold the
colour, or playing it later) and a round that is already over are one-line
errors. ``layouts`` gives the kernels what they deal the hidden cards from.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from math import factorial

import numpy as np

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.trickentries import who_played
from sponsio_sim.analysis.advise.state import TableState, hands_now
from sponsio_sim.analysis.advise.arrays import StateArrays, betting_arrays
from sponsio_sim.cards import card_name, format_cards, ids_of
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.advise.layouts import Layouts, layout_counts
from sponsio_sim.kernels.advise.tricks import HALT_AFTER, decided_bets, replay_script
from sponsio_sim.kernels.layout import BOARD, END_TOKENS, GAME, LEAD_TOKEN, MAX_BETS, TOKEN, TRICK_STATE
from sponsio_sim.kernels.game.engine import game_round
from sponsio_sim.kernels.betting.phase import leader_of
from sponsio_sim.rules import RANKS


@dataclass
class TrickPhase:
    arrays: StateArrays       # the betting as it ended (``arrays.seat``: whose view)
    script: np.ndarray        # the cards played so far, in play order
    seats: list[int]          # who played each
    winners: list[int]        # each finished trick's winner
    to_play: int | None       # the seat to play next (None: every card is played)
    leader: int               # the current trick's leader
    trick: list[int]          # the cards in the current trick so far
    public: tuple             # (board, game_state, money) after the cards so far (the others' hands are stand-ins)
    nine_lost: int            # seats whose 9 lost a trick so far
    codes: np.ndarray         # every seat's bets as the settlement takes them (``kernels.bets``)
    counts: np.ndarray
    decided: np.ndarray       # (players, MAX_BETS): the bet is settled by the tricks finished so far
    hand: int                 # the viewing seat's cards now
    legal: list[int]          # its legal cards, when it is to play
    layouts: Layouts

    @property
    def over(self) -> bool:
        return self.to_play is None

    def bets(self, seat: int) -> list[int]:
        """Seat's bets as catalogue rows, in placing order."""
        game_state = self.arrays.now[1]
        held = int(game_state[GAME.bet_count + seat])
        return [int(game_state[GAME.bet_row + seat * MAX_BETS + i]) for i in range(held)]


def _check_claims(st: TableState, seats, winners, leader0) -> None:
    """Every trick number, leader, card seat and winner the text gives must be the play's."""
    r = st.rules
    players = r.players
    leads = [leader0] + winners
    if st.first_lead is not None and st.first_lead[0] != leader0:
        raise UserError(f"{st.first_lead[1]}: the first trick is led by seat {leader0} ({_lead_why(st, leader0)}), "
                        f"not seat {st.first_lead[0]}")
    k = 0
    for e in st.trick_entries:
        t, pos = divmod(k, players)
        if e.number is not None and (pos != 0 or e.number != t + 1):
            raise UserError(f"{e.where}: this is trick {t + 1}" + (f" (its card {pos + 1})" if pos else "")
                            + f", not trick {e.number}: {k} cards were played before it")
        if (e.number is not None or e.leader is not None) and pos + len(e.cards) > players:
            raise UserError(f"{e.where}: {len(e.cards)} cards from card {pos + 1} of a trick of {players}")
        if e.leader is not None:
            if pos != 0:
                raise UserError(f"{e.where}: seat {e.leader} cannot lead here: trick {t + 1} already has {pos} "
                                "card(s)")
            if e.leader != leads[t]:
                why = f"it won trick {t}" if t else _lead_why(st, leads[t])
                raise UserError(f"{e.where}: trick {t + 1} is led by seat {leads[t]} ({why}), not seat {e.leader}")
        for j, (c, claim) in enumerate(zip(e.cards, e.seats)):
            if claim is not None and claim != seats[k + j]:
                raise UserError(f"{e.where}: {card_name(c, r)} is played by seat {seats[k + j]} (in turn from the "
                                f"leader), not seat {claim}")
        end = k + len(e.cards)
        if e.winner is not None:
            if end % players != 0 or end // players - 1 < (k // players):
                raise UserError(f"{e.where}: names a winner, but its trick is not complete")
            if winners[end // players - 1] != e.winner:
                raise UserError(f"{e.where}: seat {winners[end // players - 1]} wins this trick, not seat {e.winner}")
        k = end


def _lead_why(st: TableState, seat: int) -> str:
    if any(kind == TOKEN and a == LEAD_TOKEN for (_, kind, a, _, _) in st.history):
        return "it holds the lead token"
    return f"left of dealer seat {st.dealer}"


def _where(st: TableState, k: int) -> str:
    """The entry that holds card k, for messages."""
    for e in st.trick_entries:
        if k < len(e.cards):
            return e.where
        k -= len(e.cards)
    return "--tricks"


def _check_cards(st: TableState, seats, whole, end_hands, known, talon) -> None:
    """Each card played once, by a seat that can hold it (``whole``: the seats
    whose every card is known); no revoke."""
    r = st.rules
    players = r.players
    cards = st.cards_played()
    first: dict[int, int] = {}
    for k, c in enumerate(cards):
        s, t = seats[k], k // players + 1
        name = card_name(c, r)
        if c in first:
            was = first[c] // players + 1
            raise UserError(f"{_where(st, k)}: {name} is played twice "
                            + (f"in trick {t}" if was == t else f"(trick {was} and trick {t})"))
        first[c] = k
        if (talon >> c) & 1:
            raise UserError(f"{_where(st, k)}: {name} is in the talon ({format_cards(talon, r)}), not in a hand")
        if s in whole and not (end_hands[s] >> c) & 1:
            raise UserError(f"{_where(st, k)}: seat {s} plays {name}, which is not in its hand "
                            f"({format_cards(end_hands[s], r)})")
        for u in range(players):
            if u != s and (known[u] >> c) & 1:
                whose = "hand" if u in whole else "revealed cards"
                raise UserError(f"{_where(st, k)}: seat {s} plays {name}, which is in seat {u}'s {whose}")
    # revokes: not following the led colour while known to hold it (or playing it later)
    for k, c in enumerate(cards):
        pos = k % players
        if pos == 0:
            continue
        led = cards[k - pos] // RANKS
        if c // RANKS == led:
            continue
        s = seats[k]
        later = [j for j in range(k + 1, len(cards)) if seats[j] == s and cards[j] // RANKS == led]
        held = [h for h in ids_of(known[s]) if h // RANKS == led and first.get(h, len(cards)) > k]
        if held or later:
            h = held[0] if held else cards[later[0]]
            how = (f"plays it in trick {later[0] // players + 1}" if not held
                   else "in its hand" if s in whole else "revealed")
            raise UserError(f"{_where(st, k)}: seat {s} plays {card_name(c, r)} to trick {k // players + 1}, led "
                            f"{r.colours[led]}, but holds {card_name(h, r)} ({how}): a revoke (it must follow "
                            "colour)")


def _layouts(r, viewer, fixed, voids, talon) -> Layouts:
    """The hidden cards and the splits of each colour over the seats that may hold it."""
    players = r.players
    need = np.array([0 if s == viewer else r.hand_size - bin(fixed[s]).count("1") for s in range(players)],
                    dtype=np.int64)
    for s in range(players):
        if need[s] < 0:
            raise UserError(f"seat {s} shows {bin(fixed[s]).count('1')} cards it held as betting ended "
                            f"({format_cards(fixed[s], r)}); hands have {r.hand_size}")
    seen = talon
    for h in fixed:
        seen |= h
    hidden = [c for c in range(r.n_colours * RANKS) if not (seen >> c) & 1]
    pool = np.array(sorted(hidden, key=lambda c: (c // RANKS, c)), dtype=np.int64)
    start = np.zeros(r.n_colours + 1, dtype=np.int64)
    for c in hidden:
        start[c // RANKS + 1] += 1
    start = np.cumsum(start)
    splits, first, ways = [], [0], []
    for col in range(r.n_colours):
        m = int(start[col + 1] - start[col])
        may = [s for s in range(players) if need[s] > 0 and not (voids[s] >> col) & 1]
        for parts in product(*(range(min(m, int(need[s])) + 1) for s in may)):
            if sum(parts) != m:
                continue
            row = [0] * players
            for s, k in zip(may, parts):
                row[s] = k
            splits.append(row)
            ways.append(factorial(m) / np.prod([factorial(k) for k in parts]))
        first.append(len(splits))
    strides = np.ones(players, dtype=np.int64)
    for s in range(1, players):
        strides[s] = strides[s - 1] * (need[s - 1] + 1)
    splits = np.array(splits, dtype=np.int64).reshape(-1, players)
    first = np.array(first, dtype=np.int64)
    ways = np.array(ways, dtype=np.float64)
    counts = layout_counts(splits, first, ways, need, strides)
    if counts[0, int((need * strides).sum())] == 0:
        short = [f"seat {s} ({int(need[s])} unknown card(s), void in "
                 f"{''.join(r.colours[c] for c in range(r.n_colours) if (voids[s] >> c) & 1) or 'nothing'})"
                 for s in range(players) if need[s] > 0]
        raise UserError("no layout of the hidden cards fits the voids shown: " + ", ".join(short))
    return Layouts(pool, start, splits, first, ways, need, strides, counts,
                   np.array(fixed, dtype=np.uint64))


def build_trick_phase(st: TableState, strategies, model, *, open_hands: bool = False) -> TrickPhase:
    """The trick phase so far from ``st`` (module docstring); whose view:
    ``st.seat``, else the seat to play. ``open_hands``: every seat's hand as
    the state deals it is known (a double-dummy view; the worlds are that deal)."""
    r = st.rules
    players = r.players
    n_bet = r.betting_turns * players
    done = sum(1 for h in st.history if h[1] != END_USE)
    if done < n_bet:
        raise UserError(f"cards are played, but the betting has only {done} of its {n_bet} actions (give the whole "
                        "betting before the tricks)")
    owners = {a: s for (s, kind, a, b, c) in st.history if kind == TOKEN}
    leader0 = owners.get(LEAD_TOKEN, (st.dealer + 1) % players)
    cards = st.cards_played()
    seats, winners, to_play = who_played(r, leader0, cards)
    _check_claims(st, seats, winners, leader0)
    if st.seat is None:
        if to_play is None:
            raise UserError("every card of the round is played: give --seat (whose view the odds take)")
        st.seat = to_play
    viewer = st.seat
    start, now, hist = betting_arrays(st, strategies, model)
    board, game_state, money = now
    end_hands = [int(board[BOARD.hands + s]) for s in range(players)]
    revealed = int(board[BOARD.revealed])
    talon = int(board[BOARD.talon])
    whole = {viewer}
    if open_hands:
        missing = [s for s in range(players) if s not in st.hands]
        if missing:
            raise UserError(f"--open needs every seat's hand as dealt (no hand for seat {missing[0]}): an excerpt of "
                            "`sponsio game --verbose` lists them")
        end_hands = [int(h) for h in hands_now(st.hands, st.history, players)]
        whole = set(range(players))
    known = [end_hands[s] if s in whole else end_hands[s] & revealed for s in range(players)]
    _check_cards(st, seats, whole, end_hands, known, talon)
    arrays = StateArrays(start, now, hist, viewer, n_bet + len(END_TOKENS), None)
    return trick_phase(arrays, r, cards, end_hands if open_hands else None)


def trick_phase(arrays: StateArrays, rules, cards: list[int], hands=None) -> TrickPhase:
    """The trick phase so far from arrays: ``arrays`` the betting as it ended
    (its seat: whose view), ``cards`` played in order (legal play: not
    checked here); ``hands``: every seat's hand as betting ended, when every
    hand is known (else the viewing seat's and the revealed cards are)."""
    players = rules.players
    board, game_state, money = arrays.now
    viewer = arrays.seat
    seats, winners, to_play = who_played(rules, int(leader_of(game_state)), cards)
    revealed = int(board[BOARD.revealed])
    if hands is None:
        hands = [int(board[BOARD.hands + s]) if s == viewer else int(board[BOARD.hands + s]) & revealed
                 for s in range(players)]
        whole = {viewer}
    else:
        whole = set(range(players))
    script = np.array(cards, dtype=np.int64)
    work = game_round(board, game_state, money, np.empty(4, dtype=np.uint64))
    scratch_hands, codes, counts, playpol = work.hands, work.codes, work.counts, work.playpol
    public = (board.copy(), game_state.copy(), money.copy())
    leader, nine_lost = replay_script(script, HALT_AFTER, *public, scratch_hands, codes, counts, playpol)
    boundary = (board.copy(), game_state.copy(), money.copy())
    finished = len(cards) - len(cards) % players
    _, lost_then = replay_script(script[:finished], HALT_AFTER, *boundary, scratch_hands, codes, counts, playpol)
    decided = np.zeros((players, MAX_BETS), dtype=np.bool_)
    decided_bets(codes, counts, boundary[0], boundary[1], lost_then, decided)
    if to_play is None:
        decided[:] = True
    played_by = [0] * players
    for c, s in zip(cards, seats):
        played_by[s] |= 1 << c
    fixed = [hands[s] if s in whole else hands[s] | played_by[s] for s in range(players)]
    voids = [int(public[1][TRICK_STATE.void + s]) for s in range(players)]
    hand = hands[viewer] & ~played_by[viewer]
    pos = len(cards) % players
    trick = cards[len(cards) - pos:]
    legal = []
    if to_play == viewer:
        follow = [c for c in ids_of(hand) if pos and c // RANKS == trick[0] // RANKS]
        legal = follow or ids_of(hand)
    return TrickPhase(arrays, script, seats, winners, to_play, int(leader), trick, public, int(nine_lost),
                      codes.copy(), counts.copy(), decided, hand, legal,
                      _layouts(rules, viewer, fixed, voids, int(board[BOARD.talon])))
