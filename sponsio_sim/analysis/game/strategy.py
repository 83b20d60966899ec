"""One seat's strategy: ``BETTING:PLAY[:CASH][:without=KIND][:temp=TAU][:horizon=net]``.

- BETTING: ``troll`` | ``random`` (passes with share 0.5; ``random0.3``
  passes 30%) | ``ev`` (bets when EV > 0 coins; ``ev0.5`` needs EV > 0.5) |
  ``mc`` (every decision by playing the round out 100 times per candidate,
  ``kernels.betting.mc``; ``mc400`` 400 times) | ``distilled`` (scores the
  candidates ``mc`` searches by weights fitted to ``mc``'s decisions,
  ``analysis.game.distill``; ``distilled0.5`` passes unless a score beats 0.5);
- PLAY: ``random`` | ``greedy`` | ``goal`` (the engine's play policies);
- CASH: ``never`` (default) | ``cashK``: cash the streak in at position >= K |
  ``net``: when the learned network's value head says cashing in is worth more
  (``kernels.betting.net``; ``net:goal:net`` is the learned policy throughout);
- optionally ``without=KIND[+KIND]``: restricted play, the betting policy
  never places bets of those types (``ev:goal:cash4:without=nines``);
- optionally ``temp=TAU`` (``ev``, ``distilled`` and ``net``): sample each betting
  action from a softmax over the policy's own scores with temperature TAU
  coins (``kernels.betting.scored``) instead of taking the best; real
  players differ, and so may a field's members;
- optionally ``horizon=net`` (``mc`` only): its rollouts stop where the
  round ends and score the seat by ``net``'s value head there (its expected
  win share; the real outcome where the game ends with the round), for its
  betting decisions and its cash-in alike, instead of a round's coin gain
  and game rollouts (``kernels.betting.scoring.leaf_share``).

``"ev:goal x4"`` repeats one strategy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop_mc.errors import UserError
from sponsio_sim.bet_kinds import KIND_CODE
from sponsio_sim.betting_policies import BETTING, BY_NAME, POLICIES, TEMPERED
from sponsio_sim.betting_policies import DEFAULT_ROLLOUTS  # noqa: F401  (re-exported: analysis.game.setup)
from sponsio_sim.kernels.layout import MAX_ENTRIES
from sponsio_sim.play_policies import PLAY, in_words as play_in_words
from sponsio_sim.rules import RuleSet

MAX_TEMP = 100.0         # coins: far past uniform over a decision's candidates
MAX_REPEAT = MAX_ENTRIES   # "STRATEGY xN": more seats than any game or field has is a typo
MC_KEEP = 4              # mc: candidates searched (pass and the best 3 by estimated gain; scripts/bench_mc.py --audit)
_BETTING_RE = re.compile(rf"^({'|'.join(BETTING)})(?:=?(-?\d+(?:\.\d*)?|-?\.\d+))?$")
_CASH_RE = re.compile(r"^cash=?(\d+)$")
_TEMP_RE = re.compile(r"^temp=(\d+(?:\.\d*)?|\.\d+)$")
_REPEAT_RE = re.compile(r"^(.*?)\s*[x\*]\s*(\d+)$")
_WITHOUT = "without="
_TEMP = "temp="
_HORIZON = "horizon="
HORIZONS = ("net",)   # mc's horizon= values: "net", the value head at the round's end
CASH_BY_NET = "net"
STRATEGY_HELP = ("BETTING:PLAY[:CASH][:without=KIND][:temp=TAU][:horizon=net] with BETTING "
                 + ", ".join(p.syntax for p in POLICIES) + "; "
                 f"PLAY {play_in_words()}; CASH never, cashK (e.g. cash4) or net; "
                 "without=nines (or without=nines+last) never places those bet types; "
                 f"temp=TAU ({', '.join(TEMPERED)}) samples actions "
                 "by a softmax of temperature TAU coins; horizon=net (mc) stops its rollouts where the round "
                 "ends and reads net's value head there")


@dataclass(frozen=True)
class Strategy:
    betting: str
    play: str
    cash: int | str | None = None   # None: never cash in; K: at position >= K; CASH_BY_NET: the network decides
    param: float | None = None   # random: pass share; ev, distilled: threshold; mc: rollouts
    without: tuple[str, ...] = ()   # bet types never placed (restricted play), catalogue order
    temp: float = 0.0            # ev, distilled: softmax temperature in coins (0: the best action)
    horizon: str | None = None   # mc: None, rollouts as far as the decision needs; "net": the round's end, value head

    @property
    def text(self) -> str:
        bet = self.betting if self.param is None else f"{self.betting}{self.param:g}"
        out = f"{bet}:{self.play}:{self.cash_text}"
        out += f":{_WITHOUT}{'+'.join(self.without)}" if self.without else ""
        out += f":{_TEMP}{self.temp:g}" if self.temp else ""
        return out + (f":{_HORIZON}{self.horizon}" if self.horizon else "")

    @property
    def cash_text(self) -> str:
        """The CASH part as written: ``never``, ``cashK`` or ``net``."""
        return "never" if self.cash is None else self.cash if self.cash == CASH_BY_NET else f"cash{self.cash}"

    @property
    def banned(self) -> int:
        """Bitmask of the bet kinds never placed."""
        return sum(1 << KIND_CODE[k] for k in self.without)

    @property
    def kernel_param(self) -> float:
        return float(self.param) if self.param is not None else BY_NAME[self.betting].default


def parse_strategy(text: str, rules: RuleSet, *, clamp_cash: bool = False) -> Strategy:
    """One strategy (module docstring); one-line UserError naming what is wrong.
    ``clamp_cash``: a cash-in past the rule set's last valued track position
    cashes in there instead (how a field's members adapt to a short track)."""
    parts = [p.strip().lower() for p in str(text).strip().split(":")]
    without: tuple[str, ...] = ()
    temp = 0.0
    horizon = None
    while len(parts) > 2 and parts[-1].startswith((_WITHOUT, _TEMP, _HORIZON)):
        extra = parts.pop()
        if extra.startswith(_WITHOUT):
            without = _parse_without(text, extra[len(_WITHOUT):], rules)
        elif extra.startswith(_HORIZON):
            horizon = extra[len(_HORIZON):]
            if horizon not in HORIZONS:
                raise UserError(f"strategy {text.strip()!r}: {extra}: use {', '.join(_HORIZON + h for h in HORIZONS)} "
                                f"(mc's rollouts cut where the round ends, valued by net's value head)")
        else:
            temp = _parse_temp(text, extra)
    if len(parts) not in (2, 3) or not all(parts):
        raise UserError(f"strategy {text.strip()!r}: expected {STRATEGY_HELP}")
    m = _BETTING_RE.match(parts[0])
    if not m:
        raise UserError(f"strategy {text.strip()!r}: unknown betting policy '{parts[0]}' "
                        f"({', '.join(p.example for p in POLICIES)})")
    betting, param = m.group(1), (float(m.group(2)) if m.group(2) else None)
    wrong = None if param is None else BY_NAME[betting].param_error(param)
    if wrong:
        raise UserError(f"strategy {text.strip()!r}: {wrong}")
    if temp and betting not in TEMPERED:
        raise UserError(f"strategy {text.strip()!r}: temp= applies to {' and '.join(TEMPERED)} only")
    if horizon and betting != "mc":
        raise UserError(f"strategy {text.strip()!r}: {_HORIZON}{horizon} applies to mc only")
    if parts[1] not in PLAY:
        raise UserError(f"strategy {text.strip()!r}: unknown play policy '{parts[1]}' "
                        f"(choose from {', '.join(PLAY)})")
    cash = None
    if len(parts) == 3 and parts[2] == CASH_BY_NET:
        cash = CASH_BY_NET
    elif len(parts) == 3 and parts[2] != "never":
        c = _CASH_RE.match(parts[2])
        if not c:
            raise UserError(f"strategy {text.strip()!r}: unknown cash-in policy '{parts[2]}' (never, cashK, net)")
        cash = int(c.group(1)[:9])
        if rules.track_win < 2 and not clamp_cash:
            raise UserError(f"strategy {text.strip()!r}: cash{c.group(1)[:9]}: rule set {rules.name}'s track has "
                            f"no position to cash in at (track_win {rules.track_win}); use never")
        if clamp_cash and cash >= rules.track_win:
            cash = rules.track_win - 1 if rules.track_win > 1 else None
        if cash is not None and not 1 <= cash < rules.track_win:
            raise UserError(f"strategy {text.strip()!r}: cash{cash} must be 1..{rules.track_win - 1} "
                            f"(track positions with a value)")
    return Strategy(betting, parts[1], cash, param, without, temp, horizon)


def _parse_without(text: str, kinds: str, rules: RuleSet) -> tuple[str, ...]:
    names = [k.strip() for k in kinds.split("+")]
    for k in names:
        if k not in rules.bets:
            raise UserError(f"strategy {text.strip()!r}: without={k}: not a bet type of rule set {rules.name} "
                            f"(choose from {', '.join(rules.bets)})")
    return tuple(k for k in rules.bets if k in names)


def _parse_temp(text: str, part: str) -> float:
    m = _TEMP_RE.match(part)
    value = float(m.group(1)) if m else -1.0
    if not 0 < value <= MAX_TEMP:
        raise UserError(f"strategy {text.strip()!r}: temp= needs a temperature 0 < TAU <= {MAX_TEMP:g} coins "
                        f"(e.g. temp=0.5)")
    return value


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
            item, digits = m.group(1), m.group(2)
            count = int(digits) if len(digits) <= 6 else MAX_REPEAT + 1
            if not 1 <= count <= MAX_REPEAT:
                raise UserError(f"{what}: repeat count x{digits if len(digits) <= 12 else digits[:12] + '...'} "
                                f"must be 1..{MAX_REPEAT}")
        out += [parse_strategy(item, rules)] * count
    return out
