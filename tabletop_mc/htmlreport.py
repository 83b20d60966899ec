"""Self-contained HTML reports: findings first, a table of contents, sections
with tables (also written as CSV) and PNG plots, a stamp and an appendix.

Plots are saved beside ``index.html`` and embedded in it (base64), so the
page opens anywhere on its own; every table is also a CSV file beside it.
Every file is written atomically (``tabletop_mc.atomic``): a symbolic link
in the folder is replaced, never written through; a file that cannot be
written is one ``OutputError`` line.
Findings are added as they are computed (``finding``) but shown at the top,
each linking to the section that holds its evidence.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import re
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from tabletop_mc.atomic import write_atomic
from tabletop_mc.errors import OutputError
from tabletop_mc.plotfile import out_subdir
from tabletop_mc.rulefile import to_toml
from tabletop_mc.verdicts import digits_for

_CSS = ("body{font-family:sans-serif;max-width:1300px;margin:2em auto;padding:0 1em;color:#222}"
        "table.t{border-collapse:collapse;font-size:12px;margin:.5em 0}"
        "table.t td,table.t th{padding:2px 6px;border-bottom:1px solid #ddd;text-align:right;white-space:normal;"
        "min-width:2.5em}"
        "div.scroll{overflow-x:auto;max-width:100%}"
        ".note{color:#555;font-size:13px}.csv{font-size:11px}img{max-width:100%;height:auto}"
        "ul.findings li{margin:.3em 0}pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:.5em}"
        "nav.toc{font-size:13px}p.summary{font-size:15px;line-height:1.45;background:#f3f6fa;padding:.6em .9em}"
        "table.t th:first-child,table.t td:first-child{position:sticky;left:0;background:#fff;text-align:left}"
        "details{margin:.3em 0}summary{cursor:pointer;font-size:13px;color:#335}.lever{color:#555;font-size:13px}"
        "div.key table.t td,div.key table.t th{white-space:normal;min-width:3em}"
        "div.first{background:#f3f6fa;padding:.4em .9em;margin:.4em 0;font-size:14px}"
        "p.verdict{font-weight:bold;margin:.3em 0}ol.changes{margin:.2em 0;padding-left:1.5em}"
        "p.strength{margin:.3em 0}")

# snake_case column names -> words, for tables a reader sees (the CSV files keep the names)
HEADERS = {"ci_low": "CI low", "ci_high": "CI high", "n": "n", "p": "P", "ev": "EV", "rtp": "RTP",
           "pp": "pp", "sd": "SD"}
FOLD_ROWS = 12   # longer tables show this many rows and fold the rest


@dataclass(frozen=True)
class Finding:
    """One sentence of the Findings list, the section (anchor) holding its evidence, how much it
    matters (findings are listed largest ``weight`` first) and the lever that would change it."""

    text: str
    anchor: str
    weight: float = 0.0
    lever: str = ""
    group: str = ""            # e.g. "4 players": findings are listed under their group
    word: str = ""             # its verdict word (``tabletop_mc.verdicts``), if it claims one
    evidence: tuple = ()       # the numbers its word reads: dicts of rung, value, low, high, n, band_low, band_high


def human(column: str) -> str:
    """A column name in words: ``win_share_low`` -> ``win share low``, known abbreviations kept."""
    if column in HEADERS:
        return HEADERS[column]
    words = [HEADERS.get(w, w) for w in str(column).split("_")]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def slug(title: str) -> str:
    """An HTML id from a section title."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


def sig(v: float, digits: int = 3) -> str:
    """A number without an interval to ``digits`` significant digits, whole numbers as integers
    (2048.3 -> 2048, 1.3642 -> 1.36, 0.012345 -> 0.0123)."""
    if not np.isfinite(v):
        return "" if np.isnan(v) else ("inf" if v > 0 else "-inf")
    if v == round(v) and abs(v) < 1e15:
        return f"{int(round(v)):d}"
    d = max(0, min(6, digits - 1 - int(np.floor(np.log10(abs(v))))))
    return f"{v:.{d}f}"


