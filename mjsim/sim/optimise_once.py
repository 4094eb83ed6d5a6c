"""Optimise a call tree once, in the function Python calls, not again in every helper it reaches.

numba compiles each jitted function into a library of its own: the function's LLVM IR, with the
library of every callee linked in, goes through LLVM's module-level optimisation and then code
generation.  A caller runs that optimisation over the linked whole (that is how it inlines its
callees), so the same optimisation run over a helper's own module, when the helper is compiled
only because a caller needs it, is spent on code the caller optimises again anyway.  Measured on
the engine's warm-up part: 10.5 s of a 68 s compile, and runs from the resulting cache take the
same time (paired, 1.00).

So a function compiled while numba types a call to it from compiled code (see
:func:`typing_a_call`) gets a :class:`HelperLibrary`, which skips its own module-level pass (the
per-function passes still run).  A function compiled for a call from Python keeps numba's full
pipeline.  One compiled for a caller first and called from Python later, with the same argument
types, gives Python that helper's code: still correct, but without its callees inlined.  A function
Python calls in a hot loop and compiled code calls too is therefore declared with ``entry=True``
(:func:`mjsim.sim.borrowing.kernel`), which always gives it the full pipeline.
"""

from __future__ import annotations

import contextlib
import threading

from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import Compiler

ENTRY_ATTRIBUTE = "_mjsim_entry"  # set on a py_func declared with entry=True
_nesting = threading.local()


def _depth() -> int:
    return getattr(_nesting, "depth", 0)


@contextlib.contextmanager
def typing_a_call():
    """Marks that numba is typing a call from compiled code: what it compiles meanwhile is a helper."""
    _nesting.depth = _depth() + 1
    try:
        yield
    finally:
        _nesting.depth -= 1


class HelperLibrary(JITCodeLibrary):
    """A library whose module-level optimisation is left to the callers that link it (module docstring)."""

    def _optimize_final_module(self):
        pass


class HelperAwareCompiler(Compiler):
    """numba's pipeline, compiling into a :class:`HelperLibrary` when compiled code asked for the function."""

    def compile_extra(self, func):
        if self.state.library is None and _depth() > 0 and not getattr(func, ENTRY_ATTRIBUTE, False):
            library = HelperLibrary(self.state.targetctx.codegen(), func.__qualname__)
            library.enable_object_caching()  # as numba's lowering does, so the library can be cached
            self.state.library = library
        return super().compile_extra(func)
