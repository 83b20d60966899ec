"""The Circus Maximus report, built small: findings linking to sections, images, stamp, appendix,
and a page headless Chromium renders without broken images or horizontal overflow."""

import pytest

from caesar_sim.cli import main
from page_checks import assert_renders, build, structure


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build(main, tmp_path_factory.mktemp("caesar_report"), "caesar")


def test_findings_link_to_sections_and_the_page_is_stamped(built):
    page = structure(built / "index.html")
    texts = [t for t, _ in page["findings"]]
    assert texts[0].startswith("The reference field (4 players) draws every seat")
    assert "best known exploit" in texts[0]
    assert all("Holds under all 3" in t for t in texts[1:])   # only findings that hold open the page
    assert "robustness-ladder-do-the-findings-hold-under-other-strong-play" in page["ids"]
    for text, anchor in page["findings"]:
        assert anchor in page["ids"], f"finding {text!r} links to a missing section #{anchor}"
    assert page["stamp"] and "command: caesar report" in page["stamp"].group(1)
    assert "appendix-rule-set-standard" in page["ids"]
    for name, data in page["images"]:
        assert (built / f"{name}.png").stat().st_size > 1000 and len(data) > 1000


def test_caesar_page_renders_in_headless_chromium(built):
    assert len(structure(built / "index.html")["images"]) >= 3
    assert_renders(built / "index.html")
