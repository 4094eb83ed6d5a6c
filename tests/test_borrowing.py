"""Helpers compiled without reference counting: ``stack_array`` scratch, struct fields, kernels they call."""

import numpy as np
from numba.experimental import structref

from mjsim.sim.borrowing import kernel, njit_borrowed, stack_array
from mjsim.sim.state import ArraysStructType, register_arrays_struct


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


# ---- struct fields and reference counting ---------------------------------------------------------------------------


@register_arrays_struct
class _PairType(ArraysStructType):
    pass


class _Pair(structref.StructRefProxy):
    pass


structref.define_proxy(_Pair, _PairType, ["left", "right"])


@njit_borrowed
def _move_left_to_right(pair):
    total = 0
    for t in range(pair.left.size):
        pair.right[t] += pair.left[t]
        total += pair.right[t]
    return total


@kernel
def _allocating_sum(n):
    scratch = np.zeros(n, np.int64)
    for t in range(n):
        scratch[t] = t
    return scratch.sum()


@njit_borrowed
def _borrowing_caller(n):
    return _allocating_sum(n) + 1


def test_a_borrowing_helper_reads_and_writes_through_a_struct_of_arrays():
    # numba's own structref field read needs reference counting: a borrowing helper could not compile it
    left = np.arange(5, dtype=np.int64)
    right = np.full(5, 10, np.int64)
    assert _move_left_to_right(_Pair(left, right)) == 10 + 11 + 12 + 13 + 14
    assert right.tolist() == [10, 11, 12, 13, 14]
    assert left.tolist() == [0, 1, 2, 3, 4]


def test_a_kernel_called_from_a_borrowing_helper_keeps_reference_counting():
    # numba inherits a caller's _nrt=False unless the callee sets it: the allocation would not compile
    assert _borrowing_caller(10) == 46
