"""The engine is compiled once per family group, and each build holds only its own families' scoring and settlement.

numba compiles a function once for each tuple of argument types, and it types every call in the
function's body, even in a branch the run never takes. So if the engine tested the family only at
run time, each first run would compile all four families' scorers and settlements.

Instead, ``EngineParams.family`` is a member of an ``IntEnum`` whose class is the family's group.
The parameters of a 鸡平胡 run and a 血战 run then have different numba types, and the engine is
compiled for each group apart. The few calls into family-specific code are overloads that read that
type (:func:`compiles_for`): they become the families' code in their own group's build and nothing in
the others. 鸡平胡 and 推倒胡 share a group because they share most of their code, and the demo plays
both. Code that knows the family only at run time passes a plain integer (the ``expert`` policy's
scorer, for one); every family then compiles, and its run-time tests choose.
"""

from __future__ import annotations

from enum import IntEnum


class Guangdong(IntEnum):
    """鸡平胡 and 推倒胡 (one build: they share the table, the horses and most rules)."""

    JIPINGHU = 0
    TUIDAOHU = 1


class Xuezhan(IntEnum):
    XUEZHAN = 2


class Shuitou(IntEnum):
    SHUITOU = 3


GROUPS = (Guangdong, Xuezhan, Shuitou)
JIPINGHU, TUIDAOHU, XUEZHAN, SHUITOU = (int(m) for m in (*Guangdong, *Xuezhan, *Shuitou))  # plain, for compiled tests
MEMBERS = {member.name.lower(): member for group in GROUPS for member in group}  # values: observation.FAMILY_IDS
REPRESENTATIVE_PRESETS = {Guangdong: "jipinghu", Xuezhan: "xuezhan_dingque", Shuitou: "shuitou"}


def family_member(family: str) -> IntEnum:
    """The engine's value for a ruleset family (``"jipinghu"`` -> ``Guangdong.JIPINGHU``)."""
    try:
        return MEMBERS[family]
    except KeyError:
        raise ValueError(f"family {family!r} is not one of {sorted(MEMBERS)}") from None


def group_of(family: str) -> type[IntEnum]:
    """The group whose engine build plays ``family``."""
    return type(family_member(family))


def compiles_for(family_type, *family_ids: int) -> bool:
    """While numba types an overload: whether code for the families ``family_ids`` belongs in a function
    compiled for ``family_type``: a group's ``IntEnumMember`` holds its own members; an integer, known only
    at run time, holds every family."""
    from numba import types

    if isinstance(family_type, types.IntEnumMember):
        return any(member.value in family_ids for member in family_type.instance_class)
    return True
