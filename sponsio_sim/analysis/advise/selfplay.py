"""Betting states from self-play, with the truth behind them.

Each narrated game (``analysis.game.narrate``) is cut at every betting
decision: the excerpt from the round's first line up to the decision is
read back as `sponsio advise --state` reads it, and the hands everyone
holds at that moment are kept as the truth, so inference can be scored
against where the hidden cards really were.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sponsio_sim.analysis.advise.state import TableState, hands_now, parse_narration
from sponsio_sim.analysis.game.narrate import narrate_game
from sponsio_sim.kernels.advise.actions import END_USE


@dataclass
class Decision:
    state: TableState        # as the deciding seat sees it (every seat's dealt hand is in it; only its own is used)
    text: str                # the narration excerpt
    hands: np.ndarray        # (players,) uint64: every seat's hand at the decision (the truth)


def decisions(profile: str, rules, seed: int, *, rounds: int | None = None) -> list[Decision]:
    """Every betting decision of the game ``sponsio game`` plays with this
    profile and seed (of its first ``rounds`` rounds)."""
    text = narrate_game(profile, seed=seed, rules=rules).text
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("Round ")]
    out = []
    for k, start in enumerate(starts[:rounds]):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        block = lines[start:end]
        acts = [i for i, ln in enumerate(block) if ln.strip().startswith("turn ")]
        for j in range(len(acts) + 1):
            cut = acts[j] if j < len(acts) else acts[-1] + 1
            excerpt = "\n".join(block[:cut])
            st = parse_narration(excerpt, rules)
            out.append(Decision(st, excerpt, hands_now(st.hands, st.history, rules.players)))
    return [d for d in out if sum(1 for h in d.state.history if h[1] != END_USE)
            < rules.betting_turns * rules.players]
