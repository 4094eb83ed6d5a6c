"""Hand evaluation: batched table-driven kernels and the per-hand decomposition reference.

- :func:`is_win`, :func:`shanten`, :func:`winning_tiles` — over ``(B, 34)`` counts or one hand
  (:mod:`mjsim.hand.kernels` checks the input; the compiled numba loops of :mod:`mjsim.hand.batch`,
  imported on the first call so that importing this package loads no numba, read the tables of
  :mod:`mjsim.hand.tables`);
- :func:`decompositions` — every split of a complete hand into sets and pair, with wild tiles
  (:mod:`mjsim.hand.decompose`), used by the reference scorer.
"""

from importlib import import_module

from mjsim.hand.kernels import FORMS, is_win, shanten, winning_tiles

__all__ = ["FORMS", "Decomposition", "decompositions", "is_win", "shanten", "winning_tiles"]


def __getattr__(name):
    # the per-hand reference is loaded on first use; the batch kernels never need it
    if name in ("Decomposition", "decompositions"):
        return getattr(import_module("mjsim.hand.decompose"), name)
    raise AttributeError(f"module 'mjsim.hand' has no attribute {name!r}")
