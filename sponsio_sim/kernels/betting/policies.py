"""Betting policies: which action a seat takes in the betting phase.

- ``troll``: always passes (holds no bet, so plays as a troll).
- ``random``: passes with a fixed share, else a uniformly random legal
  action (every bet row, token and payment, and hand/talon exchange counts
  as one action); at the end of betting uses its tokens at random.
- ``ev``: values its position as the model's expected payout of its bets
  (``betting.model``) and takes the action that raises it most, if by more
  than its threshold (coins): a bet (EV = P x multiplier x stake - stake,
  less the troll pay it gives up when it is its first bet) or a token (lead:
  the bets' gain from leading; double: the best bet's expected payout;
  rebet: the best change of parameter; swap: the best exchange), paid by
  revealing a card when it can, else in coins. Exchanges (and the swap
  token) are weighed on turns where no bet beats the threshold: it bets
  first and spends its other turns improving the hand for its bets.

A strategy may ban bet types (restricted play, ``without=KIND``): its
policy then never places a bet of those types.

Policies see only public information and their own hand (docs/rules-sponsio.md section 8).
"""

import numba as nb
import numpy as np

from tabletop_mc.jit import no_refcount
from tabletop_mc.rng import randbelow, uniform
from sponsio_sim.kernels.betting.phase import bet_legal, betting_place, entry_of, leader_of, token_free
from sponsio_sim.kernels.betting.model import (colour_features, kind_best, prepare_features, row_prob,
                                               sure_mask, total_features)
from sponsio_sim.kernels.bits import RANKS, U0, U1, lowest, popcount, select
from sponsio_sim.bet_kinds import FAIL
from sponsio_sim.betting_policies import BET_DISTILLED, BET_EV, BET_MC, BET_NET, BET_RANDOM, BET_TROLL
from sponsio_sim.kernels.layout import (BET, BOARD, DOUBLE_TOKEN, GAME, LEAD_TOKEN, MAX_BETS, MONEY, MONEY_RULES,
                                        N_KINDS, N_TOKENS, PASS, REBET_TOKEN, RULES, SWAP, SWAP_TOKEN, TOKEN)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of

NO_GAIN = -1e300


@nb.njit(cache=True, inline="always")
def allowed_kind(s, kind, game_state):
    """Seat s's strategy may place bets of ``kind`` (restricted play bans some)."""
    rules = rules_of(game_state)
    return (rules[RULES.banned_kinds + entry_of(s, game_state)] >> kind) & 1 == 0


@nb.njit(cache=True, inline="always")
def may_bet(s, row, game_state, money):
    """A legal bet that seat s's strategy allows."""
    rules = rules_of(game_state)
    return bet_legal(s, row, game_state, money) and allowed_kind(s, rules[RULES.catalogue + 3 * row], game_state)


@nb.njit(cache=True, inline="always")
def cheap_card(mask):
    """The lowest-ranked card of ``mask`` (what a seat least minds showing)."""
    best = -1
    m = mask
    while m:
        c = lowest(m)
        m &= m - U1
        if best < 0 or c % RANKS < best % RANKS:
            best = c
    return best


@nb.njit(cache=True, inline="always")
def payment(s, rv, board, game_state, money):
    """How seat s pays for a token after revealing ``rv``: (card to reveal or
    -1 for coins, coin cost), or (-2, 0) when it cannot pay."""
    money_rules = money_rules_of(game_state)
    rest = board[BOARD.hands + s] & ~board[BOARD.revealed] & ~(U1 << np.uint64(rv))
    if rest != U0:
        return cheap_card(rest), 0.0
    if money[MONEY.coins + s] >= money_rules[MONEY_RULES.token_cost]:
        return -1, money_rules[MONEY_RULES.token_cost]
    return -2, 0.0


@no_refcount
def held_value(s, game_state, money):
    """Model expected payout of seat s's bets (features prepared for its hand)."""
    money_rules = money_rules_of(game_state)
    v = 0.0
    for i in range(game_state[GAME.bet_count + s]):
        row = game_state[GAME.bet_row + s * MAX_BETS + i]
        m = money_rules[MONEY_RULES.multiplier + row] * money_rules[MONEY_RULES.stake]
        if game_state[GAME.doubled_bet + s] == i:
            m *= 2.0
        v += row_prob(row, s, game_state, money) * m
    return v


