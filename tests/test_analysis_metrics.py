"""mjsim.analysis tables against figures worked out by hand on tiny hand logs.

Every expected value below is computed in the test with plain arithmetic
(the helpers at the top re-derive means, standard deviations, quantiles,
the cluster-robust ratio standard error and the Wilson interval from their
definitions), never by calling the code under test.
"""

from __future__ import annotations

import math

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

from mjsim.analysis import (
    cumulative_paths,
    fan_table,
    format_summary,
    horse_table,
    liability_table,
    pattern_table,
    pivot_metrics,
    run_summary,
    seat_rows,
    seat_table,
    session_risk,
    win_rows,
)  # fmt: skip
from mjsim.io.dataset import scan_hands
from mjsim.io.schema import COLUMNS, arrow_schema

Z = 1.959963984540054
APPROX = dict(rel=1e-9, abs=1e-12)


# -- arithmetic by hand ---------------------------------------------------------------------------


def mean(xs):
    return sum(xs) / len(xs)


def sd(xs):
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def quantile(xs, q):
    """Linear interpolation between order statistics (numpy's default)."""
    s = sorted(xs)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (pos - lo) * (s[hi] - s[lo])


def skew(xs):
    m = mean(xs)
    m2 = sum((x - m) ** 2 for x in xs) / len(xs)
    m3 = sum((x - m) ** 3 for x in xs) / len(xs)
    return m3 / m2**1.5


def cluster_se(a, b):
    """se of sum(a)/sum(b) over clusters with b > 0: sqrt(N/(N-1) * sum (a - R b)^2) / B."""
    pairs = [(x, y) for x, y in zip(a, b) if y > 0]
    n = len(pairs)
    big_a, big_b = sum(x for x, _ in pairs), sum(y for _, y in pairs)
    r = big_a / big_b
    return math.sqrt(n / (n - 1) * sum((x - r * y) ** 2 for x, y in pairs)) / big_b


def wilson(p, n):
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def rate_interval(p, se, clusters):
    """The documented rate interval: Wilson at the effective size p(1-p)/se^2 (clusters when p is 0 or 1)."""
    if p in (0.0, 1.0):
        low, high = wilson(p, clusters)
        return (0.0 if p == 0 else low), (1.0 if p == 1 else high)
    return wilson(p, p * (1 - p) / se**2)


# -- tiny hand logs ------------------------------------------------------------------------------------

ZERO = [0, 0, 0, 0]


def make_hands(rows: list[dict], run_id="run-a", policies=("A", "B", "A", "B")) -> pl.DataFrame:
    """A hand log with the exact schema; each row gives what differs from an empty drawn hand."""
    defaults = {
        "run_id": run_id, "seed": 0, "session": 0, "hand_in_session": 0, "ruleset": "test",
        "ruleset_hash": "0", "mjsim_version": "0", "dealer": 0, "round_wind": 0, "streak": 0,
        "policies": list(policies), "winners": [], "discarder": None, "win_kind": [], "fan": [],
        "patterns": [], "win_hands": [], "win_melds": [], "last_tile": [], "first_turn": [], "liable": None,
        "net": ZERO, "net_win": None, "net_kong": ZERO, "net_horse": ZERO, "net_liability": ZERO,
        "net_penalty": ZERO, "net_base": ZERO, "wilds": [], "horses": [], "horse_seats": [], "horse_hits": 0, "horse_pool_free": 0,
        "turns": 0,
        "wall_left": 0, "followed_dealer": False,
    }  # fmt: skip
    full = []
    for i, row in enumerate(rows):
        item = {**defaults, "hand_id": i, "seed": 1000 + i, **row}
        if item["net_win"] is None:
            item["net_win"] = item["net"]
        k = len(item["winners"])
        for name in ("win_hands", "last_tile", "first_turn"):
            item[name] = item[name] or [False if name != "win_hands" else ""] * k
        item["win_melds"] = item["win_melds"] or [[] for _ in range(k)]
        for name, (dtype, text) in COLUMNS.items():  # columns the analysis does not read: neutral values
            if name not in item:
                if pa.types.is_fixed_size_list(dtype) and not pa.types.is_integer(dtype.value_type):
                    item[name] = None  # 血战's end_state, 水头's flowers and end hands: null outside the family
                elif pa.types.is_fixed_size_list(dtype):
                    item[name] = [-1] * dtype.list_size
                elif pa.types.is_boolean(dtype):
                    item[name] = False
                elif pa.types.is_integer(dtype):
                    item[name] = None  # 换三张's pass_offset: null without the exchange
                elif text.startswith("per winner"):
                    value = dtype.value_type
                    neutral = "" if pa.types.is_string(value) else False if pa.types.is_boolean(value) else -1
                    item[name] = [neutral] * k
                else:
                    item[name] = []
        full.append({name: item[name] for name in COLUMNS})
    table = pa.Table.from_pylist(full, schema=arrow_schema())
    return pl.from_arrow(table)


