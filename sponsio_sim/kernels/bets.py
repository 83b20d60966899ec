"""Bet settlement on a finished trick phase (docs/rules-sponsio.md section 4).

A bet is ``(kind, a, b, placed)`` with the kinds of ``sponsio_sim.bet_kinds``:
tricks (N, -), colour (C, N), last, nines, fail (S, -) with S = -1 for ``fail_target = any``;
``placed`` ranks the bets in the order they were placed (a cycle of fail
bets is broken at its earliest placed bet). The outcome of a trick phase is what
``play_tricks`` leaves in ``board`` and ``game_state`` (tricks and cards won, each
trick's winner) and ``nine_lost``, the bitmask of the seats that played a 9
that lost its trick.
"""

import numba as nb

from tabletop_mc.jit import no_refcount
from sponsio_sim.bet_kinds import COLOUR, FAIL, FIRST, LAST, NINES, TRICKS
from sponsio_sim.kernels.bits import U0, bit, popcount
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE
from sponsio_sim.kernels.rulebook import nines_own

BET_FIELDS = 4      # kind, a, b, placement rank
ANY_SEAT = -1       # the target of ``fail`` under ``fail_target = any``
PENDING = -1        # a fail bet not settled yet


@nb.njit(cache=True, inline="always")
def nines_won(seat, nine_lost, own):
    """A nines bet of ``seat``: every 9 played won its trick (``own``, ``nines_scope = own``: every 9
    seat played)."""
    if own:
        return (nine_lost >> seat) & 1 == 0
    return nine_lost == 0


@nb.njit(cache=True, inline="always")
def nine_bettors(codes, bcounts):
    """Bitmask of the seats holding a nines bet."""
    m = 0
    for s in range(bcounts.shape[0]):
        for i in range(bcounts[s]):
            if codes[s, i, 0] == NINES:
                m |= 1 << s
    return m


@nb.njit(cache=True, inline="always")
def counted_nines(codes, bcounts, hands, trick, leader, nines, own):
    """The 9s the solver judges nines bets on: every 9, or under
    ``nines_scope = own`` (``own``) those of the seats holding a nines bet
    (in their hands or already in the current ``trick``, led by ``leader``).
    Exact when at most one seat holds a nines bet."""
    if not own:
        return nines
    bettors = nine_bettors(codes, bcounts)
    players = bcounts.shape[0]
    m = U0
    for s in range(players):
        if (bettors >> s) & 1:
            m |= hands[s]
    for j in range(trick.shape[0]):
        if (bettors >> ((leader + j) % players)) & 1:
            m |= bit(trick[j])
    return m & nines


@nb.njit(cache=True, inline="always")
def bet_won(kind, a, b, seat, board, game_state, nine_lost):
    """Did seat's bet (kind, a, b) win? Any kind but ``fail``, which depends on
    other bets (``settle_fail_bets``). Reads the trick phase's outcome as
    ``play_tricks`` leaves it: tricks and cards won, each trick's winner,
    and ``nine_lost`` (seats whose 9 lost a trick). One branch per kind
    (``sponsio_sim.bet_kinds``)."""
    if kind == TRICKS:
        return game_state[TRICK_STATE.tricks_won + seat] == a
    if kind == COLOUR:
        return popcount(board[BOARD.won + seat] & board[BOARD.colour_masks + a]) == b
    if kind == LAST:
        return game_state[TRICK_STATE.winners + game_state[TRICK_STATE.n_played] - 1] == seat
    if kind == FIRST:
        return game_state[TRICK_STATE.winners] == seat
    if kind == NINES:
        return nines_won(seat, nine_lost, nines_own(game_state))
    if kind == FAIL:
        raise ValueError("bet_won: a fail bet is settled by settle_fail_bets")
    raise ValueError("unknown bet kind")


@nb.njit(cache=True, inline="always")
def bet_decided(kind, a, b, seat, players, board, game_state, nine_lost):
    """Is seat's bet (kind, a, b) settled, whatever the tricks left bring? Read at
    a trick boundary (``nine_lost`` as ``play_tricks`` keeps it). ``tricks`` and
    ``colour``: the count is past N or out of reach (a ``colour`` bet also once
    no card of its colour is left in a hand); ``first``: after the first trick;
    ``nines``: once a 9 it judges lost, or none of them is left in a hand.
    ``last`` and ``fail`` (settled on every other bet) wait for the end of the round."""
    if kind == TRICKS:
        won = game_state[TRICK_STATE.tricks_won + seat]
        return won > a or won + popcount(board[BOARD.hands + seat]) < a
    if kind == FIRST:
        return True
    if kind == LAST or kind == FAIL:
        return False
    held = U0
    for t in range(players):
        held |= board[BOARD.hands + t]
    if kind == COLOUR:
        cm = board[BOARD.colour_masks + a]
        got = popcount(board[BOARD.won + seat] & cm)
        rest = popcount(held & cm)
        return got > b or got + rest < b or rest == 0
    if kind == NINES:
        own = nines_own(game_state)
        if not nines_won(seat, nine_lost, own):
            return True
        if own:
            held = board[BOARD.hands + seat]
        return (held & board[BOARD.nine_cards]) == U0
    raise ValueError("unknown bet kind")


