"""The batch state: every table's hand as arrays with a leading table axis.

``State`` holds what the engine mutates (a numba struct reference over numpy
arrays); ``EngineParams`` what it reads from the ruleset and the run (a
NamedTuple of scalars and one array).  Shapes use ``B`` tables, four
absolute seats, 34 tile kinds and up to ``MAX_MELDS`` melds a seat.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import cgutils, imputils, types
from numba.core.datamodel import default_manager, models
from numba.core.extending import infer_getattr, intrinsic, lower_getattr_generic, lower_setattr_generic
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.core.typing.templates import AttributeTemplate
from numba.experimental import structref
from numba.experimental.jitclass.base import imp_dtor

from mjsim.hand.fast import form_bits
from mjsim.sim.borrowing import kernel
from mjsim.sim.constants import MAX_MELDS, MAX_WALL
from mjsim.sim.families import (
    EVERY_PHASE,
    FAMILY_IDS,
    FLOWERS,
    GROUP_PHASES,
    GROUPS,
    group_of,
    phases_of,
    phases_of_build,
)
from mjsim.sim.fastscore import N_PATTERNS
from mjsim.tiles import parse_tiles, tile_set_wall

# phases of a table
PH_DRAW = 0  # the actor must draw (or the wall is empty: exhaustive draw)
PH_TURN = 1  # the actor decides: win, kong or discard
PH_RESPONSE = 2  # the others answer the actor's discard
PH_ROB = 3  # the others may rob the actor's added kong
PH_END = 4  # the hand is over: settle, record, start the next
PH_IDLE = 5  # no hands left for this table
PH_EXCHANGE = 6  # XZ-H1 换三张: every seat picks a tile to pass (three rounds), then the tiles move
PH_VOID = 7  # XZ-H2 定缺: every seat names its void suit

# XZ-E end-of-wall state of a seat (END_STATE_NAMES in the logs)
END_WON, END_READY, END_NOT_READY, END_FLOWER_PIG = range(4)
END_STATE_NAMES = ("won", "ready", "not_ready", "flower_pig")

N_COMPONENTS = 6  # transfer components, C-M1 (SHT-M2: the non-winners' base 台 settlement is its own)
C_WIN, C_KONG, C_HORSE, C_LIABILITY, C_PENALTY, C_BASE = range(N_COMPONENTS)
COMPONENT_NAMES = ("win", "kong", "horse", "liability", "penalty", "base")
N_FLOWER_SLOTS = 9  # SHT-P1: 1f..8f, then 白板 5z where it is a flower (a count, four copies)
WHITE_SLOT = 8
MAX_KONGS = 16
MAX_WINS = 4  # win slots of a hand: 血战到底 has at most three winners, 一炮多响 three on one discard
MAX_FLOW_WINS = 64  # XZ-H7 血流成河: a seat may win again and again until the wall is empty
N_XZ_RULES = 4  # XZ money the logs break out of net_kong / net_penalty (XZ_RULE_NAMES)
XZ_CALL_TRANSFER, XZ_TAX_REFUND, XZ_FLOWER_PIG, XZ_NOT_READY = range(N_XZ_RULES)
XZ_RULE_NAMES = ("call_transfer", "tax_refund", "flower_pig", "not_ready")
MAX_HORSES = 8
TRACE_LEN = 400


class ArraysStructType(types.StructRef):
    """Numba type of a struct reference over arrays (and tuples of them): the simulator's shared state
    and tables, passed to compiled code with one reference count instead of one per array."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


def register_arrays_struct(struct_type):
    """``structref.register`` for an :class:`ArraysStructType`, whose fields a helper compiled without
    reference counting (:func:`~mjsim.sim.borrowing.njit_borrowed`) can read too.

    numba's own field read asks the runtime for the payload's address, which code compiled without
    reference counting may not call, so the engine's helpers had to count references to every field
    they read.  The payload address is the meminfo's fourth member (what numba's
    ``NRT_MemInfo_data_fast`` loads); a read counts a reference only where counting is on.  Setting a
    field (only the constructors do) stays numba's."""
    default_manager.register(struct_type, models.StructRefModel)

    @infer_getattr
    class _FieldTyping(AttributeTemplate):
        key = struct_type

        def generic_resolve(self, typ, attr):
            return typ.field_dict.get(attr)

    @lower_getattr_generic(struct_type)
    def _read_field(context, builder, typ, value, attr):
        ref = cgutils.create_struct_proxy(typ)(context, builder, value=value)
        meminfo = builder.bitcast(ref.meminfo, _meminfo_struct_type.as_pointer())
        payload = builder.load(cgutils.gep(builder, meminfo, 0, 3))
        payload_type = typ.get_data_type()
        layout = context.data_model_manager[payload_type].get_value_type()
        data = cgutils.create_struct_proxy(payload_type)(
            context, builder, ref=builder.bitcast(payload, layout.as_pointer())
        )
        return imputils.impl_ret_borrowed(context, builder, typ.field_dict[attr], getattr(data, attr))

    @lower_setattr_generic(struct_type)
    def _set_field(context, builder, sig, args, attr):
        instance_type, value_type = sig.args
        instance, value = args
        data = structref._Utils(context, builder, instance_type).get_data_struct(instance)
        cast = context.cast(builder, value, value_type, instance_type.field_dict[attr])
        old = getattr(data, attr)
        context.nrt.incref(builder, value_type, cast)
        context.nrt.decref(builder, value_type, old)  # last: the new value may be the old one
        setattr(data, attr, cast)

    return struct_type


