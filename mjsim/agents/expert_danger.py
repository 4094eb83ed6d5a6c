"""Danger for the ``expert`` policy: how likely each opponent is ready, and what each tile would complete.

For an opponent at relative seat ``r`` (1..3):

- :func:`ready_probability` — the chance of being ready from what is public:
  discards made (turns played), sets exposed (each one a set fewer to make)
  and a last tile alone (four sets exposed: only a single-tile wait is left);
- :func:`wait_shares` — for each kind, the share of the opponent's plausible
  waits it completes.  A wait is a shape the concealed hand may hold: two
  consecutive tiles (waiting on both sides, or one at an edge), two tiles a
  rank apart, a pair (waiting with another pair) or a single.  Each shape is
  weighted by the number of ways the opponent can hold it — the product of
  the unseen copies of the tiles it needs — so a kind whose every other copy
  is visible completes no pair or single wait (an honour becomes safe), and a
  suited kind whose neighbours are all visible completes no run wait.  These
  rules have no furiten, so a kind the opponent discarded stays possible; it
  only counts less (``OWN_DISCARD``: a player rarely throws a tile next to the
  wait they keep).  An opponent whose exposed sets are all of one suit (a
  flush in view) has its waits in other suits discounted (``OFF_SUIT``).
"""

import math

from mjsim.sim.borrowing import njit_borrowed

RUN_BOTH = 1.0  # 两面: two consecutive tiles, waiting on either side
RUN_EDGE = 0.6  # 边张: 12 waiting on 3, 89 on 7
RUN_GAP = 0.6  # 嵌张: 13 waiting on 2
PAIR_WAIT = 0.5  # 对倒: a pair, with another pair
SINGLE_WAIT = 0.3  # 单钓: a single
SINGLE_HONOUR = 0.5  # an honour single is a favoured wait
OWN_DISCARD = 0.6
OFF_SUIT = 0.15


@njit_borrowed
def ready_probability(n_discards, melds):
    """Chance an opponent with ``n_discards`` discards and ``melds`` exposed sets is ready (a logistic in
    both: about 15% after six discards, 40% after twelve, three quarters with three sets out)."""
    if melds >= 4:
        return 0.95
    x = -3.2 + 0.23 * n_discards + 0.8 * melds
    return 1.0 / (1.0 + math.exp(-x))


@njit_borrowed
def flush_suit(exposed, i, r, melds):
    """The suit (0..2) of every exposed suited tile of seat ``r`` when it has two or more sets out, all suited
    tiles in one suit; else -1."""
    if melds < 2:
        return -1
    suit = -1
    for t in range(27):
        if exposed[i, r, t] > 0:
            s = t // 9
            if suit >= 0 and s != suit:
                return -1
            suit = s
    return suit


@njit_borrowed
def wait_shares(i, r, visible, discards, exposed, melds, out):
    """``out[t]`` = share of seat ``r``'s plausible waits that kind ``t`` completes (see the module notes)."""
    for t in range(34):
        out[t] = 0.0
    total = 0.0
    singles_only = melds >= 4
    flush = flush_suit(exposed, i, r, melds)
    for t in range(34):
        n = max(0, 4 - visible[i, t])
        honour = t >= 27
        scale = OFF_SUIT if (flush >= 0 and not honour and t // 9 != flush) else 1.0
        w = n * (SINGLE_HONOUR if honour else SINGLE_WAIT)
        if not singles_only:
            w += n * (n - 1) / 2.0 * PAIR_WAIT
        out[t] += w * scale
        total += w * scale
    if not singles_only:
        for s in range(3):
            scale = OFF_SUIT if (flush >= 0 and s != flush) else 1.0
            base = 9 * s
            for b in range(8):  # held ranks b, b + 1
                w = max(0, 4 - visible[i, base + b]) * max(0, 4 - visible[i, base + b + 1]) * scale
                if w <= 0:
                    continue
                if b == 0:
                    w *= RUN_EDGE
                    out[base + 2] += w
                elif b == 7:
                    w *= RUN_EDGE
                    out[base + 6] += w
                else:
                    w *= RUN_BOTH
                    out[base + b - 1] += w
                    out[base + b + 2] += w
                total += w
            for b in range(7):  # held ranks b, b + 2
                w = max(0, 4 - visible[i, base + b]) * max(0, 4 - visible[i, base + b + 2]) * RUN_GAP * scale
                out[base + b + 1] += w
                total += w
    if total <= 0.0:
        return
    for t in range(34):
        share = out[t] / total
        if discards[i, r, t] > 0:
            share *= OWN_DISCARD
        out[t] = share
