"""Test helpers: build kernel inputs from card strings, play one deal; the
deals the double-dummy tests draw, and their check against minimax."""

import numpy as np

from sponsio_sim.analysis.dd import Question, solve
from sponsio_sim.bets import encode_table, parse_bet_set
from sponsio_sim.cards import card_name, format_cards, mask_of, parse_cards
from sponsio_sim.rules import load_rules
from sponsio_sim.kernels.play.tricks import play_tricks
from sponsio_sim.kernels.play.policies import build_relevance
from sponsio_sim.kernels.trickstate import new_state, set_round
from sponsio_sim.kernels.layout import BOARD, TRICK_STATE
from tabletop_mc.rng import new_state as new_rng

from sponsio_reference import bet_question, bet_tuple, start_trick


def play_deal(rules, hands, talon="", leader=0, policy=0, bets=None, seed=0):
    """Play a hand-made deal; return (tricks, won masks, last winner, nines_ok)."""
    tricks, won, last, nine_lost = play_deal_raw(rules, hands, talon, leader, policy, bets, seed)
    return tricks, won, last, nine_lost == 0


def play_deal_raw(rules, hands, talon="", leader=0, policy=0, bets=None, seed=0):
    """Play a hand-made deal; return (tricks, won masks, last winner, seats whose 9 lost as a bitmask)."""
    masks = np.array([mask_of(parse_cards(h, rules)) for h in hands], dtype=np.uint64)
    talon_mask = np.uint64(mask_of(parse_cards(talon, rules)))
    board, game_state, money = new_state(rules.n_colours, rules.kernel_flags)
    codes, counts = encode_table({s: parse_bet_set(b, rules, s) for s, b in (bets or {}).items()},
                                 rules.players)
    build_relevance(codes, counts, game_state)
    set_round(board, game_state, masks, talon_mask, np.uint64(0))
    policies = np.full(rules.players, policy, dtype=np.int64)
    last, nine_lost = play_tricks(rules.players, leader, policies, board, game_state, money, new_rng(seed), None, None)
    tricks = [int(x) for x in game_state[TRICK_STATE.tricks_won:TRICK_STATE.tricks_won + rules.players]]
    won = [int(x) for x in board[BOARD.won:BOARD.won + rules.players]]
    return tricks, won, int(last), int(nine_lost)


def write_outcome(board, game_state, rules, tricks, won=None, last=-1, first=-1):
    """Leave in ``board``/``game_state`` the outcome of a trick phase as ``play_tricks``
    would: ``tricks[s]`` won, ``won[s]`` the cards in seat s's tricks (card
    strings), ``last``/``first`` the winners of the last and first trick."""
    p = rules.players
    for s in range(p):
        game_state[TRICK_STATE.tricks_won + s] = tricks[s]
        board[BOARD.won + s] = mask_of(parse_cards((won or [""] * p)[s], rules))
    n = max(int(sum(tricks)), 1)
    game_state[TRICK_STATE.n_played] = n
    game_state[TRICK_STATE.winners:TRICK_STATE.winners + n] = -1
    game_state[TRICK_STATE.winners] = first
    game_state[TRICK_STATE.winners + n - 1] = last
    return board, game_state


def outcome(rules, tricks, won=None, last=-1, first=-1):
    """Fresh (board, game_state) holding a trick phase's outcome (``write_outcome``)."""
    board, game_state, _ = new_state(rules.n_colours, rules.kernel_flags)
    return write_outcome(board, game_state, rules, tricks, won, last, first)


# ---- deals for the double-dummy tests: card ids (``sponsio_reference``), hands sorted

def small_rules(players, hand):
    return load_rules(players=players, overrides={"hand_size": hand})


def deal_text(hands, rules):
    return " | ".join(format_cards(mask_of(h), rules) for h in hands)


def trick_text(trick, rules):
    """Cards in play order (format_cards would sort them)."""
    return " ".join(card_name(c, rules) for c in trick) or None


def masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)


def _deal(rng, cards, players, hand, mid_trick):
    """Hands of ``hand`` cards in order, a random leader, and with ``mid_trick`` the first cards of a trick."""
    hands = [sorted(cards[s * hand:(s + 1) * hand]) for s in range(players)]
    leader = rng.randrange(players)
    trick = start_trick(rng, hands, leader) if mid_trick else []
    return hands, leader, trick


def random_position(rng, players, hand, mid_trick):
    """(hands, leader, trick) from the whole deck."""
    return _deal(rng, rng.sample(range(players * 9), players * hand), players, hand, mid_trick)


def skewed_cards(rng, players, hand, two_upto=12):
    """(colours, cards): ``players * hand`` cards of two colours (more than
    ``two_upto`` cards: three), so that voids and long colours abound."""
    n_col = 4 if players == 4 else 3
    colours = rng.sample(range(n_col), 2 if players * hand <= two_upto else 3)
    return colours, rng.sample([c for c in range(n_col * 9) if c // 9 in colours], players * hand)


def skewed_position(rng, players, hand, mid_trick, two_upto=12):
    """(hands, leader, trick, colours) dealt from ``skewed_cards``."""
    colours, cards = skewed_cards(rng, players, hand, two_upto)
    return (*_deal(rng, cards, players, hand, mid_trick), colours)


def leaning_position(rng, players, hand, seat, mid_trick, high):
    """(hands, leader, trick, colours) from ``skewed_cards``: the seat draws
    its hand from the higher cards (``high``) or the lower ones more often
    than not; with ``high`` the others' hands lean towards few colours
    (voids to discard from), else they are dealt at random."""
    colours, cards = skewed_cards(rng, players, hand)
    sign = -1 if high else 1
    cards.sort(key=lambda c: sign * (c % 9 + rng.random() * rng.choice((2, 6, 12))))
    mine = rng.sample(cards[:2 * hand], hand)
    rest = [c for c in cards if c not in mine]
    if high:
        rest.sort(key=lambda c: (c // 9 + rng.random() * 1.5))
    else:
        rng.shuffle(rest)
    hands = []
    for s in range(players):
        if s == seat:
            hands.append(sorted(mine))
        else:
            hands.append(sorted(rest[:hand]))
            rest = rest[hand:]
    leader = rng.randrange(players)
    trick = start_trick(rng, hands, leader) if mid_trick else []
    return hands, leader, trick, colours


def assert_bets_match_minimax(rules, hands, leader, trick, seat, mine, others):
    """The solver's worst and best case of seat's bets ``mine`` (others' bets
    ``others``: {seat: [Bet]}) equal brute-force minimax's."""
    notation = ",".join(b.notation(rules) for b in mine)
    others_text = "; ".join(f"{s}:{','.join(b.notation(rules) for b in bs)}" for s, bs in others.items())
    df = solve(deal_text(hands, rules), Question(lead=leader, trick=trick_text(trick, rules), seat=seat,
               bets=notation, others=others_text or None), rules=rules).table
    table = {s: [bet_tuple(b) for b in bs] for s, bs in others.items()}
    table[seat] = [bet_tuple(b) for b in mine]
    assert bool(df["worst"].iloc[0]) == bet_question(hands, leader, seat, table, True, trick), notation
    assert bool(df["best"].iloc[0]) == bet_question(hands, leader, seat, table, False, trick), notation
