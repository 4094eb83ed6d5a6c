"""Settlement: a finished hand's money as named transfers (C-M1), per ruleset family.

``settle`` fills ``state.transfers[b, component, payer, payee]`` (points,
base 1) for table ``b``; nets are derived from it, so they always sum to
zero and the components always add up to the net.
"""

from __future__ import annotations

import numpy as np

from mjsim.sim.borrowing import inline_overload, njit_borrowed, stack_array
from mjsim.sim.constants import (
    KONG_ADDED,
    KONG_FROM_DISCARD,
    MELD_CHOW,
    MELD_CKONG,
    WIN_DISCARD,
    WIN_KONG_REPLACEMENT,
    WIN_ROBBED_KONG,
)
from mjsim.sim.families import JIPINGHU, SHUITOU, TUIDAOHU, XUEZHAN, compiles_for
from mjsim.sim.fastscore import AFTER_KONG, I_FULL_GHOSTS
from mjsim.sim.fastscore_sht import I_FOUR_WINDS
from mjsim.sim.state import (
    C_BASE,
    C_HORSE,
    C_KONG,
    C_LIABILITY,
    C_PENALTY,
    C_WIN,
    END_FLOWER_PIG,
    END_NOT_READY,
    END_READY,
    MAX_KONGS,
    XZ_CALL_TRANSFER,
    XZ_FLOWER_PIG,
    XZ_NOT_READY,
    XZ_TAX_REFUND,
)


@njit_borrowed
def horse_seat(p, tile, dealer):
    """The absolute seat a horse tile points at: TDH-M3 (dealer_offset) or TDH-M5 (ghost_edition), from the dealer."""
    if tile < 27:
        offset = (tile % 9) % 4  # ranks 1 5 9 -> 0, 2 6 -> 1, 3 7 -> 2, 4 8 -> 3
    elif p.horse_mapping == 0:
        order = (0, 1, 2, 3, 6, 5, 4)  # 东南西北 then 中发白 count 1..7 (中 7z 5th, 白 5z 7th)
        offset = order[tile - 27] % 4
    else:
        order = (0, 1, 2, 3, 3, 2, 1)  # 东 dealer, 南中 下家, 西发 对家, 北白 上家
        offset = order[tile - 27]
    return (dealer + offset) % 4


@njit_borrowed
def _pay(st, b, component, payer, payee, amount):
    st.transfers[b, component, payer, payee] += amount


@njit_borrowed
def _pay_xz(st, b, component, rule, payer, payee, amount):
    """A transfer that is also one of the XZ rules the logs break out (``xz_moves``)."""
    st.transfers[b, component, payer, payee] += amount
    st.xz_moves[b, rule, payee] += amount
    st.xz_moves[b, rule, payer] -= amount


@njit_borrowed
def _all_three_by(st, b, liable, winner, points):
    """C-M3: the liable player pays every share; its own share is win money, the others' liability money."""
    _pay(st, b, C_WIN, liable, winner, points)
    _pay(st, b, C_LIABILITY, liable, winner, 2 * points)
    if st.liable[b] < 0:
        st.liable[b] = liable


@njit_borrowed
def settle_jipinghu(st, p, b):
    """JPH-M1..M3 payments with the JPH-S2..S4 liabilities; points = 2 ** fan (C-M2)."""
    for i in range(st.n_winners[b]):
        w = st.winners[b, i]
        kind = st.win_kind[b, i]
        points = np.int64(1) << st.win_fan[b, i]
        d = st.discarder[b]
        if kind == WIN_DISCARD:
            # JPH-M2: the discarder pays one share (three with 包三家); JPH-S1 is this once per winner,
            # three shares each with triple_win_pays_all (only a discard makes a triple win)
            pays_all = p.discard_pays_all or (p.triple_win_pays_all and st.n_winners[b] == 3)
            _pay(st, b, C_WIN, d, w, 3 * points if pays_all else points)
            continue
        liable = _liable_seat(st, p, b, w, i, kind)
        if liable >= 0 and liable != w:
            _all_three_by(st, b, liable, w, points)
        else:
            for payer in range(4):  # JPH-M1: each of the three others pays
                if payer != w:
                    _pay(st, b, C_WIN, payer, w, points)


