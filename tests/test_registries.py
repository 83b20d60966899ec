"""Every function that branches on a registry's codes names every code.

A registry is a table of codes the kernels branch on: the bet kinds
(``sponsio_sim.bet_kinds``), Sponsio's betting and card-play policies and
Circus Maximus's policies. For each, the functions that branch on its codes
(its extension checklist, ``CHECKLISTS``):

- name every code in a branch of their own (an ``if`` whose test only
  compares the code, ``kind == LAST or kind == FIRST`` naming both) and
  raise for a code they do not know, so that a new code missed anywhere
  fails here instead of running with another code's numbers;
- run, given each code, that code's branch (the plain Python body traced
  line by line), and, compiled by numba, raise for a code past the last;
- are all there is: any kernel function whose branches compare one value
  with two or more of the registry's codes is on the checklist.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher as Dispatcher

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Registry:
    name: str
    codes: dict[str, int]          # constant name -> code
    checklist: tuple[str, ...]     # "module.function" of every per-code function
    kernels: str                   # the kernel package scanned for dispatches
    aliases: dict[str, str]        # a code reached through another name's test (PIMC through HOOKED)


def _bet_kinds() -> Registry:
    from sponsio_sim import bet_kinds
    codes = {k.name.upper(): i for i, k in enumerate(bet_kinds.KINDS)}
    assert all(getattr(bet_kinds, n) == c for n, c in codes.items())
    return Registry("bet kinds", codes, checklist_of(bet_kinds, "sponsio_sim"), "sponsio_sim/kernels", {})


def _betting() -> Registry:
    from sponsio_sim import betting_policies
    codes = {f"BET_{p.name.upper()}": i for i, p in enumerate(betting_policies.POLICIES)}
    assert all(getattr(betting_policies, n) == c for n, c in codes.items())
    assert betting_policies.BETTING == {p.name: i for i, p in enumerate(betting_policies.POLICIES)}
    return Registry("betting policies", codes, checklist_of(betting_policies, "sponsio_sim"), "sponsio_sim/kernels",
                    {})


def _play() -> Registry:
    from sponsio_sim import play_policies
    from sponsio_sim.kernels.play import pimc
    codes = {p.name.upper(): p.code for p in play_policies.POLICIES} | {"PIMC": pimc.PIMC}
    return Registry("play policies", codes, checklist_of(play_policies, "sponsio_sim"),
                    "sponsio_sim/kernels", {"PIMC": "HOOKED"})


def _circus() -> Registry:
    from caesar_sim import strategy
    from caesar_sim.kernels import layout
    codes = {name.upper(): code for code, name in enumerate(strategy.POLICIES)}
    assert all(getattr(layout, n) == c for n, c in codes.items()) and layout.N_POLICIES == len(codes)
    return Registry("Circus policies", codes, checklist_of(strategy, "caesar_sim"), "caesar_sim/kernels", {})


def checklist_of(module, package: str) -> tuple[str, ...]:
    """The per-code functions a registry's docstring lists: lines
    ``- ``MODULE``: ``function`` (...), ``function`` ...`` (MODULE below ``package``)."""
    out = []
    for m in re.finditer(r"^\s*- ``([\w.]+)``: (.*?)(?=^\s*- ``|^\s*$|\Z)", module.__doc__, re.S | re.M):
        out += [f"{package}.{m.group(1)}.{fn}" for fn in re.findall(r"``(\w+)``", m.group(2))]
    assert out, f"no checklist in {module.__name__}'s docstring"
    return tuple(out)


def resolve(path: str):
    module, _, name = path.rpartition(".")
    return getattr(__import__(module, fromlist=[name]), name)


# ---- reading the branches from the source

def code_test(test: ast.expr, codes) -> tuple[str, set[str]] | None:
    """(subject, code names) when ``test`` only compares one value with codes
    (``x == A``, ``x == A or x == B``, ``x >= A`` for codes from A on); else None."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    subject, names = None, set()
    for p in parts:
        if isinstance(p, ast.BoolOp) and isinstance(p.op, ast.And) and len(p.values) == 2 \
                and re.fullmatch(r"\w+ is not None", ast.unparse(p.values[0])):
            p = p.values[1]   # a branch compiled only where a switch is given (a hooked play policy's context,
                              # the scored betting policies': ``betting.dispatch``)
        if not (isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], (ast.Eq, ast.GtE))
                and isinstance(p.comparators[0], ast.Name) and p.comparators[0].id in codes):
            return None
        s = ast.unparse(p.left)
        if subject not in (None, s):
            return None
        subject = s
        names.add(p.comparators[0].id)
    return subject, names


