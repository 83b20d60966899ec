"""Print result tables as an aligned table, JSON or CSV (stdout only).

JSON is strict (no NaN or Infinity: such values are ``null``) and is always
an object with a ``meta`` member (command, options, seed, rule set and the
fields ``--set`` changed, package version; see ``tabletop_mc.clitools``). JSON and
CSV floats are rounded to the precision the estimate has: a column with a
95% interval (``x`` with ``x_low``/``x_high``, or the column before
``ci_low``/``ci_high``) keeps two significant digits of the interval's
half-width; other floats keep six significant digits.
"""

from __future__ import annotations

import json
import math
import numpy as np
import pandas as pd

from tabletop_mc.cliparams import FORMATS  # noqa: F401  (re-exported)

SIGNIFICANT = 6


def _meta_provider() -> dict:
    """The ``meta`` object of the command being run (``tabletop_mc.clitools.current_meta``)."""
    from tabletop_mc.clitools import current_meta
    return current_meta()


def jsonable(value):
    """``value`` as strict JSON takes it: numpy scalars and arrays as Python numbers and lists, a float that
    is not finite (an interval with too few values, say) as None, a table as its records."""
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return v if math.isfinite(v) else None
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, pd.DataFrame):
        return records(value)
    return value


def _sig(v: float, digits: int = SIGNIFICANT) -> float:
    if not math.isfinite(v) or v == 0:
        return v
    return round(v, digits - 1 - int(math.floor(math.log10(abs(v)))))


def _interval_of(df: pd.DataFrame, adjacent: bool = False) -> dict[str, tuple[str, str]]:
    """Float columns that carry a 95% interval -> their (low, high) columns; with ``adjacent``
    also a column followed by any ``X_low, X_high`` pair (``value_per_day, value_low, value_high``)."""
    cols = list(df.columns)
    out = {}
    for i, c in enumerate(cols):
        c = str(c)
        nxt = [str(x) for x in cols[i + 1:i + 3]]
        if f"{c}_low" in df.columns and f"{c}_high" in df.columns:
            out[c] = (f"{c}_low", f"{c}_high")
        elif c.startswith("p_") and f"{c[2:]}_low" in df.columns and f"{c[2:]}_high" in df.columns:
            out[c] = (f"{c[2:]}_low", f"{c[2:]}_high")
        elif i + 1 < len(cols) and cols[i + 1] == "ci_low" and "ci_high" in df.columns:
            out[c] = ("ci_low", "ci_high")
        elif adjacent and len(nxt) == 2 and nxt[0].endswith("_low") and nxt[1] == nxt[0][:-4] + "_high":
            out[c] = (nxt[0], nxt[1])
    return out


def round_estimates(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``df`` with floats rounded to the precision of their estimate (see module doc)."""
    out = df.copy()
    floats = [c for c in df.columns if pd.api.types.is_float_dtype(df[c])]
    if not floats:
        return out
    decimals = pd.DataFrame(index=df.index)
    for c, (lo, hi) in _interval_of(df).items():
        if c not in floats or lo not in floats or hi not in floats:
            continue
        half = (df[hi] - df[lo]).abs() / 2.0
        with np.errstate(divide="ignore", invalid="ignore"):
            d = 1 - np.floor(np.log10(half.where(half > 0)))
        d = d.clip(lower=0, upper=12)
        for col in (c, lo, hi):
            decimals[col] = d
    for c in floats:
        values = df[c].astype(float)
        if c in decimals:
            d = decimals[c]
            out[c] = [(_sig(v) if not math.isfinite(k) else round(v, int(k))) if math.isfinite(v) else v
                      for v, k in zip(values, d.fillna(np.nan))]
        else:
            out[c] = [_sig(v) for v in values]
    return out


def records(df: pd.DataFrame) -> list[dict]:
    """Rows as plain dicts with JSON-friendly values (floats rounded, NaN/inf -> None)."""
    df = round_estimates(df)
    return [{str(k): jsonable(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def dumps(named: dict, meta: dict | None = None) -> str:
    """Strict JSON text of ``{"meta": ..., **named}`` (DataFrames become row lists)."""
    body = {"meta": jsonable(_meta_provider() if meta is None else meta)}
    body.update({str(k): jsonable(v) for k, v in named.items()})
    return json.dumps(body, indent=2, allow_nan=False, default=str)


def table_formats(df: pd.DataFrame, floatfmt: str = "{:.4f}") -> dict[str, str]:
    """The format of each float column in a table: an estimate with a 95 % interval (and the interval)
    to the precision of its typical row (two significant digits of the half-width, as
    ``round_estimates``; the median over the rows), whole numbers without decimals, anything else
    ``floatfmt``."""
    floats = [c for c in df.columns if pd.api.types.is_float_dtype(df[c])]
    out = {}
    for c, (lo, hi) in _interval_of(df, adjacent=True).items():
        if c not in floats or lo not in floats or hi not in floats:
            continue
        half = ((df[hi] - df[lo]).abs() / 2.0).to_numpy(dtype=float)
        half = half[np.isfinite(half) & (half > 0)]
        if len(half):
            d = int(np.clip(np.ceil(np.median(1 - np.floor(np.log10(half)))), 0, 12))
            for col in (c, lo, hi):
                out[col] = f"{{:.{d}f}}"
    for c in floats:
        if c not in out:
            v = df[c].to_numpy(dtype=float)
            v = v[np.isfinite(v)]
            out[c] = "{:.0f}" if len(v) and np.all(v == np.round(v)) else floatfmt
    return out


def render(df: pd.DataFrame, fmt: str, *, title: str | None = None, floatfmt: str = "{:.4f}",
           formats: dict[str, str] | None = None, meta: dict | None = None) -> str:
    """Text for ``df`` in ``fmt``; ``title`` only in table form.

    In a table, float columns use ``formats[column]``, else ``table_formats``
    (the precision of the estimate; ``floatfmt`` where there is none); NaN
    is blank. JSON is ``{"meta": ..., "rows": [...]}``.
    """
    if fmt == "json":
        return dumps({"rows": df}, meta)
    if fmt == "csv":
        return round_estimates(df).to_csv(index=False).rstrip("\n")
    if fmt != "table":
        raise ValueError(f"unknown format {fmt}")
    chosen = {**table_formats(df, floatfmt), **(formats or {})}
    formatters = {c: (lambda v, f=chosen[c]: "" if pd.isna(v) else f.format(v))
                  for c in df.columns if pd.api.types.is_float_dtype(df[c])}
    body = df.to_string(index=False, formatters=formatters, na_rep="")
    return f"{title}\n{body}" if title else body


def render_tables(named: dict, fmt: str, header: str = "", formats: dict[str, str] | None = None,
                  meta: dict | None = None) -> str:
    """Several named tables: a JSON object of row lists (beside ``meta``), CSV
    blocks headed ``# name``, or aligned tables titled ``[name]`` under ``header``.
    Values that are not DataFrames are kept in JSON only."""
    if fmt == "json":
        return dumps(named, meta)
    frames = {k: v for k, v in named.items() if isinstance(v, pd.DataFrame)}
    if fmt == "csv":
        return "\n\n".join(f"# {k}\n{render(v, 'csv')}" for k, v in frames.items())
    body = "\n\n".join(render(v, "table", title=f"[{k}]", formats=formats) for k, v in frames.items())
    return f"{header}\n\n{body}" if header else body
