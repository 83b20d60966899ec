"""The Circus Maximus report, built small: a plain-words summary first, ranked findings linking to
sections, images, stamp, the rule set once in the appendix, and a page headless Chromium renders at
1400 px with the summary in the first screen and no key table scrolling sideways."""

import pytest

from caesar_sim.cli import main
from page_checks import assert_renders, build, findings_checks, first_screen_checks, render, structure


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(main, tmp_path_factory.mktemp("caesar_report"), "caesar")


def test_findings_link_to_sections_and_the_page_is_stamped(built):
    page = structure(built / "index.html")
    texts = [t for t, _ in page["findings"]]
    assert texts[0].startswith("The reference field (4 players) draws every seat")
    assert "best known exploit" in texts[0]
    assert all(("under all 3 player models" in t or "depends on the players" in t) and "Lever: " in t
               for t in texts[1:])   # only findings that hold out of band, or that depend on the players
    assert "robustness-ladder-do-the-findings-hold-under-other-strong-play" in page["ids"]
    for text, anchor in page["findings"]:
        assert anchor in page["ids"], f"finding {text!r} links to a missing section #{anchor}"
    assert page["stamp"] and "command: caesar report" in page["stamp"].group(1)
    assert "appendix-rule-set-standard" in page["ids"]
    for name, data in page["images"]:
        assert (built / f"{name}.png").stat().st_size > 1000 and len(data) > 1000


def test_the_page_opens_with_a_summary_and_reads_like_a_designer_page(built):
    html = (built / "index.html").read_text(encoding="utf-8")
    page = structure(built / "index.html")
    assert html.index("id='summary'") < html.index("id='findings'") < html.index("class='toc'")
    assert "reference field" in page["summary"] and "best known exploit" in page["summary"]
    assert "unplayed" in page["summary"] and "SD" in page["summary"] and "gold favour" in page["summary"]
    assert "<th>Win rate</th>" in html and "<th>win_rate</th>" not in html   # headers in words
    assert "seat 0 (starts)" in html
    assert html.count("merchant.coins") >= 1 and html.count("[merchant]") == 1   # the rule set once
    assert "lever-to-effect" in html and "Players refitted per value: no" in html


def test_caesar_page_renders_in_headless_chromium(built):
    assert len(structure(built / "index.html")["images"]) >= 3
    assert_renders(built / "index.html", width=1400)
    assert_renders(built / "index.html", width=1366, height=768, first=True, every_table=True)
    assert_renders(built / "engine.html", width=1366, height=768, every_table=True)


def test_every_finding_speaks_the_one_vocabulary_per_player_count(built):
    from caesar_sim.rules import load_rules
    from tabletop_mc.verdicts import rule_numbers

    findings_checks(built, rule_numbers(load_rules().as_dict()))
    html = (built / "index.html").read_text(encoding="utf-8")
    engine = (built / "engine.html").read_text(encoding="utf-8")
    assert "href='engine.html'" in html and "href='index.html'" in engine
    assert "one seat against three" in engine and "one seat against three" not in html
    assert "former reference profile" in engine


def test_first_screen_per_player_count_with_its_numbers_beside_it(built):
    html = (built / "index.html").read_text(encoding="utf-8")
    assert html.index("id='first-screen'") < html.index("id='summary'")
    for p in (4, 3, 5):
        assert f"Circus Maximus, {p} players: " in html
    assert "Players&#x27; strength: mc gains" in html and "Bands: " in html and "Appendix: glossary" in html
    first_screen_checks(built)
    from page_checks import chromium
    if chromium() is not None:
        assert render(built / "index.html", width=1400)["keys"] >= 4


def test_a_band_that_cannot_be_met_or_names_no_measure_is_one_line_exit_2(tmp_path):
    from click.testing import CliRunner
    for band in ("comeback rate=0.4..0.1", "comebacks=0.1..0.4"):
        res = CliRunner().invoke(main, ["report", "--out", str(tmp_path / "r"), "--scale", "0.002", "--band", band])
        assert res.exit_code == 2 and res.output.count("\n") == 1 and "--band" in res.output, res.output
        assert not (tmp_path / "r" / "index.html").exists()
