"""Compile the kernels ahead of use, in two parts that two processes build at the same time.

numba compiles a kernel on its first call and caches it on disk; two processes
that both start cold compile the same kernels twice.  ``engine`` (the batch
engine with every family's scorer and settlement) and ``policies`` (every
registered policy's kernel) share almost no code, so building them in separate
processes at once halves the wait, and afterwards every process loads them from
the cache.  ``python -m mjsim.sim.warmup`` builds both in two processes.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np

PARTS = ("engine", "policies")


def compile_engine() -> None:
    """One hand of 鸡平胡 and one of 血战 with 定缺 and 换三张 (the engine, its scorers and the setup helpers)."""
    from mjsim.rules import ruleset
    from mjsim.sim.runner import play_sessions, seat_policies

    for name in ("jipinghu", "xuezhan_dingque"):
        for _ in play_sessions(ruleset(name), seat_policies("random"), seed=0, first_session=0, end_session=1,
                               as_arrow=True):  # fmt: skip
            pass


def compile_policies(specs=None) -> None:
    """The kernels of the policies ``specs`` (a run's policy specs, in any form
    :func:`~mjsim.sim.runner.seat_policies` reads; default: every registered policy), each called on an
    empty batch (compiling needs only the types)."""
    from mjsim.agents import POLICIES, get_policy
    from mjsim.rules import ruleset
    from mjsim.sim.constants import N_ACTIONS
    from mjsim.sim.observation import empty_observation, policy_rules, take
    from mjsim.sim.runner import seat_policies

    rules = policy_rules(ruleset("jipinghu"))
    obs = take(empty_observation(1), slice(0, 0))
    legal = np.zeros((0, N_ACTIONS), np.bool_)
    for name in POLICIES if specs is None else sorted(set(seat_policies(specs).specs)):
        policy, params = get_policy(name)
        policy.act(obs, legal, np.zeros(0, np.uint64), params, rules)


def compile_part(part: str, policies=None) -> None:
    """Build one part (``policies``: the policy specs whose kernels to build, as :func:`compile_policies`)."""
    if part not in PARTS:
        raise ValueError(f"warm-up part {part!r} is not one of {list(PARTS)}")
    if part == "engine":
        compile_engine()
    else:
        compile_policies(policies)


def compile_in_parallel() -> None:
    """Build both parts, each in its own process, and wait for them (a warm cache: a few seconds)."""
    processes = [subprocess.Popen([sys.executable, "-m", "mjsim.sim.warmup", part]) for part in PARTS]
    failed = [part for part, process in zip(PARTS, processes) if process.wait() != 0]
    if failed:
        raise RuntimeError(f"compiling the {' and '.join(failed)} kernels failed (see the message above)")


if __name__ == "__main__":  # the package import has already pointed numba at mjsim's cache
    if len(sys.argv) > 1:
        compile_part(sys.argv[1])
    else:
        compile_in_parallel()
