"""A table state up to a decision, as `sponsio game --verbose` narrates it.

The state is read from a narration excerpt (the last ``Round N: dealer
seat D`` line and what follows it, up to the decision; a seat line whose
cards are ``?`` gives that seat's coins and track only) and/or from options
(``--hand``, ``--talon``, ``--seat``, ``--dealer``, ``--round``,
``--history``, ``--coins``, ``--track``); options win over the excerpt.
Hands and talon are as dealt; the history's exchanges are applied on top.
An excerpt (or ``--tricks``) may go on into the trick phase, up to any card
(``analysis.advise.trickentries``).
A history entry reads as the narration writes it or shorter:

    0: reveals G1, bets colour:G=4        1: pass
    2: reveal B1, take double (reveal Y3)  3: reveal R2, take lead (coin)
    0: reveal R7, swap R7 for R3           end 0: double #1
    end 2: swap R5 for B9                  end 1: rebet #2 to tricks=3

Everything is checked here or by replaying it through the kernels' own
rule gate (``analysis.advise.ranking``); what is wrong is named in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from tabletop_mc.errors import UserError
import sponsio_sim.standing as standing
from sponsio_sim.analysis.advise.trickentries import TrickEntry, parse_trick_entry, parse_tricks, phase_leader, who_played
from sponsio_sim.bets import parse_bet
from sponsio_sim.cards import card_name, parse_card, parse_cards
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.layout import BET, DOUBLE_TOKEN, LEAD_TOKEN, PASS, REBET_TOKEN, SWAP, SWAP_TOKEN, TOKEN
from sponsio_sim.rules import TOKENS, RuleSet

UNKNOWN_HAND = "?"   # a seat line's cards where the narration does not know them
_ROUND = re.compile(r"^round\s+(\d+)\s*:\s*dealer\s+seat\s+(\d+)")
_SEAT = re.compile(r"^seat\s+(\d+)\s*\((?:[^;)]*;\s*)?(\S+?)\s+coins?,\s*track\s+(\S+?)\)\s*:\s*(.*)$")
_TALON = re.compile(r"^talon\s*:\s*(.*)$")
_TURN = re.compile(r"^turn\s+\d+\s*,\s*seat\s+(\d+)\s*:\s*(.*)$")
_END = re.compile(r"^end of betting\s*:\s*seat\s+(\d+)\s*\((swap|rebet|double) token\)\s*(.*)$")
_PAST = re.compile(r"^(game over)\b")
_TRICKS = re.compile(r"^(trick phase|tricks:|seat \d+ won \d+ trick|nines:|settlement:)")
_TRICK = re.compile(r"^trick\s+\d+\s*:")
_SETTLE = re.compile(r"^seat\s+(\d+)\s*:.*;\s*coins\s+([-\d.]+)\s*->\s*([-\d.]+)\s*;\s*track\s*->\s*(\d+)"
                     r"(?:,\s*cashes in\s+([\d.]+)\s+coins?\s*->\s*0)?\s*$")
_ENTRY = re.compile(r"^(end\s+)?(\d+)\s*:\s*(.*)$")
_REVEAL = re.compile(r"^reveals?\s+(\w+)\s*,\s*(.*)$")
_BET = re.compile(r"^bets?\s+(.+?)(?:\s*\(([^()]*)stake\))?$")
_STAKE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s+coins?\s*$")
_TAKE = re.compile(r"^takes?\s+(?:the\s+)?(\w+)(?:\s+token)?\s*(?:\((.*)\))?$")
_SWAP = re.compile(r"^swaps?\s+(\w+)\s+for\s+(?:the\s+talon's\s+)?(\w+)$")
_PAY_CARD = re.compile(r"^(?:reveals?|pay(?:s|ing)? by revealing)\s+(\w+)(?:\s+to\s+pay)?$")
_PAY_COIN = re.compile(r"^(?:pays?\s+[\d.]+\s+coins?|coins?|pays?\s+coins?)$")
_DOUBLE = re.compile(r"^doubles?\s+(?:its\s+)?(?:bet\s+)?#\s*(\d+)$")
_REBET = re.compile(r"^(?:rebets?|changes?)\s+(?:its\s+)?(?:bet\s+)?#\s*(\d+)\s+to\s+(.+)$")


@dataclass
class TableState:
    """Everything public at a decision, plus the deciding seat's own hand."""
    rules: RuleSet
    round: int = 1                                  # 1-based
    dealer: int | None = None
    seat: int | None = None                         # the seat to advise (None: whoever acts next)
    coins: list[float] | None = None                # at the start of the round
    track: list[int] | None = None
    hands: dict[int, list[int]] = field(default_factory=dict)   # as dealt (only the advised seat's is used)
    talon: list[int] | None = None                  # as dealt
    history: list[tuple[int, int, int, int, int]] = field(default_factory=list)   # kernels.advise.actions rows
    texts: list[str] = field(default_factory=list)  # each history row as given
    tricks: bool = False                            # the excerpt goes on into the trick phase
    trick_entries: list[TrickEntry] = field(default_factory=list)   # the trick phase so far, in play order
    first_lead: tuple[int, str] | None = None       # the first leader the excerpt names, and where
    settled: dict[int, tuple[float, int, float]] = field(default_factory=dict)   # seat: (coins, track, cashed)

    def after_round(self) -> bool:
        """The excerpt ends after the round's settlement: the decision is whether to cash in."""
        return len(self.settled) == self.rules.players

    def in_tricks(self) -> bool:
        """The state has reached the trick phase (cards played, or the excerpt says it began)."""
        return self.tricks or bool(self.trick_entries)

    def cards_played(self) -> list[int]:
        """Every card played so far, in play order."""
        return [c for e in self.trick_entries for c in e.cards]

    def hand(self) -> list[int]:
        if self.seat is None:
            raise UserError("give --seat (the seat to advise)" + (
                ": the excerpt runs to the end of the round, where every seat decides whether to cash its streak "
                "in" if self.after_round() else ""))
        if self.seat not in self.hands:
            raise UserError(f"no hand for seat {self.seat}: give --hand (the cards seat {self.seat} was dealt)")
        return self.hands[self.seat]


