"""Profiles and the packed arrays the full-game kernels start from.

A profile is what a game's seats play (``Profile``): comma-separated
strategies (``analysis.game.strategy``), one per seat (``"ev:goal x4"``
repeats one); or a **field**: a population's members with mixture weights,
from which every seat draws its strategy per game (``tabletop_mc.field``,
``kernels.field``). ``reference`` is the reference field: the shipped
equilibrium mixture of `sponsio meta` (``sponsio_sim/fields``), with the
rule set's cash-in range applied to its members; ``field:FILE`` reads
another field file. Rule numbers and policy parameters reach the kernels as
the arrays built by ``build_state``; the rule set's numbers are never copied.
"""

from __future__ import annotations

import ctypes
from dataclasses import replace

import numpy as np

from tabletop_mc.errors import UserError
from tabletop_mc.field import Field, load_field, shipped_field
from tabletop_mc.metagame.text import describe_mixture
from sponsio_sim.analysis.game.model import SuccessModel, shipped_distilled
from sponsio_sim.analysis.game.net import append_net, find_net
from sponsio_sim.analysis.game.strategy import (BETTING, CASH_BY_NET, DEFAULT_ROLLOUTS, MC_KEEP, PLAY, STRATEGY_HELP, Strategy,
                                                parse_strategies, parse_strategy)
from sponsio_sim.bet_kinds import BY_NAME, KIND_CODE
from sponsio_sim.betting_policies import POLICIES
from sponsio_sim.bets import catalogue
from sponsio_sim.kernels.layout import (CANDIDATE_FEATURES, CASH_NET, CASH_NEVER, GAME, MAX_ENTRIES, MAX_PLAYERS,
                                        MAX_ROUNDS, MAX_TRACK, MODEL_START, MONEY, MONEY_RULES, N_KINDS,
                                        N_TOKENS, RULES, TRICK_RULES, TRICK_STATE)
from sponsio_sim.kernels.betting.model import precompute_best
from sponsio_sim.kernels.contexts import GameArrays
from sponsio_sim.kernels.trickstate import new_state
from sponsio_sim.rules import TOKENS, RuleSet, kernel_multipliers

__all__ = ["BETTING", "DEFAULT_ROLLOUTS", "MC_KEEP", "PLAY", "STRATEGY_HELP", "Strategy", "parse_strategies",
           "parse_strategy", "Profile", "parse_profile", "reference_profile", "model_variant", "build_state",
           "rows_of", "check_rules", "set_entry", "bind", "rulebook", "copy_arrays", "game_arrays"]

# The reference before the reference field: calibrated ev with the threshold and cash-in `sponsio exploit`
# found best for 4 players, at every seat (a one-strategy-per-seat stand-in, e.g. in error messages).
REFERENCE_STRATEGY = "ev0.5:goal:cash3"
FIELD_PREFIX = "field:"


def ev_weights(rules: RuleSet) -> np.ndarray:
    """``distilled`` feature weights that score every candidate by ``ev``'s model gain
    (a bet: expected payout - stake - forgone troll pay; an exchange or a token: its gain less its cost)."""
    w = np.zeros(CANDIDATE_FEATURES.size)
    w[CANDIDATE_FEATURES.bet:CANDIDATE_FEATURES.bet + N_KINDS] = -rules.stake
    w[CANDIDATE_FEATURES.pay:CANDIDATE_FEATURES.pay + N_KINDS] = 1.0
    w[CANDIDATE_FEATURES.forgone] = -1.0
    w[CANDIDATE_FEATURES.swap_gain] = 1.0
    w[CANDIDATE_FEATURES.token_gain:CANDIDATE_FEATURES.token_gain + N_TOKENS] = 1.0
    w[CANDIDATE_FEATURES.token_cost] = -1.0
    return w


