"""The Sponsio designer report, built small from the installed package: findings
that link to existing sections, every image present, a stamp, and a page that
headless Chromium renders with every image loaded and no horizontal overflow."""

import pytest
from click.testing import CliRunner

from page_checks import assert_renders, build, structure
from sponsio_sim.cli import main


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(main, tmp_path_factory.mktemp("sponsio_report"), "sponsio")


def test_report_opens_with_findings_that_link_to_sections(built):
    page = structure(built / "index.html")
    assert len(page["findings"]) >= 4
    for text, anchor in page["findings"]:
        assert anchor in page["ids"], f"finding {text!r} links to a missing section #{anchor}"
        assert "n = " in text and ("[" in text or "no interval" in text)   # its CI (or why none) and n
    assert any(text.startswith("Every seat on mc:") for text, _ in page["findings"])   # seats under mc
    assert (built / "seat_advantage_mc.csv").exists()
    assert page["toc"] and "appendix-rule-set-standard-4p" in page["ids"]
    assert page["stamp"] and "commit" in page["stamp"].group(1) and "command: sponsio report" in page["stamp"].group(1)


def test_every_image_is_embedded_and_written(built):
    page = structure(built / "index.html")
    names = {name for name, _ in page["images"]}
    assert {"game_length", "seat_advantage", "balance_ev", "matrix", "odds_typical_hands"} <= names
    for name, data in page["images"]:
        assert (built / f"{name}.png").stat().st_size > 1000 and len(data) > 1000


def test_page_renders_in_headless_chromium(built):
    assert_renders(built / "index.html")


def test_bad_output_folder_is_one_line_exit_2(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out in (str(afile), str(tmp_path / "no" / "such" / "dir")):
        res = CliRunner().invoke(main, ["report", "--out", out, "--scale", "0.002"])
        assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