# six hands: a discard win, a 包自摸, a draw, a double win, a 包杠, a robbed kong (抢杠)
HANDS = [
    dict(dealer=0, winners=[1], discarder=2, win_kind=["discard"], fan=[1], patterns=[["chicken"]],
         net=[0, 2, -2, 0]),
    dict(dealer=0, winners=[0], win_kind=["self_draw"], fan=[2], patterns=[["all_pungs", "self_draw", "self_draw"]],
         liable=2, net=[12, 0, -12, 0], net_win=[4, 0, -4, 0], net_liability=[8, 0, -8, 0]),
    dict(dealer=1),
    dict(dealer=1, winners=[2, 3], discarder=0, win_kind=["discard", "discard"], fan=[0, 1],
         patterns=[["chicken"], ["all_chows"]], net=[-3, 0, 1, 2]),
    dict(dealer=2, winners=[3], win_kind=["kong_replacement"], kong_from_discard=[2], fan=[3],
         patterns=[["chicken", "self_draw", "kong_flower"]], liable=2, net=[0, 0, -24, 24],
         net_win=[0, 0, -8, 8], net_liability=[0, 0, -16, 16]),
    dict(dealer=3, winners=[1], discarder=0, win_kind=["robbed_kong"], fan=[3], patterns=[["chicken", "robbed_kong"]],
         liable=0, net=[-15, 15, 0, 0], net_win=[-5, 5, 0, 0], net_liability=[-10, 10, 0, 0]),
]  # fmt: skip
NETS = {0: [0, 12, 0, -3, 0, -15], 1: [2, 0, 0, 0, 0, 15], 2: [-2, -12, 0, 1, -24, 0], 3: [0, 0, 0, 2, 24, 0]}
DEALERS = [0, 0, 1, 1, 2, 3]


@pytest.fixture
def hands() -> pl.LazyFrame:
    return make_hands(HANDS).lazy()


def figures(table: pl.DataFrame, **where) -> dict:
    """metric -> row of a long table, for the rows matching ``where``."""
    part = table
    for column, value in where.items():
        part = part.filter(pl.col(column) == value)
    rows = {row["metric"]: row for row in part.iter_rows(named=True)}
    assert len(rows) == part.height, "one row per metric expected"
    return rows


def check_mean(row, values_per_cluster, rows_per_cluster=None):
    b = rows_per_cluster or [1] * len(values_per_cluster)
    assert row["estimate"] == pytest.approx(sum(values_per_cluster) / sum(b), **APPROX)
    se = cluster_se(values_per_cluster, b)
    assert row["se"] == pytest.approx(se, **APPROX)
    assert row["ci_low"] == pytest.approx(row["estimate"] - Z * se, **APPROX)
    assert row["ci_high"] == pytest.approx(row["estimate"] + Z * se, **APPROX)


def check_rate(row, hits, totals):
    p = sum(hits) / sum(totals)
    assert row["estimate"] == pytest.approx(p, **APPROX)
    clusters = sum(1 for t in totals if t > 0)
    se = cluster_se(hits, totals)
    assert row["se"] == pytest.approx(se, **APPROX)
    low, high = rate_interval(p, se, clusters)
    assert row["ci_low"] == pytest.approx(low, **APPROX)
    assert row["ci_high"] == pytest.approx(high, **APPROX)
    assert row["n"] == sum(totals)


# -- seat rows ---------------------------------------------------------------------------------------


def test_seat_rows_one_row_per_hand_and_seat(hands):
    rows = seat_rows(hands).collect().sort("hand_id", "seat")
    assert rows.height == 24
    assert rows.filter(pl.col("seat") == 1)["net"].to_list() == NETS[1]
    h3 = rows.filter(pl.col("hand_id") == 3)  # dealer 1, seats 2 and 3 won on seat 0's discard
    assert h3["offset"].to_list() == [3, 0, 1, 2]
    assert h3["role"].to_list() == ["non-dealer", "dealer", "non-dealer", "non-dealer"]
    assert h3["won"].to_list() == [False, False, True, True]
    assert h3["fan"].to_list() == [None, None, 0, 1]
    assert h3["dealt_in"].to_list() == [True, False, False, False]
    assert h3["policy"].to_list() == ["A", "B", "A", "B"]
    h4 = rows.filter(pl.col("hand_id") == 4)
    assert h4["self_drawn"].to_list() == [False, False, False, True]  # kong replacement is from the wall
    assert h4["liable"].to_list() == [False, False, True, False]
    assert h4["net_liability"].to_list() == [0, 0, -16, 16]
    h5 = rows.filter(pl.col("hand_id") == 5)
    assert h5["self_drawn"].to_list() == [False] * 4  # a robbed kong is won on another's tile
    assert rows.filter(pl.col("hand_id") == 2)["drawn"].all()