@register_arrays_struct
class StateType(ArraysStructType):
    """Numba type of :class:`State`."""


class State(structref.StructRefProxy):
    """Every table's hand: one struct of arrays, passed to compiled code by reference.

    A struct reference rather than a NamedTuple: compiled code passes it
    with one reference count instead of one per array, which was most of the
    engine's cost.  Python code reads the same (shared) numpy arrays as
    attributes.  Fields (leading axis B = tables)::

        ``wall``: int8 (B, MAX_WALL): tile kinds in draw order
        ``front``: int16 (B,): next tile drawn from the front
        ``back``: int16 (B,): next tile drawn from the back (replacements); drawable = back - front + 1
        ``hands``: int8 (B, 4, 34)
        ``meld_kind``: int8 (B, 4, MAX_MELDS)
        ``meld_tile``: int8 (B, 4, MAX_MELDS)
        ``meld_from``: int8 (B, 4, MAX_MELDS): seat whose discard made it, -1 own tiles
        ``n_melds``: int8 (B, 4)
        ``exposed``: int8 (B, 4, 34): tiles in each seat's melds
        ``discards``: int8 (B, 4, 34): each seat's discards still in its river
        ``discarded``: int16 (B, 4): discards made by each seat this hand
        ``discarded_kinds``: int64 (B, 4): bit per kind the seat has discarded this hand (TDH-S1)
        ``phase``: int8 (B,)
        ``actor``: int8 (B,): seat to draw/decide, or whose discard/kong is answered
        ``target``: int8 (B,): tile drawn (TURN; -1 after a claim) / discarded / added
        ``dealer``: int8 (B,)
        ``round_wind``: int8 (B,)
        ``streak``: int16 (B,): hands the dealer has kept the deal in a row (0 on a new dealer)
        ``dealt_seats``: int8 (B,): bit per seat that has dealt since the round began (C-S2 round wind)
        ``turns``: int16 (B,): discards made this hand
        ``claims_made``: bool (B,): a chow, pung or kong claimed from a discard this hand (ends the 天和/地和/人和
            first go-around); a concealed kong too with ``first_turn_ends_on_concealed_kong``
        ``replacement``: int8 (B,): this turn's draw replaced a kong of that kind (KONG_*), else 0
        ``replacement_from``: int8 (B,): discarder whose tile made that kong, -1
        ``after_kong``: bool (B,): the discard being answered follows the discarder's kong
        ``missed_kinds``: int64 (B, 4): JPH-P3 bit per tile kind a seat may not win on a discard
        ``missed_any``: bool (B, 4): TDH-P3 no discard win until the seat's next draw
        ``missed_fan``: int16 (B, 4): XZ-P5 fan to beat for a discard win until next draw (-1 none)
        ``pung_blocked``: int64 (B, 4): TDH-P3/SHT-P4 kinds a seat may not pung until its draw
        ``twelve_feeder``: int8 (B, 4): seat whose discard gave this seat its 4th exposed set (JPH-S4 fact), -1
        ``twelve_turn``: int16 (B, 4): the discard count when that happened (orders 包先不包后)
        ``limit_feeder``: int8 (B, 4): seat that fed the 4th wind / 3rd dragon pung (JPH-S5 fact), -1
        ``limit_turn``: int16 (B, 4)
        ``follow_kind``: int8 (B,): C-P7 the dealer's first discard while every discard so far, before any
            claim, is of its kind; -1 once broken (or before the first discard)
        ``followed``: bool (B,): C-P7 fact: the first discards of all four players, before any claim, were one kind
        ``rob_concealed``: bool (B,): the kong answered in PH_ROB is concealed (TDH-H9 十三幺抢暗杠)
        ``responses``: int16 (B, 4): answers collected this step, -1 none
        ``could_win``: bool (B, 4): WIN was legal for the seat in the pending answer
        ``could_pung``: bool (B, 4)
        ``answer_fan``: int16 (B, 4): fan of the possible discard win (XZ-P5)
        ``rng``: uint64 (B, 5): stream 0 the wall, 1..4 the seats' choices
        # the hand's result, filled as it ends
        ``n_winners``: int8 (B,): wins so far; W = ``win_slots`` (MAX_WINS, or MAX_FLOW_WINS in 血流成河)
        ``winners``: int8 (B, W): winning seats in win order, -1 padded
        ``win_kind``: int8 (B, W)
        ``win_fan``: int16 (B, W)
        ``win_flags``: int8 (B, W): fastscore LAST_TILE / FIRST_TURN bits of each win
        ``win_kong_from``: int8 (B, W): for a kong-replacement win, the discarder whose tile made the kong, -1
        ``win_tile``: int8 (B, W): the tile each winner won on
        ``win_patterns``: int8 (B, W, N_PATTERNS)
        ``win_hand``: int8 (B, W, 34)
        ``win_melds``: int8 (B, W, MAX_MELDS, 2)
        ``win_from``: int8 (B, W): the discarder or robbed player of each win, -1 a self-draw
        ``win_turn``: int16 (B, W): the discard count when each win happened
        ``win_in_play``: int8 (B, W): bit per seat still in play when each win happened (winner included)
        ``won``: bool (B, 4): XZ-P4 血战到底: the seat has won and left play
        ``has_won``: bool (B, 4): the seat has won this hand (血战: and left; 血流成河 XZ-H7: and plays on locked)
        ``set_aside``: int8 (B, 34): XZ-H7 winning tiles a 血流 winner put aside (its hand stays as it was)
        ``void_suit``: int8 (B, 4): XZ-H2 the declared void suit per seat, -1 none
        ``exchange_tiles``: int8 (B, 4, 3): XZ-H1 the tiles each seat passed, -1 before
        ``exchange_dir``: int8 (B,): XZ-H1 where the tiles went: 1 to 下家, 2 to 对家, 3 to 上家 (0: no exchange)
        ``setup_round``: int8 (B,): XZ-H1 pick round 0..2 of PH_EXCHANGE
        ``setup_answers``: int8 (B,): answers received in the current PH_EXCHANGE round or PH_VOID
        ``xz_moves``: int64 (B, N_XZ_RULES, 4): net per seat of 呼叫转移, 退税, 查花猪 and 查叫
        ``discarder``: int8 (B,): seat whose discard (or robbed kong) the first win was on, -1
        ``liable``: int8 (B,): seat that paid under a 包 rule, -1
        ``n_kongs``: int8 (B,)
        ``kong_seat``: int8 (B, MAX_KONGS)
        ``kong_kind``: int8 (B, MAX_KONGS): KONG_FROM_DISCARD / KONG_ADDED / KONG_CONCEALED
        ``kong_from``: int8 (B, MAX_KONGS)
        ``kong_in_play``: int8 (B, MAX_KONGS): bit per seat in play when the kong was made (XZ-M3 payers)
        ``kong_turn``: int16 (B, MAX_KONGS): the discard count when the kong was made (XZ-M4: which kong)
        ``exhausted``: bool (B,): the hand ended on an empty wall (XZ-E: the end-of-wall checks apply)
        ``end_state``: int8 (B, 4): XZ-E per seat: END_WON, END_READY, END_NOT_READY or END_FLOWER_PIG; -1 outside 血战
        ``ready_fan``: int16 (B, 4): XZ-E2 fan of a ready seat's best wait as a discard win, -1 when not ready
        ``flowers``: int8 (B, 4, N_FLOWER_SLOTS): SHT-P2 flowers each seat set aside: 1f..8f, then 白板 5z
        ``turned_flowers``: int8 (B, N_FLOWER_SLOTS): SHT-P3 flowers turned up for a 财神 and set aside
        ``split_tiles``: int8 (B, 4): SHT-P7 the 分牌 tiles in the order dealt, -1 none
        ``split_win``: bool (B,): SHT-P7 the hand was won on a 分牌 tile
        ``base_tai``: int16 (B, 4): SHT-T1 base 台 per seat as the hand ends (the winner's from its reading), -1
        ``four_winds_feeder``: int8 (B,): SHT-M3 fact: the discarder of the wind a shown 四风会齐 won on, -1
        ``transfers``: int64 (B, N_COMPONENTS, 4, 4): payer -> payee
        # the table's place in its run
        ``session``: int64 (B,): session index, -1 none
        ``hand_in_session``: int32 (B,)
        ``hand_id``: int64 (B,)
        ``seed``: uint64 (B,)
        ``wild``: int8 (B, 2): wild tile kinds of the hand (TDH-G1, SHT-P3), -1 none
        ``turned``: int8 (B, 2): the tiles turned up to name the wild kinds (TDH-G1 flip, TDH-H6), -1 none
        ``n_reserved``: int8 (B,): horse tiles set aside at the back (never drawn)
        ``horse_pool``: int8 (B, MAX_HORSES): the back tiles horses are taken from, in order (logged for re-settlement)
        ``back_start``: int16 (B,): ``back`` once the horses are set aside: no tile was drawn from the back while
            ``back`` still equals it (re-settlement's horse_pool_free)
        ``horse_count``: int8 (B,): dealer horses for this hand (TDH-M2), carried through the session
        ``n_horses``: int8 (B,): horse tiles reserved (dealer) or bought (winner)
        ``horse_tiles``: int8 (B, MAX_HORSES): reserved at the back, never drawn (TDH-M1, TDH-M5)
        ``horse_seats``: int8 (B, MAX_HORSES): absolute seat each horse points at
        ``horse_hits``: int8 (B,): winner horses on the winner's own seat (TDH-M5)
        ``trace``: int16 (B, TRACE_LEN, 3): (seat, action, tile) events when tracing
        ``trace_len``: int16 (B,)
    """

    def __getattr__(self, name):
        arrays = self.__dict__.get("_arrays")
        if arrays is None or name not in arrays:
            raise AttributeError(f"State has no field {name!r}")
        return arrays[name]


