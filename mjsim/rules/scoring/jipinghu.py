"""Guangdong 鸡平胡 scoring (rules/jipinghu.md JPH-F, JPH-S, JPH-P4).

Both editions run through the same code; the ruleset's tables decide:
``fan`` holds the ordinary patterns (added together), ``limit_fan`` the limit
patterns (the largest one alone, no bonuses, no cap), ``bonuses`` the JPH-F3
bonuses, and ``kong_flower``, ``robbed_kong_bonus``, ``triple_win_raise``,
``cap`` and ``min_fan`` the rest.
"""

from __future__ import annotations

from . import patterns as p
from .context import Hand, HandScore, Rejected, Win, best_score

# JPH-F1 / JPH-F2: every pattern of the family, table order.  Whether one is
# ordinary or limit is the ruleset's business (a pattern id sits in `fan` or `limit_fan`).
PATTERNS = (
    ("all_chows", p.all_chows),  # JPH-F1 平胡
    ("all_pungs", p.all_pungs),  # JPH-F1 碰碰胡
    ("half_flush", p.half_flush),  # JPH-F1 混一色
    ("half_flush_pungs", p.both(p.half_flush, p.all_pungs)),  # JPH-F1/F2 混碰
    ("full_flush", p.full_flush),  # JPH-F1/F2 清一色
    ("full_flush_pungs", p.both(p.full_flush, p.all_pungs)),  # JPH-F2 清碰
    ("mixed_terminals", p.mixed_terminals),  # JPH-F2 混幺九
    ("little_dragons", p.little_dragons),  # JPH-F2 小三元
    ("little_winds", p.little_winds),  # JPH-F2 小四喜
    ("all_honours", p.all_honours),  # JPH-F2 字一色
    ("pure_terminals", p.pure_terminals),  # JPH-F2 清幺九
    ("big_dragons", p.big_dragons),  # JPH-F2 大三元
    ("big_winds", p.big_winds),  # JPH-F2 大四喜
    ("nine_gates", None),  # JPH-F2 九莲宝灯: its test reads the ruleset (nine_gates_wait), see found_patterns
    ("thirteen_orphans", p.thirteen_orphans),  # JPH-F2 十三幺
    ("heavenly", p.heavenly),  # JPH-F2 天和
    ("earthly", p.first_draw_self_draw),  # JPH-F2 地和
    ("human", p.first_discard_win),  # JPH-F2 人和
)

# JPH-F1: a combined pattern replaces its parts (混碰 is not 混一色 + 碰碰胡).
REPLACES = {
    "half_flush_pungs": ("half_flush", "all_pungs"),
    "full_flush_pungs": ("full_flush", "all_pungs"),
}

# JPH-F3 bonuses: fan each (a count, as dragon pungs may be two).
BONUSES = {
    "self_draw": lambda r: int(r.win.paid_as_self_draw),  # JPH-S2/S3: kong flower, robbed kong count as self-draw
    "seat_wind": lambda r: int(r.win.seat_wind_tile in p.pung_kinds(r)),
    "round_wind": lambda r: int(r.win.round_wind_tile in p.pung_kinds(r)),
    "dragon_pung": p.dragon_pungs,
    "concealed": lambda r: int(not r.hand.claimed_melds),  # 门前清: no chow, pung or exposed kong
    "last_tile": lambda r: int(r.win.last_tile and r.win.self_draw),  # 海底捞月: the last tile drawn
}


def found_patterns(ruleset, r: p.Reading) -> list[str]:
    """The table patterns the reading has, combined patterns replacing their parts (JPH-F1)."""
    known = set(ruleset.fan) | set(ruleset.limit_fan)
    found = [
        pid
        for pid, test in PATTERNS
        if pid in known and (p.nine_gates(r, ruleset.nine_gates_wait) if test is None else test(r))
    ]
    for combined, parts in REPLACES.items():
        if combined in found:
            found = [pid for pid in found if pid not in parts]
    return found


