"""mjsim.analysis.xuezhan against figures worked out by hand, and invariants on real 血战 / 血流 runs.

The hand-made log has five 血战 hands whose payments are written out below
(every net column sums to zero and the parts add up to net); each expected
figure is arithmetic on those numbers in the test, with the standard-error
helpers of ``test_analysis_metrics`` (derived there from the definitions).
"""

from __future__ import annotations

import polars as pl
import pytest
from test_analysis_metrics import APPROX, Z, check_rate, cluster_se, figures, make_hands

import mjsim
from mjsim.analysis import (
    dealer_edge_table,
    money_share_table,
    net_by_win_order,
    rule_table,
    seat_table,
    win_order_table,
    wins_table,
)  # fmt: skip
from mjsim.io.dataset import read_hands, scan_hands
from mjsim.sim.parallel import RunSpec, simulate

Z4 = [0, 0, 0, 0]
XZ = dict(ruleset="xuezhan", net_call_transfer=Z4, net_tax_refund=Z4, net_flower_pig=Z4, net_not_ready=Z4,
          end_state=["won", "won", "won", "won"], exhausted=False)  # fmt: skip

HANDS = [
    # h0: 1 wins on 0's discard (1), 2 self-draws (0 and 3 still in pay 2 each), 3 wins on 0's discard (1);
    # 0's concealed kong earlier: 1, 2, 3 paid 2 each
    dict(XZ, dealer=0, winners=[1, 2, 3], win_kind=["discard", "self_draw", "discard"], fan=[0, 1, 0],
         patterns=[["basic"]] * 3, win_turn=[10, 20, 30], net_win=[-4, 1, 4, -1], net_kong=[6, -2, -2, -2],
         net=[2, -1, 2, -3]),
    # h1: 2 wins off its own kong (0, 1, 3 pay 4 each), its concealed kong 2 each; the wall runs out:
    # 0 is a 花猪 (16 to each of 1, 2, 3, XZ-E1), 3 is not ready and pays ready 1 its 4 (XZ-E2), and
    # returns the 3 its added kong took from 0, 1, 2 (退税, XZ-E3)
    dict(XZ, dealer=1, winners=[2], win_kind=["kong_replacement"], fan=[1], patterns=[["basic", "kong_flower"]],
         win_turn=[40], exhausted=True, end_state=["flower_pig", "ready", "won", "not_ready"],
         net_win=[-4, -4, 12, -4], net_kong=[-2, -2, 6, -2], net_tax_refund=[1, 1, 1, -3],
         net_penalty=[-48, 20, 16, 12], net_flower_pig=[-48, 16, 16, 16], net_not_ready=[0, 4, 0, -4],
         net=[-54, 14, 34, 6]),
    # h2: nobody wins, nothing moves
    dict(XZ, dealer=2, exhausted=True, end_state=["ready"] * 4),
    # h3: 0 konges 1's discard (1 pays 2), 3 wins on 0's next discard (2): 呼叫转移 hands 3 the 2 (XZ-M4);
    # 1 self-draws (0 and 2 pay 1 each); at the empty wall 2 is not ready and pays ready 0 its 2 (查叫)
    dict(XZ, dealer=3, winners=[3, 1], win_kind=["discard", "self_draw"], fan=[1, 0], patterns=[["basic"]] * 2,
         win_turn=[25, 33], after_kong=[True, False], exhausted=True,
         end_state=["ready", "won", "not_ready", "won"], net_win=[-3, 2, -1, 2], net_kong=[0, -2, 0, 2],
         net_call_transfer=[-2, 0, 0, 2], net_penalty=[2, 0, -2, 0], net_not_ready=[2, 0, -2, 0],
         net=[-1, 0, -3, 4]),
    # h4, 血流成河 (XZ-H7): 2 self-draws (1 each), wins on 3's discard (2), 0 wins on 1's discard (1),
    # 2 self-draws again (1 each)
    dict(XZ, dealer=0, winners=[2, 2, 0, 2], win_kind=["self_draw", "discard", "discard", "self_draw"],
         fan=[0] * 4, patterns=[["basic"]] * 4, win_turn=[5, 12, 18, 30], exhausted=True,
         net_win=[-1, -3, 8, -4], net=[-1, -3, 8, -4]),
]  # fmt: skip
# money moved per hand (sum of the positive entries) by win, kong and penalty; the gross transfers
MOVED = {"win": [5, 12, 0, 4, 8], "kong": [6, 6, 0, 2, 0], "penalty": [0, 48, 0, 2, 0]}
GROSS = [11, 66, 0, 8, 8]
ONE = [1] * 5