STATE_FIELDS = (
    "wall",
    "front",
    "back",
    "hands",
    "meld_kind",
    "meld_tile",
    "meld_from",
    "n_melds",
    "exposed",
    "discards",
    "discarded",
    "discarded_kinds",
    "phase",
    "actor",
    "target",
    "dealer",
    "round_wind",
    "streak",
    "dealt_seats",
    "turns",
    "claims_made",
    "replacement",
    "replacement_from",
    "after_kong",
    "missed_kinds",
    "missed_any",
    "missed_fan",
    "pung_blocked",
    "twelve_feeder",
    "twelve_turn",
    "limit_feeder",
    "limit_turn",
    "follow_kind",
    "followed",
    "rob_concealed",
    "responses",
    "could_win",
    "could_pung",
    "answer_fan",
    "rng",
    "n_winners",
    "winners",
    "win_kind",
    "win_fan",
    "win_flags",
    "win_kong_from",
    "win_tile",
    "win_patterns",
    "win_hand",
    "win_melds",
    "win_from",
    "win_turn",
    "win_in_play",
    "won",
    "has_won",
    "set_aside",
    "void_suit",
    "exchange_tiles",
    "exchange_dir",
    "setup_round",
    "setup_answers",
    "xz_moves",
    "discarder",
    "liable",
    "n_kongs",
    "kong_seat",
    "kong_kind",
    "kong_from",
    "kong_in_play",
    "kong_turn",
    "exhausted",
    "end_state",
    "ready_fan",
    "flowers",
    "turned_flowers",
    "split_tiles",
    "split_win",
    "base_tai",
    "four_winds_feeder",
    "transfers",
    "session",
    "hand_in_session",
    "hand_id",
    "seed",
    "wild",
    "turned",
    "n_reserved",
    "horse_pool",
    "back_start",
    "horse_count",
    "n_horses",
    "horse_tiles",
    "horse_seats",
    "horse_hits",
    "trace",
    "trace_len",
)
structref.define_proxy(State, StateType, list(STATE_FIELDS))


