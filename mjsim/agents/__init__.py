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
  ``late_wall``, ``fold_shanten``.

``efficiency``, ``value`` and ``defensive`` read ``obs.wild``: a wild tile (鬼牌, C-J1) counts as any
missing tile when a hand is judged, and is never discarded while another tile may go.

``get_policy("value:greed=0.7")`` returns ``(policy, params)``; ``.spec`` is the normalised string the
engine logs per seat.
"""

from mjsim.agents import defensive, efficiency, uniform, value
from mjsim.agents.base import ParsedPolicy, Policy, format_spec, parse_policy

POLICIES: dict[str, Policy] = {p.name: p for p in (uniform.POLICY, efficiency.POLICY, value.POLICY, defensive.POLICY)}


def get_policy(spec: str) -> ParsedPolicy:
    """The policy and float64 parameters named by ``spec`` (``"efficiency"``, ``"value:greed=0.7"``)."""
    return parse_policy(spec, POLICIES)


__all__ = ["POLICIES", "ParsedPolicy", "Policy", "format_spec", "get_policy", "parse_policy"]