def branches(fn_node: ast.FunctionDef, names) -> list[tuple[set[str], int]]:
    """(code names, first line of the body) of every branch whose test only compares codes."""
    out = []
    for node in ast.walk(fn_node):
        if isinstance(node, ast.If):
            found = code_test(node.test, names)
            if found:
                out.append((found[1], node.body[0].lineno))
    return out


def source_node(fn) -> tuple[ast.FunctionDef, int]:
    """The function's ast node, and the line offset of its source in its file."""
    py = getattr(fn, "py_func", fn)
    src, first = inspect.getsourcelines(py)
    node = ast.parse(textwrap.dedent("".join(src))).body[0]
    return node, first - 1


def own_branches(reg: Registry, fn) -> dict[str, int]:
    """Code name -> the line (in the file) its branch starts at; asserts one branch per code."""
    node, offset = source_node(fn)
    names = set(reg.codes) | set(reg.aliases.values())
    seen: dict[str, int] = {}
    for found, line in branches(node, names):
        for n in found:
            assert n not in seen, f"{node.name}: code {n} has two branches"
            seen[n] = line + offset
    for code, alias in reg.aliases.items():
        if alias in seen:
            seen[code] = seen.pop(alias)
    missing = sorted(set(reg.codes) - set(seen))
    assert not missing, f"{node.name} has no branch of its own for {', '.join(missing)}"
    raises = [n for n in ast.walk(node) if isinstance(n, ast.Raise) and "unknown" in ast.unparse(n)]
    assert raises, f"{node.name}: no branch raises for an unknown code"
    return seen


def dispatches(reg: Registry) -> set[str]:
    """Every kernel function whose branches compare one value with two or more of the codes."""
    out = set()
    for path in sorted((ROOT / reg.kernels).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef):
                by_subject: dict[str, set[str]] = {}
                for sub in ast.walk(node):
                    if isinstance(sub, ast.If):
                        found = code_test(sub.test, set(reg.codes) | set(reg.aliases.values()))
                        if found:
                            by_subject.setdefault(found[0], set()).update(found[1])
                if any(len(v) > 1 for v in by_subject.values()):
                    out.add(f"{module}.{node.name}")
    return out


# ---- running a function's plain Python body, line by line

@contextmanager
def plain_python(stubs=None):
    """Every jitted function of the game packages runs as its plain Python
    version meanwhile (the kernel modules' globals are swapped), so that
    tracing a dispatch compiles nothing; ``stubs`` replaces functions by
    name (work a dispatch does not need, such as playing a whole round).
    Sponsio's rulebook is reached through a pointer in compiled code; here its
    arrays stand in (``analysis.game.setup.rulebook``)."""
    from sponsio_sim.analysis.game.setup import rulebook
    stubs = {"rules_of": lambda game_state: rulebook(game_state)[0],
             "money_rules_of": lambda game_state: rulebook(game_state)[1], **(stubs or {})}
    swapped = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(("sponsio_sim.kernels", "caesar_sim.kernels", "tabletop_mc")):
            continue
        for attr, value in list(vars(module).items()):
            # the bit tricks (LLVM intrinsics) and raw pointers have no plain Python version
            if attr in stubs:
                swapped.append((module, attr, value))
                setattr(module, attr, stubs[attr])
            elif isinstance(value, Dispatcher) and not value.py_func.__module__.endswith((".bits", ".ptr")):
                swapped.append((module, attr, value))
                setattr(module, attr, value.py_func)
    try:
        yield
    finally:
        for module, attr, value in swapped:
            setattr(module, attr, value)


def lines_run(fn, args, stubs=None) -> tuple[set[int], BaseException | None]:
    """Lines of ``fn``'s own body (its plain Python version, ``plain_python``)
    run on ``args``, and what it raised."""
    py = getattr(fn, "py_func", fn)
    code = py.__code__
    seen: set[int] = set()

    def tracer(frame, event, arg):
        if frame.f_code is code:
            if event == "line":
                seen.add(frame.f_lineno)
            return tracer
        return None

    error = None
    old = sys.gettrace()
    with plain_python(stubs), np.errstate(over="ignore", invalid="ignore", divide="ignore"):   # as compiled code
        sys.settrace(tracer)
        try:
            py(*args)
        except Exception as e:   # a branch that raises (fail in bet_won, say) is still its own branch
            error = e
        finally:
            sys.settrace(old)
    return seen, error