def tuple_constructor(struct_class, field_names):
    """An intrinsic building a ``struct_class`` reference from one tuple of its fields' values, in the
    order of ``field_names``.  numba's own constructor (``State(*arrays)``) is an overload that sets the
    fields one by one, each store counting a reference to the new value and releasing the old, null one; this
    stores them straight into the zeroed payload, a third of the code to compile."""

    @intrinsic
    def construct(typingctx, fields):
        if not isinstance(fields, types.BaseTuple) or len(fields) != len(field_names):
            return None
        instance_type = struct_class(list(zip(field_names, fields.types)))
        return instance_type(fields), _struct_from_tuple(instance_type, fields)

    return construct


def _struct_from_tuple(instance_type, fields):
    """The code of an intrinsic's call that builds an ``instance_type`` reference from its one argument, a
    tuple of type ``fields`` holding the fields' values in order."""

    def codegen(context, builder, signature, args):
        payload_type = instance_type.get_data_type()
        value_type = context.data_model_manager[payload_type].get_value_type()
        meminfo = context.nrt.meminfo_alloc_dtor(
            builder,
            context.get_constant(types.uintp, context.get_abi_sizeof(value_type)),
            imp_dtor(context, builder.module, instance_type),
        )
        pointer = builder.bitcast(context.nrt.meminfo_data(builder, meminfo), value_type.as_pointer())
        payload = cgutils.create_struct_proxy(payload_type)(context, builder, ref=pointer)
        for i, (name, field_type) in enumerate(instance_type.field_dict.items()):
            value = context.cast(builder, builder.extract_value(args[0], i), fields.types[i], field_type)
            context.nrt.incref(builder, field_type, value)
            setattr(payload, name, value)
        reference = context.make_helper(builder, instance_type)
        reference.meminfo = meminfo
        return imputils.impl_ret_new_ref(context, builder, instance_type, reference._getvalue())

    return codegen


_state_from = tuple_constructor(StateType, STATE_FIELDS)


@kernel
def _new_state(arrays):
    """Build the struct in compiled code: numba caches this function, whereas calling ``State(...)``
    from Python compiles the proxy's constructor again in every process (over a second per worker)."""
    return _state_from(arrays)