@njit_borrowed
def _liable_before(st, p, b, d, w, when, across_rules):
    """包先不包后: seat ``d`` became liable for a player other than ``w`` before discard count ``when``
    (by JPH-S4, and with ``across_rules`` by JPH-S5 too; only rules switched on make anyone liable)."""
    for other in range(4):
        if other == w:
            continue
        if p.liability_twelve_tiles and st.twelve_feeder[b, other] == d and st.twelve_turn[b, other] < when:
            return True
        if (
            across_rules
            and p.liability_limit_hands
            and st.limit_feeder[b, other] == d
            and st.limit_turn[b, other] < when
        ):
            return True
    return False


@njit_borrowed
def self_draw_liable(st, p, b, w):
    """JPH-S4 / JPH-S5 包自摸: the seat liable for seat ``w``'s self-drawn win, from the logged facts, or -1.

    包先不包后 (``liability_first_only``): a feeder is liable only for the
    first player it made it liable for, counted within JPH-S4, or across
    JPH-S4 and JPH-S5 with ``liability_once_across_rules`` (JPH-S5a).  Two
    feeders for one win (JPH-S5a ``liability_precedence``): the earlier
    trigger pays, or the JPH-S5 feeder.
    """
    across = p.liability_once_across_rules
    twelve = -1
    d = st.twelve_feeder[b, w]
    if p.liability_twelve_tiles and d >= 0:
        if not (p.liability_first_only and _liable_before(st, p, b, d, w, st.twelve_turn[b, w], across)):
            twelve = d
    limit = -1
    d = st.limit_feeder[b, w]
    if p.liability_limit_hands and d >= 0:
        if not (p.liability_first_only and across and _liable_before(st, p, b, d, w, st.limit_turn[b, w], True)):
            limit = d
    if twelve < 0 or limit < 0:
        return max(twelve, limit)
    if p.liability_limit_precedence or st.limit_turn[b, w] < st.twelve_turn[b, w]:
        return limit
    return twelve


@njit_borrowed
def _liable_seat(st, p, b, w, i, kind):
    """Who pays every share of the ``i``-th winner ``w``'s self-paid win, or -1 (C-M3)."""
    if kind == WIN_ROBBED_KONG and p.liability_robbed_kong:
        return st.discarder[b]  # JPH-S3 / TDH-S1: the robbed player
    if kind == WIN_KONG_REPLACEMENT and st.win_kong_from[b, i] >= 0 and p.liability_kong_flower:
        return st.win_kong_from[b, i]  # JPH-S2 / TDH-S2 杠上开花包杠
    if p.family == 0:
        return self_draw_liable(st, p, b, w)
    return -1


@njit_borrowed
def settle_tuidaohu(st, p, tdh, b):
    """TDH-V3 win payments with TDH-S1/S2 liability, TDH-M5 winner horses; units from the compiled scorer."""
    for i in range(st.n_winners[b]):
        w = st.winners[b, i]
        kind = st.win_kind[b, i]
        units = np.int64(st.win_fan[b, i])
        if kind == WIN_DISCARD:
            _pay(st, b, C_WIN, st.discarder[b], w, units * tdh.discard_multiplier)
        else:
            share = units * tdh.self_draw_multiplier
            liable = _liable_seat(st, p, b, w, i, kind)
            if liable >= 0 and liable != w:
                _all_three_by(st, b, liable, w, share)
            else:
                for payer in range(4):
                    if payer != w:
                        _pay(st, b, C_WIN, payer, w, share)
        if p.horses == 2 and (p.full_ghosts_horses or st.win_patterns[b, i, I_FULL_GHOSTS] == 0):  # TDH-H8
            _winner_horses(st, p, b, w, i)