@pytest.fixture
def hands() -> pl.LazyFrame:
    return make_hands(HANDS).lazy()


def other_run() -> pl.DataFrame:
    """Two hands of a non-血战 run: the 血战 columns are null."""
    none = dict(ruleset="jipinghu", net_call_transfer=None, net_tax_refund=None, net_flower_pig=None,
                net_not_ready=None)  # fmt: skip
    return make_hands([
        dict(none, winners=[1], discarder=0, win_kind=["discard"], fan=[1], patterns=[["chicken"]],
             win_turn=[9], net=[-2, 2, 0, 0]),
        dict(none, dealer=1),
    ], run_id="run-b")  # fmt: skip


def check_mean(row, a, b=None):
    """The documented mean: sum(a) / sum(b) ± z · cluster-robust se."""
    b = b or [1] * len(a)
    assert row["estimate"] == pytest.approx(sum(a) / sum(b), **APPROX)
    se = cluster_se(a, b)
    assert row["se"] == pytest.approx(se, **APPROX)
    assert row["ci_low"] == pytest.approx(row["estimate"] - Z * se, **APPROX)
    assert row["ci_high"] == pytest.approx(row["estimate"] + Z * se, **APPROX)


# -- hand-worked figures ---------------------------------------------------------------------------


def test_wins_per_hand(hands):
    table = wins_table(hands)
    assert table.columns == ["run_id", "ruleset", "metric", "wins", "estimate", "se", "ci_low", "ci_high", "n"]
    mean = figures(table, metric="mean_wins")["mean_wins"]
    check_mean(mean, [3, 1, 0, 2, 4])
    assert mean["estimate"] == 2.0 and mean["n"] == 5
    shares = table.filter(pl.col("metric") == "p_wins")
    assert shares["wins"].to_list() == [0, 1, 2, 3, 4]  # the 血流 hand has four wins
    for k, row in zip(range(5), shares.iter_rows(named=True), strict=True):
        check_rate(row, [int(w == k) for w in (3, 1, 0, 2, 4)], ONE)
        assert row["estimate"] == pytest.approx(0.2)


def test_wins_per_hand_of_blood_war_hands_stop_at_three(hands):
    table = wins_table(hands.filter(pl.col("hand_id") < 4))
    assert table.filter(pl.col("metric") == "p_wins")["wins"].to_list() == [0, 1, 2, 3]
    assert figures(table, metric="mean_wins")["mean_wins"]["estimate"] == pytest.approx(6 / 4)


