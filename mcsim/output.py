"""Print result tables as an aligned table, JSON or CSV (stdout only)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

FORMATS = ("table", "json", "csv")


def _jsonable(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return None if math.isnan(v) else v
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def records(df: pd.DataFrame) -> list[dict]:
    """Rows as plain dicts with JSON-friendly values."""
    return [{k: _jsonable(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def render(df: pd.DataFrame, fmt: str, *, title: str | None = None, floatfmt: str = "{:.4f}",
           formats: dict[str, str] | None = None) -> str:
    """Text for ``df`` in ``fmt``; ``title`` only in table form.

    In a table, float columns use ``formats[column]`` or ``floatfmt``; NaN is blank.
    """
    if fmt == "json":
        return json.dumps(records(df), indent=2)
    if fmt == "csv":
        return df.to_csv(index=False).rstrip("\n")
    if fmt != "table":
        raise ValueError(f"unknown format {fmt}")
    formats = formats or {}
    formatters = {c: (lambda v, f=formats.get(c, floatfmt): "" if pd.isna(v) else f.format(v))
                  for c in df.columns if pd.api.types.is_float_dtype(df[c])}
    body = df.to_string(index=False, formatters=formatters, na_rep="")
    return f"{title}\n{body}" if title else body


def render_tables(named: dict, fmt: str, header: str = "", formats: dict[str, str] | None = None) -> str:
    """Several named tables: a JSON object of row lists, CSV blocks headed
    ``# name``, or aligned tables titled ``[name]`` under ``header``.
    Values that are not DataFrames are kept in JSON only."""
    if fmt == "json":
        return json.dumps({k: records(v) if isinstance(v, pd.DataFrame) else v for k, v in named.items()},
                          indent=2, default=str)
    frames = {k: v for k, v in named.items() if isinstance(v, pd.DataFrame)}
    if fmt == "csv":
        return "\n\n".join(f"# {k}\n{render(v, 'csv')}" for k, v in frames.items())
    body = "\n\n".join(render(v, "table", title=f"[{k}]", formats=formats) for k, v in frames.items())
    return f"{header}\n\n{body}" if header else body