def test_win_rows_one_row_per_win(hands):
    wins = win_rows(hands).collect().sort("hand_id", "seat")
    assert wins["seat"].to_list() == [1, 0, 2, 3, 3, 1]
    assert wins["role"].to_list() == ["non-dealer", "dealer", "non-dealer", "non-dealer", "non-dealer", "non-dealer"]
    assert wins["patterns"].to_list()[1] == ["all_pungs", "self_draw"]  # each id once per win


# -- seat table --------------------------------------------------------------------------------------


def test_seat_table_by_seat(hands):
    table = seat_table(hands, by="seat")
    assert table.columns == ["seat", "metric", "estimate", "se", "ci_low", "ci_high", "n"]
    won = {0: [0, 1, 0, 0, 0, 0], 1: [1, 0, 0, 0, 0, 1], 2: [0, 0, 0, 1, 0, 0], 3: [0, 0, 0, 1, 1, 0]}
    self_drawn = {0: [0, 1, 0, 0, 0, 0], 1: [0] * 6, 2: [0] * 6, 3: [0, 0, 0, 0, 1, 0]}
    dealt_in = {0: [0, 0, 0, 1, 0, 1], 1: [0] * 6, 2: [1, 0, 0, 0, 0, 0], 3: [0] * 6}
    fan = {0: [0, 2, 0, 0, 0, 0], 1: [1, 0, 0, 0, 0, 3], 2: [0, 0, 0, 0, 0, 0], 3: [0, 0, 0, 1, 3, 0]}
    drawn = [0, 0, 1, 0, 0, 0]
    for seat in range(4):
        f = figures(table, seat=seat)
        assert f["hands"]["estimate"] == 6 and f["hands"]["n"] == 6
        check_rate(f["win_rate"], won[seat], [1] * 6)
        check_rate(f["deal_in_rate"], dealt_in[seat], [1] * 6)
        check_rate(f["draw_rate"], drawn, [1] * 6)
        check_mean(f["mean_net"], NETS[seat])
        assert f["mean_net"]["se"] == pytest.approx(sd(NETS[seat]) / math.sqrt(6), **APPROX)  # textbook s/sqrt(n)
        assert f["sd_net"]["estimate"] == pytest.approx(sd(NETS[seat]), **APPROX)
        for q, name in [(0.01, "q01"), (0.05, "q05"), (0.5, "q50"), (0.95, "q95"), (0.99, "q99")]:
            assert f[name]["estimate"] == pytest.approx(quantile(NETS[seat], q), **APPROX)
            assert f[name]["se"] is None
        assert f["skewness"]["estimate"] == pytest.approx(skew(NETS[seat]), **APPROX)
        assert f["self_draw_share"]["n"] == sum(won[seat])
        assert f["self_draw_share"]["estimate"] == pytest.approx(sum(self_drawn[seat]) / sum(won[seat]), **APPROX)
        assert f["mean_fan"]["estimate"] == pytest.approx(sum(fan[seat]) / sum(won[seat]), **APPROX)
    # seat 3 won twice (a discard, a kong replacement): share 1/2 over two hands
    check_rate(figures(table, seat=3)["self_draw_share"], [0, 0, 0, 0, 1, 0], won[3])
    assert figures(table, seat=0)["self_draw_share"]["se"] is None  # one win: no se
    # the parts of the mean net
    f0 = figures(table, seat=0)
    assert f0["mean_net_liability"]["estimate"] == pytest.approx((8 - 10) / 6, **APPROX)
    assert f0["mean_net_win"]["estimate"] == pytest.approx((0 + 4 + 0 - 3 + 0 - 5) / 6, **APPROX)
    assert sum(figures(table, seat=s)["mean_net"]["estimate"] for s in range(4)) == pytest.approx(0, abs=1e-12)


def test_seat_table_computes_only_the_metrics_asked_for(hands):
    nets = figures(seat_table(hands, by="seat", metrics=("sd_net", "win_rate", "q50")), seat=2)
    assert set(nets) == {"win_rate", "sd_net", "q50"}
    check_rate(nets["win_rate"], [0, 0, 0, 1, 0, 0], [1] * 6)
    assert nets["sd_net"]["estimate"] == pytest.approx(sd(NETS[2]), **APPROX)
    assert nets["q50"]["estimate"] == pytest.approx(quantile(NETS[2], 0.5), **APPROX)
    with pytest.raises(ValueError, match="unknown seat metric 'net_rate': choose from hands, win_rate"):
        seat_table(hands, metrics=("win_rate", "net_rate"))


