"""mjsim.analysis.shuitou against figures worked out by hand, and invariants on a real 水头 run.

The hand-made log has six 水头 hands in three sessions of two, whose
payments are written out below from SHT-M1..M3 (every net column sums to
zero, the parts add up to net).  Each expected figure is arithmetic on those
numbers in the test — sums per session (the cluster) and the standard-error
helpers of ``test_analysis_metrics``, derived there from the definitions —
never a call to the code under test.
"""

from __future__ import annotations

import math

import polars as pl
import pytest
from test_analysis_metrics import APPROX, Z, check_mean, check_rate, figures, make_hands

import mjsim
from mjsim.analysis import (
    caishen_value_table,
    flower_value_table,
    shuitou_dealer_edge_table,
    shuitou_money_share_table,
    split_table,
)  # fmt: skip
from mjsim.io.dataset import read_hands, scan_hands
from mjsim.sim.parallel import RunSpec, simulate
from mjsim.tiles import parse_tiles

Z4 = [0, 0, 0, 0]
EMPTY = ["", "", "", ""]
SHT = dict(ruleset="shuitou", net_base=Z4, flowers=EMPTY, end_hands=EMPTY, end_melds=[[], [], [], []],
           split_tiles=[], split_win=False, end_state=["not_ready"] * 4)  # fmt: skip

HANDS = [
    # h0 (session 0, dealer 0): 1 wins on 2's discard with 10 台: dealer 0 pays 20, 2 and 3 pay 10 each; the
    # non-winners settle base 台 4 / 2 / 2: 2 and 3 each pay the dealer (4 - 2) x 2 = 4
    dict(SHT, session=0, dealer=0, winners=[1], discarder=2, win_kind=["discard"], fan=[10], patterns=[["flowers"]],
         net_win=[-20, 40, -10, -10], net_base=[8, 0, -4, -4], net=[-12, 40, -14, -14], base_tai=[4, 6, 2, 2],
         wilds=["5m", "9p"], end_hands=["55m", "5m9p", "11z", "9p"], flowers=["1f", "23f5z", "", "58f"]),
    # h1 (session 0, dealer 1): 分牌 dealt, nobody wins: drawn, nothing settles (SHT-M4); 1z is the one 财神 kind
    dict(SHT, session=0, hand_in_session=1, dealer=1, split_tiles=["1m", "2m", "3m", "4m"], base_tai=[3, 3, 3, 3],
         wilds=["1z"], end_hands=["", "", "11z", ""]),
    # h2 (session 1, dealer 2): the dealer self-draws 30 台: 60 from each; base 5 / 1 / 5 among 0, 1, 3:
    # 1 pays 0 and 3 four each (no dealer among them)
    dict(SHT, session=1, dealer=2, winners=[2], win_kind=["self_draw"], fan=[30], patterns=[["self_draw"]],
         net_win=[-60, -60, 180, -60], net_base=[4, -8, 0, 4], net=[-56, -68, 180, -56], base_tai=[5, 1, 9, 5],
         wilds=["3s", "7z"], end_hands=["33s", "", "3s77z", "7z"], flowers=["1234f", "", "5f55z", "6f"]),
    # h3 (session 1, dealer 2): 3 wins on a 分牌 tile with 16 台: the dealer pays 32, 0 and 1 pay 16; equal base
    dict(SHT, session=1, hand_in_session=1, dealer=2, winners=[3], win_kind=["self_draw"], fan=[16],
         patterns=[["split_tile_win"]], split_tiles=["1p", "2p", "3p", "4p"], split_win=True,
         net_win=[-16, -16, -32, 64], net=[-16, -16, -32, 64], base_tai=[2, 2, 2, 7], wilds=["2m"],
         end_hands=["", "", "", "222m"], flowers=["", "", "", "7f"]),
    # h4 (session 2, dealer 3): 0 wins 26 台 on 1's wind, 包牌 (SHT-M3): 1 pays its own 26 and the others' 52 + 26;
    # base 4 / 0 / 2 among 1, 2, 3: 2 pays 1 four, dealer 3 pays 1 (4 - 2) x 2 = 4, 2 pays 3 (2 - 0) x 2 = 4
    dict(SHT, session=2, dealer=3, winners=[0], discarder=1, win_kind=["discard"], fan=[26],
         patterns=[["four_winds"]], liable=1, four_winds_feeder=1, net_win=[26, -26, 0, 0],
         net_liability=[78, -78, 0, 0], net_base=[0, 8, -8, 0], net=[104, -96, -8, 0], base_tai=[20, 4, 0, 2],
         wilds=["1z", "2z"], end_hands=["12z", "", "", ""], flowers=["", "", "12345678f", ""]),
    # h5 (session 2, dealer 3): the dealer wins 5 台 on 0's discard: 10 from each; base 1 / 1 / 3 among 0, 1, 2:
    # 0 and 1 pay 2 two each; 0's 1s9m holds no 财神 (they are 9s and 1m)
    dict(SHT, session=2, hand_in_session=1, dealer=3, winners=[3], discarder=0, win_kind=["discard"], fan=[5],
         patterns=[["hard"]], net_win=[-10, -10, -10, 30], net_base=[-2, -2, 4, 0], net=[-12, -12, -6, 30],
         base_tai=[1, 1, 3, 5], wilds=["9s", "1m"], end_hands=["1s9m", "", "", "1m19s"]),
]  # fmt: skip
SESSIONS = [0, 0, 1, 1, 2, 2]
ONE = [1] * 6
# per seat-hand, worked out by reading the end hands and flowers above
CAISHEN = [[2, 2, 0, 1], [0, 0, 2, 0], [2, 0, 3, 1], [0, 0, 0, 3], [2, 0, 0, 0], [0, 0, 0, 2]]
FLOWERS = [[1, 3, 0, 2], Z4, [4, 0, 3, 1], [0, 0, 0, 1], [0, 0, 8, 0], Z4]
GROUPS = [[1, 2, 0, 1], Z4, [1, 0, 2, 1], [0, 0, 0, 1], [0, 0, 2, 0], Z4]
# money moved per hand (positive entries) by win, base and liability, and the gross transfers
MOVED = {"win": [40, 0, 180, 64, 26, 30], "base": [8, 0, 8, 0, 8, 4], "liability": [0, 0, 0, 0, 78, 0]}
GROSS = [48, 0, 188, 64, 112, 34]
WON = [1, 0, 1, 1, 1, 1]
NETS = [hand.get("net", Z4) for hand in HANDS]


