"""The engine is compiled once per family group, and each build holds only its own families' scoring and settlement.

numba compiles a function once for each tuple of argument types, and it types every call in the
function's body, even in a branch the run never takes. So if the engine tested the family only at
run time, each first run would compile all four families' scorers and settlements.

Instead, the engine's parameters (``mjsim.sim.state.EngineParams``) come in one subclass per group,
and numba gives each NamedTuple class a type of its own. The parameters of a 鸡平胡 run and a 血战 run
then have different types, and the engine is compiled for each group apart. The few calls into
family-specific code are overloads that read that type (:func:`compiles_for`): in their own group's
build they become the families' code, and in the others nothing. 鸡平胡 and 推倒胡 share a group
because they share most of their code, and the demo plays both. Code that knows the family only at
run time passes a plain integer instead (the ``expert`` policy's scorer, for one); every family then
compiles, and its run-time tests choose.

Three phases of a hand are ruleset options any family may set, but only one group plays them in its
presets: 换三张 / 定缺 before play (XZ-H1, XZ-H2, ``SETUP``), 补花 (SHT-P2, ``FLOWERS``) and 分牌 (SHT-P7,
``SPLIT``).  Each group's build holds its presets' phases (``GROUP_PHASES``: none for Guangdong); a ruleset
playing a phase its group's build lacks gets the group's build with every phase (:func:`phases_of_build`).
The engine's calls into a phase are overloads that read the class's ``PHASES`` (:func:`compiles_phase`).

A subclass, not a family field of a type of its own: numba's dispatcher types a NamedTuple of plain
fields in C (10 us a call), and any other field sent it to Python's typing of all 76 (230 us).
"""

from __future__ import annotations

JIPINGHU, TUIDAOHU, XUEZHAN, SHUITOU = 0, 1, 2, 3
FAMILY_IDS = {"jipinghu": JIPINGHU, "tuidaohu": TUIDAOHU, "xuezhan": XUEZHAN, "shuitou": SHUITOU}
GROUPS = {"guangdong": (JIPINGHU, TUIDAOHU), "xuezhan": (XUEZHAN,), "shuitou": (SHUITOU,)}
REPRESENTATIVE_PRESETS = {"guangdong": "jipinghu", "xuezhan": "xuezhan_dingque", "shuitou": "shuitou"}
SETUP, FLOWERS, SPLIT = "setup", "flowers", "split"
EVERY_PHASE = frozenset({SETUP, FLOWERS, SPLIT})
GROUP_PHASES = {"guangdong": frozenset(), "xuezhan": frozenset({SETUP}), "shuitou": frozenset({FLOWERS, SPLIT})}


def group_of(family: str) -> str:
    """The group whose engine build plays the ruleset family ``family``."""
    if family not in FAMILY_IDS:
        raise ValueError(f"family {family!r} is not one of {sorted(FAMILY_IDS)}")
    return next(group for group, ids in GROUPS.items() if FAMILY_IDS[family] in ids)


def compiles_for(build_type, *family_ids: int) -> bool:
    """While numba types an overload: whether code for the families ``family_ids`` belongs in a function
    compiled for ``build_type``: a group's engine parameters hold their group's families (the class's
    ``FAMILIES``); an integer family, known only at run time, holds every family."""
    families = getattr(getattr(build_type, "instance_class", None), "FAMILIES", None)
    return families is None or any(family in families for family in family_ids)


def phases_of(ruleset) -> frozenset[str]:
    """The optional phases ``ruleset`` plays."""
    wanted = {
        SETUP: ruleset.exchange_three or ruleset.declare_void,
        FLOWERS: ruleset.tile_set == 144 or ruleset.white_is_flower,
        SPLIT: ruleset.split_tiles_at > 0,
    }
    return frozenset(phase for phase, on in wanted.items() if on)


def phases_of_build(ruleset) -> frozenset[str]:
    """The phases compiled into the build that plays ``ruleset``: its group's, or every phase if the ruleset
    plays one its group's presets do not."""
    group_phases = GROUP_PHASES[group_of(ruleset.family)]
    return group_phases if phases_of(ruleset) <= group_phases else EVERY_PHASE


def compiles_phase(build_type, phase: str) -> bool:
    """While numba types an overload: whether the code of ``phase`` belongs in a function compiled for
    ``build_type`` (a group's engine parameters, whose class holds ``PHASES``)."""
    phases = getattr(getattr(build_type, "instance_class", None), "PHASES", None)
    return phases is None or phase in phases
