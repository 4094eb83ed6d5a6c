"""Policies (agents) for the batch simulator.

Each policy is a :class:`~mjsim.agents.base.Policy` whose ``act(obs, legal,
rng, params, rules)`` returns one legal int16 action per decision row (the
action codes of :mod:`mjsim.sim.constants`), reading only the
:class:`~mjsim.sim.observation.Observation`, the public ``PolicyRules``, its
parameters, its splitmix64 streams and the public hand tables.

- ``random`` — uniform over legal actions (the baseline that ignores everything, wild tiles too);
- ``efficiency`` — lowest shanten, widest ukeire;
- ``value`` — efficiency traded against what pays (flush, all pungs, honour pungs, minimum fan; in 推倒胡
  the big hands: seven pairs, full flush, four concealed pungs, all honours, thirteen orphans); ``greed``;
- ``defensive`` — efficiency until a visible threat, then folds safely and avoids 包 liability;
  ``late_wall``, ``fold_shanten``;
- ``expert`` — every choice by expected points over the rest of the hand: the family's compiled scorer on
  each winning tile, exact speed for ready and one-away hands, per-opponent danger; ``aggression``,
  ``depth``, ``plan_rate``, ``first_cap``, ``caution``.  It reads ``PolicyRules.ruleset`` (the scorer's tables).

``efficiency``, ``value``, ``defensive`` and ``expert`` read ``obs.wild``: a wild tile (鬼牌, C-J1) counts as any
missing tile when a hand is judged, and is never discarded while another tile may go.

``get_policy("value:greed=0.7")`` returns ``(policy, params)``; ``.spec`` is the normalised string the
engine logs per seat.

Third-party policies register through the entry-point group ``mjsim.policies``: an entry point
named like the policy whose object is a :class:`~mjsim.agents.base.Policy`, e.g. in the other
package's ``pyproject.toml``::

    [project.entry-points."mjsim.policies"]
    cautious = "my_package.cautious:POLICY"

Policies are resolved by name in each process that plays (on a cluster, on every worker), so the
package must be installed wherever the chunks run.
"""

from importlib.metadata import entry_points

from mjsim.agents import defensive, efficiency, expert, uniform, value
from mjsim.agents.base import ParsedPolicy, Policy, format_spec, parse_policy

ENTRY_POINT_GROUP = "mjsim.policies"
BUILT_IN = (uniform.POLICY, efficiency.POLICY, value.POLICY, defensive.POLICY, expert.POLICY)


def _registered() -> dict[str, Policy]:
    """The built-in policies, then every installed ``mjsim.policies`` entry point (a built-in name wins)."""
    found: dict[str, Policy] = {p.name: p for p in BUILT_IN}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name in found:
            continue
        policy = point.load()
        if not isinstance(policy, Policy) or policy.name != point.name:
            raise ValueError(
                f"entry point {point.name!r} = {point.value!r} in group {ENTRY_POINT_GROUP!r} must name a "
                f"mjsim.agents.base.Policy called {point.name!r}"
            )
        found[point.name] = policy
    return found


POLICIES: dict[str, Policy] = _registered()


def get_policy(spec: str) -> ParsedPolicy:
    """The policy and float64 parameters named by ``spec`` (``"efficiency"``, ``"value:greed=0.7"``)."""
    return parse_policy(spec, POLICIES)


__all__ = ["POLICIES", "ParsedPolicy", "Policy", "format_spec", "get_policy", "parse_policy"]
