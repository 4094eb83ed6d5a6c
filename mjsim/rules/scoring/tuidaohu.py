"""Guangdong 推倒胡 scoring (rules/tuidaohu.md TDH-V).

``ruleset.hand_value`` picks the value scheme: ``small_big`` (TDH-V1/V2 [Q][D]:
small hand or one big hand from ``big_hands``) or ``ghost_multipliers``
(TDH-V4 [G]: 1 unit times the no-ghost and kong-flower multipliers; 满鬼).
Points per payer = value x ``self_draw_multiplier`` on a self-draw or robbed
kong, x ``discard_multiplier`` on a discard win (TDH-V3).
"""

from __future__ import annotations

import dataclasses
from math import prod

from . import patterns as p
from .context import Hand, HandScore, Win, best_score

# TDH-V2 big hands 大胡, in the rules' order; "earthly" follows ruleset.earthly_rule.
BIG_HANDS = (
    ("heavenly", p.heavenly),  # 天胡
    ("earthly", None),  # 地胡, see EARTHLY
    ("full_flush", p.full_flush),  # 清一色
    ("all_honours", p.all_honours),  # 字一色
    ("seven_pairs", p.seven_pairs),  # 七对
    ("four_concealed_pungs", p.four_concealed_pungs),  # 四暗刻
    ("four_kongs", p.four_kongs),  # 十八罗汉
    ("big_dragons", p.big_dragons),  # 大三元
    ("little_winds", p.little_winds),  # 小四喜
    ("big_winds", p.big_winds),  # 大四喜
    ("thirteen_orphans", p.thirteen_orphans),  # 十三幺
)

# TDH-V2 地胡: [Q] interpretation (first self-draw) or [D] (win on the dealer's first discard).
EARTHLY = {
    "first_self_draw": p.first_draw_self_draw,
    "dealer_first_discard": p.first_discard_win,
}


def big_hands(ruleset, r: p.Reading) -> list[str]:
    """The ruleset's big hands that the reading has (TDH-V2)."""
    tests = dict(BIG_HANDS, earthly=EARTHLY[ruleset.earthly_rule])
    return [pid for pid, _ in BIG_HANDS if pid in ruleset.big_hands and tests[pid](r)]


def small_big_value(ruleset, r: p.Reading) -> list[tuple[str, int]]:
    """TDH-V1: one big hand, or a small hand; big hands do not combine (extra ones listed at 0)."""
    big = big_hands(ruleset, r)
    if not big:
        return [("small_hand", ruleset.small_hand_value)]
    return [(big[0], ruleset.big_hand_value)] + [(pid, 0) for pid in big[1:]]


def ghost_value(ruleset, r: p.Reading) -> list[tuple[str, int]]:
    """TDH-V4: 1 unit x2 无鬼 x2 杠开 (TDH-H4: x 七对加倍), multiplied together; the details hold the factors."""
    detail = [("small_hand", ruleset.small_hand_value)]
    if r.hand.wilds == 0:  # no ghost tile held (TDH-H7 face-value readings of ghosts have none, see score)
        detail.append(("no_ghost", ruleset.no_ghost_multiplier))
    if r.form == "seven_pairs" and ruleset.seven_pairs_multiplier > 1:  # TDH-H4 七对加倍
        detail.append(("seven_pairs", ruleset.seven_pairs_multiplier))
    if r.win.kong_replacement:
        detail.append(("kong_flower", ruleset.kong_flower_multiplier))
    return detail


def win_multipliers(ruleset, r: p.Reading) -> list[tuple[str, int]]:
    """TDH-H5 杠开加倍 / 抢杠加倍 on a hand's units; 杠开 is part of ghost_value under ghost multipliers."""
    out = []
    if r.win.kong_replacement and ruleset.hand_value != "ghost_multipliers" and ruleset.kong_flower_multiplier > 1:
        out.append(("kong_flower", ruleset.kong_flower_multiplier))
    if r.win.robbed_kong and ruleset.robbed_kong_multiplier > 1:
        out.append(("robbed_kong", ruleset.robbed_kong_multiplier))
    return out


# hand_value -> (details of the value, how the details combine into units)
VALUE_SCHEMES = {
    "small_big": (small_big_value, sum),
    "ghost_multipliers": (ghost_value, prod),
}


def score_reading(ruleset, r: p.Reading) -> HandScore:
    """The score of one reading (TDH-V1..V4)."""
    p.check_suits(ruleset, r)
    if r.form == "full_ghosts":  # TDH-V4 满鬼: its own value, no other multiplier
        detail = [("full_ghosts", ruleset.full_ghosts_value)]
        units = ruleset.full_ghosts_value
    else:
        value_of, combine = VALUE_SCHEMES[ruleset.hand_value]
        detail = value_of(ruleset, r)
        units = combine(v for _, v in detail)
        for pid, factor in win_multipliers(ruleset, r):
            detail.append((pid, factor))
            units *= factor
    multiplier = ruleset.self_draw_multiplier if r.win.paid_as_self_draw else ruleset.discard_multiplier  # TDH-V3
    return HandScore(units, tuple(pid for pid, _ in detail), units * multiplier, tuple(detail))


def _rank(r: p.Reading, s: HandScore) -> tuple:
    """Points, then units, then the reading that shows more big hands (interpretation: readings of
    equal value list every big hand the player can claim, e.g. 七对 + 清一色 over 清一色 alone);
    the compiled scorer (mjsim.sim.fastscore_tdh) follows the same order."""
    return (s.points, s.fan, sum(pid in BIG_IDS for pid in s.patterns))


BIG_IDS = frozenset(pid for pid, _ in BIG_HANDS)


def score(ruleset, hand: Hand, win: Win) -> HandScore:
    """The best reading's score; 满鬼 (TDH-V4) wins whatever the shape."""
    if ruleset.hand_value not in VALUE_SCHEMES:
        raise ValueError(f"tuidaohu values hands by {sorted(VALUE_SCHEMES)}, not hand_value={ruleset.hand_value!r}")
    found = p.readings(ruleset, hand, win)
    if ruleset.ghost_as_itself_counts_as_no_ghost and hand.wilds:
        found += p.readings(ruleset, face_value_hand(hand), win)
    if ruleset.full_ghosts and hand.wild_kinds and hand.wilds >= 4:
        found.append(p.full_ghosts_reading(hand, win))
    return best_score(lambda r: score_reading(ruleset, r), found, no_win=p.no_win_message(ruleset, hand), rank=_rank)


def face_value_hand(hand: Hand) -> Hand:
    """TDH-H7 鬼牌归位: the hand with every ghost standing for its own face value (C-J2), so no ghost held."""
    concealed = hand.concealed.copy()
    for kind in hand.wild_held:
        concealed[kind] += 1
    return dataclasses.replace(hand, concealed=concealed, wilds=0, wild_kinds=(), wild_held=())
