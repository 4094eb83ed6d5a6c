"""Sessions (C-X): dealer rotation JPH-P6, round-wind advance (C-S2), the dealer's streak, seat balance."""

import numpy as np
import pytest

from mjsim import ruleset
from mjsim.sim.runner import play_sessions, seat_policies


def _hands(preset, policy, sessions, length, seed, **kw):
    cols = {}
    for chunk in play_sessions(ruleset(preset, **kw), seat_policies(policy), seed=seed, first_session=0,
                               end_session=sessions, session_length=length, tables=32):  # fmt: skip
        for k, v in chunk.items():
            cols.setdefault(k, []).extend(list(v))
    order = np.argsort(cols["hand_id"])
    return [{k: cols[k][i] for k in cols} for i in order]


@pytest.mark.parametrize("policy", ["efficiency", "random"])
def test_jph_p6_dealer_rotation_round_wind_and_streak(policy):
    hands = _hands("jipinghu", policy, sessions=12, length=16, seed=4)
    assert len(hands) == 12 * 16
    rotations = kept = 0
    for prev, cur in zip(hands, hands[1:]):
        if cur["session"] != prev["session"]:
            assert cur["hand_in_session"] == 0 and cur["streak"] == 0 and cur["round_wind"] == 0
            continue
        winners = prev["winners"]
        keeps = prev["dealer"] in winners or not winners  # JPH-P6: the dealer (also among several) or a draw
        expected = prev["dealer"] if keeps else (prev["dealer"] + 1) % 4
        assert cur["dealer"] == expected
        assert cur["streak"] == (prev["streak"] + 1 if keeps else 0)
        first_dealer = next(h["dealer"] for h in hands if h["session"] == cur["session"])
        advanced = (not keeps) and expected == first_dealer  # C-S2: every seat has dealt once
        assert cur["round_wind"] == (prev["round_wind"] + advanced) % 4
        rotations += not keeps
        kept += keeps
    assert rotations > (20 if policy == "efficiency" else 0) and kept > 5


@pytest.mark.parametrize("preset", ["jipinghu", "tuidaohu"])
def test_c_s2_round_wind_advances_once_every_seat_has_dealt_and_the_deal_passes(preset):
    # 鸡平胡 passes the deal to the 下家 (JPH-P6); 推倒胡's winner deals (TDH-P5), so the deal can come back to
    # the session's first dealer before every seat has dealt: that is not yet a full round (C-S2)
    hands = _hands(preset, "efficiency", sessions=12, length=24, seed=4)
    advances = early_returns = 0
    dealt, first = {hands[0]["dealer"]}, hands[0]["dealer"]
    for prev, cur in zip(hands, hands[1:]):
        if cur["session"] != prev["session"]:
            assert cur["round_wind"] == 0
            dealt, first = {cur["dealer"]}, cur["dealer"]
            continue
        passes = cur["dealer"] != prev["dealer"]
        full_round = passes and len(dealt) == 4
        assert cur["round_wind"] == (prev["round_wind"] + full_round) % 4, (preset, cur["hand_id"])
        early_returns += passes and cur["dealer"] == first and not full_round
        advances += full_round
        dealt = {cur["dealer"]} if full_round else dealt | {cur["dealer"]}
    assert advances > 5
    if preset == "tuidaohu":
        assert early_returns > 5  # the deal came back to the first dealer before a full round


def test_next_dealer_on_a_draw_can_pass():
    hands = _hands("jipinghu", "random", sessions=6, length=8, seed=2, next_dealer_after_draw="next")
    draws = [(p, c) for p, c in zip(hands, hands[1:]) if c["session"] == p["session"] and not p["winners"]]
    assert draws
    assert all(c["dealer"] == (p["dealer"] + 1) % 4 for p, c in draws)


def test_fixed_first_dealer_and_round_wind():
    rules = ruleset("jipinghu")
    chunk = next(play_sessions(rules, seat_policies("efficiency"), seed=1, first_session=0, end_session=50,
                               first_dealer=2, round_wind=1))  # fmt: skip
    assert set(chunk["dealer"].tolist()) == {2} and set(chunk["round_wind"].tolist()) == {1}


def test_four_efficiency_seats_win_about_equally_often():
    # statistical sanity: 4,000 hands with a random dealer, each seat's win rate within 4 points of the others
    hands = _hands("jipinghu", "efficiency", sessions=1000, length=4, seed=12)
    wins = np.zeros(4)
    for h in hands:
        for seat in h["winners"]:
            wins[seat] += 1
    rates = wins / len(hands)
    assert rates.min() > 0.15
    assert rates.max() - rates.min() < 0.04, rates