def test_win_order(hands):
    table = win_order_table(hands)
    assert table["win_order"].unique(maintain_order=True).to_list() == [1, 2, 3, 4]
    first = figures(table, win_order=1)
    check_rate(first["reached"], [1, 1, 0, 1, 1], ONE)
    check_mean(first["mean_win_turn"], [10, 40, 25, 5])  # hands with a first win only
    assert first["mean_win_turn"]["estimate"] == 20.0 and first["mean_win_turn"]["n"] == 4
    check_rate(first["self_draw_share"], [0, 1, 0, 1], [1, 1, 1, 1])  # a kong-replacement win is self-drawn
    second = figures(table, win_order=2)
    check_rate(second["reached"], [1, 0, 0, 1, 1], ONE)
    check_mean(second["mean_win_turn"], [20, 33, 12])
    check_rate(second["self_draw_share"], [1, 1, 0], [1, 1, 1])
    third = figures(table, win_order=3)
    check_mean(third["mean_win_turn"], [30, 18])
    assert third["self_draw_share"]["estimate"] == 0.0
    fourth = figures(table, win_order=4)
    assert fourth["mean_win_turn"]["estimate"] == 30 and fourth["mean_win_turn"]["se"] is None
    assert fourth["self_draw_share"]["estimate"] == 1.0 and fourth["self_draw_share"]["n"] == 1


def test_end_of_wall_rules_and_call_transfer(hands):
    table = rule_table(hands)
    assert table["rule"].unique(maintain_order=True).to_list() == [
        "flower_pig", "not_ready", "tax_refund", "call_transfer"]  # fmt: skip
    assert table["rule_id"].unique(maintain_order=True).to_list() == ["XZ-E1", "XZ-E2", "XZ-E3", "XZ-M4"]
    moved = {"flower_pig": [0, 48, 0, 0, 0], "not_ready": [0, 4, 0, 2, 0], "tax_refund": [0, 3, 0, 0, 0],
             "call_transfer": [0, 0, 0, 2, 0]}  # fmt: skip
    for rule, money in moved.items():
        rows = figures(table, rule=rule)
        fired = [int(m > 0) for m in money]
        assert rows["firings"]["estimate"] == sum(fired) and rows["firings"]["n"] == 5
        check_rate(rows["rate"], fired, ONE)
        check_mean(rows["moved_per_hand"], money)
        assert rows["moved_per_firing"]["n"] == sum(fired)
        assert rows["moved_per_firing"]["estimate"] == pytest.approx(sum(money) / sum(fired))
    assert figures(table, rule="flower_pig")["moved_per_hand"]["estimate"] == pytest.approx(9.6)
    # 查叫 fired twice, moving 4 and 2: 3 per firing, se = sd / sqrt(2) = 1
    check_mean(figures(table, rule="not_ready")["moved_per_firing"], [4, 2])
    assert figures(table, rule="not_ready")["moved_per_firing"]["se"] == pytest.approx(1.0)


def test_money_shares_of_the_gross_transfers(hands):
    table = money_share_table(hands)
    shares = {r["component"]: r for r in table.filter(pl.col("metric") == "share").iter_rows(named=True)}
    assert set(shares) == {"win", "kong", "horse", "liability", "penalty", "flower_pig", "not_ready", "tax_refund",
                           "call_transfer"}  # fmt: skip
    for component, money in MOVED.items():
        check_mean(shares[component], money, GROSS)  # hand 2 moved nothing: no cluster
        assert shares[component]["n"] == 5
    assert shares["kong"]["estimate"] == pytest.approx(14 / 93)
    assert shares["win"]["estimate"] + shares["kong"]["estimate"] + shares["penalty"]["estimate"] == pytest.approx(1)
    assert shares["horse"]["estimate"] == 0 and shares["horse"]["ci_high"] == 0
    check_mean(shares["flower_pig"], [0, 48, 0, 0, 0], GROSS)
    check_mean(shares["call_transfer"], [0, 0, 0, 2, 0], GROSS)
    assert shares["tax_refund"]["estimate"] == pytest.approx(3 / 93)
    parts = dict(table.filter(pl.col("metric") == "share").select("component", "part_of").iter_rows())
    assert parts["tax_refund"] == "kong" and parts["not_ready"] == "penalty" and parts["kong"] is None
    per_hand = {r["component"]: r for r in table.filter(pl.col("metric") == "moved_per_hand").iter_rows(named=True)}
    check_mean(per_hand["all"], GROSS)
    check_mean(per_hand["kong"], MOVED["kong"])
    assert "all" not in shares


