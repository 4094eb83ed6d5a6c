"""The ``value`` policy: efficiency traded against what the ruleset pays (parameter ``greed``).

Each discard is scored by the best *plan* for the hand that remains — plain
(standard shanten), half or full flush in one suit, all pungs, seven pairs,
and in 推倒胡 (big hands worth double, TDH-V1/V2) also four concealed pungs,
all honours and thirteen orphans — worth ``-shanten + 1.5 * greed * fan``:
fan counts the plan's pattern (``rules.fan_*``; a 推倒胡 big hand counts 1;
水头 台 as steps, ``mjsim.sim.observation.shuitou_steps``)
plus the expected bonus of dragon, seat-wind and round-wind pairs and pungs;
seven pairs counts half a step slower than its shanten (it waits on lone
tiles only), so it wins a tie with the plain hand only when some greed pays
for it.  With a minimum fan (JPH-P4) a plan below it loses 2 per missing
fan, so the policy keeps dragon pairs and heads for a flush rather than a
chicken hand it could not win with.  Ties go to the lower standard shanten,
then (seven pairs the plan) to the single with the fewest unseen copies,
then as ``efficiency`` (ukeire, honours first, random).  A concealed kong that keeps
the shanten is declared unless seven pairs or orphans is the plan.
RESPONSE: win; pung/kong valued honours; a kong when the best plan after it
scores no lower (a free draw); other claims when it scores higher by a
margin — so a hand chasing a concealed big hand (seven pairs, four
concealed pungs) does not pung — and a concealed hand under a minimum fan
claims only when the plan after the claim still reaches it.

Wild tiles (C-J1) are judged as in ``efficiency`` (every plan's shanten
counts each wild as any missing tile) and never discarded while another
tile may go.
"""

import numpy as np

from mjsim.agents.base import (
    RULE_ALL_PUNGS,
    RULE_DRAGON,
    RULE_FAMILY,
    RULE_FORMS,
    RULE_FULL_FLUSH,
    RULE_HALF_FLUSH,
    RULE_MIN_FAN,
    RULE_SEVEN_PAIRS,
    RULE_WIND,
    Policy,
    new_actions,
    param_array,
    rules_array,
    shape_table,
)
from mjsim.agents.efficiency import (
    break_ties,
    claim_hand,
    clamp_sets,
    mask_legal_discards,
    wild_turn,
    wilds_of_row,
)
from mjsim.agents.legal import checked, uniform_legal
from mjsim.agents.shape import (
    BIG,
    R_EVERY,
    R_HELD,
    R_INFO,
    R_MASK,
    R_SH,
    R_TIE,
    S_OTH,
    S_TMP,
    S_VEC,
    WEIGHT,
    analyse,
    close_rev,
    discard_shanten,
    held_need,
    kong_shanten,
    load,
    new_work,
    removal_shanten,
    special_on,
    special_shanten,
)
from mjsim.sim.borrowing import kernel, njit_borrowed
from mjsim.sim.constants import (
    AKONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CKONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    RESPONSE,
    TURN,
    WIN,
)

TUIDAOHU = 1  # PolicyRules.family of 推倒胡

# plans (F[2] of a scored discard)
PLAN_PLAIN = 0
# 1..3: flush in suit plan - 1
PLAN_ALL_PUNGS = 4
PLAN_SEVEN_PAIRS = 5
PLAN_CONCEALED_PUNGS = 6  # 推倒胡 四暗刻
PLAN_ALL_HONOURS = 7  # 推倒胡 字一色
PLAN_ORPHANS = 8  # 推倒胡 十三幺
N_PLANS = 9

MISSING_FAN_COST = 2.0  # score lost per fan a plan lacks under a minimum fan
CLAIM_MARGIN = 0.25  # a claim exposes the hand: it must gain at least this much
R_THREES = 32  # W[R_INFO] slots of pung_counts
R_TWOS = 33
SEVEN_PAIRS_DRAG = 0.5  # seven pairs waits on singles only (narrow ukeire, a lone-tile wait): worth this much less


@njit_borrowed
def honour_chance(count, exposed, unseen):
    """Rough chance that a valued honour ends as a pung: secured, a pair, a single."""
    if exposed >= 3 or count >= 3:
        return 1.0
    if count == 2:
        return 0.5 if unseen >= 1 else 0.0
    if count == 1:
        return 0.15 if unseen >= 2 else 0.0
    return 0.0


