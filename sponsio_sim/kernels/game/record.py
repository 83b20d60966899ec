"""Per-game statistics of the full game: what a finished round and a finished
game add to a chunk's row (layout ``game.layout.S_*``, ``E_*``, ``R_*``)."""


from tabletop_mc.jit import no_refcount
from sponsio_sim.kernels.betting.phase import entry_of
from sponsio_sim.kernels.game.layout import (G_COMEBACK, G_FOCAL, G_FOCAL_SQ, G_LEADCH, G_LEADCH_SQ, G_RHIST, G_SIZE,
                                             I_FOCAL_SEAT, I_LAST_R1, I_LEADCH, I_NENTRIES, SEAT_COINS, SEAT_COINS_SQ,
                                             SEAT_SHARE, SEAT_SHARE_SQ, SEAT_SIZE, SEAT_WIN, I_LEADERS, MAX_FAILED,
                                             MAX_ROUNDS_HIST, E_BETS, E_BONUS_N, E_CASH, E_CASH_N, E_COINS, E_COINS_SQ,
                                             E_GAMES, E_PAYOUT, E_PRED, E_ROUNDS, E_SHARE, E_SHARE_SQ, E_SIZE, E_STAKES,
                                             E_SWAPS, E_TOKENS, E_TRACKWIN, E_TROLL, E_TROLLPAY, E_TROLLPAY_SQ, E_WIN,
                                             E_WON, I_BET_ROW, I_DOUBLED, I_NBETS, I_PLAYERS, I_RESULT, I_ROUND, I_ROWS,
                                             I_SWAPS, I_TOKEN_TAKEN, I_TRACK, I_TRACK_WIN, MAX_BETS, MAX_ROWS, N_TOKENS,
                                             R_FIELDS, R_PAY, R_PAY_SQ, R_PLACED, R_PRED, R_WON, S_END, S_GAMES, S_HEAD,
                                             S_ROUNDS, S_ROUNDS_SQ, W_BONUSPAID, W_CASHED, W_COINS, W_MULT, W_PAYOUT,
                                             W_PRED, W_STAKE, W_STAKES, W_TROLLPAID)


@no_refcount
def record_round(game_state, money, n_failed, row):
    """Add the round's per-entry statistics, and per-seat bet statistics by
    catalogue row (placed, won, payout with ``double``), to ``row``."""
    players = game_state[I_PLAYERS]
    for s in range(players):
        e = S_HEAD + entry_of(s, game_state) * E_SIZE
        n = game_state[I_NBETS + s]
        if n == 0:
            tp = money[W_TROLLPAID + s]
            row[S_HEAD + game_state[I_NENTRIES] * E_SIZE + players * MAX_ROWS * R_FIELDS + n_failed] += 1.0
            row[e + E_TROLL] += 1.0
            row[e + E_TROLLPAY] += tp
            row[e + E_TROLLPAY_SQ] += tp * tp
        for i in range(n):
            brow = game_state[I_BET_ROW + s * MAX_BETS + i]
            kind = game_state[I_ROWS + 3 * brow]
            won = game_state[I_RESULT + s * MAX_BETS + i]
            row[e + E_BETS + kind] += 1.0
            row[e + E_WON + kind] += won
            row[e + E_PRED + kind] += money[W_PRED + s * MAX_BETS + i]
            r = S_HEAD + game_state[I_NENTRIES] * E_SIZE + (s * MAX_ROWS + brow) * R_FIELDS
            pay = 0.0
            if won:
                pay = money[W_MULT + brow] * money[W_STAKE] * (2.0 if game_state[I_DOUBLED + s] == i else 1.0)
            row[r + R_PLACED] += 1.0
            row[r + R_WON] += won
            row[r + R_PAY] += pay
            row[r + R_PAY_SQ] += pay * pay
            row[r + R_PRED] += money[W_PRED + s * MAX_BETS + i]
        row[e + E_PAYOUT] += money[W_PAYOUT + s]
        row[e + E_STAKES] += money[W_STAKES + s]
        if money[W_CASHED + s] > 0.0:
            row[e + E_CASH_N] += 1.0
            row[e + E_CASH] += money[W_CASHED + s]
        if money[W_BONUSPAID + s] > 0.0:
            row[e + E_BONUS_N] += 1.0
        for t in range(N_TOKENS):
            row[e + E_TOKENS + t] += game_state[I_TOKEN_TAKEN + s * N_TOKENS + t]
        row[e + E_SWAPS] += game_state[I_SWAPS + s]


@no_refcount
def track_standings(game_state, money):
    """After a round: who is richest (a lead change when none of the last
    round's richest still is) and, after round 1, who is poorest."""
    players = game_state[I_PLAYERS]
    hi = -1e300
    lo = 1e300
    for s in range(players):
        hi = max(hi, money[W_COINS + s])
        lo = min(lo, money[W_COINS + s])
    leaders = 0
    last = 0
    for s in range(players):
        if money[W_COINS + s] == hi:
            leaders |= 1 << s
        if money[W_COINS + s] == lo:
            last |= 1 << s
    if game_state[I_ROUND] == 1:
        game_state[I_LAST_R1] = last
    elif (leaders & game_state[I_LEADERS]) == 0:
        game_state[I_LEADCH] += 1
    game_state[I_LEADERS] = leaders


@no_refcount
def record_game(reason, winners, game_state, money, row):
    """Add a finished game's statistics to ``row``, its shape (``G_*``) included."""
    players = game_state[I_PLAYERS]
    rounds = float(game_state[I_ROUND])
    g = S_HEAD + game_state[I_NENTRIES] * E_SIZE + players * MAX_ROWS * R_FIELDS + MAX_FAILED   # layout.shape_head
    seats = g + G_SIZE                                                                   # layout.seat_head
    row[g + G_RHIST + min(game_state[I_ROUND], MAX_ROUNDS_HIST) - 1] += 1.0
    if winners & game_state[I_LAST_R1]:
        row[g + G_COMEBACK] += 1.0
    lc = float(game_state[I_LEADCH])
    row[g + G_LEADCH] += lc
    row[g + G_LEADCH_SQ] += lc * lc
    row[S_GAMES] += 1.0
    row[S_ROUNDS] += rounds
    row[S_ROUNDS_SQ] += rounds * rounds
    row[S_END + reason - 1] += 1.0
    n_win = 0
    for s in range(players):
        n_win += (winners >> s) & 1
    for s in range(players):
        e = S_HEAD + entry_of(s, game_state) * E_SIZE
        won = (winners >> s) & 1
        share = won / n_win
        c = money[W_COINS + s]
        row[e + E_WIN] += won
        row[e + E_SHARE] += share
        row[e + E_SHARE_SQ] += share * share
        row[e + E_COINS] += c
        row[e + E_COINS_SQ] += c * c
        row[e + E_ROUNDS] += rounds
        row[e + E_GAMES] += 1.0
        if game_state[I_TRACK + s] >= game_state[I_TRACK_WIN]:
            row[e + E_TRACKWIN] += 1.0
        b = seats + s * SEAT_SIZE
        row[b + SEAT_WIN] += won
        row[b + SEAT_SHARE] += share
        row[b + SEAT_SHARE_SQ] += share * share
        row[b + SEAT_COINS] += c
        row[b + SEAT_COINS_SQ] += c * c
        if s == game_state[I_FOCAL_SEAT]:
            row[g + G_FOCAL] += share
            row[g + G_FOCAL_SQ] += share * share