def test_net_by_win_order(hands):
    table = net_by_win_order(hands)
    assert table["win_order"].unique(maintain_order=True).to_list() == [1, 2, 3, 0]  # never won last
    first = figures(table, win_order=1)
    check_mean(first["mean_net"], [-1, 34, 4, 8])  # h0 seat 1, h1 seat 2, h3 seat 3, h4 seat 2
    check_mean(first["mean_net_kong"], [-2, 6, 2, 0])
    check_mean(first["mean_net_penalty"], [0, 16, 0, 0])
    # 血流: seat 2 wins first and third in h4 and stays first; seat 0's one win is the second seat's
    check_mean(figures(table, win_order=2)["mean_net"], [2, 0, -1])
    assert figures(table, win_order=3)["mean_net"]["estimate"] == -3
    never = figures(table, win_order=0)
    # per hand, the never-won seats together: h0 seat 0; h1 seats 0, 1, 3; h2 all; h3 seats 0, 2; h4 seats 1, 3
    check_mean(never["mean_net"], [2, -54 + 14 + 6, 0, -1 - 3, -3 - 4], [1, 3, 4, 2, 2])
    check_mean(never["mean_net_win"], [-4, -4 - 4 - 4, 0, -3 - 1, -3 - 4], [1, 3, 4, 2, 2])
    nets = table.filter(pl.col("metric") == "mean_net")
    assert nets["n"].sum() == 20
    assert (nets["estimate"] * nets["n"]).sum() == pytest.approx(0, abs=1e-9)


def test_dealer_edge(hands):
    table = dealer_edge_table(hands)
    rows = figures(table)
    dealer = [2, 14, 0, 4, -1]  # dealers 0, 1, 2, 3, 0
    check_mean(rows["dealer_mean_net"], dealer)
    check_mean(rows["non_dealer_mean_net"], [-2, -14, 0, -4, 1], [3] * 5)
    assert rows["non_dealer_mean_net"]["n"] == 15
    check_mean(rows["dealer_edge"], [d - (-d) / 3 for d in dealer])
    assert rows["dealer_edge"]["estimate"] == pytest.approx(76 / 15)
    roles = figures(seat_table(hands, by="role").filter(pl.col("metric") == "mean_net"), role="dealer")
    for column in ("estimate", "se", "ci_low", "ci_high"):  # the seat table's definition
        assert rows["dealer_mean_net"][column] == pytest.approx(roles["mean_net"][column], **APPROX)


def test_runs_side_by_side_and_pooled(hands):
    both = pl.concat([hands.collect(), other_run()]).lazy()
    table = dealer_edge_table(both)
    assert table.select("run_id", "ruleset").unique(maintain_order=True).rows() == [
        ("run-a", "xuezhan"), ("run-b", "jipinghu")]  # fmt: skip
    alone = dealer_edge_table(hands)
    assert table.filter(pl.col("run_id") == "run-a").equals(alone)
    # pooled: seven hands, seven clusters although the hand ids repeat across the runs
    pooled = figures(dealer_edge_table(both, by=None))
    check_mean(pooled["dealer_mean_net"], [2, 14, 0, 4, -1, -2, 0])
    # the 血战 columns are null in the other run: no rule rows, no part rows for it
    assert rule_table(both)["run_id"].unique().to_list() == ["run-a"]
    shares = money_share_table(both).filter(pl.col("run_id") == "run-b")
    assert set(shares["component"]) == {"win", "kong", "horse", "liability", "penalty", "all"}
    wins = net_by_win_order(both, by="ruleset")
    assert wins.columns[:2] == ["ruleset", "win_order"]
    with pytest.raises(ValueError, match="by must be one of"):
        wins_table(both, by="seat")