# ---- argument builders: each calls the function so that its dispatch sees ``code``

def _sponsio_state():
    from sponsio_sim.analysis.game.setup import bind
    from sponsio_sim.kernels.layout import GAME, MODEL_START, MONEY, RULES
    from sponsio_sim.kernels.trickstate import new_state
    board, ints0, _ = new_state(4)
    game_state = np.zeros(GAME.size, dtype=np.int64)
    game_state[:ints0.shape[0]] = ints0
    rules = np.zeros(RULES.size, dtype=np.int64)
    rules[RULES.players] = 4
    money_rules = np.zeros(MODEL_START + 4096, dtype=np.float64)
    return board, bind(game_state, rules, money_rules), np.zeros(MONEY.size, dtype=np.float64)


def _one_bet(kind, players=4, a=0, b=0):
    from sponsio_sim.kernels.bets import BET_FIELDS
    codes = np.zeros((players, 6, BET_FIELDS), dtype=np.int64)
    bcounts = np.zeros(players, dtype=np.int64)
    codes[0, 0, :3] = kind, a, b
    bcounts[0] = 1
    return codes, bcounts


def _ct_row(players=4, n_colours=4):
    from sponsio_sim.kernels.dd.core import tally_layout
    row = np.zeros(tally_layout(players, n_colours)[4], dtype=np.int64)
    row[tally_layout(players, n_colours)[3]] = -1
    return row


def _bet_kind_args(name: str, code: int):
    """Arguments that bring ``code`` to the function's per-kind branch."""
    from sponsio_sim.kernels.bits import colour_masks, nines_mask
    from sponsio_sim.kernels.trickstate import rel_at
    from sponsio_sim.kernels.layout import TRICK_STATE
    if name == "odds_rounds":   # counts every kind's slots each round: all codes in one call, or one unknown more
        from sponsio_sim.analysis.odds.query import kernel_args
        from sponsio_sim.kernels.contexts import trick_round
        from sponsio_sim.rules import load_rules
        from sponsio_sim.situation import build_situation
        sit = build_situation(load_rules(), "R9 R7 R2 B8 B5 G6 G1 Y3", "R1 B9 G4 Y7")
        conditions, query, policy, slots, n_stats, stop = kernel_args(sit, "random", "random")
        if code is not None:
            slots = np.append(slots, slots[-1])
        rnd = trick_round.py_func(query.n_colours, query.flags, np.zeros(4, dtype=np.uint64), query.codes,
                                  query.bcounts)
        players = query.bcounts.shape[0]
        return (1, conditions, query, policy, slots, np.full(4, -1, dtype=np.int64), rnd, conditions.pool.copy(),
                np.zeros(players, dtype=np.uint64), np.zeros(n_stats, dtype=np.int64))
    u0 = np.uint64(0)
    board, game_state, money = _sponsio_state()
    codes, bcounts = _one_bet(code)
    row = _ct_row()
    colmask = colour_masks(4)
    hands = np.zeros(4, dtype=np.uint64)
    i64 = np.int64
    if name in ("bet_won",):
        return code, 0, 0, 0, board, game_state, 0
    if name == "bet_decided":
        return code, 0, 0, 0, 4, board, game_state, 0
    if name == "goal_weights":
        game_state[TRICK_STATE.n_rel] = 1
        game_state[rel_at(0, 0, 0)] = code
        game_state[rel_at(0, 0, 4)] = 1
        return 0, 4, 8, u0, board, game_state, money
    if name == "_bet_verdict":
        return code, 0, 0, 0, row, 4, 2, u0, colmask, nines_mask(4)
    if name == "_clash":
        return codes, bcounts, 0, row, -1, 2, 0
    if name == "bet_extra_keys":
        return codes, bcounts, i64(1), row, 4, 4, 0, u0, nines_mask(4), False
    if name == "family_field":
        return (code,)
    if name == "desire":
        return codes, bcounts, 0, row, 4, 4, 2
    if name == "frozen_bets":
        return codes, bcounts, 0, row, 4, 4
    if name == "coop_bound":
        return codes, bcounts, 0, row, hands, 4, 2, colmask
    if name == "bet_room":
        return codes, bcounts, 0, row, 4, 4
    if name == "cell_of":
        return code, 0, 0, 0, game_state
    if name == "kind_best":
        return code, 0, game_state, money
    raise AssertionError(f"no argument builder for {name}: add one")


