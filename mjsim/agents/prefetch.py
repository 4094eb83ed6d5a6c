"""``prefetch_row``: ask the processor to start loading a table row before it is read.

The policies read rows of the need-vector table (``T``, about 23 MB: far
larger than the processor caches) at scattered codes, one per candidate draw
or discard, and each read that misses the cache waits on main memory.  When
a helper knows the rows it will read, it announces them all first (LLVM's
``llvm.prefetch``), so the misses overlap instead of queueing one by one.
A prefetch never changes a result; it only moves memory traffic earlier.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def prefetch_row(typingctx, table, row):
    """Hint that ``table[row, 0]`` (a C-contiguous 2-D array) will be read soon; returns nothing."""
    if not (isinstance(table, types.Array) and table.ndim == 2 and isinstance(row, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        table_type, _ = signature.args
        array = context.make_array(table_type)(context, builder, args[0])
        row_index = context.cast(builder, args[1], signature.args[1], types.intp)
        byte = builder.bitcast(array.data, ir.IntType(8).as_pointer())
        stride = cgutils.unpack_tuple(builder, array.strides, 2)[0]
        address = builder.gep(byte, [builder.mul(row_index, stride)])
        function = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer(), ir.IntType(32), ir.IntType(32), ir.IntType(32)]),
            "llvm.prefetch.p0i8",
        )
        # read (0), keep in all cache levels (3), data cache (1)
        builder.call(function, [address, ir.Constant(ir.IntType(32), 0), ir.Constant(ir.IntType(32), 3),
                                ir.Constant(ir.IntType(32), 1)])  # fmt: skip
        return context.get_dummy_value()

    return types.void(table, row), codegen
