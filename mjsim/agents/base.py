"""What a policy is (``Policy``) and how a policy spec string is read (``parse_policy``).

A spec names a policy and optionally sets its parameters:
``"efficiency"``, ``"value:greed=0.7"``, ``"defensive:late_wall=30,fold_shanten=2"``.
Parameters are plain numbers (data, logged per seat): ``act`` receives them
as a float64 array in the order of ``default_params``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from mjsim.hand.tables import shape_table  # noqa: F401  (the policies' table, imported from here by them)
from mjsim.sim.observation import PolicyRules

RULE_NUMBERS = PolicyRules._fields.index("ruleset")  # the numeric fields come first
RULE = {name: index for index, name in enumerate(PolicyRules._fields[:RULE_NUMBERS])}
"""Index of each numeric ``PolicyRules`` field in :func:`rules_array` (kernels read the rules as int64)."""
RULE_FORMS = RULE["forms"]
RULE_MIN_FAN = RULE["min_fan"]
RULE_CHOW = RULE["chow"]
RULE_FAMILY = RULE["family"]
RULE_ALL_PUNGS = RULE["fan_all_pungs"]
RULE_HALF_FLUSH = RULE["fan_half_flush"]
RULE_FULL_FLUSH = RULE["fan_full_flush"]
RULE_DRAGON = RULE["fan_dragon_pung"]
RULE_WIND = RULE["fan_wind_pung"]
RULE_SEVEN_PAIRS = RULE["fan_seven_pairs"]
RULE_LIAB_TWELVE = RULE["liability_twelve_tiles"]
RULE_LIAB_LIMIT = RULE["liability_limit_hands"]


@dataclass(frozen=True, eq=False)  # eq=False: hashable by identity (engines may group seats by policy)
class Policy:
    """A policy: ``act(obs, legal, rng, params, rules) -> int16 (N,)`` actions, one per decision row."""

    name: str
    act: Callable
    default_params: dict[str, float]
    doc: str
    bounds: dict[str, tuple[float, float]] = field(default_factory=dict)  # inclusive ranges of the parameters
    # Ruleset options whose values change this policy's choices beyond the legal actions (what it values or
    # fears).  A comparison may re-settle a variant only where no seated policy reads an option it changes.
    reads: frozenset[str] = frozenset()
    # The choices before play (换三张 tiles, the 定缺 suit: decisions EXCHANGE and VOID), called like ``act``;
    # None leaves them to the common choice (mjsim.agents.legal.setup_choice).
    setup: Callable | None = None

    def param_names(self) -> tuple[str, ...]:
        return tuple(self.default_params)

    def defaults(self) -> np.ndarray:
        return np.array(list(self.default_params.values()), dtype=np.float64)


class ParsedPolicy(NamedTuple):
    """A policy with its parameter values (unpacks as ``policy, params``)."""

    policy: Policy
    params: np.ndarray  # float64 (k,), order of policy.default_params

    @property
    def spec(self) -> str:
        """The normalised spec: every parameter, in declaration order (``"value:greed=0.7"``)."""
        return format_spec(self.policy, self.params)


def _number(value: float) -> str:
    text = format(float(value), ".15g")
    return text if float(text) == float(value) else repr(float(value))


def format_spec(policy: Policy, params) -> str:
    """``name`` or ``name:k=v,...`` with every parameter of ``policy``."""
    values = np.asarray(params, dtype=np.float64)
    if not policy.default_params:
        return policy.name
    parts = [f"{name}={_number(v)}" for name, v in zip(policy.default_params, values)]
    return f"{policy.name}:{','.join(parts)}"


def parse_policy(spec: str, registry: dict[str, Policy] | None = None) -> ParsedPolicy:
    """Read ``"name"`` or ``"name:param=value,..."`` into the policy and its float64 parameters.

    Raises ``ValueError`` naming the bad part (unknown policy, unknown or
    repeated parameter, a value that is not a finite number or lies outside
    the parameter's range) and listing what exists.
    """
    if registry is None:
        from mjsim.agents import POLICIES as registry
    if not isinstance(spec, str):
        raise ValueError(f"a policy spec must be a string like 'value:greed=0.7', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name not in registry:
        raise ValueError(f"unknown policy {name!r} in {spec!r}; policies: {', '.join(sorted(registry))}")
    policy = registry[name]
    params = policy.defaults()
    seen: set[str] = set()
    parts = [p.strip() for p in rest.split(",")] if rest.strip() else []
    for part in parts:
        key, eq, text = (s.strip() for s in part.partition("="))
        known = ", ".join(policy.default_params) or "none"
        if key not in policy.default_params:
            raise ValueError(f"policy {name!r} has no parameter {key!r} (in {spec!r}); its parameters: {known}")
        if not eq:
            raise ValueError(f"parameter {key!r} in {spec!r} needs a value: write {key}=<number>")
        if key in seen:
            raise ValueError(f"parameter {key!r} is given twice in {spec!r}")
        seen.add(key)
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"parameter {key}={text!r} in {spec!r} is not a number") from None
        if not math.isfinite(value):
            raise ValueError(f"parameter {key}={text!r} in {spec!r} is not a finite number")
        low, high = policy.bounds.get(key, (-math.inf, math.inf))
        if not low <= value <= high:
            raise ValueError(f"parameter {key}={text} in {spec!r} lies outside its range [{low:g}, {high:g}]")
        params[list(policy.default_params).index(key)] = value
    return ParsedPolicy(policy, params)


@lru_cache(maxsize=64)
def rules_array(rules) -> np.ndarray:
    """The numeric ``PolicyRules`` fields as a read-only int64 array for the kernels (declaration order; cached)."""
    values = np.array([int(v) for v in rules[:RULE_NUMBERS]], dtype=np.int64)
    values.flags.writeable = False
    return values


def param_array(params, names: tuple[str, ...], policy: str) -> np.ndarray:
    """``params`` as float64, checked to hold one value per parameter name (in that order)."""
    values = np.ascontiguousarray(params, dtype=np.float64).reshape(-1)
    if values.size != len(names):
        raise ValueError(f"policy {policy!r} takes {len(names)} parameters {list(names)}, got {values.size}")
    return values


def new_actions(obs) -> np.ndarray:
    """The int16 output array for the rows of ``obs``."""
    return np.empty(obs.hand.shape[0], dtype=np.int16)