def allocate_state(tables: int, max_wins: int = MAX_WINS) -> State:
    """Zeroed state for ``tables`` tables (every table idle until assigned a session), ``max_wins`` win slots
    a hand (``win_slots``)."""
    b = tables
    w = max_wins
    arrays = dict(
        wall=np.zeros((b, MAX_WALL), np.int8),
        front=np.zeros(b, np.int16),
        back=np.zeros(b, np.int16),
        hands=np.zeros((b, 4, 34), np.int8),
        meld_kind=np.zeros((b, 4, MAX_MELDS), np.int8),
        meld_tile=np.zeros((b, 4, MAX_MELDS), np.int8),
        meld_from=np.zeros((b, 4, MAX_MELDS), np.int8),
        n_melds=np.zeros((b, 4), np.int8),
        exposed=np.zeros((b, 4, 34), np.int8),
        discards=np.zeros((b, 4, 34), np.int8),
        discarded=np.zeros((b, 4), np.int16),
        discarded_kinds=np.zeros((b, 4), np.int64),
        phase=np.full(b, PH_IDLE, np.int8),
        actor=np.zeros(b, np.int8),
        target=np.zeros(b, np.int8),
        dealer=np.zeros(b, np.int8),
        round_wind=np.zeros(b, np.int8),
        streak=np.zeros(b, np.int16),
        dealt_seats=np.zeros(b, np.int8),
        turns=np.zeros(b, np.int16),
        claims_made=np.zeros(b, np.bool_),
        replacement=np.zeros(b, np.int8),
        replacement_from=np.zeros(b, np.int8),
        after_kong=np.zeros(b, np.bool_),
        missed_kinds=np.zeros((b, 4), np.int64),
        missed_any=np.zeros((b, 4), np.bool_),
        missed_fan=np.zeros((b, 4), np.int16),
        pung_blocked=np.zeros((b, 4), np.int64),
        twelve_feeder=np.zeros((b, 4), np.int8),
        twelve_turn=np.zeros((b, 4), np.int16),
        limit_feeder=np.zeros((b, 4), np.int8),
        limit_turn=np.zeros((b, 4), np.int16),
        follow_kind=np.full(b, -1, np.int8),
        followed=np.zeros(b, np.bool_),
        rob_concealed=np.zeros(b, np.bool_),
        responses=np.zeros((b, 4), np.int16),
        could_win=np.zeros((b, 4), np.bool_),
        could_pung=np.zeros((b, 4), np.bool_),
        answer_fan=np.zeros((b, 4), np.int16),
        rng=np.zeros((b, 5), np.uint64),
        n_winners=np.zeros(b, np.int8),
        winners=np.zeros((b, w), np.int8),
        win_kind=np.zeros((b, w), np.int8),
        win_fan=np.zeros((b, w), np.int16),
        win_flags=np.zeros((b, w), np.int8),
        win_kong_from=np.zeros((b, w), np.int8),
        win_tile=np.zeros((b, w), np.int8),
        win_patterns=np.zeros((b, w, N_PATTERNS), np.int8),
        win_hand=np.zeros((b, w, 34), np.int8),
        win_melds=np.zeros((b, w, MAX_MELDS, 2), np.int8),
        win_from=np.zeros((b, w), np.int8),
        win_turn=np.zeros((b, w), np.int16),
        win_in_play=np.zeros((b, w), np.int8),
        won=np.zeros((b, 4), np.bool_),
        has_won=np.zeros((b, 4), np.bool_),
        set_aside=np.zeros((b, 34), np.int8),
        void_suit=np.full((b, 4), -1, np.int8),
        exchange_tiles=np.full((b, 4, 3), -1, np.int8),
        exchange_dir=np.zeros(b, np.int8),
        setup_round=np.zeros(b, np.int8),
        setup_answers=np.zeros(b, np.int8),
        xz_moves=np.zeros((b, N_XZ_RULES, 4), np.int64),
        discarder=np.zeros(b, np.int8),
        liable=np.zeros(b, np.int8),
        n_kongs=np.zeros(b, np.int8),
        kong_seat=np.zeros((b, MAX_KONGS), np.int8),
        kong_kind=np.zeros((b, MAX_KONGS), np.int8),
        kong_from=np.zeros((b, MAX_KONGS), np.int8),
        kong_in_play=np.zeros((b, MAX_KONGS), np.int8),
        kong_turn=np.zeros((b, MAX_KONGS), np.int16),
        exhausted=np.zeros(b, np.bool_),
        end_state=np.full((b, 4), -1, np.int8),
        ready_fan=np.full((b, 4), -1, np.int16),
        flowers=np.zeros((b, 4, N_FLOWER_SLOTS), np.int8),
        turned_flowers=np.zeros((b, N_FLOWER_SLOTS), np.int8),
        split_tiles=np.full((b, 4), -1, np.int8),
        split_win=np.zeros(b, np.bool_),
        base_tai=np.full((b, 4), -1, np.int16),
        four_winds_feeder=np.full(b, -1, np.int8),
        transfers=np.zeros((b, N_COMPONENTS, 4, 4), np.int64),
        session=np.full(b, -1, np.int64),
        hand_in_session=np.zeros(b, np.int32),
        hand_id=np.zeros(b, np.int64),
        seed=np.zeros(b, np.uint64),
        wild=np.full((b, 2), -1, np.int8),
        turned=np.full((b, 2), -1, np.int8),
        n_reserved=np.zeros(b, np.int8),
        horse_pool=np.zeros((b, MAX_HORSES), np.int8),
        back_start=np.zeros(b, np.int16),
        horse_count=np.zeros(b, np.int8),
        n_horses=np.zeros(b, np.int8),
        horse_tiles=np.zeros((b, MAX_HORSES), np.int8),
        horse_seats=np.zeros((b, MAX_HORSES), np.int8),
        horse_hits=np.zeros(b, np.int8),
        trace=np.zeros((b, TRACE_LEN, 3), np.int16),
        trace_len=np.zeros(b, np.int16),
    )
    state = _new_state(tuple(arrays[name] for name in STATE_FIELDS))
    state._arrays = arrays  # the struct shares these arrays' memory
    return state


