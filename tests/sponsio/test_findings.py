"""The report's generated sentences: claims only where the interval says so."""

import numpy as np
import pandas as pd

from sponsio_sim.analysis.findings import exploit_findings, rtp_verdict, strong_seat_finding, verdicts_under_both


def kinds(rows):
    """A balance ``kinds`` table from (type, placed, rtp, half-width of its interval)."""
    return pd.DataFrame([{"type": t, "placed": n, "multiplier": 2.0, "rtp": r, "ev_low": r - 1 - h,
                          "ev_high": r - 1 + h} for t, n, r, h in rows])


def test_rtp_verdicts_follow_the_interval():
    k = kinds([("a", 100, 1.5, 0.1), ("b", 100, 0.5, 0.1), ("c", 100, 1.0, 0.05), ("d", 100, 1.1, 0.05),
               ("e", 0, np.nan, np.nan), ("f", 5, 2.0, np.nan)])
    assert [rtp_verdict(r) for _, r in k.iterrows()] == ["over-paid", "under-paid", "in band", "no evidence",
                                                         "not placed", "too few bets"]


def test_verdicts_under_both_say_which_hold_and_which_move():
    ref = kinds([("tricks", 1000, 1.6, 0.02), ("colour", 1000, 3.4, 0.02), ("nines", 1000, 1.0, 0.02)])
    other = kinds([("tricks", 500, 1.5, 0.03), ("colour", 500, 1.0, 0.05), ("nines", 500, 1.12, 0.1)])
    df, text = verdicts_under_both(ref, other, "the reference profile", "mc x4")
    assert list(df["verdict_other"]) == ["over-paid", "in band", "no evidence"]
    assert "2 of the 3" not in text and "Of the 3 bet types" in text and "1 keep it" in text
    assert "colour goes from over-paid to in band (RTP 3.40 [3.38, 3.42], then 1.00 [0.95, 1.05])" in text
    assert "nines goes from in band to no evidence" in text and "tricks stays over-paid" in text


def test_a_bet_type_worth_nothing_prints_no_negative_zero():
    ex = pd.DataFrame([{"deviation": "(profile)", "gain": 0.0, "gain_low": 0.0, "gain_high": 0.0, "games": 10},
                       {"deviation": "without=last", "gain": 0.0, "gain_low": 0.0, "gain_high": 0.0,
                        "games": 10}])
    ex.attrs["profile"] = "ev:goal x4"
    text = exploit_findings(ex)[1]
    assert "-0.0000" not in text and "last 0.0000" in text


def seats(shares, half=0.01, games=2000):
    return pd.DataFrame({"seat": [str(i) for i in range(len(shares))], "games": games,
                         "win_share": shares, "share_low": [s - half for s in shares],
                         "share_high": [s + half for s in shares]})


def test_strong_seat_finding_follows_the_reference_seats_gap():
    ref = seats([0.31, 0.25, 0.24, 0.20], half=0.004).assign(seat=[0, 1, 2, 3])   # ints, as a fixed-seat run
    held = strong_seat_finding(ref, seats([0.30, 0.25, 0.25, 0.20]), "ref", "mc x4")
    assert "seat 0 wins 0.300 [0.290, 0.310] and seat 3 0.200" in held
    assert "the advantage holds, with no evidence that its size changes" in held
    shrinks = strong_seat_finding(ref, seats([0.27, 0.25, 0.25, 0.23]), "ref", "mc x4")
    assert "the advantage holds but shrinks (the gap moves by -0.070 [-0.098, -0.042])" in shrinks
    gone = strong_seat_finding(ref, seats([0.255, 0.25, 0.25, 0.245]), "ref", "mc x4")
    assert gone.endswith("no evidence of that seat advantage under stronger play (the gap moves by "
                         "-0.100 [-0.128, -0.072]).")
    flips = strong_seat_finding(ref, seats([0.20, 0.25, 0.25, 0.30]), "ref", "mc x4")
    assert "the advantage reverses" in flips and "n = 2,000 games" in flips
