"""Optimise and emit a call tree once, in the function Python calls, not again in every helper it reaches.

numba compiles each jitted function into a library of its own: the function's LLVM IR, with the
library of every callee linked in, goes through LLVM's module-level optimisation and then code
generation.  A caller runs both over the linked whole (that is how it inlines its callees), so for a
helper compiled only because a caller needs it, the same work over the helper's own module is spent
on code nobody runs: the machine code that runs is the caller's.  Measured on the engine's warm-up
part: 67 s of CPU, 57 s without the helpers' module optimisation, 51.5 s without their code
generation too; runs from the resulting cache take no longer (paired, 0.95 to 0.99).

So a function compiled while numba types a call to it from compiled code (:func:`typing_a_call`)
gets a :class:`HelperLibrary`: its per-function passes run, then it stops.  It is also lowered
without the Python and C wrappers numba builds for every function (:class:`HelperLowering`): its
callers call its native entry, and each wrapper's IR was built, optimised and linked into every
caller only to be dropped there (the engine part's CPU 0.95x, its peak memory 625 MiB against
746).  Its machine code is emitted only when something needs it on its own:

- Python calls it (:class:`EmitOnPythonCall`: the dispatcher adds the Python wrapper and emits it
  then, before the call);
- the disk cache stores it as LLVM bitcode instead of machine code (:class:`HelperAwareCache` reads it
  back as an un-emitted helper), and loading a cached caller never touches it.

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

from llvmlite import binding as llvm
from numba.core import config, sigutils
from numba.core.caching import CompileResultCacheImpl, FunctionCache
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import Compiler, CompileResult, Flags, _make_subtarget
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import register_pass
from numba.core.environment import lookup_environment
from numba.core.runtime.nrtopt import remove_redundant_nrt_refct
from numba.core.typed_passes import NativeLowering

from mjsim.sim.typing_memo import memoising

# The policies' and the hand API's kernels: at level 1 the policies' decisions took 3 to 6% longer, while
# the engine ran no slower.  Level 3 costs them little: the policies' compile is mostly numba's front end
# (LLVM 1.4 s of the efficiency policy's 9.2 s).
HOT_PACKAGES = ("mjsim.agents.", "mjsim.hand.")
HOT_PASS_LEVEL = 3
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


class _PassLevel:
    """Library mixin: LLVM's function and module passes at ``pass_opt`` (None: numba's ``NUMBA_OPT``), as
    numba's own ``CPUCodeLibrary`` runs them (a cheap module pass first, for numba's reference-count pruning)."""

    pass_opt = None

    def _optimize_functions(self, ll_module):
        if self.pass_opt is None:
            return super()._optimize_functions(ll_module)
        ll_module.data_layout = self._codegen._data_layout
        for func in ll_module.functions:
            fpm, pb = self._codegen._function_pass_manager(opt=self.pass_opt)
            fpm.run(func, pb)

    def _optimize_final_module(self):
        if self.pass_opt is None:
            return super()._optimize_final_module()
        codegen = self._codegen
        cheap, cheap_builder = codegen._module_pass_manager(
            loop_vectorize=codegen._loopvect, slp_vectorize=False, opt=codegen._opt_level, cost="cheap"
        )
        cheap.run(self._final_module, cheap_builder)
        if not config.LLVM_REFPRUNE_PASS:
            self._final_module = remove_redundant_nrt_refct(self._final_module)
        full, full_builder = codegen._module_pass_manager(opt=self.pass_opt)
        full.run(self._final_module, full_builder)


class PassLevelLibrary(_PassLevel, JITCodeLibrary):
    """The library of a function Python calls, with a pass level of its own (:func:`pass_level`)."""


class HelperLibrary(_PassLevel, JITCodeLibrary):
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

    @classmethod
    def from_bitcode(cls, codegen, name, bitcode):
        """A helper library read back from the disk cache: its module, not emitted."""
        library = cls(codegen, name)
        library._final_module = llvm.parse_bitcode(bitcode)
        library._finalize_final_module()
        return library

    def add_python_wrapper(self, targetctx, fndesc, env, release_gil):
        """Add the wrapper Python calls the helper through (lowering left it out: callers need none).  Called
        once, before the helper is emitted for Python."""
        self._finalized = False  # numba adds IR only to an open library; nothing else changes meanwhile
        try:
            with targetctx.push_code_library(self):  # as numba's lowering: boxing may link code into it
                targetctx.create_cpython_wrapper(self, fndesc, env, None, release_gil=release_gil)
        finally:
            self._finalized = True


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


@register_pass(mutates_CFG=True, analysis_only=False)
class HelperLowering(NativeLowering):
    """numba's lowering, without the Python and C wrappers for a helper: only its callers call it, through
    its native entry.  The Python wrapper is added if Python calls it (:meth:`HelperLibrary.add_python_wrapper`)."""

    _name = "mjsim_helper_lowering"

    def run_pass(self, state):
        if not isinstance(state.library, HelperLibrary):
            return super().run_pass(state)
        flags = state.flags
        state.flags = flags.copy()  # the compile's own flags stay as they were: numba keys its caches by them
        state.flags.no_cpython_wrapper = True
        state.flags.no_cfunc_wrapper = True
        try:
            return super().run_pass(state)
        finally:
            state.flags = flags


class HelperAwareCompiler(Compiler):
    """numba's pipeline, compiling into a :class:`HelperLibrary` when compiled code asked for the function."""

    def define_pipelines(self):
        pipelines = super().define_pipelines()
        for pipeline in pipelines:
            pipeline.passes = [
                (HelperLowering if pass_ is NativeLowering else pass_, description)
                for pass_, description in pipeline.passes
            ]
            pipeline.finalize()
        return pipelines

    def compile_extra(self, func):
        helper = self.state.library is None and _depth() > 0 and not getattr(func, ENTRY_ATTRIBUTE, False)
        level = pass_level(func)
        if helper:
            library = HelperLibrary(self.state.targetctx.codegen(), func.__qualname__)
        elif self.state.library is None and level is not None:
            library = PassLevelLibrary(self.state.targetctx.codegen(), func.__qualname__)
        else:
            library = None
        if library is not None:
            library.pass_opt = level
            library.enable_object_caching()  # as numba's lowering does, so the library can be cached
            self.state.library = library
        with memoising():
            result = super().compile_extra(func)
        if not helper:
            _set_linked_environments(result.library)
        return result


