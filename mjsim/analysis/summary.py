"""The short end-of-run summary: per seat and overall rates, with standard errors.

Rates are per hand; a seat's ``win_rate`` counts hands it won (alone or with
others), ``self_draw_share`` is the share of its wins that were self-drawn
(kong replacement included), ``deal_in_rate`` the share of hands in which
its discard (or robbed kong) was won on.
"""

from __future__ import annotations

import math

import polars as pl

from mjsim.io.dataset import scan_hands


def _se_rate(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) / n) if n else float("nan")


def run_summary(*directories) -> dict:
    """Figures of the runs' hands: overall and per absolute seat."""
    hands = scan_hands(*directories)
    base = hands.select(
        pl.len().alias("hands"),
        (pl.col("winners").list.len() == 0).mean().alias("draw_rate"),
        pl.col("fan").explode().cast(pl.Float64).mean().alias("mean_fan"),
        pl.col("turns").cast(pl.Float64).mean().alias("mean_turns"),
    ).collect().row(0, named=True)
    n = base["hands"]
    seats = []
    for seat in range(4):
        won = pl.col("winners").list.contains(seat)
        self_drawn = pl.col("win_kind").list.get(pl.col("winners").list.eval(pl.element() == seat).list.arg_max())
        row = hands.select(
            won.mean().alias("win_rate"),
            pl.when(won).then(self_drawn.is_in(["self_draw", "kong_replacement"])).otherwise(None).mean()
            .alias("self_draw_share"),
            (pl.col("discarder") == seat).fill_null(False).mean().alias("deal_in_rate"),
            pl.col("net").arr.get(seat).cast(pl.Float64).mean().alias("mean_net"),
            pl.col("net").arr.get(seat).cast(pl.Float64).std().alias("sd_net"),
        ).collect().row(0, named=True)
        row["seat"] = seat
        row["win_rate_se"] = _se_rate(row["win_rate"], n)
        row["mean_net_se"] = (row["sd_net"] or 0.0) / math.sqrt(n) if n > 1 else float("nan")
        seats.append(row)
    return {**base, "draw_rate_se": _se_rate(base["draw_rate"], n), "seats": seats}


def format_summary(summary: dict) -> str:
    lines = [
        f"hands {summary['hands']:,}   draw rate {summary['draw_rate']:.3f} ± {summary['draw_rate_se']:.3f}   "
        f"mean fan {summary['mean_fan'] if summary['mean_fan'] is not None else float('nan'):.2f}   "
        f"mean turns {summary['mean_turns']:.1f}",
        "seat  win rate        self-draw share  deal-in rate  mean net",
    ]
    for s in summary["seats"]:
        share = s["self_draw_share"]
        lines.append(
            f"{s['seat']:>4}  {s['win_rate']:.3f} ± {s['win_rate_se']:.3f}   "
            f"{(share if share is not None else float('nan')):>15.3f}  {s['deal_in_rate']:>12.3f}  "
            f"{s['mean_net']:+.3f} ± {s['mean_net_se']:.3f}"
        )
    return "\n".join(lines)