def test_seat_table_by_role_clusters_the_non_dealers_by_hand(hands):
    table = seat_table(hands, by="role")
    dealer_net = [NETS[d][h] for h, d in enumerate(DEALERS)]
    assert dealer_net == [0, 12, 0, 0, -24, 0]
    f = figures(table, role="dealer")
    check_mean(f["mean_net"], dealer_net)
    check_rate(f["win_rate"], [0, 1, 0, 0, 0, 0], [1] * 6)
    g = figures(table, role="non-dealer")
    assert g["hands"]["estimate"] == 6 and g["hands"]["n"] == 18
    # per hand, the three non-dealers hold minus the dealer's net
    check_mean(g["mean_net"], [-x for x in dealer_net], [3] * 6)
    assert g["mean_net"]["estimate"] == pytest.approx(12 / 18, **APPROX)
    # residuals a_c - R b_c = [0, -12, 0, 0, 24, 0] - 2 = [-2, -14, -2, -2, 22, -2]
    assert g["mean_net"]["se"] == pytest.approx(math.sqrt(6 / 5 * 696) / 18, **APPROX)
    check_rate(g["win_rate"], [1, 0, 0, 2, 1, 1], [3] * 6)
    check_rate(g["deal_in_rate"], [1, 0, 0, 1, 0, 1], [3] * 6)
    non_dealer_nets = [NETS[s][h] for h, d in enumerate(DEALERS) for s in range(4) if s != d]
    assert g["sd_net"]["estimate"] == pytest.approx(sd(non_dealer_nets), **APPROX)
    assert g["q50"]["estimate"] == pytest.approx(quantile(non_dealer_nets, 0.5), **APPROX)


def test_seat_table_by_offset_and_policy(hands):
    by_offset = seat_table(hands, by="offset")
    for offset in range(4):
        values = [NETS[(d + offset) % 4][h] for h, d in enumerate(DEALERS)]
        check_mean(figures(by_offset, offset=offset)["mean_net"], values)
    by_policy = seat_table(hands, by="policy")  # A: seats 0 and 2, B: seats 1 and 3
    a = [NETS[0][h] + NETS[2][h] for h in range(6)]
    check_mean(figures(by_policy, policy="A")["mean_net"], a, [2] * 6)
    check_rate(figures(by_policy, policy="B")["win_rate"], [1, 0, 0, 1, 1, 1], [2] * 6)
    crossed = seat_table(hands, by=["policy", "role"])
    assert set(crossed.select("policy", "role").unique().iter_rows()) == {
        ("A", "dealer"),
        ("A", "non-dealer"),
        ("B", "dealer"),
        ("B", "non-dealer"),
    }
    # policy A is the dealer in hands 0, 1 (seat 0) and 4 (seat 2)
    check_mean(figures(crossed, policy="A", role="dealer")["mean_net"], [0, 12, -24], [1, 1, 1])
    with pytest.raises(ValueError):
        seat_table(hands, by="wind")


def test_wide_view_of_a_long_table(hands):
    wide = pivot_metrics(seat_table(hands, by="role"))
    assert wide.columns[:3] == ["role", "hands", "win_rate"]
    assert wide.filter(pl.col("role") == "dealer")["mean_net"].item() == pytest.approx(-2.0)


# -- patterns and fan ------------------------------------------------------------------------------


def test_pattern_table_per_hand_and_per_win(hands):
    table = pattern_table(hands)
    assert table.columns == ["pattern", "metric", "count", "estimate", "se", "ci_low", "ci_high", "n"]
    assert table["pattern"].unique().len() == 6
    wins_per_hand = [1, 1, 0, 2, 1, 1]
    chicken_wins = [1, 0, 0, 1, 1, 1]  # hands 0, 3 (one of two wins), 4, 5
    f = figures(table, pattern="chicken")
    check_rate(f["per_win"], chicken_wins, wins_per_hand)
    assert f["per_win"]["estimate"] == pytest.approx(4 / 6)
    assert f["per_win"]["se"] == pytest.approx(math.sqrt(5 / 4 * 8 / 9) / 6, **APPROX)
    check_rate(f["per_hand"], [1, 0, 0, 1, 1, 1], [1] * 6)
    assert f["per_hand"]["count"] == 4 and f["per_win"]["count"] == 4
    s = figures(table, pattern="self_draw")  # listed twice in hand 1's win: counted once
    check_rate(s["per_win"], [0, 1, 0, 0, 1, 0], wins_per_hand)
    assert table["pattern"][0] == "chicken"  # most frequent first


def test_pattern_table_by_role(hands):
    table = pattern_table(hands, by="role")
    dealer = figures(table, role="dealer", pattern="chicken")  # the dealer won once (hand 1), without it
    assert dealer["per_win"]["count"] == 0 and dealer["per_win"]["n"] == 1
    assert dealer["per_hand"]["estimate"] == 0 and dealer["per_hand"]["n"] == 6
    other = figures(table, role="non-dealer", pattern="chicken")
    check_rate(other["per_win"], [1, 0, 0, 1, 1, 1], [1, 0, 0, 2, 1, 1])
    check_rate(other["per_hand"], [1, 0, 0, 1, 1, 1], [3] * 6)