def _card(token: str, rules: RuleSet, what: str) -> int:
    return parse_card(token, rules, what)


def _token(name: str, rules: RuleSet, what: str) -> int:
    name = name.lower()
    if name not in TOKENS or name not in rules.tokens:
        raise UserError(f"{what}: unknown token '{name}' (tokens of rule set {rules.name}: "
                        f"{', '.join(rules.tokens)})")
    return TOKENS.index(name)


def _rows(rules: RuleSet) -> list:
    from sponsio_sim.analysis.game.setup import rows_of
    return rows_of(rules)


def parse_action(seat: int, text: str, rules: RuleSet, what: str) -> tuple[int, int, int, int, int]:
    """One betting action (module docstring) as a history row."""
    t = " ".join(text.strip().lower().split()).rstrip(".")
    if t in ("pass", "passes"):
        return seat, PASS, -1, -1, -1
    m = _REVEAL.match(t)
    if not m:
        raise UserError(f"{what}: cannot read {standing.shown(text)} (expected pass, or 'reveal CARD, ' and a bet, "
                        "a token or a swap)")
    reveal, rest = _card(m.group(1), rules, what), m.group(2).strip()
    if m := _BET.match(rest):
        if m.group(2) is not None:
            _check_stake(m.group(2), rules, what)
        bet = parse_bet(m.group(1), rules, seat)
        rows = [b.code() for b in _rows(rules)]
        return seat, BET, rows.index(bet.code()), -1, reveal
    if m := _TAKE.match(rest):
        tok = _token(m.group(1), rules, what)
        pay = (m.group(2) or "coin").strip()
        if p := _PAY_CARD.match(pay):
            return seat, TOKEN, tok, _card(p.group(1), rules, what), reveal
        if _PAY_COIN.match(pay):
            return seat, TOKEN, tok, -1, reveal
        raise UserError(f"{what}: cannot read the payment {standing.shown(pay)} (reveal CARD, or coin)")
    if m := _SWAP.match(rest):
        return seat, SWAP, _card(m.group(1), rules, what), _card(m.group(2), rules, what), reveal
    raise UserError(f"{what}: cannot read {standing.shown(rest)} (expected 'bet BET', 'take TOKEN (reveal CARD | coin)' "
                    "or 'swap CARD for CARD')")


def _check_stake(text: str, rules: RuleSet, what: str) -> None:
    """A narrated bet's ``(N coin stake)`` must be the rule set's stake."""
    m = _STAKE.match(text)
    if not m:
        raise UserError(f"{what}: cannot read the stake '({text.strip()} stake)' (expected 'N coin stake')")
    if float(m.group(1)) != rules.stake:
        raise UserError(f"{what}: a {float(m.group(1)):g} coin stake, but rule set {rules.name} stakes "
                        f"{rules.stake} coin{'s' if rules.stake != 1 else ''} per bet")


