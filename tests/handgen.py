"""Random hand generators shared by the tests (plain numpy, no mjsim code)."""

import numpy as np

FORM_NAMES = {  # the engine's forms bits (mjsim.hand.fast.form_bits) -> the public API's form names
    1: ("standard",),
    3: ("standard", "seven_pairs"),
    5: ("standard", "thirteen_orphans"),
    7: ("standard", "seven_pairs", "thirteen_orphans"),
    11: ("standard", "seven_pairs_distinct"),
    15: ("standard", "seven_pairs_distinct", "thirteen_orphans"),
}
SETS = [[t, t, t] for t in range(34)] + [[s * 9 + r, s * 9 + r + 1, s * 9 + r + 2] for s in range(3) for r in range(7)]


def uniform_hands(rng, count, size=14, kinds=34):
    """``count`` hands of ``size`` tiles drawn uniformly without replacement from 4 copies of ``kinds`` kinds."""
    keys = rng.random((count, kinds * 4)).argsort(axis=1)[:, :size] // 4
    hands = np.zeros((count, 34), dtype=np.int8)
    np.add.at(hands, (np.repeat(np.arange(count), size), keys.ravel()), 1)
    return hands


def complete_hand(rng, sets=4, kinds=34):
    """Random sets + one pair (each kind at most four times)."""
    usable = [s for s in SETS if max(s) < kinds]
    while True:
        counts = np.zeros(34, dtype=np.int8)
        for _ in range(sets):
            for tile in usable[rng.integers(len(usable))]:
                counts[tile] += 1
        counts[rng.integers(kinds)] += 2
        if counts.max() <= 4:
            return counts


def perturb(rng, counts, swaps, kinds=34):
    """Swap ``swaps`` tiles for other kinds (keeping at most four of a kind)."""
    counts = counts.copy()
    for _ in range(swaps):
        while True:
            out, into = rng.integers(kinds), rng.integers(kinds)
            if counts[out] > 0 and counts[into] < 4 and out != into:
                break
        counts[out] -= 1
        counts[into] += 1
    return counts


def near_complete_hands(rng, count, sets=4, max_swaps=3, drop_share=0.3, kinds=34):
    """Complete hands perturbed by 0..max_swaps swaps; a share loses one tile (13-tile hands)."""
    hands = []
    for _ in range(count):
        counts = perturb(rng, complete_hand(rng, sets, kinds), rng.integers(0, max_swaps + 1), kinds)
        if rng.random() < drop_share:
            counts[rng.choice(np.flatnonzero(counts))] -= 1
        hands.append(counts)
    return np.array(hands, dtype=np.int8)


def as_wilds(rng, counts, wilds):
    """Turn ``wilds`` held tiles, chosen at random, into wilds: the counts without them."""
    counts = counts.copy()
    for _ in range(wilds):
        counts[rng.choice(np.flatnonzero(counts))] -= 1
    return counts


def fifth_copy_hand(rng, wilds=1):
    """Four copies of a kind + three random sets, + 1 wild: a win if a wild could be a fifth copy.

    (Pung + pair of that kind, the wild the fifth tile.)  ``wilds - 1`` more
    held tiles become wilds.  Returns the concealed counts without the wilds.
    """
    while True:
        counts = np.zeros(34, dtype=np.int8)
        counts[rng.integers(34)] = 4
        for _ in range(3):
            for tile in SETS[rng.integers(len(SETS))]:
                counts[tile] += 1
        if counts.max() <= 4:
            return as_wilds(rng, counts, wilds - 1)
