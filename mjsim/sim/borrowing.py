"""``njit_borrowed``: compile a helper that only borrows its arrays, without reference counting.

numba counts references to every array a compiled function receives, every
view it takes and every array field it reads, with atomic instructions.  In
the policies' and engine's inner helpers, called millions of times a run,
that bookkeeping cost more than the arithmetic (measured: a fifth of a run).
A helper that never allocates, returns or stores an array only borrows the
arrays its caller owns for the duration of the call, so it needs no counts:
numba's ``_nrt=False`` compiles it without them (and refuses to compile an
allocation in it, so a helper that starts allocating fails loudly).  Such a
helper takes its scratch from its caller or from :func:`stack_array`.
"""

from __future__ import annotations

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


def njit_borrowed(func=None, **options):
    """``numba.njit(cache=True, _nrt=False, **options)``, usable bare or with options."""

    def compile_(f):
        return njit(cache=True, _nrt=False, **options)(f)

    return compile_(func) if func is not None else compile_


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
