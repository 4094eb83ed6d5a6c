"""The fixed yardstick every speed figure is printed beside: riichienv (a Rust riichi engine).

Machines here differ by 2x or more from one day to the next, so a figure alone
says little; the same machine's riichienv rate, measured in the same run, turns
it into a ratio that holds.  riichienv is not a dependency of mjsim
(``pip install riichienv``); without it the ratios are left out and the script says so.
"""

from __future__ import annotations

import random
import time


def riichienv_hands_per_second(hands: int = 300) -> float | None:
    """Hands per second of riichienv with uniformly random legal actions on one core (a hand is one
    (round, repeat) state of a game), or None when riichienv is not installed."""
    try:
        import riichienv
    except ImportError:
        return None
    env = riichienv.RiichiEnv()
    rng = random.Random(0)
    played = 0
    start = time.perf_counter()
    while played < hands:
        observations = env.reset()
        rounds = set()
        while not env.done():
            rounds.add((env.kyoku_idx, env.honba))
            actions = {seat: rng.choice(o.legal_actions()) for seat, o in observations.items()}
            observations = env.step(actions)
        played += len(rounds)
    return played / (time.perf_counter() - start)


def reference_line(rate: float | None) -> str:
    if rate is None:
        return "riichienv: not installed, ratios left out (pip install riichienv to measure the reference)"
    return f"reference: riichienv, random agents, one core: {rate:,.0f} hands/s (measured in this run)"


def ratio_text(figure: float, rate: float | None, target: float | None = None) -> str:
    """``= 12.3x riichienv (target >= 25x: met)``, or nothing without the reference."""
    if rate is None:
        return ""
    ratio = figure / rate
    verdict = "" if target is None else f" (target >= {target:g}x: {'met' if ratio >= target else 'NOT met'})"
    return f" = {ratio:.1f}x riichienv{verdict}"
