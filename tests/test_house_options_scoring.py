"""The compiled 推倒胡 scorer agrees with the reference on random wins under the value house options.

TDH-H4 七对加倍, TDH-H5 抢杠加倍, TDH-H7 鬼牌归位算无鬼, with one or two ghost kinds (TDH-G1, TDH-H6): random
sets + pair or seven pairs, some tiles turned into ghosts (the hand stays a win) and some ghosts standing in
sets of their own kind (a face-value reading), self-drawn or won by robbing a kong.  Same value and same
pattern multiset, or both no win.
"""

import handgen
import numpy as np
import pytest

from mjsim import ruleset, score_hand
from mjsim.sim.fastscore import N_PATTERNS, NOT_A_WIN, PATTERN_IDS, ROBBED_KONG, SELF_DRAW
from mjsim.sim.fastscore_sht import CTX_LEN
from mjsim.sim.scoring import score_win, scoring
from mjsim.sim.state import engine_params
from mjsim.tiles import format_counts, parse_tiles

G = ruleset("tuidaohu_ghost")
CASES = 1500
RULESETS = [
    ("one ghost, all on", G.replace(seven_pairs_multiplier=3, ghost_as_itself_counts_as_no_ghost=True,
                                    robbed_kong_multiplier=2), "5z"),
    ("one ghost, 无鬼 x1", G.replace(seven_pairs_multiplier=2, ghost_as_itself_counts_as_no_ghost=True,
                                    no_ghost_multiplier=1), "5z"),
    ("one ghost, seven pairs only", G.replace(seven_pairs_multiplier=3), "5z"),
    ("two ghosts", G.replace(wild_scheme="flip_two", seven_pairs_multiplier=2,
                             ghost_as_itself_counts_as_no_ghost=True), "5z9s"),
]  # fmt: skip


def seven_pairs(rng):
    counts = np.zeros(34, np.int8)
    for kind in rng.choice(34, 7, replace=False):
        counts[kind] = 2
    return counts


def random_win(rng, ghosts):
    """A 14-tile win (counts incl. ghosts at their kinds), the win tile and whether it was a robbed kong."""
    while True:
        counts = handgen.complete_hand(rng) if rng.random() < 0.7 else seven_pairs(rng)
        for _ in range(rng.integers(0, 3)):  # a held tile becomes a ghost: the ghost stands for it
            out = rng.choice(np.flatnonzero(counts))
            counts[out] -= 1
            counts[ghosts[rng.integers(len(ghosts))]] += 1
        if counts.max() > 4:
            continue
        win_tile = int(rng.choice(np.flatnonzero(counts)))
        robbed = win_tile not in ghosts and counts[win_tile] == 1 and rng.random() < 0.3
        return counts, win_tile, robbed


def reference(rules, counts, win_tile, robbed, ghosts):
    try:
        score = score_hand(rules, format_counts(counts), win_tile=win_tile,
                           self_draw=not robbed, robbed_kong=robbed, wild_kinds=ghosts)  # fmt: skip
    except ValueError:
        return NOT_A_WIN, []
    return score.fan, sorted(score.patterns)


def compiled(rules, sc, counts, win_tile, robbed, ghosts):
    p = engine_params(rules)
    real = counts.copy()
    wilds = 0
    for kind in ghosts:
        wilds += int(real[kind])
        real[kind] = 0
    found = np.zeros(N_PATTERNS, np.int8)
    flags = ROBBED_KONG if robbed else SELF_DRAW
    code = score_win(p, sc, real, wilds, counts, win_tile,
                     np.zeros(5, np.int8), np.zeros(5, np.int8), 0, flags, 1, 0, 1, found, np.zeros(34, np.int64),
                     np.zeros(CTX_LEN, np.int64))  # fmt: skip
    if code < 0:
        return NOT_A_WIN, []
    return int(code), sorted(PATTERN_IDS[i] for i in np.flatnonzero(found) for _ in range(found[i]))


@pytest.mark.parametrize("label, rules, ghost_text", RULESETS, ids=[r[0] for r in RULESETS])
def test_compiled_and_reference_agree_on_random_ghost_wins(label, rules, ghost_text):
    ghosts = parse_tiles(ghost_text)
    sc = scoring(rules)
    rng = np.random.default_rng(len(label))
    bad, seen = [], {}
    for _ in range(CASES):
        counts, win_tile, robbed = random_win(rng, ghosts)
        want = reference(rules, counts, win_tile, robbed, ghosts)
        got = compiled(rules, sc, counts.astype(np.int8), win_tile, robbed, ghosts)
        if want != got:
            bad.append((format_counts(counts), win_tile, robbed, want, got))
        for pid in want[1]:
            seen[pid] = seen.get(pid, 0) + 1
    assert not bad, f"{len(bad)} of {CASES} differ (hand, win tile, robbed, reference, compiled): {bad[:3]}"
    # the cases reach the options: seven pairs, 无鬼 (with the face-value reading), robbed kongs
    assert seen.get("seven_pairs", 0) > 100 and seen.get("no_ghost", 0) > 100
    if rules.robbed_kong_multiplier > 1:
        assert seen.get("robbed_kong", 0) > 100
