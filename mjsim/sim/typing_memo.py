"""Remember, for the rest of the process, how numba typed a call to a global function.

numba's type inference goes over a function's constraints until none changes, and every round types each
call again.  For a call to a global function (an operator, a numpy function, an ``@overload``, an
intrinsic), it asks the function's templates one by one, each asking numba's overload cache, whose key
hashes and compares the compile's flags option by option.  In the engine's warm-up part that happened
17,600 times for 1,121 distinct questions; answering the repeats from memory takes 0.88x the part's CPU
(paired whole-process runs, empty caches).

The answer is a function of what the key holds: the function type (its templates are part of it, so an
overload registered later makes a new type), the typing context, the local target, the argument types
(a literal's value is part of its type) and the flags of the compile under way (which numba's own overload
cache keys by too).  A failure is never remembered: it raises again, with numba's own message.  The memo
is consulted only while mjsim compiles (:func:`memoising`); other numba users in the process get numba's
own path.
"""

from __future__ import annotations

import contextlib
import threading

from numba.core import targetconfig
from numba.core.target_extension import get_local_target
from numba.core.types.functions import BaseFunction

_numba_get_call_type = BaseFunction.get_call_type
_answers: dict = {}
_state = threading.local()


def _get_call_type(self, context, args, kws):
    if not getattr(_state, "depth", 0):
        return _numba_get_call_type(self, context, args, kws)
    key = (self, context, get_local_target(context), tuple(args), tuple(kws.items()),
           targetconfig.ConfigStack.top_or_none())  # fmt: skip
    try:
        return _answers[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable argument type: numba's path, unremembered
        return _numba_get_call_type(self, context, args, kws)
    signature = _numba_get_call_type(self, context, args, kws)
    if signature is not None:
        _answers[key] = signature
    return signature


BaseFunction.get_call_type = _get_call_type


@contextlib.contextmanager
def memoising():
    """Answer repeated typing questions from memory while the block runs (an mjsim compile)."""
    _state.depth = getattr(_state, "depth", 0) + 1
    try:
        yield
    finally:
        _state.depth -= 1


def remembered() -> int:
    """How many answers the memo holds."""
    return len(_answers)