class Profile(list):
    """The strategies of a game's entries: one per seat, or a field's members
    (``field`` set: seats draw them per game by its weights)."""

    def __init__(self, strategies, field: Field | None = None, name: str = ""):
        super().__init__(strategies)
        self.field = field
        self.name = name

    @property
    def weights(self) -> tuple[float, ...] | None:
        return self.field.weights if self.field is not None else None

    def with_member(self, st: Strategy) -> "Profile":
        """This field with ``st`` appended at weight 0: never drawn, so it can sit at the
        focal seat of a paired deviation (``build_state(..., focal=len(self))``)."""
        f = self.field
        grown = replace(f, members=f.members + (st.text,), weights=f.weights + (0.0,))
        return Profile([*self, st], grown, self.name)

    def text(self) -> str:
        """How headers name it: the strategies, or ``NAME: 0.62 A + 0.38 B``."""
        if self.field is None:
            return ", ".join(s.text for s in self)
        return f"{self.name or 'field'}: {describe_mixture(self.field.weights, [s.text for s in self])}"


def mixture_profile(members: list[Strategy], weights, name: str, rules: RuleSet) -> Profile:
    """A field of ``members`` with mixture ``weights`` (clipped at 0, normalised)."""
    w = np.clip(np.asarray(weights, dtype=float), 0.0, None)
    field = Field("sponsio", rules.players, rules.name, tuple(m.text for m in members), tuple(w / w.sum()))
    return Profile(members, field, name)


def _field_profile(field: Field, rules: RuleSet, name: str, where: str) -> Profile:
    if field.game != "sponsio":
        raise UserError(f"{where}: a {field.game} field, not a sponsio one")
    if field.players != rules.players:
        raise UserError(f"{where}: made for {field.players} players, not {rules.players}")
    if len(field.members) > MAX_ENTRIES:
        raise UserError(f"{where}: at most {MAX_ENTRIES} members, got {len(field.members)}")
    return Profile([parse_strategy(t, rules, clamp_cash=True) for t in field.members], field, name)


def reference_field(rules: RuleSet) -> Field | None:
    """The shipped reference field for ``rules``' player count, or None."""
    return shipped_field("sponsio_sim", rules.players)


def reference_profile(rules: RuleSet) -> str:
    """The reference as a one-strategy-per-seat profile: ``REFERENCE_STRATEGY`` at every seat (its
    cash-in adapted to the rule set); where a command needs one strategy per seat."""
    return f"{parse_strategy(REFERENCE_STRATEGY, rules, clamp_cash=True).text} x{rules.players}"


def parse_profile(text, rules: RuleSet) -> Profile:
    """``reference`` (the shipped reference field for the player count), ``field:FILE``, or
    exactly ``rules.players`` strategies."""
    if isinstance(text, Profile):
        return text
    word = text.strip() if isinstance(text, str) else ""
    if word.lower() == "reference":
        field = reference_field(rules)
        if field is None:
            raise UserError(f"--profile reference: no reference field for {rules.players} players (shipped: "
                            f"3 and 4 players); name a strategy per seat (e.g. \"{reference_profile(rules)}\"), or "
                            f"make a field with `sponsio meta --players {rules.players} --out DIR` and give "
                            "--profile field:DIR/field.json")
        return _field_profile(field, rules, "reference field", "the reference field")
    if word.lower().startswith(FIELD_PREFIX):
        path = word[len(FIELD_PREFIX):].strip()
        return _field_profile(load_field(path), rules, f"field {path}", f"field file {path}")
    out = parse_strategies(text, rules)
    if len(out) != rules.players:
        raise UserError(f"--profile has {len(out)} strategies for {rules.players} players "
                        f"(one per seat; 'ev:goal x{rules.players}' repeats one)")
    return Profile(out)


def model_variant(profile, rules: RuleSet) -> str | None:
    """``"reference"`` when ``profile`` is the reference (its ``ev`` success model is
    calibrated in its own games), else None."""
    if profile is None:
        return None
    try:
        mine = parse_profile(profile, rules)
        ref = parse_profile("reference", rules)
    except UserError:
        return None
    same = [s.text for s in mine] == [s.text for s in ref] and mine.weights == ref.weights
    return "reference" if same else None