class EngineParams(NamedTuple):
    """Everything the compiled engine reads besides the state (from the Ruleset and the run)."""

    wall_tiles: np.ndarray  # int8 (wall_size,): the tile set's tiles (C-T4), shuffled per hand
    family: int  # observation.FAMILY_IDS; the class says the group (mjsim.sim.families: one engine build a group)
    wild_scheme: int  # 0 none, 1 fixed, 2 flip_next (TDH-G1), 3 flip_two (TDH-H6), 4 flip_two_kinds (SHT-P3),
    # 5 flip_kind (SHT-H2)
    wild_tile: int  # the fixed wild kind
    full_ghosts: bool  # TDH-V4 满鬼: four wilds held is a win
    full_ghosts_horses: bool  # TDH-H8: a 满鬼 win takes winner horses
    orphans_rob_concealed_kong: bool  # TDH-H9
    dead_wall: int  # C-W5 留牌: drawable tiles kept back
    follow_dealer: int  # C-P7 跟庄 units, 0 off
    kong_pay_discard: int  # TDH-K1 / XZ-M3 amounts
    kong_pay_added: int
    kong_pay_concealed: int
    kong_pay_always: bool  # TDH-K2 [G] / XZ-M3: kongs settle even on a drawn hand (else only if someone won)
    horses: int  # 0 none, 1 dealer (TDH-M1), 2 winner (TDH-M5)
    horse_growth_by_kind: bool  # TDH-M2 [D]: +2 after a self-drawn 连庄, +1 after a discard win; else +1
    horse_base: int
    horse_max: int
    horse_mapping: int  # 0 dealer_offset (TDH-M3), 1 ghost_edition (TDH-M5)
    winner_horses_with_ghost: int
    winner_horses_without_ghost: int
    horse_reserve: int
    horses_on_kongs: bool  # TDH-H1: dealer horses mirror kong money
    winner_horses_on_kongs: bool  # TDH-H1: winner horse hits pay kong money too
    winner_horse_base: bool  # TDH-H2: a hit pays the payment of a 1-unit hand
    winner_horse_one: bool  # TDH-H3 爆炸马
    winner_horses_from_winner: bool  # TDH-H10
    horse_settlement_net: bool  # TDH-M4 / TDH-H11 net
    hand_size: int  # 13 (C-W2)
    forms: int  # bits: 1 standard, 2 seven pairs, 4 thirteen orphans, 8 distinct pairs only
    quads_as_two_pairs: bool
    chow: bool
    discard_win: bool
    multiple_win: bool
    missed_win: int  # 0 none, 1 same_kind_until_move, 2 any_discard_until_draw, 3 until_draw_unless_more_fan
    missed_pung: bool
    rob_kong: bool
    rob_own_discard: bool
    replacement_from_back: bool
    next_dealer_after_win: int  # 0 dealer_or_next, 1 winner, 2 first_winner
    next_dealer_after_draw: int  # 0 same, 1 next
    liability_kong_flower: bool
    liability_robbed_kong: bool
    liability_twelve_tiles: bool
    liability_limit_hands: bool
    liability_first_only: bool
    liability_limit_precedence: bool  # JPH-S5a liability_precedence = limit
    liability_once_across_rules: bool  # JPH-S5a
    discard_pays_all: bool
    first_turn_ends_on_concealed_kong: bool  # JPH-F2 / TDH-V2 option
    triple_win_pays_all: bool  # JPH-S1 option: 包三家 on a triple discard win
    bloody: bool  # XZ-P4 血战到底: a winner leaves play, the others play on until three have won
    bloody_flow: bool  # XZ-H7 血流成河: a winner stays in, locked, and may win again until the wall is empty
    exchange_three: bool  # XZ-H1 换三张
    declare_void: bool  # XZ-H2 定缺
    must_win_tiles_left: int  # XZ-P6: a possible win must be taken while fewer tiles than this remain (0 off)
    call_transfer: bool  # XZ-M4 呼叫转移
    call_transfer_split: bool  # XZ-M4 interpretation: several winners share the income (else each receives it)
    end_checks: bool  # XZ-E1 查花猪, XZ-E2 查叫
    flower_pig_penalty: int  # XZ-E1 units
    tax_refund: bool  # XZ-E3 退税
    self_draw_base_bonus: bool  # XZ-H3 自摸加底: +1 unit per payer on a self-drawn win
    kong_flower_discarder_pays: bool  # XZ-M2 / XZ-H6: a 杠上花 after a direct kong is paid by the discarder alone
    white_is_flower: bool  # SHT-P1: 白板 is set aside and replaced like a flower
    has_flowers: bool  # the wall holds flowers (tile_set 144 or white_is_flower): 补花 at the deal and draws
    split_tiles_at: int  # SHT-P7 分牌 with this many drawable tiles left (0 off)
    split_kong_extra: int  # SHT-P7: plus this many per kong made
    split_tiles: int  # SHT-P7: 分牌 tiles dealt, one a player (0: the hand is drawn at once)
    caishen_turn_again: bool  # SHT-P3 / SHT-H2: equal turned tiles: turn again until a second kind shows
    dealer_pays_double: bool  # SHT-M1 / SHT-M2
    settle_non_winners: bool  # SHT-M2
    liability_four_winds: bool  # SHT-M3 包牌
    session_length: int
    first_dealer: int  # -1: random per session
    first_round_wind: int
    seed_key: np.uint64  # the run's root key (mjsim.sim.rng.root_key)
    replay: bool  # one hand at a time: record its turn-by-turn trace and stop when it ends