def test_fan_table(hands):
    table = fan_table(hands)
    assert table["fan"].to_list() == [0, 1, 2, 3]
    assert table["count"].to_list() == [1, 2, 1, 2]
    assert table["cum_share"].to_list() == pytest.approx([1 / 6, 3 / 6, 4 / 6, 1.0])
    one = table.filter(pl.col("fan") == 1).row(0, named=True)
    check_rate(one, [1, 0, 0, 1, 0, 0], [1, 1, 0, 2, 1, 1])
    by_role = fan_table(hands, by="role")
    dealer = by_role.filter(pl.col("role") == "dealer")
    assert dealer["count"].to_list() == [0, 0, 1, 0] and dealer["n"].to_list() == [1] * 4


# -- liability ---------------------------------------------------------------------------------------


def test_liability_table(hands):
    table = liability_table(hands, by="role")
    assert table.columns == ["trigger", "rule", "liable_role", "metric", "estimate", "se", "ci_low", "ci_high", "n"]
    # firings: hand 1 包自摸 by seat 2 (non-dealer) paying 8, hand 4 包杠 by seat 2 (dealer) paying 16,
    # hand 5 抢杠 by seat 0 (non-dealer) paying 10
    f = figures(table, trigger="all", liable_role="all")
    assert f["firings"]["estimate"] == 3 and f["firings"]["n"] == 6
    check_rate(f["rate"], [0, 1, 0, 0, 1, 1], [1] * 6)
    check_mean(f["paid_per_hand"], [0, 8, 0, 0, 16, 10])
    assert f["paid_total"]["estimate"] == pytest.approx(34)
    assert f["paid_total"]["se"] == pytest.approx(6 * cluster_se([0, 8, 0, 0, 16, 10], [1] * 6), **APPROX)
    check_mean(f["paid_mean"], [8, 16, 10])
    assert f["share_of_firings"]["estimate"] == 1.0
    d = figures(table, trigger="all", liable_role="dealer")
    check_rate(d["rate"], [0, 0, 0, 0, 1, 0], [1] * 6)
    check_rate(d["share_of_firings"], [0, 1, 0], [1, 1, 1])
    assert d["paid_mean"]["estimate"] == 16 and d["paid_mean"]["se"] is None
    nd = figures(table, trigger="all", liable_role="non-dealer")
    check_rate(nd["share_of_firings"], [1, 0, 1], [1, 1, 1])
    check_mean(nd["paid_mean"], [8, 10])
    assert nd["paid_mean"]["se"] == pytest.approx(1.0, **APPROX)
    kong = figures(table, trigger="kong_replacement", liable_role="all")
    assert kong["firings"]["estimate"] == 1
    assert table.filter(pl.col("trigger") == "kong_replacement")["rule"][0] == "包杠"
    robbed = figures(table, trigger="robbed_kong", liable_role="dealer")
    assert robbed["firings"]["estimate"] == 0 and robbed["paid_mean"]["estimate"] is None
    assert robbed["share_of_firings"]["estimate"] == 0.0
    assert figures(table, trigger="self_draw", liable_role="non-dealer")["paid_total"]["estimate"] == 8
    by_offset = liability_table(hands, by="offset")
    assert figures(by_offset, trigger="all", liable_offset="2")["firings"]["estimate"] == 1  # hand 1: dealer 0, seat 2
    assert figures(by_offset, trigger="all", liable_offset="1")["firings"]["estimate"] == 1  # hand 5: dealer 3, seat 0
    plain = liability_table(hands, by=None)
    assert "liable_None" not in plain.columns and plain.height == 4 * 6


def test_liability_trigger_of_a_kong_replacement_win():
    # hand 0: 杠上开花 on a kong fed by seat 1's discard, seat 1 pays (包杠);
    # hand 1: 杠上开花 on a self-made kong, seat 1 pays because it fed the winner's fourth set (包自摸)
    rows = [
        dict(dealer=0, winners=[2], win_kind=["kong_replacement"], kong_from_discard=[1], fan=[3], liable=1,
             net=[0, -24, 24, 0], net_win=[0, -8, 8, 0], net_liability=[0, -16, 16, 0]),
        dict(dealer=0, winners=[2], win_kind=["kong_replacement"], kong_from_discard=[-1], fan=[3], liable=1,
             net=[0, -24, 24, 0], net_win=[0, -8, 8, 0], net_liability=[0, -16, 16, 0]),
    ]  # fmt: skip
    frame = make_hands(rows)
    table = liability_table(frame.lazy(), by=None)
    assert figures(table, trigger="kong_replacement")["firings"]["estimate"] == 1
    assert figures(table, trigger="self_draw")["firings"]["estimate"] == 1
    older = liability_table(frame.drop("kong_from_discard").lazy(), by=None)  # logs without the column
    assert figures(older, trigger="kong_replacement")["firings"]["estimate"] == 2


# -- horses ------------------------------------------------------------------------------------------