@pytest.fixture
def hands() -> pl.LazyFrame:
    return make_hands(HANDS).lazy()


def per_session(values, sessions=SESSIONS) -> list:
    """Sums of per-hand values by session (the cluster), in session order."""
    out = {}
    for s, v in zip(sessions, values, strict=True):
        out[s] = out.get(s, 0) + v
    return [out[s] for s in sorted(out)]


def seat_cells(levels, level):
    """Per session: (rows, sum of net, sum of won, sum of base 台) of the seat-hands at ``level``."""
    cells = {s: [0, 0, 0, 0] for s in sorted(set(SESSIONS))}
    for h, hand in enumerate(HANDS):
        for seat in range(4):
            if levels[h][seat] == level:
                c = cells[SESSIONS[h]]
                c[0] += 1
                c[1] += NETS[h][seat]
                c[2] += seat in hand.get("winners", [])
                c[3] += hand["base_tai"][seat]
    return [cells[s] for s in sorted(cells)]


def dealer_values(column: str) -> list[int]:
    return [hand.get(column, Z4)[hand["dealer"]] for hand in HANDS]


# -- hand-worked figures ---------------------------------------------------------------------------


def test_dealer_edge_by_component(hands):
    table = shuitou_dealer_edge_table(hands)
    assert table.columns == ["run_id", "ruleset", "component", "metric", "estimate", "se", "ci_low", "ci_high", "n"]
    assert table["component"].unique(maintain_order=True).to_list() == ["net", "win", "base", "liability"]
    net = figures(table, component="net")
    dealer = [-12, 0, 180, -32, 0, 30]
    assert dealer == dealer_values("net")
    check_mean(net["dealer_mean_net"], per_session(dealer), per_session(ONE))
    assert net["dealer_mean_net"]["estimate"] == pytest.approx(166 / 6)
    check_mean(net["non_dealer_mean_net"], per_session([-d for d in dealer]), per_session([3] * 6))
    assert net["non_dealer_mean_net"]["n"] == 18
    check_mean(net["dealer_edge"], per_session([d * 4 / 3 for d in dealer]), per_session(ONE))
    win = figures(table, component="win")
    check_mean(win["dealer_edge"], per_session([d * 4 / 3 for d in [-20, 0, 180, -32, 0, 30]]), per_session(ONE))
    base = figures(table, component="base")
    assert base["dealer_mean_net"]["estimate"] == pytest.approx(8 / 6)  # h0: the dealer got 4 from 2 and from 3
    assert base["non_dealer_mean_net"]["estimate"] == pytest.approx(-8 / 18)
    liability = figures(table, component="liability")  # h4's liable seat 1 is not the dealer
    assert liability["dealer_edge"]["estimate"] == 0 and liability["dealer_edge"]["se"] == 0
    parts = sum(figures(table, component=c)["dealer_edge"]["estimate"] for c in ("win", "base", "liability"))
    assert parts == pytest.approx(net["dealer_edge"]["estimate"])


