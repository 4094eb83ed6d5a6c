"""Settlement: a finished hand's money as named transfers (C-M1), per ruleset family.

``settle`` fills ``state.transfers[b, component, payer, payee]`` (points,
base 1) for table ``b``; nets are derived from it, so they always sum to
zero and the components always add up to the net.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mjsim.sim.constants import KONG_FROM_DISCARD, WIN_DISCARD, WIN_KONG_REPLACEMENT, WIN_ROBBED_KONG
from mjsim.sim.state import C_LIABILITY, C_WIN


@njit(cache=True)
def _pay(st, b, component, payer, payee, amount):
    st.transfers[b, component, payer, payee] += amount


@njit(cache=True)
def _all_three_by(st, b, liable, winner, points):
    """C-M3: the liable player pays every share; its own share is win money, the others' liability money."""
    _pay(st, b, C_WIN, liable, winner, points)
    _pay(st, b, C_LIABILITY, liable, winner, 2 * points)
    if st.liable[b] < 0:
        st.liable[b] = liable


@njit(cache=True)
def settle_jipinghu(st, p, b):
    """JPH-M1..M3 payments with the JPH-S2..S4 liabilities; points = 2 ** fan (C-M2)."""
    for i in range(st.n_winners[b]):
        w = st.winners[b, i]
        kind = st.win_kind[b, i]
        points = np.int64(1) << st.win_fan[b, i]
        d = st.discarder[b]
        if kind == WIN_DISCARD:
            # JPH-M2: the discarder pays one share (three with 包三家); JPH-S1 is this once per winner
            _pay(st, b, C_WIN, d, w, 3 * points if p.discard_pays_all else points)
            continue
        liable = -1
        if kind == WIN_ROBBED_KONG and p.liability_robbed_kong:
            liable = d  # JPH-S3: the robbed player pays all three shares
        elif kind == WIN_KONG_REPLACEMENT and st.replacement[b] == KONG_FROM_DISCARD and p.liability_kong_flower:
            liable = st.replacement_from[b]  # JPH-S2 杠上开花包杠
        elif st.liable_for[b, w] >= 0:
            liable = st.liable_for[b, w]  # JPH-S4 / JPH-S5 包自摸
        if liable >= 0 and liable != w:
            _all_three_by(st, b, liable, w, points)
        else:
            for payer in range(4):  # JPH-M1: each of the three others pays
                if payer != w:
                    _pay(st, b, C_WIN, payer, w, points)


@njit(cache=True)
def settle(st, p, b):
    """Dispatch on the ruleset family (the only place the family selects settlement code)."""
    st.transfers[b] = 0
    if st.n_winners[b] == 0:
        return  # an exhaustive draw settles nothing in jipinghu
    if p.family == 0:
        settle_jipinghu(st, p, b)