HORSE_HANDS = [
    dict(dealer=0, winners=[1], win_kind=["self_draw"], fan=[1], horses=["1m", "2m"], horse_seats=[0, 1],
         net=[0, 4, -2, -2], net_horse=[1, 1, -1, -1]),
    dict(dealer=1, horses=["5m"], horse_seats=[1]),
    dict(dealer=1, winners=[3], discarder=0, win_kind=["discard"], fan=[1], horses=["3m", "4m", "6m"],
         horse_seats=[2, 3, 1], net=[-2, 1, 0, 1], net_horse=[-1, 1, 0, 0]),
    dict(dealer=2, winners=[2], win_kind=["self_draw"], fan=[2], horses=["9m"], horse_seats=[2],
         net=[-4, -4, 12, -4], net_horse=[-2, -2, 6, -2]),
]  # fmt: skip


def _delta_share(x, h):
    """1 - var(x-h)/var(x) and its influence-function se (one row per hand)."""
    n = len(x)
    r = [a - b for a, b in zip(x, h)]
    mx, mr = mean(x), mean(r)
    vx = sum((a - mx) ** 2 for a in x) / n
    vr = sum((a - mr) ** 2 for a in r) / n
    infl = [-((b - mr) ** 2 - vr) / vx + vr * ((a - mx) ** 2 - vx) / vx**2 for a, b in zip(x, r)]
    return 1 - vr / vx, math.sqrt(n / (n - 1) * sum(u * u for u in infl)) / n


def test_horse_table():
    lf = make_hands(HORSE_HANDS).lazy()
    table = horse_table(lf, by="role")
    dealer_x, dealer_h = [0, 0, 1, 12], [1, 0, 1, 6]
    f = figures(table, role="dealer")
    check_mean(f["mean_net_horse"], dealer_h)
    check_rate(f["horse_paid_rate"], [1, 0, 1, 1], [1] * 4)
    assert f["var_net"]["estimate"] == pytest.approx(sd(dealer_x) ** 2, **APPROX)
    assert f["var_net_horse"]["estimate"] == pytest.approx(sd(dealer_h) ** 2, **APPROX)
    assert f["var_net_ex_horse"]["estimate"] == pytest.approx(sd([-1, 0, 0, 6]) ** 2, **APPROX)
    share, se = _delta_share(dealer_x, dealer_h)
    assert f["horse_variance_share"]["estimate"] == pytest.approx(share, **APPROX)
    assert f["horse_variance_share"]["se"] == pytest.approx(se, **APPROX)
    assert f["horse_variance_share"]["ci_low"] == pytest.approx(share - Z * se, **APPROX)
    g = figures(table, role="non-dealer")
    check_mean(g["mean_net_horse"], [-1, 0, -1, -6], [3] * 4)
    h = figures(table, role="all")
    check_mean(h["horses_per_hand"], [2, 1, 3, 1])
    # horses on won hands pointing at the winner: hand 0 one of 2, hand 2 one of 3, hand 3 one of 1
    check_rate(h["hit_rate"], [1, 0, 1, 1], [2, 0, 3, 1])
    assert h["hit_rate"]["se"] == pytest.approx(math.sqrt(3 / 2 * 0.5) / 6, **APPROX)
    assert h["winner_horse_hit_rate"]["estimate"] == 0
    assert h["winner_horse_hit_rate"]["ci_high"] == pytest.approx(Z * Z / (3 + Z * Z), **APPROX)


def test_horse_bootstrap_is_seeded_and_replaces_the_delta_interval():
    lf = make_hands(HORSE_HANDS * 5).lazy()
    one = horse_table(lf, by="role", bootstrap=200, seed=3)
    two = horse_table(lf, by="role", bootstrap=200, seed=3)
    assert one.equals(two)
    delta = horse_table(lf, by="role")
    row = figures(one, role="dealer")["horse_variance_share"]
    assert row["estimate"] == figures(delta, role="dealer")["horse_variance_share"]["estimate"]
    assert row["ci_low"] <= row["estimate"] <= row["ci_high"] and row["se"] > 0
    assert figures(one, role="dealer")["var_net"] == figures(delta, role="dealer")["var_net"]


def test_no_horses_no_variance_share(hands):
    f = figures(horse_table(hands, by="role"), role="dealer")
    assert f["horse_variance_share"]["estimate"] == 0 and f["mean_net_horse"]["estimate"] == 0
    assert abs(f["horse_variance_share"]["se"]) < 1e-12


# -- sessions ----------------------------------------------------------------------------------------

SESSION_NETS = {  # (session, hand) -> seat 0's net; seat 1 holds the opposite, seats 2 and 3 nothing
    (0, 0): 5, (0, 1): -8, (0, 2): 1,
    (1, 0): -1, (1, 1): -2, (1, 2): 4,
}  # fmt: skip