@njit_borrowed
def horse_rank_hits(tile):
    """TDH-H3 爆炸马: the hits of the one horse: its rank, an honour 10 (interpretation)."""
    return 10 if tile >= 27 else tile % 9 + 1


@njit_borrowed
def _winner_horses(st, p, b, w, i):
    """TDH-M5: the winner buys 4 horses (a ghost in the hand) or 6; each payer pays value x (1 + hits).

    House options: TDH-H3 one horse whose rank is the hits; TDH-H10 seats counted from the winner; TDH-H2
    each hit pays the payment with the hand value read as 1 unit; TDH-H1 hits also pay the kong money."""
    ghost = False
    for k in range(2):
        kind = st.wild[b, k]
        if kind >= 0 and st.win_hand[b, i, kind] > 0:
            ghost = True
    n = p.winner_horses_with_ghost if ghost else p.winner_horses_without_ghost
    if p.winner_horse_one:
        n = 1
    n = min(n, st.n_reserved[b])  # the tiles actually set aside
    origin = w if p.winner_horses_from_winner else st.dealer[b]
    hits = 0
    for k in range(n):
        seat = horse_seat(p, st.horse_tiles[b, k], origin)
        st.horse_seats[b, k] = seat
        if p.winner_horse_one:
            hits = horse_rank_hits(st.horse_tiles[b, k])
        elif seat == w:
            hits += 1
    st.n_horses[b] = n
    st.horse_hits[b] = hits
    units = np.int64(st.win_fan[b, i])
    for payer in range(4):
        paid = st.transfers[b, C_WIN, payer, w] + st.transfers[b, C_LIABILITY, payer, w]
        if p.winner_horse_base and units > 0:
            paid = paid // units  # the same payment of a 1-unit hand: multiplier and shares kept
        if p.winner_horses_on_kongs:
            paid += st.transfers[b, C_KONG, payer, w]
        if paid > 0 and hits > 0:
            _pay(st, b, C_HORSE, payer, w, paid * hits)


@njit_borrowed
def kong_payment(st, p, b, k, payer):
    """What ``payer`` paid for the ``k``-th kong (TDH-K1 / XZ-M3): the discarder of a direct kong, every
    other player in play (XZ-M3: not yet won) for an added or concealed one."""
    konger = st.kong_seat[b, k]
    if payer == konger:
        return 0
    if st.kong_kind[b, k] == KONG_FROM_DISCARD:
        return p.kong_pay_discard if payer == st.kong_from[b, k] else 0
    if not (st.kong_in_play[b, k] >> payer) & 1:
        return 0
    return p.kong_pay_added if st.kong_kind[b, k] == KONG_ADDED else p.kong_pay_concealed


@njit_borrowed
def settle_kongs(st, p, b):
    """TDH-K1 / XZ-M3 kong money; TDH-K2: only if someone won, unless the ruleset pays kongs at once."""
    if st.n_winners[b] == 0 and not p.kong_pay_always:
        return
    for k in range(st.n_kongs[b]):
        for payer in range(4):
            amount = kong_payment(st, p, b, k, payer)
            if amount:
                _pay(st, b, C_KONG, payer, st.kong_seat[b, k], np.int64(amount))


@njit_borrowed
def settle_dealer_horses(st, p, b):
    """TDH-M4: per horse on seat h, the dealer wins what h wins and loses what h loses (win and kong money;
    TDH-H1 ``horses_on_kongs`` false: win money only; TDH-H11 ``horse_settlement`` net: see _net_horse)."""
    dealer = st.dealer[b]
    for k in range(st.n_horses[b]):
        h = st.horse_seats[b, k]
        if p.horse_settlement_net:
            _net_horse(st, p, b, dealer, h)
            continue
        for c in (C_WIN, C_KONG, C_LIABILITY):
            if c == C_KONG and not p.horses_on_kongs:
                continue
            for other in range(4):
                received = st.transfers[b, c, other, h]
                if received > 0 and other != dealer:
                    _pay(st, b, C_HORSE, other, dealer, received)
                paid = st.transfers[b, c, h, other]
                if paid > 0 and other != dealer:
                    _pay(st, b, C_HORSE, dealer, other, paid)