def _special_wins(ruleset, win: Win) -> tuple[list[tuple[str, int]], list[str]]:
    """JPH-S1/S2/S3: (+1 bonuses, raises to the cap) for kong flower, robbed kong, triple win."""
    kong_flower_like = []
    if win.kong_replacement:
        kong_flower_like.append("kong_flower")  # JPH-S2 杠上开花
    if win.robbed_kong and ruleset.robbed_kong_bonus == "as_kong_flower":
        kong_flower_like.append("robbed_kong")  # JPH-S3 [3]: gets the JPH-S2 minimum
    plus, raises = [], []
    for pid in kong_flower_like:
        if ruleset.kong_flower == "plus_one":
            plus.append((pid, 1))  # JPH-S2 [5]
        else:
            raises.append(pid)  # JPH-S2 [3] raise_to_cap
    if win.discard_winners == 3 and ruleset.triple_win_raise:
        raises.append("triple_win")  # JPH-S1 一炮三响
    return plus, raises


def _check_min_fan(ruleset, total: int) -> None:
    if total < ruleset.min_fan:
        raise Rejected(f"{total} fan is below this ruleset's minimum of {ruleset.min_fan} fan to win (JPH-P4 起胡)")


def score_reading(ruleset, r: p.Reading) -> HandScore:
    """The score of one reading (JPH-F1..F4, JPH-S1..S3)."""
    p.check_suits(ruleset, r)
    found = found_patterns(ruleset, r)
    limits = [pid for pid in found if pid in ruleset.limit_fan]
    if limits:  # JPH-F2: the largest limit pattern alone; no bonus, no cap
        best = max(limits, key=lambda pid: ruleset.limit_fan[pid])
        fan = ruleset.limit_fan[best]
        _check_min_fan(ruleset, fan)
        return HandScore(fan, (best,), 2**fan, ((best, fan),), limit=True)

    detail = [(pid, ruleset.fan[pid]) for pid in found if pid in ruleset.fan]
    if not detail:
        detail = [("chicken", ruleset.fan.get("chicken", 0))]  # JPH-F1 鸡胡
    for bonus in ruleset.bonuses:  # JPH-F3
        detail += [(bonus, 1)] * BONUSES[bonus](r)
    plus, raises = _special_wins(ruleset, r.win)
    detail += plus
    total = sum(fan for _, fan in detail)
    _check_min_fan(ruleset, total)  # JPH-P4: after bonuses, before cap and raises
    cap = ruleset.cap
    fan = total if cap is None else min(cap, total)  # JPH-F4
    for pid in raises:  # JPH-S1/S2/S3: at least the cap
        lift = 0 if cap is None else cap - fan  # fan <= cap here
        detail.append((pid, lift))
        fan += lift
    capped_from = total if cap is not None and total > cap else None
    return HandScore(fan, tuple(pid for pid, _ in detail), 2**fan, tuple(detail), False, capped_from)


def _rank(ruleset, r: p.Reading, s: HandScore) -> tuple:
    """Order of two readings' scores: the higher fan, then the higher fan before the cap and raises.

    A raise to the cap (JPH-S1..S3) or the cap itself (JPH-F4) can give two
    readings the same fan; the one with more fan of its own is the better
    reading, so 111222333s11z + kong on a 一炮三响 [3] reads as all pungs (2,
    raised to 3), not as a chicken (0, raised to 3).  Still equal
    (**interpretation**, so the patterns shown never depend on the order the
    readings are found in): a limit hand, then all pungs, then all chows.
    """
    if s.limit:
        before = s.fan
    else:  # the raise entries are the last ones of fan_detail, one per raise
        n_raises = len(_special_wins(ruleset, r.win)[1])
        before = sum(fan for _, fan in s.fan_detail[: len(s.fan_detail) - n_raises])
    return s.points, s.fan, before, s.limit, p.all_pungs(r), p.all_chows(r)


def score(ruleset, hand: Hand, win: Win) -> HandScore:
    """The best reading's score (JPH-F: the highest fan the hand can be read for; ties: see ``_rank``)."""
    return best_score(
        lambda r: score_reading(ruleset, r),
        p.readings(ruleset, hand, win),
        no_win=p.no_win_message(ruleset, hand),
        rank=lambda r, s: _rank(ruleset, r, s),
    )
