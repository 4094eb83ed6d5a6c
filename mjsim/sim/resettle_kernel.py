"""Compiled core of re-settlement: score logged wins again and run the engine's settlement on them."""

import numpy as np

from mjsim.sim.borrowing import kernel
from mjsim.sim.scoring import score_win
from mjsim.sim.settle import settle


@kernel
def rescore_and_settle(
    st,
    p,
    sc,
    n_tables,
    table,
    index,
    real,
    wilds,
    held,
    win_tile,
    meld_kind,
    meld_tile,
    n_melds,
    flags,
    offset,
    round_wind,
    discard_winners,
    found,
    ctx,
):
    """Score each logged win (``table[k]``, winner ``index[k]``) under ``sc``, then settle tables 0..n-1.

    ``ctx``: each win's 水头 scorer context (``mjsim.sim.fastscore_sht``).  Returns each win's value
    (negative: no longer a win)."""
    codes = np.empty(table.size, np.int64)
    scratch = np.empty(34, np.int64)
    for k in range(table.size):
        code = score_win(
            p, sc, real[k], wilds[k], held[k], win_tile[k], meld_kind[k], meld_tile[k],
            n_melds[k], flags[k], offset[k], round_wind[k], discard_winners[k], found[k], scratch, ctx[k],
        )  # fmt: skip
        codes[k] = code
        st.win_fan[table[k], index[k]] = max(code, 0)
        st.win_patterns[table[k], index[k]] = found[k]  # settlement reads them (TDH-H8 满鬼 horses)
    for b in range(n_tables):
        settle(st, p, sc, b)
    return codes
