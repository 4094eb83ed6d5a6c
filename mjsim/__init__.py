"""mjsim: Monte Carlo strategy analytics for Chinese regional mahjong.

Public names (loaded lazily so that ``import mjsim`` stays cheap):

- :func:`ruleset` and :class:`Ruleset` — rules as data (``mjsim.rules``);
- :func:`score_hand` and :class:`HandScore` — the reference scorer; :func:`base_tai` — a 水头
  non-winner's base 台;
- :func:`resettle` — logged hands paid again under other scoring options;
- :mod:`mjsim.hand` — table-driven hand evaluation; :mod:`mjsim.tiles` — notation.
"""

from importlib import import_module

from mjsim._compiled_cache import configure as _configure_compiled_cache
from mjsim._version import __version__, code_version

_configure_compiled_cache()  # before any compiled module is imported

_LAZY = {
    "ruleset": "mjsim.rules",
    "Ruleset": "mjsim.rules",
    "score_hand": "mjsim.rules.scoring",
    "HandScore": "mjsim.rules.scoring",
    "base_tai": "mjsim.rules.scoring",
    "resettle": "mjsim.analysis.resettle",
}

__all__ = ["__version__", "code_version", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mjsim' has no attribute {name!r}")