@njit_borrowed
def _net_horse(st, p, b, dealer, h):
    """TDH-M4 ``horse_settlement = "net"`` (如果是平则不用计算输赢): the dealer receives or pays seat ``h``'s net
    result of the hand (win, liability and, with ``horses_on_kongs``, kong money), split over the counterparties
    on the winning side of it in proportion to their net transfer with ``h``.

    The split is in whole points by largest remainder: each counterparty gets ``floor(net * flow / total)``,
    and the points left go one each to the largest remainders, ties to the earlier seat in turn order from
    ``h``.  The dealer's own share vanishes; a seat that broke even moves nothing."""
    flow = stack_array(4, np.int64)  # what each counterparty paid h, net (borrowing code cannot allocate)
    flow[:] = 0
    for c in (C_WIN, C_KONG, C_LIABILITY):
        if c == C_KONG and not p.horses_on_kongs:
            continue
        for other in range(4):
            if other != h:
                flow[other] += st.transfers[b, c, other, h] - st.transfers[b, c, h, other]
    net = flow.sum()
    if net == 0:
        return
    sign = 1 if net > 0 else -1
    amount = net * sign
    weight = stack_array(4, np.int64)
    weight[:] = 0
    for other in range(4):
        if other != h and flow[other] * sign > 0:
            weight[other] = flow[other] * sign
    total = weight.sum()
    share = stack_array(4, np.int64)
    share[:] = 0
    remainder = stack_array(4, np.int64)
    remainder[:] = 0
    left = amount
    for other in range(4):
        share[other] = amount * weight[other] // total
        remainder[other] = amount * weight[other] % total
        left -= share[other]
    for _ in range(left):  # at most three points, one per counterparty
        best = -1
        for r in range(1, 4):
            other = (h + r) % 4
            if weight[other] > 0 and (best < 0 or remainder[other] > remainder[best]):
                best = other
        share[best] += 1
        remainder[best] = -1
    for other in range(4):
        if share[other] > 0 and other != dealer:
            if sign > 0:
                _pay(st, b, C_HORSE, other, dealer, share[other])
            else:
                _pay(st, b, C_HORSE, dealer, other, share[other])


@njit_borrowed
def settle_xuezhan(st, p, b):
    """XZ-M1..M5 wins and 呼叫转移, then at an empty wall XZ-E1 查花猪, XZ-E2 查叫 and XZ-E3 退税.

    Each win is paid by the players still in play when it happened (XZ-M5,
    ``win_in_play``); kong money (``settle_kongs``) by those in play when the
    kong was made."""
    transferred = stack_array(MAX_KONGS, np.bool_)
    transferred[:] = False
    for i in range(st.n_winners[b]):
        w = st.winners[b, i]
        kind = st.win_kind[b, i]
        points = np.int64(1) << st.win_fan[b, i]
        if kind == WIN_DISCARD or kind == WIN_ROBBED_KONG:  # XZ-M1: the discarder (or robbed player) pays
            _pay(st, b, C_WIN, st.win_from[b, i], w, points)
            if kind == WIN_DISCARD and p.call_transfer and st.win_flags[b, i] & AFTER_KONG:
                _call_transfer(st, p, b, i, transferred)
            continue
        feeder = st.win_kong_from[b, i]
        if kind == WIN_KONG_REPLACEMENT and feeder >= 0 and p.kong_flower_discarder_pays:
            _pay(st, b, C_WIN, feeder, w, points)  # XZ-M2 / XZ-H6: the konged tile's discarder, no 自摸加底
            continue
        if p.self_draw_base_bonus:  # XZ-H3 自摸加底
            points += 1
        for payer in range(4):  # XZ-M1 / XZ-M5: every player still in play
            if payer != w and (st.win_in_play[b, i] >> payer) & 1:
                _pay(st, b, C_WIN, payer, w, points)
    if not st.exhausted[b]:
        return
    if p.end_checks:
        for pig in range(4):  # XZ-E1 查花猪: to every player who is not a 花猪, winners included
            if st.end_state[b, pig] != END_FLOWER_PIG:
                continue
            for other in range(4):
                if other != pig and st.end_state[b, other] != END_FLOWER_PIG:
                    _pay_xz(st, b, C_PENALTY, XZ_FLOWER_PIG, pig, other, np.int64(p.flower_pig_penalty))
        for payer in range(4):  # XZ-E2 查叫: the not ready pay each ready player its best hand (a 花猪 pays none)
            if st.end_state[b, payer] != END_NOT_READY:
                continue
            for ready in range(4):
                if st.end_state[b, ready] == END_READY:
                    _pay_xz(st, b, C_PENALTY, XZ_NOT_READY, payer, ready, np.int64(1) << st.ready_fan[b, ready])
    if p.tax_refund:  # XZ-E3 退税: the not ready (花猪 included) return the kong income they kept
        for k in range(st.n_kongs[b]):
            konger = st.kong_seat[b, k]
            state = st.end_state[b, konger]
            if transferred[k] or not (state == END_NOT_READY or state == END_FLOWER_PIG):
                continue
            for payer in range(4):
                amount = kong_payment(st, p, b, k, payer)
                if amount:
                    _pay_xz(st, b, C_KONG, XZ_TAX_REFUND, konger, payer, np.int64(amount))