def check_rules(rules: RuleSet) -> None:
    """Full-game limits of the kernels."""
    if rules.players > MAX_PLAYERS:
        raise UserError(f"rule set {rules.name}: the full game supports at most {MAX_PLAYERS} players")
    if rules.track_win >= MAX_TRACK:
        raise UserError(f"rule set {rules.name}: 'track_win' must be below {MAX_TRACK}")
    if not 1 <= rules.max_rounds <= MAX_ROUNDS:
        raise UserError(f"rule set {rules.name}: 'max_rounds' must be 1..{MAX_ROUNDS}")
    if not rules.bets:
        raise UserError(f"rule set {rules.name}: the full game needs at least one bet type")


def rows_of(rules: RuleSet):
    """Seat-independent catalogue (fail:S for every S; a seat skips its own)."""
    return catalogue(rules, seat=-1)


def set_entry(game_state, e: int, st: Strategy) -> None:
    """Profile entry ``e`` of a bound game state (``bind``) plays ``st``: its betting policy into the
    state, its other policies and parameters into its rulebook."""
    rules, money_rules = rulebook(game_state)
    game_state[GAME.betting_policy + e] = BETTING[st.betting]
    rules[RULES.play_policy + e] = PLAY[st.play]
    rules[RULES.cash_in_at + e] = (CASH_NEVER if st.cash is None else CASH_NET if st.cash == CASH_BY_NET
                                   else st.cash)
    rules[RULES.banned_kinds + e] = st.banned
    slot = POLICIES[BETTING[st.betting]].slot   # where the policy's number goes; the other slots are 0
    money_rules[MONEY_RULES.pass_share + e] = st.kernel_param if slot == "pass_share" else 0.0
    money_rules[MONEY_RULES.ev_threshold + e] = st.kernel_param if slot == "ev_threshold" else 0.0
    money_rules[MONEY_RULES.temperature + e] = st.temp
    rules[RULES.mc_rollouts + e] = int(st.kernel_param) if slot == "mc_rollouts" else 0
    rules[RULES.mc_leaf + e] = 1 if st.horizon == "net" else 0


def bind(game_state, rules, money_rules):
    """``game_state`` bound to its rulebook (``kernels.rulebook``): a copy of the three vectors in one
    buffer, the state's ``TRICK_STATE.rules_at``, ``GAME.money_rules_at`` and ``GAME.money_rules_size`` set to
    find the other two. The returned state keeps the buffer, so the rulebook lives as long as the
    state (``rulebook`` reads it back); a plain copy of the state reads the same rulebook and must
    not outlive it (``copy_arrays`` copies both)."""
    n_r, n_m = RULES.size, len(money_rules)
    raw = np.empty(8 * (n_r + n_m + len(game_state)), dtype=np.uint8)
    r = raw[:8 * n_r].view(np.int64)
    m = raw[8 * n_r:8 * (n_r + n_m)].view(np.float64)
    g = raw[8 * (n_r + n_m):].view(np.int64)
    r[:], m[:], g[:] = rules, money_rules, game_state
    g[TRICK_STATE.rules_at], g[GAME.money_rules_at], g[GAME.money_rules_size] = r.ctypes.data, m.ctypes.data, n_m
    return g