class GuangdongParams(EngineParams):
    """:class:`EngineParams` of a 鸡平胡 or 推倒胡 ruleset: the engine's Guangdong build (:mod:`mjsim.sim.families`)."""

    __slots__ = ()
    FAMILIES = GROUPS["guangdong"]
    PHASES = GROUP_PHASES["guangdong"]


class GuangdongEveryPhaseParams(GuangdongParams):
    """:class:`GuangdongParams` of a ruleset that plays 换三张 / 定缺, 补花 or 分牌."""

    __slots__ = ()
    PHASES = EVERY_PHASE


class XuezhanParams(EngineParams):
    """:class:`EngineParams` of a 血战 ruleset: the engine's 血战 build (:mod:`mjsim.sim.families`)."""

    __slots__ = ()
    FAMILIES = GROUPS["xuezhan"]
    PHASES = GROUP_PHASES["xuezhan"]


class XuezhanEveryPhaseParams(XuezhanParams):
    """:class:`XuezhanParams` of a ruleset that plays 补花 or 分牌."""

    __slots__ = ()
    PHASES = EVERY_PHASE


class ShuitouParams(EngineParams):
    """:class:`EngineParams` of a 水头 ruleset: the engine's 水头 build (:mod:`mjsim.sim.families`)."""

    __slots__ = ()
    FAMILIES = GROUPS["shuitou"]
    PHASES = GROUP_PHASES["shuitou"]


class ShuitouEveryPhaseParams(ShuitouParams):
    """:class:`ShuitouParams` of a ruleset that plays 换三张 / 定缺."""

    __slots__ = ()
    PHASES = EVERY_PHASE


PARAMS_OF_BUILD = {  # (group, the build's phases): the class of its parameters
    ("guangdong", GuangdongParams.PHASES): GuangdongParams,
    ("guangdong", EVERY_PHASE): GuangdongEveryPhaseParams,
    ("xuezhan", XuezhanParams.PHASES): XuezhanParams,
    ("xuezhan", EVERY_PHASE): XuezhanEveryPhaseParams,
    ("shuitou", ShuitouParams.PHASES): ShuitouParams,
    ("shuitou", EVERY_PHASE): ShuitouEveryPhaseParams,
}


class ParamsStructType(ArraysStructType):
    """Numba type of one build's :class:`EngineParams` copied into a struct reference (``by_reference``).
    ``instance_class`` is the build's parameters class, whose ``FAMILIES`` and ``PHASES`` the family and
    phase overloads read (:mod:`mjsim.sim.families`)."""

    instance_class = None


@register_arrays_struct
class GuangdongParamsStruct(ParamsStructType):
    instance_class = GuangdongParams


@register_arrays_struct
class GuangdongEveryPhaseParamsStruct(ParamsStructType):
    instance_class = GuangdongEveryPhaseParams


@register_arrays_struct
class XuezhanParamsStruct(ParamsStructType):
    instance_class = XuezhanParams


@register_arrays_struct
class XuezhanEveryPhaseParamsStruct(ParamsStructType):
    instance_class = XuezhanEveryPhaseParams


@register_arrays_struct
class ShuitouParamsStruct(ParamsStructType):
    instance_class = ShuitouParams


@register_arrays_struct
class ShuitouEveryPhaseParamsStruct(ParamsStructType):
    instance_class = ShuitouEveryPhaseParams


_STRUCT_OF_PARAMS = {struct.instance_class: struct for struct in ParamsStructType.__subclasses__()}


@intrinsic
def by_reference(typingctx, params):
    """The engine parameters ``params`` (a NamedTuple) copied into a struct reference, for the engine's
    kernels to hand down: numba passes a NamedTuple to a compiled function as its fields one by one (some
    eighty values, with the arrays' members), at every call of every helper, and a reference as one
    pointer."""
    struct_class = _STRUCT_OF_PARAMS.get(getattr(params, "instance_class", None))
    if struct_class is None:
        return None
    instance_type = struct_class(list(zip(params.fields, params.types)))
    return instance_type(params), _struct_from_tuple(instance_type, params)


WILD_SCHEMES = ("none", "fixed", "flip_next", "flip_two", "flip_two_kinds", "flip_kind")
HORSE_MODES = ("none", "dealer", "winner")
HORSE_MAPPINGS = ("dealer_offset", "ghost_edition")
MISSED_WIN_MODES = ("none", "same_kind_until_move", "any_discard_until_draw", "until_draw_unless_more_fan")
NEXT_DEALER_AFTER_WIN = ("dealer_or_next", "winner", "first_winner")
NEXT_DEALER_AFTER_DRAW = ("same", "next")


def win_slots(ruleset) -> int:
    """Win slots a hand of ``ruleset`` needs (``allocate_state``, ``allocate_records``)."""
    return MAX_FLOW_WINS if ruleset.bloody_flow else MAX_WINS