@njit_borrowed
def honour_fan(hand, hi, d, ex, ei, vis, vi, VW):
    """Expected bonus fan of the valued honours (``VW`` fan per pung) in ``hand[hi]`` minus ``d``."""
    total = 0.0
    for v in range(27, 34):
        if VW[v] > 0:
            count = hand[hi, v] - (1 if v == d else 0)
            total += VW[v] * honour_chance(count, ex[ei, 0, v], 4 - vis[vi, v])
    return total


@njit_borrowed
def pung_need(threes, twos, sets):
    """Fewest tiles to add for ``sets`` pungs + a pair from ``threes`` kinds held 3+ and ``twos`` pairs."""
    left = sets - min(threes, sets)
    eye_from_pair = BIG if twos == 0 else min(twos - 1, left) + 2 * max(0, left - (twos - 1))
    eye_from_single = 1 + min(twos, left) + 2 * max(0, left - twos)
    return min(eye_from_pair, eye_from_single)


@njit_borrowed
def pung_counts(hand, hi, W):
    """``W[R_INFO, R_THREES]`` = kinds held three or four times and ``W[R_INFO, R_TWOS]`` = pairs in
    ``hand[hi]`` (once per analysed hand: :func:`plan_score` adjusts them for each discard)."""
    threes = 0
    twos = 0
    for t in range(34):
        k = hand[hi, t]
        threes += 1 if k >= 3 else 0
        twos += 1 if k == 2 else 0
    W[R_INFO, R_THREES] = threes
    W[R_INFO, R_TWOS] = twos


@njit_borrowed
def close_pair(W, a, b, sets):
    """Need of a hand made only of the components in slots ``a`` and ``b`` (normal orientation)."""
    best = BIG
    for m in range(sets + 1):
        best = min(best, W[a, 2 * m] + W[b, 2 * (sets - m) + 1], W[a, 2 * m + 1] + W[b, 2 * (sets - m)])
    return best


@njit_borrowed
def big_hand_fan(rules):
    """What a 推倒胡 big hand is worth over a small one (TDH-V1: double, i.e. 1 fan; 0 elsewhere or when
    the ruleset pays no big hands).  Derived from the flags PolicyRules has: in 推倒胡 ``fan_full_flush``
    and ``fan_seven_pairs`` are 1 exactly when the big hands pay."""
    if rules[RULE_FAMILY] != TUIDAOHU:
        return 0
    return max(rules[RULE_FULL_FLUSH], rules[RULE_SEVEN_PAIRS])


