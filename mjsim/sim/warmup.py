"""Compile the kernels ahead of use, in two parts that two processes build at the same time.

numba compiles a kernel on its first call and caches it on disk; two processes
that both start cold compile the same kernels twice.  ``engine`` (the batch
engine, one build for each family group, :mod:`mjsim.sim.families`) and
``policies`` (every registered policy's kernel) share almost no code, so building
them in separate processes at once halves the wait, and afterwards every process
loads them from the cache.  ``python -m mjsim.sim.warmup`` builds every group's
engine and the policies, each in its own process;
``python -m mjsim.sim.warmup engine xuezhan`` builds one part.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np

PARTS = ("engine", "policies")


def compile_engine(families=None) -> None:
    """One hand of each family group's representative preset (the group's engine build, its scorers and its
    setup helpers: 血战's is ``xuezhan_dingque``, with 定缺 and 换三张), for the groups of ``families``
    (ruleset family names; default: every group)."""
    from mjsim.rules import ruleset
    from mjsim.sim.families import GROUPS, REPRESENTATIVE_PRESETS, group_of
    from mjsim.sim.runner import play_sessions, seat_policies

    wanted = set(GROUPS) if families is None else {group_of(family) for family in families}
    for group in GROUPS:
        if group not in wanted:
            continue
        name = REPRESENTATIVE_PRESETS[group]
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


def compile_part(part: str, what=None) -> None:
    """Build one part: ``engine`` for the family groups of ``what`` (family names, default every group), or
    ``policies`` for the policy specs ``what`` (as :func:`compile_policies`)."""
    if part not in PARTS:
        raise ValueError(f"warm-up part {part!r} is not one of {list(PARTS)}")
    if part == "engine":
        compile_engine(what)
    else:
        compile_policies(what)


def compile_in_parallel() -> None:
    """Build every group's engine and the policies, each in its own process, and wait for them (a warm
    cache: a few seconds)."""
    from mjsim.rules import ruleset
    from mjsim.sim.families import GROUPS, REPRESENTATIVE_PRESETS

    jobs = [("engine", ruleset(REPRESENTATIVE_PRESETS[group]).family) for group in GROUPS] + [("policies",)]
    processes = [subprocess.Popen([sys.executable, "-m", "mjsim.sim.warmup", *job]) for job in jobs]
    failed = [" ".join(job) for job, process in zip(jobs, processes) if process.wait() != 0]
    if failed:
        raise RuntimeError(f"compiling the kernels of {', '.join(failed)} failed (see the message above)")


if __name__ == "__main__":  # the package import has already pointed numba at mjsim's cache
    if len(sys.argv) > 1:
        compile_part(sys.argv[1], sys.argv[2:] or None)
    else:
        compile_in_parallel()