# -- real small runs -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("xz_runs")
    for name in ("xuezhan", "xueliu"):
        simulate(RunSpec(mjsim.ruleset(name), "efficiency", 400, session_length=8, seed=11), base / name,
                 progress=False)  # fmt: skip
    return {name: base / name for name in ("xuezhan", "xueliu")}


@pytest.mark.parametrize("name", ["xuezhan", "xueliu"])
def test_real_run_invariants(runs, name):
    lf = scan_hands(runs[name])
    raw = read_hands(runs[name])
    hands = raw.height
    wins = wins_table(lf)
    counts = wins.filter(pl.col("metric") == "p_wins")
    assert counts["estimate"].sum() == pytest.approx(1.0)
    mean = figures(wins, metric="mean_wins")["mean_wins"]["estimate"]
    assert mean == pytest.approx((counts["estimate"] * counts["wins"]).sum())
    if name == "xuezhan":
        assert counts["wins"].max() == 3  # three winners at most (XZ-P4)
    else:  # 血流成河: some seat wins twice in a hand (XZ-H7)
        assert raw.select((pl.col("winners").list.n_unique() < pl.col("winners").list.len()).any()).item()
        assert counts["wins"].max() > 3
    order = win_order_table(lf)
    first = figures(order, win_order=1)
    p0 = figures(counts, wins=0)["p_wins"]["estimate"]
    assert first["reached"]["estimate"] == pytest.approx(1 - p0)
    reached = order.filter(pl.col("metric") == "reached")["estimate"].to_list()
    assert reached == sorted(reached, reverse=True)
    turns = order.filter(pl.col("metric") == "mean_win_turn")["estimate"].to_list()
    assert turns[:3] == sorted(turns[:3])  # later wins come later (the first three: many hands each)

    rules = rule_table(lf)
    for row in rules.filter(pl.col("metric") == "rate").iter_rows(named=True):
        assert 0 <= row["ci_low"] <= row["estimate"] <= row["ci_high"] <= 1
    for rule in ("flower_pig", "not_ready", "tax_refund", "call_transfer"):
        r = figures(rules, rule=rule)
        if r["firings"]["estimate"]:
            product = r["rate"]["estimate"] * r["moved_per_firing"]["estimate"]
            assert r["moved_per_hand"]["estimate"] == pytest.approx(product)
    # counted straight from the log: hands in which 查叫 moved money
    expected = sum(any(x != 0 for x in row) for row in raw["net_not_ready"].to_list())
    assert figures(rules, rule="not_ready")["firings"]["estimate"] == expected
    # the end-of-wall checks only fire on an empty wall (XZ-E); a 血流 hand always ends on one (XZ-H7)
    live = lf.filter(~pl.col("exhausted"))
    if name == "xueliu":
        assert live.select(pl.len()).collect().item() == 0
    else:
        for rule in ("flower_pig", "not_ready", "tax_refund"):
            assert figures(rule_table(live), rule=rule)["firings"]["estimate"] == 0

    shares = money_share_table(lf).filter(pl.col("metric") == "share")
    top = shares.filter(pl.col("part_of").is_null())
    assert top["estimate"].sum() == pytest.approx(1.0)
    assert shares["estimate"].is_between(0, 1).all()
    assert figures(shares, component="kong")["share"]["estimate"] > 0

    nets = net_by_win_order(lf).filter(pl.col("metric") == "mean_net")
    assert nets["n"].sum() == 4 * hands
    assert (nets["estimate"] * nets["n"]).sum() == pytest.approx(0, abs=1e-6)
    assert figures(nets, win_order=1)["mean_net"]["estimate"] > 0 > figures(nets, win_order=0)["mean_net"]["estimate"]

    edge = figures(dealer_edge_table(lf))
    assert edge["dealer_edge"]["estimate"] == pytest.approx(4 / 3 * edge["dealer_mean_net"]["estimate"])
    assert edge["dealer_edge"]["se"] == pytest.approx(4 / 3 * edge["dealer_mean_net"]["se"])
