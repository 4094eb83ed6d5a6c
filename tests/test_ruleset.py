"""Rules as data: presets match the rules reference, validation, hashing, TOML round trips.

Expected preset values are written by hand from the rules reference
(/work/shared/rules/*.md) and cited by rule ID; they are never computed by the
code under test.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mjsim.rules
from mjsim.rules import OPTIONS, Ruleset, describe_presets, describe_ruleset, preset_names, ruleset
from mjsim.rules.loader import PRESETS, loads

REPO = Path(__file__).resolve().parents[1]
RULES_REFERENCE = Path("/work/shared/rules")

PRESETS_EXPECTED = [
    "jipinghu",
    "jipinghu_5fan",
    "jipinghu_5fan_min1",
    "jipinghu_5fan_min3",
    "shuitou",
    "tuidaohu",
    "tuidaohu_dianpao",
    "tuidaohu_ghost",
    "xueliu",
    "xuezhan",
    "xuezhan_cap3",
    "xuezhan_dingque",
]

# The option contract (OPTIONS.md), in order.
SPEC_OPTIONS = """
name description family
tile_set hand_size chow discard_win multiple_win win_forms seven_pairs_quads missed_win missed_pung rob_kong
rob_kong_own_discard kong_replacement next_dealer_after_win next_dealer_after_draw dead_wall follow_dealer min_fan cap
first_turn_ends_on_concealed_kong
fan limit_fan bonuses kong_flower robbed_kong_bonus triple_win_raise discard_pays_all triple_win_pays_all
liability_kong_flower
liability_robbed_kong liability_twelve_tiles liability_limit_hands liability_first_only liability_precedence
liability_once_across_rules nine_gates_wait
hand_value big_hands small_hand_value big_hand_value self_draw_multiplier discard_multiplier earthly_rule
no_ghost_multiplier kong_flower_multiplier robbed_kong_multiplier seven_pairs_multiplier
ghost_as_itself_counts_as_no_ghost full_ghosts full_ghosts_value full_ghosts_horses orphans_rob_concealed_kong
kong_pay_discard kong_pay_added
kong_pay_concealed kong_settle horses horse_growth horse_base horse_max horse_mapping winner_horses_with_ghost
winner_horses_without_ghost horse_reserve horses_on_kongs winner_horses_on_kongs winner_horse_value
winner_horse_scheme winner_horses_from horse_settlement wild_scheme wild_tile
bloody max_suits declare_void must_win_tiles_left xz_fan xz_additions call_transfer end_checks flower_pig_penalty
tax_refund call_transfer_multiple exchange_three self_draw_bonus concealed_and_middle extra_patterns
kong_flower_from_discard bloody_flow heavenly_earthly
white_is_flower split_tiles_at split_kong_extra split_tiles caishen_same_kind caishen_flip_flower double_from_tai
double_factor dealer_pays_double settle_non_winners liability_four_winds
""".split()

# PINNED: content_hash of the `jipinghu` preset.  Changing the preset's rules (or an
# option default, or adding an option) changes it; update this literal deliberately,
# because every logged hand carries the hash of the ruleset it was played under.
JIPINGHU_HASH = "13aaefdefe4569fb"


# ---------------------------------------------------------------------------
# Registry


def test_registry_is_the_option_contract():
    assert list(OPTIONS) == SPEC_OPTIONS
    assert [f.name for f in dataclasses.fields(Ruleset)] == SPEC_OPTIONS


def test_every_option_is_documented():
    for option in OPTIONS.values():
        assert option.meaning and option.section, option.name
        assert all(re.fullmatch(r"(C|JPH|TDH|XZ|SHT)-[A-Z]+\d+[a-z]?", r) for r in option.rules), option.name
        if option.name not in ("name", "description", "family"):
            assert option.rules, f"{option.name} cites no rule ID"


@pytest.mark.skipif(not RULES_REFERENCE.is_dir(), reason="rules reference not available")
def test_cited_rule_ids_exist_in_the_reference():
    text = "".join(p.read_text(encoding="utf-8") for p in RULES_REFERENCE.glob("*.md"))
    cited = {r for option in OPTIONS.values() for r in option.rules}
    missing = sorted(r for r in cited if f"**{r}**" not in text)
    assert not missing


def test_markdown_and_text_render_every_option():
    markdown = mjsim.rules.options_markdown()
    text = mjsim.rules.options_text()
    assert "| option | type | allowed | default | rules | meaning |" in markdown
    for name in OPTIONS:
        assert f"`{name}`" in markdown
        assert f"  {name}: " in text
    assert "| `cap` | int or none | 0..20 or none | none | JPH-F4, XZ-F3 |" in markdown
    assert "| `tile_set` | int | 108, 136, 144 | 136 | C-T4 |" in markdown


def test_defaults_alone_make_a_valid_ruleset():
    rs = Ruleset(name="plain", family="jipinghu")
    assert rs.cap is None and rs.min_fan == 0 and rs.tile_set == 136
    assert rs.win_forms == ("standard", "thirteen_orphans")
    assert rs.fan == {} and rs.bonuses == ()


def test_rules_package_does_not_import_scoring():
    code = "import sys, mjsim.rules; assert not any(m.startswith('mjsim.rules.scoring') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


# ---------------------------------------------------------------------------
# Presets against the rules reference


def test_every_preset_loads():
    assert preset_names() == PRESETS_EXPECTED
    for name in PRESETS_EXPECTED:
        rs = ruleset(name)
        assert isinstance(rs, Ruleset)
        assert rs.name == name
        assert rs.description
    families = {n: ruleset(n).family for n in PRESETS_EXPECTED}
    assert families == {
        "jipinghu": "jipinghu", "jipinghu_5fan": "jipinghu", "jipinghu_5fan_min1": "jipinghu",
        "jipinghu_5fan_min3": "jipinghu", "shuitou": "shuitou", "tuidaohu": "tuidaohu",
        "tuidaohu_dianpao": "tuidaohu", "tuidaohu_ghost": "tuidaohu", "xuezhan": "xuezhan",
        "xuezhan_cap3": "xuezhan", "xuezhan_dingque": "xuezhan", "xueliu": "xuezhan",
    }  # fmt: skip


def test_preset_files_cite_rule_ids():
    for name in PRESETS_EXPECTED:
        text = (PRESETS / f"{name}.toml").read_text(encoding="utf-8")
        assert re.search(r"#.*\b(JPH|TDH|XZ|SHT|C)-[A-Z]+\d+", text), name
        assert "description" in text


def test_jipinghu_table_and_play():
    for name in ("jipinghu", "jipinghu_5fan", "jipinghu_5fan_min1", "jipinghu_5fan_min3"):
        rs = ruleset(name)
        assert rs.tile_set == 136 and rs.chow and rs.discard_win  # JPH-P1
        assert rs.multiple_win  # JPH-P2
        assert rs.missed_win == "same_kind_until_move"  # JPH-P3
        assert rs.win_forms == ("standard", "thirteen_orphans")  # JPH-P5: no seven pairs
        assert rs.next_dealer_after_win == "dealer_or_next"  # JPH-P6
        assert rs.next_dealer_after_draw == "same"  # JPH-P6
        assert rs.hand_value == "fan"  # C-M2
        assert rs.discard_pays_all is False  # JPH-M2
        assert rs.liability_kong_flower and rs.liability_robbed_kong  # JPH-S2, JPH-S3
        assert rs.liability_twelve_tiles and rs.liability_first_only  # JPH-S4
        assert rs.liability_limit_hands  # JPH-S5


def test_jph_f4_cap_and_jph_p4_min_fan():
    assert (ruleset("jipinghu").cap, ruleset("jipinghu").min_fan) == (3, 0)
    assert (ruleset("jipinghu_5fan").cap, ruleset("jipinghu_5fan").min_fan) == (5, 0)
    assert (ruleset("jipinghu_5fan_min1").cap, ruleset("jipinghu_5fan_min1").min_fan) == (5, 1)
    assert (ruleset("jipinghu_5fan_min3").cap, ruleset("jipinghu_5fan_min3").min_fan) == (5, 3)


def test_jph_f1_f2_fan_tables_3fan():
    rs = ruleset("jipinghu")
    assert rs.fan == {"chicken": 0, "all_chows": 1, "all_pungs": 2, "half_flush": 2}
    assert rs.limit_fan == {
        "full_flush": 4, "half_flush_pungs": 4, "full_flush_pungs": 5, "mixed_terminals": 5,
        "little_dragons": 5, "little_winds": 5, "all_honours": 6, "pure_terminals": 6, "big_dragons": 6,
        "big_winds": 6, "nine_gates": 6, "thirteen_orphans": 6, "heavenly": 6, "earthly": 6, "human": 6,
    }  # fmt: skip


def test_jph_f1_f2_fan_tables_5fan():
    rs = ruleset("jipinghu_5fan")
    assert rs.fan == {
        "chicken": 0, "all_chows": 1, "all_pungs": 3, "half_flush": 3, "half_flush_pungs": 5, "full_flush": 5,
    }  # fmt: skip
    assert rs.limit_fan == {
        "full_flush_pungs": 6, "mixed_terminals": 6, "little_dragons": 7, "little_winds": 7, "all_honours": 8,
        "pure_terminals": 8, "big_dragons": 9, "big_winds": 9, "nine_gates": 9, "thirteen_orphans": 9,
        "heavenly": 9, "earthly": 9, "human": 9,
    }  # fmt: skip


def test_jph_f3_bonuses_and_special_rules():
    three, five = ruleset("jipinghu"), ruleset("jipinghu_5fan")
    assert three.bonuses == ("self_draw", "seat_wind", "round_wind", "dragon_pung", "last_tile")  # JPH-F3 [3]
    assert five.bonuses == ("self_draw", "seat_wind", "round_wind", "dragon_pung", "concealed", "last_tile")
    assert (three.kong_flower, five.kong_flower) == ("raise_to_cap", "plus_one")  # JPH-S2
    assert (three.robbed_kong_bonus, five.robbed_kong_bonus) == ("as_kong_flower", "self_draw_only")  # JPH-S3
    assert (three.triple_win_raise, five.triple_win_raise) == (True, False)  # JPH-S1 is [3] only


def test_jph_min_presets_differ_from_5fan_only_in_min_fan():
    base = ruleset("jipinghu_5fan")
    assert ruleset("jipinghu_5fan_min1").content_hash == base.replace(min_fan=1).content_hash
    assert ruleset("jipinghu_5fan_min3").content_hash == base.replace(min_fan=3).content_hash


def test_tuidaohu_all_editions():
    for name in ("tuidaohu", "tuidaohu_dianpao", "tuidaohu_ghost"):
        rs = ruleset(name)
        assert rs.tile_set == 136 and rs.chow is False  # TDH-P1
        assert rs.win_forms == ("standard", "seven_pairs", "thirteen_orphans") and rs.seven_pairs_quads  # TDH-P4
        assert (rs.next_dealer_after_win, rs.next_dealer_after_draw) == ("winner", "next")  # TDH-P5
        assert (rs.kong_pay_discard, rs.kong_pay_added, rs.kong_pay_concealed) == (3, 1, 2)  # TDH-K1
        assert rs.rob_kong and rs.rob_kong_own_discard is False  # TDH-S1
        assert rs.liability_kong_flower  # TDH-S2
        assert rs.cap is None and rs.min_fan == 0


def test_tuidaohu_self_draw_edition():
    rs = ruleset("tuidaohu")
    assert (rs.discard_win, rs.multiple_win, rs.missed_win, rs.missed_pung) == (False, False, "none", False)  # TDH-P2
    assert (rs.hand_value, rs.small_hand_value, rs.big_hand_value) == ("small_big", 1, 2)  # TDH-V1
    assert set(rs.big_hands) == {  # TDH-V2: eleven big hands, half flush is not one
        "heavenly", "earthly", "full_flush", "all_honours", "seven_pairs", "four_concealed_pungs", "four_kongs",
        "big_dragons", "little_winds", "big_winds", "thirteen_orphans",
    }  # fmt: skip
    assert rs.earthly_rule == "first_self_draw"  # TDH-V2 [Q] interpretation
    assert (rs.self_draw_multiplier, rs.discard_multiplier) == (2, 1)  # TDH-V3
    assert rs.kong_settle == "end_if_won"  # TDH-K2 [Q]
    assert rs.horses == "dealer"  # TDH-M1
    assert (rs.horse_growth, rs.horse_base, rs.horse_max) == ("plus_one_per_streak", 1, 4)  # TDH-M2 [Q]
    assert rs.horse_mapping == "dealer_offset"  # TDH-M3
    assert rs.wild_scheme == "none"


def test_tuidaohu_dianpao_edition():
    rs = ruleset("tuidaohu_dianpao")
    assert rs.discard_win and rs.multiple_win  # TDH-P2 [D]
    assert (rs.missed_win, rs.missed_pung) == ("any_discard_until_draw", True)  # TDH-P3 过手
    assert rs.earthly_rule == "dealer_first_discard"  # TDH-V2 [D]
    assert (rs.self_draw_multiplier, rs.discard_multiplier) == (2, 1)  # TDH-V3 [D]
    assert rs.hand_value == "small_big" and len(rs.big_hands) == 11  # TDH-V1, TDH-V2
    assert rs.horses == "dealer" and rs.horse_growth == "by_win_kind" and rs.horse_max == 4  # TDH-M2 [D]
    assert rs.kong_settle == "end_if_won"  # TDH-K2


def test_tuidaohu_ghost_edition():
    rs = ruleset("tuidaohu_ghost")
    assert (rs.discard_win, rs.multiple_win) == (False, False)  # TDH-P2 [G]
    assert rs.hand_value == "ghost_multipliers"  # TDH-V4
    assert (rs.no_ghost_multiplier, rs.kong_flower_multiplier) == (2, 2)  # TDH-V4
    assert (rs.full_ghosts, rs.full_ghosts_value) == (True, 6)  # TDH-V4 满鬼
    assert rs.self_draw_multiplier == 1  # TDH-V4: 1 unit per payer
    assert rs.kong_settle == "immediate"  # TDH-K2 [G]
    assert (rs.horses, rs.horse_mapping) == ("winner", "ghost_edition")  # TDH-M5
    assert (rs.winner_horses_with_ghost, rs.winner_horses_without_ghost, rs.horse_reserve) == (4, 6, 6)  # TDH-M5
    assert (rs.wild_scheme, rs.wild_tile) == ("fixed", "5z")  # TDH-G1: 白板


def test_xuezhan_editions():
    for name in ("xuezhan", "xuezhan_cap3", "xuezhan_dingque", "xueliu"):
        rs = ruleset(name)
        assert (rs.tile_set, rs.chow, rs.kong_replacement) == (108, False, "front")  # XZ-P1
        assert rs.max_suits == 2  # XZ-P2 缺一门
        assert rs.win_forms == ("standard", "seven_pairs") and rs.seven_pairs_quads  # XZ-P3
        assert rs.bloody and rs.multiple_win and rs.discard_win  # XZ-P4
        assert rs.missed_win == "until_draw_unless_more_fan"  # XZ-P5 过水
        assert rs.must_win_tiles_left == 4  # XZ-P6
        assert (rs.next_dealer_after_win, rs.next_dealer_after_draw) == ("first_winner", "same")  # XZ-P7
        assert rs.hand_value == "fan"
        assert rs.xz_fan == {  # XZ-F1
            "basic": 0, "all_pungs": 1, "full_flush": 2, "seven_pairs": 2, "terminal_sets": 2,
            "full_flush_pungs": 3, "two_five_eight_pungs": 3, "full_flush_seven_pairs": 4,
            "dragon_seven_pairs": 4, "full_flush_terminal_sets": 4, "full_flush_dragon_seven_pairs": 5,
            "heavenly": 5, "earthly": 5,
        }  # fmt: skip
        assert rs.xz_additions == {  # XZ-F2
            "root": 1, "added_kong": 1, "direct_kong": 1, "concealed_kong": 2, "kong_flower_exposed": 2,
            "kong_flower_concealed": 3, "kong_discard": 1, "robbed_kong": 1,
        }  # fmt: skip
        assert (rs.kong_pay_discard, rs.kong_pay_added, rs.kong_pay_concealed) == (2, 1, 2)  # XZ-M3
        assert rs.kong_settle == "immediate"  # XZ-M3
        assert rs.call_transfer  # XZ-M4
        assert rs.end_checks and rs.flower_pig_penalty == 16  # XZ-E1, XZ-E2
        assert rs.tax_refund  # XZ-E3
    assert ruleset("xuezhan").cap is None  # XZ-F3: no cap by default
    assert ruleset("xuezhan_dingque").cap is None
    assert ruleset("xuezhan_cap3").cap == 3  # XZ-F3 option
    assert ruleset("xuezhan").declare_void is False  # XZ-P2 interpretation
    assert ruleset("xuezhan_dingque").declare_void is True
    assert ruleset("xuezhan_cap3").content_hash == ruleset("xuezhan", cap=3).content_hash
    assert (
        ruleset("xuezhan_dingque").content_hash
        == ruleset("xuezhan", declare_void=True, exchange_three=True).content_hash
    )  # XZ-H1, XZ-H2: 定缺 + 换三张, as most Chengdu tables play
    assert ruleset("xueliu").content_hash == ruleset("xuezhan_dingque", bloody_flow=True).content_hash  # XZ-H7
    xz = ruleset("xuezhan")  # XZ-H: every house option at the seed's reading
    assert (xz.exchange_three, xz.self_draw_bonus, xz.concealed_and_middle, xz.extra_patterns) == (
        False, "none", False, False,
    )  # fmt: skip
    assert (xz.kong_flower_from_discard, xz.bloody_flow, xz.heavenly_earthly) == ("discarder", False, True)
    with pytest.raises(ValueError, match="bloody_flow.*needs 'bloody'"):
        ruleset("jipinghu", bloody_flow=True)


def test_shuitou():
    rs = ruleset("shuitou")
    assert rs.family == "shuitou"
    assert rs.tile_set == 144 and rs.white_is_flower  # SHT-P1
    assert rs.hand_size == 16 and rs.win_forms == ("standard",)  # SHT-P2
    assert rs.wild_scheme == "flip_two_kinds"  # SHT-P3 财神
    assert (rs.caishen_same_kind, rs.caishen_flip_flower) == ("one_kind", "redraw")  # SHT-P3 interpretations
    assert rs.chow and rs.missed_pung  # SHT-P4
    assert rs.discard_win and rs.multiple_win is False  # SHT-P5
    assert rs.kong_replacement == "back"  # SHT-P6
    assert (rs.split_tiles_at, rs.split_kong_extra) == (24, 2)  # SHT-P7
    assert rs.next_dealer_after_draw == "next"  # SHT-P7
    assert rs.next_dealer_after_win == "dealer_or_next"  # SHT-P8
    assert rs.missed_win == "none"


def test_all_presets_have_distinct_hashes():
    hashes = [ruleset(name).content_hash for name in PRESETS_EXPECTED]
    assert len(set(hashes)) == len(hashes)


# ---------------------------------------------------------------------------
# Overrides


def test_override_cap():
    assert mjsim.rules.ruleset("jipinghu_5fan", cap=3).cap == 3
    assert ruleset("jipinghu_5fan").cap == 5  # the cached preset is untouched
    assert ruleset("jipinghu", cap=None).cap is None
    assert ruleset("jipinghu", cap="none").cap is None


def test_override_normalises_values():
    rs = ruleset("jipinghu", bonuses=["last_tile", "self_draw"], fan={"all_pungs": 2, "chicken": 0})
    assert rs.bonuses == ("self_draw", "last_tile")  # registry order
    assert list(rs.fan) == ["chicken", "all_pungs"]
    assert rs.name == "jipinghu"
    assert ruleset("jipinghu", name="house").name == "house"


def test_replace_validates():
    with pytest.raises(ValueError, match="min_fan"):
        ruleset("jipinghu").replace(min_fan=99)


def test_unknown_override_lists_options():
    with pytest.raises(ValueError) as err:
        ruleset("jipinghu", capp=3)
    message = str(err.value)
    assert "'capp'" in message and "did you mean 'cap'" in message
    assert "min_fan" in message and "xz_additions" in message  # the list of options


def test_unknown_preset_lists_presets():
    with pytest.raises(ValueError) as err:
        ruleset("jipinhu")
    message = str(err.value)
    assert "'jipinhu'" in message and "did you mean 'jipinghu'" in message
    assert all(name in message for name in PRESETS_EXPECTED)


# ---------------------------------------------------------------------------
# House files


HOUSE_FULL = """
description = "our table"
family = "jipinghu"
cap = "none"
min_fan = 2
bonuses = ["self_draw"]
[fan]
chicken = 0
all_pungs = 2
[limit_fan]
big_winds = 8
"""


def test_house_file_without_extends(tmp_path):
    path = tmp_path / "our_table.toml"
    path.write_text(HOUSE_FULL, encoding="utf-8")
    rs = ruleset(path)  # a Path
    assert rs.name == "our_table" and rs.description == "our table"
    assert rs.cap is None and rs.min_fan == 2 and rs.bonuses == ("self_draw",)
    assert rs.fan == {"chicken": 0, "all_pungs": 2} and rs.limit_fan == {"big_winds": 8}
    assert rs.tile_set == 136  # defaults fill the rest
    assert ruleset(str(path)) == rs  # a str path


def test_house_file_extends_preset(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('extends = "jipinghu_5fan"\ncap = 3\n[fan]\nall_pungs = 4\n', encoding="utf-8")
    rs = ruleset(path)
    base = ruleset("jipinghu_5fan")
    assert rs.name == "house" and rs.description == ""  # identity is not inherited
    assert rs.cap == 3
    assert rs.fan == {**base.fan, "all_pungs": 4}  # tables merge key by key
    assert rs.limit_fan == base.limit_fan
    assert rs.content_hash == base.replace(cap=3, fan={**base.fan, "all_pungs": 4}).content_hash


def test_house_file_moves_and_removes_patterns(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('extends = "jipinghu"\n[fan]\nfull_flush = 3\n[limit_fan]\nhuman = "none"\n', encoding="utf-8")
    rs = ruleset(path)
    assert rs.fan["full_flush"] == 3 and "full_flush" not in rs.limit_fan  # moved to ordinary
    assert "human" not in rs.limit_fan and "earthly" in rs.limit_fan  # removed
    assert len(rs.limit_fan) == 13


def test_house_file_extends_relative_file(tmp_path):
    (tmp_path / "base.toml").write_text('extends = "xuezhan"\ndescription = "base"\ncap = 4\n', encoding="utf-8")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "child.toml").write_text('extends = "../base.toml"\ndeclare_void = true\n', encoding="utf-8")
    rs = ruleset(sub / "child.toml")
    assert (rs.name, rs.description, rs.cap, rs.declare_void) == ("child", "", 4, True)
    assert rs.tile_set == 108


def test_house_file_with_overrides(tmp_path):
    path = tmp_path / "h.toml"
    path.write_text('extends = "tuidaohu"\n', encoding="utf-8")
    assert ruleset(path, horse_max=2).horse_max == 2


def test_house_file_identical_to_preset_has_same_hash(tmp_path):
    preset_text = (PRESETS / "jipinghu_5fan.toml").read_text(encoding="utf-8")
    path = tmp_path / "my_copy.toml"
    path.write_text(preset_text.replace("description =", 'description = "mine" #'), encoding="utf-8")
    house, preset = ruleset(path), ruleset("jipinghu_5fan")
    assert house.name == "my_copy" and house.description == "mine"
    assert house != preset  # names differ ...
    assert house.content_hash == preset.content_hash  # ... the rules do not


# ---------------------------------------------------------------------------
# Bad input: every error names the key and the bad value


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"chow": 1}, ["'chow'", "1", "true or false"]),  # int is not bool
        ({"rob_kong": "yes"}, ["'rob_kong'", "'yes'"]),
        ({"min_fan": True}, ["'min_fan'", "True", "bool"]),  # bool is not int
        ({"min_fan": 2.0}, ["'min_fan'", "2.0", "float"]),
        ({"cap": "3"}, ["'cap'", "'3'", "none"]),
        ({"description": 5}, ["'description'", "5"]),
        ({"min_fan": 14}, ["'min_fan'", "14", "0..13"]),
        ({"min_fan": -1}, ["'min_fan'", "-1", "0..13"]),
        ({"cap": 21}, ["'cap'", "21", "0..20"]),
        ({"tile_set": 135}, ["'tile_set'", "135", "108, 136, 144"]),
        ({"hand_size": 14}, ["'hand_size'", "14", "13, 16"]),
        ({"horse_max": 9}, ["'horse_max'", "9", "0..8"]),
        ({"max_suits": 1}, ["'max_suits'", "1", "2..3"]),
        ({"missed_win": "never"}, ["'missed_win'", "'never'", "same_kind_until_move"]),
        ({"family": "riichi"}, ["'family'", "'riichi'", "jipinghu, tuidaohu, xuezhan, shuitou"]),
        ({"kong_replacement": "Back"}, ["'kong_replacement'", "'Back'", "did you mean 'back'"]),
        ({"fan": {"all_pung": 2}}, ["'fan'", "'all_pung'", "did you mean 'all_pungs'"]),
        ({"limit_fan": {"big_four_winds": 6}}, ["'limit_fan'", "'big_four_winds'", "big_winds"]),
        ({"xz_fan": {"dragon_pairs": 4}}, ["'xz_fan'", "'dragon_pairs'", "dragon_seven_pairs"]),
        ({"xz_additions": {"gen": 1}}, ["'xz_additions'", "'gen'", "root"]),
        ({"bonuses": ["self_drawn"]}, ["'bonuses'", "'self_drawn'", "did you mean 'self_draw'"]),
        ({"big_hands": ["half_flush"]}, ["'big_hands'", "'half_flush'", "four_kongs"]),
        ({"win_forms": ["standard", "7pairs"]}, ["'win_forms'", "'7pairs'", "seven_pairs"]),
        ({"win_forms": ["seven_pairs"]}, ["'win_forms'", "seven_pairs", "'standard'"]),
        ({"bonuses": ["self_draw", "self_draw"]}, ["'bonuses'", "twice"]),
        ({"bonuses": "self_draw"}, ["'bonuses'", "'self_draw'", "list"]),
        ({"fan": [1, 2]}, ["'fan'", "[1, 2]", "table"]),
        ({"fan": {"chicken": True}}, ["'fan.chicken'", "True", "bool"]),
        ({"fan": {"chicken": 21}}, ["'fan.chicken'", "21", "0..20"]),
        ({"fan": {"full_flush": 5}}, ["'full_flush'", "'fan'", "'limit_fan'"]),  # JPH-F1/F2: in both
        ({"wild_tile": "55z"}, ["'wild_tile'", "'55z'", "one playing tile"]),
        ({"wild_tile": "8z"}, ["'wild_tile'", "'8z'"]),
        ({"wild_tile": "1f"}, ["'wild_tile'", "'1f'", "flower"]),
        ({"wild_tile": "white"}, ["'wild_tile'", "'white'"]),
        ({"tile_set": 108}, ["'tile_set'", "108", "'win_forms'", "thirteen_orphans"]),
        ({"declare_void": True}, ["'declare_void'", "'max_suits'", "3"]),
        ({"horse_base": 5}, ["'horse_base'", "5", "'horse_max'"]),
        ({"name": ""}, ["'name'", "''"]),
    ],
)
def test_bad_values_name_key_and_value(overrides, expected):
    with pytest.raises(ValueError) as err:
        ruleset("jipinghu", **overrides)
    message = str(err.value)
    for part in expected:
        assert part in message, (part, message)


def test_108_tiles_rejects_every_honour_dependent_option():
    xz = ruleset("xuezhan")
    cases = [
        ({"bonuses": ["seat_wind"]}, "seat_wind"),
        ({"fan": {"half_flush": 2}}, "half_flush"),
        ({"limit_fan": {"big_dragons": 6}}, "big_dragons"),
        ({"big_hands": ["all_honours"]}, "all_honours"),
        ({"win_forms": ["standard", "thirteen_orphans"]}, "thirteen_orphans"),
        ({"white_is_flower": True}, "white_is_flower"),
    ]
    for overrides, word in cases:
        with pytest.raises(ValueError, match=word) as err:
            xz.replace(**overrides)
        assert "108" in str(err.value)
    xz.replace(bonuses=["self_draw", "concealed"], limit_fan={"pure_terminals": 6})  # no honours needed: fine


def test_wild_tile_must_be_in_the_tile_set():
    with pytest.raises(ValueError) as err:
        ruleset("xuezhan", wild_scheme="fixed", wild_tile="5z")
    assert "'wild_tile'" in str(err.value) and "'5z'" in str(err.value) and "108" in str(err.value)
    assert ruleset("xuezhan", wild_scheme="fixed", wild_tile="5s").wild_tile == "5s"
    with pytest.raises(ValueError, match="white_is_flower"):
        ruleset("shuitou", wild_scheme="fixed", wild_tile="5z")


def test_winner_horses_must_fit_the_reserve():
    with pytest.raises(ValueError, match="'horse_reserve' = 4"):
        ruleset("tuidaohu_ghost", horse_reserve=4)


def test_bad_house_files_name_file_key_and_value(tmp_path):
    cases = {
        "typo.toml": ('extends = "jipinghu"\ncapp = 3\n', ["typo.toml", "'capp'", "did you mean 'cap'"]),
        "badcap.toml": ('extends = "jipinghu"\ncap = 30\n', ["badcap.toml", "'cap'", "30"]),
        "nofamily.toml": ("cap = 3\n", ["nofamily.toml", "'family'", "required"]),
        "badtoml.toml": ('extends = "jipinghu"\ncap = \n', ["badtoml.toml", "invalid TOML"]),
        "badparent.toml": ('extends = "jipinhu"\n', ["badparent.toml", "'jipinhu'", "jipinghu_5fan_min1"]),
        "badkey.toml": ('extends = "jipinghu"\n[fan]\nall_pung = 3\n', ["badkey.toml", "'all_pung'", "'fan'"]),
        "badnone.toml": ('family = "jipinghu"\nchow = "none"\n', ["badnone.toml", "'chow'", "'none'"]),
        "missing.toml": ('extends = "nowhere.toml"\n', ["nowhere.toml", "cannot read"]),
        "loop.toml": ('extends = "loop.toml"\n', ["loop.toml", "cycle"]),
    }
    for filename, (text, expected) in cases.items():
        path = tmp_path / filename
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError) as err:
            ruleset(path)
        for part in expected:
            assert part in str(err.value), (filename, part, str(err.value))


def test_from_dict_rejects_unknown_and_missing_keys():
    with pytest.raises(ValueError, match="'chows'"):
        Ruleset.from_dict({"name": "x", "family": "jipinghu", "chows": True})
    with pytest.raises(ValueError, match="'family'"):
        Ruleset.from_dict({"name": "x"})


# ---------------------------------------------------------------------------
# Immutability, hashing


def test_ruleset_is_frozen_and_hashable():
    rs = ruleset("jipinghu")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.cap = 4
    with pytest.raises(TypeError):
        rs.fan["all_pungs"] = 9
    assert rs.fan["all_pungs"] == 2 and "all_pungs" in rs.fan and "nine_gates" not in rs.fan
    assert dict(rs.fan.items())["half_flush"] == 2
    assert {rs: 1}[ruleset("jipinghu")] == 1
    assert hash(rs) == hash(Ruleset.from_dict(rs.to_dict()))
    assert pickle.loads(pickle.dumps(rs)) == rs


def test_pinned_jipinghu_hash():
    assert ruleset("jipinghu").content_hash == JIPINGHU_HASH


def test_hash_is_sha256_of_canonical_json():
    rs = ruleset("tuidaohu")
    values = {k: v for k, v in rs.to_dict().items() if k not in ("name", "description")}
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert rs.content_hash == hashlib.sha256(text.encode()).hexdigest()[:16]


def test_same_options_same_hash():
    a = ruleset("jipinghu")
    b = Ruleset.from_dict(a.to_dict())
    assert a == b and a.content_hash == b.content_hash
    reordered = a.replace(bonuses=list(reversed(a.bonuses)), fan=dict(reversed(list(a.fan.items()))))
    assert reordered == a and reordered.content_hash == a.content_hash
    assert a.replace(name="other", description="other").content_hash == a.content_hash


def _another_value(option, value):
    """A different valid value of ``option`` on the base ruleset below (None if there is none)."""
    if option.kind == "bool":
        return not value
    if option.kind == "cap":
        return 3 if value is None else None
    if option.kind == "int":
        if option.allowed:
            return [v for v in option.allowed if v != value][-1]
        return value + 1 if value < option.hi else value - 1
    if option.kind == "choice":
        others = [v for v in option.allowed if v != value]
        return others[0] if others else None
    if option.kind == "tile":
        return "1z"
    if option.kind == "list":
        last = option.allowed[-1]
        return [v for v in value if v != last] if last in value else [*value, last]
    if option.kind == "table":
        key = option.allowed[-1]
        return {**value, key: value.get(key, 0) + 1}
    return None


def test_any_option_change_changes_the_hash():
    base = Ruleset(name="base", family="jipinghu", max_suits=2, bloody=True)  # so declare_void, bloody_flow may
    changed = 0
    for option in OPTIONS.values():
        if option.name in ("name", "description"):
            continue
        other = _another_value(option, getattr(base, option.name))
        if other is None:  # single-valued options (caishen_*)
            assert len(option.allowed) == 1, option.name
            continue
        assert base.replace(**{option.name: other}).content_hash != base.content_hash, option.name
        changed += 1
    assert changed == len(OPTIONS) - 2 - 1  # caishen_flip_flower is the one single-valued option


# ---------------------------------------------------------------------------
# TOML round trip


@pytest.mark.parametrize("name", PRESETS_EXPECTED)
def test_to_toml_round_trip(name, tmp_path):
    rs = ruleset(name)
    assert loads(rs.to_toml()) == rs
    path = tmp_path / "elsewhere.toml"
    path.write_text(rs.to_toml(), encoding="utf-8")
    assert ruleset(path) == rs  # the written name wins over the file stem


def test_to_toml_round_trip_awkward_text_and_no_cap():
    rs = ruleset("jipinghu", cap=None, description='quote " backslash \\ tab \t newline \n del \x7f 鸡平胡')
    assert loads(rs.to_toml()) == rs
    assert 'cap = "none"' in rs.to_toml()


# ---------------------------------------------------------------------------
# CLI text


def test_describe_presets():
    lines = describe_presets().splitlines()
    assert len(lines) == 1 + len(PRESETS_EXPECTED)
    row = next(line for line in lines if line.startswith("jipinghu_5fan_min3 "))
    assert row.split()[:4] == ["jipinghu_5fan_min3", "jipinghu", "5", "3"]
    assert ruleset("jipinghu_5fan_min3").description in row
    assert next(line for line in lines if line.startswith("xuezhan ")).split()[2] == "none"


def test_describe_ruleset_shows_every_option():
    text = describe_ruleset(ruleset("xuezhan_cap3"))
    for name in OPTIONS:
        if name not in ("name", "description", "family"):
            assert f" {name} = " in text
    assert "* cap = 3" in text and "JPH-F4, XZ-F3" in text
    assert ruleset("xuezhan_cap3").content_hash in text
