"""What a player sees at a decision: the ``Observation`` arrays and the ``PolicyRules``.

The engine fills one row per pending decision; policies read only these
arrays (never the wall or other players' concealed tiles).  Other players
appear by relative position r = (their seat - my seat) % 4: 1 下家 (plays
after me), 2 对家, 3 上家; r = 0 is the player themself.
"""

import math
from typing import NamedTuple

import numpy as np

from mjsim.hand.fast import form_bits
from mjsim.sim.families import FAMILY_IDS


class Observation(NamedTuple):
    hand: np.ndarray  # int8 (N, 34): own concealed tiles (on TURN incl. the drawn tile)
    n_concealed: np.ndarray  # int8 (N,)
    sets_needed: np.ndarray  # int8 (N,): sets still to make in the concealed part
    exposed: np.ndarray  # int8 (N, 4, 34): tiles of declared melds per relative seat (concealed kongs too)
    meld_count: np.ndarray  # int8 (N, 4): melds declared per relative seat
    discards: np.ndarray  # int8 (N, 4, 34): tiles each relative seat has discarded
    visible: np.ndarray  # int8 (N, 34): own hand + every exposed meld + every discard (unseen = 4 - visible)
    wall_left: np.ndarray  # int16 (N,): drawable tiles left
    seat_offset: np.ndarray  # int8 (N,): offset from the dealer (seat wind tile = 27 + offset)
    round_wind: np.ndarray  # int8 (N,): 0..3 (round wind tile = 27 + round_wind)
    decision: np.ndarray  # int8 (N,): TURN, RESPONSE, ROB, or before play EXCHANGE (XZ-H1) or VOID (XZ-H2)
    target: np.ndarray  # int8 (N,): tile discarded/added (RESPONSE/ROB) or just drawn (TURN; -1 after a claim)
    target_from: np.ndarray  # int8 (N,): relative seat of the discarder/konger; -1 on TURN
    wild: np.ndarray  # bool (N, 34): the hand's wild kinds (鬼牌 / 财神, public once turned up or fixed)
    void_suit: np.ndarray  # int8 (N,): the suit the player declared void (XZ-H2 定缺), -1 none
    flower_groups: np.ndarray  # int8 (N, 3): the player's own flowers set aside (SHT-P2): red, black, 白板


def empty_observation(rows: int) -> Observation:
    """Preallocated observation buffers for up to ``rows`` decision rows."""
    return Observation(
        hand=np.zeros((rows, 34), np.int8),
        n_concealed=np.zeros(rows, np.int8),
        sets_needed=np.zeros(rows, np.int8),
        exposed=np.zeros((rows, 4, 34), np.int8),
        meld_count=np.zeros((rows, 4), np.int8),
        discards=np.zeros((rows, 4, 34), np.int8),
        visible=np.zeros((rows, 34), np.int8),
        wall_left=np.zeros(rows, np.int16),
        seat_offset=np.zeros(rows, np.int8),
        round_wind=np.zeros(rows, np.int8),
        decision=np.zeros(rows, np.int8),
        target=np.zeros(rows, np.int8),
        target_from=np.zeros(rows, np.int8),
        wild=np.zeros((rows, 34), np.bool_),
        void_suit=np.full(rows, -1, np.int8),
        flower_groups=np.zeros((rows, 3), np.int8),
    )


def take(obs: Observation, rows) -> Observation:
    """The observation rows ``rows`` (an index array or slice)."""
    return Observation(*(field[rows] for field in obs))