def _betting_args(name: str, code: int):
    from sponsio_sim.kernels.layout import DOUBLE_TOKEN, GAME
    board, game_state, money = _sponsio_state()
    game_state[GAME.betting_policy] = code
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    if name == "choose_action":     # scored policies compiled in (``betting.dispatch``)
        return 0, board, game_state, money, rng, True
    if name == "choose_end_token":
        return 0, DOUBLE_TOKEN, board, game_state, money, rng, True
    raise AssertionError(f"no argument builder for {name}: add one")


def _play_args(name: str, code: int):
    from sponsio_sim.kernels.layout import BOARD
    board, game_state, money = _sponsio_state()
    from sponsio_sim.kernels.play.pimc import PIMC
    for s in range(4):                     # three cards of colour s each: every seat has a choice
        board[BOARD.hands + s] = np.uint64(0b111) << np.uint64(9 * s)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    policy = np.full(4, code, dtype=np.int64)
    if name == "play_scripted":   # a context for PIMC (its hook runs only compiled: reaching it is enough)
        return 4, 0, policy, board, game_state, money, rng, object() if code == PIMC else None, None, None
    raise AssertionError(f"no argument builder for {name}: add one")


def _circus_args(name: str, code: int):
    from caesar_sim.kernels.contexts import GamePtrs
    from caesar_sim.kernels.layout import ACTIONS, LOG_FIELDS, SCRATCH, STATE, STATS
    from caesar_sim.profile import policy_weights
    from caesar_sim.rules import kernel_rules, load_rules
    rulebook = kernel_rules(load_rules(), 4)
    game_state = np.zeros(STATE.size, dtype=np.int64)
    game_state[STATE.players] = 4
    game_state[STATE.policy] = code

    if name == "fast_action":   # plain Python: arrays stand in for the kernels' pointers
        return (GamePtrs(rulebook, policy_weights(), game_state, np.zeros(SCRATCH.size), np.zeros(ACTIONS.size, np.int64),
                         np.array([1, 2, 3, 4], np.uint64), np.zeros(LOG_FIELDS, np.int64), np.zeros(STATS.size)), 0, code)
    if name == "takes_at_random":
        return (code,)
    raise AssertionError(f"no argument builder for {name}: add one")


LOOPS = {"odds_rounds"}   # functions that run every code's branch in one call (``code`` None)
# work a dispatch does not need: the round before odds_rounds counts it (an empty trick phase is counted)
STUBS = {"odds_rounds": {"deal": lambda *a: np.uint64(0), "set_round": lambda *a: None,
                         "play_borrowed": lambda *a: (0, 0), "settle": lambda *a: None}}


REGISTRIES = {"bet kinds": (_bet_kinds, _bet_kind_args), "betting policies": (_betting, _betting_args),
              "play policies": (_play, _play_args), "Circus policies": (_circus, _circus_args)}


@pytest.mark.parametrize("which", list(REGISTRIES))
def test_every_code_reaches_its_own_branch(which):
    make, args_for = REGISTRIES[which]
    reg = make()
    assert dispatches(reg) <= set(reg.checklist), \
        f"{reg.name}: not on the checklist: {sorted(dispatches(reg) - set(reg.checklist))}"
    for path in reg.checklist:
        fn = resolve(path)
        own = own_branches(reg, fn)
        name = path.rpartition(".")[2]
        if name in LOOPS:
            ran, error = lines_run(fn, args_for(name, None), STUBS.get(name))
            assert error is None, f"{path}: {error!r}"
            assert all(line in ran for line in own.values()), f"{path}: a code did not reach its branch"
        for code_name, code in reg.codes.items():
            if name in LOOPS:
                continue
            ran, error = lines_run(fn, args_for(name, code), STUBS.get(name))
            assert own[code_name] in ran, f"{path}: code {code_name} did not reach its branch ({error!r})"
            others = {n for n, line in own.items() if line in ran and line != own[code_name]}
            assert not others, f"{path}: code {code_name} also ran the branch of {sorted(others)}"
        unknown = max(reg.codes.values()) + 1
        args = args_for(name, unknown)
        _, error = lines_run(fn, args, STUBS.get(name))
        assert isinstance(error, ValueError) and "unknown" in str(error), f"{path}: {error!r}"


