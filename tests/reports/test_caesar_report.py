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
    assert any("start seat" in t for t in texts) and any("favour" in t for t in texts)
    assert any("short of" in t or "ran short" in t for t in texts)
    for text, anchor in page["findings"]:
        assert anchor in page["ids"], f"finding {text!r} links to a missing section #{anchor}"
    assert page["stamp"] and "command: caesar report" in page["stamp"].group(1)
    assert "appendix-rule-set-standard" in page["ids"]
    for name, data in page["images"]:
        assert (built / f"{name}.png").stat().st_size > 1000 and len(data) > 1000


def test_caesar_page_renders_in_headless_chromium(built):
    assert len(structure(built / "index.html")["images"]) >= 3
    assert_renders(built / "index.html")