@no_refcount
def best_swap(s, lead, board, game_state, money):
    """(gain, hand card, talon card) of the exchange that raises seat s's
    held value most; features are left prepared for the current hand."""
    hand = board[BOARD.hands + s]
    talon = board[BOARD.talon]
    best = NO_GAIN
    bx = -1
    by = -1
    if game_state[GAME.bet_count + s] > 0 and talon != U0:
        cur = held_value(s, game_state, money)
        runs = sure_mask(hand, talon, board, game_state)
        seen = 0
        mx = hand
        while mx:
            x = lowest(mx)
            mx &= mx - U1
            # hand cards that differ only in rank below the top run are one choice:
            # the model sees colour, top-run membership, rank 7+ and 9s only
            bxm = U1 << np.uint64(x)
            key = (x // RANKS) * 8 + (4 if (runs & bxm) != U0 else 0) + min(x % RANKS // 6, 1) * 2 \
                + (1 if x % RANKS == RANKS - 1 else 0)
            if (seen >> key) & 1:
                continue
            seen |= 1 << key
            my = talon
            while my:
                y = lowest(my)
                my &= my - U1
                bxy = (U1 << np.uint64(x)) | (U1 << np.uint64(y))
                cx = x // RANKS
                cy = y // RANKS
                colour_features(cx, hand ^ bxy, talon ^ bxy, board, game_state)
                colour_features(cy, hand ^ bxy, talon ^ bxy, board, game_state)
                total_features(hand ^ bxy, talon ^ bxy, board, game_state)
                g = held_value(s, game_state, money) - cur
                colour_features(cx, hand, talon, board, game_state)
                colour_features(cy, hand, talon, board, game_state)
                if g > best:
                    best = g
                    bx = x
                    by = y
        prepare_features(hand, talon, lead, betting_place(s, game_state), board, game_state)
    return best, bx, by


@no_refcount
def best_rebet(s, game_state, money):
    """(gain, bet index, new row) of the best change of one bet's parameter."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    best = NO_GAIN
    bi = -1
    brow = -1
    for i in range(game_state[GAME.bet_count + s]):
        row = game_state[GAME.bet_row + s * MAX_BETS + i]
        v, r = kind_best(rules[RULES.catalogue + 3 * row], s, game_state, money)
        if r == row:
            continue
        dbl = 2.0 if game_state[GAME.doubled_bet + s] == i else 1.0
        g = ((v - row_prob(row, s, game_state, money) * money_rules[MONEY_RULES.multiplier + row]) * dbl
             * money_rules[MONEY_RULES.stake])
        if g > best:
            best = g
            bi = i
            brow = r
    return best, bi, brow


@no_refcount
def best_double(s, game_state, money):
    """(expected extra payout, bet index) of doubling seat s's best bet."""
    money_rules = money_rules_of(game_state)
    best = NO_GAIN
    bi = -1
    for i in range(game_state[GAME.bet_count + s]):
        row = game_state[GAME.bet_row + s * MAX_BETS + i]
        g = (row_prob(row, s, game_state, money) * money_rules[MONEY_RULES.multiplier + row]
             * money_rules[MONEY_RULES.stake])
        if g > best:
            best = g
            bi = i
    return best, bi


@nb.njit(cache=True, inline="always")
def troll_income(s, game_state, money):
    """Troll pay seat s expects from the bets already on the table."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    players = rules[RULES.players]
    fails = 0.0
    for t in range(players):
        if t != s:
            for i in range(game_state[GAME.bet_count + t]):
                fails += 1.0 - money_rules[MONEY_RULES.base_rate + game_state[GAME.bet_row + t * MAX_BETS + i]]
    return fails * money_rules[MONEY_RULES.troll_pay]


@no_refcount
def token_gain(s, t, swap_gain, game_state, money):
    """The model's gain for seat s (holding bets, features prepared) of token
    ``t``: lead, the bets' gain from leading; double, the best bet's expected
    payout; rebet, the best change of parameter; swap, ``swap_gain``."""
    if t == LEAD_TOKEN:
        cur = held_value(s, game_state, money)
        game_state[GAME.leads] = 1
        g = held_value(s, game_state, money) - cur
        game_state[GAME.leads] = 0
        return g
    if t == DOUBLE_TOKEN:
        return best_double(s, game_state, money)[0]
    if t == REBET_TOKEN:
        return best_rebet(s, game_state, money)[0]
    return swap_gain


@no_refcount
def choose_ev(s, board, game_state, money):
    """The ``ev`` policy (module docstring)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    hand = board[BOARD.hands + s]
    unrev = hand & ~board[BOARD.revealed]
    if unrev == U0:
        return PASS, -1, -1, -1
    lead = leader_of(game_state) == s
    prepare_features(hand, board[BOARD.talon], lead, betting_place(s, game_state), board, game_state)
    best = money_rules[MONEY_RULES.ev_threshold + entry_of(s, game_state)]
    act, bx, by = PASS, -1, -1
    stake = money_rules[MONEY_RULES.stake]
    nbets = game_state[GAME.bet_count + s]
    forgone = troll_income(s, game_state, money) if nbets == 0 else 0.0
    if money[MONEY.coins + s] > 0 and money[MONEY.coins + s] >= stake:
        for kind in range(N_KINDS):
            if (rules[RULES.kind_first_row + kind] >= 0 and (game_state[GAME.kinds_held + s] >> kind) & 1 == 0
                    and allowed_kind(s, kind, game_state)):
                v, row = kind_best(kind, s, game_state, money)
                g = v * stake - stake - forgone
                if row >= 0 and g > best:
                    best, act, bx = g, BET, row
    rv = cheap_card(unrev)
    g = NO_GAIN
    if act == PASS:  # no bet worth its stake left: use the turn to improve the hand
        g, x, y = best_swap(s, lead, board, game_state, money)
        if g > best:
            best, act, bx, by = g, SWAP, x, y
    if nbets > 0:
        pay, cost = payment(s, rv, board, game_state, money)
        if pay > -2:
            for t in range(N_TOKENS):
                if not token_free(t, game_state):
                    continue
                if t == LEAD_TOKEN and lead:
                    continue
                tg = token_gain(s, t, g, game_state, money)
                if tg - cost > best:
                    best, act, bx, by = tg - cost, TOKEN, t, pay
    if act == SWAP and (unrev & (U1 << np.uint64(bx))) != U0:
        rv = bx  # show the card that is given away anyway
    return act, bx, by, rv


@no_refcount
def choose_random(s, board, game_state, money, state):
    """The ``random`` policy (module docstring)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    hand = board[BOARD.hands + s]
    unrev = hand & ~board[BOARD.revealed]
    if unrev == U0 or uniform(state) < money_rules[MONEY_RULES.pass_share + entry_of(s, game_state)]:
        return PASS, -1, -1, -1
    n_unrev = popcount(unrev)
    rv = select(unrev, randbelow(state, n_unrev))
    n_bets = 0
    for row in range(rules[RULES.catalogue_rows]):
        if may_bet(s, row, game_state, money):
            n_bets += 1
    coin_ok = money[MONEY.coins + s] >= money_rules[MONEY_RULES.token_cost]
    per_token = (1 if coin_ok else 0) + (1 if n_unrev > 1 else 0)
    n_free = 0
    for t in range(N_TOKENS):
        if token_free(t, game_state):
            n_free += 1
    talon = board[BOARD.talon]
    n_swaps = popcount(hand) * popcount(talon)
    total = n_bets + n_free * per_token + n_swaps
    if total == 0:
        return PASS, -1, -1, -1
    k = randbelow(state, total)
    if k < n_bets:
        for row in range(rules[RULES.catalogue_rows]):
            if may_bet(s, row, game_state, money):
                if k == 0:
                    return BET, row, -1, rv
                k -= 1
    k -= n_bets
    if k < n_free * per_token:
        ti = k // per_token
        by_reveal = (k % per_token == 1) or not coin_ok
        for t in range(N_TOKENS):
            if token_free(t, game_state):
                if ti == 0:
                    pay = -1
                    if by_reveal:
                        rest = unrev & ~(U1 << np.uint64(rv))
                        pay = select(rest, randbelow(state, popcount(rest)))
                    return TOKEN, t, pay, rv
                ti -= 1
    k -= n_free * per_token
    nt = popcount(talon)
    return SWAP, select(hand, k // nt), select(talon, k % nt), rv


@no_refcount
def choose_end_token(s, t, board, game_state, money, state, scored):
    """How seat s uses token ``t`` when betting ends: (x, y), or (-1, -1) for
    no use. swap: (hand card, talon card); rebet: (bet index, new row);
    double: (bet index, -1). ``scored``: ``betting.dispatch.choose_action``'s
    (None: ``random``'s use is compiled out)."""
    pol = game_state[GAME.betting_policy + entry_of(s, game_state)]
    if pol == BET_EV or pol == BET_DISTILLED or pol == BET_NET:   # distilled and net use their tokens as ev does
        return ev_end_token(s, t, board, game_state, money)
    if pol == BET_RANDOM:
        if scored is not None:
            return random_end_token(s, t, board, game_state, money, state)
        raise ValueError("choose_end_token: a scored betting policy in a run compiled without them (scored_in_play)")
    if pol == BET_TROLL:   # holds no token: it never pays for one
        return -1, -1
    if pol == BET_MC:
        raise ValueError("choose_end_token: an mc seat decides by its search (betting.mc), or bets by ev in one")
    raise ValueError("unknown betting policy")


@no_refcount
def ev_end_token(s, t, board, game_state, money):
    """``ev``'s use of token ``t`` when betting ends (``choose_end_token``)."""
    prepare_features(board[BOARD.hands + s], board[BOARD.talon], leader_of(game_state) == s,
                     betting_place(s, game_state), board, game_state)
    if t == SWAP_TOKEN:
        g, x, y = best_swap(s, leader_of(game_state) == s, board, game_state, money)
        return (x, y) if g > 0.0 else (-1, -1)
    if t == REBET_TOKEN:
        g, i, row = best_rebet(s, game_state, money)
        return (i, row) if g > 0.0 else (-1, -1)
    if t == DOUBLE_TOKEN:
        return best_double(s, game_state, money)[1], -1
    return -1, -1


@no_refcount
def random_end_token(s, t, board, game_state, money, state):
    """``random``'s use of token ``t`` when betting ends (``choose_end_token``)."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    nbets = game_state[GAME.bet_count + s]
    if t == DOUBLE_TOKEN:
        return (randbelow(state, nbets), -1) if nbets > 0 else (-1, -1)
    if uniform(state) < money_rules[MONEY_RULES.pass_share + entry_of(s, game_state)]:
        return -1, -1
    if t == SWAP_TOKEN:
        hand = board[BOARD.hands + s]
        talon = board[BOARD.talon]
        if talon == U0:
            return -1, -1
        return select(hand, randbelow(state, popcount(hand))), select(talon, randbelow(state, popcount(talon)))
    if t == REBET_TOKEN and nbets > 0:
        i = randbelow(state, nbets)
        row = game_state[GAME.bet_row + s * MAX_BETS + i]
        kind = rules[RULES.catalogue + 3 * row]
        first = rules[RULES.kind_first_row + kind]
        r = first
        n_alt = 0
        while r < rules[RULES.catalogue_rows] and rules[RULES.catalogue + 3 * r] == kind:
            if r != row and not (kind == FAIL and rules[RULES.catalogue + 3 * r + 1] == s):
                n_alt += 1
            r += 1
        if n_alt == 0:
            return -1, -1
        k = randbelow(state, n_alt)
        r = first
        while True:
            if r != row and not (kind == FAIL and rules[RULES.catalogue + 3 * r + 1] == s):
                if k == 0:
                    return i, r
                k -= 1
            r += 1
    return -1, -1