def test_dealer_edge_clustered_by_hand(hands):
    rows = figures(shuitou_dealer_edge_table(hands, cluster="hand"), component="net")
    dealer = dealer_values("net")
    check_mean(rows["dealer_mean_net"], dealer, ONE)
    by_session = figures(shuitou_dealer_edge_table(hands), component="net")["dealer_mean_net"]["se"]
    assert rows["dealer_mean_net"]["se"] != pytest.approx(by_session)  # the clusters matter


def test_money_shares_of_the_gross_transfers(hands):
    table = shuitou_money_share_table(hands, by=None)
    assert table.columns == ["component", "metric", "estimate", "se", "ci_low", "ci_high", "n"]
    shares = {r["component"]: r for r in table.filter(pl.col("metric") == "share").iter_rows(named=True)}
    assert list(shares) == ["win", "base", "liability", "other"]
    for part, money in MOVED.items():
        check_mean(shares[part], per_session(money), per_session(GROSS))
        assert shares[part]["n"] == 6
    assert shares["win"]["estimate"] == pytest.approx(340 / 446)
    assert shares["base"]["estimate"] == pytest.approx(28 / 446)
    assert shares["liability"]["estimate"] == pytest.approx(78 / 446)
    assert shares["other"]["estimate"] == 0
    base = figures(table, component="base")
    check_mean(base["to_win"], per_session(MOVED["base"]), per_session(MOVED["win"]))
    assert base["to_win"]["estimate"] == pytest.approx(28 / 340)
    check_mean(base["moved_per_hand"], per_session(MOVED["base"]), per_session(ONE))
    check_mean(base["moved_per_won_hand"], per_session(MOVED["base"]), per_session(WON))
    assert base["moved_per_won_hand"]["n"] == 5
    check_rate(base["fires"], per_session([1, 0, 1, 0, 1, 1]), per_session(WON))  # h3: equal base 台
    check_rate(figures(table, component="liability")["fires"], per_session([0, 0, 0, 0, 1, 0]), per_session(WON))
    everything = figures(table, component="all")
    check_mean(everything["moved_per_hand"], per_session(GROSS), per_session(ONE))
    assert "share" not in everything
    assert figures(table, component="win")["to_win"]["estimate"] == 1.0


def test_split_figures(hands):
    table = split_table(hands)
    rows = figures(table)
    assert list(rows) == ["reached", "decided", "decided_when_reached", "drawn", "share_of_wins", "money_share",
                          "mean_tai_split_win", "mean_tai_other_win"]  # fmt: skip
    check_rate(rows["reached"], per_session([0, 1, 0, 1, 0, 0]), per_session(ONE))
    check_rate(rows["decided"], per_session([0, 0, 0, 1, 0, 0]), per_session(ONE))
    assert rows["decided"]["estimate"] == pytest.approx(1 / 6)
    check_rate(rows["decided_when_reached"], per_session([0, 0, 0, 1, 0, 0]), per_session([0, 1, 0, 1, 0, 0]))
    assert rows["decided_when_reached"]["estimate"] == 0.5 and rows["decided_when_reached"]["n"] == 2
    check_rate(rows["drawn"], per_session([0, 1, 0, 0, 0, 0]), per_session(ONE))
    check_rate(rows["share_of_wins"], per_session([0, 0, 0, 1, 0, 0]), per_session(WON))
    check_mean(rows["money_share"], per_session([0, 0, 0, 64, 0, 0]), per_session(GROSS))
    assert rows["money_share"]["estimate"] == pytest.approx(64 / 446) and rows["money_share"]["n"] == 6
    assert rows["mean_tai_split_win"]["estimate"] == 16 and rows["mean_tai_split_win"]["se"] is None
    check_mean(rows["mean_tai_other_win"], per_session([10, 0, 30, 0, 26, 5]), per_session([1, 0, 1, 0, 1, 1]))
    assert rows["mean_tai_other_win"]["estimate"] == pytest.approx(71 / 4)


