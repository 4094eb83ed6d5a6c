"""mjsim.sim.typing_memo: repeated typing questions answered from memory, only during mjsim's compiles."""

import importlib.util
import operator

import numpy as np
import pytest
from numba.core import compiler, errors, targetconfig, types
from numba.core.registry import cpu_target

from mjsim.sim import typing_memo


def _add_type():
    context = cpu_target.typing_context
    context.refresh()
    return context, context.resolve_value_type(operator.add)


def test_a_repeated_question_is_answered_from_memory_with_numbas_answer():
    context, add = _add_type()
    args = (types.uint32, types.float32)  # outside a compile (no flags): a question no compile asks
    held = typing_memo.remembered()
    with typing_memo.memoising():
        first = add.get_call_type(context, args, {})
        assert typing_memo.remembered() == held + 1
        second = add.get_call_type(context, args, {})
    assert second is first
    assert typing_memo.remembered() == held + 1
    assert str(first) == "(float64, float64) -> float64"  # numba converts both
    assert first == typing_memo._numba_get_call_type(add, context, args, {})


def test_outside_mjsim_compiles_numba_answers_and_nothing_is_remembered():
    context, add = _add_type()
    held = typing_memo.remembered()
    signature = add.get_call_type(context, (types.int32, types.int16), {})
    assert signature.return_type == types.int64
    assert typing_memo.remembered() == held


def test_a_failure_is_not_remembered_and_raises_again():
    context, add = _add_type()
    held = typing_memo.remembered()
    with typing_memo.memoising():
        for _ in range(2):
            with pytest.raises(errors.TypingError):
                add.get_call_type(context, (types.unicode_type, types.NPDatetime("D")), {})
    assert typing_memo.remembered() == held


def test_the_flags_of_the_compile_under_way_are_part_of_the_question():
    context, add = _add_type()
    args = (types.uint16, types.complex64)  # a question no compile asks
    plain, counting = compiler.Flags(), compiler.Flags()
    counting.nrt = True
    with typing_memo.memoising():
        with targetconfig.ConfigStack().enter(plain):
            add.get_call_type(context, args, {})
            held = typing_memo.remembered()
            add.get_call_type(context, args, {})
            assert typing_memo.remembered() == held
        with targetconfig.ConfigStack().enter(counting):
            add.get_call_type(context, args, {})
    assert typing_memo.remembered() == held + 1


_KERNEL = """
from mjsim.sim.borrowing import kernel

@kernel
def weighted(x, w):
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i] * w + i
    return total
"""


def test_an_mjsim_compile_types_through_the_memo(tmp_path):
    (tmp_path / "memo_kernel.py").write_text(_KERNEL)  # a new file: compiled here, not read from a cache
    spec = importlib.util.spec_from_file_location("memo_kernel", tmp_path / "memo_kernel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    held = typing_memo.remembered()
    assert module.weighted(np.array([1.0, 2.0, 4.0]), 0.5) == 0.5 + 2.0 + 4.0
    assert typing_memo.remembered() > held
