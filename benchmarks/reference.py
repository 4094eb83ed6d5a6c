"""The fixed yardstick every speed figure is printed beside: riichienv (a Rust riichi engine).

Machines here differ by 2x or more from one day to the next, so a figure alone
says little; the same machine's riichienv rate, measured in the same run, turns
it into a ratio that holds.  riichienv is not a dependency of mjsim
(``pip install riichienv``); without it the ratios are left out and the script says so.

Every script judges its targets with :func:`verdict` and ends with :func:`exit_status`, so
a script exits 1 when a target it printed was not met (a shell loop or a scheduler sees it).
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


_missed: list[str] = []


def verdict(met: bool, target: str) -> str:
    """``met`` or ``NOT met``; a miss is remembered (``target`` names it) for :func:`exit_status`."""
    if not met:
        _missed.append(target)
    return "met" if met else "NOT met"


def exit_status() -> int:
    """1 after naming the targets this run printed as not met, else 0 (for ``raise SystemExit``)."""
    if _missed:
        print(f"targets not met: {'; '.join(_missed)}")
    return 1 if _missed else 0


def reference_line(rate: float | None) -> str:
    if rate is None:
        return "riichienv: not installed, ratios left out (pip install riichienv to measure the reference)"
    return f"reference: riichienv, random agents, one core: {rate:,.0f} hands/s (measured in this run)"


def ratio_text(figure: float, rate: float | None, target: float | None = None) -> str:
    """``= 12.3x riichienv (target >= 25x: met)``, or nothing without the reference."""
    if rate is None:
        return ""
    ratio = figure / rate
    if target is None:
        return f" = {ratio:.1f}x riichienv"
    judged = verdict(ratio >= target, f">= {target:g}x riichienv")
    return f" = {ratio:.1f}x riichienv (target >= {target:g}x: {judged})"