def test_caishen_value(hands):
    table = caishen_value_table(hands, by=None)
    assert table.columns == ["caishen", "metric", "estimate", "se", "ci_low", "ci_high", "n"]
    assert table["caishen"].unique(maintain_order=True).to_list() == [0, 1, 2, 3, None]
    totals = [8, 8, 8]  # seat-hands per session
    for level, count in ((0, 14), (1, 2), (2, 6), (3, 2)):
        rows = figures(table, caishen=level)
        cells = seat_cells(CAISHEN, level)
        check_rate(rows["share"], [c[0] for c in cells], totals)
        assert rows["share"]["estimate"] == pytest.approx(count / 24)
        if sum(c[0] > 0 for c in cells) > 1:
            check_mean(rows["mean_net"], [c[1] for c in cells], [c[0] for c in cells])
            check_rate(rows["win_rate"], [c[2] for c in cells], [c[0] for c in cells])
        else:  # three 财神: h2 seat 2 and h3 seat 3, one session: no se
            assert level == 3 and rows["mean_net"]["se"] is None and rows["win_rate"]["se"] is None
            assert rows["win_rate"]["estimate"] == 1.0 and rows["mean_net"]["estimate"] == (180 + 64) / 2
        assert rows["mean_base_tai"]["estimate"] == pytest.approx(sum(c[3] for c in cells) / count)
        assert rows["mean_net"]["n"] == count
    two = figures(table, caishen=2)
    assert two["mean_net"]["estimate"] == pytest.approx((-12 + 40 + 0 - 56 + 104 + 30) / 6)
    assert two["win_rate"]["estimate"] == pytest.approx(3 / 6)  # h0 seat 1, h4 seat 0, h5 seat 3
    assert figures(table, caishen=0)["mean_net"]["estimate"] == pytest.approx(-20.0)
    # value: the difference of two ratios over the same sessions, se from the linearised difference
    none, held = seat_cells(CAISHEN, 0), seat_cells(CAISHEN, 2)
    r0 = sum(c[1] for c in none) / sum(c[0] for c in none)
    r2 = sum(c[1] for c in held) / sum(c[0] for c in held)
    b0, b2 = sum(c[0] for c in none), sum(c[0] for c in held)
    u = [(h[1] - r2 * h[0]) / b2 - (n[1] - r0 * n[0]) / b0 for h, n in zip(held, none, strict=True)]
    se = math.sqrt(3 / 2 * sum(x * x for x in u))
    value = two["value"]
    assert value["estimate"] == pytest.approx(106 / 6 + 20) and value["se"] == pytest.approx(se, **APPROX)
    assert value["ci_low"] == pytest.approx(value["estimate"] - Z * se, **APPROX) and value["n"] == 6
    assert "value" not in figures(table, caishen=0)
    # the slope of net on the count over the 24 seat-hands, sandwich se clustered by session
    points = [(CAISHEN[h][s], NETS[h][s], SESSIONS[h]) for h in range(6) for s in range(4)]
    check_slope(figures(table.filter(pl.col("caishen").is_null()))["net_per_caishen"], points)


def check_slope(row, points):
    """Least squares by hand: beta = Sxy / Sxx; se² = G/(G-1) Σ_c (Σ_i∈c (x - x̄)(y - ȳ - β(x - x̄)) / Sxx)²."""
    n = len(points)
    xbar = sum(p[0] for p in points) / n
    ybar = sum(p[1] for p in points) / n
    sxx = sum((p[0] - xbar) ** 2 for p in points)
    beta = sum((p[0] - xbar) * (p[1] - ybar) for p in points) / sxx
    psi = {}
    for x, y, c in points:
        psi[c] = psi.get(c, 0.0) + (x - xbar) * (y - ybar - beta * (x - xbar)) / sxx
    g = len(psi)
    se = math.sqrt(g / (g - 1) * sum(v * v for v in psi.values()))
    assert row["estimate"] == pytest.approx(beta, **APPROX)
    assert row["se"] == pytest.approx(se, **APPROX)
    assert row["ci_high"] == pytest.approx(beta + Z * se, **APPROX) and row["n"] == n


