"""Checks of a built HTML report: its structure, and how headless Chromium renders it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

PROBE = """<script>
window.addEventListener('load', function () {
  var imgs = Array.from(document.images);
  var broken = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); }).length;
  var over = document.documentElement.scrollWidth - window.innerWidth;
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var wide = Array.from(document.querySelectorAll('div.scroll'))
                  .filter(function (d) { return d.scrollWidth > d.clientWidth + 1; })
                  .map(function (d) { return d.getAttribute('data-table'); });
  var keys = Array.from(document.querySelectorAll('div.key'));
  var keyover = keys.filter(function (d) { return d.scrollWidth > d.clientWidth + 1; })
                    .map(function (d) { return d.getAttribute('data-table'); });
  var s = document.getElementById('summary');
  var first = s ? (s.getBoundingClientRect().bottom <= window.innerHeight ? 1 : 0) : -1;
  var v = document.querySelector('div.first p.verdict'), c = document.querySelector('div.first ol.changes');
  var screen = (v && c) ? ((v.getBoundingClientRect().bottom <= window.innerHeight
                            && c.getBoundingClientRect().bottom <= window.innerHeight) ? 1 : 0) : -1;
  var out = document.createElement('div');
  out.id = 'probe-result';
  out.textContent = 'images=' + imgs.length + ';broken=' + broken + ';overflow=' + over + ';keys=' + keys.length
    + ';keyover=' + keyover.join(',') + ';summary=' + first + ';first=' + screen + ';wide=' + wide.join(',') + ';end';
  document.body.appendChild(out);
});
</script>"""


def structure(index: Path) -> dict:
    """Findings (text, target anchor), section ids, images and the stamp of a report page."""
    page = index.read_text(encoding="utf-8")
    items = [item for block in re.findall(r"<ul class='findings'>(.*?)</ul>", page, re.S)
             for item in re.findall(r"<li>(.*?) <a href='#([^']+)'>", block)]
    return {"findings": items, "ids": set(re.findall(r" id='([^']+)'", page)),
            "images": re.findall(r"<img alt='([^']+)' src='data:image/png;base64,([^']+)'>", page),
            "stamp": re.search(r"<p class='note' id='stamp'>(.*?)</p>", page),
            "summary": (re.search(r"<p class='summary' id='summary'>(.*?)</p>", page, re.S) or [None, ""])[1],
            "toc": re.findall(r"<nav class='toc'>.*?</nav>", page, re.S)}


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def render(index: Path, width: int = 1280, height: int = 900) -> dict:
    """Load a copy of the page (with a probe script) in headless Chromium at ``width`` px;
    returns the counts the probe reports: images, broken images, horizontal overflow (px)."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "index.html"
        page.write_text(index.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
        cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}", "--virtual-time-budget=10000",
               "--dump-dom", page.as_uri()]
        dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    m = re.search(r"images=(\d+);broken=(\d+);overflow=(-?\d+);keys=(\d+);keyover=([^;]*);summary=(-?\d+);"
                  r"first=(-?\d+);wide=([^;]*);end", dom)
    if not m:
        raise AssertionError("the probe did not report: Chromium did not finish loading the page")
    return {"images": int(m.group(1)), "broken": int(m.group(2)), "overflow": int(m.group(3)),
            "keys": int(m.group(4)), "keyover": [t for t in m.group(5).split(",") if t], "summary": int(m.group(6)),
            "first": int(m.group(7)), "wide": [t for t in m.group(8).split(",") if t]}


def build(main, out, prog: str) -> Path:
    """Build a tiny report with ``PROG report`` into ``out``; returns the folder. The folder
    starts with symbolic links, to files and a folder elsewhere, under names the report writes:
    each is replaced by the report's own file or folder, and what it pointed to is untouched."""
    from click.testing import CliRunner

    away = Path(out).parent / f"{Path(out).name}-elsewhere"
    away.mkdir()
    names = ["index.html", "levers.csv" if prog == "caesar" else "grading_summary.csv"]
    for name in names:
        (away / name).write_text("not the report's")
        (Path(out) / name).symlink_to(away / name)
    if prog == "sponsio":
        (Path(out) / "grading").symlink_to(away)
        names.append("grading")
    # --mc-scale sizes the strong-play rung apart from --scale (whose rung would be the floor,
    # MIN_MEAN_N = 30 games): 5,000 x 0.007 = 35 games of every seat mc
    res = CliRunner().invoke(main, ["report", "--out", str(out), "--scale", "0.002", "--mc-scale", "0.007",
                                    "--format", "json"])
    assert res.exit_code == 0, f"{prog} report: {res.output}"
    assert json.loads(res.output)["meta"]["mc_scale"] == 0.007
    page = (Path(out) / "index.html").read_text()
    assert ("(35 with every seat mc)" if prog == "sponsio" else "in every seat n=35") in page, (
        "the strong-play rung does not play --mc-scale's games")
    for name in names:
        assert not (Path(out) / name).is_symlink() and (Path(out) / name).exists(), name
    assert sorted(p.name for p in away.iterdir()) == sorted(n for n in names if n != "grading")
    assert all(p.read_text() == "not the report's" for p in away.iterdir())
    return out


def no_identities(index: Path) -> None:
    """No published finding shows an interval without width (a result by construction)."""
    for text, _ in structure(index)["findings"]:
        for low, high in re.findall(r"\[([+-]?[0-9.]+)%?, ([+-]?[0-9.]+)%?\]", text):
            assert float(low) != float(high), f"a finding with a zero-width interval: {text}"