def parse_end_use(seat: int, text: str, rules: RuleSet, what: str, token: str | None = None):
    """One end-of-betting token use as a history row."""
    t = " ".join(text.strip().lower().split()).rstrip(".")
    if m := _SWAP.match(t):
        if token not in (None, "swap"):
            raise UserError(f"{what}: the {token} token does not exchange cards")
        return seat, END_USE, SWAP_TOKEN, _card(m.group(1), rules, what), _card(m.group(2), rules, what)
    if m := _DOUBLE.match(t):
        if token not in (None, "double"):
            raise UserError(f"{what}: the {token} token does not double a bet")
        return seat, END_USE, DOUBLE_TOKEN, int(m.group(1)) - 1, -1
    if m := _REBET.match(t):
        if token not in (None, "rebet"):
            raise UserError(f"{what}: the {token} token does not change a bet")
        bet = parse_bet(m.group(2), rules, seat)
        rows = [b.code() for b in _rows(rules)]
        return seat, END_USE, REBET_TOKEN, int(m.group(1)) - 1, rows.index(bet.code())
    raise UserError(f"{what}: cannot read {standing.shown(text)} (expected 'double #I', 'rebet #I to BET' or "
                    "'swap CARD for CARD')")


def parse_history(text: str | None, rules: RuleSet) -> tuple[list, list[str]]:
    """``--history``: entries separated by ';' or new lines (module docstring)."""
    rows, texts = [], []
    for part in re.split(r"[;\n]", text or ""):
        if not part.strip():
            continue
        m = _ENTRY.match(part.strip())
        if not m:
            raise UserError(f"--history entry {standing.shown(part)}: expected 'SEAT: action' or 'end SEAT: token use'")
        what = f"--history entry {standing.shown(part)}"
        seat = standing.seat(m.group(2), rules, what)
        rows.append(parse_end_use(seat, m.group(3), rules, what) if m.group(1)
                    else parse_action(seat, m.group(3), rules, what))
        texts.append(part.strip())
    return rows, texts


def parse_narration(text: str, rules: RuleSet) -> TableState:
    """A `sponsio game --verbose` excerpt: its last round up to the decision."""
    lines = [ln.strip() for ln in text.splitlines()]
    starts = [i for i, ln in enumerate(lines) if _ROUND.match(ln.lower())]
    if not starts:
        raise UserError("--state: no 'Round N: dealer seat D' line (paste the narration from the round's first "
                        "line up to the decision)")
    st = TableState(rules)
    coins: dict[int, float] = {}
    track: dict[int, int] = {}
    for no, line in enumerate(lines[starts[-1]:], start=starts[-1] + 1):
        read_line(st, line, f"--state line {no}", coins, track)
    if coins:
        missing = [s for s in range(rules.players) if s not in coins]
        if missing:
            hint = (f"; a {len(coins)}-player game? give --players {len(coins)}"
                    if max(coins) == len(coins) - 1 else "")
            raise UserError(f"--state: no line for seat {missing[0]} (each seat's line gives its coins and "
                            f"track){hint}")
        st.coins = [coins[s] for s in range(rules.players)]
        st.track = [track[s] for s in range(rules.players)]
    return st


def read_line(st: TableState, line: str, what: str, coins: dict, track: dict) -> str | None:
    """Read one narration line into ``st`` (``coins``/``track``: each seat's,
    from its line); returns what it was (round, seat, talon, action, end,
    settle, trick, phase) or None for a line that says nothing to keep."""
    rules = st.rules
    line = line.strip()
    low = line.lower()
    if m := _ROUND.match(low):
        st.round = standing.round_no(m.group(1), rules, what)
        st.dealer = standing.seat(m.group(2), rules, what)
        return "round"
    if m := _SEAT.match(low):
        s = standing.seat(m.group(1), rules, what)
        coins[s] = standing.coins(standing.decimal(m.group(2), what), s, rules, what)
        track[s] = standing.track(standing.integer(m.group(3), what), s, rules, what)
        if m.group(4).strip() != UNKNOWN_HAND:
            st.hands[s] = parse_cards(m.group(4), rules, what)
        return "seat"
    if m := _TALON.match(low):
        st.talon = parse_cards(m.group(1), rules, what)
        return "talon"
    if m := _TURN.match(low):
        st.history.append(parse_action(standing.seat(m.group(1), rules, what), m.group(2), rules, what))
        st.texts.append(line)
        return "action"
    if m := _END.match(low):
        st.history.append(parse_end_use(standing.seat(m.group(1), rules, what), m.group(3), rules, what, m.group(2)))
        st.texts.append(line)
        return "end"
    if (m := _SETTLE.match(low)) and st.tricks:
        s = standing.seat(m.group(1), rules, what)
        st.settled[s] = (float(m.group(3)), int(m.group(4)), float(m.group(5) or 0.0))
        return "settle"
    if _TRICK.match(low):
        st.tricks = True
        st.trick_entries.append(parse_trick_entry(line, rules, what))
        return "trick"
    if _TRICKS.match(low):
        st.tricks = True
        lead = phase_leader(low)
        if lead is not None:
            st.first_lead = (standing.seat(str(lead), rules, what), what)
        return "phase"
    if _PAST.match(low):
        raise UserError(f"{what}: the excerpt goes past the end of the game; cut it at the decision you want "
                        "advice on")
    return None


