"""The short end-of-run summary: per seat and overall rates, with standard errors.

Built on :func:`mjsim.analysis.metrics.seat_table` (same definitions and
standard errors): rates are per hand; a seat's ``win_rate`` counts hands it
won (alone or with others), ``self_draw_share`` is the share of its wins that
were self-drawn (kong replacement included), ``deal_in_rate`` the share of
hands in which its discard (or robbed kong) was won on.
"""

from __future__ import annotations

import polars as pl

from mjsim.analysis.metrics import seat_table
from mjsim.io.dataset import scan_hands

_SEAT_FIGURES = ("win_rate", "self_draw_share", "deal_in_rate", "mean_net", "sd_net")


def run_summary(*directories) -> dict:
    """Figures of the runs' hands: overall and per absolute seat."""
    hands = scan_hands(*directories)
    base = (
        hands.select(
            pl.len().alias("hands"),
            pl.col("fan").explode().cast(pl.Float64).mean().alias("mean_fan"),
            pl.col("turns").cast(pl.Float64).mean().alias("mean_turns"),
        )
        .collect()
        .row(0, named=True)
    )
    table = seat_table(hands, by="seat", metrics=(*_SEAT_FIGURES, "draw_rate"))
    figures = {(row["seat"], row["metric"]): row for row in table.iter_rows(named=True)}
    draw = figures[(0, "draw_rate")]  # the same hands for every seat
    seats = []
    for seat in range(4):
        row = {"seat": seat}
        for name in _SEAT_FIGURES:
            row[name] = figures[(seat, name)]["estimate"]
        row["win_rate_se"] = figures[(seat, "win_rate")]["se"]
        row["mean_net_se"] = figures[(seat, "mean_net")]["se"]
        seats.append(row)
    return {**base, "draw_rate": draw["estimate"], "draw_rate_se": draw["se"], "seats": seats}


def _num(value) -> float:
    return float("nan") if value is None else value


def format_summary(summary: dict) -> str:
    lines = [
        f"hands {summary['hands']:,}   draw rate {summary['draw_rate']:.3f} ± {_num(summary['draw_rate_se']):.3f}   "
        f"mean fan {_num(summary['mean_fan']):.2f}   "
        f"mean turns {summary['mean_turns']:.1f}",
        "seat  win rate        self-draw share  deal-in rate  mean net",
    ]
    for s in summary["seats"]:
        lines.append(
            f"{s['seat']:>4}  {s['win_rate']:.3f} ± {_num(s['win_rate_se']):.3f}   "
            f"{_num(s['self_draw_share']):>15.3f}  {s['deal_in_rate']:>12.3f}  "
            f"{s['mean_net']:+.3f} ± {_num(s['mean_net_se']):.3f}"
        )
    return "\n".join(lines)
