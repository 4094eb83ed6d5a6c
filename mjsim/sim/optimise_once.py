"""Optimise and emit a call tree once, in the function Python calls, not again in every helper it reaches.

numba compiles each jitted function into a library of its own: the function's LLVM IR, with the
library of every callee linked in, goes through LLVM's module-level optimisation and then code
generation.  A caller runs both over the linked whole (that is how it inlines its callees), so for a
helper compiled only because a caller needs it, the same work over the helper's own module is spent
on code nobody runs: the machine code that runs is the caller's.  Measured on the engine's warm-up
part: 67 s of CPU, 57 s without the helpers' module optimisation, 51.5 s without their code
generation too; runs from the resulting cache take no longer (paired, 0.95 to 0.99).

So a function compiled while numba types a call to it from compiled code (:func:`typing_a_call`)
gets a :class:`HelperLibrary`: its per-function passes run, then it stops.  Its machine code is
emitted only when something needs it on its own:

- Python calls it (:class:`EmitOnPythonCall`: the dispatcher emits it then, before the call);
- the disk cache stores it as LLVM bitcode instead of machine code, so loading it for a new caller
  emits it then (numba's loader does), and loading a cached caller never touches it.

Every helper linked into a caller has a global naming its numba environment (constants, the
arguments of a raised exception); numba sets it when it emits the helper, so a caller compiled here
sets those of the helpers it linked (:func:`_set_linked_environments`).

A function compiled for Python keeps numba's full pipeline.  One Python calls in a hot loop and
compiled code calls too is declared ``entry=True`` (:func:`mjsim.sim.borrowing.kernel`): compiled for
a caller first, it would otherwise give Python its un-inlined helper code.
"""

from __future__ import annotations

import contextlib
import threading

from numba.core import sigutils
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import Compiler
from numba.core.compiler_lock import global_compiler_lock
from numba.core.environment import lookup_environment

ENTRY_ATTRIBUTE = "_mjsim_entry"  # set on a py_func declared with entry=True
_ENVIRONMENT_PREFIX = "_ZN08NumbaEnv"  # numba's mangled names of environment globals
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


class _EnvironmentDeferringCodegen:
    """numba's codegen for a helper library not yet emitted: ``set_env`` is left to the emission, which sets
    every environment global of the module (:func:`_set_linked_environments`); the global has no address yet."""

    def __init__(self, library):
        self._library = library

    def set_env(self, env_name, env):
        pass

    def __getattr__(self, name):
        return getattr(self._library._codegen, name)


class HelperLibrary(JITCodeLibrary):
    """A helper's library: optimised and emitted only inside its callers until :meth:`emit` (module docstring)."""

    def __init__(self, codegen, name):
        super().__init__(codegen, name)
        self.emitted = False
        self.python_entry = None  # the callable :class:`EmitOnPythonCall` gave Python, once emitted
        self._null_pointer_given = False

    def _optimize_final_module(self):
        pass  # the callers optimise the linked whole

    def _finalize_final_module(self):
        # numba adds the module to the JIT engine and emits machine code here; a helper only records
        # its dynamic globals (numba's cache refuses a library holding any)
        self._finalize_dynamic_globals()
        self._finalized = True

    def emit(self):
        """Emit this library's machine code (numba's finalisation, postponed)."""
        if self.emitted:
            return
        self.emitted = True
        self._dynamic_globals = []  # found again below
        super()._finalize_final_module()
        _set_linked_environments(self)  # its own environment and those of the helpers linked into it

    @property
    def codegen(self):
        return self._codegen if self.emitted else _EnvironmentDeferringCodegen(self)

    def get_pointer_to_function(self, name):
        """numba's lowering asks once for the Python wrapper's address, to build the entry point that
        :class:`EmitOnPythonCall` keeps from Python: that first request gets 0; any other emits."""
        self._ensure_finalized()
        if not self.emitted and not self._null_pointer_given:
            self._null_pointer_given = True
            return 0
        self.emit()
        return super().get_pointer_to_function(name)

    def serialize_using_object_code(self):
        return super().serialize_using_object_code() if self.emitted else self.serialize_using_bitcode()


def _set_linked_environments(library):
    """Point the environment globals in ``library``'s module (just emitted) at their environments: those of
    the helpers linked into it, which numba leaves unset, and any it has set already."""
    codegen = library._codegen
    for variable in library._final_module.global_variables:
        if not variable.name.startswith(_ENVIRONMENT_PREFIX):
            continue
        env = lookup_environment(variable.name)
        if env is not None and codegen._engine.get_global_value_address(variable.name):
            codegen.set_env(variable.name, env)


class HelperAwareCompiler(Compiler):
    """numba's pipeline, compiling into a :class:`HelperLibrary` when compiled code asked for the function."""

    def compile_extra(self, func):
        helper = self.state.library is None and _depth() > 0 and not getattr(func, ENTRY_ATTRIBUTE, False)
        if helper:
            library = HelperLibrary(self.state.targetctx.codegen(), func.__qualname__)
            library.enable_object_caching()  # as numba's lowering does, so the library can be cached
            self.state.library = library
        result = super().compile_extra(func)
        if not helper:
            _set_linked_environments(result.library)
        return result


class EmitOnPythonCall:
    """Dispatcher mixin: a helper's entry point stays out of the table Python calls go through until
    Python asks for it; then the helper is emitted and its real entry point is used."""

    def add_overload(self, cres):
        library = cres.library
        if isinstance(library, HelperLibrary) and library.python_entry is None:
            # callers find it here, Python does not: its entry point has no machine code behind it (a null
            # address) and serves only as the key of the helper's implementation for the callers' lowering
            self.overloads[tuple(cres.signature.args)] = cres
            return
        super().add_overload(cres)

    def compile(self, sig):
        entry_point = super().compile(sig)
        if _depth() > 0:
            return entry_point  # typing a call from compiled code: it links the IR, no machine code needed
        args, _ = sigutils.normalize_signature(sig)
        cres = self.overloads[tuple(args)]
        library = cres.library
        if not isinstance(library, HelperLibrary):
            return entry_point
        with global_compiler_lock:  # as numba's own compiles: two threads must not emit it twice
            if library.python_entry is None:
                library.emit()
                library.python_entry = self.targetctx.get_executable(library, cres.fndesc, cres.environment)
                self._insert([a._code for a in args], library.python_entry, cres.objectmode)
        return library.python_entry