def rulebook(game_state):
    """(rules, money_rules) a game state reads (``kernels.rulebook``), read and written by name
    (``RULES.named(rules)``, ``MONEY_RULES.named(money_rules[:MODEL_START])``): views of the buffer of
    a state ``bind`` returned; for a plain copy of one, read-only views of the rulebook it points at
    (valid while the state it was copied from lives; ``copy_arrays`` gives a copy a rulebook of its own).
    A trick-phase state of its own (``trickstate.new_state``) reads the trick phase's rules only
    (``TRICK_RULES``; no money rules)."""
    if game_state[TRICK_STATE.rules_at] == 0:
        raise ValueError("a game state without its rulebook (bind)")
    if len(game_state) < GAME.size:
        rules = np.ctypeslib.as_array((ctypes.c_int64 * TRICK_RULES.size).from_address(
            int(game_state[TRICK_STATE.rules_at])))
        rules.flags.writeable = False
        return rules, np.zeros(0, dtype=np.float64)
    raw = game_state
    while isinstance(raw, np.ndarray) and raw.base is not None:   # a kernel's array ends in numba's MemInfo
        raw = raw.base
    n_m = int(game_state[GAME.money_rules_size])
    if (isinstance(raw, np.ndarray) and raw.dtype == np.uint8
            and raw.nbytes == 8 * (RULES.size + n_m + len(game_state))):
        rules = raw[:8 * RULES.size].view(np.int64)
        money_rules = raw[8 * RULES.size:8 * (RULES.size + n_m)].view(np.float64)
        if (rules.ctypes.data == game_state[TRICK_STATE.rules_at]
                and money_rules.ctypes.data == game_state[GAME.money_rules_at]):
            return rules, money_rules
    rules = np.ctypeslib.as_array((ctypes.c_int64 * RULES.size).from_address(int(game_state[TRICK_STATE.rules_at])))
    money_rules = np.ctypeslib.as_array((ctypes.c_double * n_m).from_address(int(game_state[GAME.money_rules_at])))
    rules.flags.writeable = money_rules.flags.writeable = False
    return rules, money_rules


def game_arrays(board, game_state, money) -> GameArrays:
    """What a chunk kernel starts from (``contexts.GameArrays``): the arrays and copies of the
    rulebook, the state's addresses cleared (the kernel binds its copies, ``rulebook.copy_game``), so
    the batch can be pickled and its result-cache key names the rulebook's contents."""
    rules, money_rules = rulebook(game_state)
    unbound = game_state.copy()
    unbound[TRICK_STATE.rules_at] = unbound[GAME.money_rules_at] = 0
    return GameArrays(board, unbound, money, rules.copy(), money_rules.copy())


def copy_arrays(arrays):
    """Copies of (board, game_state, money) whose game state has a rulebook of its own (``bind``), so
    the copy's entries can be changed (``set_entry``) and the original's stay."""
    board, game_state, money = arrays
    return board.copy(), bind(game_state, *(v.copy() for v in rulebook(game_state))), money.copy()


def _put(vector, layout, **values) -> None:
    """Write each of ``values`` into ``vector`` at ``layout``'s field of that name."""
    for name, value in values.items():
        vector[getattr(layout, name)] = value


def uses_net(strategies, mc_self: str = "ev") -> bool:
    """Whether a game of ``strategies`` needs the network: a ``net`` bettor, a cash-in by it, ``mc``'s
    own later decisions played by it in its rollouts, or ``mc`` reading its value head (``horizon=net``)."""
    return (mc_self == "net" and any(st.betting == "mc" for st in strategies)) or any(
        st.betting == "net" or st.cash == CASH_BY_NET or st.horizon == "net" for st in strategies)


