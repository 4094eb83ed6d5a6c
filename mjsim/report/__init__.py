"""Reports: matplotlib figures drawn from computed tables, and a self-contained HTML page.

- :func:`write_report` — run directories in, one HTML file out (figures as
  embedded PNG); the steps (:func:`load_runs`, :func:`report_tables`,
  :func:`report_figures`) are public for notebooks;
- :mod:`mjsim.report.tables` — the tables the figures are drawn from;
- :mod:`mjsim.report.figures` — one function per figure, table in, Figure out;
- :mod:`mjsim.report.html` — the page builder.
"""

from mjsim.report.build import load_runs, report_figures, report_tables, write_report

__all__ = ["load_runs", "report_figures", "report_tables", "write_report"]
