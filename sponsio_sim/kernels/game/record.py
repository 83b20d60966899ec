"""Per-game statistics of the full game: what a finished round and a finished
game add to a chunk's row (``kernels.layout.STATS_HEAD``, ``ENTRY_STATS``, ``ROW_STATS`` ...)."""


from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.betting.phase import entry_of
from sponsio_sim.kernels.layout import (ENTRY_STATS, GAME, MAX_BETS, MAX_FAILED, MAX_ROUNDS_HIST, MAX_ROWS, MONEY,
                                        MONEY_RULES, N_TOKENS, ROW_STATS, RULES, SEAT_STATS, SHAPE_STATS, STATS_HEAD)
from sponsio_sim.kernels.rulebook import money_rules_of, rules_of


@no_refcount
def record_round(game_state, money, n_failed, row):
    """Add the round's per-entry statistics, and per-seat bet statistics by
    catalogue row (placed, won, payout with ``double``), to ``row``."""
    rules = rules_of(game_state)
    money_rules = money_rules_of(game_state)
    players = rules[RULES.players]
    for s in range(players):
        e = STATS_HEAD.size + entry_of(s, game_state) * ENTRY_STATS.size
        n = game_state[GAME.bet_count + s]
        if n == 0:
            tp = money[MONEY.troll_paid + s]
            row[STATS_HEAD.size + rules[RULES.entries] * ENTRY_STATS.size + players * MAX_ROWS * ROW_STATS.size
                + n_failed] += 1.0
            row[e + ENTRY_STATS.troll_rounds] += 1.0
            row[e + ENTRY_STATS.troll_pay] += tp
            row[e + ENTRY_STATS.troll_pay_sq] += tp * tp
        for i in range(n):
            brow = game_state[GAME.bet_row + s * MAX_BETS + i]
            kind = rules[RULES.catalogue + 3 * brow]
            won = game_state[GAME.bet_won + s * MAX_BETS + i]
            row[e + ENTRY_STATS.bets + kind] += 1.0
            row[e + ENTRY_STATS.won + kind] += won
            row[e + ENTRY_STATS.predicted + kind] += money[MONEY.bet_p + s * MAX_BETS + i]
            r = STATS_HEAD.size + rules[RULES.entries] * ENTRY_STATS.size + (s * MAX_ROWS + brow) * ROW_STATS.size
            pay = 0.0
            if won:
                doubled = game_state[GAME.doubled_bet + s] == i
                pay = (money_rules[MONEY_RULES.multiplier + brow] * money_rules[MONEY_RULES.stake]
                       * (2.0 if doubled else 1.0))
            row[r + ROW_STATS.placed] += 1.0
            row[r + ROW_STATS.won] += won
            row[r + ROW_STATS.pay] += pay
            row[r + ROW_STATS.pay_sq] += pay * pay
            row[r + ROW_STATS.predicted] += money[MONEY.bet_p + s * MAX_BETS + i]
        row[e + ENTRY_STATS.payout] += money[MONEY.payout + s]
        row[e + ENTRY_STATS.stakes] += money[MONEY.stakes + s]
        if money[MONEY.cashed + s] > 0.0:
            row[e + ENTRY_STATS.cash_ins] += 1.0
            row[e + ENTRY_STATS.cash] += money[MONEY.cashed + s]
        if money[MONEY.bonus_paid + s] > 0.0:
            row[e + ENTRY_STATS.bonus_rounds] += 1.0
        for t in range(N_TOKENS):
            row[e + ENTRY_STATS.tokens + t] += game_state[GAME.token_taken + s * N_TOKENS + t]
        row[e + ENTRY_STATS.swaps] += game_state[GAME.swaps + s]


@no_refcount
def track_standings(game_state, money):
    """After a round: who is richest (a lead change when none of the last
    round's richest still is) and, after round 1, who is poorest."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    hi = -1e300
    lo = 1e300
    for s in range(players):
        hi = max(hi, money[MONEY.coins + s])
        lo = min(lo, money[MONEY.coins + s])
    leaders = 0
    last = 0
    for s in range(players):
        if money[MONEY.coins + s] == hi:
            leaders |= 1 << s
        if money[MONEY.coins + s] == lo:
            last |= 1 << s
    if game_state[GAME.round] == 1:
        game_state[GAME.last_after_round1] = last
    elif (leaders & game_state[GAME.leaders]) == 0:
        game_state[GAME.lead_changes] += 1
    game_state[GAME.leaders] = leaders


@no_refcount
def record_game(reason, winners, game_state, money, row):
    """Add a finished game's statistics to ``row``, its shape (``G_*``) included."""
    rules = rules_of(game_state)
    players = rules[RULES.players]
    rounds = float(game_state[GAME.round])
    g = (STATS_HEAD.size + rules[RULES.entries] * ENTRY_STATS.size + players * MAX_ROWS * ROW_STATS.size
         + MAX_FAILED)                    # layout.shape_head
    seats = g + SHAPE_STATS.size          # layout.seat_head
    row[g + SHAPE_STATS.rounds_hist + min(game_state[GAME.round], MAX_ROUNDS_HIST) - 1] += 1.0
    if winners & game_state[GAME.last_after_round1]:
        row[g + SHAPE_STATS.comebacks] += 1.0
    lc = float(game_state[GAME.lead_changes])
    row[g + SHAPE_STATS.lead_changes] += lc
    row[g + SHAPE_STATS.lead_changes_sq] += lc * lc
    row[STATS_HEAD.games] += 1.0
    row[STATS_HEAD.rounds] += rounds
    row[STATS_HEAD.rounds_sq] += rounds * rounds
    row[STATS_HEAD.ended + reason - 1] += 1.0
    n_win = 0
    for s in range(players):
        n_win += (winners >> s) & 1
    for s in range(players):
        e = STATS_HEAD.size + entry_of(s, game_state) * ENTRY_STATS.size
        won = (winners >> s) & 1
        share = won / n_win
        c = money[MONEY.coins + s]
        row[e + ENTRY_STATS.win] += won
        row[e + ENTRY_STATS.share] += share
        row[e + ENTRY_STATS.share_sq] += share * share
        row[e + ENTRY_STATS.coins] += c
        row[e + ENTRY_STATS.coins_sq] += c * c
        row[e + ENTRY_STATS.rounds] += rounds
        row[e + ENTRY_STATS.games] += 1.0
        if game_state[GAME.track + s] >= rules[RULES.track_win]:
            row[e + ENTRY_STATS.track_wins] += 1.0
        b = seats + s * SEAT_STATS.size
        row[b + SEAT_STATS.win] += won
        row[b + SEAT_STATS.share] += share
        row[b + SEAT_STATS.share_sq] += share * share
        row[b + SEAT_STATS.coins] += c
        row[b + SEAT_STATS.coins_sq] += c * c
        if s == game_state[GAME.focal_seat]:
            row[g + SHAPE_STATS.focal_share] += share
            row[g + SHAPE_STATS.focal_share_sq] += share * share
