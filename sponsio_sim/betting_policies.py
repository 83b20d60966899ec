"""The betting policies: one row per policy, and every per-policy constant the layers use.

A row says what a policy is: its name in a strategy (``ev:goal:cash4``),
what the number after the name means (``ev0.5``), its default, which slot of
a profile entry the number goes to (``MONEY_RULES.pass_share``,
``MONEY_RULES.ev_threshold`` or ``RULES.mc_rollouts``), whether ``temp=`` applies
and whether it scores its actions by the success model. From the rows come
the policy codes kernels compile in (``BET_TROLL`` ...), the strategy
syntax and its help and error texts (``analysis.game.strategy``), and what
``analysis.game.setup.set_entry`` writes for an entry.

Adding a betting policy (``tests/test_registries.py`` keeps this list true):

1. a row at the end of ``POLICIES`` and its name in the codes line below it;
2. its kernel, a function returning ``(act, x, y, rv)`` like
   ``kernels.betting.policies.choose_ev``;
3. a branch of its own in each per-policy kernel function (each raises for a
   code it does not know):

   - ``kernels.betting.dispatch``: ``choose_action`` (its betting action);
   - ``kernels.betting.policies``: ``choose_end_token`` (how it uses a token
     when betting ends).

   A policy that only some runs seat, as the scored ones, has its branch
   inside ``if scored is not None`` and its code in ``dispatch.is_scored``, so
   it is compiled only into those runs.

The strategy syntax, its help, the parameter's slot and the model check
follow from the row; the strategy module's docstring and the strategy
syntax in ``docs/sponsio-games.md`` describe each policy in words.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PASS = 0.5
DEFAULT_THRESHOLD = 0.0
DEFAULT_ROLLOUTS = 100   # mc: rollouts per candidate
MAX_ROLLOUTS = 100_000


@dataclass(frozen=True)
class BettingPolicy:
    name: str
    syntax: str                   # the help's description of the name and its number
    example: str                  # the unknown-policy error's list entry
    default: float                # the number when the strategy gives none
    slot: str | None = None       # the entry's slot the number goes to (MONEY, or GAME for mc_rollouts); None: unused
    tempered: bool = False        # temp=TAU applies (a softmax over the policy's own scores)
    reads_model: bool = False     # scores its actions by the success model (played under the model's play policy)
    bets_on_model: bool = False   # places a bet on the model's chance of it, so its predicted and won rates should agree

    def param_error(self, param: float) -> str | None:
        """Why ``param`` (the number after the name) is not valid for this policy, or None."""
        if self.slot is None:
            return f"{self.name} takes no parameter"
        if self.slot == "pass_share" and not 0 <= param <= 1:
            return f"the pass share of {self.name} must be 0..1"
        if self.slot == "mc_rollouts" and (param != int(param) or not 1 <= param <= MAX_ROLLOUTS):
            return f"the rollouts of {self.name} must be a whole number 1..{MAX_ROLLOUTS:,}"
        return None


POLICIES = (
    BettingPolicy("troll", "troll", "troll", DEFAULT_THRESHOLD),
    BettingPolicy("random", "random or randomP (pass share P, default 0.5, e.g. random0.2)",
                  "random, randomP such as random0.2", DEFAULT_PASS, slot="pass_share"),
    BettingPolicy("ev", "ev or evT (EV threshold T coins, default 0, e.g. ev0.5)", "ev, evT such as ev0.5",
                  DEFAULT_THRESHOLD, slot="ev_threshold", tempered=True, reads_model=True, bets_on_model=True),
    BettingPolicy("mc", "mc or mcR (R rollouts per candidate action, default 100, e.g. mc400)",
                  "mc, mcR such as mc400", float(DEFAULT_ROLLOUTS), slot="mc_rollouts"),
    BettingPolicy("distilled", "distilled or distilledT", "distilled", DEFAULT_THRESHOLD, slot="ev_threshold",
                  tempered=True, reads_model=True, bets_on_model=True),
    BettingPolicy("net", "net (a network trained on mc's action values; sponsio train)", "net", 0.0, tempered=True,
                  reads_model=True),
)
BET_TROLL, BET_RANDOM, BET_EV, BET_MC, BET_DISTILLED, BET_NET = range(len(POLICIES))   # kernel codes, in row order

BETTING = {p.name: code for code, p in enumerate(POLICIES)}
BY_NAME = {p.name: p for p in POLICIES}
TEMPERED = tuple(p.name for p in POLICIES if p.tempered)
MODEL_BETTING = tuple(p.name for p in POLICIES if p.reads_model)   # betting policies that score by the model
# the policies whose bets a tournament checks against the model's predicted chance: net reads the model's
# chances as inputs but learned its action values from mc's rollouts, so its bets select on what the model
# does not see (the table's other bets) and its predicted and won rates need not agree
CALIBRATED_BETTING = tuple(p.name for p in POLICIES if p.bets_on_model)
