"""The table the page keeps, and the warm `sponsio table` session it stands for.

The browser keeps the table as a session's inputs: the player count, your
seat, a pasted narration (or none) and the lines recorded since, each a line
`sponsio table` reads ("hand R9 ...", "2: reveal B1, bet colour:B=0",
"trick: R5", "new"). Every request sends them and the server replays them
into a ``Session``, the very session of `sponsio table`: the page and a
terminal session given the same lines hold the same state and give the same
answers. A line is kept only once the session has taken it (a line that does
not fit is one message and changes nothing); undo drops the last line. The
last few sessions stay warm, with their inference likelihoods, keyed by
those inputs.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.advise.trickentries import who_played
from sponsio_sim.analysis.advise.session import Session
from sponsio_sim.analysis.advise.state import describe, first_leader, hands_now, next_actor
from sponsio_sim.analysis.advise.arrays import betting_over, pending_token
from sponsio_sim.analysis.game.setup import rows_of
from sponsio_sim.cards import card_name
from sponsio_sim.cli.advise import state_rules
from sponsio_sim.cli.table import check_option
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.layout import BET, REBET_TOKEN
from sponsio_sim.rules import RANKS, TOKENS, load_rules

MAX_LINES = 400            # lines recorded in one table (a round takes about 60)
MAX_LINE = 300             # characters in one line
MAX_NARRATION = 32_000     # characters in a pasted narration
KEEP_WARM = 8              # sessions kept warm
NOT_MOVES = ("odds", "advise", "undo", "show", "state", "command", "help", "?", "quit", "exit", "q")


@dataclass(frozen=True)
class TableSpec:
    """A table as the page sends it (module docstring)."""
    players: int
    seat: int
    narration: str | None = None
    lines: tuple[str, ...] = ()

    @classmethod
    def read(cls, data) -> "TableSpec":
        """From the request's JSON, every field checked (one message for the first that is wrong)."""
        if not isinstance(data, dict):
            raise UserError("table: expected an object with players, seat, narration and lines")
        players, seat = data.get("players", 4), data.get("seat", 0)
        narration, lines = data.get("narration"), data.get("lines", [])
        for name, v in (("players", players), ("seat", seat)):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 16:
                raise UserError(f"table: {name} must be a small whole number")
        if narration is not None and (not isinstance(narration, str) or len(narration) > MAX_NARRATION):
            raise UserError(f"table: the narration must be text of at most {MAX_NARRATION:,} characters")
        if not isinstance(lines, list) or len(lines) > MAX_LINES:
            raise UserError(f"table: lines must be a list of at most {MAX_LINES} lines")
        for line in lines:
            check_line(line)
        return cls(players, seat, narration or None, tuple(lines))

    def as_json(self) -> dict:
        return {"players": self.players, "seat": self.seat, "narration": self.narration, "lines": list(self.lines)}


def check_line(line) -> None:
    if not isinstance(line, str) or len(line) > MAX_LINE or "\n" in line:
        raise UserError(f"a line must be one line of text of at most {MAX_LINE} characters")


class Tables:
    """Sessions for the page's tables, kept warm (module docstring). ``rules``, ``overrides``: the
    server's --rules and --set; ``profile``, ``seed``: its --profile and --seed."""

    def __init__(self, *, rules=None, overrides=(), profile=None, seed: int = 1):
        self.rules_option, self.overrides = rules, tuple(overrides)
        self.rule_options = (["--rules", rules] if rules else []) + [x for o in overrides for x in ("--set", o)]
        self.profile, self.seed = profile, seed
        self.lock = threading.Lock()
        self.warm: OrderedDict[TableSpec, Session] = OrderedDict()

    def ruleset(self, spec: TableSpec):
        if spec.narration is not None:   # the narration's own rule set (its first line), as --state reads it
            return state_rules(spec.narration, self.rules_option, None, self.overrides)
        return load_rules(self.rules_option, spec.players, self.overrides)

    def checkout(self, spec: TableSpec) -> Session:
        """The session for ``spec``, for this caller alone until ``give_back``."""
        with self.lock:
            session = self.warm.pop(spec, None)
        if session is not None:
            return session
        session = Session(self.ruleset(spec), profile=self.profile, seat=spec.seat, state_text=spec.narration,
                          seed=self.seed, rule_options=self.rule_options, check_option=check_option)
        for k, line in enumerate(spec.lines):
            try:
                take(session, line)
            except UserError as exc:
                raise UserError(f"recorded line {k + 1} ({line!r}) no longer fits: {exc}") from None
        return session

    def give_back(self, spec: TableSpec, session: Session) -> None:
        with self.lock:
            self.warm[spec] = session
            self.warm.move_to_end(spec)
            while len(self.warm) > KEEP_WARM:
                self.warm.popitem(last=False)

    def add(self, spec: TableSpec, lines: list[str]) -> tuple[TableSpec, list[str], Session]:
        """``spec`` with ``lines`` recorded, all or none (the first that does not fit is the error);
        returns the new spec, each line's event and its session (given back warm)."""
        for line in lines:
            check_line(line)
        if len(spec.lines) + len(lines) > MAX_LINES:
            raise UserError(f"a table keeps at most {MAX_LINES} lines: start a new table")
        session = self.checkout(spec)
        kept, events = list(spec.lines), []
        for line in lines:   # a line that does not fit raises: this session, moved on, is not kept warm
            event = take(session, line)
            if event is not None:
                kept.append(line.strip())
                events.append(event)
        new = TableSpec(spec.players, spec.seat, spec.narration, tuple(kept))
        self.give_back(new, session)
        return new, events, session


