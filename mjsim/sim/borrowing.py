"""How mjsim compiles: :func:`kernel`, and :func:`njit_borrowed` for helpers that only borrow their arrays.

**One specialisation per function.**  numba compiles a function once per
distinct tuple of argument types, and from compiled code a constant argument
is typed as its literal value (``Literal[int](0)``) and an ``int8`` array
element as ``int8``.  The engine calls its scorer and helpers from dozens of
sites with such arguments, so a first run compiled each of them up to ten times
(348 specialisations of 167 functions, three minutes of CPU).  Both decorators
widen the argument types a call from compiled code asks for (literals to their
type, integers narrower than 64 bits to ``int64``) before compiling, and the
call converts its arguments to that one signature.  numba's integer arithmetic
already works in 64 bits, so widening changes no result.

**No reference counting in borrowing helpers.**

numba counts references to every array a compiled function receives, every
view it takes and every array field it reads, with atomic instructions.  In
the policies' and engine's inner helpers, called millions of times a run,
that bookkeeping cost more than the arithmetic (measured: a fifth of a run).
A helper that never allocates, returns or stores an array only borrows the
arrays its caller owns for the duration of the call, so it needs no counts:
numba's ``_nrt=False`` compiles it without them (and refuses to compile an
allocation in it, so a helper that starts allocating fails loudly).  Such a
helper takes its scratch from its caller or from :func:`stack_array`.  The engine's and the
settlement's helpers borrow too: they read the state's struct reference, whose fields
:func:`mjsim.sim.state.register_arrays_struct` makes readable without counts (a 40,000-hand run
0.93x the wall time of counting them).

**One optimisation per call tree.**  A function compiled for a call from
compiled code leaves LLVM's module-level optimisation and code generation to
the caller that links it in (:mod:`mjsim.sim.optimise_once`).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic, overload
from numba.np.arrayobj import make_array, populate_array

from mjsim.sim.optimise_once import (
    ENTRY_ATTRIBUTE,
    EmitOnPythonCall,
    HelperAwareCache,
    HelperAwareCompiler,
    typing_a_call,
)


def _widened(numba_type):
    """The type a function is compiled for when a call passes ``numba_type``."""
    plain = types.unliteral(numba_type)
    if isinstance(plain, types.Integer) and plain.bitwidth < 64:
        return types.int64
    return plain


class _WideningDispatcher(EmitOnPythonCall, CPUDispatcher):
    """A dispatcher that compiles calls from compiled code for widened argument types (module docstring)."""

    def get_call_template(self, args, kws):
        with typing_a_call():
            return super().get_call_template(
                tuple(_widened(a) for a in args), {name: _widened(a) for name, a in kws.items()}
            )

    def enable_caching(self):
        self._cache = HelperAwareCache(self.py_func)


def _decorator(func, options, entry=False):
    def compile_(f):
        if entry:
            setattr(f, ENTRY_ATTRIBUTE, True)
        dispatcher = _WideningDispatcher(
            py_func=f,
            locals={},
            targetoptions={"nopython": True, **options},
            pipeline_class=HelperAwareCompiler,
        )
        dispatcher.enable_caching()
        return dispatcher

    return compile_(func) if func is not None else compile_


def kernel(func=None, *, entry=False, **options):
    """``numba.njit(cache=True, **options)`` with one specialisation per function, usable bare or with options.

    ``entry=True`` for a function Python calls in a hot loop and compiled code calls too: it then keeps
    numba's whole optimisation even when a caller compiles it first (:mod:`mjsim.sim.optimise_once`).
    Reference counting is on even when a borrowing helper's call compiles it: numba would otherwise
    inherit the caller's ``_nrt=False``.
    """
    return _decorator(func, {"_nrt": True, **options}, entry)


def njit_borrowed(func=None, **options):
    """:func:`kernel` without reference counting (``_nrt=False``), for helpers that only borrow arrays."""
    return _decorator(func, {"_nrt": False, **options})


def inline_overload(stub):
    """``numba.extending.overload(stub, inline="always")`` for mjsim's compiled code.  numba compiles an
    inlined overload's implementation whole for each signature before inlining its IR, and that copy is
    never called; compiled as a helper (:mod:`mjsim.sim.optimise_once`), it skips LLVM's module passes and
    machine code (a 鸡平胡 build's scorer and settlement dispatch: 1.7 s of CPU, 1.2 s under LLVM)."""
    return overload(stub, inline="always", jit_options={"pipeline_class": HelperAwareCompiler})


@intrinsic
def stack_array(typingctx, length, dtype):
    """``stack_array(n, np.int64)``: an uninitialised 1-D array of ``n`` (a constant) on the calling
    function's stack, for a borrowing helper's scratch (``np.empty`` needs reference counting).  It lives
    until the function returns: never return or store it."""
    if not isinstance(length, types.IntegerLiteral) or not isinstance(dtype, (types.NumberClass, types.DType)):
        return None
    n = length.literal_value
    elem = dtype.dtype
    array_type = types.Array(elem, 1, "C")

    def codegen(context, builder, signature, args):
        item = context.get_data_type(elem)
        data = cgutils.alloca_once(builder, item, size=n)  # in the entry block: once per call, even in a loop
        array = make_array(array_type)(context, builder)
        intp = context.get_value_type(types.intp)
        size = context.get_abi_sizeof(item)
        populate_array(array, data=data, shape=[intp(n)], strides=[intp(size)], itemsize=intp(size), meminfo=None)
        return array._getvalue()

    return array_type(length, dtype), codegen
