"""The robustness ladder's categories and tags (tabletop_mc.ladder)."""

from tabletop_mc.ladder import DEPENDS, Estimate, Finding, classify, sentence, table
from tabletop_mc.verdicts import UNCLEAR, UNDERPOWERED

WORDS = ("favoured", "even", "disfavoured")


def test_classify_bands_points_and_straddles():
    assert classify(0.02, 0.04, 0.0, 0.0, *WORDS) == "favoured"
    assert classify(-0.04, -0.02, 0.0, 0.0, *WORDS) == "disfavoured"
    assert classify(-0.01, 0.02, 0.0, 0.0, *WORDS).startswith("no evidence")
    assert classify(-0.004, 0.004, -0.01, 0.01, *WORDS) == "even"          # inside a band
    assert classify(-0.004, 0.004, 0.0, 0.0, *WORDS).startswith("no evidence")   # a point band: never inside
    assert classify(float("nan"), 1.0, 0.0, 0.0, *WORDS).startswith("no evidence")


def test_a_finding_holds_only_when_every_rung_agrees():
    f = Finding("seat 0 minus the fair share", "win share", (0.0, 0.0), WORDS)
    f.estimates = {"field": Estimate(0.03, 0.02, 0.04, 20000), "mc x4": Estimate(0.02, 0.01, 0.03, 5000)}
    assert f.holds and f.tag == "holds under all 2"
    f.estimates["best single"] = Estimate(0.01, -0.005, 0.025, 20000)
    assert not f.holds and f.tag == UNDERPOWERED        # a rung that cannot tell is no disagreement
    t = table([f], ["field", "mc x4", "best single"])
    assert t.loc[0, "tag"] == UNDERPOWERED and "favoured" in t.loc[0, "field"] and "no evidence" in t.loc[0, "best single"]
    f.estimates["best single"] = Estimate(-0.02, -0.03, -0.01, 20000)
    assert f.tag == DEPENDS                             # two decided categories differ
    g = Finding("troll share", "", (0.15, 0.40), WORDS, {"field": Estimate(0.45, 0.43, 0.47, 20000),
                                                          "mc": Estimate(0.41, 0.38, 0.44, 5000)})
    assert g.tag == UNCLEAR                             # an interval across an edge, narrower than the band
    assert "field 0.030 [0.020, 0.040]" in sentence(f, ["field", "mc x4"])


def test_a_rung_without_spread_makes_the_finding_an_identity():
    f = Finding("last: restricted-play value", "", (0.01, 0.05), WORDS,
                {"field": Estimate(0.0, 0.0, 0.0, 20000), "mc": Estimate(0.02, 0.01, 0.03, 5000)})
    assert f.identity
    f.estimates["field"] = Estimate(0.001, -0.002, 0.004, 20000)
    assert not f.identity


def test_rungs_that_agree_on_no_evidence_do_not_make_a_finding_hold():
    """`caesar report --scale 0.001`: estimates of opposite signs without intervals were tagged
    'holds under all 3'."""
    nan = float("nan")
    f = Finding("one extra gold favour", "win rate", (0.0, 0.0), WORDS)
    f.estimates = {"field": Estimate(0.02, nan, nan, 10), "mc x4": Estimate(-0.03, nan, nan, 5),
                   "best single": Estimate(0.01, nan, nan, 10)}
    assert not f.holds and f.tag == UNDERPOWERED  # no rung can tell
    f.estimates = {"field": Estimate(0.02, -0.01, 0.05, 10), "mc x4": Estimate(-0.03, -0.06, 0.01, 5)}
    assert not f.holds and f.tag == UNDERPOWERED       # both straddle 0: the same 'no evidence' category
    f.estimates["best single"] = Estimate(0.03, 0.02, 0.04, 20000)
    assert not f.holds and f.tag == UNDERPOWERED       # one decided rung against two that cannot tell