def session_hands(extra=()):
    rows = [
        dict(session=s, hand_in_session=k, dealer=k % 4, net=[x, -x, 0, 0])
        for (s, k), x in [*SESSION_NETS.items(), *extra]
    ]
    frame = make_hands(rows)
    return frame.with_columns((pl.col("session") * 3 + pl.col("hand_in_session")).alias("hand_id")).lazy()


def drawdown(nets):
    cum, peak, worst = 0, 0, 0
    for x in nets:
        cum += x
        peak = max(peak, cum)
        worst = max(worst, peak - cum)
    return worst


def test_session_risk_by_seat():
    table = session_risk(session_hands(), loss_threshold=1, by="seat")
    assert table.columns == ["seat", "metric", "threshold", "estimate", "se", "ci_low", "ci_high", "n"]
    paths = {0: [[5, -8, 1], [-1, -2, 4]], 1: [[-5, 8, -1], [1, 2, -4]]}
    for seat, sessions in paths.items():
        finals = [sum(p) for p in sessions]
        downs = [drawdown(p) for p in sessions]
        f = figures(table, seat=seat)
        assert f["sessions"]["estimate"] == 2 and f["hands_per_session"]["estimate"] == 3
        check_mean(f["mean_cum_net"], finals)
        assert f["sd_cum_net"]["estimate"] == pytest.approx(sd(finals), **APPROX)
        assert f["cum_net_q05"]["estimate"] == pytest.approx(quantile(finals, 0.05), **APPROX)
        assert f["min_cum_net"]["estimate"] == min(finals)
        check_rate(f["p_loss"], [1 if x < -1 else 0 for x in finals], [1, 1])
        assert f["p_loss"]["threshold"] == 1.0 and f["sessions"]["threshold"] is None
        check_mean(f["mean_drawdown"], downs)
        assert f["drawdown_q50"]["estimate"] == pytest.approx(quantile(downs, 0.5), **APPROX)
        assert f["max_drawdown"]["estimate"] == max(downs)
        check_rate(f["p_drawdown"], [1 if d > 1 else 0 for d in downs], [1, 1])
    assert [drawdown(p) for p in paths[0]] == [8, 3] and [drawdown(p) for p in paths[1]] == [5, 4]
    still = figures(table, seat=2)
    assert still["mean_cum_net"]["estimate"] == 0 and still["max_drawdown"]["estimate"] == 0


def test_session_risk_pooled_and_truncated():
    pooled = session_risk(session_hands(), loss_threshold=[1, 3], by=None)
    assert "seat" not in pooled.columns
    f = pooled.filter(pl.col("metric") == "p_loss").sort("threshold")
    # eight paths, finals per session: [-2, 2, 0, 0] and [1, -1, 0, 0]; clustered by session
    first = f.row(0, named=True)
    check_rate(first, [1, 0], [4, 4])
    assert first["se"] == pytest.approx(0.125, **APPROX)
    assert f.row(1, named=True)["estimate"] == 0
    zero = pooled.filter(pl.col("metric") == "mean_cum_net").row(0, named=True)
    assert zero["estimate"] == 0 and zero["se"] == 0  # nets sum to zero in every session
    # a short third session: counted with the full sessions, dropped from 2-hand sessions
    extra = [((2, 0), 3)]
    full = figures(session_risk(session_hands(extra), by="seat"), seat=0)
    assert full["sessions"]["estimate"] == 3
    assert full["hands_per_session"]["estimate"] == pytest.approx(7 / 3)
    two = figures(session_risk(session_hands(extra), session_length=2, by="seat"), seat=0)
    assert two["sessions"]["estimate"] == 2
    check_mean(two["mean_cum_net"], [5 - 8, -1 - 2])
    check_mean(two["mean_drawdown"], [8, 3])
    with pytest.raises(ValueError):
        session_risk(session_hands(), by="role")


def test_cumulative_paths():
    table = cumulative_paths(session_hands(), by="seat")
    assert table.columns == ["seat", "hand_in_session", "hands_played", "metric", "estimate", "se", "ci_low",
                             "ci_high", "n"]  # fmt: skip
    cums = {0: [5, -1], 1: [-3, -3], 2: [-2, 1]}  # seat 0 after each hand, in the two sessions
    for k, values in cums.items():
        f = figures(table, seat=0, hand_in_session=k)
        assert f["mean"]["n"] == 2
        check_mean(f["mean"], values)
        assert f["q05"]["estimate"] == pytest.approx(quantile(values, 0.05), **APPROX)
        assert f["q50"]["estimate"] == pytest.approx(quantile(values, 0.5), **APPROX)
        assert f["sd"]["estimate"] == pytest.approx(sd(values), **APPROX)
        assert f["mean"]["hands_played"] == k + 1
    pooled = cumulative_paths(session_hands(), by=None)
    assert (pooled.filter(pl.col("metric") == "mean")["estimate"] == 0).all()


# -- Parquet round trip and the CLI summary ---------------------------------------------------------


