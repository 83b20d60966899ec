"""Strategy profiles and the packed arrays the full-game kernels start from.

A seat's strategy is ``BETTING:PLAY[:CASH]``:

- BETTING: ``troll`` | ``random`` (passes with share 0.5; ``random0.3``
  passes 30%) | ``ev`` (bets when EV > 0 coins; ``ev0.5`` needs EV > 0.5) |
  ``mc`` (every decision by playing the round out 100 times per candidate,
  ``kernels.betting.mc``; ``mc400`` 400 times);
- PLAY: ``random`` | ``greedy`` | ``goal`` (the engine's play policies);
- CASH: ``never`` (default) | ``cashK``: cash the streak in at position >= K;
- optionally ``without=KIND[+KIND]`` last: restricted play, the betting
  policy never places bets of those types (``ev:goal:cash4:without=nines``).

A profile is comma-separated strategies, one per seat; ``"ev:goal x4"``
repeats one; ``reference`` is the reference profile for balance work
(``REFERENCE``: the same strategy at every seat, chosen with `sponsio
exploit` so that no deviation of its family gains more than a point).
Rule numbers and policy parameters reach the kernels as the arrays built
by ``build_state``; the rule set's numbers are never copied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from tabletop_mc.errors import UserError
from sponsio_sim.analysis.game.model import SuccessModel
from sponsio_sim.bet_kinds import BY_NAME, KIND_CODE
from sponsio_sim.bets import catalogue
from sponsio_sim.kernels.game import layout as L
from sponsio_sim.kernels.betting.model import precompute_best
from sponsio_sim.kernels.play.policies import GOAL, GREEDY, RANDOM
from sponsio_sim.kernels.table import MAX_PLAYERS, new_state
from sponsio_sim.rules import TOKENS, RuleSet, kernel_multipliers

BETTING = {"troll": L.BET_TROLL, "random": L.BET_RANDOM, "ev": L.BET_EV, "mc": L.BET_MC}
PLAY = {"random": RANDOM, "greedy": GREEDY, "goal": GOAL}
DEFAULT_PASS = 0.5
DEFAULT_THRESHOLD = 0.0
DEFAULT_ROLLOUTS = 100   # mc: rollouts per candidate
MAX_ROLLOUTS = 100_000
MC_KEEP = 4              # mc: candidates searched (pass and the best 3 by estimated gain; scripts/bench_mc.py --audit)
_BETTING_RE = re.compile(r"^(troll|random|ev|mc)(?:=?(-?\d+(?:\.\d*)?|-?\.\d+))?$")
_CASH_RE = re.compile(r"^cash=?(\d+)$")
_REPEAT_RE = re.compile(r"^(.*?)\s*[x\*]\s*(\d+)$")
_WITHOUT = "without="
# The reference strategy per player count: calibrated ev with the threshold and cash-in that
# `sponsio exploit` found best (README, "Reference profile"); every seat plays it.
REFERENCE = {4: "ev0.5:goal:cash3", 3: "ev0.5:goal:cash3"}
REFERENCE_DEFAULT = "ev0.5:goal:cash3"
STRATEGY_HELP = ("BETTING:PLAY[:CASH][:without=KIND] with BETTING troll, random or randomP (pass share P, "
                 "default 0.5, e.g. random0.2), ev or evT (EV threshold T coins, default 0, e.g. ev0.5), mc or mcR "
                 "(R rollouts per candidate action, default 100, e.g. mc400); "
                 "PLAY random, greedy or goal; CASH never or cashK (e.g. cash4); without=nines (or "
                 "without=nines+last) never places those bet types")


@dataclass(frozen=True)
class Strategy:
    betting: str
    play: str
    cash: int | None = None      # None: never cash in
    param: float | None = None   # random: pass share; ev: threshold; mc: rollouts
    without: tuple[str, ...] = ()   # bet types never placed (restricted play), catalogue order

    @property
    def text(self) -> str:
        bet = self.betting if self.param is None else f"{self.betting}{self.param:g}"
        cash = "never" if self.cash is None else f"cash{self.cash}"
        out = f"{bet}:{self.play}:{cash}"
        return out + (f":{_WITHOUT}{'+'.join(self.without)}" if self.without else "")

    @property
    def banned(self) -> int:
        """Bitmask of the bet kinds never placed."""
        return sum(1 << KIND_CODE[k] for k in self.without)

    @property
    def kernel_param(self) -> float:
        if self.param is not None:
            return float(self.param)
        if self.betting == "mc":
            return float(DEFAULT_ROLLOUTS)
        return DEFAULT_PASS if self.betting == "random" else DEFAULT_THRESHOLD


def parse_strategy(text: str, rules: RuleSet) -> Strategy:
    """One strategy (module docstring); one-line UserError naming what is wrong."""
    parts = [p.strip().lower() for p in str(text).strip().split(":")]
    without: tuple[str, ...] = ()
    if len(parts) > 2 and parts[-1].startswith(_WITHOUT):
        without = _parse_without(text, parts.pop()[len(_WITHOUT):], rules)
    if len(parts) not in (2, 3) or not all(parts):
        raise UserError(f"strategy {text.strip()!r}: expected {STRATEGY_HELP}")
    m = _BETTING_RE.match(parts[0])
    if not m:
        raise UserError(f"strategy {text.strip()!r}: unknown betting policy '{parts[0]}' "
                        f"(troll, random, randomP such as random0.2, ev, evT such as ev0.5, mc, mcR such "
                        f"as mc400)")
    betting, param = m.group(1), (float(m.group(2)) if m.group(2) else None)
    if betting == "troll" and param is not None:
        raise UserError(f"strategy {text.strip()!r}: troll takes no parameter")
    if betting == "random" and param is not None and not 0 <= param <= 1:
        raise UserError(f"strategy {text.strip()!r}: the pass share of random must be 0..1")
    if betting == "mc" and param is not None and (param != int(param) or not 1 <= param <= MAX_ROLLOUTS):
        raise UserError(f"strategy {text.strip()!r}: the rollouts of mc must be a whole number 1..{MAX_ROLLOUTS:,}")
    if parts[1] not in PLAY:
        raise UserError(f"strategy {text.strip()!r}: unknown play policy '{parts[1]}' "
                        f"(choose from {', '.join(PLAY)})")
    cash = None
    if len(parts) == 3 and parts[2] != "never":
        c = _CASH_RE.match(parts[2])
        if not c:
            raise UserError(f"strategy {text.strip()!r}: unknown cash-in policy '{parts[2]}' (never, cashK)")
        cash = int(c.group(1))
        if not 1 <= cash < rules.track_win:
            raise UserError(f"strategy {text.strip()!r}: cash{cash} must be 1..{rules.track_win - 1} "
                            f"(track positions with a value)")
    return Strategy(betting, parts[1], cash, param, without)


def _parse_without(text: str, kinds: str, rules: RuleSet) -> tuple[str, ...]:
    names = [k.strip() for k in kinds.split("+")]
    for k in names:
        if k not in rules.bets:
            raise UserError(f"strategy {text.strip()!r}: without={k}: not a bet type of rule set {rules.name} "
                            f"(choose from {', '.join(rules.bets)})")
    return tuple(k for k in rules.bets if k in names)


def parse_strategies(text, rules: RuleSet, what: str = "--profile") -> list[Strategy]:
    """Comma-separated strategies; ``"ev:goal x3"`` repeats one."""
    items = text if isinstance(text, (list, tuple)) else str(text or "").split(",")
    out: list[Strategy] = []
    for item in items:
        item = str(item).strip()
        if not item:
            raise UserError(f"{what} {text!r}: empty strategy (expected {STRATEGY_HELP})")
        m = _REPEAT_RE.match(item)
        count = 1
        if m:
            item, count = m.group(1), int(m.group(2))
            if count < 1:
                raise UserError(f"{what}: repeat count must be at least 1")
        out += [parse_strategy(item, rules)] * count
    return out


def reference_profile(rules: RuleSet) -> str:
    """The reference profile for ``rules``' player count (module docstring)."""
    return f"{REFERENCE.get(rules.players, REFERENCE_DEFAULT)} x{rules.players}"