class PolicyRules(NamedTuple):
    """The parts of the ruleset a policy may know (all public rules)."""

    forms: int  # shanten forms bits: 1 standard, 2 seven pairs, 4 thirteen orphans, 8 distinct pairs only
    min_fan: int  # JPH-P4: a win below it is illegal (the legal mask already enforces it)
    chow: bool
    family: int  # 0 jipinghu, 1 tuidaohu, 2 xuezhan, 3 shuitou
    fan_all_pungs: int  # what the ruleset pays for the shapes the value policy chases (0 if nothing)
    fan_half_flush: int
    fan_full_flush: int
    fan_dragon_pung: int  # per dragon pung (JPH-F3 bonus)
    fan_wind_pung: int  # seat/round wind pung bonus
    fan_seven_pairs: int
    liability_twelve_tiles: bool  # JPH-S4: the defensive policy avoids feeding a fourth exposed set
    liability_limit_hands: bool  # JPH-S5
    fan_concealed: int  # JPH-F3 门前清 bonus (0 if the ruleset has none)
    fan_self_draw: int  # JPH-F3 自摸 bonus
    max_suits: int  # XZ-P2: most suits in a winning hand (2 = 缺一门: every policy plays one suit out)
    declare_void: bool  # XZ-H2 定缺: the void suit is declared (``Observation.void_suit``)
    # the whole (public) Ruleset, for a policy that values hands with the family's own compiled scorer
    # (``expert``); not a number, so the kernels' int64 view (``rules_array``) leaves it out
    ruleset: object = None


TYPICAL_SHT_TAI = 8  # a 水头 winner's base 台 (mean and median of 2,000 efficiency hands: 8.0)


def shuitou_steps(ruleset, tai: int) -> int:
    """水头 台 in the value policy's fan-like steps: log2 of how much ``tai`` more multiplies a typical
    winning total (``TYPICAL_SHT_TAI``), with the SHT-T3 doubling, rounded."""

    def total(x):
        return x * ruleset.double_factor if x >= ruleset.double_from_tai else x

    return round(math.log2(total(TYPICAL_SHT_TAI + tai) / total(TYPICAL_SHT_TAI)))


def _shuitou_fan(ruleset) -> dict:
    """SHT-T2 all_pungs +7, half_flush +7, full_flush +13 as steps (the value policy values 台, not fan)."""
    return {"all_pungs": shuitou_steps(ruleset, 7), "half_flush": shuitou_steps(ruleset, 7),
            "full_flush": shuitou_steps(ruleset, 13)}  # fmt: skip


def policy_rules(ruleset) -> PolicyRules:
    """The policy-visible summary of a ``Ruleset``."""
    forms = form_bits(ruleset)
    fan = dict(ruleset.fan) | dict(ruleset.limit_fan) | dict(ruleset.xz_fan)
    if ruleset.family == "shuitou":
        fan = _shuitou_fan(ruleset)
    big = 1 if ruleset.hand_value == "small_big" else 0
    bonuses = set(ruleset.bonuses)
    return PolicyRules(
        forms=forms,
        min_fan=ruleset.min_fan,
        chow=ruleset.chow,
        family=FAMILY_IDS[ruleset.family],
        fan_all_pungs=fan.get("all_pungs", 0),
        fan_half_flush=fan.get("half_flush", 0),
        fan_full_flush=fan.get("full_flush", big if "full_flush" in ruleset.big_hands else 0),
        fan_dragon_pung=1 if "dragon_pung" in bonuses else 0,
        fan_wind_pung=1 if ("seat_wind" in bonuses or "round_wind" in bonuses) else 0,
        fan_seven_pairs=fan.get("seven_pairs", big if "seven_pairs" in ruleset.big_hands else 0),
        # 包自摸 exists only in 鸡平胡 (JPH-S4/S5); elsewhere the switches are inert
        liability_twelve_tiles=ruleset.family == "jipinghu" and ruleset.liability_twelve_tiles,
        liability_limit_hands=ruleset.family == "jipinghu" and ruleset.liability_limit_hands,
        fan_concealed=1 if "concealed" in bonuses else 0,
        fan_self_draw=1 if "self_draw" in bonuses else 0,
        max_suits=ruleset.max_suits,
        declare_void=ruleset.declare_void,
        ruleset=ruleset,
    )