def interval_columns(columns) -> dict[str, tuple[str, str]]:
    """Each column that has a 95 % interval beside it (``x`` with ``x_low``/``x_high``; a pair
    ``y_low``/``y_high`` or ``ci_low``/``ci_high`` without its own ``y``: the column just before it),
    and the interval columns themselves -> (low column, high column)."""
    cols = [str(c) for c in columns]
    out: dict[str, tuple[str, str]] = {}
    for i, c in enumerate(cols):
        if not c.endswith("low"):
            continue
        stem = c[:-3]
        hi = stem + "high"
        if hi not in cols:
            continue
        base = stem.rstrip("_")
        if base not in cols or base in ("ci", ""):
            base = cols[i - 1] if i > 0 and not cols[i - 1].endswith(("low", "high")) else None
        for name in (c, hi) + ((base,) if base else ()):
            out.setdefault(name, (c, hi))
    return out


def format_frame(view: pd.DataFrame) -> pd.DataFrame:
    """A table's cells for a reader, headers in words: a number with an interval to the interval's
    precision (``verdicts.digits_for``: 2 significant digits of its half-width), the interval likewise,
    other numbers to 3 significant digits, whole-number columns as integers, missing values empty
    (the CSV keeps every digit)."""
    ivals = interval_columns(view.columns)
    shown = {}
    for c in view.columns:
        values = view[c]
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            shown[human(c)] = ["" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v) for v in values]
            continue
        arr = values.to_numpy(dtype=float)
        finite = arr[np.isfinite(arr)]
        whole = finite.size > 0 and np.all(finite == np.round(finite)) and np.all(np.abs(finite) < 1e15)
        pair = ivals.get(str(c))
        if whole or pair is None:
            shown[human(c)] = [sig(v) for v in arr]
            continue
        lows, highs = (pd.to_numeric(view[k], errors="coerce").to_numpy(dtype=float) for k in pair)
        shown[human(c)] = [sig(v) if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo) or not np.isfinite(v)
                           else f"{v:.{digits_for(lo, hi)}f}" for v, lo, hi in zip(arr, lows, highs)]
    return pd.DataFrame(shown)


def stamp_text(package: str, command: str | None = None, out: str | Path | None = None,
               repo: str | Path | None = None) -> str:
    """Package version, git commit (or "not a git checkout"), UTC date and command line. The commit
    (of ``repo``, by default the checkout this package runs from) is marked "with uncommitted
    changes" when tracked files differ from it, not counting the report's own folder ``out``
    (which the run being stamped has just rewritten)."""
    try:
        version = metadata.version(package)
    except metadata.PackageNotFoundError:
        version = "unknown"
    here = Path(repo) if repo is not None else Path(__file__).resolve().parent

    def git(*args, cwd=here):
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10).stdout.strip()
    try:
        commit = git("rev-parse", "--short", "HEAD")
        top = git("rev-parse", "--show-toplevel")
        spec = []
        if commit and top and out is not None:
            try:
                spec = ["--", ".", f":(exclude){Path(out).resolve().relative_to(Path(top).resolve())}"]
            except ValueError:   # the report is written outside the checkout
                pass
        dirty = git("status", "--porcelain", "--untracked-files=no", *spec, cwd=top or here) if commit else ""
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "", ""
    commit = (commit + (" (with uncommitted changes)" if dirty else "")) if commit else "not a git checkout"
    date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = command if command is not None else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])
    return f"{package} {version}; commit {commit}; generated {date}; command: {cmd}"