def model_variant(profile, rules: RuleSet) -> str | None:
    """``"reference"`` when ``profile`` is the reference profile (its success model is
    calibrated in its own games), else None."""
    if profile is None:
        return None
    ref = [s.text for s in parse_strategies(reference_profile(rules), rules)]
    try:
        mine = [s.text for s in parse_profile(profile, rules)]
    except UserError:
        return None
    return "reference" if mine == ref else None


def parse_profile(text, rules: RuleSet) -> list[Strategy]:
    """One strategy per seat: exactly ``rules.players`` of them (``reference``: the reference profile)."""
    if isinstance(text, str) and text.strip().lower() == "reference":
        text = reference_profile(rules)
    out = parse_strategies(text, rules)
    if len(out) != rules.players:
        raise UserError(f"--profile has {len(out)} strategies for {rules.players} players "
                        f"(one per seat; 'ev:goal x{rules.players}' repeats one)")
    return out


def check_rules(rules: RuleSet) -> None:
    """Full-game limits of the kernels."""
    if rules.players > MAX_PLAYERS:
        raise UserError(f"rule set {rules.name}: the full game supports at most {MAX_PLAYERS} players")
    if rules.track_win >= L.MAX_TRACK:
        raise UserError(f"rule set {rules.name}: 'track_win' must be below {L.MAX_TRACK}")
    if not 1 <= rules.max_rounds <= L.MAX_ROUNDS:
        raise UserError(f"rule set {rules.name}: 'max_rounds' must be 1..{L.MAX_ROUNDS}")
    if not rules.bets:
        raise UserError(f"rule set {rules.name}: the full game needs at least one bet type")