def take(session: Session, line: str) -> str | None:
    """Record one line in ``session``: its event, or None for a line that changes nothing (a comment)."""
    word = " ".join(line.lower().split()).split(" ", 1)[0] if line.strip() else ""
    if word in NOT_MOVES:
        raise UserError(f"'{line.strip()}' is not something that happened at the table (the page's buttons "
                        "ask, undo and show)")
    before = len(session.undo)
    out = session.handle(line)
    return out if len(session.undo) > before else None


def view(session: Session) -> dict:
    """What the page shows of the session: the deal, the phase and who acts, the betting and the
    tricks so far, and what the page offers to record next."""
    st, r = session.st, session.rules
    names = lambda cards: [card_name(c, r) for c in cards]   # noqa: E731
    out = {"players": r.players, "seat": st.seat, "round": st.round, "dealer": st.dealer,
           "coins": st.coins, "track": st.track, "hand": names(st.hands.get(st.seat, [])),
           "talon": names(st.talon or []), "where": session.where(), "show": session.show(),
           "rules": r.summary(), "hand_size": r.hand_size, "talon_size": r.talon_size,
           "deck": [f"{c}{k}" for c in r.colours for k in range(RANKS, 0, -1)],
           "bets": [b.notation(r) for b in rows_of(r)], "tokens": list(r.tokens),
           "history": [{"seat": row[0], "end": row[1] == END_USE, "text": describe(row, r)} for row in st.history],
           "tricks": [], "played": [], "actor": None, "pending": None, "held": {}, "hand_now": [],
           "max_rounds": r.max_rounds, "start_coins": r.start_coins}
    if st.dealer is None or st.talon is None or st.seat not in st.hands:
        return {**out, "phase": "deal"}
    cards = st.cards_played()
    seats, winners, nxt = who_played(r, first_leader(st), cards)
    out["played"] = names(cards)
    out["tricks"] = [{"cards": [{"card": card_name(c, r), "seat": s} for c, s in
                                zip(cards[t:t + r.players], seats[t:t + r.players])],
                      "winner": winners[t // r.players] if t // r.players < len(winners) else None}
                     for t in range(0, len(cards), r.players)]
    dealt = {s: st.hands.get(s, []) for s in range(r.players)}
    mine = int(hands_now(dealt, st.history, r.players)[st.seat])
    out["hand_now"] = [card_name(c, r) for c in range(r.n_colours * RANKS) if (mine >> c) & 1 and c not in cards]
    out["held"] = _held(st, r)
    if st.after_round():
        return {**out, "phase": "over"}
    pending = None if st.in_tricks() else pending_token(st)
    if pending is not None:
        return {**out, "phase": "token", "actor": pending[1],
                "pending": {"token": TOKENS[pending[0]], "seat": pending[1]}}
    if not st.in_tricks() and not betting_over(st):
        return {**out, "phase": "betting", "actor": next_actor(st)}
    return {**out, "phase": "tricks" if nxt is not None else "played", "actor": nxt}


def _held(st, r) -> dict[int, list[str]]:
    """Each seat's bets in placing order (as #1, #2, ... name them), rebets applied."""
    rows = rows_of(r)
    held: dict[int, list[str]] = {}
    for seat, kind, a, b, c in st.history:
        if kind == BET:
            held.setdefault(seat, []).append(rows[a].notation(r))
        elif kind == END_USE and a == REBET_TOKEN and b < len(held.get(seat, [])):
            held[seat][b] = rows[c].notation(r)
    return held
