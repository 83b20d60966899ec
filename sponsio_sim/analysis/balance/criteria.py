"""The choice-balance criterion: designer-set bands for the measures of a game of chosen bets.

A game of chosen bets is balanced when no bet type is dead or dominant, betting
and trolling both pay, and games last as intended (Jaffe et al. 2012,
restricted play; the design notes' "Balance when players choose"). RTP is no
target: players place the bets they expect to win, so it exceeds 1 by
construction. The bands and why they are the defaults:

- ``RP_BAND`` (0.01, 0.05) win share, every type's restricted-play value (the
  win share one player loses when it may never place the type): below 1 point
  a strong player barely misses the type (dead weight, Jaffe's "dead option");
  above 5 points (a fifth of the fair share at 4 players) the game is about
  that type (dominant).
- ``SHARE_BAND`` (0.05, 0.40), every type's share of the bets placed: fewer
  than 1 bet in 20 and players rarely meet the type on the table; more than 2
  in 5 (twice the even share of five types) and it crowds the others out.
- ``TROLL_BAND`` (0.15, 0.40), the share of seat-rounds without a bet: trolling
  is a real choice (about one seat in four at 4 players), betting the rule.
- ``ROUNDS_BAND`` (0.5, 1) x ``max_rounds`` rounds per game (2.5 to 5 under
  the standard rules, which end a game after round 5): a mean below half the
  rounds the rules allow means most games end by coins before the middle
  round, before the streak track (nine bets in a row) can matter.

A band holds when the estimate lies inside it; a verdict says "above" or
"below" only when the whole 95 % interval lies outside.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tabletop_mc.errors import UserError
from tabletop_mc.findings import side

RP_BAND = (0.01, 0.05)
SHARE_BAND = (0.05, 0.40)
TROLL_BAND = (0.15, 0.40)
ROUNDS_BAND = (0.5, 1.0)   # times the rule set's max_rounds


@dataclass(frozen=True)
class Band:
    lo: float
    hi: float

    def __post_init__(self):
        if not self.lo < self.hi:
            raise UserError(f"band {self.lo:g}..{self.hi:g}: LOW must be below HIGH")

    def text(self) -> str:
        return f"{self.lo:g}..{self.hi:g}"

    def violation(self, x: float) -> float:
        """How far ``x`` lies outside, in band widths (0 inside; a missing estimate counts 1)."""
        if x != x:
            return 1.0
        return max(self.lo - x, x - self.hi, 0.0) / (self.hi - self.lo)

    def margin(self, x: float) -> float:
        """How far ``x`` lies inside, from the nearer edge, in band widths (negative outside)."""
        if x != x:
            return -1.0
        return min(x - self.lo, self.hi - x) / (self.hi - self.lo)

    def verdict(self, x: float, lo: float, hi: float, words=("below", "in band", "above")) -> str:
        """``words[2]`` / ``words[0]`` when the interval lies wholly above / below the band,
        ``words[1]`` when the estimate lies inside, else "edge" (outside, interval reaching in)."""
        where = side(lo, hi, self.lo, self.hi)
        if where == "above":
            return words[2]
        if where == "below":
            return words[0]
        return words[1] if self.lo <= x <= self.hi else "edge"


@dataclass
class Bands:
    """The criterion's bands: per bet type (``*``: every type) and for the whole game."""

    rp: dict[str, Band] = field(default_factory=lambda: {"*": Band(*RP_BAND)})
    share: dict[str, Band] = field(default_factory=lambda: {"*": Band(*SHARE_BAND)})
    troll: Band = field(default_factory=lambda: Band(*TROLL_BAND))
    rounds: Band | None = None   # None: ROUNDS_BAND x the rule set's max_rounds (``for_rules``)

    def for_rules(self, rules) -> "Bands":
        """These bands with the rounds band set (from ``rules.max_rounds`` when not given)."""
        if self.rounds is not None:
            return self
        return replace(self, rounds=Band(ROUNDS_BAND[0] * rules.max_rounds, ROUNDS_BAND[1] * rules.max_rounds))

    def of(self, which: str, kind: str) -> Band:
        table = getattr(self, which)
        return table.get(kind, table["*"])

    def text(self, kinds) -> str:
        """One line naming every band."""
        def per(which):
            table = getattr(self, which)
            extra = "".join(f", {k} {b.text()}" for k, b in table.items() if k != "*" and k in kinds)
            return f"{table['*'].text()}{extra}"
        rounds = self.rounds.text() if self.rounds is not None else "max_rounds x 0.5..1"
        return (f"restricted-play value {per('rp')}, share of bets {per('share')}, troll share "
                f"{self.troll.text()}, rounds per game {rounds}")


def parse_band(text: str, option: str, kinds=None) -> tuple[str, Band]:
    """``LOW..HIGH`` or (``kinds`` given) ``TYPE=LOW..HIGH``: (type or ``*``, band)."""
    kind, spec = "*", str(text).strip()
    if "=" in spec:
        if kinds is None:
            raise UserError(f"{option} {text!r}: expected LOW..HIGH")
        kind, spec = (p.strip() for p in spec.split("=", 1))
        if kind not in kinds:
            raise UserError(f"{option} {text!r}: {kind!r} is not a bet type of the rule set ({', '.join(kinds)})")
    try:
        lo, hi = (float(x) for x in spec.split(".."))
    except ValueError:
        raise UserError(f"{option} {text!r}: expected {'[TYPE=]' if kinds else ''}LOW..HIGH, e.g. 0.05..0.4") \
            from None
    if not (lo == lo and hi == hi) or abs(lo) == float("inf") or abs(hi) == float("inf"):
        raise UserError(f"{option} {text!r}: the band's ends must be finite numbers")
    if not lo < hi:
        raise UserError(f"{option} {text!r}: LOW must be below HIGH")
    return kind, Band(lo, hi)


def bands_from(kinds, rp=(), share=(), troll=None, rounds=None) -> Bands:
    """Bands from option texts (``parse_band``); what is not given keeps its default."""
    out = Bands()
    for texts, which, option in ((rp, "rp", "--rp-band"), (share, "share", "--share-band")):
        for t in texts or ():
            kind, band = parse_band(t, option, kinds)
            getattr(out, which)[kind] = band
    if troll:
        out.troll = parse_band(troll, "--troll-band")[1]
    if rounds:
        out.rounds = parse_band(rounds, "--rounds-band")[1]
    return out
