"""Compiled 血战 scorer (mjsim.sim.fastscore_xz) against the readable reference scorer.

``score_xuezhan`` must give the same fan and the same multiset of pattern
ids as ``mjsim.score_hand`` for every valid win under every 血战 preset and
under the house options that change scoring (XZ-F3 cap, XZ-H3 自摸加番,
XZ-H4 门清中张, XZ-H5 extra patterns, XZ-H8 天地胡 off, edited fan tables),
and refuse the same non-wins (XZ-P2 缺一门, shapes).

Wins are generated from random sets + a pair over at most two suits (some
three-suit hands to check the refusal), biased toward the rare patterns:
flushes, all pungs, 2-5-8 pungs, 幺九, seven pairs with four equal tiles,
and four declared melds.
"""

from __future__ import annotations

import numpy as np
import pytest
from quick import first_quick

from mjsim import score_hand
from mjsim.hand.fast import hand_tables
from mjsim.rules import ruleset
from mjsim.sim.constants import MAX_MELDS, MELD_CKONG, MELD_KONG, MELD_NAMES, MELD_PUNG
from mjsim.sim.fastscore import (
    AFTER_KONG,
    BELOW_MIN_FAN,
    FIRST_TURN,
    KONG_REPLACEMENT,
    N_PATTERNS,
    NOT_A_WIN,
    PATTERN_IDS,
    ROBBED_KONG,
    SELF_DRAW,
)
from mjsim.sim.fastscore_xz import score_xuezhan, xz_params
from mjsim.tiles import format_tiles

PRESETS = ("xuezhan", "xuezhan_cap3", "xuezhan_dingque", "xueliu")
OVERRIDES = [
    {"cap": 2},
    {"self_draw_bonus": "fan"},
    {"self_draw_bonus": "base"},  # settlement only: the fan must not change
    {"concealed_and_middle": True},
    {"extra_patterns": True},
    {"extra_patterns": True, "concealed_and_middle": True, "self_draw_bonus": "fan", "cap": 6},
    {"heavenly_earthly": False},
    {"min_fan": 2},
    {"xz_fan": {"basic": 0, "all_pungs": 2, "full_flush": 2, "seven_pairs": 3, "terminal_sets": 2}},
    {"xz_additions": {"root": 2, "concealed_kong": 0, "robbed_kong": 1}},
    {"seven_pairs_quads": False},
]
SEED = 20261202
CASES = 6000


def _set_tiles(kind: str, first: int) -> list[int]:
    return [first, first + 1, first + 2] if kind == "chow" else [first] * 3


def _random_hand(rng):
    """(concealed counts incl. the win tile, melds [(kind, first)], win tile) of a complete hand."""
    theme = rng.choice(["any", "flush", "pungs", "terminals", "258", "seven", "melds4", "three_suits"])
    one_suit = theme == "flush" or (theme in ("seven", "terminals") and rng.random() < 0.4)
    suits = rng.permutation(3)[: 1 if one_suit else (3 if theme == "three_suits" else 2)]
    pool = [9 * int(s) + r for s in suits for r in range(9)]
    if theme == "seven":
        quads = rng.random() < 0.5
        while True:
            counts = np.zeros(34, np.int8)
            for kind in rng.choice(pool, size=7, replace=quads):
                counts[kind] += 2
            if counts.max() <= 4:
                return counts, [], int(rng.choice(np.flatnonzero(counts)))
    if theme == "terminals":
        pool = [t for t in pool if t % 9 in (0, 8)] + [t for t in pool if t % 9 in (0, 6)]
    if theme == "258":
        pool = [t for t in pool if t % 9 in (1, 4, 7)]
    p_pung = {"pungs": 1.0, "258": 1.0, "melds4": 1.0}.get(theme, 0.4)
    while True:
        sets = []
        for _ in range(4):
            first = int(rng.choice(pool))
            chow = rng.random() >= p_pung and first % 9 <= 6 and first < 27
            sets.append(("chow" if chow else "pung", first))
        pair = int(rng.choice([t for t in pool if theme != "terminals" or t % 9 in (0, 8)]))
        whole = np.zeros(34, np.int64)
        for kind, first in sets:
            np.add.at(whole, _set_tiles(kind, first), 1)
        whole[pair] += 2
        if whole.max() <= 4:
            break
    n_melds = 4 if theme == "melds4" else int(rng.choice(5, p=[0.4, 0.2, 0.2, 0.1, 0.1]))
    melds, concealed = [], [pair, pair]
    for kind, first in sets:
        if kind == "pung" and len(melds) < n_melds:
            meld = int(rng.choice([MELD_PUNG, MELD_KONG, MELD_CKONG])) if whole[first] == 3 else MELD_PUNG
            melds.append((meld, first))
        else:
            concealed += _set_tiles(kind, first)
    counts = np.bincount(concealed, minlength=34).astype(np.int8)
    return counts, melds, int(rng.choice(np.flatnonzero(counts)))


