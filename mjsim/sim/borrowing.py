"""``njit_borrowed``: compile a helper that only borrows its arrays, without reference counting.

numba counts references to every array a compiled function receives, every
view it takes and every array field it reads, with atomic instructions.  In
the policies' and engine's inner helpers, called millions of times a run,
that bookkeeping cost more than the arithmetic (measured: a fifth of a run).
A helper that never allocates, returns or stores an array only borrows the
arrays its caller owns for the duration of the call, so it needs no counts:
numba's ``_nrt=False`` compiles it without them (and refuses to compile an
allocation in it, so a helper that starts allocating fails loudly).
"""

from __future__ import annotations

from numba import njit


def njit_borrowed(func=None, **options):
    """``numba.njit(cache=True, _nrt=False, **options)``, usable bare or with options."""

    def compile_(f):
        return njit(cache=True, _nrt=False, **options)(f)

    return compile_(func) if func is not None else compile_
