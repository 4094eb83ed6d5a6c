"""Headline measures and the answers worded from them (issue 14: verdict first).

Expected values are worked by hand from tiny hand-written logs; the paired
bootstrap is checked on changes whose answer is known exactly (a doubling of
every net, no change at all)."""

import math

import numpy as np
import polars as pl
import pytest

from mjsim.analysis.headline import (
    compare_runs,
    hands_to_resolve,
    load_hands,
    nice_threshold,
    run_measures,
    session_totals,
)
from mjsim.analysis.verdict import Question, answer_frames, answer_text, holds_for_all, question_title


def hand_log(nets, dealers, sessions, turns=None, fans=None) -> pl.LazyFrame:
    """A minimal hand log: one row per hand, nets by absolute seat (each row sums to zero, C-M1)."""
    n = len(nets)
    assert all(sum(row) == 0 for row in nets)
    hand_in_session = [sum(1 for s in sessions[:i] if s == sessions[i]) for i in range(n)]
    fans = fans if fans is not None else [[1] for _ in range(n)]
    return pl.LazyFrame({
        "hand_id": list(range(n)), "session": sessions, "hand_in_session": hand_in_session,
        "dealer": pl.Series(dealers, dtype=pl.Int8),
        "net": pl.Series(nets, dtype=pl.Array(pl.Int64, 4)),
        "turns": pl.Series(turns or [30] * n, dtype=pl.Int16),
        "winners": [[0] if f else [] for f in fans], "fan": pl.Series(fans, dtype=pl.List(pl.Int16)),
    })  # fmt: skip


INFO_CAP3 = {"ruleset_toml": 'name = "x"\ncap = 3\n', "seed": 1, "hands": 4, "session_length": 2}

# two sessions of two hands; the dealer is seat 0, then seat 1 (dealer +1 = 下家 etc.)
NETS = [[6, -2, -2, -2], [-3, 9, -3, -3], [4, -4, 0, 0], [0, 0, 0, 0]]
DEALERS = [0, 1, 0, 0]
SESSIONS = [0, 0, 1, 1]
FANS = [[3], [1], [2], []]  # the last hand is drawn


def test_run_measures_worked_by_hand():
    hands = load_hands(hand_log(NETS, DEALERS, SESSIONS, turns=[20, 30, 40, 50], fans=FANS), INFO_CAP3)
    table = {r["measure"]: r for r in run_measures(hands, threshold=3).iter_rows(named=True)}
    # dealer nets 6, 9, 4, 0 -> mean 4.75; 下家 (dealer+1): -2, -3, -4, 0 -> -2.25; 对家: -2, -3, 0, 0 -> -1.25;
    # 上家: -2, -3, 0, 0 -> -1.25
    assert table["mean_dealer"]["estimate"] == pytest.approx(4.75)
    assert table["mean_offset1"]["estimate"] == pytest.approx(-2.25)
    assert table["mean_offset2"]["estimate"] == pytest.approx(-1.25)
    assert table["dealer_edge"]["estimate"] == pytest.approx(4.75 - (-2.25 - 1.25 - 1.25) / 3)
    assert table["seat_gap"]["estimate"] == pytest.approx(1.0)
    values = np.array(NETS, float).ravel()
    assert table["sd_hand"]["estimate"] == pytest.approx(values.std())
    assert table["sd_dealer"]["estimate"] == pytest.approx(np.std([6, 9, 4, 0]))
    # session totals per seat: session 0 (+3, +7, -5, -5), session 1 (+4, -4, 0, 0)
    totals = np.array([3, 7, -5, -5, 4, -4, 0, 0], float)
    assert table["sd_session"]["estimate"] == pytest.approx(totals.std())
    assert table["p_session_loss"]["estimate"] == pytest.approx(3 / 8)  # -5, -5, -4 lose more than 3
    assert table["hand_length"]["estimate"] == pytest.approx(35.0)
    assert table["drawn_rate"]["estimate"] == pytest.approx(0.25)
    assert table["limit_rate"]["estimate"] == pytest.approx(0.25)  # one win at the cap of 3 fan
    for row in table.values():
        assert row["ci_low"] <= row["estimate"] + 1e-12 and row["estimate"] <= row["ci_high"] + 1e-12


