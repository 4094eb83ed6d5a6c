"""Sichuan 血战到底 scoring (rules/xuezhan.md XZ-F, XZ-P2, XZ-H3..H5, XZ-H8).

The highest XZ-F1 pattern in ``ruleset.xz_fan`` that the hand has (with
``extra_patterns`` also the four XZ-H5 ones; without ``heavenly_earthly``
never 天胡 / 地胡), plus the XZ-F2 additions in ``ruleset.xz_additions`` and
the house additions (XZ-H3 自摸加番, XZ-H4 门清中张), capped by ``ruleset.cap``
(XZ-F3).
"""

from __future__ import annotations

from . import patterns as p
from .context import Hand, HandScore, Rejected, Win, best_score

FF = p.full_flush

# XZ-F1 hand patterns (take the highest that applies).
PATTERNS = (
    ("basic", lambda r: True),  # 基本胡/平胡
    ("all_pungs", p.all_pungs),  # 对对胡
    ("full_flush", FF),  # 清一色
    ("seven_pairs", p.seven_pairs),  # 七对
    ("terminal_sets", p.terminal_sets),  # 幺九/全带幺
    ("full_flush_pungs", p.both(FF, p.all_pungs)),  # 清对
    ("two_five_eight_pungs", p.two_five_eight_pungs),  # 将对
    ("full_flush_seven_pairs", p.both(FF, p.seven_pairs)),  # 清七对
    ("dragon_seven_pairs", p.dragon_seven_pairs),  # 龙七对
    ("full_flush_terminal_sets", p.both(FF, p.terminal_sets)),  # 清幺九
    ("full_flush_dragon_seven_pairs", p.both(FF, p.dragon_seven_pairs)),  # 清龙七对
    ("heavenly", p.heavenly),  # 天胡
    ("earthly", p.first_draw_self_draw),  # 地胡
)


def four_sets_declared(r: p.Reading) -> bool:
    """金钩钓 (XZ-H5): all four sets are declared melds, so the win completes the pair."""
    return r.form == "standard" and len(r.hand.melds) == 4


def four_kongs(r: p.Reading) -> bool:
    """十八罗汉 (XZ-H5): four kongs."""
    return sum(m.is_kong for m in r.hand.melds) == 4


# XZ-H5: the values public Sichuan game servers give these patterns
EXTRA_PATTERNS = (
    ("single_wait", four_sets_declared, 2),  # 金钩钓
    ("full_flush_single_wait", p.both(FF, four_sets_declared), 4),  # 清金钩钓
    ("four_kongs", four_kongs, 6),  # 十八罗汉
    ("full_flush_four_kongs", p.both(FF, four_kongs), 8),  # 清十八罗汉
)
FIRST_TURN_PATTERNS = ("heavenly", "earthly")  # XZ-H8 heavenly_earthly


def pattern_table(ruleset) -> list[tuple[str, object, int]]:
    """(id, test, fan) of every hand pattern this ruleset scores (XZ-F1, XZ-H5, XZ-H8)."""
    table = ruleset.xz_fan
    found = [(pid, test, table[pid]) for pid, test in PATTERNS if pid in table]
    if not ruleset.heavenly_earthly:
        found = [entry for entry in found if entry[0] not in FIRST_TURN_PATTERNS]
    if ruleset.extra_patterns:
        found += list(EXTRA_PATTERNS)
    return found


def concealed_hand(r: p.Reading) -> bool:
    """门清 (XZ-H4): no pung and no exposed kong (concealed kongs allowed)."""
    return all(m.kind == "ckong" for m in r.hand.melds)


def no_terminals(r: p.Reading) -> bool:
    """中张 (XZ-H4): no 1 or 9 anywhere in the hand."""
    return all(k % 9 not in (0, 8) for k in p.kinds(r))


def house_additions(ruleset, r: p.Reading) -> list[tuple[str, int]]:
    """XZ-H3 自摸加番 (+1 on a self-drawn win, kong replacement included unless its discarder pays alone) and
    XZ-H4 门清 / 中张 (+1 each)."""
    found = []
    # XZ-H3 自摸加番: not for a 点杠花 its discarder pays alone (XZ-M2, XZ-H6; seed 和牌规则 3: 自摸 excludes 引杠)
    paid_by_discarder = r.win.kong_from_discard and ruleset.kong_flower_from_discard == "discarder"
    if ruleset.self_draw_bonus == "fan" and r.win.self_draw and not paid_by_discarder:
        found.append(("self_draw", 1))
    if ruleset.concealed_and_middle:
        found += [("concealed", 1)] if concealed_hand(r) else []
        found += [("no_terminals", 1)] if no_terminals(r) else []
    return found


# XZ-F2: in 龙七对 the first four-of-a-kind is part of the pattern, not a root.
ROOT_IN_PATTERN = {"dragon_seven_pairs": 1, "full_flush_dragon_seven_pairs": 1}


def additions(ruleset, r: p.Reading, pattern: str) -> list[tuple[str, int]]:
    """XZ-F2 additions as (id, fan), one entry per occurrence; ids missing from the table add nothing."""
    table = ruleset.xz_additions
    found = ["root"] * max(0, p.roots(r) - ROOT_IN_PATTERN.get(pattern, 0))
    for meld in r.hand.melds:  # 刮风下雨; an exposed kong counts as a direct kong 直杠
        if meld.kind == "ckong":
            found.append("concealed_kong")
        elif meld.kind == "kong":
            found.append("direct_kong")
    detail = [(aid, table[aid]) for aid in found if aid in table]
    if r.win.kong_replacement:  # 杠上花: by the kind of the kong just made (the last one)
        last = [m for m in r.hand.melds if m.is_kong][-1]
        key = "kong_flower_concealed" if last.is_concealed else "kong_flower_exposed"
        detail += [("kong_flower", table[key])] if key in table else []
    if r.win.after_kong_discard and "kong_discard" in table:  # 杠上炮
        detail.append(("kong_discard", table["kong_discard"]))
    if r.win.robbed_kong and "robbed_kong" in table:  # 抢杠
        detail.append(("robbed_kong", table["robbed_kong"]))
    return detail


def score_reading(ruleset, r: p.Reading) -> HandScore:
    """The score of one reading (XZ-F1..F3)."""
    p.check_suits(ruleset, r)  # XZ-P2 缺一门
    options = []
    for pid, test, fan in pattern_table(ruleset):
        if test(r):
            extra = additions(ruleset, r, pid) + house_additions(ruleset, r)
            options.append((fan, sum(f for _, f in extra), pid, extra))
    if not options:
        extra = additions(ruleset, r, "basic") + house_additions(ruleset, r)
        options.append((0, sum(f for _, f in extra), "basic", extra))
    # XZ-F1: the highest pattern; between equal ones the reading the player prefers (more additions)
    pattern_fan, _, pattern, extra = max(options, key=lambda o: o[:2])
    detail = [(pattern, pattern_fan)] + extra
    total = sum(f for _, f in detail)
    if total < ruleset.min_fan:
        raise Rejected(f"{total} fan is below this ruleset's minimum of {ruleset.min_fan} fan")
    cap = ruleset.cap
    fan = total if cap is None else min(cap, total)  # XZ-F3
    capped_from = total if fan < total else None
    return HandScore(fan, tuple(pid for pid, _ in detail), 2**fan, tuple(detail), False, capped_from)


def score(ruleset, hand: Hand, win: Win) -> HandScore:
    """The best reading's score."""
    return best_score(
        lambda r: score_reading(ruleset, r), p.readings(ruleset, hand, win), no_win=p.no_win_message(ruleset, hand)
    )
