"""Speed for the ``expert`` policy: the chance of completing a hand within the draws left.

The wall is a uniformly random part of the unseen tiles (four copies minus
own tiles minus every visible tile), so the tiles a player will see are a
uniformly random sequence drawn without replacement from the ``unseen`` pool.
On that model the chances here are exact:

- :func:`ready_chance` — a ready hand with ``winners`` winning tiles unseen;
- :func:`one_away_chance` — one tile away: first one of ``improvers`` tiles
  (which make the hand ready) among the player's own draws, then one of
  ``winners`` tiles among all it sees (the waits of the ready hand it makes;
  winners seen before the improvement are spent).  Exact when every tile
  seen is an own draw; otherwise each tile seen is an own draw with chance
  ``own_share`` and the improvers are taken as fresh (an improver in another
  player's hand or discard is not counted as gone: slightly optimistic);

and :func:`chain_chance` is the approximation further out: a chain of stages,
each passed on drawing one of its own class of tiles (ukeire-sized), the
classes taken as fresh and disjoint.  Every chance weighs a completion at the
``j``-th tile seen by ``survive ** j`` (the hand may end first through
another player's win).
"""

from mjsim.sim.borrowing import njit_borrowed

MAX_WINNERS = 63  # scratch length of one_away_chance - 1


@njit_borrowed
def ready_chance(unseen, winners, seen, survive):
    """Chance (weighted by survival) that one of ``winners`` tiles is among the first ``seen`` of ``unseen``."""
    total = 0.0
    none_yet = 1.0
    weight = 1.0
    if winners <= 0:
        return 0.0
    for j in range(seen):
        pool = unseen - j
        if pool <= 0:
            break
        weight *= survive
        p = min(1.0, winners / pool)
        total += none_yet * p * weight
        none_yet *= 1.0 - p
        if none_yet <= 0.0:
            break
    return total


@njit_borrowed
def one_away_chance(unseen, improvers, winners, seen, own_share, survive, stage0, stage1):
    """Chance (weighted by survival) that an improver (an own draw, ``own_share`` of the tiles seen) and then
    a winner come among the first ``seen`` tiles.

    ``stage0[x]``: not improved yet, ``x`` winners already drawn (spent);
    ``stage1[y]``: improved, ``y`` winners left.  The classes are disjoint;
    ``stage0``/``stage1`` are float64 scratch of length > ``winners``.
    """
    if improvers <= 0 or winners <= 0:
        return 0.0
    w = min(winners, MAX_WINNERS, stage0.size - 1)
    for x in range(w + 1):
        stage0[x] = 0.0
        stage1[x] = 0.0
    stage0[0] = 1.0
    total = 0.0
    weight = 1.0
    for j in range(seen):
        pool = unseen - j
        if pool <= 0:
            break
        weight *= survive
        # stage 1 first (it reads the state before this draw's improvements)
        for y in range(1, w + 1):
            if stage1[y] > 0.0:
                p = min(1.0, y / pool)
                total += stage1[y] * p * weight
                stage1[y] *= 1.0 - p
        for x in range(w, -1, -1):
            q = stage0[x]
            if q <= 0.0:
                continue
            left = w - x
            p_improve = own_share * min(1.0, improvers / pool)
            p_winner = min(1.0 - p_improve, left / pool)
            stage0[x] = q * (1.0 - p_improve - p_winner)
            if x + 1 <= w:
                stage0[x + 1] += q * p_winner
            stage1[left] += q * p_improve
    return total


@njit_borrowed
def typical_ukeire(away):
    """Tiles that improve a typical hand ``away`` (>= 1) tiles from ready (about 12 one away, 8 more per step)."""
    return 4.0 + 8.0 * away


MEMO_KEYS = 6  # the last slots of a chain memo: unseen, winners, own, seen, survive, and survive ** per
CHAIN_MEMO = 64  # a chain memo's length (zeros: empty, as no call has own 0)


@njit_borrowed
def last_stage(winners, pool, per):
    """Chance that one of ``winners`` in ``pool`` comes among the ``per`` tiles one own draw stands for."""
    return 1.0 - (1.0 - min(1.0, winners / pool)) ** per


@njit_borrowed
def memo_matches(memo, unseen, winners, own, seen, survive):
    """Whether ``memo`` holds the last stage's chances for these arguments."""
    h = memo.size - MEMO_KEYS
    return (
        memo[h] == unseen
        and memo[h + 1] == winners
        and memo[h + 2] == own
        and memo[h + 3] == seen
        and (memo[h + 4] == survive)
    )


@njit_borrowed
def fill_memo(memo, unseen, winners, own, seen, survive, per):
    """Fill ``memo`` with the last stage's chance per own draw and its keys."""
    h = memo.size - MEMO_KEYS
    for j in range(own):
        pool = unseen - j * per
        memo[j] = last_stage(winners, pool, per) if pool > 1.0 else 0.0
    memo[h] = unseen
    memo[h + 1] = winners
    memo[h + 2] = own
    memo[h + 3] = seen
    memo[h + 4] = survive
    memo[h + 5] = survive**per


@njit_borrowed
def chain_chance(unseen, first, scale, stages, winners, own, seen, survive, state, first_cap, memo):
    """Approximate chance of passing ``stages`` improvement stages and then winning within ``seen`` tiles,
    ``own`` of them the player's own draws.

    Improvement comes from the player's own draws only (another player's
    discard moves a concealed hand on only through a claim); the ready hand
    wins on any tile it sees, so each own draw stands for ``seen / own``
    tiles at the last stage.  The first stage is passed by one of ``first``
    tiles (the hand's ukeire, at most ``first_cap`` x the typical ukeire at
    that distance: tiles that only reshape a far hand are not all progress),
    each later one, ``j`` stages from ready, by one of ``scale`` x the typical
    ukeire of a hand ``j`` from ready (:func:`typical_ukeire` — not the
    current hand's: a hand far from ready accepts many tiles, and that says
    little about the later stages), and the ready hand wins on one of
    ``winners``; each class is taken as fresh (tiles drawn at one stage do not
    count at the next).  ``survive`` is per tile seen; ``state`` is float64
    scratch of length > ``stages``; ``memo`` is float64 scratch kept between
    calls (``CHAIN_MEMO`` zeros to start): the last stage's chance per own draw, which
    every call with the same ``unseen``, ``winners``, ``own``, ``seen`` and
    ``survive`` shares (one decision's calls differ only in their stages).
    """
    n = min(stages + 1, state.size)
    if n <= 0 or own <= 0:
        return 0.0
    for k in range(n):
        state[k] = 0.0
    state[0] = 1.0
    total = 0.0
    weight = 1.0
    per = max(1.0, seen / own)
    kept = own <= memo.size - MEMO_KEYS
    if kept and not memo_matches(memo, unseen, winners, own, seen, survive):
        fill_memo(memo, unseen, winners, own, seen, survive, per)
    step_survive = memo[memo.size - 1] if kept else survive**per
    for j in range(own):
        pool = unseen - j * per
        if pool <= 1.0:
            break
        weight *= step_survive
        for k in range(n - 1, -1, -1):
            q = state[k]
            if q <= 0.0:
                continue
            if k == n - 1:
                p = memo[j] if kept else last_stage(winners, pool, per)
                state[k] = q * (1.0 - p)
                total += q * p * weight
                continue
            if k == 0:
                count = min(first, first_cap * scale * typical_ukeire(stages))
            else:
                count = scale * typical_ukeire(stages - k)
            p = min(1.0, count / pool)
            state[k] = q * (1.0 - p)
            state[k + 1] += q * p
    return total