def test_flower_value_by_count_and_by_group(hands):
    table = flower_value_table(hands, by=None)
    assert table.columns[0] == "flowers"
    assert table["flowers"].unique(maintain_order=True).to_list() == [0, 1, 2, 3, 4, 8, None]
    eight = figures(table, flowers=8)  # h4 seat 2 set every flower aside: one seat-hand, no se
    assert eight["mean_net"]["estimate"] == -8 and eight["mean_net"]["se"] is None
    assert eight["value"]["se"] is None and eight["value"]["n"] == 1
    three = seat_cells(FLOWERS, 3)  # h0 seat 1 (23f5z) and h2 seat 2 (5f55z)
    check_mean(figures(table, flowers=3)["mean_net"], [c[1] for c in three], [c[0] for c in three])
    assert figures(table, flowers=3)["mean_net"]["estimate"] == pytest.approx((40 + 180) / 2)
    points = [(FLOWERS[h][s], NETS[h][s], SESSIONS[h]) for h in range(6) for s in range(4)]
    check_slope(figures(table.filter(pl.col("flowers").is_null()))["net_per_flower"], points)

    groups = flower_value_table(hands, by=None, count="groups")
    assert groups.columns[0] == "groups"
    assert groups["groups"].unique(maintain_order=True).to_list() == [0, 1, 2, None]
    two = seat_cells(GROUPS, 2)  # h0 seat 1, h2 seat 2, h4 seat 2 (red and black, no 白板)
    share = figures(groups, groups=2)["share"]  # one of eight seat-hands in every session: fixed, no spread
    assert [c[0] for c in two] == [1, 1, 1]
    assert share["estimate"] == 3 / 24 and share["se"] == 0 and share["ci_low"] == share["ci_high"] == 3 / 24
    assert figures(groups, groups=2)["mean_net"]["estimate"] == pytest.approx((40 + 180 - 8) / 3)
    points = [(GROUPS[h][s], NETS[h][s], SESSIONS[h]) for h in range(6) for s in range(4)]
    check_slope(figures(groups.filter(pl.col("groups").is_null()))["net_per_group"], points)
    # top=2: more than two flowers count as two (the row means 'two or more')
    capped = flower_value_table(hands, by=None, top=2)
    assert capped["flowers"].unique(maintain_order=True).to_list() == [0, 1, 2, None]
    pooled = [c[0] for c in seat_cells([[min(x, 2) for x in row] for row in FLOWERS], 2)]
    check_rate(figures(capped, flowers=2)["share"], pooled, [8, 8, 8])


def test_runs_side_by_side_and_pooled(hands):
    other = make_hands(HANDS, run_id="run-b")  # the same hands again in another run: the same session numbers
    both = pl.concat([hands.collect(), other]).lazy()
    table = split_table(both)
    assert table["run_id"].unique(maintain_order=True).to_list() == ["run-a", "run-b"]
    assert table.filter(pl.col("run_id") == "run-a").equals(split_table(hands))
    pooled = figures(shuitou_dealer_edge_table(both, by=None), component="net")
    dealer = dealer_values("net")
    # six sessions, not three: a session number is a cluster only within its run
    check_mean(pooled["dealer_mean_net"], per_session(dealer) * 2, per_session(ONE) * 2)
    by_ruleset = caishen_value_table(both, by="ruleset")
    assert by_ruleset.columns[:2] == ["ruleset", "caishen"]


# -- bad input -------------------------------------------------------------------------------------


def test_a_log_that_is_not_shuitou_is_refused(hands):
    plain = make_hands([dict(winners=[1], discarder=0, win_kind=["discard"], fan=[1], patterns=[["chicken"]],
                             net=[-2, 2, 0, 0], end_melds=None)], run_id="run-j")  # fmt: skip
    for function in (shuitou_dealer_edge_table, shuitou_money_share_table, split_table, caishen_value_table,
                     flower_value_table):  # fmt: skip
        with pytest.raises(ValueError, match=r"not a 水头 \(shuitou\) hand log: 1 of 1 hands have no 水头 columns"):
            function(plain)
    mixed = pl.concat([hands.collect(), plain]).lazy()
    with pytest.raises(ValueError, match=r"1 of 7 hands .*\(ruleset test\)"):
        split_table(mixed)
    with pytest.raises(ValueError, match="it has no base_tai column"):
        split_table(hands.drop("base_tai"))
    with pytest.raises(ValueError, match="no hands"):
        split_table(hands.filter(pl.col("hand_id") < 0))
    with pytest.raises(ValueError, match="by must be one of"):
        split_table(hands, by="seat")
    with pytest.raises(ValueError, match="cluster must be 'session' or 'hand'"):
        shuitou_dealer_edge_table(hands, cluster="wall")
    with pytest.raises(ValueError, match="count must be 'flowers' or 'groups'"):
        flower_value_table(hands, count="tai")
    with pytest.raises(ValueError, match="top must be a positive whole number"):
        caishen_value_table(hands, top=0)
    with pytest.raises(TypeError, match="expected hands"):
        split_table([1, 2, 3])