@njit_borrowed
def _call_transfer(st, p, b, i, transferred):
    """XZ-M4 呼叫转移: the ``i``-th win was on the discard its discarder made right after a kong; that
    kong (the discarder's last before the win) has its income pass to the winner (each winner receives it, or they split it under
    ``call_transfer_multiple = split``: whole units, the remainder to the earlier winners in turn order)."""
    konger = st.win_from[b, i]
    k = st.n_kongs[b] - 1
    while k >= 0 and (st.kong_seat[b, k] != konger or st.kong_turn[b, k] > st.win_turn[b, i]):
        k -= 1
    if k < 0:
        return
    transferred[k] = True
    income = 0
    for payer in range(4):
        income += kong_payment(st, p, b, k, payer)
    share = income
    if p.call_transfer_split:
        n = 0  # winners on this discard, and this one's place among them
        place = 0
        for j in range(st.n_winners[b]):
            if (
                st.win_kind[b, j] == WIN_DISCARD
                and st.win_turn[b, j] == st.win_turn[b, i]
                and (st.win_from[b, j] == konger)
            ):
                if j < i:
                    place += 1
                n += 1
        share = income // n + (1 if place < income % n else 0)
    if share:
        _pay_xz(st, b, C_KONG, XZ_CALL_TRANSFER, konger, st.winners[b, i], np.int64(share))


@njit_borrowed
def settle_follow_dealer(st, p, b):
    """C-P7 跟庄: the dealer pays each other player ``follow_dealer`` units when the logged fact says the
    first four discards, before any claim, were one kind; whatever the hand's result."""
    if p.follow_dealer > 0 and st.followed[b]:
        dealer = st.dealer[b]
        for other in range(4):
            if other != dealer:
                _pay(st, b, C_PENALTY, dealer, other, np.int64(p.follow_dealer))


@njit_borrowed
def shown_four_winds_feeder(st, b):
    """SHT-M3 fact: the discarder whose wind the winner won on, when the winner's exposed pungs and kongs show
    three or more winds and the hand scores 四风会齐; else -1.  Recorded as the win is (the engine) and read
    by settlement, so re-settlement needs only the logged fact."""
    if st.n_winners[b] == 0 or st.win_kind[b, 0] != WIN_DISCARD:
        return -1
    w = st.winners[b, 0]
    t = st.win_tile[b, 0]
    if not (27 <= t <= 30) or st.win_patterns[b, 0, I_FOUR_WINDS] == 0:
        return -1
    shown = 0
    for m in range(st.n_melds[b, w]):
        kind = st.meld_kind[b, w, m]
        tile = st.meld_tile[b, w, m]
        if kind != MELD_CHOW and kind != MELD_CKONG and 27 <= tile <= 30:
            shown |= 1 << (tile - 27)
    n = (shown & 1) + ((shown >> 1) & 1) + ((shown >> 2) & 1) + ((shown >> 3) & 1)
    return st.win_from[b, 0] if n >= 3 else -1


