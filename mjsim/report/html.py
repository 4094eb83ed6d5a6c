"""The HTML page: tables and figures in one self-contained file.

:func:`render_html` takes what :mod:`mjsim.report.build` computed — run
descriptions, tables (pandas) and figures (matplotlib, or a note string where
a run has nothing to draw) — and returns one HTML document.  Figures are
embedded as base64 PNG ``data:`` URIs; the style sheet is inline; nothing
refers to another file, so the page can be mailed or archived as it is.
"""

from __future__ import annotations

import datetime as _dt
import math
from html import escape

import pandas as pd

from mjsim.report.figures import png_data_uri

STYLE = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, "Noto Sans CJK SC", sans-serif;
       max-width: 1180px; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
h3 { margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.88em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f3f3; } td.label, th.label { text-align: left; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.88em; color: #555; max-width: 60em; }
p.note { background: #f7f7ee; border-left: 4px solid #c9b458; padding: 0.4em 0.8em; }
p.meta { color: #666; font-size: 0.9em; }
"""


NO_INTERVAL = "(one cluster: no interval)"


def _finite(*values) -> bool:
    return all(v is not None and not pd.isna(v) and math.isfinite(v) for v in values)


def fmt_ci(value: float, lo: float, hi: float, digits: int = 4, sign: bool = False) -> str:
    """'0.2560 ± 0.0191': the estimate and the half-width of its 95% interval; '4.00 (one cluster: no
    interval)' where the interval is missing (a single hand or session), never '± nan'."""
    if not _finite(value):
        return "n/a"
    head = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    if not _finite(lo, hi):
        return f"{head} {NO_INTERVAL}"
    return f"{head} ± {(hi - lo) / 2:.{digits}f}"


def fmt_interval(value: float, lo: float, hi: float, digits: int = 4) -> str:
    """'0.2560 [0.2369, 0.2751]': the estimate and its 95% interval (for rates: Wilson, not symmetric);
    the estimate and :data:`NO_INTERVAL` where the interval is missing, never '[nan, nan]'."""
    if not _finite(value):
        return "n/a"
    if not _finite(lo, hi):
        return f"{value:.{digits}f} {NO_INTERVAL}"
    return f"{value:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def table_html(rows: list[dict], columns: list[str], css_class: str = "", attrs: dict | None = None,
               label_columns: int = 1) -> str:  # fmt: skip
    """A plain HTML table from row dicts (cell text escaped); the first ``label_columns`` are left-aligned."""
    extra = "".join(f' {k}="{escape(str(v))}"' for k, v in (attrs or {}).items())
    head = "".join(
        f'<th class="label">{escape(c)}</th>' if i < label_columns else f"<th>{escape(c)}</th>"
        for i, c in enumerate(columns)
    )
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="label">{escape(str(row[c]))}</td>' if i < label_columns else f"<td>{escape(str(row[c]))}</td>"
            for i, c in enumerate(columns)
        )
        body.append(f"<tr>{cells}</tr>")
    return f'<table class="{css_class}"{extra}><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def frame_html(frame: pd.DataFrame, css_class: str = "", formats: dict | None = None, label_columns: int = 1) -> str:
    """A DataFrame as a table, each column formatted by ``formats[column]`` (a callable or format spec)."""
    formats = formats or {}
    rows = []
    for record in frame.to_dict("records"):
        row = {}
        for column, value in record.items():
            spec = formats.get(column)
            if callable(spec):
                row[column] = spec(value)
            elif spec and not pd.isna(value):
                row[column] = format(value, spec)
            else:
                row[column] = value
        rows.append(row)
    return table_html(rows, list(frame.columns), css_class, label_columns=label_columns)


def figure_html(figure, caption: str, name: str) -> str:
    """A ``<figure>`` with the PNG embedded, or a note paragraph where ``figure`` is a string."""
    if figure is None:
        return ""
    if isinstance(figure, str):
        return f'<p class="note" data-figure="{escape(name)}">{escape(figure)}</p>'
    width = round(figure.get_figwidth() * 100)  # CSS px: the figure's fonts at their size, however many dots
    return (
        f'<figure data-figure="{escape(name)}"><img alt="{escape(name)}" width="{width}" '
        f'src="{png_data_uri(figure)}">'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def render_html(title: str, sections: list[dict]) -> str:
    """The report page.  Each section is a dict: ``heading``, optional ``intro`` (text), and
    ``parts`` — a list of HTML fragments (tables from :func:`table_html`, figures from
    :func:`figure_html`, notes)."""
    when = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    body = [f"<h1>{escape(title)}</h1>", f'<p class="meta">mjsim report, generated {when}</p>']
    for section in sections:
        body.append(f"<h2>{escape(section['heading'])}</h2>")
        if section.get("intro"):
            body.append(f"<p>{escape(section['intro'])}</p>")
        body.extend(section["parts"])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def note(text: str) -> str:
    return f'<p class="note">{escape(text)}</p>'


def heading(text: str, level: int = 3) -> str:
    return f"<h{level}>{escape(text)}</h{level}>"


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"
