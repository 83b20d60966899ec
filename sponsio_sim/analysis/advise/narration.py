"""A table state written back as a `sponsio game --verbose` excerpt.

``narration(st)`` is the inverse of ``state.parse_narration``: the rule
set's line, the round's line, one line per seat (its coins and track; its
cards where the state knows them, else ``?``), the talon, the betting and
the end-of-betting token uses, the trick phase so far and the settlement
if the round is over. `sponsio advise --state` and `sponsio odds state --state`
read it back to the same state, so a round recorded anywhere (the page of
`sponsio serve`, a `sponsio table` session) can be answered by the one-shot
commands.
"""

from __future__ import annotations

from sponsio_sim.analysis.advise.trickentries import who_played
from sponsio_sim.analysis.advise.state import UNKNOWN_HAND, TableState, describe, first_leader
from sponsio_sim.cards import card_name, format_cards
from sponsio_sim.kernels.advise.actions import END_USE
from sponsio_sim.rules import TOKENS


def narration(st: TableState) -> str:
    """The excerpt (module docstring); the deal must be complete (dealer and talon known)."""
    r = st.rules
    players = r.players
    coins = st.coins or [float(r.start_coins)] * players
    track = st.track or [0] * players
    lines = [r.summary(), f"Round {st.round}: dealer seat {st.dealer}, seat {(st.dealer + 1) % players} acts first"]
    for s in range(players):
        cards = format_cards(st.hands[s], r) if s in st.hands else UNKNOWN_HAND
        lines.append(f"  seat {s} ({coins[s]:g} coins, track {track[s]}): {cards}")
    lines += [f"  talon: {format_cards(st.talon, r)}", "  betting:"]
    steps = 0
    for row in st.history:
        if row[1] == END_USE:
            lines.append(f"    end of betting: seat {row[0]} ({TOKENS[row[2]]} token) {describe(row, r)}")
        else:
            lines.append(f"    turn {steps // players + 1}, seat {row[0]}: {describe(row, r)}")
            steps += 1
    if st.in_tricks():
        lines += _tricks(st)
    if st.settled:
        lines.append("  settlement:")
        for s, (after, tr, cashed) in sorted(st.settled.items()):
            cash = f", cashes in {cashed:g} coins -> 0" if cashed else ""
            lines.append(f"    seat {s}: settled; coins {coins[s]:g} -> {after:g}; track -> {tr}{cash}")
    return "\n".join(lines) + "\n"


def _tricks(st: TableState) -> list[str]:
    """The trick phase's lines: who leads, then each trick so far, card by card with its seat."""
    r = st.rules
    leader = first_leader(st)
    cards = st.cards_played()
    seats, winners, _ = who_played(r, leader, cards)
    out = [f"  trick phase: seat {leader} leads", "  tricks:"]
    for t in range(0, len(cards), r.players):
        shown = ", ".join(f"{card_name(c, r)} (seat {s})" for c, s in zip(cards[t:t + r.players],
                                                                            seats[t:t + r.players]))
        k = t // r.players
        won = f" -> seat {winners[k]} wins" if k < len(winners) else ""
        out.append(f"    trick {k + 1}: seat {seats[t]} leads {shown}{won}")
    return out
