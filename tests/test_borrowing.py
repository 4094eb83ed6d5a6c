"""``stack_array``: scratch arrays for helpers compiled without reference counting."""

import numpy as np

from mjsim.sim.borrowing import njit_borrowed, stack_array


@njit_borrowed
def _two_scratch_arrays(x):
    a = stack_array(34, np.int64)
    b = stack_array(34, np.int64)
    total = 0
    for k in range(100):  # re-filled in a loop: one array per call, not one per iteration
        for t in range(34):
            a[t] = x[t] + k
            b[t] = -x[t]
        for t in range(34):
            total += a[t] + b[t]
    return total


@njit_borrowed
def _flags(x):
    seen = stack_array(8, np.bool_)
    seen[:] = False
    for v in x:
        seen[v] = True
    n = 0
    for t in range(8):
        n += seen[t]
    return n


def test_stack_arrays_are_distinct_and_hold_what_is_written():
    # a[t] + b[t] = k for every t: two arrays that aliased would give 0
    assert _two_scratch_arrays(np.arange(34)) == 34 * sum(range(100))


def test_stack_array_of_bools_is_cleared_by_the_caller():
    assert _flags(np.array([1, 3, 3, 7])) == 3
