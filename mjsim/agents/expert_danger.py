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
  only counts much less (``OWN_DISCARD``: a ready player who draws a winning
  tile wins with it, so what it throws after becoming ready is almost never
  its wait, and before that it rarely throws a tile its wait needs), and a
  suited kind whose 筋 partners (three ranks away, both sides where both
  exist) it discarded counts less (``SUJI``).  An opponent whose exposed sets
  are all of one suit (a flush in view) has its waits in other suits
  discounted (``OFF_SUIT``).  The shares are scaled to the mean number of
  kinds a ready hand waits on (``WAIT_KINDS``; one for a last single tile), so ``ready × share`` is the
  chance a tile deals in.

The constants were measured from logged play (3,000 walls each of
``jipinghu`` and ``tuidaohu``, expert/efficiency/value/defensive seats): at a
discard where an opponent was really ready, a kind that opponent had
discarded was one of its waits 0.3% of the time against 6-7% for the others;
a suited kind with its 筋 partners discarded 3.6-4.4% against 7.6-9.4%; ready
hands waited on 1.5-1.7 kinds.  Throwing the held kind of least share then
deals in on 1.0% (jipinghu) and 0.7% (tuidaohu) of such discards, against
1.7% and 1.6% with the earlier constants and 6.9-7.5% for a random held kind.
"""

import math

from mjsim.sim.borrowing import njit_borrowed

RUN_BOTH = 1.0  # 两面: two consecutive tiles, waiting on either side
RUN_EDGE = 0.6  # 边张: 12 waiting on 3, 89 on 7
RUN_GAP = 0.6  # 嵌张: 13 waiting on 2
PAIR_WAIT = 0.5  # 对倒: a pair, with another pair
SINGLE_WAIT = 0.3  # 单钓: a single
SINGLE_HONOUR = 0.5  # an honour single is a favoured wait
OWN_DISCARD = 0.05
SUJI = 0.5
OFF_SUIT = 0.15
WAIT_KINDS = 1.6
# ready_probability: a logistic in discards made (steeper over the first six) and sets exposed, fitted to the
# same logs (within 0.03 of the measured rate in most cells of discards x sets)
READY_BASE = -6.9
READY_PER_DISCARD = 0.27
READY_EARLY_DISCARD = 0.54
READY_SETS = (0.0, 0.57, 1.16, 2.18)


@njit_borrowed
def ready_probability(n_discards, melds):
    """Chance an opponent with ``n_discards`` discards and ``melds`` exposed sets is ready (about 12% after
    six discards with no set out, 40% after twelve; 60% after six with three sets out)."""
    if melds >= 4:
        return 1.0  # a last single tile always waits on itself
    x = READY_BASE + READY_PER_DISCARD * n_discards + READY_EARLY_DISCARD * min(n_discards, 6) + READY_SETS[melds]
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
    kinds = 1.0 if singles_only else WAIT_KINDS  # a last single tile waits on one kind
    for t in range(34):
        share = kinds * out[t] / total
        if discards[i, r, t] > 0:
            share *= OWN_DISCARD
        elif t < 27 and suji_discarded(discards, i, r, t):
            share *= SUJI
        out[t] = share


@njit_borrowed
def suji_discarded(discards, i, r, t):
    """Whether seat ``r`` discarded every 筋 partner of suited kind ``t`` (the ranks three away, in its suit)."""
    rank = t % 9
    if rank >= 3 and discards[i, r, t - 3] == 0:
        return False
    if rank <= 5 and discards[i, r, t + 3] == 0:
        return False
    return True