def build_state(rules: RuleSet, strategies: list[Strategy], model: SuccessModel, *, rotate: bool = False,
                focal: int = -1, distilled=None, mc_self: str = "ev", net=None):
    """(board, game_state, money) templates for the game and fit kernels. A field
    ``Profile`` makes every seat draw its entry per game; ``focal`` >= 0 then
    seats that entry at the focal seat (``kernels.field``). ``distilled``:
    the ``distilled`` policy's feature weights (default: the shipped ones for the
    player count, ``model.shipped_distilled``, else ``ev_weights``, which score
    as ``ev`` does). ``mc_self``: how an ``mc`` seat's own later
    decisions are played in its rollouts (``ev``, ``distilled`` or ``net``). ``net``: the network
    (``tabletop_mc.net.NetWeights``) ``net`` seats play, default the shipped one for the player count
    (``game.net.find_net``); loaded only when a seat needs it."""
    check_rules(rules)
    if mc_self not in ("ev", "distilled", "net"):   # a rollout never searches (kernels' load_scratch, rollout_game)
        raise ValueError(f"an mc seat's rollouts play its later decisions by ev, distilled or net, not {mc_self!r}")
    board, ints0, w0 = new_state(rules.n_colours, rules.kernel_flags)
    game_state = np.zeros(GAME.size, dtype=np.int64)
    game_state[:len(ints0)] = ints0
    money = np.zeros(MONEY.size, dtype=np.float64)
    money[:len(w0)] = w0
    book = np.zeros(RULES.size, dtype=np.int64)
    money_rules = np.zeros(MODEL_START + len(model.p), dtype=np.float64)
    _put(book, RULES, players=rules.players, colours=rules.n_colours, hand_size=rules.hand_size,
         betting_turns=rules.betting_turns, track_win=rules.track_win, max_rounds=rules.max_rounds,
         tokens=sum(1 << TOKENS.index(t) for t in rules.tokens), rotate=1 if rotate else 0,
         bonus_net=1 if rules.round_bonus_basis == "net" else 0,
         track_ends=1 if rules.track_top == "ends" else 0)
    book[TRICK_RULES.flags] = rules.kernel_flags
    rows = rows_of(rules)
    book[RULES.catalogue_rows] = len(rows)
    book[RULES.kind_first_row:RULES.kind_first_row + N_KINDS] = -1
    for r, bet in enumerate(rows):
        code = bet.code()
        book[RULES.catalogue + 3 * r:RULES.catalogue + 3 * r + 3] = code
        if book[RULES.kind_first_row + code[0]] < 0:
            book[RULES.kind_first_row + code[0]] = r
    book[RULES.model_at:RULES.model_at + N_KINDS] = model.offsets
    _put(money_rules, MONEY_RULES, stake=rules.stake, token_cost=rules.token_cost, troll_pay=rules.troll_pay,
         bonus=rules.round_bonus, coins_to_end=rules.coins_to_end, start_coins=rules.start_coins)
    money_rules[MONEY_RULES.track_values:MONEY_RULES.track_values + len(rules.track_value)] = rules.track_value
    money_rules[MONEY_RULES.multiplier:MONEY_RULES.multiplier + len(rows)] = kernel_multipliers(rules, rows)
    money_rules[MONEY_RULES.base_rate:MONEY_RULES.base_rate + len(rows)] = [
        model.base_rate(KIND_CODE[b.kind], BY_NAME[b.kind].axis_value(b.a, b.b)) for b in rows]
    field = getattr(strategies, "field", None)
    if len(strategies) > MAX_ENTRIES:
        raise UserError(f"at most {MAX_ENTRIES} profile entries, got {len(strategies)}")
    book[RULES.entries] = len(strategies) if field is not None or focal >= 0 else rules.players
    book[RULES.field] = 1 if field is not None else 0
    book[RULES.focal_entry] = focal
    if field is not None:
        money_rules[MONEY_RULES.field_mix:MONEY_RULES.field_mix + len(field.weights)] = field.cumulative()
    if distilled is None:
        found = shipped_distilled(rules)
        distilled = ev_weights(rules) if found is None else found[0]
    money_rules[MONEY_RULES.distilled_weights:MONEY_RULES.distilled_weights + CANDIDATE_FEATURES.size] = distilled
    book[RULES.mc_keep] = MC_KEEP
    book[RULES.mc_self_policy] = BETTING[mc_self]
    book[RULES.mc_any] = 1 if any(st.betting == "mc" for st in strategies) else 0
    money_rules[MODEL_START:] = model.p
    precompute_best(book, money_rules)
    book[RULES.net_at] = book[RULES.net_scratch] = -1
    if uses_net(strategies, mc_self):
        money, money_rules = append_net(rules, book, money, money_rules, find_net(rules) if net is None else net)
    game_state = bind(game_state, book, money_rules)
    for e, st in enumerate(strategies):
        set_entry(game_state, e, st)
    return board, game_state, money