@nb.njit(cache=True, inline="always")
def fail_targets(s, a, players):
    """Seat mask a fail bet of seat s names: seat ``a``, or every other seat (``a < 0``)."""
    if a >= 0:
        return 1 << a
    return ((1 << players) - 1) & ~(1 << s)


@nb.njit(cache=True, inline="always")
def target_bets(s, a, counts, base, players):
    """Bets held by the seat(s) a fail bet of seat s names (seat t holds ``counts[base + t]``)."""
    if a >= 0:
        return counts[base + a]
    n = 0
    for t in range(players):
        if t != s:
            n += counts[base + t]
    return n


@no_refcount
def _pending_seats(counts, result):
    """Seat mask of the seats holding a bet not settled yet."""
    mask = 0
    for s in range(counts.shape[0]):
        for i in range(counts[s]):
            if result[s, i] == PENDING:
                mask |= 1 << s
    return mask


@no_refcount
def _waited_on(codes, counts, result, seats, pending):
    """Seat mask of the seats whose bets the pending fail bets of the ``seats`` wait on."""
    players = counts.shape[0]
    mask = 0
    for s in range(players):
        if (seats >> s) & 1:
            for i in range(counts[s]):
                if result[s, i] == PENDING:
                    mask |= fail_targets(s, codes[s, i, 1], players) & pending
    return mask


@no_refcount
def _on_cycle(codes, counts, result, s, i, pending):
    """Does seat s's pending fail bet i wait, directly or through other waiting bets, on itself?
    It waits on every pending bet of the seats it names, and those on theirs: it is on a
    cycle when that reaches back to a bet naming seat s."""
    reach = fail_targets(s, codes[s, i, 1], counts.shape[0]) & pending
    while True:
        more = reach | _waited_on(codes, counts, result, reach, pending)
        if (more >> s) & 1:
            return True
        if more == reach:
            return False
        reach = more


@nb.njit(cache=True, inline="always")
def settle_fail_bets(codes, counts, result, failed):
    """Settle the fail bets, marked ``PENDING`` in ``result``, once every other
    bet is settled and ``failed[s]`` says whether seat s lost one of them.

    docs/rules-sponsio.md section 4, "Settling fail bets": repeatedly settle every fail bet whose target
    has already failed a bet (won) or whose targets' bets are all settled (won
    if one failed, else lost); when only fail bets waiting on each other
    remain, the earliest placed bet *on a cycle* is lost and settling goes on.
    A bet that only waits on a cycle is never the one broken: it waits for its
    targets' bets like any other.
    """
    players = counts.shape[0]
    while True:
        progress = False
        waiting_any = False
        for s in range(players):
            for i in range(counts[s]):
                if result[s, i] != PENDING:
                    continue
                targets = fail_targets(s, codes[s, i, 1], players)
                hit = False
                waiting = False
                for t in range(players):
                    if (targets >> t) & 1:
                        if failed[t]:
                            hit = True
                        for j in range(counts[t]):
                            if result[t, j] == PENDING:
                                waiting = True
                if hit:
                    result[s, i] = 1
                    progress = True
                elif not waiting:
                    result[s, i] = 0
                    failed[s] = True
                    progress = True
                else:
                    waiting_any = True
        if not waiting_any:
            return
        if not progress:  # only waiting bets are left: break the cycle at its earliest placed bet
            pending = _pending_seats(counts, result)
            first_s, first_i, first_rank = -1, -1, 1 << 62
            for s in range(players):
                for i in range(counts[s]):
                    if (result[s, i] == PENDING and codes[s, i, 3] < first_rank
                            and _on_cycle(codes, counts, result, s, i, pending)):
                        first_s, first_i, first_rank = s, i, codes[s, i, 3]
            result[first_s, first_i] = 0
            failed[first_s] = True


@nb.njit(cache=True, inline="always")
def settle(codes, counts, board, game_state, nine_lost, result, failed):
    """Judge every seat's bets on the trick phase just played (``bet_won``).

    ``codes[s, i]`` / ``counts[s]`` hold the bets. Fills ``result[s, i]``
    (1 won, 0 lost) and ``failed[s]`` (seat s holds a bet and lost at least
    one); fail bets settle last, as ``settle_fail_bets`` says.
    """
    players = counts.shape[0]
    any_fail = False
    for s in range(players):
        failed[s] = False
        for i in range(counts[s]):
            kind = codes[s, i, 0]
            if kind == FAIL:
                result[s, i] = PENDING
                any_fail = True
                continue
            ok = bet_won(kind, codes[s, i, 1], codes[s, i, 2], s, board, game_state, nine_lost)
            result[s, i] = 1 if ok else 0
            if not ok:
                failed[s] = True
    if any_fail:
        settle_fail_bets(codes, counts, result, failed)


@no_refcount
def all_won(result, counts, seat):
    """True when seat holds bets and won every one."""
    if counts[seat] == 0:
        return False
    for i in range(counts[seat]):
        if result[seat, i] == 0:
            return False
    return True
