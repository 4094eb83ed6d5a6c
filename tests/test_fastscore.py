"""Compiled jipinghu scorer (mjsim.sim.fastscore) against the readable reference scorer.

``score_jipinghu`` must give the same fan and the same multiset of pattern ids
as ``mjsim.score_hand`` for every valid win, under every jipinghu preset and
under option overrides that change scoring (JPH-F, JPH-S, JPH-P4).  The
reference's min-fan rejection (JPH-P4) is the code ``BELOW_MIN_FAN``.

Wins are generated from random sets + a pair, biased so that the rare
patterns occur often (flushes, all pungs, honour-heavy hands, terminals,
nine gates, thirteen orphans), with random melds and random legal win
situations.  The engine passes the winner's concealed counts including the
winning tile; the reference gets the same tiles in notation.
"""

from __future__ import annotations

import handgen
import numpy as np
import pytest
from quick import first_quick

from mjsim import score_hand
from mjsim.rules import ruleset
from mjsim.sim.constants import MAX_MELDS, MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_NAMES, MELD_PUNG
from mjsim.sim.fastscore import (
    BELOW_MIN_FAN,
    FIRST_TURN,
    KONG_REPLACEMENT,
    LAST_TILE,
    N_PATTERNS,
    NOT_A_WIN,
    PATTERN_IDS,
    ROBBED_KONG,
    SELF_DRAW,
    score_jipinghu,
    score_params,
)
from mjsim.tiles import format_tiles, parse_meld, parse_tiles

MELD_CODES = {name: code for code, name in enumerate(MELD_NAMES) if name}
PRESETS = ("jipinghu", "jipinghu_5fan", "jipinghu_5fan_min1", "jipinghu_5fan_min3")
CASES_PER_PRESET = 10_000  # per preset; halved to keep the cold-cache suite under the CI limit (issue 15)

# Overrides that change scoring (JPH-F1..F4, JPH-S1..S3, JPH-P4, JPH-P5); discard_pays_all is payment
# only and is here to show it changes nothing.  Fan tables and win forms are house options too.
OVERRIDES = [
    ("jipinghu", {"cap": None}),
    ("jipinghu", {"cap": 4}),
    ("jipinghu_5fan", {"cap": None}),
    ("jipinghu_5fan", {"cap": 4}),
    ("jipinghu_5fan_min3", {"cap": None}),
    ("jipinghu", {"discard_pays_all": True}),
    ("jipinghu_5fan", {"discard_pays_all": True}),
    ("jipinghu", {"min_fan": 2}),
    ("jipinghu", {"kong_flower": "plus_one", "robbed_kong_bonus": "as_kong_flower"}),
    ("jipinghu_5fan", {"kong_flower": "raise_to_cap", "robbed_kong_bonus": "as_kong_flower", "triple_win_raise": True}),
    ("jipinghu", {"triple_win_raise": False, "bonuses": ["self_draw", "concealed"]}),
    ("jipinghu_5fan", {"bonuses": []}),
    ("jipinghu", {"fan": {"chicken": 0, "all_chows": 3, "all_pungs": 2, "half_flush": 2}}),
    ("jipinghu", {"fan": {"chicken": 1, "all_chows": 0, "all_pungs": 1, "half_flush": 2}}),
    ("jipinghu_5fan", {"fan": {"chicken": 1, "all_chows": 1, "all_pungs": 3, "half_flush": 3, "full_flush": 5}}),
    ("jipinghu", {"limit_fan": {"full_flush": 4, "nine_gates": 6}}),
    ("jipinghu", {"win_forms": ["standard"]}),
    ("jipinghu", {"win_forms": ["standard", "seven_pairs", "thirteen_orphans"]}),
    ("jipinghu_5fan", {"win_forms": ["standard", "seven_pairs"], "seven_pairs_quads": False, "cap": None}),
]
CASES_PER_OVERRIDE = 2_500
SEED = 20240611


# ---- random valid wins ------------------------------------------------------------------------------

