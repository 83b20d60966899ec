"""The robustness ladder's words and tags (tabletop_mc.ladder): every word from tabletop_mc.verdicts."""

from tabletop_mc.htmlreport import HtmlReport
from tabletop_mc.ladder import DEPENDS, Estimate, Finding, publish, sentence, table
from tabletop_mc.verdicts import HEALTHY, TOO_HIGH, TOO_LOW, UNCLEAR, UNDERPOWERED


def test_a_rung_gets_its_word_from_the_band():
    f = Finding("seat 0 minus the fair share", "win share", (0.0, 0.0))
    for est, word in ((Estimate(0.03, 0.02, 0.04, 9), TOO_HIGH), (Estimate(-0.03, -0.04, -0.02, 9), TOO_LOW),
                      (Estimate(0.0, -0.01, 0.02, 9), UNDERPOWERED)):   # a point band: never healthy
        f.estimates = {"field": est}
        assert f.category("field") == word
    g = Finding("troll share", "", (0.15, 0.40), {"field": Estimate(0.3, 0.28, 0.32, 9)})
    assert g.category("field") == HEALTHY


def test_a_finding_holds_only_when_every_rung_agrees():
    f = Finding("seat 0 minus the fair share", "win share", (0.0, 0.0))
    f.estimates = {"field": Estimate(0.03, 0.02, 0.04, 20000), "mc x4": Estimate(0.02, 0.01, 0.03, 5000)}
    assert f.holds and f.tag == "holds under all 2" and f.word == TOO_HIGH
    f.estimates["best single"] = Estimate(0.01, -0.005, 0.025, 20000)
    assert not f.holds and f.tag == UNDERPOWERED        # a rung that cannot tell is no disagreement
    t = table([f], ["field", "mc x4", "best single"])
    assert t.loc[0, "tag"] == UNDERPOWERED and TOO_HIGH in t.loc[0, "field"] and UNDERPOWERED in t.loc[0, "best single"]
    f.estimates["best single"] = Estimate(-0.02, -0.03, -0.01, 20000)
    assert f.tag == DEPENDS                             # two decided words differ
    g = Finding("troll share", "", (0.15, 0.40), {"field": Estimate(0.45, 0.43, 0.47, 20000),
                                                  "mc": Estimate(0.41, 0.38, 0.44, 5000)})
    assert g.tag == UNCLEAR                             # an interval across an edge, narrower than the band
    assert "field +0.030 [+0.020, +0.040]" in sentence(f, ["field", "mc x4"])


def test_a_rung_without_spread_makes_the_finding_an_identity():
    f = Finding("last: restricted-play value", "", (0.01, 0.05),
                {"field": Estimate(0.0, 0.0, 0.0, 20000), "mc": Estimate(0.02, 0.01, 0.03, 5000)})
    assert f.identity
    f.estimates["field"] = Estimate(0.001, -0.002, 0.004, 20000)
    assert not f.identity


def test_rungs_that_agree_on_no_evidence_do_not_make_a_finding_hold():
    """`caesar report --scale 0.001`: estimates of opposite signs without intervals were tagged
    'holds under all 3'."""
    nan = float("nan")
    f = Finding("one extra gold favour", "win rate", (0.0, 0.0))
    f.estimates = {"field": Estimate(0.02, nan, nan, 10), "mc x4": Estimate(-0.03, nan, nan, 5),
                   "best single": Estimate(0.01, nan, nan, 10)}
    assert not f.holds and f.tag == UNDERPOWERED  # no rung can tell
    f.estimates = {"field": Estimate(0.02, -0.01, 0.05, 10), "mc x4": Estimate(-0.03, -0.06, 0.01, 5)}
    assert not f.holds and f.tag == UNDERPOWERED       # both straddle 0
    f.estimates["best single"] = Estimate(0.03, 0.02, 0.04, 20000)
    assert not f.holds and f.tag == UNDERPOWERED       # one decided rung against two that cannot tell


def test_publish_lists_out_of_band_and_disagreeing_findings_and_names_the_rest(tmp_path):
    rungs = ["field", "mc"]
    est = lambda v, h: Estimate(v, v - h, v + h, 1000)  # noqa: E731
    found = [Finding("troll share", "", (0.15, 0.40), {"field": est(0.5, 0.02), "mc": est(0.6, 0.03)}, players=4),
             Finding("rounds", "", (2.5, 5.0), {"field": est(4.0, 0.1), "mc": est(3.9, 0.2)}, players=4),
             Finding("seat gap", "", (0.0, 0.02), {"field": est(0.03, 0.005), "mc": est(0.01, 0.005)}, players=4),
             Finding("last share", "", (0.05, 0.4), {"field": est(0.3, 0.4), "mc": est(0.1, 0.01)}, players=4),
             Finding("never placed", "", (0.05, 0.4), {"field": Estimate(0.0, 0.0, 0.0, 9), "mc": est(0.1, 0.01)})]
    doc = HtmlReport(tmp_path)
    publish(doc, found, rungs, "ladder", "4 players")
    assert [(f.word, f.group) for f in doc.findings] == [(TOO_HIGH, "4 players"), (DEPENDS, "4 players")]
    assert doc.lists["4 players"] == (["rounds"], [f"last share ({UNDERPOWERED})"])
    page = doc.write("t", "intro").read_text()
    assert "<h3>4 players</h3>" in page and "Healthy (inside their bands): rounds." in page
    assert "never placed" not in page                  # a result by construction is nowhere
    assert (tmp_path / "findings.csv").read_text().count("\n") == 1 + 4   # one row per rung of each finding
