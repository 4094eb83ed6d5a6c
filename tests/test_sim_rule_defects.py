"""Scripted hands for the issue-10 rule defects, written from the rules' text (rules/*.md).

Seats are absolute; the dealer is seat 0 (seat s has seat wind 1z + s, the
round wind is 东).  Amounts are worked out by hand: 鸡平胡 points = 2 ** fan a
share (C-M2).  Each re-settlement check runs the logged row through
``mjsim.analysis.resettle.resettle_hands``, so the engine, the reference
scorer and re-settlement are held to the same numbers.
"""

from simtools import ScriptedHand, logged_frame

from mjsim import ruleset, score_hand
from mjsim.analysis.resettle import resettle_hands

J3 = ruleset("jipinghu")
JPH_OTHERS = {0: "19p578p19s234667z", 2: "147p258s369p1234z", 3: "2356p2356s11s567z"}


def resettled_net(row, rules) -> list[int]:
    return resettle_hands(logged_frame(row), rules, 1)["net"].to_list()[0]


def rescored(rules, row, k=0):
    """The reference scorer's view of the row's k-th win (as the conformance tests call it)."""
    kind = row["win_kind"][k]
    return score_hand(
        rules, row["win_hands"][k], melds=row["win_melds"][k], win_tile=row["win_tiles"][k],
        self_draw=kind in ("self_draw", "kong_replacement"), kong_replacement=kind == "kong_replacement",
        robbed_kong=kind == "robbed_kong", seat=(row["winners"][k] - row["dealer"]) % 4,
        round_wind=row["round_wind"], last_tile=row["last_tile"][k], first_turn=row["first_turn"][k],
        discard_winners=len(row["winners"]) if kind == "discard" else 1,
    )  # fmt: skip


# ---- JPH-F2 九莲宝灯: the 13 tiles before the win are 1112345678999 ---------------------------------------


def nine_gates_self_draw(rules, before, drawn):
    return ScriptedHand(rules, {1: before + drawn, **JPH_OTHERS}, actor=1).play({1: ["win"]})


def test_jph_f2_nine_gates_waits_on_1112345678999_and_wins_on_any_tile_of_the_suit():
    row = nine_gates_self_draw(J3, "1112345678999m", "5m")
    assert row["patterns"] == [["nine_gates"]] and row["fan"] == [6]
    assert list(row["net"]) == [-64, 192, -64, -64]  # a limit hand of 6 fan: 64 a share (JPH-M1)


def test_jph_f2_the_nine_gates_shape_won_on_another_tile_is_only_a_full_flush():
    # 1112345567899m + 9m makes 11123455678999m, but the 13 tiles before the win were not 1112345678999
    row = nine_gates_self_draw(J3, "1112345567899m", "9m")
    assert row["patterns"] == [["full_flush"]] and row["fan"] == [4]  # 清一色, a limit of 4 in [3]
    assert list(row["net"]) == [-16, 48, -16, -16]
    assert rescored(J3, row).patterns == ("full_flush",)


def test_jph_f2_nine_gates_wait_shape_reads_the_final_fourteen_tiles_alone():
    shape = ruleset("jipinghu", nine_gates_wait="shape")
    row = nine_gates_self_draw(shape, "1112345567899m", "9m")
    assert row["patterns"] == [["nine_gates"]] and list(row["net"]) == [-64, 192, -64, -64]
    # a settlement option: the seed's reading, logged, re-settles under shape to the same money, and back
    logged = nine_gates_self_draw(J3, "1112345567899m", "9m")
    assert resettled_net(logged, shape) == [-64, 192, -64, -64]
    assert resettled_net(row, J3) == [-16, 48, -16, -16]
