"""`sponsio table`: one warm session at the table.

The player types the round as it happens and asks questions; the session
keeps the state (a ``TableState``), the compiled kernels, the success model
and the inference's likelihoods for the betting so far between questions.
A line either changes the state, checked as the one-shot commands check it
(a line that does not fit is one error and changes nothing), or asks a
question, answered as `sponsio odds state --state` / `sponsio advise --state`
answer the same state with the same options (``command`` prints them).

Lines (a `sponsio game --verbose` line is read as the excerpt reads it):

    seat S | dealer D | round N | coins 10,10,10,10 | track 0,0,0,0
    hand CARDS | talon CARDS     your hand and the talon as dealt
    S: ACTION | end S: USE       a betting action, as --history reads it ("1: reveal B3, bet tricks=2")
    trick: CARDS                 the next card(s) played ("trick: R5")
    odds [OPTIONS]               the odds now (-n N, --seed S, --play profile|pimc|dd, --worlds W,
    advise [OPTIONS]               --no-infer, --open, --seat S for another seat's view)
    show | command | undo | new | help | quit
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace

from tabletop_mc.errors import UserError
import sponsio_sim.standing as standing
from sponsio_sim.analysis.advise.odds import state_odds
from sponsio_sim.analysis.advise.trickentries import parse_trick_entry, who_played
from sponsio_sim.analysis.advise.ranking import Rollouts, advise
from sponsio_sim.analysis.advise.state import (TableState, describe, next_actor, parse_history, parse_narration,
                                               read_line)
from sponsio_sim.analysis.advise.arrays import betting_arrays, betting_done, pending_token
from sponsio_sim.analysis.advise.trickplay import PIMC_WORLDS, PLAYS, CardPlay
from sponsio_sim.analysis.advise.trickphase import build_trick_phase
from sponsio_sim.analysis.advise.infer import Reading, seat_strategies
from sponsio_sim.cards import card_name, format_cards, parse_cards
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.kernels.layout import LEAD_TOKEN, TOKEN
from sponsio_sim.rules import TOKENS

_SET = re.compile(r"^(seat|dealer|round|coins|track|hand|talon)\b\s*:?\s*(.*)$")
_NARRATED = re.compile(r"^(seat\s+\d+\s*\(|round\s+\d+\s*:)")   # a narration's seat or round line
_ACTION = re.compile(r"^(end\s+)?\d+\s*:")
_CARDS = re.compile(r"^(?:trick|play)\s*:\s*(.*)$")
HELP = __doc__.split("Lines", 1)[1].split("\n", 1)[1].rstrip()
MAX_LINE = 10_000   # characters: a whole round's excerpt line is well under 200


@dataclass
class Question:
    kind: str                  # odds | advise
    options: dict = field(default_factory=dict)


@dataclass
class Answer:
    kind: str                  # odds | advise
    result: object             # a DataFrame (odds) or an Advice
    seed: int
    command: str               # the one-shot command that gives the same answer


def _copy(st: TableState) -> TableState:
    return replace(st, hands={k: list(v) for k, v in st.hands.items()}, history=list(st.history),
                   texts=list(st.texts), trick_entries=list(st.trick_entries), settled=dict(st.settled),
                   coins=None if st.coins is None else list(st.coins),
                   track=None if st.track is None else list(st.track))


class Session:
    """The state of the round so far and what answering questions needs, kept warm."""

    def __init__(self, rules, *, check_option, profile: str | None = None, seat: int | None = None,
                 state_text: str | None = None, seed: int = 1, rule_options: list[str] | None = None):
        """``check_option(kind, name, text)``: a question's option value (-n, --seed, --play,
        --worlds, --seat) as the one-shot command ``kind`` reads it, or a UserError (the CLI passes
        its own parameter types, so both read a value alike); ``rule_options``: the command-line
        options that gave ``rules`` (``--rules``, ``--set``), for ``command``."""
        self.rules = rules
        self.check_option = check_option
        self.rule_options = list(rule_options or [])
        self.profile, lineup = seat_strategies(profile, rules)
        self.strategies, self.model = lineup.strategies, lineup.model
        self.seed = seed
        st = parse_narration(state_text, rules) if state_text is not None else TableState(rules)
        if seat is not None:
            st.seat = standing.seat(seat, rules, "--seat")
        if st.seat is None:
            st.seat = 0 if state_text is None else self._default_seat(st)
        self._check(st)
        self.st = st
        self.undo: list[TableState] = []
        self._memo_key, self._memo = None, {}

    # ---- state -------------------------------------------------------------------------------------------------

    def _default_seat(self, st: TableState) -> int:
        full = self._full(replace(st, seat=0))
        if full is None or full.after_round():
            return 0
        if full.in_tricks() or betting_done(full):
            return who_played(self.rules, self._leader(full), full.cards_played())[2] or 0
        return next_actor(full)

    def _leader(self, st: TableState) -> int:
        owners = {a: s for (s, kind, a, b, c) in st.history if kind == TOKEN}
        return owners.get(LEAD_TOKEN, (st.dealer + 1) % self.rules.players)

    def _full(self, st: TableState) -> TableState | None:
        """``st`` with its defaults filled in (coins, track), or None while the deal is incomplete."""
        if st.dealer is None or st.talon is None or st.seat not in st.hands:
            return None
        r = self.rules
        return replace(_copy(st), coins=st.coins or [float(r.start_coins)] * r.players,
                       track=st.track or [0] * r.players)

    def _check(self, st: TableState) -> None:
        """The state as the one-shot commands would check it (once the deal is complete)."""
        full = self._full(st)
        if full is None:
            if st.history or st.trick_entries:
                raise UserError("give your hand, the talon and the dealer first (hand ..., talon ..., dealer D)")
            return
        if full.after_round():
            return
        if full.in_tricks() or full.trick_entries:
            build_trick_phase(full, self.strategies, self.model)
        else:
            betting_arrays(full, self.strategies, self.model)

    def where(self) -> str:
        """Where the round stands, in words."""
        st = self._full(self.st)
        if st is None:
            missing = [w for w, ok in (("hand", self.st.seat in self.st.hands), ("talon", self.st.talon is not None),
                                       ("dealer", self.st.dealer is not None)) if not ok]
            return f"you are seat {self.st.seat}; waiting for: {', '.join(missing)}"
        if st.after_round():
            return "the round is settled"
        n_bet = self.rules.betting_turns * self.rules.players
        done = sum(1 for h in st.history if h[1] != END_USE)
        if done < n_bet:
            return f"betting step {done + 1} of {n_bet}: seat {next_actor(st)} acts"
        cards = st.cards_played()
        seats, winners, nxt = who_played(self.rules, self._leader(st), cards)
        if not cards and not st.tricks and not betting_done(st):
            return "betting over: a token is still to be used (end S: ...), else the first card"
        if nxt is None:
            return f"every trick played; tricks won: " + ", ".join(
                f"seat {s} {winners.count(s)}" for s in range(self.rules.players))
        t, pos = divmod(len(cards), self.rules.players)
        last = f"seat {winners[-1]} won trick {t}; " if pos == 0 and t else ""
        return last + f"trick {t + 1}: seat {nxt} " + ("leads" if pos == 0 else "plays")

    def _commit(self, new: TableState, event: str) -> str:
        self._check(new)
        self.undo.append(self.st)
        self.st = new
        return f"{event}; {self.where()}"

    # ---- input -------------------------------------------------------------------------------------------------

    def handle(self, line: str):
        """One input line: a state change (returns its event line), a question
        (returns a ``Question``), or a command's text; raises UserError and
        changes nothing when the line does not fit."""
        text = line.strip()
        if len(text) > MAX_LINE:
            raise UserError(f"a line of {len(text):,} characters: longer than any line a session reads "
                            f"({MAX_LINE:,} at most); nothing changed")
        low = " ".join(text.lower().split())
        word = low.split(" ", 1)[0] if low else ""
        if not low or low.startswith("#"):
            return None
        if word in ("odds", "advise"):
            return Question(word, self._options(word, text.split(None, 1)[1] if " " in text else ""))
        if low in ("help", "?"):
            return HELP
        if low in ("show", "state"):
            return self.show()
        if low == "command":
            return self.command("advise")
        if low == "undo":
            if not self.undo:
                raise UserError("nothing to undo")
            self.st = self.undo.pop()
            return f"undone; {self.where()}"
        if low in ("new", "next round"):
            return self._new_round()
        if m := _CARDS.match(low):
            new = _copy(self.st)
            new.trick_entries.append(parse_trick_entry(m.group(1), self.rules, standing.shown(text)))
            new.tricks = True
            cards = " ".join(card_name(c, self.rules) for c in new.trick_entries[-1].cards)
            return self._commit(new, f"played {cards}")
        if (m := _SET.match(low)) and not _NARRATED.match(low):
            return self._set(m.group(1), text.strip()[m.start(2):], text)
        if _ACTION.match(low):
            new = _copy(self.st)
            rows, texts = parse_history(text, self.rules)
            new.history += rows
            new.texts += texts
            return self._commit(new, "; ".join(f"seat {r[0]}: {describe(r, self.rules)}" for r in rows))
        new = _copy(self.st)
        coins, track = {}, {}
        kind = read_line(new, text, standing.shown(text), coins, track)
        if kind is None:
            raise UserError(f"cannot read {standing.shown(text)} (type help for the lines a session reads)")
        if kind == "round":
            fresh = TableState(self.rules, round=new.round, dealer=new.dealer, seat=self.st.seat)
            return self._commit(fresh, f"round {new.round}, dealer seat {new.dealer}")
        if kind == "seat":
            s = next(iter(coins))
            new.coins = list(new.coins or [float(self.rules.start_coins)] * self.rules.players)
            new.track = list(new.track or [0] * self.rules.players)
            new.coins[s], new.track[s] = coins[s], track[s]
            return self._commit(new, f"seat {s}: {coins[s]:g} coins, track {track[s]}, "
                                     f"{format_cards(new.hands[s], self.rules) if s in new.hands else '?'}")
        if kind in ("action", "end"):
            return self._commit(new, f"seat {new.history[-1][0]}: {describe(new.history[-1], self.rules)}")
        if kind == "trick":
            cards = " ".join(card_name(c, self.rules) for c in new.trick_entries[-1].cards)
            return self._commit(new, f"played {cards}")
        if kind == "settle":
            return self._commit(new, "settlement line read")
        return self._commit(new, {"talon": "talon read", "phase": "trick phase"}.get(kind, "read"))

    def _set(self, key: str, value: str, text: str) -> str:
        new = _copy(self.st)
        r = self.rules
        what = standing.shown(text)
        if key in ("seat", "dealer", "round"):
            v = standing.round_no(value, r, what) if key == "round" else standing.seat(value, r, what)
            if key == "seat" and new.seat in new.hands and v != new.seat:
                new.hands[v] = new.hands.pop(new.seat)
            setattr(new, key, v)
        elif key in ("coins", "track"):
            setattr(new, key, standing.per_seat(value, r, what, key))
        elif key == "hand":
            if new.history or new.trick_entries:
                raise UserError("a round is in progress: type new to start the next one, or undo")
            new.hands[new.seat] = parse_cards(value, r, "hand")
            if len(new.hands[new.seat]) != r.hand_size:
                raise UserError(f"hand: {len(new.hands[new.seat])} cards; rule set {r.name} deals {r.hand_size}")
        else:
            if new.history or new.trick_entries:
                raise UserError("a round is in progress: type new to start the next one, or undo")
            new.talon = parse_cards(value, r, "talon")
        return self._commit(new, f"{key} {value.strip()}")

    def _new_round(self) -> str:
        r = self.rules
        old = self.st
        new = TableState(r, round=min(old.round + 1, r.max_rounds), seat=old.seat,
                         dealer=None if old.dealer is None else (old.dealer + 1) % r.players,
                         coins=old.coins, track=old.track)
        return self._commit(new, f"round {new.round}" + (f", dealer seat {new.dealer}" if new.dealer is not None else "")
                            + " (give coins and track if they changed)")

    def _options(self, kind: str, text: str) -> dict:
        """A question's options (module docstring), each read by ``check_option`` as the one-shot
        command reads it."""
        try:
            tokens = shlex.split(text)
        except ValueError as e:
            raise UserError(f"cannot read the options {standing.shown(text)}: {e}") from None
        out: dict = {}
        k = 0
        takes = {"-n": "n", "--seed": "seed", "--play": "play", "--worlds": "worlds", "--seat": "seat"}
        flags = {"--no-infer": ("infer", False), "--infer": ("infer", True), "--open": ("open_hands", True)}
        while k < len(tokens):
            tok = tokens[k]
            if tok in flags:
                out[flags[tok][0]] = flags[tok][1]
                k += 1
                continue
            if tok not in takes or k + 1 >= len(tokens):
                raise UserError(f"option {standing.shown(tok)}: expected -n N, --seed S, --play {'|'.join(PLAYS)}, "
                                "--worlds W, --seat S, --no-infer or --open")
            out[takes[tok]] = self.check_option(kind, takes[tok], tokens[k + 1])
            k += 2
        return out

    # ---- questions ---------------------------------------------------------------------------------------------

    def ask(self, q: Question) -> Answer:
        """The answer the one-shot command gives for the state so far (``command``)."""
        opts = dict(q.options)
        seed = opts.pop("seed", self.seed)
        seat = opts.pop("seat", None)
        st = self._full(self.st)
        if st is None:
            raise UserError(self.where())
        if seat is not None:
            seat = standing.seat(seat, self.rules, "--seat")
            if seat != st.seat:
                if not opts.get("open_hands") and seat not in st.hands:
                    raise UserError(f"seat {seat}'s view needs its hand")
                st.seat = seat
        if seat is None:
            self._check_turn(st, q.kind)
        memo = self._memo_for(st, opts.get("infer", True))
        play = opts.get("play", "profile")
        infer = opts.get("infer", True)
        card_play = CardPlay(play, opts.get("worlds", PIMC_WORLDS), opts.get("open_hands", False))
        if q.kind == "odds":
            result = state_odds(st, profile=self.profile, infer=infer, n=opts.get("n"), seed=seed,
                                card_play=card_play, memo=memo, progress=None)
        else:
            result = advise(st, profile=self.profile, reading=Reading(infer=infer), rollouts=Rollouts(opts.get("n")),
                            card_play=card_play, seed=seed, memo=memo, progress=None)
        return Answer(q.kind, result, seed, self.command(q.kind, dict(q.options, seed=seed)))

    def _check_turn(self, st: TableState, kind: str) -> None:
        """A question from your seat when another seat decides now (the one-shot commands say it in
        their own words, naming their --seat option)."""
        if st.after_round():
            return
        if st.in_tricks() or betting_done(st):
            if kind == "odds":
                return   # the odds of every bet held, from anyone's turn
            actor = who_played(self.rules, self._leader(st), st.cards_played())[2]
            does, then = "plays", "its card (trick: CARD)"
        elif (token := pending_token(st)) is not None:
            actor, does, then = token[1], f"decides its {TOKENS[token[0]]} token", "its use (end S: ...)"
        else:
            actor, does, then = next_actor(st), "acts", "its action (S: ACTION)"
        if actor is not None and actor != st.seat:
            raise UserError(f"you are seat {st.seat} and seat {actor} {does} now: type {then} and ask again, or ask "
                            f"with --seat {actor} for its view")

    def _memo_for(self, st: TableState, infer: bool) -> dict:
        """The inference's per-seat likelihoods, kept while the betting and the view stay the same."""
        key = (tuple(map(tuple, st.history)), st.seat, infer)
        if key != self._memo_key:
            self._memo_key, self._memo = key, {}
        return self._memo

    # ---- showing -----------------------------------------------------------------------------------------------

    def show(self) -> str:
        """The state so far, and the one-shot command that answers for it."""
        st, r = self.st, self.rules
        lines = [f"rules {r.name}; profile {self.profile}; you are seat {st.seat}; round {st.round}, dealer "
                 + ("?" if st.dealer is None else f"seat {st.dealer}"),
                 "coins " + ("start" if st.coins is None else ",".join(f"{c:g}" for c in st.coins))
                 + "; track " + ("0" if st.track is None else ",".join(str(t) for t in st.track)),
                 "hand " + (format_cards(st.hands[st.seat], r) if st.seat in st.hands else "?")
                 + "; talon " + (format_cards(st.talon, r) if st.talon is not None else "?")]
        if st.history:
            lines.append("betting: " + "; ".join(self._history_texts()))
        if st.trick_entries:
            lines.append("tricks: " + self._tricks_text())
        lines.append(self.where())
        lines.append(self.command("advise"))
        return "\n".join(lines)

    def _history_texts(self) -> list[str]:
        return [("end " if row[1] == END_USE else "") + f"{row[0]}: {describe(row, self.rules)}"
                for row in self.st.history]

    def _tricks_text(self) -> str:
        st, r = self.st, self.rules
        cards = st.cards_played()
        if st.dealer is None:
            return " ".join(card_name(c, r) for c in cards)
        seats, winners, _ = who_played(r, self._leader(st), cards)
        out = []
        for t in range(0, len(cards), r.players):
            out.append(f"trick {t // r.players + 1}: seat {seats[t]} leads "
                       + ", ".join(card_name(c, r) for c in cards[t:t + r.players]))
        return "; ".join(out)

    def command(self, kind: str, options: dict | None = None) -> str:
        """The one-shot command that answers ``kind`` for the state so far."""
        st, r = self.st, self.rules
        parts = [{"odds": "sponsio odds state"}.get(kind, f"sponsio {kind}"), f"--players {r.players}", *map(shlex.quote, self.rule_options),
                 f"--seat {st.seat}"]
        if st.seat in st.hands:
            parts.append(f"--hand {shlex.quote(format_cards(st.hands[st.seat], r))}")
        if st.talon is not None:
            parts.append(f"--talon {shlex.quote(format_cards(st.talon, r))}")
        if st.dealer is not None:
            parts.append(f"--dealer {st.dealer}")
        if st.round != 1:
            parts.append(f"--round {st.round}")
        if st.coins is not None:
            parts.append("--coins " + ",".join(f"{c:g}" for c in st.coins))
        if st.track is not None:
            parts.append("--track " + ",".join(str(t) for t in st.track))
        parts.append(f"--history {shlex.quote('; '.join(self._history_texts()))}")
        if st.trick_entries:
            parts.append(f"--tricks {shlex.quote(self._tricks_text())}")
        if self.profile != "reference":
            parts.append(f"--profile {shlex.quote(self.profile)}")
        for k, v in (options or {}).items():
            flag = {"n": "-n", "open_hands": "--open", "infer": "--no-infer"}.get(k, "--" + k)
            if k == "infer":
                if not v:
                    parts.append(flag)
            elif k == "open_hands":
                if v:
                    parts.append(flag)
            else:
                parts.append(f"{flag} {v}")
        return " ".join(parts)
