"""The ``expert`` policy: every choice by expected points over the rest of the hand (``aggression``, ``depth``,
``plan_rate``, ``first_cap``, ``caution``).

Each candidate — every discard, a claim (chow, pung, kong), a win or a pass —
is worth ``aggression * (chance of winning x points the win pays) - expected
loss of dealing in`` for the hand it leaves, and the largest wins: push or
fold, claim or pass, take a win or wait for a bigger one are all this one
comparison, never a threshold.  A passed win is valued without the copies of
the passed kind (漏胡 / 过手 shut its discard wins out).  With ``caution`` above
0 a hand is worth the better of pushing on (its worth less ``caution`` x the
danger of one random unseen tile per own draw left) and folding (nothing
more to lose), so weak hands facing danger throw their safest tiles.

- Value is the family's own compiled scorer (:func:`mjsim.sim.scoring.score_win`,
  every pattern, bonus, cap, limit hand and the minimum fan) on each winning
  tile, paid as the ruleset pays it (鸡平胡 2**fan per share, one share or three
  for a discard win, three for a self-draw; 推倒胡 units x the self-draw /
  discard multipliers; winner horses in expectation).  Hands further than one
  tile from ready are valued as the fast hand (its paired valued honours,
  门前清 while concealed and 自摸 on its self-draw share) or the ``value``
  policy's best plan (its fan, with the same bonuses).
- Speed (:mod:`mjsim.agents.expert_speed`) is exact on the unseen-tile model
  for ready hands and, with ``depth`` 1, one-away hands (every improving draw,
  the best ready hand it allows, its waits and their values) — for a discard
  off the decision's best shape only where its chain value, times
  ``OFF_SHAPE_MARGIN``, could beat the best discard so far; further out a
  chain of ukeire-sized stages, the first on the hand's real ukeire (at most
  ``first_cap`` x a typical one), the later ones a typical hand's — and the
  plan when it pays more: its first stage the ukeire that serves it (its suit
  and honours for a flush, pairs and pungs for all pungs), its later ones
  ``plan_rate`` x a typical hand's.  A hand improves on the player's own
  draws and on the discards it can claim (a pung from anyone, a chow from
  the left); it wins on any tile it sees: its own draws (about a quarter of
  the wall) plus, where discard wins count, a share of the opponents'
  discards (``RON_SHARE``).  The hand may end first when an opponent is ready.
- Danger (:mod:`mjsim.agents.expert_danger`): per opponent the chance of being
  ready times the share of its plausible waits a tile completes times what
  that opponent's hand would cost (its exposed flush, honour pungs, all pungs;
  the minimum fan; the cap), three shares where the discard could make this
  player liable (JPH-S4 fourth exposed set, JPH-S5 limit hand).  Under a
  minimum fan (JPH-P4) an opponent whose sets out leave its hand short of
  it on a discard (two suits, a chow, few valued pungs) is counted ready
  for a discard win only through a limit hand, and any other only as often
  as a ready hand of its sets out reaches the minimum on a discard
  (``MIN_FAN_REACH``, measured).  No danger
  where discard wins do not exist (推倒胡 [Q]).  The same shares price the
  risk of an added kong being robbed (C-P4), weighed against its kong money
  (TDH-K1, paid only if someone wins under TDH-K2 [Q] [D]) and its free draw.

Where 查叫 applies (XZ-E2) a ready hand is also worth, in case the wall runs out before it wins, the 查叫 it
then neither pays nor fails to collect (:func:`ready_value`), weighed by the chance of an empty wall, which
grows as the wall shrinks: late in a 血战 hand, staying ready counts for more than a risky bigger hand.

Wild tiles (C-J1) are judged as in ``efficiency`` (a wild counts as any
missing tile) and never discarded while another tile may go.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mjsim.agents.base import (
    RULE_ALL_PUNGS,
    RULE_CHOW,
    RULE_DRAGON,
    RULE_FORMS,
    RULE_FULL_FLUSH,
    RULE_HALF_FLUSH,
    RULE_MIN_FAN,
    RULE_WIND,
    Policy,
    new_actions,
    param_array,
    rules_array,
    shape_table,
)
from mjsim.agents.defensive import LIABLE_LIMIT, liability_level
from mjsim.agents.efficiency import break_ties, chow_uses, claim_hand, clamp_sets, wild_turn, wilds_of_row
from mjsim.agents.expert_danger import ready_probability, wait_shares
from mjsim.agents.expert_speed import CHAIN_MEMO, MAX_WINNERS, chain_chance, one_away_chance, ready_chance
from mjsim.agents.legal import checked, uniform_legal
from mjsim.agents.shape import (
    BIG,
    R_HELD,
    R_INFO,
    R_MASK,
    R_SH,
    R_TIE,
    S_OTH,
    S_VEC,
    WEIGHT,
    analyse,
    close_tab,
    discard_shanten,
    hand_shanten,
    held_need,
    kong_shanten,
    new_work,
    removal_shanten,
    special_after,
    special_counts,
    special_on,
)
from mjsim.agents.value import (
    MISSING_FAN_COST,
    PLAN_ALL_PUNGS,
    PLAN_CONCEALED_PUNGS,
    close_pair,
    exposure,
    honour_chance,
    plan_score,
    pung_counts,
    valued_weights,
)
from mjsim.sim.borrowing import kernel, njit_borrowed, stack_array
from mjsim.sim.constants import (
    AKONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CKONG,
    DISCARD,
    KONG,
    MELD_CHOW,
    MELD_KONG,
    MELD_PUNG,
    PASS,
    PUNG,
    RESPONSE,
    TURN,
    WIN,
)
from mjsim.sim.fastscore import N_PATTERNS, SELF_DRAW
from mjsim.sim.fastscore_sht import CTX_FLOWERS, CTX_LEN, CTX_WILDS
from mjsim.sim.observation import FAMILY_IDS, TYPICAL_SHT_TAI
from mjsim.sim.scoring import score_parts, scoring
from mjsim.sim.state import HORSE_MODES

# pay facts (the int64 array ``pay`` the kernel reads; built by pay_facts)
P_FAMILY = 0  # how hands are valued: 0 in fan, 2 ** fan a share (鸡平胡, 血战); 1 in 推倒胡 units; 2 水头 台
# (SHT-M1: every non-winner pays the total, twice to or from the dealer)
P_DISCARD_WIN = 1  # discard wins exist
P_DISCARD_PAYS_ALL = 2  # JPH-M2 包三家
P_SELF_MULT = 3  # TDH-V3 multipliers
P_DISCARD_MULT = 4
P_CAP = 5  # JPH-F4, -1 none
P_QUADS = 6  # C-P5 four equal tiles as two pairs
P_HORSES_X100 = 7  # expected winner-horse factor x 100 (TDH-M5; 100 without)
P_SMALL = 8  # TDH-V1 small / big hand units
P_BIG = 9
P_TWELVE = 10  # JPH-S4 liability in force
P_KONG_DISCARD = 11  # TDH-K1 kong money: from the discarder; from each other player on an added kong
P_KONG_ADDED = 12  # (a concealed kong that keeps the shanten is always declared: it needs no price)
P_KONG_PAID_X100 = 13  # TDH-K2 chance x 100 that kong money is paid (only if someone wins, or at once)
P_ROB_KONG = 14  # C-P4 added kongs can be robbed
P_SELF_BONUS = 15  # JPH-F3 fan for a self-draw (自摸) and for a hand with no exposed meld (门前清)
P_CONCEALED_BONUS = 16
P_SCORER = 17  # the family whose compiled scorer values a win (mjsim.sim.observation.FAMILY_IDS)
P_END_CHECKS = 18  # XZ-E2 查叫 at an empty wall: the not ready pay each ready player its best hand
SHT_CTX = 3  # where the kernel's ``ctx`` holds the 水头 scorer's context (mjsim.sim.fastscore_sht)
P_DEALER_DOUBLE = 19  # SHT-M1 payments to or from the dealer count twice
N_PAY = 20
SHT = 2  # P_FAMILY of 水头
# 水头: a deal-in costs no more than the share this player pays whoever feeds the win (SHT-M1), so its loss is
# that share for the wins the opponent would not have made anyway; half, a round guess (not measured)
SHT_DEAL_IN_SHARE = 0.5

RON_SHARE = 0.35  # share of an opponent's drawn winning tiles that reach the discards
READY_WIN_RATE = 0.12  # chance per turn that a ready opponent wins
TYPICAL_WAIT = 5.0  # winning tiles of a ready hand not yet built
LIMIT_HAND_SHARE = 0.05  # readiness left to an opponent whose sets out allow no discard win but a limit hand
# Under a minimum fan (JPH-P4), the share of ready opponents (their sets out still allowing it) whose wait, on
# the tile that completes its shape, makes a discard win of the minimum: by minimum 1..3 (3 for more) and sets
# exposed 0..4.  Measured on logged play (1,500 walls of jipinghu_5fan with each minimum, the four policies at
# one table): a concealed ready hand reaches 3 fan on a discard 3% of the time, 2 fan 68%, 1 fan 99%.
MIN_FAN_REACH = np.array(
    [
        [0.99, 0.45, 0.43, 0.41, 0.82],
        [0.68, 0.05, 0.17, 0.41, 0.86],
        [0.03, 0.06, 0.19, 0.58, 0.97],
    ]
)
LIABILITY_SELF_DRAW = 0.3  # chance a liable-fed opponent self-draws afterwards
NOT_YET_MIN = 0.4  # a plan short of the minimum fan: this much of the minimum's value per missing fan less
LIABILITY_PUNG = 0.25  # chance the fed opponent holds the pair to claim the tile
PLAN_GREED = 0.5  # the value policy's default weight of fan against shanten, for plans further out
CLAIM_EPS = 1e-9
CLAIM_DISCARDED = 0.8  # share of the other players' draws that come back as discards (to claim)
HAND_WON = 0.8  # share of hands someone wins (kong money paid only then, TDH-K2 [Q] [D])
# XZ-E2 查叫, what readiness is worth if the wall runs out: a 血战 hand reaches the empty wall with a chance of
# about exp(-tiles left / END_REACH_TILES); there END_OPPONENTS others are still in, each ready with chance
# END_OPPONENT_READY and then paid about END_OPPONENT_VALUE by a player who is not, or paying this player's own
# value when not ready themselves.  Measured on 8,000 hands of four efficiency seats (xuezhan): a quarter of the
# hands reach the empty wall; there a seat not yet won has 1.3 others still in, 80% of them ready; a ready seat
# receives 0.6 and a seat not ready pays 2.4 on average.
END_REACH_TILES = 40.0
END_OPPONENTS = 1.3
END_OPPONENT_READY = 0.8
END_OPPONENT_VALUE = 2.3
OFF_SHAPE_MARGIN = 3.0  # how far a discard's chain value may fall short of its exact one (see expert_turn)
OTHER_WIN_PAY = 0.6  # share of an opponent's win this player pays on average (self-draws, deal-ins)


@kernel
def own_melds(exposed, i, melds, MK, MT):
    """The player's melds rebuilt from its exposed tile counts (pungs, kongs, then chows low to high);
    returns how many were rebuilt."""
    n = 0
    rest = np.zeros(34, np.int64)
    for t in range(34):
        rest[t] = exposed[i, 0, t]
    for t in range(34):
        if rest[t] >= 3 and n < MK.size:
            MK[n] = MELD_KONG if rest[t] == 4 else MELD_PUNG
            MT[n] = t
            rest[t] = 0
            n += 1
    for t in range(27):
        while t % 9 <= 6 and rest[t] > 0 and rest[t + 1] > 0 and rest[t + 2] > 0 and n < MK.size:
            MK[n] = MELD_CHOW
            MT[n] = t
            rest[t] -= 1
            rest[t + 1] -= 1
            rest[t + 2] -= 1
            n += 1
    return min(n, melds) if melds > 0 else n


@njit_borrowed
def sht_context(wild, flower_groups, i, ctx):
    """The 水头 scorer's context for row ``i``: the 财神 kinds it sees and its own flowers (SHT-T1: they count in
    the base 台 of every win it may make, so a ready hand is valued on the same scale as a typical one)."""
    for g in range(3):
        ctx[SHT_CTX + CTX_FLOWERS + g] = flower_groups[i, g]
    ctx[SHT_CTX + CTX_WILDS] = -1
    ctx[SHT_CTX + CTX_WILDS + 1] = -1
    k = 0
    for t in range(34):
        if wild[i, t] and k < 2:
            ctx[SHT_CTX + CTX_WILDS + k] = t
            k += 1


@njit_borrowed
def win_points(real, wilds, win_tile, self_draw, ctx, sc, pay, MK, MT, nm, found, scratch):
    """Points the player receives for winning with ``real`` (concealed non-wild tiles incl. the winning
    tile) and ``wilds``; 0 when it is no win (or below the minimum fan).  ``sc``: the scorer's
    (``jph``, ``tdh``, ``xz``, ``tables``), :func:`~mjsim.sim.scoring.score_parts`."""
    family = pay[P_FAMILY]
    if not self_draw and pay[P_DISCARD_WIN] == 0:
        return 0.0
    # ``held`` (every concealed tile, wilds at face value) matters for TDH-H7, a ghost standing for itself
    # (which ghosts the plan holds is not known here, so that rare bonus is left out), and for the 水头 财神
    # held (SHT-T1): they are counted as copies of the first 财神 kind, three at most
    held = stack_array(34, np.int8)
    for t in range(34):
        held[t] = real[t]
    first = ctx[SHT_CTX + CTX_WILDS]
    if family == SHT and first >= 0:
        held[first] += min(wilds, 3)
    value = score_parts(
        pay[P_SCORER], ctx[0], pay[P_QUADS] != 0, sc[0], sc[1], sc[2], sc[3], sc[4], real, wilds, held, win_tile, MK,
        MT, nm, SELF_DRAW if self_draw else 0, ctx[1], ctx[2], 1, found, scratch, ctx[SHT_CTX:],
    )  # fmt: skip
    if value < 0:
        return 0.0
    if family == 0:
        share = 2.0**value
        return 3.0 * share if self_draw or pay[P_DISCARD_PAYS_ALL] else share
    if family == SHT:
        return float(value) * sht_payers(ctx[1], pay)
    units = float(value) * pay[P_HORSES_X100] / 100.0
    return 3.0 * units * pay[P_SELF_MULT] if self_draw else units * pay[P_DISCARD_MULT]


@njit_borrowed
def sht_payers(seat_offset, pay):
    """SHT-M1: how many shares the three non-winners pay a winner at ``seat_offset`` (the dealer's count twice)."""
    if not pay[P_DEALER_DOUBLE]:
        return 3.0
    return 6.0 if seat_offset == 0 else 4.0


@njit_borrowed
def fan_points(fan, mix, pay):
    """Points a plan worth ``fan`` (the ``value`` policy's measure) pays, ``mix`` of it by self-draw."""
    if pay[P_FAMILY] == SHT:  # 水头: steps over a typical total (mjsim.sim.observation.shuitou_steps)
        return TYPICAL_SHT_TAI * 2.0**fan * sht_payers(1, pay)
    if pay[P_FAMILY] == 0:
        f = fan
        if pay[P_CAP] >= 0:
            f = min(f, float(pay[P_CAP]))
        share = 2.0**f
        ron = 3.0 * share if pay[P_DISCARD_PAYS_ALL] else share
        return mix * 3.0 * share + (1.0 - mix) * ron
    units = pay[P_SMALL] + (pay[P_BIG] - pay[P_SMALL]) * min(1.0, fan)
    units *= pay[P_HORSES_X100] / 100.0
    return mix * 3.0 * units * pay[P_SELF_MULT] + (1.0 - mix) * units * pay[P_DISCARD_MULT]


@njit_borrowed
def wait_scores(H, hi, sets, wilds, vi, wild, forms, special, ctx, sc, pay, MK, MT, nm, T, W, R, found, scratch,
                kinds, points):  # fmt: skip
    """The winning kinds of the ready ``H[hi]`` (non-wild tiles; ``wilds`` wild tiles held) and what each pays,
    whatever is seen: ``kinds[:n]``, ``points[j]`` = (self-draw, discard win) points of ``kinds[j]``, and
    ``points[-1]`` those of a drawn wild (0 without one); returns ``n``.  Analyses ``W``; ``R`` is the
    scorer's scratch hand."""
    analyse(H, hi, sets, T, W)
    counts = special_counts(W)
    n = 0
    a_wild = -1
    for k in range(34):
        if wild[vi, k]:
            a_wild = k
            continue
        if H[hi, k] >= 4:
            continue
        c = k // 9
        complete = close_tab(T, W[R_INFO, c] + WEIGHT[k], W, S_OTH + c) <= wilds
        if not complete and special:
            complete = special_after(forms, counts, -1, 0, k, H[hi, k]) - wilds <= -1
        if not complete:
            continue
        for t in range(34):
            R[t] = H[hi, t]
        R[k] += 1
        s = win_points(R, wilds, k, True, ctx, sc, pay, MK, MT, nm, found, scratch)
        if s <= 0.0:
            continue
        kinds[n] = k
        points[n, 0] = s
        points[n, 1] = win_points(R, wilds, k, False, ctx, sc, pay, MK, MT, nm, found, scratch)
        n += 1
    last = points.shape[0] - 1
    points[last, 0] = 0.0
    points[last, 1] = 0.0
    if a_wild >= 0:  # a drawn wild completes any ready hand
        for t in range(34):
            R[t] = H[hi, t]
        s = win_points(R, wilds + 1, a_wild, True, ctx, sc, pay, MK, MT, nm, found, scratch)
        if s > 0.0:
            points[last, 0] = s
            points[last, 1] = win_points(R, wilds + 1, a_wild, False, ctx, sc, pay, MK, MT, nm, found, scratch)
    return n


@njit_borrowed
def seen_stats(n, kinds, points, vis, vi, wild):
    """(winning tiles unseen, sum of their self-draw points, sum of their discard-win points) of a ready hand
    whose waits :func:`wait_scores` gave, with what this player sees now."""
    total = 0.0
    v_self = 0.0
    v_ron = 0.0
    for j in range(n):
        u = max(0, 4 - vis[vi, kinds[j]])
        total += u
        v_self += u * points[j, 0]
        v_ron += u * points[j, 1]
    last = points.shape[0] - 1
    if points[last, 0] > 0.0:
        unseen_wild = 0
        for k in range(34):
            if wild[vi, k]:
                unseen_wild += max(0, 4 - vis[vi, k])
        if unseen_wild > 0:
            total += unseen_wild
            v_self += unseen_wild * points[last, 0]
            v_ron += unseen_wild * points[last, 1]
    return total, v_self, v_ron


# The waits of ready hands, remembered across decisions (a one-away or ready hand meets the same ready hands
# turn after turn, and scoring them is most of a decision's work): one cache per ruleset and process
# (:func:`wait_cache`), slots a power of two, each with the hand's key and up to WAIT_SLOT_KINDS waits.
# The key is a Zobrist hash of everything the waits' points depend on besides the ruleset: the concealed
# tiles, the melds, seat and round wind, the wild tiles held and which kinds are wild.
WAIT_SLOTS = 1 << 17
WAIT_SLOT_KINDS = 14  # thirteen orphans waits on 13; a hand with more (wilds) is scored afresh each time
Z_MELD = 34  # offsets into ZOBRIST: melds (kind x 34 + tile), seat, round wind, wilds held, wild kinds
Z_SEAT = Z_MELD + 5 * 34
Z_ROUND = Z_SEAT + 4
Z_WILDS = Z_ROUND + 4
Z_WILD_KIND = Z_WILDS + 16
ZOBRIST = np.random.default_rng(20261202).integers(1, 2**62, Z_WILD_KIND + 34, dtype=np.int64)


def new_wait_cache(slots=WAIT_SLOTS):
    """An empty wait cache of ``slots`` slots (a power of two): keys, wait counts (-1: empty), waits, points."""
    if slots < 1 or slots & (slots - 1):
        raise ValueError(f"wait cache slots must be a power of two, got {slots}")
    return (
        np.zeros(slots, np.int64),
        np.full(slots, -1, np.int8),
        np.zeros((slots, WAIT_SLOT_KINDS), np.int8),
        np.zeros((slots, WAIT_SLOT_KINDS + 1, 2), np.float64),
    )


@lru_cache(maxsize=4)
def wait_cache(ruleset):
    """This process's wait cache for ``ruleset`` (the points are the ruleset's)."""
    return new_wait_cache()


@njit_borrowed
def hand_key(H, hi, wilds, vi, wild, ctx, MK, MT, nm):
    """Zobrist key of the ready hand ``H[hi]`` with its melds, winds and wilds (see ``ZOBRIST``)."""
    key = ZOBRIST[Z_SEAT + (ctx[1] & 3)] + ZOBRIST[Z_ROUND + (ctx[2] & 3)] + ZOBRIST[Z_WILDS + min(wilds, 15)]
    for t in range(34):
        key += H[hi, t] * ZOBRIST[t]
        if wild[vi, t]:
            key += ZOBRIST[Z_WILD_KIND + t]
    for m in range(nm):
        key += ZOBRIST[Z_MELD + MK[m] * 34 + MT[m]]
    return key


@njit_borrowed
def ready_stats(H, hi, sets, wilds, vis, vi, wild, forms, special, ctx, sc, pay, MK, MT, nm, T, W, R, found, scratch,
                M):  # fmt: skip
    """(winning tiles unseen, sum of their self-draw points, sum of their discard-win points) of the ready
    ``H[hi]``, its waits scored once (``M``: the wait cache, then scratch waits and points)."""
    keys, count, kinds, points, spare_kinds, spare_points = M[0], M[1], M[2], M[3], M[4], M[5]
    key = hand_key(H, hi, wilds, vi, wild, ctx, MK, MT, nm)
    slot = (key ^ (key >> 29)) & (keys.size - 1)
    if keys[slot] == key and count[slot] >= 0:
        return seen_stats(count[slot], kinds[slot], points[slot], vis, vi, wild)
    n = wait_scores(H, hi, sets, wilds, vi, wild, forms, special, ctx, sc, pay, MK, MT, nm, T, W, R, found, scratch,
                    spare_kinds, spare_points)  # fmt: skip
    if n <= WAIT_SLOT_KINDS:
        keys[slot] = key
        count[slot] = n
        for j in range(n):
            kinds[slot, j] = spare_kinds[j]
            points[slot, j, 0] = spare_points[j, 0]
            points[slot, j, 1] = spare_points[j, 1]
        wild_row = spare_points.shape[0] - 1  # a drawn wild's points, the last row of both
        points[slot, WAIT_SLOT_KINDS, 0] = spare_points[wild_row, 0]
        points[slot, WAIT_SLOT_KINDS, 1] = spare_points[wild_row, 1]
    return seen_stats(n, spare_kinds, spare_points, vis, vi, wild)


@njit_borrowed
def ready_value(A, v_self, v_ron, E):
    """Expected points of a ready hand from :func:`ready_stats`: chance of winning x mean value, plus where
    查叫 applies (XZ-E2, ``E[78]``: chance of an empty wall x opponents still in) what staying ready is worth if
    the hand is not won: the 查叫 not paid to ready opponents and the one received from the others."""
    if A <= 0:
        return 0.0
    mix = E[2]
    chance = ready_chance(int(E[0]), A, int(E[1]), E[3])
    mean = (mix * v_self + (1.0 - mix) * v_ron) / A
    value = chance * mean
    if E[78] > 0.0:
        at_end = END_OPPONENT_READY * END_OPPONENT_VALUE + (1.0 - END_OPPONENT_READY) * v_ron / A
        # in points, while the caller scales win values by ``aggression`` (E[4]); never above the win itself,
        # so a better wait stays worth more than a worse one
        value += (1.0 - chance) * min(E[78] * at_end / max(E[4], 1.0), mean)
    return value


@njit_borrowed
def hand_value(H, hi, sets, nm, wilds, vis, vi, wild, ex, ei, X, VW, ctx, sc, pay, rules, MK, MT, E, T, W, W3, B,
               R, found, scratch, Q, M):  # fmt: skip
    """Expected points over the rest of the hand of the waiting hand ``H[hi]`` (3 * sets + 1 non-wild tiles,
    ``wilds`` wild tiles, ``nm`` melds in ``MK``/``MT``); analyses ``W`` and ``W3``, writes ``B`` rows 1-2."""
    forms = ctx[0]
    analyse(H, hi, sets, T, W)
    special = special_on(forms, sets, nm)
    counts = special_counts(W)
    need = held_need(W, sets)
    s = need - 1 - wilds
    if special:
        s = min(s, special_after(forms, counts, -1, 0, -1, 0) - wilds)
    unseen = int(E[0])
    seen = int(E[1])
    mix = E[2]
    survive = E[3]
    if s <= 0:
        A, v_self, v_ron = ready_stats(
            H, hi, sets, wilds, vis, vi, wild, forms, special, ctx, sc, pay, MK, MT, nm, T, W, R, found, scratch, M
        )
        return ready_value(A, v_self, v_ron, E)
    # draws that lower the shanten (ukeire); with depth 1 at one away, the exact two-stage value
    exact = s == 1 and E[5] >= 1.0
    if exact and E[76] != 0.0:  # asked for the chain value only (E[77]: it was)
        exact = False
        E[77] = 1.0
    n_up = 0
    ukeire = 0
    claim = 0.0  # improving tiles another player's discard brings in through a claim, per own draw
    by_suit = Q[2, 30:34]  # the ukeire in each suit and in honours (the first stage of a flush plan)
    by_suit[:] = 0
    by_pair = 0  # ... that pair or pung a held tile (of an all-pungs plan)
    for k in range(34):
        if wild[vi, k]:
            continue
        u = 4 - vis[vi, k]
        if u <= 0 or H[hi, k] >= 4:
            continue
        c = k // 9
        s14 = close_tab(T, W[R_INFO, c] + WEIGHT[k], W, S_OTH + c) - 1 - wilds
        if special:
            s14 = min(s14, special_after(forms, counts, -1, 0, k, H[hi, k]) - wilds)
        if s14 < s:
            ukeire += u
            Q[0, n_up] = k
            Q[1, n_up] = u
            n_up += 1
            by_suit[min(c, 3)] += u
            if H[hi, k] >= 1:
                by_pair += u
            if sets >= 1:
                if H[hi, k] == 2:
                    claim += 3.0 * u  # a pung, from any of the three
                elif rules[RULE_CHOW] and completes_run(H, hi, k):
                    claim += u  # a chow, from the player on the left only
    claim *= CLAIM_DISCARDED
    if ukeire == 0:
        return 0.0
    if exact:
        total = 0.0
        # the chance depends on the ready hand only through its winning tiles: one per count, for this hand
        chances = M[6]
        chances[:] = -1.0
        for e in range(n_up):
            k = Q[0, e]
            for t in range(34):
                B[1, t] = H[hi, t]
            B[1, k] += 1
            analyse(B, 1, sets, T, W3)
            for t in range(34):
                W3[R_MASK, t] = 1
            discard_shanten(B, 1, sets, special, forms, T, W3)
            n_ready = 0
            for e2 in range(W3[R_INFO, 4]):
                d = W3[R_HELD, e2]
                if W3[R_SH, d] - wilds <= 0:
                    Q[2, n_ready] = d
                    n_ready += 1
            best = 0.0
            best_a = 0.0
            for e2 in range(n_ready):
                d = Q[2, e2]
                for t in range(34):
                    B[2, t] = B[1, t]
                B[2, d] -= 1
                A, v_self, v_ron = ready_stats(
                    B, 2, sets, wilds, vis, vi, wild, forms, special, ctx, sc, pay, MK, MT, nm, T, W3, R, found,
                    scratch, M,
                )  # fmt: skip
                v = mix * v_self + (1.0 - mix) * v_ron  # rate x value
                if v > best:
                    best, best_a = v, A
            if best_a > 0:
                a = min(int(best_a), chances.size - 1)
                if chances[a] < 0.0:
                    chances[a] = one_away_chance(unseen, ukeire + claim, a, seen, mix, survive, E[8:40], E[40:72])
                total += Q[1, e] / ukeire * chances[a] * best / best_a
        return total
    # further out, a chain of ukeire-sized stages to the fastest hand (valued as the plain hand it makes), or
    # to the value policy's best plan when that pays more (a flush, all pungs, a big hand: its own stages)
    concealed = X[3] != 0
    honour_fan = held_honour_fan(H, hi, ex, ei, vis, vi, VW)
    plain = won_points(honour_fan, mix, concealed, pay, rules)
    own = int(seen * mix + 0.5)
    plain_chance = chain_chance(unseen, ukeire + claim, 1.0, s, TYPICAL_WAIT, own, seen, survive, E[8:40], E[74], M[7])
    best = plain_chance * plain
    pung_counts(H, hi, W)
    score, fan, plan = plan_score(H, hi, sets, -1, ex, ei, vis, vi, rules, PLAN_GREED, X[0], X[1] != 0, X[2] != 0,
                                  concealed, X[4] != 0, X[5] != 0, W, VW)  # fmt: skip
    min_fan = rules[RULE_MIN_FAN]
    short = min_fan > 0 and fan < min_fan
    plan_sh = 1.5 * PLAN_GREED * fan - score - (MISSING_FAN_COST * (min_fan - fan) if short else 0.0) - wilds
    stages = max(s, int(np.ceil(plan_sh - 1e-9)))
    value = won_points(fan, mix, concealed, pay, rules)
    if value > plain:
        # the plan's first stage: the ukeire that also serves it (its suit and honours for a flush, pairs and
        # pungs for all pungs); the later stages, plan_rate x a typical hand's
        if 1 <= plan <= 3:
            rate = float(by_suit[plan - 1] + by_suit[3])
        elif plan == PLAN_ALL_PUNGS or plan == PLAN_CONCEALED_PUNGS:
            rate = float(by_pair)
        else:
            rate = ukeire * E[73]
        best = max(best, chain_chance(unseen, rate, E[73], stages, TYPICAL_WAIT, own, seen, survive, E[8:40],
                                      E[74], M[7]) * value)  # fmt: skip
    # the flush, half and full, by its own expected points: the value policy's pick above weighs fan
    # linearly against shanten, so it seldom takes a full flush two fan up and a step further, where 2**fan
    # pays four times as much.  Only in the suit nearest a flush, and only when it could pay more than the
    # best so far at the plain hand's chance (a flush is never faster: more stages, fewer tiles per stage)
    suit = -1
    near = BIG
    for x in range(3):
        if (X[0] >> x) & 1:
            need = close_pair(W, S_VEC + x, S_VEC + 3, sets)
            if need < near:
                suit, near = x, need
    if suit >= 0:
        for full in range(2):
            fan = float(rules[RULE_FULL_FLUSH] if full else rules[RULE_HALF_FLUSH])
            if fan <= 0 or (full and X[1] == 0):
                continue
            if full:
                need = W[S_VEC + suit, 2 * sets + 1]
                rate = float(by_suit[suit])
            else:
                need = near
                fan += honour_fan
                rate = float(by_suit[suit] + by_suit[3])
            value = won_points(fan, mix, concealed, pay, rules)
            if value <= plain or value * plain_chance <= best or need >= BIG:
                continue
            stages = max(s, need - 1 - wilds)
            best = max(best, chain_chance(unseen, rate, E[73], stages, TYPICAL_WAIT, own, seen, survive, E[8:40],
                                          E[74], M[7]) * value)  # fmt: skip
    return best


@njit_borrowed
def won_points(fan, mix, concealed, pay, rules):
    """:func:`plan_points` of a hand worth ``fan`` before the win's own bonuses, with them: 门前清 while no
    meld is exposed and one fan more for a self-draw (JPH-F3, where the ruleset has them)."""
    if pay[P_FAMILY] != 0:
        return plan_points(fan, mix, pay, rules)
    f = fan + (pay[P_CONCEALED_BONUS] if concealed else 0)
    return mix * plan_points(f + pay[P_SELF_BONUS], 1.0, pay, rules) + (1.0 - mix) * plan_points(f, 0.0, pay, rules)


@njit_borrowed
def completes_run(H, hi, k):
    """Whether kind ``k`` completes a run with two tiles ``H[hi]`` holds (a chow could claim it)."""
    for action in (CHOW_LOW, CHOW_MID, CHOW_HIGH):
        a, b = chow_uses(action, k)
        if a >= 0 and H[hi, a] > 0 and H[hi, b] > 0:
            return True
    return False


@njit_borrowed
def held_honour_fan(H, hi, ex, ei, vis, vi, VW):
    """Expected bonus fan of the valued honours exposed as a pung or held as a pair or more (:func:`honour_chance`).

    A lone valued honour is left out: making it a pung takes two of its last copies and two of the hand's
    places, which the fast hand's stages do not pay for (the ``value`` policy's plans do, at their own
    rate).  Counting it made the expert keep lone dragons over suited tiles, whose later draws connect.
    """
    total = 0.0
    for v in range(27, 34):
        if VW[v] > 0 and (H[hi, v] >= 2 or ex[ei, 0, v] >= 3):
            total += VW[v] * honour_chance(H[hi, v], ex[ei, 0, v], 4 - vis[vi, v])
    return total


@njit_borrowed
def plan_points(fan, mix, pay, rules):
    """:func:`fan_points` of a plan worth ``fan``; short of a minimum fan (JPH-P4) it pays only in part."""
    min_fan = rules[RULE_MIN_FAN]
    if min_fan > 0 and fan < min_fan:
        return fan_points(float(min_fan), mix, pay) * max(0.0, 1.0 - NOT_YET_MIN * (min_fan - fan))
    return fan_points(fan, mix, pay)


@njit_borrowed
def opponent_loss(i, r, exposed, meld_count, rules, pay):
    """Points this player pays on dealing in to seat ``r``: its likely hand value from what it shows."""
    melds = meld_count[i, r]
    suit = -1
    one_suit = melds >= 2
    pungs = 0
    dragons = 0
    for t in range(34):
        n = exposed[i, r, t]
        if n == 0:
            continue
        if t < 27:
            if suit >= 0 and t // 9 != suit:
                one_suit = False
            suit = t // 9
        if n >= 3:
            pungs += 1
            if t >= 31:
                dragons += 1
    one_suit = one_suit and suit >= 0
    if pay[P_FAMILY] == SHT:
        steps = rules[RULE_HALF_FLUSH] if one_suit else 0
        return SHT_DEAL_IN_SHARE * TYPICAL_SHT_TAI * 2.0**steps * sht_payers(1, pay) / 3.0
    if pay[P_FAMILY] == 0:
        fan = max(1.0, float(rules[RULE_MIN_FAN]))
        if one_suit:
            fan = max(fan, float(rules[RULE_HALF_FLUSH]))
        fan += dragons * rules[RULE_DRAGON]
        if melds >= 2 and pungs >= melds:
            fan += 0.5 * rules[RULE_ALL_PUNGS]
        if pay[P_CAP] >= 0:
            fan = min(fan, float(pay[P_CAP]))
        share = 2.0**fan
        return 3.0 * share if pay[P_DISCARD_PAYS_ALL] else share
    units = pay[P_BIG] if one_suit else pay[P_SMALL]
    return units * pay[P_DISCARD_MULT] * pay[P_HORSES_X100] / 100.0


@njit_borrowed
def may_win_on_discard(i, r, exposed, meld_count, rules):
    """Whether seat ``r``'s exposed sets still allow a discard win of the minimum fan (JPH-P4): with sets out
    in two suits (no flush), a chow out (no all pungs) and too few valued pungs, a ready hand of it has less
    than the minimum without a self-draw's bonus, and only a limit hand could take this player's discard."""
    min_fan = rules[RULE_MIN_FAN]
    if min_fan <= 0 or meld_count[i, r] == 0:
        return True
    suit = -1
    one_suit = True
    honours = False
    chow = False
    valued = 0
    for t in range(34):
        n = exposed[i, r, t]
        if n == 0:
            continue
        if t >= 27:
            honours = True
            if n >= 3:
                valued += rules[RULE_DRAGON] if t >= 31 else rules[RULE_WIND]  # a wind pung: if it is the seat's
            continue
        if suit >= 0 and t // 9 != suit:
            one_suit = False
        suit = t // 9
        if n == 1 or n == 2:  # a chow's tile (a pung or kong shows three or four)
            chow = True
    fan = 1 + valued  # 平胡 or a chicken hand's one, plus the valued pungs in view
    if one_suit:
        fan += rules[RULE_HALF_FLUSH] if honours else max(rules[RULE_HALF_FLUSH], rules[RULE_FULL_FLUSH])
    if not chow:
        fan += rules[RULE_ALL_PUNGS]
    return fan >= min_fan


@njit_borrowed
def danger_table(i, meld_count, exposed, discards, visible, wall_left, rules, pay, D, S, RB):
    """``D[t]`` = expected points lost by discarding kind ``t`` now, ``RB[t]`` by an added kong of ``t``
    (robbed, the konger pays the three shares of a self-draw: JPH-S3, TDH-S1); returns the summed chance
    per turn that an opponent wins (for the survival weights) and the mean loss when one does."""
    hazard = 0.0
    mean_loss = 0.0
    for t in range(34):
        D[t] = 0.0
        RB[t] = 0.0
    worst = 0.0
    # robbed: three shares, paid as a self-draw (鸡平胡: one fan more for 自摸)
    if pay[P_FAMILY] == 0:
        rob_factor = 6.0
    elif pay[P_FAMILY] == SHT:
        rob_factor = 1.0  # SHT-M1: a robbed kong is paid like any win
    else:
        rob_factor = 3.0 * pay[P_SELF_MULT] / max(1, pay[P_DISCARD_MULT])
    for r in range(1, 4):
        n_discards = 0
        for t in range(34):
            n_discards += discards[i, r, t]
        ready = ready_probability(n_discards, meld_count[i, r])
        on_discard = ready  # ready and able to take a discard (a robbed kong counts as a self-draw: JPH-S3)
        if not may_win_on_discard(i, r, exposed, meld_count, rules):
            on_discard *= LIMIT_HAND_SHARE
        elif rules[RULE_MIN_FAN] > 0:
            on_discard *= MIN_FAN_REACH[min(rules[RULE_MIN_FAN], 3) - 1, min(meld_count[i, r], 4)]
        # the chance to win first grows as the hand goes on: take it at the middle of what is left
        later = ready_probability(n_discards + wall_left[i] // 8, meld_count[i, r])
        hazard += later * READY_WIN_RATE
        loss = opponent_loss(i, r, exposed, meld_count, rules, pay)
        mean_loss += loss / 3.0
        if pay[P_DISCARD_WIN] == 0 and pay[P_ROB_KONG] == 0:
            continue
        wait_shares(i, r, visible, discards, exposed, meld_count[i, r], S)
        if pay[P_ROB_KONG]:
            for t in range(34):
                RB[t] += ready * S[t] * loss * rob_factor
        if pay[P_DISCARD_WIN] == 0:
            continue
        worst = max(worst, loss)
        for t in range(34):
            D[t] += on_discard * S[t] * loss
    if pay[P_FAMILY] == 0:  # 包: feeding a fourth exposed set or a limit hand makes this player pay every share
        for t in range(34):
            level = liability_level(i, t, meld_count, exposed, visible, pay[P_TWELVE] != 0)
            if level > 0:
                top = 2.0 ** pay[P_CAP] if (level == LIABLE_LIMIT and pay[P_CAP] >= 0) else worst
                D[t] += LIABILITY_PUNG * LIABILITY_SELF_DRAW * 2.0 * top
    return hazard, mean_loss


@njit_borrowed
def row_outlook(i, wall_left, visible, hazard, pay, E):
    """``E[0..3]`` = unseen tiles, tiles this player will see, the self-draw share of them, survival per tile;
    ``E[7]`` survival per turn; ``E[78]`` the 查叫 weight of readiness (:func:`ready_value`)."""
    unseen = 0
    for t in range(34):
        unseen += max(0, 4 - visible[i, t])
    own = max(0, int(wall_left[i]) // 4)
    others = min(int(wall_left[i]) - own, 3 * own + 2) if pay[P_DISCARD_WIN] else 0
    seen = own + int(RON_SHARE * max(0, others) + 0.5)
    seen = min(seen, unseen)
    E[0] = unseen
    E[1] = seen
    E[2] = own / seen if seen > 0 else 1.0
    E[78] = END_OPPONENTS * np.exp(-wall_left[i] / END_REACH_TILES) if pay[P_END_CHECKS] else 0.0
    per_turn = max(0.05, 1.0 - hazard)
    E[7] = per_turn
    E[3] = per_turn ** (own / seen) if seen > 0 else 1.0


@njit_borrowed
def expert_turn(i, hand, hi, sets, nm, wilds, legal, rng, vis, wild, ex, X, VW, ctx, sc, pay, rules, MK, MT, E, D, RB,
                T, W, W2, W3, B, R, found, scratch, Q, V, M):  # fmt: skip
    """Action on a TURN row without a legal win (``hand[hi]``: the hand judged, without its wilds)."""
    forms = ctx[0]
    analyse(hand, hi, sets, T, W)
    for t in range(34):
        W[R_MASK, t] = 1 if legal[i, DISCARD + t] and hand[hi, t] > 0 else 0
    special = special_on(forms, sets, nm)
    best_sh = discard_shanten(hand, hi, sets, special, forms, T, W)
    if best_sh >= BIG:
        return uniform_legal(legal, i, rng)
    # a concealed kong that keeps the shanten is a free draw (and kong money) at no risk
    for t in range(34):
        if legal[i, CKONG + t] and hand[hi, t] == 4 and sets >= 1 and kong_shanten(sets, t, T, W) <= best_sh:
            return CKONG + t
    top = -np.inf
    top_ev = 0.0
    for t in range(34):
        V[t] = -np.inf
    # the discards that keep the best shape first, then the others: one of those is valued by the exact
    # one-away lookahead only where its cheaper chain value, times OFF_SHAPE_MARGIN, could beat the best so
    # far (breaking a ready hand would otherwise cost a full lookahead for each of its thirteen discards)
    for off_shape in range(2):
        for t in range(34):
            if W[R_MASK, t] == 0 or (W[R_SH, t] > best_sh) != (off_shape == 1):
                continue
            for k in range(34):
                B[0, k] = hand[hi, k]
            B[0, t] -= 1
            E[76] = off_shape
            E[77] = 0.0
            ev = hand_value(B, 0, sets, nm, wilds, vis, i, wild, ex, i, X, VW, ctx, sc, pay, rules, MK, MT, E, T, W2,
                            W3, B, R, found, scratch, Q, M)  # fmt: skip
            if E[77] != 0.0 and pushed(E[4] * OFF_SHAPE_MARGIN * ev, E) - D[t] >= top:
                E[76] = 0.0
                ev = hand_value(B, 0, sets, nm, wilds, vis, i, wild, ex, i, X, VW, ctx, sc, pay, rules, MK, MT, E,
                                T, W2, W3, B, R, found, scratch, Q, M)  # fmt: skip
            V[t] = pushed(E[4] * ev, E) - D[t]
            top = max(top, V[t])
            top_ev = max(top_ev, ev)
    E[76] = 0.0
    # an added kong that keeps the shanten: kong money and one more draw (about 1 / own draws left of the
    # hand's value) against the chance of being robbed
    free_draw = E[4] * top_ev / max(1.0, E[2] * E[1])
    money = pay[P_KONG_ADDED] * 3.0 * pay[P_KONG_PAID_X100] / 100.0
    for t in range(34):
        if legal[i, AKONG + t] and hand[hi, t] >= 1 and removal_shanten(sets, t, T, W) <= best_sh:
            if money + free_draw >= RB[t]:
                return AKONG + t
    for t in range(34):
        W[R_TIE, t] = 1 if W[R_MASK, t] and V[t] >= top - 1e-9 * max(1.0, abs(top)) else 0
    return DISCARD + break_ties(i, hand, hi, vis, i, sets, special, forms, rng, T, W)


@njit_borrowed
def pushed(worth, E):
    """What a hand worth ``worth`` (aggression x expected win points) is worth when the player may still fold:
    pushing on costs the risk of every later discard (``E[75]``: one random unseen tile's danger per own draw
    left), folding keeps safe tiles and costs about nothing more, so the better of the two."""
    return max(worth - E[75], 0.0)


@njit_borrowed
def claim_meld(action, t):
    """(meld kind, meld tile) of claiming ``t`` with ``action``."""
    if action == KONG:
        return MELD_KONG, t
    if action == PUNG:
        return MELD_PUNG, t
    a, _ = chow_uses(action, t)
    return MELD_CHOW, min(a, t)


@njit_borrowed
def expert_response(i, hand, hi, sets, nm, wilds, legal, t, vis, wild, ex, X, Y, VW, ctx, sc, pay, rules, MK, MT, E,
                    D, T, W, W2, W3, B, C, R, found, scratch, Q, M):  # fmt: skip
    """Action on a RESPONSE/ROB row (``hand[hi]``: the hand judged, without its wilds)."""
    claims = legal[i, PUNG] or legal[i, KONG] or legal[i, CHOW_LOW] or legal[i, CHOW_MID] or legal[i, CHOW_HIGH]
    if not legal[i, WIN] and not claims:
        return PASS
    shown = vis[i, t]
    if legal[i, WIN]:
        vis[i, t] = 4  # a passed win shuts out that kind's discard wins (漏胡 / 过手): wait without its copies
    wait = hand_value(hand, hi, sets, nm, wilds, vis, i, wild, ex, i, X, VW, ctx, sc, pay, rules, MK, MT, E, T, W,
                      W3, B, R, found, scratch, Q, M)  # fmt: skip
    vis[i, t] = shown
    if legal[i, WIN]:
        for k in range(34):
            R[k] = hand[hi, k]
        w_now = wilds
        if wild[i, t]:
            w_now += 1
        else:
            R[t] += 1
        now = win_points(R, w_now, t, False, ctx, sc, pay, MK, MT, nm, found, scratch)
        # passing the win pays only when waiting is worth more (推倒胡 [D]: a self-draw pays six times) than
        # it costs: another player may win first (this player pays a share) and every discard meanwhile risks
        # dealing in
        own = E[2] * E[1]
        cost = (1.0 - E[7] ** own) * E[6] * OTHER_WIN_PAY + own * E[72]
        if now <= 0.0 or E[4] * now >= E[4] * wait - cost:
            return WIN
        return PASS
    # the discard this player would make next anyway, if it passes
    later = np.inf
    for k in range(34):
        if hand[hi, k] > 0:
            later = min(later, D[k])
    if later == np.inf:
        later = 0.0
    best = pushed(E[4] * wait, E) - later
    choice = PASS
    current = BIG  # the hand's shanten now, once a chow needs it
    for action in (KONG, PUNG, CHOW_LOW, CHOW_MID, CHOW_HIGH):
        if not legal[i, action] or sets < 1 or not claim_hand(hand, hi, action, t, C):
            continue
        kind, tile = claim_meld(action, t)
        if nm >= MK.size:
            continue
        if action != KONG:
            # a claim is valued by the discards that keep its hand's best shape; another discard gives up the
            # claim's progress, worth no more than a fold (pushed(0) less its danger) — except under a minimum
            # fan (JPH-P4), where a discard off the best shape may serve the fan the hand still needs
            analyse(C, 0, sets - 1, T, W2)
            for d in range(34):
                W2[R_MASK, d] = 1 if C[0, d] > 0 else 0
            keep = discard_shanten(C, 0, sets - 1, False, ctx[0], T, W2)
            if kind == MELD_CHOW:
                # a chow that brings the hand no nearer ready only exposes it (a chow adds no fan of its own)
                if current == BIG:
                    current = hand_shanten(hand, hi, sets, T, W3)
                    if special_on(ctx[0], sets, nm):
                        current = min(current, special_after(ctx[0], special_counts(W3), -1, 0, -1, 0))
                if keep >= current:
                    continue
        MK[nm] = kind
        MT[nm] = tile
        for k in range(X.size):
            Y[k] = X[k]
        Y[3] = 0  # no longer concealed
        Y[4] = 0
        if t < 27:
            Y[0] &= 1 << (t // 9)
            Y[5] = 0
        else:
            Y[1] = 0
        if kind == MELD_CHOW:
            Y[2] = 0
        if action == KONG:
            ev = pushed(E[4] * hand_value(C, 0, sets - 1, nm + 1, wilds, vis, i, wild, ex, i, Y, VW, ctx, sc, pay,
                                          rules, MK, MT, E, T, W, W3, B, R, found, scratch, Q, M), E)  # fmt: skip
            ev += pay[P_KONG_DISCARD] * pay[P_KONG_PAID_X100] / 100.0 - later
        else:
            ev = -np.inf
            for d in range(34):
                if C[0, d] == 0:
                    continue
                if W2[R_SH, d] > keep and rules[RULE_MIN_FAN] == 0:
                    ev = max(ev, -D[d])
                    continue
                for k in range(34):
                    B[0, k] = C[0, k]
                B[0, d] -= 1
                v = hand_value(B, 0, sets - 1, nm + 1, wilds, vis, i, wild, ex, i, Y, VW, ctx, sc, pay, rules, MK,
                               MT, E, T, W, W3, B, R, found, scratch, Q, M)  # fmt: skip
                ev = max(ev, pushed(E[4] * v, E) - D[d])
        if ev > best + CLAIM_EPS:
            choice, best = action, ev
    return choice


@kernel
def expert_kernel(hand, sets_needed, meld_count, exposed, discards, visible, wall_left, seat_offset, round_wind,
                  decision, target, wild, any_wild, flower_groups, legal, rng, params, rules, pay, sc, T, cache,
                  out):  # fmt: skip
    """Fill ``out`` with the expert action of every row (``params``: aggression, depth, plan_rate, first_cap,
    caution; ``cache``: the ruleset's wait cache, :func:`wait_cache`)."""
    W = new_work()
    W2 = new_work()
    W3 = new_work()
    B = np.zeros((3, 34), np.int8)
    C = np.zeros((2, 34), np.int8)
    G = np.zeros((1, 34), hand.dtype)
    R = np.zeros(34, np.int8)
    found = np.zeros(N_PATTERNS, np.int8)
    scratch = np.zeros(34, np.int64)
    Q = np.zeros((3, 34), np.int64)
    MK = np.zeros(8, np.int8)
    MT = np.zeros(8, np.int8)
    VW = np.zeros(34, np.float64)
    D = np.zeros(34, np.float64)
    RB = np.zeros(34, np.float64)
    S = np.zeros(34, np.float64)
    V = np.zeros(34, np.float64)
    E = np.zeros(79, np.float64)  # scalars 0..7 (see row_outlook), 8..71 speed scratch, 72..78
    X = np.zeros(6, np.int64)
    Y = np.zeros(6, np.int64)
    ctx = np.zeros(SHT_CTX + CTX_LEN, np.int64)  # forms, seat offset, round wind, then the 水头 scorer's context
    parts = (sc.jph, sc.tdh, sc.xz, sc.sht, sc.tables)  # the scorer's tables as the borrowing helpers take them
    # M: the wait cache (keys, counts, waits, points), scratch waits and points of one ready hand (a row per
    # kind and one for a drawn wild), the one-away chances per winning-tile count and the chain memo
    M = (
        cache[0],
        cache[1],
        cache[2],
        cache[3],
        np.zeros(34, np.int8),
        np.zeros((35, 2), np.float64),
        np.zeros(MAX_WINNERS + 1, np.float64),
        np.zeros(CHAIN_MEMO, np.float64),
    )
    E[4] = max(params[0], 0.0)
    E[5] = params[1]
    E[73] = params[2]  # plan_rate
    E[74] = params[3]  # first_cap
    caution = params[4]
    ctx[0] = rules[RULE_FORMS]
    for i in range(out.size):
        sets = clamp_sets(sets_needed, i)
        melds = meld_count[i, 0]
        ctx[1] = seat_offset[i]
        ctx[2] = round_wind[i]
        sht_context(wild, flower_groups, i, ctx)
        nm = own_melds(exposed, i, melds, MK, MT)
        valued_weights(seat_offset[i], round_wind[i], rules, VW)
        flush_bits, full_ok, pungs_ok, hidden, honours_ok = exposure(exposed, i, melds)
        X[0] = flush_bits
        X[1] = full_ok
        X[2] = pungs_ok
        X[3] = melds == 0
        X[4] = hidden
        X[5] = honours_ok
        wilds = any_wild and wilds_of_row(hand, i, wild, visible, G, W)
        n_wild = 0
        for k in range(24, 32):  # the wild facts the shape helpers read, for the nested analyses too
            W2[R_INFO, k] = W[R_INFO, k]
            W3[R_INFO, k] = W[R_INFO, k]
        if wilds:
            n_wild = W[R_INFO, 24]
            for t in range(34):
                if wild[i, t]:
                    VW[t] = 0.0  # a wild is no honour of its own (C-J1)
        hazard, E[6] = danger_table(i, meld_count, exposed, discards, visible, wall_left, rules, pay, D, S, RB)
        row_outlook(i, wall_left, visible, hazard, pay, E)
        drawn = 0.0  # E[72]: the danger of discarding a random unseen tile (the risk of each later discard)
        weight = 0.0
        for t in range(34):
            u = max(0, 4 - visible[i, t])
            drawn += u * D[t]
            weight += u
        E[72] = drawn / weight if weight > 0 else 0.0
        E[75] = caution * E[2] * E[1] * E[72]  # pushing on: caution x one such discard per own draw left
        a = -1
        if decision[i] == TURN:
            if legal[i, WIN]:
                a = WIN  # a self-draw: the best-paid win there is, now
            elif wilds:
                a = wild_turn(i, G, wild, legal, rng)
                if a < 0:
                    a = expert_turn(i, G, 0, sets, nm, n_wild, legal, rng, visible, wild, exposed, X, VW, ctx, parts,
                                    pay, rules, MK, MT, E, D, RB, T, W, W2, W3, B, R, found, scratch, Q, V, M)  # fmt: skip
            else:
                a = expert_turn(i, hand, i, sets, nm, 0, legal, rng, visible, wild, exposed, X, VW, ctx, parts, pay,
                                rules, MK, MT, E, D, RB, T, W, W2, W3, B, R, found, scratch, Q, V, M)  # fmt: skip
        elif decision[i] == RESPONSE:
            if wilds:
                a = expert_response(i, G, 0, sets, nm, n_wild, legal, target[i], visible, wild, exposed, X, Y, VW, ctx,
                                    parts, pay, rules, MK, MT, E, D, T, W, W2, W3, B, C, R, found, scratch, Q, M)  # fmt: skip
            else:
                a = expert_response(i, hand, i, sets, nm, 0, legal, target[i], visible, wild, exposed, X, Y, VW, ctx, parts,
                                    pay, rules, MK, MT, E, D, T, W, W2, W3, B, C, R, found, scratch, Q, M)  # fmt: skip
        else:
            a = WIN if legal[i, WIN] else PASS  # robbing a kong is paid as a self-draw
        out[i] = checked(legal, i, a, rng)


@lru_cache(maxsize=16)
def pay_facts(ruleset) -> np.ndarray:
    """What the ruleset pays, as the int64 ``pay`` array the kernel reads (``P_*`` slots)."""
    pay = np.zeros(N_PAY, np.int64)
    pay[P_FAMILY] = SHT if ruleset.family == "shuitou" else (0 if ruleset.hand_value == "fan" else 1)
    pay[P_DEALER_DOUBLE] = ruleset.family == "shuitou" and ruleset.dealer_pays_double
    pay[P_SCORER] = FAMILY_IDS[ruleset.family]
    pay[P_DISCARD_WIN] = ruleset.discard_win
    pay[P_DISCARD_PAYS_ALL] = ruleset.family == "jipinghu" and ruleset.discard_pays_all
    pay[P_SELF_MULT] = ruleset.self_draw_multiplier
    pay[P_DISCARD_MULT] = ruleset.discard_multiplier
    pay[P_CAP] = -1 if ruleset.cap is None else ruleset.cap
    pay[P_QUADS] = ruleset.seven_pairs_quads
    horses = 0.0
    if (
        HORSE_MODES.index(ruleset.horses) == 2
    ):  # TDH-M5: each horse on the winner's seat (about one in four) adds a share
        horses = (ruleset.winner_horses_with_ghost + ruleset.winner_horses_without_ghost) / 2 / 4
    pay[P_HORSES_X100] = round(100 * (1 + horses))
    pay[P_SMALL] = ruleset.small_hand_value
    pay[P_BIG] = ruleset.big_hand_value if ruleset.big_hands else ruleset.small_hand_value
    pay[P_TWELVE] = ruleset.family == "jipinghu" and ruleset.liability_twelve_tiles
    pay[P_KONG_DISCARD] = ruleset.kong_pay_discard
    pay[P_KONG_ADDED] = ruleset.kong_pay_added
    pay[P_KONG_PAID_X100] = 100 if ruleset.kong_settle == "immediate" else round(100 * HAND_WON)
    pay[P_ROB_KONG] = ruleset.rob_kong
    pay[P_SELF_BONUS] = ruleset.family == "jipinghu" and "self_draw" in ruleset.bonuses
    pay[P_CONCEALED_BONUS] = ruleset.family == "jipinghu" and "concealed" in ruleset.bonuses
    pay[P_END_CHECKS] = ruleset.end_checks
    pay.flags.writeable = False
    return pay


@lru_cache(maxsize=16)
def compiled_scoring(ruleset):
    """The family's compiled scorer tables for ``ruleset`` (built once per process)."""
    return scoring(ruleset)


def act(obs, legal, rng, params, rules):
    """Expert actions for the rows of ``obs`` (``rules.ruleset`` gives the scorer)."""
    ruleset = getattr(rules, "ruleset", None)
    if ruleset is None:
        raise ValueError("the expert policy needs PolicyRules.ruleset: build the rules with policy_rules(ruleset)")
    out = new_actions(obs)
    expert_kernel(
        obs.hand, obs.sets_needed, obs.meld_count, obs.exposed, obs.discards, obs.visible, obs.wall_left,
        obs.seat_offset, obs.round_wind, obs.decision, obs.target, obs.wild, bool(obs.wild.any()), obs.flower_groups,
        legal, rng,
        param_array(params, PARAMS, "expert"), rules_array(rules), pay_facts(ruleset), compiled_scoring(ruleset),
        shape_table(), wait_cache(ruleset), out,
    )  # fmt: skip
    return out


# Chosen by A/B runs of one expert seat against three of one other policy (4 cyclic seatings on the same
# walls): against efficiency on 20,000 鸡平胡 walls the expert's EV per hand was +0.035 +- 0.031 with
# plan_rate 0.8 (+0.035 at 0.5, -0.10 at 1.0, where every plan's first stage equals the fast hand's),
# +0.042 with aggression 8; against value on jipinghu_5fan_min3 (5,000 walls) plan_rate 0.3 lost 2.7 points a
# hand, 0.8 won +0.3, and on jipinghu_5fan aggression 8 beat value by +0.82 +- 0.20.
# caution 0.3 / 0.6 cut the expert's deal-ins per hand from 0.186 to 0.183 / 0.178 on those 鸡平胡 walls but
# lowered its EV (+0.032, -0.001); on jipinghu_5fan caution 1 cut them from 0.197 to 0.175 at +0.185 against
# +0.258 — so it is off by default, a player type to seat (the default panel's expert-cautious).
# Counting a deal-in as losing the hand as well as the payment ((1 - deal-in chance) x the hand's worth) was
# tried with the refitted danger and dropped: four experts on jipinghu_5fan_min3 drew 24.2% of hands against
# 17.6% without it, at the balanced table the expert fell 0.8 points a hand behind value there (0.7 ahead
# without), and against efficiency on 5,000 鸡平胡 walls it had +0.011 against +0.036 without.
DEFAULTS = {"aggression": 8.0, "depth": 1.0, "plan_rate": 0.8, "first_cap": 20.0, "caution": 0.0}
PARAMS = tuple(DEFAULTS)
POLICY = Policy(
    name="expert",
    act=act,
    default_params=DEFAULTS,
    bounds={
        "aggression": (0.0, 16.0),
        "depth": (0.0, 1.0),
        "plan_rate": (0.0, 1.0),
        "first_cap": (0.5, 20.0),
        "caution": (0.0, 4.0),
    },
    doc=__doc__.split("\n\n")[0],
    # every option the valuation reads: the scorer's tables and switches, what is paid and how, the liabilities
    reads=frozenset(
        {
            "fan",
            "limit_fan",
            "xz_fan",
            "bonuses",
            "big_hands",
            "hand_value",
            "min_fan",
            "cap",
            "kong_flower",
            "robbed_kong_bonus",
            "triple_win_raise",
            "discard_pays_all",
            "discard_win",
            "win_forms",
            "seven_pairs_quads",
            "liability_twelve_tiles",
            "liability_limit_hands",
            "small_hand_value",
            "big_hand_value",
            "self_draw_multiplier",
            "discard_multiplier",
            "no_ghost_multiplier",
            "kong_flower_multiplier",
            "full_ghosts",
            "full_ghosts_value",
            "earthly_rule",
            "max_suits",
            "horses",
            "winner_horses_with_ghost",
            "winner_horses_without_ghost",
            "kong_pay_discard",
            "end_checks",
            "double_from_tai",
            "double_factor",
            "dealer_pays_double",
        }
    ),  # fmt: skip
)
