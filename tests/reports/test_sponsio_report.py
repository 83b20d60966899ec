"""The Sponsio designer report, built small from the installed package: a summary first,
findings that link to existing sections with their levers, the ladder under three player
models, every image present, a stamp, and a page that headless Chromium renders at 1400 px
with every image loaded, the summary in the first screen and no key table scrolling."""

import pytest
from click.testing import CliRunner

from page_checks import assert_renders, build, first_screen_checks, structure
from sponsio_sim.cli import main


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(main, tmp_path_factory.mktemp("sponsio_report"), "sponsio")


def test_report_opens_with_a_summary_and_ranked_findings_with_levers(built):
    page = structure(built / "index.html")
    html = (built / "index.html").read_text()
    assert html.index("id='summary'") < html.index("id='findings'") < html.index("class='toc'")
    assert "reference field" in page["summary"] and "best known exploit" in page["summary"]
    assert len(page["findings"]) >= 10
    for text, anchor in page["findings"]:
        assert anchor in page["ids"], f"finding {text!r} links to a missing section #{anchor}"
        assert "n = " in text and "[" in text        # its CI and n
    assert "Lever: " in html
    tagged = [t for t, _ in page["findings"] if any(w in t for w in ("holds under all 3", "depends on the players",
                                                                     "underpowered", "unclear"))]
    assert len(tagged) >= 8                           # the ladder's findings, each tagged
    assert page["toc"] and "appendix-rule-set-standard-4p" in page["ids"]
    assert page["stamp"] and "commit" in page["stamp"].group(1) and "command: sponsio report" in page["stamp"].group(1)


def test_the_ladder_names_three_player_models_for_both_player_counts(built):
    for p in (3, 4):
        ladder = (built / f"ladder_{p}p.csv").read_text().splitlines()
        assert ladder[0].startswith("finding,reference field,every seat mc,best single profile,tag")
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
    assert_renders(built / "index.html", width=1366, height=768, first=True)


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