def test_tables_from_a_parquet_run_and_the_summary(tmp_path, hands):
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text("{}")
    pq.write_table(make_hands(HANDS).to_arrow(), run / "part-00000-0000.parquet")
    lf = scan_hands(run)
    assert_frame_equal(seat_table(lf, by="seat"), seat_table(hands, by="seat"))  # to rounding: sums may reorder
    summary = run_summary(run)
    assert summary["hands"] == 6
    assert summary["draw_rate"] == pytest.approx(1 / 6)
    assert summary["seats"][3]["win_rate"] == pytest.approx(2 / 6)
    assert summary["seats"][3]["self_draw_share"] == pytest.approx(0.5)
    assert summary["seats"][0]["mean_net_se"] == pytest.approx(sd(NETS[0]) / math.sqrt(6), **APPROX)
    assert summary["mean_fan"] == pytest.approx(10 / 6)
    text = format_summary(summary)
    assert "win rate" in text and "draw rate 0.167" in text


# -- a real simulated run: invariants ---------------------------------------------------------------


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    import mjsim
    from mjsim.sim.parallel import RunSpec, simulate

    root = tmp_path_factory.mktemp("analysis_runs")
    runs = {}
    mixed = ("efficiency", "defensive", "efficiency", "defensive")
    for name, policies in [("jipinghu", mixed), ("tuidaohu", ("efficiency",))]:
        spec = RunSpec(mjsim.ruleset(name), policies, 800, session_length=8, seed=5)
        simulate(spec, root / name, workers=1, progress=False)
        runs[name] = scan_hands(root / name)
    return runs


RATES = ("win_rate", "self_draw_share", "deal_in_rate", "draw_rate")


def test_smoke_invariants_on_simulated_runs(simulated):
    for _name, lf in simulated.items():
        for by in ("seat", "role", "policy", "offset"):
            table = seat_table(lf, by=by)
            rates = table.filter(pl.col("metric").is_in(RATES)).drop_nulls("estimate")
            assert ((rates["estimate"] >= 0) & (rates["estimate"] <= 1)).all()
            assert ((rates["ci_low"] >= 0) & (rates["ci_high"] <= 1)).all()
            est = table.drop_nulls("se")
            assert ((est["ci_low"] <= est["estimate"] + 1e-12) & (est["estimate"] <= est["ci_high"] + 1e-12)).all()
        by_seat = seat_table(lf, by="seat")
        assert by_seat.filter(pl.col("metric") == "mean_net")["estimate"].sum() == pytest.approx(0, abs=1e-9)
        by_role = seat_table(lf, by="role").filter(pl.col("metric") == "mean_net")
        assert (by_role["estimate"] * by_role["n"]).sum() == pytest.approx(0, abs=1e-6)
        patterns = pattern_table(lf)
        assert ((patterns["estimate"] >= 0) & (patterns["estimate"] <= 1)).all()
        fans = fan_table(lf)
        assert fans["estimate"].sum() == pytest.approx(1.0) and fans["cum_share"][-1] == pytest.approx(1.0)
        liability = liability_table(lf, by="offset")
        shares = liability.filter(pl.col("metric") == "share_of_firings").drop_nulls("estimate")
        assert ((shares["estimate"] >= 0) & (shares["estimate"] <= 1)).all()
        fired = liability.filter((pl.col("trigger") == "all") & (pl.col("metric") == "firings"))
        total = fired.filter(pl.col("liable_offset") == "all")["estimate"].item()
        assert fired.filter(pl.col("liable_offset") != "all")["estimate"].sum() == total
        risk = session_risk(lf, loss_threshold=10)
        probabilities = risk.filter(pl.col("metric").is_in(["p_loss", "p_drawdown"]))
        assert ((probabilities["estimate"] >= 0) & (probabilities["estimate"] <= 1)).all()
        assert risk.filter(pl.col("metric") == "mean_cum_net")["estimate"].sum() == pytest.approx(0, abs=1e-9)
        assert (risk.filter(pl.col("metric") == "hands_per_session")["estimate"] == 8).all()
        paths = cumulative_paths(lf, by=None)
        assert paths["hand_in_session"].max() == 7
    horses = horse_table(simulated["tuidaohu"], by="role")
    share = figures(horses, role="dealer")["horse_variance_share"]
    assert 0 < share["estimate"] < 1 and share["se"] > 0
    hit = figures(horses, role="all")["hit_rate"]
    assert 0 < hit["estimate"] < 1
    # the delta-method and bootstrap standard errors agree roughly
    boot = figures(horse_table(simulated["tuidaohu"], by="role", bootstrap=300, seed=1), role="dealer")
    assert 0.5 < boot["horse_variance_share"]["se"] / share["se"] < 2
    assert figures(horse_table(simulated["jipinghu"], by="role"), role="dealer")["var_net_horse"]["estimate"] == 0
