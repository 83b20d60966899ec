"""The Sponsio designer report, built small from the installed package: a summary first,
findings that link to existing sections with their levers, the ladder under three player
models, every image present, a stamp, and a page that headless Chromium renders at 1400 px
with every image loaded, the summary in the first screen and no key table scrolling."""

import pytest
from click.testing import CliRunner

import re

from page_checks import assert_renders, build, findings_checks, first_screen_checks, structure
from sponsio_sim.cli import main


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(main, tmp_path_factory.mktemp("sponsio_report"), "sponsio")


def test_report_opens_with_a_summary_and_ranked_findings_with_levers(built):
    page = structure(built / "index.html")
    html = (built / "index.html").read_text()
    assert html.index("id='summary'") < html.index("id='findings'") < html.index("class='toc'")
    assert "reference field" in page["summary"] and "best known exploit" in page["summary"]
    assert page["findings"]
    for text, anchor in page["findings"]:
        assert anchor in page["ids"], f"finding {text!r} links to a missing section #{anchor}"
        assert "n = " in text and "[" in text        # its CI and n
    # every ladder measure of both player counts is somewhere: a finding, the healthy list or the not-decided list
    for p in (4, 3):
        assert f"<h3>{p} players</h3>" in html
        start, toc = html.index(f"<h3>{p} players</h3>"), html.index("class='toc'")
        end = html.find("<h3>", start + 1)
        block = html[start:end if 0 < end < toc else toc]
        assert "troll share of seat-rounds" in block and "rounds per game" in block
    assert "Healthy (inside their bands)" in html or "Not decided (underpowered or unclear)" in html
    assert page["toc"] and "appendix-rule-set-standard-4p" in page["ids"]
    assert page["stamp"] and "commit" in page["stamp"].group(1) and "command: sponsio report" in page["stamp"].group(1)


def test_the_ladder_names_three_player_models_for_both_player_counts(built):
    for p in (3, 4):
        ladder = (built / f"ladder_{p}p.csv").read_text().splitlines()
        assert ladder[0].startswith("finding,reference field,every seat mc,best single profile,band,tag")
        assert any("restricted-play value" in row for row in ladder)
    assert (built / "field_exploits.csv").exists() and (built / "recommend_4p.csv").exists()


def test_every_image_is_embedded_and_written(built):
    page = structure(built / "index.html")
    names = {name for name, _ in page["images"]}
    assert {"coin_flow", "odds_typical_hands"} <= names
    for name, data in page["images"]:
        assert (built / f"{name}.png").stat().st_size > 1000 and len(data) > 1000


def test_page_renders_in_headless_chromium(built):
    assert_renders(built / "index.html", width=1400)
    assert_renders(built / "index.html", width=1366, height=768, first=True, every_table=True)
    assert_renders(built / "engine.html", width=1366, height=768, every_table=True)


def test_every_finding_speaks_the_one_vocabulary_per_player_count(built):
    from sponsio_sim.rules import load_rules
    from tabletop_mc.verdicts import rule_numbers

    findings_checks(built, rule_numbers(load_rules(None, 4).as_dict()) | rule_numbers(load_rules(None, 3).as_dict()))


def test_numbers_to_their_precision_and_the_engine_on_its_own_page(built):
    html = (built / "index.html").read_text()
    engine = (built / "engine.html").read_text()
    assert "href='engine.html'" in html and "href='index.html'" in engine
    assert "Grading the goal policy" in engine and "Grading the goal policy" not in html
    cells = re.findall(r"<td>([+-]?\d+\.\d+)</td>", html)
    assert cells and not any(re.fullmatch(r"[+-]?[1-9]\d*\.0000", c) for c in cells), "whole numbers with 4 decimals"
    assert not any(len(c.lstrip("+-").split(".")[0]) >= 3 and len(c.split(".")[1]) >= 3 for c in cells)


def test_first_screen_per_player_count_with_its_numbers_beside_it(built):
    html = (built / "index.html").read_text()
    assert html.index("id='first-screen'") < html.index("id='summary'")
    for p in (4, 3):
        assert f"Sponsio, {p} players: " in html
    assert "Players&#x27; strength: mc gains" in html and "Bands: " in html and "Healthy: " in html
    assert "Appendix: glossary" in html
    first_screen_checks(built)


def test_bad_output_folder_is_one_line_exit_2(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out in (str(afile), str(tmp_path / "no" / "such" / "dir")):
        res = CliRunner().invoke(main, ["report", "--out", out, "--scale", "0.002"])
        assert res.exit_code == 2 and res.output.count("\n") == 1, res.output


def test_a_band_that_cannot_be_met_or_names_no_measure_is_one_line_exit_2(tmp_path):
    for band in ("troll share=0.5..0.1", "trolls=0.1..0.4", "troll share=low..high"):
        res = CliRunner().invoke(main, ["report", "--out", str(tmp_path / "r"), "--scale", "0.002", "--band", band])
        assert res.exit_code == 2 and res.output.count("\n") == 1 and "--band" in res.output, res.output
        assert not (tmp_path / "r" / "index.html").exists()