SUITED = list(range(27))
HONOURS = list(range(27, 34))
WINDS = list(range(27, 31))
DRAGONS = list(range(31, 34))
TERMINALS = [0, 8, 9, 17, 18, 26]
ORPHANS = TERMINALS + HONOURS


def _suit(s: int) -> list[int]:
    return list(range(9 * s, 9 * s + 9))


def _set_tiles(kind: str, first: int) -> list[int]:
    return [first] * 3 if kind == "pung" else [first, first + 1, first + 2]


def _one_of(rng, options):
    return options[int(rng.integers(len(options)))]


def _random_set(rng, pool: list[int], p_pung: float) -> tuple[str, int]:
    starts = [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool]
    if starts and rng.random() >= p_pung:
        return "chow", int(rng.choice(starts))
    return "pung", int(rng.choice(pool))


THEMES = ("random", "flush", "half_flush", "pungs", "chows", "dragons", "winds", "honours", "terminals",
          "nine_gates", "orphans")  # fmt: skip
THEME_WEIGHTS = np.array([4, 3, 3, 3, 3, 2, 2, 1, 2, 1, 1], dtype=float)
THEME_WEIGHTS /= THEME_WEIGHTS.sum()


def _sets_and_pair(rng, theme: str):
    """(sets, pair) of a complete standard hand in the theme, or None for a special shape."""
    suit = _suit(int(rng.integers(3)))
    forced: list[tuple[str, int]] = []
    p_pung = 0.4
    pool = SUITED + HONOURS
    pair_pool = None
    if theme == "flush":
        pool, p_pung = suit, _one_of(rng, [0.0, 0.3, 1.0])
    elif theme == "half_flush":
        pool, p_pung = suit + HONOURS, _one_of(rng, [0.3, 0.7, 1.0])
    elif theme == "pungs":
        pool, p_pung = _one_of(rng, [SUITED + HONOURS, suit + HONOURS, HONOURS + TERMINALS]), 1.0
    elif theme == "chows":
        p_pung = 0.0
        pool = suit if rng.random() < 0.3 else SUITED
        pair_pool = SUITED + HONOURS
    elif theme == "dragons":
        n = int(rng.integers(2, 4))
        forced = [("pung", int(d)) for d in rng.permutation(DRAGONS)[:n]]
        pair_pool = DRAGONS if rng.random() < 0.6 else None
        pool = _one_of(rng, [SUITED + HONOURS, suit + HONOURS, HONOURS])
    elif theme == "winds":
        n = int(rng.integers(2, 5))
        forced = [("pung", int(w)) for w in rng.permutation(WINDS)[:n]]
        pair_pool = WINDS if rng.random() < 0.6 else None
        pool = _one_of(rng, [SUITED + HONOURS, suit + HONOURS, HONOURS])
    elif theme == "honours":
        pool, p_pung = HONOURS, 1.0
    elif theme == "terminals":
        pool, p_pung = _one_of(rng, [TERMINALS, ORPHANS, ORPHANS + suit]), 1.0
    sets = forced + [_random_set(rng, pool, p_pung) for _ in range(4 - len(forced))]
    pair = int(rng.choice(pair_pool if pair_pool is not None else pool))
    return sets, pair


def _seven_pairs(rng, quads: bool):
    """Seven pairs from a biased pool (some also read as sets + pair, e.g. 112233m)."""
    suit = _suit(int(rng.integers(3)))
    pool = _one_of(rng, [SUITED + HONOURS, suit, suit + HONOURS, HONOURS, ORPHANS, suit[:6]])
    replace = quads and rng.random() < 0.5
    if len(pool) < 7 and not replace:
        pool = suit
    while True:
        counts = np.zeros(34, np.int8)
        for kind in rng.choice(pool, size=7, replace=replace):
            counts[kind] += 2
        if counts.max() <= (4 if quads else 2):
            return counts