def test_play_policy_checklist_steps_hold():
    """The numbered steps of ``sponsio_sim.play_policies``' checklist around the per-policy function: the
    rows' codes are the kernels' names, each below ``HOOKED`` (PIMC's), every layer reads the one
    table of names, and docs/sponsio-games.md names each policy."""
    from sponsio_sim import play_policies
    from sponsio_sim.analysis.game import strategy
    from sponsio_sim.analysis.odds import job
    from sponsio_sim.kernels.play import pimc, policies, tricks
    from sponsio_sim.cli.odds import odds_hand_cmd
    assert "Adding a play policy" in play_policies.__doc__
    codes = sorted(p.code for p in play_policies.POLICIES)
    assert codes == list(range(tricks.HOOKED)) and pimc.PIMC == tricks.HOOKED, (
        f"step 1: the rows' codes {codes} must be 0..HOOKED-1 and PIMC's code HOOKED (HOOKED = {tricks.HOOKED}): "
        f"raise HOOKED in kernels/play/tricks.py when a policy is added")
    for p in play_policies.POLICIES:
        assert getattr(policies, p.name.upper(), None) == p.code, (
            f"step 1: kernels/play/policies.py has no {p.name.upper()} = {p.code}")
        assert f"``{p.name}``" in policies.__doc__, (
            f"step 1: the docstring of kernels/play/policies.py does not name ``{p.name}``")
    assert strategy.PLAY is play_policies.PLAY and job.PLAY_POLICIES is play_policies.PLAY
    policy_help = next(o.help for o in odds_hand_cmd.params if o.name == "policy")
    texts = {"step 3: analysis/game/strategy.py's STRATEGY_HELP": strategy.STRATEGY_HELP,
             "step 3: analysis/game/strategy.py's docstring": strategy.__doc__,
             "step 3: --policy's help in cli/odds.py": policy_help,
             "the docs step: docs/sponsio-games.md": (ROOT / "docs" / "sponsio-games.md").read_text(),
             "the docs step: docs/sponsio-odds.md": (ROOT / "docs" / "sponsio-odds.md").read_text()}
    missing = [f"{where} does not name {p.name}" for where, text in texts.items() for p in play_policies.POLICIES
               if not re.search(rf"\b{p.name}\b", text)]
    assert not missing, "; ".join(missing)


def test_circus_policy_checklist_steps_hold():
    """The numbered steps of ``caesar_sim.strategy``'s checklist around the per-policy functions: every
    policy has its code (``N_POLICIES`` of them, ``POLICIES`` in code order), parses, is in ``HELP`` and in the
    list of strategies per seat in docs/caesar.md."""
    from caesar_sim import strategy
    from caesar_sim.kernels import layout
    assert "Adding a Circus policy" in strategy.__doc__
    assert layout.N_POLICIES == len(strategy.POLICIES)
    page = (ROOT / "docs" / "caesar.md").read_text()
    listing = page[page.index("## `caesar`: Circus Maximus"):].split("\n\n")[1]
    for code, name in enumerate(strategy.POLICIES):
        assert getattr(layout, name.upper()) == code
        assert strategy.parse_strategy(name, 4).code == code
        assert name in strategy.HELP, f"{name}: not in strategy.HELP"
        assert f"`{name}" in listing, f"{name}: not in docs/caesar.md's strategies per seat"


COMPILED = [  # compiled by numba, inlined or not, an unknown code raises too (cheap ones: compiling costs)
    ("sponsio_sim.kernels.bets.bet_won", _bet_kind_args),
    ("sponsio_sim.kernels.betting.model.cell_of", _bet_kind_args),
    ("sponsio_sim.kernels.dd.goals._bet_verdict", _bet_kind_args),
    ("caesar_sim.kernels.play.items.takes_at_random", _circus_args),
]


@pytest.mark.parametrize("path,args_for", COMPILED, ids=[p.rpartition(".")[2] for p, _ in COMPILED])
def test_compiled_kernels_raise_for_an_unknown_code(path, args_for):
    fn = resolve(path)
    with pytest.raises(ValueError, match="unknown"):
        fn(*args_for(path.rpartition(".")[2], 99))


@pytest.mark.parametrize("module", ["sponsio_sim.bet_kinds", "sponsio_sim.betting_policies"])
def test_the_architecture_points_to_each_checklist(module):
    """A registry's checklist is its module's docstring (the functions the tests above drive); the
    recipe in ARCHITECTURE.md names the module, and the docstring names every module of the checklist."""
    import importlib
    guide = (ROOT / "ARCHITECTURE.md").read_text()
    assert f"`{module.replace('.', '/')}.py`" in guide
    registry = importlib.import_module(module)
    listed = {path.rpartition(".")[0] for path in checklist_of(registry, "sponsio_sim")}
    assert all(importlib.import_module(m) for m in listed)