def engine_params(ruleset, *, session_length=1, first_dealer=-1, first_round_wind=0, seed_key=0, replay=False):
    """The engine's view of a ``Ruleset`` plus the run's session settings."""
    forms = form_bits(ruleset)
    return PARAMS_OF_BUILD[group_of(ruleset.family), phases_of_build(ruleset)](
        wall_tiles=tile_set_wall(ruleset.tile_set),
        family=FAMILY_IDS[ruleset.family],
        wild_scheme=WILD_SCHEMES.index(ruleset.wild_scheme),
        wild_tile=parse_tiles(ruleset.wild_tile)[0],
        full_ghosts=ruleset.full_ghosts,
        full_ghosts_horses=ruleset.full_ghosts_horses,
        orphans_rob_concealed_kong=ruleset.orphans_rob_concealed_kong,
        dead_wall=ruleset.dead_wall,
        follow_dealer=ruleset.follow_dealer,
        kong_pay_discard=ruleset.kong_pay_discard,
        kong_pay_added=ruleset.kong_pay_added,
        kong_pay_concealed=ruleset.kong_pay_concealed,
        kong_pay_always=ruleset.kong_settle == "immediate",
        horses=HORSE_MODES.index(ruleset.horses),
        horse_growth_by_kind=ruleset.horse_growth == "by_win_kind",
        horse_base=ruleset.horse_base,
        horse_max=ruleset.horse_max,
        horse_mapping=HORSE_MAPPINGS.index(ruleset.horse_mapping),
        winner_horses_with_ghost=ruleset.winner_horses_with_ghost,
        winner_horses_without_ghost=ruleset.winner_horses_without_ghost,
        horse_reserve=ruleset.horse_reserve,
        horses_on_kongs=ruleset.horses_on_kongs,
        winner_horses_on_kongs=ruleset.winner_horses_on_kongs,
        winner_horse_base=ruleset.winner_horse_value == "base",
        winner_horse_one=ruleset.winner_horse_scheme == "one_horse",
        winner_horses_from_winner=ruleset.winner_horses_from == "winner",
        horse_settlement_net=ruleset.horse_settlement == "net",
        hand_size=ruleset.hand_size,
        forms=forms,
        quads_as_two_pairs=ruleset.seven_pairs_quads,
        chow=ruleset.chow,
        discard_win=ruleset.discard_win,
        multiple_win=ruleset.multiple_win,
        missed_win=MISSED_WIN_MODES.index(ruleset.missed_win),
        missed_pung=ruleset.missed_pung,
        rob_kong=ruleset.rob_kong,
        rob_own_discard=ruleset.rob_kong_own_discard,
        replacement_from_back=ruleset.kong_replacement == "back",
        next_dealer_after_win=NEXT_DEALER_AFTER_WIN.index(ruleset.next_dealer_after_win),
        next_dealer_after_draw=NEXT_DEALER_AFTER_DRAW.index(ruleset.next_dealer_after_draw),
        liability_kong_flower=ruleset.liability_kong_flower,
        liability_robbed_kong=ruleset.liability_robbed_kong,
        liability_twelve_tiles=ruleset.liability_twelve_tiles,
        liability_limit_hands=ruleset.liability_limit_hands,
        liability_first_only=ruleset.liability_first_only,
        liability_limit_precedence=ruleset.liability_precedence == "limit",
        liability_once_across_rules=ruleset.liability_once_across_rules,
        discard_pays_all=ruleset.discard_pays_all,
        first_turn_ends_on_concealed_kong=ruleset.first_turn_ends_on_concealed_kong,
        triple_win_pays_all=ruleset.triple_win_pays_all,
        bloody=ruleset.bloody,
        bloody_flow=ruleset.bloody_flow,
        exchange_three=ruleset.exchange_three,
        declare_void=ruleset.declare_void,
        must_win_tiles_left=ruleset.must_win_tiles_left,
        call_transfer=ruleset.call_transfer,
        call_transfer_split=ruleset.call_transfer_multiple == "split",
        end_checks=ruleset.end_checks,
        flower_pig_penalty=ruleset.flower_pig_penalty,
        tax_refund=ruleset.tax_refund,
        self_draw_base_bonus=ruleset.self_draw_bonus == "base",
        kong_flower_discarder_pays=ruleset.family == "xuezhan" and ruleset.kong_flower_from_discard == "discarder",
        white_is_flower=ruleset.white_is_flower,
        has_flowers=FLOWERS in phases_of(ruleset),
        split_tiles_at=ruleset.split_tiles_at,
        split_kong_extra=ruleset.split_kong_extra,
        split_tiles=ruleset.split_tiles,
        caishen_turn_again=ruleset.caishen_same_kind == "turn_again",
        dealer_pays_double=ruleset.dealer_pays_double,
        settle_non_winners=ruleset.settle_non_winners,
        liability_four_winds=ruleset.liability_four_winds,
        session_length=int(session_length),
        first_dealer=int(first_dealer),
        first_round_wind=int(first_round_wind),
        seed_key=np.uint64(seed_key),
        replay=bool(replay),
    )