def test_no_cap_gives_no_limit_rate():
    hands = load_hands(hand_log(NETS, DEALERS, SESSIONS), {"ruleset_toml": 'cap = "none"\n'})
    table = {r["measure"]: r for r in run_measures(hands, threshold=3).iter_rows(named=True)}
    assert math.isnan(table["limit_rate"]["estimate"])


def test_drawdown_is_the_largest_fall_from_a_running_peak_within_a_session():
    # seat 0 in session 0: +5, -8, +2 -> running 5, -3, -1: peak 5, drawdown 8; session 1: -3, +1 -> 3
    nets = [[5, -5, 0, 0], [-8, 8, 0, 0], [2, -2, 0, 0], [-3, 3, 0, 0], [1, -1, 0, 0]]
    hands = load_hands(hand_log(nets, [0] * 5, [0, 0, 0, 1, 1]))
    where, totals, drawdown = session_totals(hands)
    assert where.tolist() == [0, 1]
    assert totals[:, 0].tolist() == [-1, -2]
    assert drawdown[:, 0].tolist() == [8, 3]
    # seat 1: +5 then -8 from a start at 0: running -5, +3, +1 -> peak 3, drawdown max(5, 0, 2) = 5
    assert drawdown[:, 1].tolist() == [5, 1]


def test_doubling_every_net_doubles_the_spread_exactly_and_is_resolved():
    ref = load_hands(hand_log(NETS, DEALERS, SESSIONS), INFO_CAP3)
    alt = load_hands(hand_log([[2 * x for x in r] for r in NETS], DEALERS, SESSIONS), INFO_CAP3, ref.session_ids)
    changes = {c.measure: c for c in compare_runs(ref, alt, paired=True, threshold=3)[0]}
    spread = changes["sd_hand"]
    assert spread.kind == "ratio" and spread.estimate == pytest.approx(2.0)
    assert spread.ci_low == pytest.approx(2.0) and spread.ci_high == pytest.approx(2.0) and spread.resolved
    assert changes["dealer_edge"].estimate == pytest.approx(4.75 + 4.75 / 3)
    assert changes["hand_length"].identical and not changes["hand_length"].resolved
    assert changes["changed_rate"].estimate == pytest.approx(0.75)  # the drawn hand pays nothing either way


def test_identical_runs_change_nothing_and_say_so():
    lf = hand_log(NETS, DEALERS, SESSIONS)
    q = answer_frames(Question("a", "b", [], []), lf, lf, INFO_CAP3, INFO_CAP3)
    assert q.paired and all(c.identical for c in q.changes)
    text = answer_text(q)
    assert text[0] == "b is about as risky for a player, and the dealer's edge is unchanged."
    assert any(line.startswith("Unchanged in every hand: the spread of a player's result per hand") for line in text)