@njit_borrowed
def plan_score(
    hand,
    hi,
    sets,
    d,
    ex,
    ei,
    vis,
    vi,
    rules,
    greed,
    flush_bits,
    full_ok,
    pungs_ok,
    concealed,
    hidden,
    honours_ok,
    W,
    VW,
):
    """(score, fan, plan) of the best plan for analysed ``hand[hi]`` minus ``d`` (-1: the hand as held;
    else the vector of ``d``'s component after the discard is in slot S_TMP).

    ``flush_bits``: suits a flush can still use (own exposed melds); ``full_ok``: no exposed honours;
    ``pungs_ok``: no exposed chow; ``concealed``: no meld at all (seven pairs, orphans); ``hidden``: every
    own meld a kong, taken as concealed (four concealed pungs); ``honours_ok``: no exposed suited tile.
    Shanten are in raw units (wilds removed, see :mod:`mjsim.agents.shape`): one decision shares them.
    """
    c = d // 9 if d >= 0 else -1
    if d >= 0:  # the caller loaded the discard's component vector into S_TMP
        std = close_rev(W, S_TMP, S_OTH + c) - 1
    else:
        std = held_need(W, sets) - 1
    hv = honour_fan(hand, hi, d, ex, ei, vis, vi, VW)
    weight = 1.5 * greed
    min_fan = rules[RULE_MIN_FAN]
    big = big_hand_fan(rules)
    forms = rules[RULE_FORMS]
    best = -1e9
    best_fan = 0.0
    best_plan = PLAN_PLAIN
    for plan in range(N_PLANS):
        if plan == PLAN_PLAIN:
            sh, fan = std, hv
        elif plan <= 3:  # flush in suit plan - 1
            x = plan - 1
            if not (flush_bits >> x) & 1 or (rules[RULE_HALF_FLUSH] == 0 and rules[RULE_FULL_FLUSH] == 0):
                continue
            vx = S_TMP if c == x else S_VEC + x
            vh = S_TMP if c == 3 else S_VEC + 3
            sh, fan = BIG, 0.0
            if rules[RULE_HALF_FLUSH] > 0:
                sh, fan = close_pair(W, vx, vh, sets) - 1, rules[RULE_HALF_FLUSH] + hv
            if rules[RULE_FULL_FLUSH] > 0 and full_ok:
                full = W[vx, 2 * sets + 1] - 1
                if rules[RULE_FULL_FLUSH] * weight - full > fan * weight - sh:
                    sh, fan = full, float(rules[RULE_FULL_FLUSH])
        elif plan == PLAN_ALL_PUNGS or plan == PLAN_CONCEALED_PUNGS:
            if plan == PLAN_ALL_PUNGS:
                if rules[RULE_ALL_PUNGS] == 0 or not pungs_ok:
                    continue
                fan = rules[RULE_ALL_PUNGS] + hv
            else:  # 四暗刻: every set a concealed pung, so no claim (TDH-V2)
                if big == 0 or not hidden:
                    continue
                fan = float(big)
            threes = W[R_INFO, R_THREES]  # of the hand as held (pung_counts), then without d
            twos = W[R_INFO, R_TWOS]
            if d >= 0:
                k = hand[hi, d]
                threes -= 1 if k == 3 else 0
                twos += (1 if k == 3 else 0) - (1 if k == 2 else 0)
            sh = pung_need(threes, twos, sets) - 1
        elif plan == PLAN_SEVEN_PAIRS:
            if rules[RULE_SEVEN_PAIRS] == 0 or not special_on(forms & 10, sets, 0 if concealed else 1):
                continue
            sh, fan = special_shanten(hand, hi, forms & 10, d, -1, W), float(rules[RULE_SEVEN_PAIRS])
            sh += SEVEN_PAIRS_DRAG
        elif plan == PLAN_ALL_HONOURS:  # 字一色: the honour component alone
            if big == 0 or not honours_ok:
                continue
            vh = S_TMP if c == 3 else S_VEC + 3
            sh, fan = W[vh, 2 * sets + 1] - 1, float(big)
        else:  # 十三幺
            if big == 0 or not special_on(forms & 4, sets, 0 if concealed else 1):
                continue
            sh, fan = special_shanten(hand, hi, 4, d, -1, W), float(big)
        score = weight * fan - sh
        if min_fan > 0 and fan < min_fan:
            score -= MISSING_FAN_COST * (min_fan - fan)
        if score > best:
            best, best_fan, best_plan = score, fan, plan
    return best, best_fan, best_plan