def pass_level(func):
    """The level of LLVM's passes over ``func``'s library: :data:`HOT_PASS_LEVEL` for a function of
    :data:`HOT_PACKAGES`, else None (numba's ``NUMBA_OPT``, which mjsim sets to 1: ``mjsim._compiled_cache``)."""
    if int(config.OPT) == 0 or not func.__module__.startswith(HOT_PACKAGES):
        return None  # NUMBA_OPT=0 (debugging) is obeyed everywhere
    return HOT_PASS_LEVEL


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
                context, release_gil = self._lowering_context()
                library.add_python_wrapper(context, cres.fndesc, cres.environment, release_gil)
                library.emit()
                library.python_entry = self.targetctx.get_executable(library, cres.fndesc, cres.environment)
                self._insert([a._code for a in args], library.python_entry, cres.objectmode)
        return library.python_entry

    def _lowering_context(self):
        """The target context numba lowers this dispatcher's functions with (its options: reference counting,
        the error model), and whether they release the GIL, as numba's compile derives them."""
        flags = Flags()
        self.targetdescr.options.parse_as_flags(flags, self.targetoptions)
        flags = self._compiler._customize_flags(flags)
        return _make_subtarget(self.targetctx, flags), flags.release_gil


class _HelperAwareCacheImpl(CompileResultCacheImpl):
    def rebuild(self, target_context, payload):
        libdata, fndesc, env, signature, objectmode, lifted, typeann, reload_init, referenced_envs = payload
        name, kind, data = libdata
        if kind != "bitcode":  # only a helper is cached as bitcode: the rest is numba's own
            return super().rebuild(target_context, payload)
        # numba's CompileResult._rebuild, reading the helper back as a HelperLibrary, not emitted
        for reload in reload_init or ():
            reload()
        library = HelperLibrary.from_bitcode(target_context.codegen(), name, data)
        return CompileResult(
            target_context=target_context,
            typing_context=target_context.typing_context,
            library=library,
            environment=env,
            entry_point=target_context.get_executable(library, fndesc, env),  # a null address (get_pointer_to_function)
            fndesc=fndesc,
            type_annotation=typeann,
            signature=signature,
            objectmode=objectmode,
            lifted=lifted,
            typing_error=None,
            call_helper=None,
            metadata=None,
            reload_init=reload_init,
            referenced_envs=referenced_envs,
        )  # referenced environments are set when the helper or a caller is emitted


class HelperAwareCache(FunctionCache):
    """numba's disk cache for a dispatcher using :class:`HelperAwareCompiler`: a cached helper is read back
    un-emitted, as it was compiled."""

    _impl_class = _HelperAwareCacheImpl