def rows_of(rules: RuleSet):
    """Seat-independent catalogue (fail:S for every S; a seat skips its own)."""
    return catalogue(rules, seat=-1)


def build_state(rules: RuleSet, strategies: list[Strategy], model: SuccessModel, *, rotate: bool = False):
    """(tab, ints, weight) templates for the game and fit kernels."""
    check_rules(rules)
    tab, ints0, w0 = new_state(rules.n_colours, rules.kernel_flags)
    ints = np.zeros(L.INTS_GAME, dtype=np.int64)
    ints[:len(ints0)] = ints0
    weight = np.zeros(L.W_MODEL + len(model.p), dtype=np.float64)
    weight[:len(w0)] = w0
    ints[L.I_PLAYERS] = rules.players
    ints[L.I_NCOL] = rules.n_colours
    ints[L.I_HAND] = rules.hand_size
    ints[L.I_TURNS] = rules.betting_turns
    ints[L.I_TRACK_WIN] = rules.track_win
    ints[L.I_MAX_ROUNDS] = rules.max_rounds
    ints[L.I_TOKENS] = sum(1 << TOKENS.index(t) for t in rules.tokens)
    ints[L.I_ROTATE] = 1 if rotate else 0
    ints[L.I_BONUS_NET] = 1 if rules.round_bonus_basis == "net" else 0
    ints[L.I_TRACK_ENDS] = 1 if rules.track_top == "ends" else 0
    rows = rows_of(rules)
    ints[L.I_NROWS] = len(rows)
    ints[L.I_ROW_OF:L.I_ROW_OF + L.N_KINDS] = -1
    for r, bet in enumerate(rows):
        code = bet.code()
        ints[L.I_ROWS + 3 * r:L.I_ROWS + 3 * r + 3] = code
        if ints[L.I_ROW_OF + code[0]] < 0:
            ints[L.I_ROW_OF + code[0]] = r
    ints[L.I_MODEL_AT:L.I_MODEL_AT + L.N_KINDS] = model.offsets
    weight[L.W_STAKE] = rules.stake
    weight[L.W_TOKEN_COST] = rules.token_cost
    weight[L.W_TROLL_PAY] = rules.troll_pay
    weight[L.W_BONUS] = rules.round_bonus
    weight[L.W_COINS_END] = rules.coins_to_end
    weight[L.W_START] = rules.start_coins
    weight[L.W_TRACKV:L.W_TRACKV + len(rules.track_value)] = rules.track_value
    weight[L.W_MULT:L.W_MULT + len(rows)] = kernel_multipliers(rules, rows)
    weight[L.W_BASE:L.W_BASE + len(rows)] = [
        model.base_rate(KIND_CODE[b.kind], BY_NAME[b.kind].axis_value(b.a, b.b)) for b in rows]
    for e, st in enumerate(strategies):
        ints[L.I_BETPOL + e] = BETTING[st.betting]
        ints[L.I_PLAYPOL + e] = PLAY[st.play]
        ints[L.I_CASHK + e] = L.CASH_NEVER if st.cash is None else st.cash
        ints[L.I_BANNED + e] = st.banned
        weight[L.W_PASS + e] = st.kernel_param if st.betting == "random" else 0.0
        weight[L.W_THRESH + e] = st.kernel_param if st.betting == "ev" else 0.0
        ints[L.I_MC_R + e] = int(st.kernel_param) if st.betting == "mc" else 0
    ints[L.I_MC_KEEP] = MC_KEEP
    ints[L.I_MC_ANY] = 1 if any(st.betting == "mc" for st in strategies) else 0
    weight[L.W_MODEL:] = model.p
    precompute_best(ints, weight)
    return tab, ints, weight