class HtmlReport:
    """Collects a report's parts, then writes ``index.html`` into ``out``."""

    def __init__(self, out: str | Path, page: str = "index.html"):
        self.out = Path(out)
        self.page = page   # the file ``write`` writes (a second page beside index.html shares its folder)
        if not self.out.is_dir():
            self.out.mkdir(parents=True)
        self.parts: list[str] = []
        self.sections: list[tuple[str, str]] = []   # (anchor, title)
        self.findings: list[Finding] = []
        self.appendix_parts: list[str] = []
        self.first = ""
        self.lists: dict[str, tuple[list[str], list[str]]] = {}   # group -> (healthy, not decided)
        self.navs: list[tuple[str, str]] = []

    def nav(self, href: str, label: str) -> None:
        """A link shown under the title's notes (to another page beside this one)."""
        self.navs.append((href, label))

    def first_screen(self, fragment: str) -> None:
        """HTML shown first, right under the title (``tabletop_mc.firstscreen.page``)."""
        self.first = fragment

    def glossary(self, terms: dict) -> None:
        """The words the page uses, defined once (an appendix)."""
        self.appendix("glossary", "\n".join(f"{k}: {v}" for k, v in terms.items()))

    def section(self, title: str, note: str = "") -> str:
        """Start a section; returns its anchor (for findings that cite it)."""
        anchor = slug(title)
        taken = {a for a, _ in self.sections}
        base, k = anchor, 2
        while anchor in taken:
            anchor, k = f"{base}-{k}", k + 1
        self.sections.append((anchor, title))
        self.parts.append(f"<h2 id='{anchor}'>{html.escape(title)}</h2>"
                          + (f"<p class='note'>{html.escape(note)}</p>" if note else ""))
        return anchor

    def finding(self, text: str, anchor: str, weight: float = 0.0, lever: str = "", group: str = "",
                word: str = "", evidence=()) -> None:
        """A sentence for the Findings list, citing section ``anchor`` (``weight``: how much it
        matters, for the order; ``lever``: what would change it; ``group``: the list it goes in, e.g.
        a player count; ``word``/``evidence``: its verdict word and the numbers it reads, for
        findings.csv)."""
        self.findings.append(Finding(text, anchor, weight, lever, group, word, tuple(evidence)))

    def verdict_lists(self, group: str, healthy: list[str], undecided: list[str]) -> None:
        """Under ``group``'s findings: the one list of measures inside their bands, and the one list
        of measures not decided (underpowered or unclear)."""
        h, u = self.lists.setdefault(group, ([], []))
        h += healthy
        u += undecided

    def note(self, text: str) -> None:
        self.parts.append(f"<p class='note'>{html.escape(text)}</p>")

    def table(self, df: pd.DataFrame, name: str, fold: int = FOLD_ROWS,
              columns: list[str] | None = None, key: bool = False) -> None:
        """Show ``df`` with headers in words (only ``columns`` if given; the key column stays in
        view when the table scrolls) and write all of it to ``<name>.csv``; beyond ``fold``
        rows the rest is folded into an expandable block. A ``key`` table is one a reader
        acts on: it must fit the page without scrolling (the report test checks it)."""
        self.csv(df, name)
        view = df if columns is None else df[columns]
        shown = format_frame(view)

        def block(rows: pd.DataFrame) -> str:
            return (f"<div class='scroll{' key' if key else ''}' data-table='{html.escape(name)}'>"
                    + rows.to_html(index=False, border=0, classes="t")
                    + "</div>")
        body = block(shown.head(fold))
        if len(shown) > fold:
            body += (f"<details><summary>{len(shown) - fold} more rows</summary>{block(shown.iloc[fold:])}"
                     "</details>")
        self.parts.append(body + f"<p class='csv'>CSV{' (every column)' if columns else ''}: "
                          f"<a href='{name}.csv'>{name}.csv</a></p>")

    def csv(self, df: pd.DataFrame, name: str) -> Path:
        """Write all of ``df`` to ``<name>.csv`` beside the page (not shown; ``link`` to it)."""
        path = self.out / f"{name}.csv"
        _write(path, lambda tmp: df.to_csv(tmp, index=False))
        return path

    def subfolder(self, name: str) -> Path:
        """A folder beside the page for another page (a link there is replaced, not followed)."""
        return out_subdir(self.out, name)

    def link(self, href: str, label: str) -> None:
        """A line linking a file written beside the page."""
        self.parts.append(f"<p class='csv'>{html.escape(label)}: <a href='{html.escape(href)}'>"
                          f"{html.escape(href)}</a></p>")

    def image(self, name: str, draw: Callable[[Path], None]) -> None:
        """``draw(path)`` saves a PNG; it is kept beside the page and embedded in it."""
        path = self.out / f"{name}.png"
        _write(path, lambda tmp: draw(Path(tmp)))
        data = base64.b64encode(path.read_bytes()).decode()
        self.parts.append(f"<img alt='{html.escape(name)}' src='data:image/png;base64,{data}'>")

    def appendix(self, title: str, text: str) -> None:
        """Preformatted text shown once, after every section (e.g. the rule set in full)."""
        anchor = slug("appendix " + title)
        self.sections.append((anchor, f"Appendix: {title}"))
        self.appendix_parts.append(f"<h2 id='{anchor}'>Appendix: {html.escape(title)}</h2>"
                                   f"<pre>{html.escape(text)}</pre>")

    def write(self, title: str, intro: str, stamp: str = "", summary: str = "") -> Path:
        """``index.html`` (or ``page``): the title, the plain-words ``summary``, the findings (largest weight
        first, each with its lever and evidence), the contents, the sections, the appendix."""
        findings = self._findings_html()
        toc = "".join(f"<li><a href='#{a}'>{html.escape(t)}</a></li>" for a, t in self.sections)
        path = self.out / self.page
        page = (
            f"<!doctype html><html><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>" + self.first
            + (f"<p class='summary' id='summary'>{html.escape(summary)}</p>" if summary else "")
            + f"<p class='note'>{html.escape(intro)}</p>"
            + (f"<p class='note' id='stamp'>{html.escape(stamp)}</p>" if stamp else "")
            + "".join(f"<p class='nav'><a href='{html.escape(h)}'>{html.escape(t)}</a></p>" for h, t in self.navs)
            + (f"<h2 id='findings'>Findings</h2>{findings}" if findings else "")
            + f"<nav class='toc'><h2>Contents</h2><ol>{toc}</ol></nav>"
            + "".join(self.parts) + "".join(self.appendix_parts) + "</body></html>")
        _write(path, lambda tmp: Path(tmp).write_text(page, encoding="utf-8"))
        return path


    def _findings_html(self) -> str:
        """The findings by group (in the order groups first appear), largest weight first, each group
        followed by its healthy and not-decided lists; every finding also goes to findings.csv."""
        groups: list[str] = []
        for g in [f.group for f in self.findings] + list(self.lists):
            if g not in groups:
                groups.append(g)
        out, rows = [], []
        for g in groups:
            ranked = sorted((f for f in self.findings if f.group == g), key=lambda f: -f.weight)
            items = "".join(f"<li>{html.escape(f.text)}"
                            + (f" <span class='lever'>Lever: {html.escape(f.lever)}</span>" if f.lever else "")
                            + f" <a href='#{f.anchor}'>(evidence)</a></li>" for f in ranked)
            healthy, undecided = self.lists.get(g, ([], []))
            out.append((f"<h3>{html.escape(g)}</h3>" if g else "")
                       + (f"<ul class='findings'>{items}</ul>" if items else "")
                       + (f"<p class='healthy'>Healthy (inside their bands): {html.escape(', '.join(healthy))}.</p>"
                          if healthy else "")
                       + (f"<p class='undecided'>Not decided (underpowered or unclear): "
                          f"{html.escape('; '.join(undecided))}.</p>" if undecided else ""))
            for f in ranked:
                base = {"group": f.group, "finding": f.text, "word": f.word, "anchor": f.anchor}
                rows += [{**base, **e} for e in f.evidence] or [base]
        if rows:
            self.csv(pd.DataFrame(rows), "findings")
        return "".join(out)


def _write(path: Path, write: Callable[[str], None]) -> None:
    """``write(tmp)`` fills the file that then replaces ``path`` (``tabletop_mc.atomic``)."""
    try:
        write_atomic(path, write)
    except OSError as exc:
        raise OutputError(f"--out {path}: cannot write ({exc.strerror or exc}); the report is not complete") from None


def write_pages(doc: HtmlReport, engine: HtmlReport, *, game: str, rules, glossary: dict, stamp: str,
                engine_about: str, engine_note: str, title: str, intro: str, summary: str) -> Path:
    """Finish a game's designer report, the same way for every game: the rule set in full and the
    glossary after the sections, the engine page (how good the simulated players are: ``engine_about``)
    and the designer page linked both ways, one stamp on both; returns the designer page's path."""
    doc.appendix(f"rule set {rules.name}", to_toml(rules.as_dict()))
    doc.glossary(glossary)
    engine.nav(doc.page, "The designer report (the verdicts, the findings and their evidence)")
    engine.write(f"{game}: the engine", f"How good the simulated players are, for who builds them: {engine_about}. "
                 f"{engine_note}", stamp=stamp)
    doc.nav(engine.page, f"The engine page: {engine_about}")
    return doc.write(title, intro, stamp=stamp, summary=summary)