@njit_borrowed
def discard_scores(
    hand,
    hi,
    sets,
    ex,
    ei,
    vis,
    vi,
    rules,
    greed,
    flush_bits,
    full_ok,
    pungs_ok,
    concealed,
    hidden,
    honours_ok,
    T,
    W,
    VW,
    F,
):
    """``F[0, d]`` = plan score, ``F[1, d]`` its fan and ``F[2, d]`` the plan for every held discard with
    ``W[R_MASK]`` set (hand analysed); returns the best score (-inf when none)."""
    best = -np.inf
    for t in range(34):
        F[0, t] = -np.inf
    for e in range(W[R_INFO, 4]):
        d = W[R_HELD, e]
        if W[R_MASK, d] == 0:
            continue
        load(W, S_TMP, T, W[R_INFO, d // 9] - WEIGHT[d])
        score, fan, plan = plan_score(
            hand,
            hi,
            sets,
            d,
            ex,
            ei,
            vis,
            vi,
            rules,
            greed,
            flush_bits,
            full_ok,
            pungs_ok,
            concealed,
            hidden,
            honours_ok,
            W,
            VW,
        )
        F[0, d] = score
        F[1, d] = fan
        F[2, d] = plan
        best = max(best, score)
    return best


@njit_borrowed
def exposure(ex, i, melds):
    """(flush_bits, full_ok, pungs_ok, hidden, honours_ok) allowed by row ``i``'s own exposed melds (see
    :func:`plan_score`; the observation does not tell a concealed kong from an exposed one, so every
    kong counts as concealed — the policy itself claims no kong while a concealed plan leads)."""
    flush_bits = 7
    full_ok = True
    honours_ok = True
    pung_kinds = 0
    kong_kinds = 0
    for t in range(34):
        n = ex[i, 0, t]
        if n > 0:
            if t < 27:
                flush_bits &= 1 << (t // 9)
                honours_ok = False
            else:
                full_ok = False
        pung_kinds += 1 if n >= 3 else 0
        kong_kinds += 1 if n == 4 else 0
    # fewer pung-like kinds than melds: a chow
    return flush_bits, full_ok, pung_kinds >= melds, kong_kinds >= melds, honours_ok


@njit_borrowed
def valued_weights(seat_offset, round_wind, rules, VW):
    """``VW[t]`` = bonus fan of a pung of kind ``t`` (dragons; seat and round wind, both if equal)."""
    for t in range(34):
        VW[t] = 0.0
    for t in range(31, 34):
        VW[t] = rules[RULE_DRAGON]
    VW[27 + seat_offset % 4] += rules[RULE_WIND]
    VW[27 + round_wind % 4] += rules[RULE_WIND]


@njit_borrowed
def value_turn(i, hand, hi, sets, melds, ex, vis, legal, rng, rules, greed, T, W, VW, F):
    """Action of the value rule on a TURN row (``hand[hi]``: the hand judged, without wilds)."""
    if legal[i, WIN]:
        return WIN
    flush_bits, full_ok, pungs_ok, hidden, honours_ok = exposure(ex, i, melds)
    analyse(hand, hi, sets, T, W)
    pung_counts(hand, hi, W)
    mask_legal_discards(legal, i, W)
    std_best = discard_shanten(hand, hi, sets, False, 1, T, W)
    best = discard_scores(
        hand,
        hi,
        sets,
        ex,
        i,
        vis,
        i,
        rules,
        greed,
        flush_bits,
        full_ok,
        pungs_ok,
        melds == 0,
        hidden,
        honours_ok,
        T,
        W,
        VW,
        F,
    )
    # a kong that keeps the shanten: as efficiency — unless the plan needs the hand meld-free (a declared
    # kong ends seven pairs and thirteen orphans)
    keep_closed = False
    for t in range(34):
        if F[0, t] >= best - 1e-9 and (F[2, t] == PLAN_SEVEN_PAIRS or F[2, t] == PLAN_ORPHANS):
            keep_closed = True
    for t in range(34):
        if (
            legal[i, CKONG + t]
            and hand[hi, t] == 4
            and sets >= 1
            and not keep_closed
            and kong_shanten(sets, t, T, W) <= std_best
        ):
            return CKONG + t
        if legal[i, AKONG + t] and hand[hi, t] >= 1 and removal_shanten(sets, t, T, W) <= std_best:
            return AKONG + t
    if best == -np.inf:
        return uniform_legal(legal, i, rng)
    low = BIG
    for t in range(34):
        if F[0, t] >= best - 1e-9:
            low = min(low, W[R_SH, t])
    sevens = True
    fewest = BIG
    for t in range(34):
        W[R_TIE, t] = 1 if F[0, t] >= best - 1e-9 and W[R_SH, t] == low else 0
        if W[R_TIE, t]:
            sevens = sevens and F[2, t] == PLAN_SEVEN_PAIRS
            fewest = min(fewest, 4 - vis[i, t])
    if sevens:  # seven pairs waits on singles: throw the one with the fewest unseen copies
        for t in range(34):
            if W[R_TIE, t] and 4 - vis[i, t] > fewest:
                W[R_TIE, t] = 0
    return DISCARD + break_ties(i, hand, hi, vis, i, sets, False, 1, rng, T, W)


@njit_borrowed
def value_response(i, hand, hi, sets, melds, ex, vis, legal, t, rules, greed, T, W, VW, F, H):
    """Action of the value rule on a RESPONSE/ROB row (``hand[hi]``: the hand judged, without wilds)."""
    if legal[i, WIN]:
        return WIN
    if not (legal[i, PUNG] or legal[i, KONG] or legal[i, CHOW_LOW] or legal[i, CHOW_MID] or legal[i, CHOW_HIGH]):
        return PASS
    if 0 <= t < 34 and VW[t] > 0:  # a valued honour pung is fan in hand
        if legal[i, KONG]:
            return KONG
        if legal[i, PUNG]:
            return PUNG
    flush_bits, full_ok, pungs_ok, hidden, honours_ok = exposure(ex, i, melds)
    concealed = melds == 0
    analyse(hand, hi, sets, T, W)
    pung_counts(hand, hi, W)
    now, _, _ = plan_score(
        hand,
        hi,
        sets,
        -1,
        ex,
        i,
        vis,
        i,
        rules,
        greed,
        flush_bits,
        full_ok,
        pungs_ok,
        concealed,
        hidden,
        honours_ok,
        W,
        VW,
    )
    choice = PASS
    best = now + CLAIM_MARGIN
    for action in (KONG, PUNG, CHOW_LOW, CHOW_MID, CHOW_HIGH):
        if not legal[i, action] or sets < 1 or not claim_hand(hand, hi, action, t, H):
            continue
        bits = flush_bits & (1 << (t // 9)) if t < 27 else flush_bits
        analyse(H, 0, sets - 1, T, W)
        pung_counts(H, 0, W)
        chow = action >= CHOW_LOW
        # a claimed meld is exposed: no seven pairs, orphans or concealed pungs after it
        if action == KONG:
            score, fan, _ = plan_score(
                H,
                0,
                sets - 1,
                -1,
                ex,
                i,
                vis,
                i,
                rules,
                greed,
                bits,
                full_ok and t < 27,
                pungs_ok and not chow,
                False,
                False,
                honours_ok and t >= 27,
                W,
                VW,
            )
        else:
            for k in range(34):
                W[R_MASK, k] = W[R_EVERY, k]
            discard_scores(
                H,
                0,
                sets - 1,
                ex,
                i,
                vis,
                i,
                rules,
                greed,
                bits,
                full_ok and t < 27,
                pungs_ok and not chow,
                False,
                False,
                honours_ok and t >= 27,
                T,
                W,
                VW,
                F,
            )
            score, fan = -np.inf, 0.0
            for k in range(34):
                if F[0, k] > score:
                    score, fan = F[0, k], F[1, k]
        if concealed and rules[RULE_MIN_FAN] > 0 and fan < rules[RULE_MIN_FAN]:
            continue  # do not open a hand whose value the minimum fan needs
        if action == KONG:  # a free replacement draw (and kong money): keeping the plan's score is enough
            score += CLAIM_MARGIN + 1e-9
        if score > best:
            choice, best = action, score
    return choice


@kernel
def value_kernel(
    hand,
    sets_needed,
    meld_count,
    exposed,
    visible,
    seat_offset,
    round_wind,
    decision,
    target,
    wild,
    any_wild,
    legal,
    rng,
    params,
    rules,
    T,
    out,
):
    """Fill ``out`` with the value action of every row (``params[0]`` = greed); rows with wild kinds judge
    ``G``, the hand without its wilds."""
    W = new_work()
    H = np.zeros((2, 34), np.int8)
    G = np.zeros((1, 34), hand.dtype)
    F = np.zeros((3, 34), np.float64)
    VW = np.zeros(34, np.float64)
    greed = min(max(params[0], 0.0), 1.0)
    for i in range(out.size):
        sets = clamp_sets(sets_needed, i)
        melds = meld_count[i, 0]
        valued_weights(seat_offset[i], round_wind[i], rules, VW)
        wilds = any_wild and wilds_of_row(hand, i, wild, visible, G, W)
        if wilds:
            for t in range(34):
                if wild[i, t]:
                    VW[t] = 0.0  # a wild is no honour of its own (C-J1)
        if decision[i] == TURN:
            if wilds:
                a = wild_turn(i, G, wild, legal, rng)  # only wilds to discard: one of them
                if a < 0:
                    a = value_turn(i, G, 0, sets, melds, exposed, visible, legal, rng, rules, greed, T, W, VW, F)
            else:
                a = value_turn(i, hand, i, sets, melds, exposed, visible, legal, rng, rules, greed, T, W, VW, F)
        elif decision[i] == RESPONSE:
            if wilds:
                a = value_response(
                    i, G, 0, sets, melds, exposed, visible, legal, target[i], rules, greed, T, W, VW, F, H
                )
            else:
                a = value_response(
                    i, hand, i, sets, melds, exposed, visible, legal, target[i], rules, greed, T, W, VW, F, H
                )
        else:
            a = WIN if legal[i, WIN] else PASS
        out[i] = checked(legal, i, a, rng)


def act(obs, legal, rng, params, rules):
    """Value actions for the rows of ``obs``."""
    out = new_actions(obs)
    value_kernel(
        obs.hand,
        obs.sets_needed,
        obs.meld_count,
        obs.exposed,
        obs.visible,
        obs.seat_offset,
        obs.round_wind,
        obs.decision,
        obs.target,
        obs.wild,
        bool(obs.wild.any()),
        legal,
        rng,
        param_array(params, PARAMS, "value"),
        rules_array(rules),
        shape_table(),
        out,
    )
    return out


DEFAULTS = {"greed": 0.5}
PARAMS = tuple(DEFAULTS)
POLICY = Policy(
    name="value",
    act=act,
    default_params=DEFAULTS,
    bounds={"greed": (0.0, 1.0)},
    doc=__doc__.split("\n\n")[0],
    # PolicyRules' fan_* (水头: the 台 of the chased patterns in steps, through the SHT-T3 doubling)
    reads=frozenset(
        {"fan", "limit_fan", "xz_fan", "bonuses", "big_hands", "hand_value", "double_from_tai", "double_factor"}
    ),  # fmt: skip
)
