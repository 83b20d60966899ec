"""The trick phase so far, as `sponsio game --verbose` narrates it or shorter.

One entry per trick (or the cards of a trick in progress), in play order:

    trick 1: seat 0 leads B6 (seat 0), B4 (seat 1), B1 (seat 2), G2 (seat 3) -> seat 0 wins
    trick 2: seat 0 leads Y1, Y6, Y2, Y4
    Y1 Y6                       (cards only: they go on from the last card)

What an entry claims (its number, its leader, each card's seat, the
winner) is checked against the cards themselves by
``analysis.advise.trickphase``; here the text is only read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from tabletop_mc.errors import UserError
import sponsio_sim.standing as standing
from sponsio_sim.cards import parse_card
from sponsio_sim.kernels.advise.tricks import HALT_AFTER
from sponsio_sim.kernels.play.tricks import play_scripted
from sponsio_sim.kernels.trickstate import new_state
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE
from sponsio_sim.rules import RuleSet

_HEAD = re.compile(r"^(?:trick\s+(\d+)\s*:\s*)?(?:seat\s+(\d+)\s+leads\b\s*)?(.*)$")
_WINS = re.compile(r"^(.*?)\s*->\s*seat\s+(\d+)\s+wins\s*$")
_TOKEN = re.compile(r"\s*(?:\(([^)]*)\)|([^\s,()]+)|,)")
_NOTE = re.compile(r"^\s*seat\s+(\d+)\b")
_PHASE = re.compile(r"^trick phase\s*:\s*seat\s+(\d+)\s+leads\b")


@dataclass
class TrickEntry:
    """One trick (or part of one) as given; ``None`` where the text does not say."""
    text: str
    where: str                  # for messages: "--state line 31", "--tricks entry 'trick 2: ...'"
    number: int | None = None   # "trick N"
    leader: int | None = None   # "seat S leads"
    cards: list[int] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)   # "(seat S)" after a card
    winner: int | None = None   # "-> seat W wins"


def parse_trick_entry(text: str, rules: RuleSet, where: str) -> TrickEntry:
    """One trick entry (module docstring)."""
    t = " ".join(text.strip().split()).rstrip(".;")
    entry = TrickEntry(text.strip(), where)
    m = _WINS.match(t)
    if m:
        t, entry.winner = m.group(1), standing.seat(m.group(2), rules, where)
    m = _HEAD.match(t)
    if m.group(1) is not None:
        entry.number = int(m.group(1))
        if entry.number < 1:
            raise UserError(f"{where}: tricks are numbered from 1")
    if m.group(2) is not None:
        entry.leader = standing.seat(m.group(2), rules, where)
    rest = m.group(3).strip()
    pos = 0
    while pos < len(rest):
        tok = _TOKEN.match(rest, pos)
        if not tok or tok.end() == pos:
            raise UserError(f"{where}: cannot read {rest[pos:].strip()!r} (expected cards such as 'R5, R9' or "
                            "'R5 (seat 1), R9 (seat 2)')")
        pos = tok.end()
        if tok.group(2):
            card = parse_card(tok.group(2), rules, where)
            if card in entry.cards:
                raise UserError(f"{where}: {tok.group(2).upper()} is played twice")
            entry.cards.append(card)
            entry.seats.append(None)
        elif tok.group(1) is not None:
            note = _NOTE.match(tok.group(1))
            if not entry.cards or not note:
                raise UserError(f"{where}: cannot read '({tok.group(1)})' (a card may be followed by '(seat S)')")
            entry.seats[-1] = standing.seat(note.group(1), rules, where)
    if not entry.cards:
        raise UserError(f"{where}: no card in {text.strip()!r}")
    if len(entry.cards) > rules.players:
        raise UserError(f"{where}: {len(entry.cards)} cards in one trick; a trick has {rules.players}")
    return entry


def parse_tricks(text: str | None, rules: RuleSet, what: str = "--tricks") -> list[TrickEntry]:
    """``--tricks``: entries separated by ';' or new lines."""
    out = []
    for part in re.split(r"[;\n]", text or ""):
        if part.strip():
            out.append(parse_trick_entry(part, rules, f"{what} entry {part.strip()!r}"))
    return out


def phase_leader(line: str) -> int | None:
    """The seat a narration's ``trick phase: seat S leads; ...`` line names, else None."""
    m = _PHASE.match(line.strip().lower())
    return int(m.group(1)) if m else None


def who_played(rules: RuleSet, leader: int, cards: list[int]) -> tuple[list[int], list[int], int | None]:
    """(the seat of each card, each finished trick's winner, the seat to play
    next or None once every card is played) for ``cards`` played in order
    from a first lead by ``leader`` (the kernels' own trick rules replay them)."""
    players = rules.players
    total = players * rules.hand_size
    if len(cards) > total:
        raise UserError(f"{len(cards)} cards played: a round has {rules.hand_size} tricks of {players} cards "
                        f"({total} cards)")
    board, game_state, money = new_state(rules.n_colours, rules.kernel_flags)
    full = np.uint64((1 << rules.hand_size) - 1)   # stand-in hands: only their size is read
    for s in range(players):
        board[BOARD.hands + s] = full
    run = np.array([len(cards), HALT_AFTER, *cards], dtype=np.int64)
    play_scripted(players, leader, np.zeros(players, dtype=np.int64), board, game_state, money,
                  np.zeros(4, dtype=np.uint64), None, None, run)
    played = TRICK_STATE.named(game_state)
    winners = [int(w) for w in played["winners"][:int(played["n_played"])]]
    leads = [leader] + winners
    seats = [(leads[k // players] + k % players) % players for k in range(len(cards))]
    nxt = None if len(cards) == total else (leads[len(cards) // players] + len(cards) % players) % players
    return seats, winners, nxt