def first_screen_checks(folder: Path) -> None:
    """The first screen (``tabletop_mc.firstscreen``): every number it shows is in first_screen.csv beside
    the page; each measure's word is the one its interval and band give; none is an identity (no spread,
    or a rule number)."""
    import html as _html

    import pandas as pd

    from tabletop_mc.verdicts import identity, verdict

    no_identities(folder / "index.html")
    page = (folder / "index.html").read_text(encoding="utf-8")
    block = re.search(r"<section id='first-screen'>(.*?)</section>", page, re.S)
    assert block, "no first screen"
    shown = _html.unescape(re.sub(r"<[^>]+>", " ", block.group(1)))
    for verdict_line in re.findall(r"<p class='verdict'>(.*?)</p>", block.group(1)):
        assert "not balanced" in verdict_line or "no measure is clearly out of its band" in verdict_line, verdict_line
    changes = re.findall(r"<ol class='changes'>(.*?)</ol>", block.group(1), re.S)
    assert changes and all(("set " in c and " moves from " in c and " (band [" in c) or "no lever value" in c
                           or "no change needed" in c for c in changes), changes
    for item in re.findall(r"<li>(.*?)</li>", "".join(changes), re.S):
        if item.startswith("set "):   # each change says whether it holds with mc at every seat
            assert re.search(r"; with mc at every seat .*\(n = [\d,]+\): (holds|does not hold|unclear)", item), item
    df = pd.read_csv(folder / "first_screen.csv", dtype=str, keep_default_na=False)
    number = r"[+-]?\d+(?:[.,]\d+)*"
    cells = {t for v in df.to_numpy().ravel() for t in re.findall(number, str(v))}
    missing = [x for x in re.findall(number, shown) if x not in cells]
    assert not missing, f"first-screen numbers not in first_screen.csv: {missing[:10]}"
    for r in df[df["item"] == "measure"].itertuples():
        lo, hi, low, high = (float(x) for x in (r.band_low, r.band_high, r.low_exact, r.high_exact))
        assert r.word == verdict(low, high, lo, hi), r
        assert not identity(float(r.value), low, high), r


def assert_renders(index: Path, width: int = 1400, summary: bool = False, first: bool = False,
                   height: int = 900, every_table: bool = False) -> None:
    """Headless Chromium loads every image of the page and shows no horizontal overflow at ``width``,
    no key table (``HtmlReport.table(key=True)``) needs to scroll sideways (with ``every_table``: no table
    at all, the folded rows opened), and with ``summary`` the
    summary ends within the first screen (900 px high); skipped where Chromium is not installed."""
    import pytest

    if chromium() is None:
        pytest.skip("Chromium is not installed (.ci/run installs Debian's chromium package where it can)")
    seen = render(index, width=width, height=height)
    assert seen["images"] == len(structure(index)["images"]) and seen["broken"] == 0, seen
    assert seen["overflow"] <= 0, f"the page is {seen['overflow']} px wider than a {width} px window"
    assert not seen["keyover"], f"key tables that scroll sideways at {width} px: {', '.join(seen['keyover'])}"
    if every_table:
        assert not seen["wide"], f"tables wider than a {width} px window (every folded row shown): {', '.join(seen['wide'])}"
    if summary:
        assert seen["summary"] == 1, "the summary is not within the first screen"
    if first:
        assert seen["first"] == 1, f"the verdict and the change list are not within the first {width}x{height} screen"


OLD_WORDS = ("dominant", "dead", "crowds", " rare", "edge", "no evidence", "in band", "favoured")


def findings_checks(folder: Path, rule_numbers: set) -> None:
    """Every published finding that claims a verdict word has it from ``tabletop_mc.verdicts``: the word
    its rungs' intervals and band give (findings.csv beside the page holds them, unrounded); none has an
    interval without width or is a rule number by construction; no finding uses a game's own words;
    findings are listed per player count, with the healthy measures in one list."""
    import html as _html

    import pandas as pd

    from tabletop_mc.verdicts import DECIDED, DEPENDS, WORDS, combine, identity, verdict

    no_identities(folder / "index.html")
    page = (folder / "index.html").read_text(encoding="utf-8")
    texts = [_html.unescape(re.sub(r" <span class='lever'>.*", "", t))
             for t, _ in structure(folder / "index.html")["findings"]]
    for t in texts:
        assert not any(w in t for w in OLD_WORDS), f"a finding in a game's own words: {t}"
    df = pd.read_csv(folder / "findings.csv", keep_default_na=False)
    assert set(df["finding"]) == set(texts), "findings.csv does not hold the page's findings"
    judged = df[df["word"] != ""]
    if not judged.empty:
        judged = judged.astype({c: float for c in ("value", "low", "high", "band_low", "band_high")})
    for text, rows in judged.groupby("finding", sort=False):
        words = [verdict(r.low, r.high, r.band_low, r.band_high) for r in rows.itertuples()]
        word = rows["word"].iloc[0]
        assert word in WORDS and word == combine(words), (text, words)
        assert word in DECIDED + (DEPENDS,), f"a finding that decides nothing: {text}"
        assert word in text, text
        for r in rows.itertuples():
            assert r.high > r.low, f"a zero-width interval: {text}"
            assert not identity(r.value, r.low, r.high, rule_numbers), text
    assert re.search(r"<h3>\d players</h3>", page), "findings are not split by player count"