# -- a real small run --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("sht_runs")
    for name, options in (("double", {}), ("single", {"dealer_pays_double": False})):
        simulate(RunSpec(mjsim.ruleset("shuitou", **options), "efficiency", 320, session_length=8, seed=17),
                 base / name, progress=False)  # fmt: skip
    return base


def test_real_run_invariants(run):
    lf = scan_hands(run / "double")
    raw = read_hands(run / "double")
    hands = raw.height
    edge = shuitou_dealer_edge_table(lf, by=None)
    net = figures(edge, component="net")
    assert net["dealer_edge"]["estimate"] == pytest.approx(4 / 3 * net["dealer_mean_net"]["estimate"])
    parts = [figures(edge, component=c)["dealer_edge"]["estimate"] for c in ("win", "base", "liability")]
    assert sum(parts) == pytest.approx(net["dealer_edge"]["estimate"])
    # the same walls without dealer doubling (SHT-H4): the same play, every dealer payment halved, so the
    # dealer's edge halves exactly where no 包牌 covered a payer (the liable seat pays the dealer's share)
    single = scan_hands(run / "single")
    same = ("hand_id", "winners", "fan", "base_tai")
    assert lf.select(same).sort("hand_id").collect().equals(single.select(same).sort("hand_id").collect())
    plain = pl.col("liable").is_null()
    halved = figures(shuitou_dealer_edge_table(single.filter(plain), by=None), component="net")["dealer_edge"]
    doubled = figures(shuitou_dealer_edge_table(lf.filter(plain), by=None), component="net")["dealer_edge"]
    assert doubled["estimate"] == pytest.approx(2 * halved["estimate"])

    shares = shuitou_money_share_table(lf, by=None)
    share = shares.filter(pl.col("metric") == "share")
    assert share["estimate"].sum() == pytest.approx(1.0)
    assert figures(shares, component="base")["share"]["estimate"] > 0
    assert figures(shares, component="other")["moved_per_hand"]["estimate"] == 0  # no kong money in 水头

    split = figures(split_table(lf, by=None))
    assert split["decided"]["estimate"] * hands == pytest.approx(raw["split_win"].sum())
    assert split["decided"]["estimate"] <= split["reached"]["estimate"]
    reached = raw["split_tiles"].list.len() > 0
    assert split["reached"]["estimate"] * hands == pytest.approx(reached.sum())

    # 财神 counted independently: every end hand parsed tile by tile
    counts = {}
    for wilds, ends in zip(raw["wilds"].to_list(), raw["end_hands"].to_list(), strict=True):
        kinds = set(parse_tiles("".join(wilds))) if wilds else set()
        for text in ends:
            k = sum(t in kinds for t in parse_tiles(text))
            counts[k] = counts.get(k, 0) + 1
    caishen = caishen_value_table(lf, by=None)
    shown = caishen.filter(pl.col("metric") == "share")
    assert dict(zip(shown["caishen"], (shown["estimate"] * 4 * hands).round(6), strict=True)) == counts
    means = caishen.filter(pl.col("metric") == "mean_net")
    assert (means["estimate"] * means["n"]).sum() == pytest.approx(0, abs=1e-6)  # nets sum to zero
    assert figures(caishen.filter(pl.col("caishen").is_null()))["net_per_caishen"]["estimate"] > 0

    flowers = {}
    for row in raw["flowers"].to_list():
        for text in row:
            digits = sum(ch.isdigit() for ch in text)
            flowers[digits] = flowers.get(digits, 0) + 1
    table = flower_value_table(lf, by=None).filter(pl.col("metric") == "share")
    assert dict(zip(table["flowers"], (table["estimate"] * 4 * hands).round(6), strict=True)) == flowers