def random_win(rng, theme: str | None = None, rs=None):
    """(concealed counts incl. the win tile, melds [(kind, first)], win tile) of a valid win under ``rs``.

    ``rs`` decides whether thirteen orphans and seven pairs are winning shapes (default: JPH-P5).
    """
    forms = rs.win_forms if rs is not None else ("standard", "thirteen_orphans")
    while theme is None:
        theme = THEMES[rng.choice(len(THEMES), p=THEME_WEIGHTS)]
        if theme == "orphans" and "thirteen_orphans" not in forms:
            theme = None
        elif "seven_pairs" in forms and rng.random() < 0.1:
            theme = "seven_pairs"
    if theme == "seven_pairs":
        counts = _seven_pairs(rng, rs.seven_pairs_quads)
        return counts, [], _pick_tile(rng, counts)
    if theme == "nine_gates":
        s = int(rng.integers(3))
        counts = np.zeros(34, np.int8)
        counts[9 * s : 9 * s + 9] = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        extra = 9 * s + int(rng.integers(9))
        counts[extra] += 1
        return counts, [], extra if rng.random() < 0.5 else _pick_tile(rng, counts)  # JPH-F2: pure waits too
    if theme == "orphans":
        counts = np.zeros(34, np.int8)
        counts[ORPHANS] = 1
        counts[int(rng.choice(ORPHANS))] += 1
        return counts, [], _pick_tile(rng, counts)
    while True:
        sets, pair = _sets_and_pair(rng, theme)
        whole = np.zeros(34, np.int64)
        for kind, first in sets:
            np.add.at(whole, _set_tiles(kind, first), 1)
        whole[pair] += 2
        if whole.max() > 4:
            continue
        n_melds = int(rng.choice(5, p=[0.35, 0.2, 0.2, 0.15, 0.1]))
        melds, concealed = [], [pair, pair]
        for i in rng.permutation(4):
            kind, first = sets[i]
            if len(melds) < n_melds:
                if kind == "chow":
                    melds.append((MELD_CHOW, first))
                else:
                    options = [MELD_PUNG, MELD_KONG, MELD_CKONG] if whole[first] == 3 else [MELD_PUNG]
                    meld = int(rng.choice(options))
                    whole[first] += meld != MELD_PUNG
                    melds.append((meld, first))
            else:
                concealed += _set_tiles(kind, first)
        counts = np.bincount(concealed, minlength=34).astype(np.int8)
        return counts, melds, _pick_tile(rng, counts)


def _pick_tile(rng, counts) -> int:
    return int(rng.choice(np.repeat(np.arange(34), counts)))


def random_situation(rng, counts, melds, win_tile) -> dict:
    """A random win situation the reference accepts (and play can produce)."""
    self_draw = bool(rng.random() < 0.5)
    has_kong = any(kind in (MELD_KONG, MELD_CKONG) for kind, _ in melds)
    copies = int(counts[win_tile]) + sum(
        (3 if kind == MELD_PUNG else 4 if kind != MELD_CHOW else 0) * (first == win_tile)
        + (kind == MELD_CHOW and first <= win_tile <= first + 2)
        for kind, first in melds
    )
    kong_replacement = self_draw and has_kong and bool(rng.random() < 0.5)
    robbed = (not self_draw) and copies == 1 and bool(rng.random() < 0.4)
    seat = int(rng.integers(4))
    first_turn = not melds and not robbed and bool(rng.random() < 0.3)
    if first_turn and seat == 0 and not self_draw:
        seat = int(rng.integers(1, 4))
    discard = not self_draw and not robbed
    return dict(
        self_draw=self_draw,
        seat=seat,
        round_wind=int(rng.integers(4)),
        kong_replacement=kong_replacement,
        robbed_kong=robbed,
        last_tile=bool(rng.random() < 0.2),
        first_turn=first_turn,
        discard_winners=int(rng.integers(1, 4)) if discard else 1,
    )