def test_a_difference_the_sample_cannot_tell_names_the_hands_that_would():
    # 95% interval, 80% power: n * ((1.96 + 0.84) * se / effect)^2 = 1000 * (2.8 * 0.05 / 0.1)^2 = 1960
    assert hands_to_resolve(0.1, 0.05, 1000) == 1960
    assert hands_to_resolve(0.0, 0.05, 1000) is None
    rng = np.random.default_rng(3)
    n = 400
    base = rng.integers(-8, 9, size=(n, 3))
    nets = [[*row, -int(row.sum())] for row in base]
    noise = rng.integers(-1, 2, size=(n, 3))
    other = [[*(r + e), -int((r + e).sum())] for r, e in zip(base, noise, strict=True)]
    sessions = [i // 8 for i in range(n)]
    info = {"ruleset_toml": "", "seed": 1, "hands": n}
    q = answer_frames(Question("a", "b", [], []), hand_log(nets, [0] * n, sessions),
                      hand_log(other, [0] * n, sessions), info, info)  # fmt: skip
    edge = q.by_name["dealer_edge"]
    assert not edge.resolved and edge.hands_needed > n
    assert f"about {float(f'{edge.hands_needed:.2g}'):,.0f} hands would tell" in " ".join(answer_text(q))


def test_unpaired_runs_are_not_paired():
    lf = hand_log(NETS, DEALERS, SESSIONS)
    other = dict(INFO_CAP3, seed=2)
    q = answer_frames(Question("a", "b", [], []), lf, lf, INFO_CAP3, other)
    assert not q.paired and "changed_rate" not in q.by_name
    assert "simulated on other walls, unpaired" in answer_text(q)[1]


def test_paired_runs_must_hold_the_same_sessions():
    ref = load_hands(hand_log(NETS, DEALERS, SESSIONS))
    with pytest.raises(ValueError, match="do not hold the same sessions"):
        load_hands(hand_log(NETS, DEALERS, [0, 0, 5, 5]), None, ref.session_ids)


def test_loss_thresholds_are_round_numbers():
    assert [nice_threshold(x) for x in (19.8, 37, 0.7, 140)] == [20, 50, 0.5, 100]
    assert nice_threshold(0) == 0


def test_question_title_names_the_changed_option_or_the_two_editions():
    a = {"ruleset_toml": 'name = "jipinghu"\ndescription = "3-fan"\ncap = 3\nliability_twelve_tiles = true\n'}
    b = {"ruleset_toml": 'name = "jipinghu"\ndescription = "3-fan"\ncap = 5\nliability_twelve_tiles = true\n'}
    assert question_title(a, b, "x", "y") == "cap 5 instead of 3 (in jipinghu)"
    c = {"ruleset_toml": 'name = "jipinghu_5fan"\ndescription = "5-fan"\ncap = 5\nliability_twelve_tiles = false\n'}
    title = question_title(a, c, "jipinghu", "jipinghu_5fan")
    assert title.startswith("jipinghu_5fan (5-fan) instead of jipinghu (3-fan): 2 options differ")
    assert "liability_twelve_tiles off instead of on" in title


def _question(estimate, low, high):
    from mjsim.analysis.headline import Change

    resolved = low > 1 or high < 1
    q = Question("a", "b", [], [])
    q.changes = [Change("sd_hand", 1.0, estimate, "ratio", estimate, low, high, 0.1, resolved, False, None)]
    return q


def test_panel_answer_holds_for_every_player_type_or_says_where_it_differs():
    same = holds_for_all({"efficiency": _question(1.5, 1.2, 1.8), "value": _question(1.3, 1.1, 1.5)}, ("sd_hand",))
    assert same == "Across player types — the spread of a player's result per hand: up for every player type."
    split = holds_for_all({"efficiency": _question(1.5, 1.2, 1.8), "value": _question(0.8, 0.7, 0.9)}, ("sd_hand",))
    assert "depends on the players (up for efficiency; down for value)" in split
    partial = holds_for_all({"efficiency": _question(1.5, 1.2, 1.8), "value": _question(1.0, 0.9, 1.1)}, ("sd_hand",))
    assert "up for efficiency; not resolved for value" in partial


def test_answers_figure_shows_every_question_on_a_ratio_axis_around_one():
    from mjsim.report.answers import answers_figure

    ref = hand_log(NETS, DEALERS, SESSIONS)
    doubled = hand_log([[2 * x for x in r] for r in NETS], DEALERS, SESSIONS)
    questions = [answer_frames(Question("a", f"b{i}", [], []), ref, doubled, INFO_CAP3, INFO_CAP3) for i in range(2)]
    fig = answers_figure(questions)
    left, right = fig.axes
    assert left.get_xscale() == "log"
    assert [t.get_text() for t in left.get_yticklabels()][:3] == [
        "Q1 per hand",
        "Q1 per session",
        "Q1 dealer, per hand",
    ]
    assert [t.get_text() for t in right.get_yticklabels()] == ["Q1", "Q2"]
    fig.canvas.draw()
    assert right.xaxis.get_offset_text().get_text() == ""
