"""Rows of scripted hands (tests/simtools.py ``ScriptedHand``) in the form a run's log gives the checker."""

import numpy as np


def logged_row(row: dict) -> dict:
    """The row with numpy values as the Python values of a log.

    ScriptedHand sets its horses aside directly rather than from the wall's back, so the horses are the pool."""
    plain = {}
    for key, value in row.items():
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, np.generic):
            value = value.item()
        plain[key] = value
    plain["horse_pool"] = plain["horses"]
    return plain