@njit_borrowed(inline="always")
def _dealer_times(p, dealer, a, b):
    """SHT-M1 / SHT-M2: a payment between ``a`` and ``b`` counts twice when one of them is the dealer."""
    return 2 if p.dealer_pays_double and (a == dealer or b == dealer) else 1


@njit_borrowed
def settle_shuitou(st, p, b):
    """SHT-M1 each non-winner pays the winner's total (twice to or from the dealer); SHT-M3 包牌: the
    discarder pays for all three; SHT-M2 the non-winners settle their base-台 differences pairwise (twice
    with the dealer); SHT-M4 a drawn hand settles nothing."""
    if st.n_winners[b] == 0:
        return
    w = st.winners[b, 0]
    dealer = st.dealer[b]
    total = np.int64(st.win_fan[b, 0])
    liable = st.four_winds_feeder[b] if p.liability_four_winds else -1
    for q in range(4):
        if q == w:
            continue
        amount = total * _dealer_times(p, dealer, w, q)
        if liable < 0 or q == liable:
            _pay(st, b, C_WIN, q, w, amount)
        else:
            _pay(st, b, C_LIABILITY, liable, w, amount)
    st.liable[b] = liable
    if not p.settle_non_winners:
        return
    for q in range(4):
        for r in range(q + 1, 4):
            if q == w or r == w:
                continue
            diff = np.int64(st.base_tai[b, q]) - np.int64(st.base_tai[b, r])
            times = _dealer_times(p, dealer, q, r)
            if diff > 0:
                _pay(st, b, C_BASE, r, q, diff * times)
            elif diff < 0:
                _pay(st, b, C_BASE, q, r, -diff * times)


def settle_family(st, p, sc, b):
    """The family's own win settlement of table ``b`` (compiled code only: it holds the settlements of the
    families whose build ``p``'s class names, :mod:`mjsim.sim.families`)."""
    raise TypeError("settle_family is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(settle_family)
def _settle_family_of(st, p, sc, b):
    # constants of the build, so numba drops (and never types) the other families' branches
    with_jipinghu = compiles_for(p, JIPINGHU)
    with_tuidaohu = compiles_for(p, TUIDAOHU)
    with_xuezhan = compiles_for(p, XUEZHAN)
    with_shuitou = compiles_for(p, SHUITOU)

    def impl(st, p, sc, b):
        if with_jipinghu:
            if p.family == JIPINGHU:
                if st.n_winners[b] > 0:  # an exhaustive draw settles nothing in jipinghu
                    settle_jipinghu(st, p, b)
                return
        if with_xuezhan:
            if p.family == XUEZHAN:
                settle_xuezhan(st, p, b)
                return
        if with_shuitou:
            if p.family == SHUITOU:
                settle_shuitou(st, p, b)
                return
        if with_tuidaohu:
            if st.n_winners[b] > 0:
                settle_tuidaohu(st, p, sc.tdh, b)

    return impl


@njit_borrowed
def settle(st, p, sc, b):
    """Settle table ``b``: kongs, the family's wins (the only place the family selects settlement code),
    horses and 跟庄."""
    st.transfers[b] = 0
    st.xz_moves[b] = 0
    settle_kongs(st, p, b)  # first: winner horses may multiply kong money (TDH-H1)
    settle_family(st, p, sc, b)
    if p.horses == 1:
        # horse transfers mirror the win and kong transfers made so far, so they are computed last
        settle_dealer_horses(st, p, b)
    settle_follow_dealer(st, p, b)
