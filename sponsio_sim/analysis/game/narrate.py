"""One narrated game: `sponsio game`.

The game is chunk 0's first game of a tournament with the same seed, played
by the same kernel (``kernels.game.engine.game_chunk``) with its event log on, so
the narration is exactly what the tournament plays. ``narrate_game`` returns a
``NarratedGame``: a per-round, per-seat DataFrame (bets, tricks, the coin
ledger, track), the narration text, the events (one dict per action, trick
and settlement) and the end (reason, winners).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from tabletop_mc.rng import seed_key
from sponsio_sim.analysis.game.lineup import resolve
from sponsio_sim.analysis.game.setup import build_state, rows_of, rulebook
from sponsio_sim.cards import format_cards
from sponsio_sim.kernels.layout import (BET, END_COINS, END_ROUNDS, END_TRACK, EV_ACTION, EV_BET, EV_END, EV_END_TOKEN,
                                        EV_HAND, EV_LEAD, EV_ROUND, EV_SCORE, EV_TALON, EV_TRACK, EV_TRICK, EV_TRICKS,
                                        LOG_FIELDS, PASS, REBET_TOKEN, RULES, SWAP_TOKEN, TOKEN, stats_size)
from sponsio_sim.kernels.game.engine import game_chunk, switches
from sponsio_sim.rules import TOKENS, changes_from_shipped, load_rules

LOG_ROWS = 20_000
END_TEXT = {END_TRACK: "a player reached the end of the streak track",
            END_COINS: "a player reached the coins that end the game",
            END_ROUNDS: "the last round was played"}
COLUMNS = ["round", "seat", "strategy", "dealer", "bets", "tricks", "coins_before", "stakes", "token_fees",
           "payout", "troll_pay", "bonus", "cash_in", "coins", "track"]


@dataclass(frozen=True)
class NarratedGame:
    """One narrated game, as ``narrate_game`` returns it: the tables and text of the game, and the setting it was
    played in (typed fields rather than pandas' experimental ``attrs``, which pandas operations may drop): the rule
    set's ``rules`` summary, the ``seed``, each seat's strategy (``profile``, a field's draw for this game) and the
    ``changed_rules`` (``rules.changes_from_shipped``)."""
    rounds: pd.DataFrame      # one row per round and seat
    text: str                 # the narration
    reason: str               # track | coins | rounds
    winners: list[int]
    final_coins: list[float]
    final_track: list[int]
    events: list[dict]        # one per action, end-of-betting token, trick and seat's settlement
    rules: str = ""
    seed: int = 1
    profile: list[str] = field(default_factory=list)
    changed_rules: dict = field(default_factory=dict)


def run_logged(rules, strategies, model, seed: int) -> np.ndarray:
    """The event log (rows of ``kernels.layout.LOG_FIELDS``) of game 0 of chunk 0."""
    board, game_state, money = build_state(rules, strategies, model)
    log = np.zeros((LOG_ROWS, LOG_FIELDS), dtype=np.float64)
    row = np.zeros(stats_size(rules.players, rulebook(game_state)[0][RULES.entries]), dtype=np.float64)
    game_chunk(seed_key(seed), np.int64(0), np.int64(1), board, game_state, money, row, log, *switches(game_state))
    return log[1:int(log[0, 0]) + 1]


def narrate_game(profile, *, players: int | None = None, seed: int = 1, rules=None, overrides=None,
                 model=None) -> NarratedGame:
    """Play and narrate one game (see module docstring)."""
    ruleset = load_rules(rules, players, overrides)
    lineup = resolve(profile, ruleset, model)
    strategies, success = lineup.strategies, lineup.model
    events = run_logged(ruleset, strategies, success, seed)
    narrator = _Narrator(ruleset, strategies, events)
    game = narrator.run()
    changed = changes_from_shipped(ruleset)
    seats = ", ".join(f"seat {s} {strategies[e].text}" for s, e in enumerate(narrator.seat_entry))
    if strategies.field is not None:
        seats = f"{strategies.text()}; this game drew {seats}"
    head = (f"{ruleset.summary()}\n"
            + ("changed from the shipped rule set: " + ", ".join(f"{k}={v}" for k, v in changed.items()) + "\n"
               if changed else "")
            + f"profile: {seats}; seed {seed}; ev model {success.source}")
    return replace(game, text=head + "\n\n" + game.text, rules=ruleset.summary(), seed=seed,
                   profile=[strategies[e].text for e in narrator.seat_entry], changed_rules=changed)


class _Narrator:
    """Turns the kernel's event log into text and the per-round table."""

    def __init__(self, rules, strategies, events):
        self.r = rules
        self.st = strategies
        self.events = events
        self.rows = [b.notation(rules) for b in rows_of(rules)]
        self.lines: list[str] = []
        self.narrated: list[dict] = []
        self.seat_entry = list(range(rules.players))   # the profile entry each seat plays (a field's draw)

    def cards(self, mask) -> str:
        return format_cards(int(mask), self.r) or "-"

    def card(self, c) -> str:
        return format_cards([int(c)], self.r)

    def say(self, text: str, indent: int = 1) -> None:
        self.lines.append("  " * indent + text)

    def run(self) -> NarratedGame:
        table, per_seat, end = [], {}, None
        for ev in self.events:
            rnd, kind, seat = int(ev[0]), int(ev[1]), int(ev[2])
            a, b, c, d, e = ev[3:]
            if kind == EV_ROUND:
                dealer = seat
                per_seat = {s: {"round": rnd, "seat": s, "dealer": dealer, "bets": []} for s in range(self.r.players)}
                self.lines.append(f"Round {rnd}: dealer seat {dealer}, seat {(dealer + 1) % self.r.players} "
                                  f"acts first")
            elif kind == EV_HAND:
                self.seat_entry[seat] = int(d)
                per_seat[seat]["strategy"] = self.st[int(d)].text
                per_seat[seat]["coins_before"] = b
                self.say(f"seat {seat} ({self.st[int(d)].text}; {b:g} coins, track {int(c)}): {self.cards(a)}")
            elif kind == EV_TALON:
                self.say(f"talon: {self.cards(a)}")
                self.say("betting:")
            elif kind == EV_ACTION:
                text = self.action(seat, int(b), int(c), int(d), int(e))
                self.say(f"turn {int(a) + 1}, seat {seat}: {text}", 2)
                self.narrated.append({"round": rnd, "event": "action", "turn": int(a) + 1, "seat": seat,
                                      **self.action_fields(int(b), int(c), int(d), int(e)), "text": text})
            elif kind == EV_END_TOKEN:
                text = self.end_token(seat, int(a), int(b), int(c))
                self.say(f"end of betting: {text}", 2)
                self.narrated.append({"round": rnd, "event": "end_token", "seat": seat, "token": TOKENS[int(a)],
                                      **self.end_token_fields(int(a), int(b), int(c)), "text": text})
            elif kind == EV_TRICK:
                self.trick(rnd, seat, int(a), int(b), int(c), int(d))
            elif kind == EV_LEAD:
                self.say(f"trick phase: seat {seat} leads; public cards in hands {self.cards(a)}; "
                         f"talon {self.cards(b)}")
            elif kind == EV_TRICKS:
                per_seat[seat]["tricks"] = int(a)
                extra = "; won the last trick" if c else ""
                self.say(f"seat {seat} won {int(a)} trick(s): {self.cards(b)}{extra}", 2)
                if seat == self.r.players - 1:
                    self.say(f"nines: {'every 9 played won its trick' if e else 'a played 9 lost its trick'}", 2)
            elif kind == EV_BET:
                note = f"{self.rows[int(a)]} {'won' if b else 'lost'}{' (doubled)' if c else ''}"
                per_seat[seat]["bets"].append(note)
            elif kind == EV_SCORE:
                per_seat[seat].update(payout=a, troll_pay=b, bonus=c, cash_in=d, coins=e)
            elif kind == EV_TRACK:
                row = per_seat[seat]
                row.update(track=int(b), stakes=c, token_fees=d)
                self.settle_line(row, int(a))
                self.narrated.append({"round": rnd, "event": "settle", "seat": seat, "bets": list(row["bets"]),
                                    **{k: row.get(k) for k in ("payout", "troll_pay", "bonus", "cash_in",
                                                               "coins", "track")}})
                table.append({k: (", ".join(row["bets"]) if k == "bets" else row.get(k)) for k in COLUMNS})
            elif kind == EV_END:
                end = (int(a), int(b))
        reason, mask = end
        winners = [s for s in range(self.r.players) if (mask >> s) & 1]
        df = pd.DataFrame(table, columns=COLUMNS)
        last = df[df["round"] == df["round"].max()].sort_values("seat")
        coins = [float(x) for x in last["coins"]]
        track = [int(x) for x in last["track"]]
        who = ", ".join(f"seat {s} ({coins[s]:g} coins, track {track[s]})" for s in winners)
        self.lines.append(f"Game over after round {int(df['round'].max())}: {END_TEXT[reason]}. "
                          f"{'Winners' if len(winners) > 1 else 'Winner'}: {who}")
        return NarratedGame(df, "\n".join(self.lines), ("track", "coins", "rounds")[reason - 1], winners,
                            coins, track, self.narrated)

    def trick(self, rnd, leader, number, packed, winner, lost9) -> None:
        """One trick: who leads, each card in play order, who wins, 9s that lose."""
        n = self.r.players
        plays = [((leader + k) % n, (packed >> (6 * k)) & 63) for k in range(n)]
        if number == 0:
            self.say("tricks:")
        shown = ", ".join(f"{self.card(c)} (seat {s}{', a 9 that loses' if (lost9 >> s) & 1 else ''})"
                          for s, c in plays)
        self.say(f"trick {number + 1}: seat {leader} leads {shown} -> seat {winner} wins", 2)
        self.narrated.append({"round": rnd, "event": "trick", "trick": number + 1, "leader": leader,
                            "cards": [{"seat": s, "card": self.card(c)} for s, c in plays], "winner": winner,
                            "nines_lost": [self.card(c) for s, c in plays if (lost9 >> s) & 1]})

    def action(self, seat, act, x, y, reveal) -> str:
        if act == PASS:
            return "passes"
        shown = f"reveals {self.card(reveal)}, "
        if act == BET:
            return shown + f"bets {self.rows[x]} ({self.r.stake:g} coin stake)"
        if act == TOKEN:
            pay = f"reveals {self.card(y)} to pay" if y >= 0 else f"pays {self.r.token_cost:g} coin"
            return shown + f"takes the {TOKENS[x]} token ({pay})"
        return shown + f"swaps {self.card(x)} for the talon's {self.card(y)}"

    def action_fields(self, act, x, y, reveal) -> dict:
        """The action as data: what was revealed, bet, taken or swapped."""
        if act == PASS:
            return {"action": "pass"}
        out = {"action": ("pass", "bet", "token", "swap")[act], "reveal": self.card(reveal)}
        if act == BET:
            out["bet"] = self.rows[x]
        elif act == TOKEN:
            out.update(token=TOKENS[x], pay=self.card(y) if y >= 0 else "coin")
        else:
            out.update(give=self.card(x), take=self.card(y))
        return out

    def end_token_fields(self, token, x, y) -> dict:
        if token == SWAP_TOKEN:
            return {"give": self.card(x), "take": self.card(y)}
        if token == REBET_TOKEN:
            return {"bet_index": x, "bet": self.rows[y]}
        return {"bet_index": x}

    def end_token(self, seat, token, x, y) -> str:
        if token == SWAP_TOKEN:
            return f"seat {seat} (swap token) swaps {self.card(x)} for the talon's {self.card(y)}"
        if token == REBET_TOKEN:
            return f"seat {seat} (rebet token) changes its bet #{x + 1} to {self.rows[y]}"
        return f"seat {seat} (double token) doubles its bet #{x + 1}"

    def settle_line(self, row, moved) -> None:
        s = row["seat"]
        if row["seat"] == 0:
            self.say("settlement:")
        bets = ", ".join(row["bets"]) if row["bets"] else "no bets: troll"
        cash = f", cashes in {row['cash_in']:g} coins -> 0" if row["cash_in"] else ""
        self.say(f"seat {s}: {bets}; payout {row['payout']:g}, troll pay {row['troll_pay']:g}, "
                 f"bonus {row['bonus']:g}; coins {row['coins_before']:g} -> {row['coins']:g}; "
                 f"track -> {moved}{cash}", 2)
