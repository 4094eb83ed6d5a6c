"""Analysis of hand logs (polars, lazy over Parquet run directories).

Every table is tidy and long — one row per group and metric with
``estimate, se, ci_low, ci_high, n`` — and every rate and mean carries a
cluster-robust standard error and a 95% interval (:mod:`mjsim.analysis.stats`).

- :mod:`~mjsim.analysis.metrics`: ``seat_rows``, ``win_rows``, ``seat_table``,
  ``pattern_table``, ``fan_table``;
- :mod:`~mjsim.analysis.payments`: ``liability_table`` (包), ``horse_table`` (买马);
- :mod:`~mjsim.analysis.risk`: ``session_paths``, ``session_risk``, ``cumulative_paths``;
- :mod:`~mjsim.analysis.paired`: ``paired_difference``, ``hands_needed``,
  ``same_hands``, ``compare_table``;
- :mod:`~mjsim.analysis.xuezhan`: 血战 / 血流 figures — ``wins_table``, ``win_order_table``,
  ``rule_table`` (查花猪, 查叫, 退税, 呼叫转移), ``money_share_table``, ``net_by_win_order``,
  ``dealer_edge_table``;
- :mod:`~mjsim.analysis.shuitou`: 水头 figures — ``caishen_value_table``, ``flower_value_table`` (what a
  财神 or a flower is worth), ``split_table`` (分牌), and ``shuitou_dealer_edge_table``,
  ``shuitou_money_share_table`` (the module's ``dealer_edge_table`` and ``money_share_table``);
- :mod:`~mjsim.analysis.summary`: the end-of-run summary the CLI prints.
"""

from mjsim.analysis.metrics import fan_table, pattern_table, seat_rows, seat_table, win_rows
from mjsim.analysis.paired import compare_table, hands_needed, paired_difference, same_hands
from mjsim.analysis.payments import horse_table, liability_table
from mjsim.analysis.risk import cumulative_paths, session_paths, session_risk
from mjsim.analysis.shuitou import caishen_value_table, flower_value_table, split_table
from mjsim.analysis.shuitou import dealer_edge_table as shuitou_dealer_edge_table
from mjsim.analysis.shuitou import money_share_table as shuitou_money_share_table
from mjsim.analysis.stats import pivot_metrics
from mjsim.analysis.summary import format_summary, run_summary
from mjsim.analysis.xuezhan import (
    dealer_edge_table,
    money_share_table,
    net_by_win_order,
    rule_table,
    win_order_table,
    wins_table,
)  # fmt: skip

__all__ = [
    "caishen_value_table", "compare_table", "cumulative_paths", "dealer_edge_table", "fan_table",
    "flower_value_table", "format_summary", "hands_needed", "horse_table", "liability_table", "money_share_table",
    "net_by_win_order", "paired_difference", "pattern_table", "pivot_metrics", "rule_table", "run_summary",
    "same_hands", "seat_rows", "seat_table", "session_paths", "session_risk", "shuitou_dealer_edge_table",
    "shuitou_money_share_table", "split_table", "win_order_table", "win_rows", "wins_table",
]  # fmt: skip