@dataclass(frozen=True)
class RoundFacts:
    """What the options say about the round, as text (module docstring; None: not given): the
    asking seat's ``hand`` and the ``talon`` as dealt, the ``seat``, the ``dealer``, the round
    (``round_no``, 1-based), the betting ``history``, the ``tricks`` played, every seat's ``coins``
    at the round's start and ``track`` position."""
    hand: str | None = None
    talon: str | None = None
    seat: int | None = None
    dealer: int | None = None
    round_no: int | None = None
    history: str | None = None
    tricks: str | None = None
    coins: str | None = None
    track: str | None = None


def table_state(rules: RuleSet, state_text: str | None = None, facts: RoundFacts = RoundFacts()) -> TableState:
    """The state from an excerpt and/or the options' ``facts`` (options win)."""
    st = parse_narration(state_text, rules) if state_text is not None else TableState(rules)
    hand, talon, seat, dealer, round_no = facts.hand, facts.talon, facts.seat, facts.dealer, facts.round_no
    history, tricks, coins, track = facts.history, facts.tricks, facts.coins, facts.track
    if seat is not None:
        st.seat = standing.seat(str(seat), rules, "--seat")
    if dealer is not None:
        st.dealer = standing.seat(str(dealer), rules, "--dealer")
    if round_no is not None:
        st.round = standing.round_no(round_no, rules, "--round")
    if history is not None:
        st.history, st.texts = parse_history(history, rules)
    if tricks is not None:
        st.trick_entries, st.first_lead = parse_tricks(tricks, rules), None
        st.tricks = st.tricks or bool(st.trick_entries)
    if coins is not None:
        st.coins = standing.per_seat(coins, rules, "--coins", "coins")
    if track is not None:
        st.track = standing.per_seat(track, rules, "--track", "track")
    if talon is not None:
        st.talon = parse_cards(talon, rules, "--talon")
    if st.dealer is None:
        raise UserError("no dealer: give --dealer (or a --state excerpt with its 'Round N: dealer seat D' line)")
    if st.talon is None:
        raise UserError("no talon: give --talon (the talon as dealt)")
    st.coins = st.coins or [float(rules.start_coins)] * rules.players
    st.track = st.track or [0] * rules.players
    if hand is not None:
        if st.seat is None:
            st.seat = next_player(st) if st.in_tricks() else next_actor(st)
        st.hands = {**st.hands, st.seat: parse_cards(hand, rules, "--hand")}
    return st


def hands_now(dealt: dict[int, list[int]], history, players: int) -> np.ndarray:
    """Every seat's hand (uint64 masks) after ``history``'s exchanges, from the hands as dealt."""
    hands = np.array([sum(1 << c for c in dealt[s]) for s in range(players)], dtype=np.uint64)
    for seat, kind, a, b, c in history:
        give, take = (a, b) if kind == SWAP else (b, c) if kind == END_USE and a == SWAP_TOKEN else (-1, -1)
        if give >= 0:
            hands[seat] = (hands[seat] & ~np.uint64(1 << give)) | np.uint64(1 << take)
    return hands


def first_leader(st: TableState) -> int:
    """Who leads the first trick: the lead token's holder, else the dealer's left."""
    owners = {a: s for (s, kind, a, b, c) in st.history if kind == TOKEN}
    return owners.get(LEAD_TOKEN, (st.dealer + 1) % st.rules.players)


def next_player(st: TableState) -> int:
    """Who plays the next card of the trick phase (``trickentries.who_played``)."""
    nxt = who_played(st.rules, first_leader(st), st.cards_played())[2]
    if nxt is None:
        raise UserError("every card of the round is played: give --seat (whose view the odds take)")
    return nxt


def next_actor(st: TableState) -> int:
    """Who acts at the next betting step (docs/rules-sponsio.md section 2.1: from left of the dealer)."""
    steps = sum(1 for h in st.history if h[1] != END_USE)
    return (st.dealer + 1 + steps) % st.rules.players


def describe(row, rules: RuleSet) -> str:
    """A history row or an action, in narration words."""
    seat, kind, a, b, c = row
    rows = _rows(rules)
    if kind == PASS:
        return "pass"
    if kind == END_USE:
        if a == SWAP_TOKEN:
            return f"swap {card_name(b, rules)} for {card_name(c, rules)}"
        if a == DOUBLE_TOKEN:
            return f"double #{b + 1}"
        return f"rebet #{b + 1} to {rows[c].notation(rules)}"
    shown = f"reveal {card_name(c, rules)}, "
    if kind == BET:
        return shown + f"bet {rows[a].notation(rules)}"
    if kind == TOKEN:
        return shown + f"take {TOKENS[a]} ({'reveal ' + card_name(b, rules) if b >= 0 else 'coin'})"
    return shown + f"swap {card_name(a, rules)} for {card_name(b, rules)}"