def random_cases(seed: int, n: int, rs=None) -> list:
    """``n`` random (counts, melds, win tile, situation) valid under ``rs`` (default: any jipinghu preset)."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        counts, melds, win_tile = random_win(rng, rs=rs)
        cases.append((counts, melds, win_tile, random_situation(rng, counts, melds, win_tile)))
    return cases


# ---- the two scorers --------------------------------------------------------------------------------


def _meld_text(kind: int, first: int) -> str:
    tiles = [first, first + 1, first + 2] if kind == MELD_CHOW else [first]
    return f"{MELD_NAMES[kind]}:{format_tiles(tiles)}"


def reference(rs, counts, melds, win_tile, situation) -> tuple[int, list[str]]:
    """(fan, sorted pattern ids) from ``score_hand``, or (BELOW_MIN_FAN, []) on the JPH-P4 rejection."""
    hand = format_tiles(np.repeat(np.arange(34), counts))
    try:
        got = score_hand(rs, hand, melds=[_meld_text(k, f) for k, f in melds], win_tile=win_tile, **situation)
    except ValueError as error:
        if "JPH-P4" not in str(error):
            raise
        return BELOW_MIN_FAN, []
    return got.fan, sorted(got.patterns)


def flags_of(situation: dict) -> int:
    return (
        SELF_DRAW * situation["self_draw"]
        | KONG_REPLACEMENT * situation["kong_replacement"]
        | ROBBED_KONG * situation["robbed_kong"]
        | LAST_TILE * situation["last_tile"]
        | FIRST_TURN * situation["first_turn"]
    )


def compiled(params, counts, melds, situation, win_tile) -> tuple[int, list[str]]:
    """(fan or code, sorted pattern ids) from ``score_jipinghu``, called as the engine calls it."""
    meld_kind = np.zeros(MAX_MELDS, np.int8)
    meld_tile = np.zeros(MAX_MELDS, np.int8)
    for i, (kind, first) in enumerate(melds):
        meld_kind[i], meld_tile[i] = kind, first
    found = np.zeros(N_PATTERNS, np.int8)
    fan = score_jipinghu(
        counts.astype(np.int8), win_tile, meld_kind, meld_tile, np.int8(len(melds)), flags_of(situation),
        situation["seat"], np.int8(situation["round_wind"]), situation["discard_winners"], params, found,
    )  # fmt: skip
    if fan < 0:
        return int(fan), []
    return int(fan), sorted(pid for i, pid in enumerate(PATTERN_IDS) for _ in range(found[i]))


def describe(counts, melds, win_tile, situation) -> str:
    return (
        f"hand {format_tiles(np.repeat(np.arange(34), counts))} win {format_tiles([win_tile])} "
        f"melds {[_meld_text(k, f) for k, f in melds]} {situation}"
    )


def compare(rs, cases) -> tuple[list, dict]:
    params = score_params(rs)
    bad, seen = [], {}
    for case in cases:
        want = reference(rs, *case)
        got = compiled(params, case[0], case[1], case[3], case[2])
        for pid in want[1]:
            seen[pid] = seen.get(pid, 0) + 1
        if want[0] == BELOW_MIN_FAN:
            seen["BELOW_MIN_FAN"] = seen.get("BELOW_MIN_FAN", 0) + 1
        if want != got:
            bad.append((describe(*case), want, got))
    return bad, seen


def _assert_same(rs, cases) -> dict:
    bad, seen = compare(rs, cases)
    assert not bad, f"{len(bad)} of {len(cases)} wins differ (case, reference, compiled): {bad[:3]}"
    return seen


# ---- random wins --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def preset_cases():
    return random_cases(SEED, CASES_PER_PRESET)


@pytest.mark.parametrize("name", first_quick(PRESETS))
def test_compiled_scorer_matches_reference_on_random_wins(name, preset_cases):
    rs = ruleset(name)
    seen = _assert_same(rs, preset_cases)
    # the biased generators reach every pattern and bonus the preset scores, and the JPH-P4 rejection
    listed = set(rs.fan) | set(rs.limit_fan) | set(rs.bonuses) | {"kong_flower"}
    listed |= {"robbed_kong"} if rs.robbed_kong_bonus == "as_kong_flower" else set()
    listed |= {"triple_win"} if rs.triple_win_raise else set()
    listed |= {"BELOW_MIN_FAN"} if rs.min_fan > 0 else set()
    rare = {pid: seen.get(pid, 0) for pid in listed if seen.get(pid, 0) < 20}
    assert not rare, f"patterns seen fewer than 20 times in {len(preset_cases)} wins: {rare}"


@pytest.mark.parametrize("case", first_quick(OVERRIDES, 4), ids=[f"{n}-{'-'.join(o)}" for n, o in OVERRIDES])
def test_compiled_scorer_matches_reference_with_overrides(case):
    name, overrides = case
    rs = ruleset(name, **overrides)
    _assert_same(rs, random_cases(SEED + OVERRIDES.index(case) + 1, CASES_PER_OVERRIDE, rs))


@pytest.mark.parametrize("name", ["jipinghu", "jipinghu_5fan_min1"])
def test_compiled_scorer_finds_the_same_non_wins(name):
    """Random 14-tile hands, mostly not a win: NOT_A_WIN exactly where the reference finds no winning shape."""
    rs, params = ruleset(name), score_params(ruleset(name))
    rng = np.random.default_rng(SEED)
    wins = 0
    for counts in handgen.near_complete_hands(rng, 2000, max_swaps=2, drop_share=0.0):
        situation = dict(self_draw=True, seat=1, round_wind=0, kong_replacement=False, robbed_kong=False,
                         last_tile=False, first_turn=False, discard_winners=1)  # fmt: skip
        win_tile = _pick_tile(rng, counts)
        try:
            want = reference(rs, counts, [], win_tile, situation)
        except ValueError as error:
            assert "not a winning" in str(error)
            want = (NOT_A_WIN, [])
        got = compiled(params, counts, [], situation, win_tile)
        assert got == want, format_tiles(np.repeat(np.arange(34), counts))
        wins += want[0] != NOT_A_WIN
    assert 300 < wins < 1700


# ---- golden cases by rule ID ----------------------------------------------------------------------------
# (rule ID, ruleset, overrides, hand, melds, situation, fan or code, patterns); the winner sits at seat 1
# (南) in an 东 round and wins on a discard unless the situation says otherwise.

GOLDEN = [
    ("JPH-F1 chicken", "jipinghu", {}, "123m456p789s55m", ["pung:2s"], {}, 0, ["chicken"]),
    ("JPH-F1 all_chows", "jipinghu", {}, "123m456p234s789s55m", [], {}, 1, ["all_chows"]),
    ("JPH-F1 all_pungs [5]", "jipinghu_5fan", {}, "333s444m55p", ["pung:1m", "pung:2p"], {}, 3, ["all_pungs"]),
    (
        "JPH-F1 half_flush_pungs replaces its parts [5]",
        "jipinghu_5fan",
        {},
        "222m555m888m444z33z",
        [],
        {},
        5,
        ["concealed", "half_flush_pungs"],
    ),
    ("JPH-F1 111222333s 456p reads as all chows", "jipinghu", {}, "111222333s456p77z", [], {}, 1, ["all_chows"]),
    ("JPH-F1 111222333 + pair reads as all pungs", "jipinghu", {}, "111222333s11z", ["pung:7p"], {}, 2, ["all_pungs"]),
    ("JPH-F2 full_flush is a limit [3]", "jipinghu", {}, "123m456m789m55m", ["pung:2m"], {}, 4, ["full_flush"]),
    (
        "JPH-F2 full_flush_pungs beats full_flush [3]",
        "jipinghu",
        {},
        "111222333m777m55m",
        [],
        {},
        5,
        ["full_flush_pungs"],
    ),
    ("JPH-F2 nine_gates [5]", "jipinghu_5fan", {}, "1112345678999p5p", [], {}, 9, ["nine_gates"]),
    # JPH-F2 nine_gates_wait: the seed's 九莲宝灯 waits on 1112345678999; won on 9m from 1112345567899m it is not
    ("JPH-F2 nine_gates_wait pure", "jipinghu", {}, "11123455678999m", [], {"self_draw": True}, 4, ["full_flush"]),
    (
        "JPH-F2 nine_gates_wait pure [5]",
        "jipinghu_5fan",
        {},
        "11123455678999m",
        [],
        {"self_draw": True},
        5,
        ["concealed", "full_flush", "self_draw"],
    ),
    ("JPH-F2 nine_gates_wait pure, won on 1m", "jipinghu", {}, "1112345678999m1m", [], {}, 6, ["nine_gates"]),
    (
        "JPH-F2 nine_gates_wait shape",
        "jipinghu",
        {"nine_gates_wait": "shape"},
        "11123455678999m",
        [],
        {"self_draw": True},
        6,
        ["nine_gates"],
    ),
    (
        "JPH-F2 thirteen_orphans [3]",
        "jipinghu",
        {},
        "19m19p19s12345677z",
        [],
        {"self_draw": True},
        6,
        ["thirteen_orphans"],
    ),
    (
        "JPH-F2 heavenly",
        "jipinghu",
        {},
        "123m456p789s234s55m",
        [],
        {"self_draw": True, "seat": 0, "first_turn": True},
        6,
        ["heavenly"],
    ),
    ("JPH-F2 human", "jipinghu_5fan", {}, "123m456p789s234s55m", [], {"first_turn": True}, 9, ["human"]),
    (
        "JPH-F2 little_dragons over half_flush_pungs [3]",
        "jipinghu",
        {},
        "55566677z222m",
        ["pung:9m"],
        {},
        5,
        ["little_dragons"],
    ),
    (
        "JPH-F3 seat and round wind both (dealer, east round)",
        "jipinghu",
        {},
        "123m456p789s55m",
        ["pung:1z"],
        {"seat": 0},
        2,
        ["chicken", "round_wind", "seat_wind"],
    ),
    (
        "JPH-F3 two dragon pungs",
        "jipinghu",
        {},
        "123m456p555z666z11s",
        [],
        {},
        2,
        ["chicken", "dragon_pung", "dragon_pung"],
    ),
    (
        "JPH-F3 last_tile only on a self-draw",
        "jipinghu",
        {},
        "123m456p789s55m",
        ["pung:2s"],
        {"self_draw": True, "last_tile": True},
        2,
        ["chicken", "last_tile", "self_draw"],
    ),
    (
        "JPH-F4 cap [3]",
        "jipinghu",
        {},
        "123m456m789m77z",
        ["pung:5z"],
        {"self_draw": True},
        3,
        ["dragon_pung", "half_flush", "self_draw"],
    ),
    (
        "JPH-F4 no cap",
        "jipinghu_5fan",
        {"cap": None},
        "123m456m789m234m77z",
        [],
        {"self_draw": True},
        6,
        ["all_chows", "concealed", "half_flush", "self_draw"],
    ),
    # JPH-S1: both readings are raised to 3; the one with more fan of its own (all pungs, 2) counts
    (
        "JPH-S1 triple win raise keeps the better reading",
        "jipinghu",
        {},
        "111222333s11z",
        ["kong:7p"],
        {"discard_winners": 3},
        3,
        ["all_pungs", "triple_win"],
    ),
    (
        "JPH-S2 kong flower raises [3]",
        "jipinghu",
        {},
        "123m456p789s55m",
        ["kong:2s"],
        {"self_draw": True, "kong_replacement": True},
        3,
        ["chicken", "kong_flower", "self_draw"],
    ),
    (
        "JPH-S2 kong flower +1 [5]",
        "jipinghu_5fan",
        {},
        "123m456p789s55m",
        ["ckong:2s"],
        {"self_draw": True, "kong_replacement": True},
        3,
        ["chicken", "concealed", "kong_flower", "self_draw"],
    ),
    (
        "JPH-S3 robbed kong as kong flower [3]",
        "jipinghu",
        {},
        "123m456p789s55m234s",
        [],
        {"robbed_kong": True},
        3,
        ["all_chows", "robbed_kong", "self_draw"],
    ),
    (
        "JPH-S3 robbed kong self-draw only [5]",
        "jipinghu_5fan",
        {},
        "123m456p789s55m234s",
        [],
        {"robbed_kong": True},
        3,
        ["all_chows", "concealed", "self_draw"],
    ),
    ("JPH-P4 below the minimum", "jipinghu_5fan_min1", {}, "123m456p789s55m", ["pung:2s"], {}, BELOW_MIN_FAN, []),
    (
        "JPH-P4 bonuses count towards the minimum",
        "jipinghu_5fan_min3",
        {},
        "123m456p789s55m",
        ["pung:1z"],
        {"self_draw": True, "seat": 0, "last_tile": True},
        4,
        ["chicken", "last_tile", "round_wind", "seat_wind", "self_draw"],
    ),
    # JPH-F4 cap none: 456s x3 + ckong 8s reads as full_flush (5) + bonuses 3 = 8 > full_flush_pungs (6)
    (
        "JPH-F2/F4 uncapped ordinary beats a limit",
        "jipinghu_5fan",
        {"cap": None},
        "44455566699s",
        ["ckong:8s"],
        {"self_draw": True, "kong_replacement": True},
        8,
        ["concealed", "full_flush", "kong_flower", "self_draw"],
    ),
    # equal fan (6) either way: the limit reading counts (interpretation, jipinghu._rank)
    (
        "JPH-F2/F4 equal fan: the limit reading",
        "jipinghu_5fan",
        {"cap": None},
        "22233344488899p",
        [],
        {},
        6,
        ["full_flush_pungs"],
    ),
    (
        "JPH-F1 a pattern outside the table does not replace its parts",
        "jipinghu",
        {"limit_fan": {"nine_gates": 6}},
        "222m555m888m444z33z",
        [],
        {},
        3,
        ["all_pungs", "half_flush"],
    ),
    # a house table where a chicken is worth more than all chows: the mixed reading (111 222 333s) counts
    (
        "JPH-F1 chicken worth more than all_chows",
        "jipinghu",
        {"fan": {"chicken": 1, "all_chows": 0, "all_pungs": 2, "half_flush": 2}},
        "111222333s456p77z",
        [],
        {},
        1,
        ["chicken"],
    ),
    (
        "JPH-P5 seven pairs with four equal tiles: no wind pung",
        "jipinghu",
        {"win_forms": ["standard", "seven_pairs"]},
        "1111z33m44m55p66p77s",
        [],
        {"seat": 0},
        0,
        ["chicken"],
    ),
    ("JPH-P5 seven pairs not a shape", "jipinghu", {}, "1111z33m44m55p66p77s", [], {"seat": 0}, NOT_A_WIN, []),
    ("XZ-P2 max_suits", "jipinghu", {"max_suits": 2}, "123m456p789s234s55m", [], {}, NOT_A_WIN, []),
]


@pytest.mark.parametrize("case", GOLDEN, ids=[c[0] for c in GOLDEN])
def test_golden_cases(case):
    _, name, overrides, hand, melds, situation, fan, patterns = case
    rs = ruleset(name, **overrides)
    tiles = parse_tiles(hand)
    counts = np.bincount(tiles, minlength=34).astype(np.int8)
    parsed = [parse_meld(m) for m in melds]
    engine_melds = [(MELD_CODES[m.kind], m.first) for m in parsed]
    full = dict(self_draw=False, seat=1, round_wind=0, kong_replacement=False, robbed_kong=False, last_tile=False,
                first_turn=False, discard_winners=1) | situation  # fmt: skip
    win_tile = tiles[-1]
    if fan == NOT_A_WIN:
        with pytest.raises(ValueError, match="not a winning|XZ-P2|C-P5|JPH-P5"):
            reference(rs, counts, engine_melds, win_tile, full)
    else:
        assert reference(rs, counts, engine_melds, win_tile, full) == (fan, sorted(patterns))
    assert compiled(score_params(rs), counts, engine_melds, full, win_tile) == (fan, sorted(patterns))
