"""``mjsim score``: the shuitou flags (--flowers, --wilds, --split-tile) and its 台 output; other families unchanged."""

import pytest

from mjsim import ruleset
from mjsim.cli import main


def run(capsys, *argv):
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_score_jipinghu_output_is_unchanged(capsys):
    code, out, _ = run(capsys, "123m456p789s234m11z", "--self-draw")
    assert code == 0
    assert out == (
        "hand 123m456p789s234m11z\n"
        f"ruleset jipinghu (jipinghu, hash {ruleset('jipinghu').content_hash})\n"
        "  all_chows                      1\n"
        "  self_draw                      1\n"
        "total: 2 fan\n"
        "points per payer: 4\n"
    )


def test_cli_score_shuitou_shows_base_patterns_doubling_and_total(capsys):
    # 5s x2 + 3z x1 财神 (kinds 5s 3z) as a 财神汇; flowers 1f 2f (red 3) and 5z (白板 2); self-drawn.
    # base: caishen 5 + caishen_honour 3 + flowers 3 + flowers 2 = 13; self_draw 1 + caishen_set 7: 21 -> 42
    code, out, _ = run(
        capsys,
        "123m456m789m234p99s5s5s3z",
        "--ruleset",
        "shuitou",
        "--wilds",
        "5s",
        "3z",
        "--flowers",
        "1f",
        "2f",
        "5z",
        "--self-draw",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "hand 123m456m789m234p99s5s5s3z flowers 1f 2f 5z"
    assert lines[1].startswith("ruleset shuitou (shuitou, hash ")
    assert lines[2] == "财神 kinds 5s 3z; the held 财神 stood for set set set"
    assert lines[3:] == [
        "base 台:",
        "  caishen                        5",
        "  caishen_honour                 3",
        "  flowers                        3",
        "  flowers                        2",
        "  base total                    13",
        "winner 台:",
        "  self_draw                      1",
        "  caishen_set                    7",
        "21 台 >= 13: doubled x2 (SHT-T3)",
        "total: 42 台",
        "points per payer: 42",
    ]


def test_cli_score_shuitou_below_13_and_no_caishen(capsys):
    # 123m 456m 789m 234p 111s 99s: hard 7, not doubled
    code, out, _ = run(capsys, "123m456m789m234p111s99s", "--ruleset", "shuitou")
    assert code == 0
    assert (
        "base 台:\n  (none)\n  base total                     0\nwinner 台:\n  hard                           7\n"
        in out
    )
    assert "7 台 < 13: not doubled (SHT-T3)\ntotal: 7 台\n" in out
    assert "财神" not in out


def test_cli_score_shuitou_split_tile(capsys):
    # self_draw 1 + hard 7 + split_tile_win 3 = 11
    code, out, _ = run(capsys, "123m456m789m234p111s99s", "--ruleset", "shuitou", "--split-tile")
    assert code == 0
    assert "  split_tile_win                 3\n" in out and "total: 11 台" in out


def test_cli_score_shuitou_melds_and_kong_flower(capsys):
    # exposed 中 kong 4; self_draw 1 + hard 7 + kong_flower 8 = 20 -> 40
    code, out, _ = run(
        capsys, "123m456m789m234p99s", "--ruleset", "shuitou", "--melds", "kong:7z", "--self-draw", "--kong-replacement"
    )
    assert code == 0
    assert "  kong                           4\n" in out and "  kong_flower                    8\n" in out
    assert "total: 40 台" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["123m456m789m234p111s99s", "--ruleset", "shuitou", "--flowers", "3m"], "flowers holds 3m"),
        (["123m456m789m234p111s99s", "--ruleset", "shuitou", "--wilds", "1f"], "财神 kind 1f is a flower"),
        (["123m456m789m234p111s9s", "--ruleset", "shuitou"], "needs 17"),
        (["123m456m789m234p111s98s", "--ruleset", "shuitou"], "not a win"),
        (["123m456p789s234m11z", "--flowers", "1f"], "only the shuitou family scores flowers"),
        (["123m456p789s234m11z", "--split-tile"], "shuitou situation"),
    ],
)
def test_cli_score_bad_shuitou_input_is_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("mjsim: error: ") and message in err and err.count("\n") == 1
