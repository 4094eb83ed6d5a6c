"""Parameter lists whose first cases run in the quick subset (``pytest -m 'not slow'``) and the rest only
in the whole suite."""

import pytest


def first_quick(values, quick: int = 1) -> list:
    """``values`` with every case after the first ``quick`` marked ``slow``."""
    return [value if i < quick else pytest.param(value, marks=pytest.mark.slow) for i, value in enumerate(values)]
