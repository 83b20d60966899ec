"""Self-contained HTML reports: sections, tables (also written as CSV) and PNG plots.

Plots are saved beside ``index.html`` and embedded in it (base64), so the
page opens anywhere on its own; every table is also a CSV file beside it.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Callable

import pandas as pd

_CSS = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
        "table.t{border-collapse:collapse;font-size:12px;margin:.5em 0}"
        "table.t td,table.t th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right}"
        ".note{color:#555;font-size:13px}.csv{font-size:11px}img{max-width:100%}")


class HtmlReport:
    """Collects a report's parts, then writes ``index.html`` into ``out``."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.parts: list[str] = []

    def section(self, title: str, note: str = "") -> None:
        self.parts.append(f"<h2>{html.escape(title)}</h2>"
                          + (f"<p class='note'>{html.escape(note)}</p>" if note else ""))

    def note(self, text: str) -> None:
        self.parts.append(f"<p class='note'>{html.escape(text)}</p>")

    def table(self, df: pd.DataFrame, name: str, float_format: str = "{:.4f}") -> None:
        """Show ``df`` and write it to ``<name>.csv``."""
        df.to_csv(self.out / f"{name}.csv", index=False)
        self.parts.append(df.to_html(index=False, float_format=lambda v: float_format.format(v), border=0,
                                     classes="t", na_rep="")
                          + f"<p class='csv'>CSV: <a href='{name}.csv'>{name}.csv</a></p>")

    def link(self, href: str, label: str) -> None:
        """A line linking a file written beside the page."""
        self.parts.append(f"<p class='csv'>{html.escape(label)}: <a href='{html.escape(href)}'>"
                          f"{html.escape(href)}</a></p>")

    def image(self, name: str, draw: Callable[[Path], None]) -> None:
        """``draw(path)`` saves a PNG; it is kept beside the page and embedded in it."""
        path = self.out / f"{name}.png"
        draw(path)
        data = base64.b64encode(path.read_bytes()).decode()
        self.parts.append(f"<img alt='{html.escape(name)}' src='data:image/png;base64,{data}'>")

    def write(self, title: str, intro: str) -> Path:
        path = self.out / "index.html"
        path.write_text(
            f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p class='note'>{html.escape(intro)}</p>{''.join(self.parts)}</body></html>",
            encoding="utf-8")
        return path
