"""The engine's struct references (``mjsim.sim.state.tuple_constructor``): built in compiled code from a
tuple of arrays, they share those arrays' memory and let them go when the struct goes."""

import gc
import weakref

import numpy as np

from mjsim.sim import engine
from mjsim.sim.state import PH_IDLE, allocate_state


def test_state_shares_its_arrays_with_compiled_code():
    st = allocate_state(3)
    st.hands[1, 2, 5] = 4  # written in Python, read by the kernel
    counts = np.zeros(42, np.int64)  # 34 kinds and 8 flowers
    engine.tile_balance(st, 1, counts)
    assert counts[5] == 4
    assert list(st.phase) == [PH_IDLE] * 3


def test_state_releases_its_arrays():
    st = allocate_state(2)
    wall = weakref.ref(st._arrays["wall"])
    hands = weakref.ref(st._arrays["hands"])
    del st
    gc.collect()
    assert wall() is None and hands() is None  # no reference kept by the struct's payload