def _situation(rng, counts, melds, win_tile) -> dict:
    self_draw = bool(rng.random() < 0.5)
    has_kong = any(kind in (MELD_KONG, MELD_CKONG) for kind, _ in melds)
    copies = int(counts[win_tile]) + sum((3 if k == MELD_PUNG else 4) * (f == win_tile) for k, f in melds)
    robbed = (not self_draw) and copies == 1 and bool(rng.random() < 0.3)
    discard = not self_draw and not robbed
    first_turn = not melds and not robbed and bool(rng.random() < 0.2)
    seat = int(rng.integers(4))
    if first_turn and not self_draw and seat == 0:
        seat = 1
    return dict(
        self_draw=self_draw, seat=seat, kong_replacement=self_draw and has_kong and bool(rng.random() < 0.5),
        robbed_kong=robbed, first_turn=first_turn, after_kong_discard=discard and bool(rng.random() < 0.2),
    )  # fmt: skip


def _meld_text(kind: int, first: int) -> str:
    return f"{MELD_NAMES[kind]}:{format_tiles([first])}"


def reference(rs, counts, melds, win_tile, situation):
    hand = format_tiles(np.repeat(np.arange(34), counts))
    try:
        got = score_hand(rs, hand, melds=[_meld_text(k, f) for k, f in melds], win_tile=win_tile, **situation)
    except ValueError as error:
        return (BELOW_MIN_FAN if "minimum" in str(error) else NOT_A_WIN), []
    return got.fan, sorted(got.patterns)


def compiled(params, counts, melds, win_tile, situation):
    meld_kind = np.zeros(MAX_MELDS, np.int8)
    meld_tile = np.zeros(MAX_MELDS, np.int8)
    for i, (kind, first) in enumerate(melds):
        meld_kind[i], meld_tile[i] = kind, first
    flags = (
        SELF_DRAW * situation["self_draw"]
        | KONG_REPLACEMENT * situation["kong_replacement"]
        | ROBBED_KONG * situation["robbed_kong"]
        | FIRST_TURN * situation["first_turn"]
        | AFTER_KONG * situation["after_kong_discard"]
    )
    found = np.zeros(N_PATTERNS, np.int8)
    fan = score_xuezhan(counts.astype(np.int8), win_tile, meld_kind, meld_tile, np.int8(len(melds)), flags,
                        situation["seat"], params, hand_tables(), found)  # fmt: skip
    if fan < 0:
        return int(fan), []
    return int(fan), sorted(pid for i, pid in enumerate(PATTERN_IDS) for _ in range(found[i]))


def _cases(seed, n):
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        counts, melds, win_tile = _random_hand(rng)
        cases.append((counts, melds, win_tile, _situation(rng, counts, melds, win_tile)))
    return cases


def _assert_same(rs, cases) -> dict:
    params = xz_params(rs)
    bad, seen = [], {}
    for counts, melds, win_tile, situation in cases:
        want = reference(rs, counts, melds, win_tile, situation)
        got = compiled(params, counts, melds, win_tile, situation)
        for pid in want[1] or [str(want[0])]:
            seen[pid] = seen.get(pid, 0) + 1
        if want != got:
            hand = format_tiles(np.repeat(np.arange(34), counts))
            bad.append((hand, [_meld_text(*m) for m in melds], format_tiles([win_tile]), situation, want, got))
    assert not bad, f"{len(bad)} of {len(cases)} differ (hand, melds, win, situation, reference, compiled): {bad[:3]}"
    return seen


@pytest.fixture(scope="module")
def cases():
    return _cases(SEED, CASES)


@pytest.mark.parametrize("name", first_quick(PRESETS))
def test_compiled_xz_scorer_matches_reference(name, cases):
    seen = _assert_same(ruleset(name), cases)
    # the generator reaches every XZ-F1 pattern but 天胡/地胡's rarer shapes, every addition, and XZ-P2 refusals
    wanted = set(ruleset(name).xz_fan) - {"heavenly", "earthly"} | {"root", "direct_kong", "concealed_kong"}
    wanted |= {"kong_flower", "kong_discard", "robbed_kong", str(NOT_A_WIN)}
    rare = {pid: seen.get(pid, 0) for pid in wanted if seen.get(pid, 0) < 10}
    assert not rare, f"seen fewer than 10 times in {len(cases)} hands: {rare}"


@pytest.mark.parametrize("overrides", first_quick(OVERRIDES, 3), ids=[",".join(o) for o in OVERRIDES])
def test_compiled_xz_scorer_matches_reference_with_house_options(overrides, cases):
    seen = _assert_same(ruleset("xuezhan", **overrides), cases[:3000])
    if overrides.get("extra_patterns"):  # XZ-H5 reached
        for pid in ("single_wait", "full_flush_single_wait", "four_kongs"):
            assert seen.get(pid, 0) >= 3, (pid, seen.get(pid, 0))
    if overrides.get("concealed_and_middle"):  # XZ-H4 reached
        assert seen.get("concealed", 0) >= 10 and seen.get("no_terminals", 0) >= 10


def test_xz_heavenly_and_earthly_fire_in_the_compiled_scorer():
    """XZ-F1 天胡 / 地胡 (5 fan) on a first-turn self-draw, and not under XZ-H8 ``heavenly_earthly = false``."""
    counts = np.bincount([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 13], minlength=34).astype(np.int8)
    for seat, pid in ((0, "heavenly"), (2, "earthly")):
        situation = dict(self_draw=True, seat=seat, kong_replacement=False, robbed_kong=False, first_turn=True,
                         after_kong_discard=False)  # fmt: skip
        assert compiled(xz_params(ruleset("xuezhan")), counts, [], 13, situation) == (5, [pid])
        assert compiled(xz_params(ruleset("xuezhan", heavenly_earthly=False)), counts, [], 13, situation) == (
            0,
            ["basic"],
        )
