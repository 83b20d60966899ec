"""The kernels' arrays for a table state: the round as dealt (the other
seats' hidden cards filled with stand-ins), the history replayed through the
kernels' rule gate, and the decision it leads to."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.state import TableState, describe, next_actor
from sponsio_sim.analysis.game.setup import build_state, rulebook
from sponsio_sim.cards import card_name, format_cards
from sponsio_sim.kernels.advise.actions import END_USE, HIST_FIELDS, replay
from sponsio_sim.kernels.layout import BET, BOARD, END_TOKENS, GAME, MONEY, PASS, RULES, SWAP, SWAP_TOKEN, TOKEN
from sponsio_sim.kernels.game.engine import start_round
from sponsio_sim.rules import TOKENS


@dataclass
class StateArrays:
    start: tuple          # (board, game_state, money) as the round was dealt
    now: tuple            # the same after the history
    hist: np.ndarray      # history rows (kernels.advise.actions)
    seat: int             # the deciding seat
    step: int             # betting step, or betting_steps + j for the j-th end token (END_TOKENS order)
    token: int | None     # the end-of-betting token decided on, else None


def _known_cards(st: TableState) -> dict[int, set[int]]:
    """Per other seat, the cards its history shows it was dealt (revealed or
    given away before it could have taken them from the talon)."""
    known: dict[int, set[int]] = {s: set() for s in range(st.rules.players)}
    held: dict[int, set[int]] = {s: set() for s in range(st.rules.players)}
    for seat, kind, a, b, c in st.history:
        cards = []
        if kind == END_USE:
            if a == SWAP_TOKEN:
                cards = [b]
            else:
                continue
        elif kind == PASS:
            continue
        else:
            cards = [c] + ([b] if kind == TOKEN and b >= 0 else []) + ([a] if kind == SWAP else [])
        for card in cards:
            if card not in held[seat]:
                known[seat].add(card)
                held[seat].add(card)
        if kind == SWAP or (kind == END_USE and a == SWAP_TOKEN):
            give, take = (a, b) if kind == SWAP else (b, c)
            held[seat].discard(give)
            held[seat].add(take)
    return known


def _deal(st: TableState, seat: int) -> tuple[list[int], int]:
    """Hands as dealt (the others' unknown cards: the lowest unseen ones) and the talon."""
    r = st.rules
    hand = st.hand()
    if len(hand) != r.hand_size:
        raise UserError(f"seat {seat}'s hand has {len(hand)} cards; rule set {r.name} deals {r.hand_size}")
    if len(st.talon) != r.talon_size:
        raise UserError(f"the talon has {len(st.talon)} cards; rule set {r.name} has {r.talon_size}")
    both = set(hand) & set(st.talon)
    if both:
        raise UserError(f"card {card_name(min(both), r)} is both in seat {seat}'s hand and in the talon")
    known = _known_cards(st)
    seen: dict[int, int] = {c: -1 for c in st.talon}
    for s, cards in sorted(st.hands.items()):   # every hand the state shows must fit what happened
        for c in cards:
            if c in seen:
                where = "the talon" if seen[c] < 0 else f"seat {seen[c]}'s hand"
                raise UserError(f"card {card_name(c, r)} is dealt to seat {s} and to {where}")
            seen[c] = s
        odd = sorted(known[s] - set(cards))
        if odd:
            raise UserError(f"seat {s} shows {card_name(odd[0], r)}, which is not in its hand as dealt "
                            f"({format_cards(cards, r)})")
    used = set(hand) | set(st.talon)
    hands = [0] * r.players
    hands[seat] = sum(1 << c for c in hand)
    for s in range(r.players):
        if s == seat:
            continue
        for c in sorted(known[s]):
            if c in used:
                where = "the talon" if c in st.talon else f"seat {seat}'s hand"
                raise UserError(f"seat {s} shows {card_name(c, r)}, which is in {where} as dealt"
                                + (" (or another seat shows it too)" if c not in st.talon and c not in hand else ""))
            used.add(c)
        if len(known[s]) > r.hand_size:
            raise UserError(f"seat {s} shows {len(known[s])} cards it was dealt; hands have {r.hand_size}")
    free = [c for c in range(r.n_colours * 9) if c not in used]
    for s in range(r.players):
        if s == seat:
            continue
        need = r.hand_size - len(known[s])
        fill, free = free[:need], free[need:]
        hands[s] = sum(1 << c for c in known[s] | set(fill))
    return hands, sum(1 << c for c in st.talon)


def _why(row, st: TableState, board, game_state, money) -> str:
    """Why a history row is not legal where it stands (the gate said so)."""
    r = st.rules
    seat, kind, a, b, c = row
    if kind == END_USE:
        owner = int(game_state[GAME.token_owner + a])
        if owner != seat:
            return f"seat {seat} does not hold the {TOKENS[a]} token"
        return "not a use this token allows here"
    if c >= 0 and (int(board[BOARD.revealed]) >> c) & 1:
        return f"{card_name(c, r)} is already revealed"
    if kind == BET:
        if (int(game_state[GAME.kinds_held + seat]) >> int(rulebook(game_state)[0][RULES.catalogue + 3 * a])) & 1:
            return "seat already holds a bet of that type"
        return f"seat {seat} has {money[MONEY.coins + seat]:g} coins"
    if kind == TOKEN:
        if game_state[GAME.token_owner + a] >= 0:
            return f"the {TOKENS[a]} token is already taken (seat {int(game_state[GAME.token_owner + a])})"
        return "it cannot be paid that way"
    if kind == SWAP and not (int(board[BOARD.talon]) >> b) & 1:
        return f"{card_name(b, r)} is not in the talon ({format_cards(int(board[BOARD.talon]), r)})"
    return "not legal there"


def build_state_arrays(st: TableState, strategies, model) -> StateArrays:
    """Arrays of the round as dealt and after the history, and the decision."""
    r = st.rules
    n_bet = r.betting_turns * r.players
    _check_history(st)
    bet_rows = [h for h in st.history if h[1] != END_USE]
    owners = {a: s for (s, kind, a, b, c) in st.history if kind == TOKEN}
    if st.seat is None and len(bet_rows) == n_bet:
        st.seat = _end_decision(st, owners, None, n_bet)[2]
    seat = st.seat if st.seat is not None else next_actor(st)
    if len(bet_rows) < n_bet and seat != next_actor(st):
        raise UserError(f"seat {seat} does not act now: seat {next_actor(st)} does (betting step "
                        f"{len(bet_rows) + 1}); leave out --seat or give its history")
    st.seat = seat
    start, now, hist = betting_arrays(st, strategies, model)
    step, token = len(bet_rows), None
    if step == n_bet:
        step, token, _ = _end_decision(st, owners, seat, n_bet)
    return StateArrays(start, now, hist, seat, step, token)


def _check_history(st: TableState) -> None:
    """The betting actions' number, order and end-of-betting uses (docs/rules-sponsio.md sections 2.1, 3)."""
    players = st.rules.players
    n_bet = st.rules.betting_turns * players
    bet_rows = [h for h in st.history if h[1] != END_USE]
    if len(bet_rows) > n_bet:
        raise UserError(f"the history has {len(bet_rows)} betting actions; a round has {n_bet}")
    for k, h in enumerate(bet_rows):
        want = (st.dealer + 1 + k) % players
        if h[0] != want:
            raise UserError(f"history: {st.texts[st.history.index(h)]!r} is seat {h[0]}'s, but seat {want} acts at "
                            f"betting step {k + 1} (turn {k // players + 1}, from left of dealer seat {st.dealer})")
    ends = [k for k, h in enumerate(st.history) if h[1] == END_USE]
    if ends and (len(bet_rows) < n_bet or min(ends) < len(bet_rows)):
        raise UserError("history: a token is used at the end of betting before the betting is over")


def betting_arrays(st: TableState, strategies, model) -> tuple[tuple, tuple, np.ndarray]:
    """(the round as dealt, the same after the history, the history rows) for
    the seat ``st.seat`` (the others' hidden cards are stand-ins), the
    history checked through the kernels' rule gate."""
    r = st.rules
    players = r.players
    _check_history(st)
    seat = st.seat
    board, game_state, money = build_state(r, strategies, model)
    game_state[GAME.round] = st.round - 1
    game_state[GAME.dealer] = st.dealer
    for s in range(players):
        game_state[GAME.seat_entry + s] = s
        money[MONEY.coins + s] = st.coins[s]
        game_state[GAME.track + s] = st.track[s]
    start_round(board, game_state, money)
    hands, talon = _deal(st, seat)
    for s in range(players):
        board[BOARD.hands + s] = np.uint64(hands[s])
    board[BOARD.talon] = np.uint64(talon)
    hist = np.array(st.history, dtype=np.int64).reshape(-1, HIST_FIELDS)
    now = (board.copy(), game_state.copy(), money.copy())
    state = np.zeros(4, dtype=np.uint64)
    bad, _ = replay(hist, len(hist), 0, 1.0, *now, state)
    if bad >= 0:
        before = (board.copy(), game_state.copy(), money.copy())
        replay(hist, bad, 0, 1.0, *before, state)
        raise UserError(f"history: {st.texts[bad]!r} ({describe(st.history[bad], r)}) is not legal there: "
                        f"{_why(st.history[bad], st, *before)}")
    return (board, game_state, money), now, hist


def betting_over(st: TableState) -> bool:
    """Every betting action is given (end-of-betting tokens may still be used)."""
    return sum(1 for h in st.history if h[1] != END_USE) >= st.rules.betting_turns * st.rules.players


def pending_token(st: TableState) -> tuple[int, int] | None:
    """Betting is over and an end-of-betting token is still to be decided: (token, its holder); else None."""
    if not betting_over(st):
        return None
    owners = {a: s for (s, kind, a, b, c) in st.history if kind == TOKEN}
    try:
        _, token, seat = _end_decision(st, owners, None, st.rules.betting_turns * st.rules.players)
    except UserError:
        return None
    return token, seat


def betting_done(st: TableState) -> bool:
    """Every betting action is given and no end-of-betting token is left to
    decide: the tricks come next."""
    return betting_over(st) and pending_token(st) is None


def _end_decision(st: TableState, owners: dict[int, int], seat, n_bet) -> tuple[int, int, int]:
    """Betting is over: the first end-of-betting token (swap, rebet, double)
    after the last one used, held by ``seat`` (None: by anyone). Returns
    (step, token, its holder)."""
    used = [h[2] for h in st.history if h[1] == END_USE]
    after = max((END_TOKENS.index(t) for t in used), default=-1)
    for j in range(after + 1, len(END_TOKENS)):
        t = END_TOKENS[j]
        if t in owners and (seat is None or owners[t] == seat):
            return n_bet + j, t, owners[t]
    who = "no seat has" if seat is None else f"seat {seat} has no"
    held = [TOKENS[t] for t in END_TOKENS if owners.get(t) == seat] if seat is not None else []
    raise UserError(f"betting is over and {who} end-of-betting token left to use"
                    + (f" (it holds {', '.join(held)}, already decided)" if held else "")
                    + ": nothing to decide before the tricks")
