#!/usr/bin/env python
"""Screenshots of the `sponsio serve` page, as a player sees it, for the README.

    python scripts/serve_screenshots.py [--out docs] [--widths 360,1366]

Starts `sponsio serve`, and in headless Chromium (Debian's chromium and
chromium-driver, driven by selenium as tests/sponsio/test_serve.py drives
it) taps the deal of round 1 of `sponsio game --profile reference --seed 38`
for seat 0, asks the odds for the hand, starts the round, records the first
betting turn and asks for advice at seat 0's second turn; then saves the
whole page at each width as OUT/serve-WIDTH.png.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "sponsio"))
from serve_helpers import Page, Server, browser_missing, chromium, quit_browser  # noqa: E402

HAND, TALON = "R9 B1 G7 G5 Y5 Y4 Y3 Y2", "B7 B3 B2 G9"


def shoot(server: Server, width: int, out: Path) -> Path:
    d = chromium(width, 900)
    try:
        page = Page(d, server.url)
        page.choose("dealer", "3")
        page.tap(HAND.split(), "hand")
        page.tap(TALON.split(), "talon")
        page.hand_odds("0.01")
        page.recorded(lambda: page.by_id("deal-btn").click())
        page.choose("act-reveal", "B1")
        page.choose("act-kind", "bet")
        page.choose("act-bet", "colour:Y=0")
        page.recorded(lambda: page.by_id("act-record").click())
        for _ in range(3):
            page.recorded(lambda: page.by_id("act-pass").click())
        page.ask("advise")
        height = page.js("return document.documentElement.scrollHeight")
        d.set_window_size(width, height)
        page.js("window.scrollTo(0, 0)")
        path = out / f"serve-{width}.png"
        d.save_screenshot(str(path))
        return path
    finally:
        quit_browser(d)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs")
    ap.add_argument("--widths", default="360,1366")
    args = ap.parse_args()
    why = browser_missing()
    if why:
        sys.exit(f"error: {why}")
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    server = Server("--seed", "1")
    try:
        for width in (int(w) for w in args.widths.split(",")):
            print(shoot(server, width, out))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
