"""Rules as data: the Ruleset record, its option registry, presets and house files.

>>> from mjsim.rules import ruleset
>>> ruleset("jipinghu").cap
3
>>> ruleset("jipinghu_5fan", cap=3).cap
3

``ruleset(NAME_OR_PATH, **overrides)`` loads a bundled preset
(``preset_names()``) or a house TOML file (see :mod:`mjsim.rules.loader` for
the format and ``extends``); :data:`OPTIONS` documents every option.  The
scoring modules live in :mod:`mjsim.rules.scoring`, which this package does
not import (scoring imports rules, never the reverse).
"""

from mjsim.rules.describe import describe_presets, describe_ruleset
from mjsim.rules.frozen import FrozenTable
from mjsim.rules.loader import load_file, load_preset, loads, preset_names, ruleset
from mjsim.rules.options import OPTIONS, SECTIONS, Option, options_markdown, options_text
from mjsim.rules.ruleset import Ruleset

__all__ = [
    "OPTIONS",
    "SECTIONS",
    "FrozenTable",
    "Option",
    "Ruleset",
    "describe_presets",
    "describe_ruleset",
    "load_file",
    "load_preset",
    "loads",
    "options_markdown",
    "options_text",
    "preset_names",
    "ruleset",
]
