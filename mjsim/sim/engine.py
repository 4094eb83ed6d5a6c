"""The compiled batch engine: every table advances to its next decision, then applies the answers.

One step of the run is one call over the whole batch (``step``), which

- applies the actions chosen for the last step's decisions and resolves the
  answered discards by priority (win > kong = pung > chow, C-P2);
- advances every table through the phases that need nobody's choice
  (draws, exhaustive draws, settlement, the next hand of the session or the
  next session) until it waits on a decision, and writes one row per pending
  decision: the player's observation and the legal mask.

One kernel, not one per half: numba optimises and emits each kernel with
every helper it calls linked in, so the two halves' shared code (the scorers,
the settlement) was compiled twice.

Every rule difference is an ``EngineParams`` field read here (never a copy
of the engine per variant).  Rule IDs refer to ``rules/common.md``,
``rules/jipinghu.md``, ``rules/tuidaohu.md`` and ``rules/xuezhan.md``.

血战到底 (XZ-P4, ``bloody``): a winner leaves play (``won``) with its hand
closed; the others play on until three have won or the wall is empty.  The
reference does not say who draws after a win; here play goes on from the seat
after the winner (after the last winner in turn order from the discarder when
several win on one discard), as Sichuan tables play.  A won discard or robbed
kong tile joins the first winner's hand, so the tiles stay conserved.

血流成河 (XZ-H7, ``bloody_flow``): a winner stays in play and may win again
until the wall is empty.  The reference does not say what a winner may do
with its hand; here, as Sichuan game servers play it, the winning tile is set
aside (``set_aside``) and the hand is locked: on its turn the winner wins or
discards the tile it drew, and it answers a discard only with a win.

换三张 and 定缺 (XZ-H1, XZ-H2) are decisions before the dealer's first turn:
three rounds in which every seat picks a tile to pass (all three of one
suit), the exchange in a direction drawn from the wall's stream, then every
seat names its void suit.  A seat holding tiles of its void suit must
discard them first, may not pung or kong them, and may not win.
"""

from __future__ import annotations

import numpy as np
from numba.experimental import structref

from mjsim.hand.fast import is_orphan, may_be_win
from mjsim.sim.borrowing import inline_overload, kernel, njit_borrowed
from mjsim.sim.constants import (
    AKONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CKONG,
    DISCARD,
    EXCHANGE,
    KONG,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_FROM_DISCARD,
    MELD_CHOW,
    MELD_CKONG,
    MELD_KONG,
    MELD_PUNG,
    PASS,
    PUNG,
    RESPONSE,
    ROB,
    TURN,
    VOID,
    VOID_SUIT,
    WIN,
    WIN_DISCARD,
    WIN_KONG_REPLACEMENT,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAW,
)  # fmt: skip
from mjsim.sim.families import FLOWERS, SETUP, SHUITOU, SPLIT, XUEZHAN, compiles_for, compiles_phase
from mjsim.sim.fastscore import AFTER_KONG, FIRST_TURN, KONG_REPLACEMENT, LAST_TILE, N_PATTERNS, ROBBED_KONG, SELF_DRAW
from mjsim.sim.fastscore_sht import (
    CTX_BASE,
    CTX_FLOWERS,
    CTX_LEN,
    CTX_ONE_KIND_PAIR,
    CTX_WILDS,
    SPLIT_TILE,
    base_tai_of,
)
from mjsim.sim.rng import mix64, next_below, stream_seed
from mjsim.sim.scoring import score_win
from mjsim.sim.settle import horse_seat, settle, shown_four_winds_feeder
from mjsim.sim.state import (
    END_FLOWER_PIG,
    END_NOT_READY,
    END_READY,
    END_WON,
    PH_DRAW,
    PH_END,
    PH_EXCHANGE,
    PH_IDLE,
    PH_RESPONSE,
    PH_ROB,
    PH_TURN,
    PH_VOID,
    TRACE_LEN,
    WHITE_SLOT,
    ArraysStructType,
    by_reference,
    register_arrays_struct,
    tuple_constructor,
)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
TRACE_DRAW = 200  # trace pseudo-actions besides the action codes
TRACE_DEAL = 201
TRACE_EXHAUSTED = 202
TRACE_PASS = 203  # XZ-H1: the seat passes a tile (as the exchange happens, with the receiving offset)
TRACE_VOID = 204  # XZ-H2: the seat declares a void suit (tile = the suit)
TRACE_FLOWER = 205  # SHT-P2: the seat sets a flower aside (tile = its id; 白板 31)
TRACE_SPLIT = 206  # SHT-P7: the seat receives a 分牌 tile
WHITE = 31


# ---- small helpers ---------------------------------------------------------------------------


@register_arrays_struct
class WorkType(ArraysStructType):
    """Numba type of :class:`Work`."""


class Work(structref.StructRefProxy):
    """Scratch arrays a step reuses, so no array is allocated per possible win.

    Fields: ``found`` int8 (N_PATTERNS,) pattern counts of a trial score;
    ``real`` int8 (34,) a hand without its wild tiles; ``totals`` int64 (34,)
    a hand with its melds (推倒胡 scorer); ``counts`` int8 (34,) a hand plus
    the tile under answer; ``ctx`` int64 (CTX_LEN,) the 水头 scorer's context
    (``mjsim.sim.fastscore_sht``).  A struct reference, so the helpers it is
    passed down to borrow it without counting references (``register_arrays_struct``).
    """


WORK_FIELDS = ("found", "real", "totals", "counts", "ctx")
structref.define_proxy(Work, WorkType, list(WORK_FIELDS))
_work_from = tuple_constructor(WorkType, WORK_FIELDS)


@kernel
def new_work():
    return _work_from((
        np.zeros(N_PATTERNS, np.int8), np.zeros(34, np.int8), np.zeros(34, np.int64), np.zeros(34, np.int8),
        np.zeros(CTX_LEN, np.int64),
    ))  # fmt: skip


@njit_borrowed(inline="always")
def _drawable(st, p, b):
    """Tiles a player may still draw: the wall between front and back, less the C-W5 dead wall 留牌."""
    return st.back[b] - st.front[b] + 1 - p.dead_wall


@njit_borrowed(inline="always")
def _trace(st, p, b, seat, action, tile):
    if p.replay and st.trace_len[b] < TRACE_LEN:
        i = st.trace_len[b]
        st.trace[b, i, 0] = seat
        st.trace[b, i, 1] = action
        st.trace[b, i, 2] = tile
        st.trace_len[b] = i + 1


@njit_borrowed
def _n_concealed(st, b, s):
    return st.hands[b, s].sum()


@njit_borrowed(inline="always")
def _is_wild(st, b, t):
    return t == st.wild[b, 0] or t == st.wild[b, 1]


@njit_borrowed(inline="always")
def _real(st, b, hand, t):
    """The hand holds a tile of kind ``t`` that is not wild (a wild is never used in a claim, C-J1)."""
    return hand[t] > 0 and not _is_wild(st, b, t)


@njit_borrowed(inline="always")
def _is_flower(p, t):
    """SHT-P1: a flower tile (1f..8f, and 白板 where it is a flower), set aside and replaced."""
    return t >= 34 or (p.white_is_flower and t == WHITE)


@kernel
def sht_context(st, b, s, ctx):
    """The 水头 scorer's context for seat ``s``: its flower groups, the 财神 kinds and whether the one 财神 kind
    has only two copies in play (both turned tiles of one kind, SHT-P3)."""
    f = st.flowers[b, s]
    ctx[CTX_FLOWERS] = f[0] + f[1] + f[2] + f[3]
    ctx[CTX_FLOWERS + 1] = f[4] + f[5] + f[6] + f[7]
    ctx[CTX_FLOWERS + 2] = f[WHITE_SLOT]
    ctx[CTX_WILDS] = st.wild[b, 0]
    ctx[CTX_WILDS + 1] = st.wild[b, 1]
    ctx[CTX_ONE_KIND_PAIR] = (
        1 if st.wild[b, 1] < 0 and st.turned[b, 1] >= 0 and st.turned[b, 1] == st.turned[b, 0] else 0
    )


@njit_borrowed(inline="always")
def _score(st, p, sc, b, s, counts, win_tile, flags, discard_winners, found, work):
    """Value of seat ``s`` winning with concealed ``counts`` (incl. the winning tile), or a negative code.

    ``found`` receives the pattern counts; ``work`` is scratch (``Work``), preallocated by the caller
    because this runs for every possible win of every step."""
    real = counts
    wilds = 0
    if st.wild[b, 0] >= 0:  # the scorers take the wild tiles apart from the real ones (C-J1)
        real = work.real
        for t in range(34):
            real[t] = counts[t]
        for k in range(2):
            kind = st.wild[b, k]
            if kind >= 0:
                wilds += real[kind]
                real[kind] = 0
    scratch = work.totals
    if p.family == SHUITOU:
        sht_context(st, b, s, work.ctx)
    return score_win(
        p, sc, real, wilds, counts, win_tile, st.meld_kind[b, s], st.meld_tile[b, s], st.n_melds[b, s], flags,
        (s - st.dealer[b]) % 4, st.round_wind[b], discard_winners, found, scratch, work.ctx,
    )  # fmt: skip


@njit_borrowed
def _holds_suit(counts, c):
    """``counts`` holds a tile of suit ``c`` (-1: no suit)."""
    if c < 0:
        return False
    for t in range(9 * c, 9 * c + 9):
        if counts[t] > 0:
            return True
    return False


@njit_borrowed(inline="always")
def _locked(st, p, b, s):
    """XZ-H7: a 血流成河 winner plays on with its hand locked."""
    return p.bloody_flow and st.has_won[b, s]


@njit_borrowed(inline="always")
def _win_fan(st, p, sc, b, s, counts, win_tile, flags, work):
    """Value if ``counts`` is a legal win for seat ``s`` (shape, JPH-P4 minimum fan, 满鬼), else -1."""
    wild_a, wild_b = st.wild[b, 0], st.wild[b, 1]
    holds_wild = (wild_a >= 0 and counts[wild_a] > 0) or (wild_b >= 0 and counts[wild_b] > 0)
    if p.declare_void and _holds_suit(counts, st.void_suit[b, s]):
        return -1  # XZ-H2: no win while holding the void suit
    if not holds_wild and not may_be_win(counts, counts.sum(), p.forms):
        return -1  # the common case, decided without the scorer's tables
    fan = _score(st, p, sc, b, s, counts, win_tile, flags, 1, work.found, work)
    return fan if fan >= 0 else -1


@njit_borrowed(inline="always")
def _first_turn_self_draw(st, b, s):
    """天和/地和: no claim yet (JPH-F2 first go-around) and the seat has not discarded (its dealt or first drawn
    tile, or the replacement for a concealed kong made on it)."""
    return (not st.claims_made[b]) and st.discarded[b, s] == 0


@njit_borrowed(inline="always")
def _in_play_mask(st, b):
    """Bit per seat still in play (XZ-P4: not yet won; every seat outside 血战)."""
    mask = 0
    for s in range(4):
        if not st.won[b, s]:
            mask |= 1 << s
    return mask


@njit_borrowed(inline="always")
def _next_seat(st, b, s):
    """The next seat in turn order after ``s`` still in play."""
    for r in range(1, 4):
        seat = (s + r) % 4
        if not st.won[b, seat]:
            return seat
    return (s + 1) % 4


@njit_borrowed(inline="always")
def _must_win(st, p, b):
    """XZ-P6: in the last tiles a player who can win must win."""
    return p.must_win_tiles_left > 0 and _drawable(st, p, b) < p.must_win_tiles_left


@njit_borrowed(inline="always")
def _reset_missed(st, b, s):
    """JPH-P3 / TDH-P3 / XZ-P5: the seat's own draw lifts its missed-win restriction."""
    st.missed_kinds[b, s] = 0
    st.missed_any[b, s] = False
    st.missed_fan[b, s] = -1


# ---- starting hands ----------------------------------------------------------------------------


@njit_borrowed
def _start_hand(st, p, b, session, hand_in_session, dealer, round_wind, streak, dealt_seats, horse_count):
    """Shuffle (C-W1) and deal (C-W2): the dealer's 14th tile is its first 'draw'."""
    st.session[b] = session
    st.hand_in_session[b] = hand_in_session
    hand_id = session * p.session_length + hand_in_session
    st.hand_id[b] = hand_id
    seed = mix64(p.seed_key + np.uint64(hand_id) * _GOLDEN)
    st.seed[b] = seed
    for k in range(5):
        st.rng[b, k] = stream_seed(seed, k)
    n = p.wall_tiles.size
    for i in range(n):
        st.wall[b, i] = p.wall_tiles[i]
    for i in range(n - 1, 0, -1):  # Fisher-Yates from the hand's wall stream
        j = next_below(st.rng[b], 0, i + 1)
        tmp = st.wall[b, i]
        st.wall[b, i] = st.wall[b, j]
        st.wall[b, j] = tmp
    st.dealer[b] = dealer
    st.round_wind[b] = round_wind
    st.streak[b] = streak
    st.dealt_seats[b] = dealt_seats
    st.horse_count[b] = horse_count
    _deal(st, p, b)


@njit_borrowed
def _deal(st, p, b):
    """C-W2: the dealer takes 14 tiles, the others 13, in turn order from the front of ``st.wall[b]``."""
    n = p.wall_tiles.size
    dealer = st.dealer[b]
    st.hands[b] = 0
    st.meld_kind[b] = 0
    st.meld_tile[b] = 0
    st.meld_from[b] = -1
    st.n_melds[b] = 0
    st.exposed[b] = 0
    st.discards[b] = 0
    st.discarded[b] = 0
    st.discarded_kinds[b] = 0
    st.flowers[b] = 0
    st.turned_flowers[b] = 0
    pos = 0
    for k in range(4):
        seat = (dealer + k) % 4
        take = p.hand_size + (1 if k == 0 else 0)
        for _ in range(take):
            tile = st.wall[b, pos]
            if _is_flower(p, tile):
                _add_flower(st, b, seat, tile)  # replaced after the 财神 are turned (SHT-P2)
            else:
                st.hands[b, seat, tile] += 1
            pos += 1
    st.front[b] = pos
    st.back[b] = n - 1
    st.turns[b] = 0
    st.claims_made[b] = False
    st.replacement[b] = 0
    st.replacement_from[b] = -1
    st.after_kong[b] = False
    st.missed_kinds[b] = 0
    st.missed_any[b] = False
    st.missed_fan[b] = -1
    st.pung_blocked[b] = 0
    st.twelve_feeder[b] = -1
    st.twelve_turn[b] = -1  # reset with the feeders: a row never carries an earlier hand's value (issue 9)
    st.limit_feeder[b] = -1
    st.limit_turn[b] = -1
    st.follow_kind[b] = -1
    st.followed[b] = False
    st.rob_concealed[b] = False
    st.win_kong_from[b] = -1
    st.responses[b] = -1
    st.could_win[b] = False
    st.could_pung[b] = False
    st.n_winners[b] = 0
    st.winners[b] = -1
    st.win_kind[b] = -1
    st.win_fan[b] = 0
    st.win_flags[b] = 0
    st.win_patterns[b] = 0
    st.win_hand[b] = 0
    st.win_melds[b] = 0
    st.discarder[b] = -1
    st.win_from[b] = -1
    st.win_turn[b] = 0
    st.win_in_play[b] = 0
    st.won[b] = False
    st.has_won[b] = False
    st.set_aside[b] = 0
    st.void_suit[b] = -1
    st.exchange_tiles[b] = -1
    st.exchange_dir[b] = 0
    st.setup_round[b] = 0
    st.setup_answers[b] = 0
    st.xz_moves[b] = 0
    st.exhausted[b] = False
    st.end_state[b] = -1
    st.ready_fan[b] = -1
    st.split_tiles[b] = -1
    st.split_win[b] = False
    st.base_tai[b] = -1
    st.four_winds_feeder[b] = -1
    st.liable[b] = -1
    st.n_kongs[b] = 0
    st.transfers[b] = 0
    st.trace_len[b] = 0
    st.actor[b] = dealer
    st.target[b] = st.wall[b, p.hand_size]  # the dealer's 14th tile
    st.phase[b] = PH_TURN
    _trace(st, p, b, dealer, TRACE_DEAL, 0)
    _set_wilds(st, p, b)
    _reserve_horses(st, p, b)
    before_play(st, p, b)


def before_play(st, p, b):
    """After the deal: SHT-P2 补花 of the dealt flowers, then XZ-H1 换三张 or XZ-H2 定缺 begins; each compiled
    only into builds with its phase (compiled code only, :mod:`mjsim.sim.families`)."""
    raise TypeError("before_play is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(before_play)
def _before_play_of(st, p, b):
    with_flowers, with_setup = compiles_phase(p, FLOWERS), compiles_phase(p, SETUP)  # constants of the build

    def impl(st, p, b):
        if with_flowers:
            if p.has_flowers:
                _replace_dealt_flowers(st, p, b)
        if with_setup:
            if p.exchange_three:  # XZ-H1: the direction is drawn for the hand, after the wall
                st.exchange_dir[b] = 1 + next_below(st.rng[b], 0, 3)
                st.phase[b] = PH_EXCHANGE
            elif p.declare_void:
                st.phase[b] = PH_VOID

    return impl


# ---- 换三张 and 定缺 (XZ-H1, XZ-H2) -------------------------------------------------------------------


def setup_rows(st, p, b, legal, row_table, row_seat, rows):
    """XZ-H1 / XZ-H2: a decision row for each of table ``b``'s four seats from row ``rows`` on; the next free
    row (compiled code only, and only into builds with the phase: :mod:`mjsim.sim.families`)."""
    raise TypeError("setup_rows is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(setup_rows)
def _setup_rows_of(st, p, b, legal, row_table, row_seat, rows):
    with_setup = compiles_phase(p, SETUP)  # a constant of the build (numba drops the branch)

    def impl(st, p, b, legal, row_table, row_seat, rows):
        if with_setup:
            for s in range(4):
                legal[rows] = False
                _setup_legal(st, b, s, legal[rows])
                row_table[rows] = b
                row_seat[rows] = s
                rows += 1
        return rows

    return impl


def setup_answer(st, p, b, s, action):
    """:func:`_apply_setup` in builds with the phase (compiled code only, :mod:`mjsim.sim.families`)."""
    raise TypeError("setup_answer is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(setup_answer)
def _setup_answer_of(st, p, b, s, action):
    with_setup = compiles_phase(p, SETUP)  # a constant of the build (numba drops the branch)

    def impl(st, p, b, s, action):
        if with_setup:
            _apply_setup(st, p, b, s, action)

    return impl


@njit_borrowed
def _setup_legal(st, b, s, legal):
    """XZ-H1: the first pick is any tile of a suit the seat holds three of, the next two of the same suit;
    XZ-H2: any suit may be declared void."""
    if st.phase[b] == PH_VOID:
        for c in range(3):
            legal[VOID_SUIT + c] = True
        return
    hand = st.hands[b, s]
    first = st.exchange_tiles[b, s, 0]
    for c in range(3):
        if first >= 0 and first // 9 != c:
            continue
        held = 0
        for t in range(9 * c, 9 * c + 9):
            held += hand[t]
        if first < 0 and held < 3:
            continue
        for t in range(9 * c, 9 * c + 9):
            if hand[t] > 0:
                legal[DISCARD + t] = True


@njit_borrowed
def _apply_setup(st, p, b, s, action):
    """One seat's pick (PH_EXCHANGE) or declaration (PH_VOID); the phase moves on once all four answered."""
    if st.phase[b] == PH_VOID:
        st.void_suit[b, s] = action - VOID_SUIT
        _trace(st, p, b, s, TRACE_VOID, action - VOID_SUIT)
    else:
        t = action - DISCARD
        st.hands[b, s, t] -= 1  # in flight until the exchange (tile_balance counts it)
        st.exchange_tiles[b, s, st.setup_round[b]] = t
    st.setup_answers[b] += 1
    if st.setup_answers[b] < 4:
        return
    st.setup_answers[b] = 0
    if st.phase[b] == PH_EXCHANGE:
        st.setup_round[b] += 1
        if st.setup_round[b] < 3:
            return
        offset = st.exchange_dir[b]
        for seat in range(4):
            for k in range(3):
                t = st.exchange_tiles[b, seat, k]
                st.hands[b, (seat + offset) % 4, t] += 1
                _trace(st, p, b, seat, TRACE_PASS, t)
        if p.declare_void:
            st.phase[b] = PH_VOID
            return
    _begin_play(st, b)


@njit_borrowed
def _begin_play(st, b):
    """The dealer's first turn after 换三张 / 定缺: its 'drawn' tile is the 14th dealt if still held, else the
    first tile it received."""
    dealer = st.dealer[b]
    t = st.target[b]
    if st.hands[b, dealer, t] == 0:
        t = st.exchange_tiles[b, (dealer - st.exchange_dir[b]) % 4, 0]
    st.target[b] = t
    st.actor[b] = dealer
    st.phase[b] = PH_TURN


@njit_borrowed
def next_in_sequence(tile):
    """TDH-G1 flip: the kind after ``tile`` (9 -> 1 in a suit, 东南西北 round, 白发中 round)."""
    if tile < 27:
        return tile - 8 if tile % 9 == 8 else tile + 1
    if tile <= 30:
        return 27 if tile == 30 else tile + 1
    return 31 if tile == 33 else tile + 1


@njit_borrowed
def _set_wilds(st, p, b):
    """C-J1 wild kinds: fixed (TDH-G1 default 白板) or the kind after a tile turned from the back (flip; two
    tiles under TDH-H6)."""
    st.wild[b, 0] = -1
    st.wild[b, 1] = -1
    st.turned[b] = -1
    if p.wild_scheme == 1:
        st.wild[b, 0] = p.wild_tile
    elif p.wild_scheme == 2 or p.wild_scheme == 3:  # TDH-G1 one turned tile; TDH-H6 双鬼 two
        for k in range(1 if p.wild_scheme == 2 else 2):
            turned = st.wall[b, st.back[b]]  # out of play from now on (C-W3)
            st.back[b] -= 1
            st.turned[b, k] = turned
            kind = next_in_sequence(turned)
            if k == 0 or kind != st.wild[b, 0]:  # equal successors give one ghost kind
                st.wild[b, k] = kind
    elif p.wild_scheme == 4 or p.wild_scheme == 5:  # SHT-P3 / SHT-H2: each turned tile names a 财神 kind
        k = 0
        while k < (2 if p.wild_scheme == 4 else 1) and st.back[b] >= st.front[b]:
            turned = st.wall[b, st.back[b]]  # out of play from now on (C-W3)
            st.back[b] -= 1
            if _is_flower(p, turned):  # SHT-P3: set aside, turn another
                _count_flower(st.turned_flowers[b], turned)
                continue
            if k == 1 and turned == st.wild[b, 0] and p.caishen_turn_again:
                st.set_aside[b, turned] += 1  # SHT-H2 turn_again: out of play too
                continue
            st.turned[b, k] = turned
            if k == 0 or turned != st.wild[b, 0]:  # SHT-P3: one kind named twice is one 财神 kind
                st.wild[b, k] = turned
            k += 1


@njit_borrowed
def _count_flower(slots, tile):
    slots[WHITE_SLOT if tile == WHITE else tile - 34] += 1


@njit_borrowed
def _add_flower(st, b, s, tile):
    _count_flower(st.flowers[b, s], tile)


@njit_borrowed
def _replace_dealt_flowers(st, p, b):
    """SHT-P2 / C-W2 补花: each seat from the dealer in turn replaces the flowers it was dealt from the back,
    again while a replacement is a flower.  The dealer's 'drawn' tile becomes its last replacement when its
    17th tile was a flower."""
    dealer = st.dealer[b]
    last = -1
    for k in range(4):
        s = (dealer + k) % 4
        need = 0
        for i in range(st.flowers.shape[2]):
            need += st.flowers[b, s, i]
            for _ in range(st.flowers[b, s, i]):
                _trace(st, p, b, s, TRACE_FLOWER, WHITE if i == WHITE_SLOT else 34 + i)
        while need > 0 and st.back[b] >= st.front[b]:
            tile = st.wall[b, st.back[b]]
            st.back[b] -= 1
            if _is_flower(p, tile):
                _trace(st, p, b, s, TRACE_FLOWER, tile)
                _add_flower(st, b, s, tile)
            else:
                st.hands[b, s, tile] += 1
                need -= 1
                if k == 0:
                    last = tile
    if _is_flower(p, st.target[b]):
        st.target[b] = last


@njit_borrowed
def _reserve_horses(st, p, b):
    """TDH-M1: dealer horses face down from the back; TDH-M5: winner horses reserved the same way."""
    st.n_horses[b] = 0
    st.horse_hits[b] = 0
    count = 0
    for k in range(st.horse_pool.shape[1]):
        st.horse_pool[b, k] = st.wall[b, st.back[b] - k]
    if p.horses == 1:
        count = st.horse_count[b]
    elif p.horses == 2:
        count = p.horse_reserve
    for k in range(count):
        st.horse_tiles[b, k] = st.wall[b, st.back[b]]
        st.back[b] -= 1
    st.n_reserved[b] = count
    st.back_start[b] = st.back[b]
    if p.horses == 1:
        st.n_horses[b] = count
        for k in range(count):
            st.horse_seats[b, k] = horse_seat(p, st.horse_tiles[b, k], st.dealer[b])


@njit_borrowed
def _session_dealer(p, session):
    if p.first_dealer >= 0:
        return p.first_dealer
    return np.int64(mix64(p.seed_key ^ mix64(np.uint64(session) + _GOLDEN)) % np.uint64(4))


@njit_borrowed
def _next_dealer(st, p, b):
    """C-X2 / JPH-P6 / TDH-P5 / XZ-P7: who deals the next hand."""
    dealer = st.dealer[b]
    if st.n_winners[b] == 0:
        return dealer if p.next_dealer_after_draw == 0 else (dealer + 1) % 4
    if p.next_dealer_after_win == 0:  # the dealer keeps the deal by (sharing in) a win
        for i in range(st.n_winners[b]):
            if st.winners[b, i] == dealer:
                return dealer
        return (dealer + 1) % 4
    if p.next_dealer_after_win == 2 and _first_win_count(st, b) > 1:  # XZ-P7: a multiple first win → discarder
        return st.win_from[b, 0]
    return st.winners[b, 0]  # winners are in turn order from the discarder


@njit_borrowed
def _first_win_count(st, b):
    """How many players won at the first win: several on one discard (一炮多响), else one."""
    if st.n_winners[b] == 0:
        return 0
    if st.win_kind[b, 0] != WIN_DISCARD:
        return 1
    n = 1
    for i in range(1, st.n_winners[b]):
        if (
            st.win_kind[b, i] == WIN_DISCARD
            and st.win_turn[b, i] == st.win_turn[b, 0]
            and (st.win_from[b, i] == st.win_from[b, 0])
        ):
            n += 1
    return n


@njit_borrowed
def _next_horse_count(st, p, b, next_dealer):
    """TDH-M2: dealer horses next hand: the base for a new dealer; after a 连庄 +1 ([Q]) or +2 / +1 by the
    dealer's kind of win ([D]); at most ``horse_max``."""
    if next_dealer != st.dealer[b]:
        return p.horse_base
    step = 1
    if p.horse_growth_by_kind:
        step = 1
        for i in range(st.n_winners[b]):
            if st.winners[b, i] == st.dealer[b] and st.win_kind[b, i] != WIN_DISCARD:
                step = 2
    return min(p.horse_max, st.horse_count[b] + step)


@njit_borrowed
def _start_next(st, p, b, queue):
    """The next hand of the table's session, else the first hand of the next session, else idle."""
    if p.replay:  # the replayed hand's state and trace stay for the caller to read
        st.phase[b] = PH_IDLE
        return
    if st.session[b] >= 0 and st.hand_in_session[b] + 1 < p.session_length:
        dealer = _next_dealer(st, p, b)
        streak = st.streak[b] + 1 if dealer == st.dealer[b] else 0
        round_wind = st.round_wind[b]
        dealt = st.dealt_seats[b]
        if dealer != st.dealer[b] and dealt == 15:
            # C-S2: every seat has dealt since the round began and the deal passes on: a full round (圈)
            round_wind = (round_wind + 1) % 4
            dealt = 0
        dealt |= 1 << dealer
        _start_hand(
            st,
            p,
            b,
            st.session[b],
            st.hand_in_session[b] + 1,
            dealer,
            round_wind,
            streak,
            dealt,
            _next_horse_count(st, p, b, dealer),
        )
        return
    if queue[0] < queue[1]:
        session = queue[0]
        queue[0] += 1
        dealer = _session_dealer(p, session)
        _start_hand(st, p, b, session, 0, dealer, p.first_round_wind, 0, 1 << dealer, p.horse_base)
        return
    st.phase[b] = PH_IDLE
    st.session[b] = -1


# ---- recording -------------------------------------------------------------------------------------


@njit_borrowed
def _record_win(st, p, sc, b, s, kind, counts, win_tile, discarder, discard_winners, extra_flags, work):
    """Score and store one winner (win order = call order)."""
    flags = extra_flags
    # XZ-H6: a 点杠花 paid by the konged tile's discarder alone is no self-draw (no 自摸加番, seed 和牌规则 3)
    discarder_pays = (
        kind == WIN_KONG_REPLACEMENT and p.kong_flower_discarder_pays and st.replacement[b] == KONG_FROM_DISCARD
    )
    if (kind == WIN_SELF_DRAW or kind == WIN_KONG_REPLACEMENT) and not discarder_pays:
        flags |= SELF_DRAW
    if kind == WIN_KONG_REPLACEMENT:
        flags |= KONG_REPLACEMENT
    if kind == WIN_ROBBED_KONG:
        flags |= ROBBED_KONG
    i = st.n_winners[b]
    if i >= st.winners.shape[1]:
        raise RuntimeError("a hand won more often than the win slots hold (state.MAX_FLOW_WINS)")
    fan = _score(st, p, sc, b, s, counts, win_tile, flags, discard_winners, st.win_patterns[b, i], work)
    if p.family == SHUITOU:
        st.base_tai[b, s] = work.ctx[CTX_BASE]  # SHT-T1: the winner's base 台 is its reading's
    st.winners[b, i] = s
    st.win_kind[b, i] = kind
    st.win_fan[b, i] = fan
    st.win_flags[b, i] = flags & (LAST_TILE | FIRST_TURN | AFTER_KONG)
    st.win_from[b, i] = discarder
    st.win_turn[b, i] = st.turns[b]
    st.win_in_play[b, i] = _in_play_mask(st, b)
    st.win_tile[b, i] = win_tile
    if kind == WIN_KONG_REPLACEMENT and st.replacement[b] == KONG_FROM_DISCARD:
        st.win_kong_from[b, i] = st.replacement_from[b]
    for t in range(34):  # a loop: copying one array into another needs reference counting
        st.win_hand[b, i, t] = counts[t]
    for m in range(st.n_melds[b, s]):
        st.win_melds[b, i, m, 0] = st.meld_kind[b, s, m]
        st.win_melds[b, i, m, 1] = st.meld_tile[b, s, m]
    st.n_winners[b] = i + 1
    st.has_won[b, s] = True
    if i == 0:
        st.discarder[b] = discarder
    if p.family == SHUITOU:
        st.four_winds_feeder[b] = shown_four_winds_feeder(st, b)


@njit_borrowed
def _play_on(st, p, b, last_winner):
    """XZ-P4 血战到底: after a win the others play on from the seat after ``last_winner``, until three won
    (XZ-H7 血流成河: everyone plays on until the wall is empty)."""
    won = 0
    for s in range(4):
        won += st.won[b, s]
    st.replacement[b] = 0
    st.replacement_from[b] = -1
    st.after_kong[b] = False
    st.target[b] = -1
    if won >= 3 and not p.bloody_flow:
        st.phase[b] = PH_END
        return
    st.actor[b] = _next_seat(st, b, last_winner)
    st.phase[b] = PH_DRAW


@njit_borrowed
def horse_pool_free(st, p, b):
    """How many leading ``horse_pool`` tiles a re-settlement may take as horses (TDH-M6): the ones set aside,
    and, when no tile was drawn from the back, the undrawn ones behind them but the last drawable one
    (setting that one aside too would have ended the wall a tile earlier: 海底 or an exhaustive draw)."""
    free = st.n_reserved[b]
    if st.back[b] == st.back_start[b]:
        free += max(0, _drawable(st, p, b) - 1)  # C-W5: the dead wall is not drawable
    return min(free, st.horse_pool.shape[1])


@njit_borrowed
def _copy_row(dst, src):
    """``dst[...] = src`` for two C-contiguous arrays of one size, element by element.  numba's own array
    assignment checks the shapes and builds its error message in compiled code, at each of the 34 copies here."""
    flat_dst = dst.reshape(dst.size)
    flat_src = src.reshape(src.size)
    for i in range(flat_src.size):
        flat_dst[i] = flat_src[i]


@kernel
def _finish(st, p, b, out):
    """Write the ended hand's row to ``out`` (the caller checked there is room)."""
    r = out.count[0]
    out.count[0] = r + 1
    out.hand_id[r] = st.hand_id[b]
    out.seed[r] = st.seed[b]
    out.session[r] = st.session[b]
    out.hand_in_session[r] = st.hand_in_session[b]
    out.dealer[r] = st.dealer[b]
    out.round_wind[r] = st.round_wind[b]
    out.streak[r] = st.streak[b]
    out.turns[r] = st.turns[b]
    out.wall_left[r] = _drawable(st, p, b)
    out.n_winners[r] = st.n_winners[b]
    _copy_row(out.winners[r], st.winners[b])
    _copy_row(out.win_kind[r], st.win_kind[b])
    _copy_row(out.fan[r], st.win_fan[b])
    _copy_row(out.win_flags[r], st.win_flags[b])
    _copy_row(out.patterns[r], st.win_patterns[b])
    _copy_row(out.win_hand[r], st.win_hand[b])
    _copy_row(out.win_melds[r], st.win_melds[b])
    out.discarder[r] = st.discarder[b]
    out.liable[r] = st.liable[b]
    _copy_row(out.wild[r], st.wild[b])
    out.n_horses[r] = st.n_horses[b]
    _copy_row(out.horse_tiles[r], st.horse_tiles[b])
    _copy_row(out.horse_seats[r], st.horse_seats[b])
    out.horse_hits[r] = st.horse_hits[b]
    _copy_row(out.horse_pool[r], st.horse_pool[b])
    out.horse_pool_free[r] = horse_pool_free(st, p, b)
    _copy_row(out.win_kong_from[r], st.win_kong_from[b])
    _copy_row(out.win_tile[r], st.win_tile[b])
    _copy_row(out.twelve_feeder[r], st.twelve_feeder[b])
    _copy_row(out.twelve_turn[r], st.twelve_turn[b])
    _copy_row(out.limit_feeder[r], st.limit_feeder[b])
    _copy_row(out.limit_turn[r], st.limit_turn[b])
    out.followed_dealer[r] = st.followed[b]
    out.n_kongs[r] = st.n_kongs[b]
    _copy_row(out.kong_seat[r], st.kong_seat[b])
    _copy_row(out.kong_kind[r], st.kong_kind[b])
    _copy_row(out.kong_from[r], st.kong_from[b])
    _copy_row(out.kong_in_play[r], st.kong_in_play[b])
    _copy_row(out.kong_turn[r], st.kong_turn[b])
    _copy_row(out.win_from[r], st.win_from[b])
    _copy_row(out.win_turn[r], st.win_turn[b])
    _copy_row(out.win_in_play[r], st.win_in_play[b])
    out.exhausted[r] = st.exhausted[b]
    _copy_row(out.end_state[r], st.end_state[b])
    _copy_row(out.ready_fan[r], st.ready_fan[b])
    _copy_row(out.void_suit[r], st.void_suit[b])
    _copy_row(out.exchange_tiles[r], st.exchange_tiles[b])
    out.exchange_dir[r] = st.exchange_dir[b]
    _copy_row(out.xz_moves[r], st.xz_moves[b])
    out.family[r] = p.family
    _copy_row(out.flowers[r], st.flowers[b])
    _copy_row(out.base_tai[r], st.base_tai[b])
    _copy_row(out.split_tiles[r], st.split_tiles[b])
    out.split_win[r] = st.split_win[b]
    out.four_winds_feeder[r] = st.four_winds_feeder[b]
    _copy_row(out.end_hands[r], st.hands[b])
    for s in range(4):
        for m in range(st.meld_kind.shape[2]):
            out.end_melds[r, s, m, 0] = st.meld_kind[b, s, m] if m < st.n_melds[b, s] else 0
            out.end_melds[r, s, m, 1] = st.meld_tile[b, s, m]
    for c in range(st.transfers.shape[1]):
        for payer in range(4):
            for payee in range(4):
                amount = st.transfers[b, c, payer, payee]
                out.nets[r, c, payee] += amount
                out.nets[r, c, payer] -= amount


# ---- the turn ----------------------------------------------------------------------------------------


@njit_borrowed
def _wall_ends(st, p, b, s):
    """C-W4 exhaustive draw (SHT-P7: 黄牌)."""
    _trace(st, p, b, s, TRACE_EXHAUSTED, 0)
    st.exhausted[b] = True
    st.phase[b] = PH_END


@njit_borrowed
def _flower_replaced(st, p, b, s, tile):
    """SHT-P2: while ``tile`` is a flower, seat ``s`` sets it aside and takes the next from the back; -1 when
    the wall runs out first."""
    while _is_flower(p, tile):
        _add_flower(st, b, s, tile)
        _trace(st, p, b, s, TRACE_FLOWER, tile)
        if _drawable(st, p, b) <= 0:
            return -1
        tile = st.wall[b, st.back[b]]
        st.back[b] -= 1
    return tile


@njit_borrowed
def _split_time(st, p, b):
    """SHT-P7 黄牌: nobody has won and the wall is down to split_tiles_at (+ split_kong_extra a kong)."""
    return (
        p.split_tiles_at > 0 and st.replacement[b] == 0 and st.n_winners[b] == 0
        and _drawable(st, p, b) <= p.split_tiles_at + p.split_kong_extra * st.n_kongs[b]
    )  # fmt: skip


@njit_borrowed
def _split(st, p, sc, b, work):
    """SHT-P7 分牌: the next ``split_tiles`` tiles go one to each player in turn from the one to draw; the first
    who can win with it wins (a self-draw, +3 台); a tile nobody wins on is set aside.  Nobody: 黄牌."""
    first = st.actor[b]
    for k in range(p.split_tiles):
        if _drawable(st, p, b) <= 0:
            break
        s = (first + k) % 4
        tile = st.wall[b, st.front[b]]
        st.front[b] += 1
        tile = _flower_replaced(st, p, b, s, tile)
        if tile < 0:
            break
        st.split_tiles[b, k] = tile
        _trace(st, p, b, s, TRACE_SPLIT, tile)
        st.hands[b, s, tile] += 1
        st.actor[b] = s
        st.target[b] = tile
        if _win_fan(st, p, sc, b, s, st.hands[b, s], tile, SELF_DRAW | SPLIT_TILE, work) >= 0:
            _trace(st, p, b, s, WIN, tile)
            _record_win(st, p, sc, b, s, WIN_SELF_DRAW, st.hands[b, s], tile, -1, 1, SPLIT_TILE, work)
            st.split_win[b] = True
            st.phase[b] = PH_END
            return
        st.hands[b, s, tile] -= 1
        st.set_aside[b, tile] += 1
    _wall_ends(st, p, b, first)


def split_now(st, p, sc, b, work):
    """SHT-P7: deal the 分牌 if it is time (:func:`_split_time`) and say whether it was; compiled only into
    builds with the phase (compiled code only, :mod:`mjsim.sim.families`)."""
    raise TypeError("split_now is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(split_now)
def _split_now_of(st, p, sc, b, work):
    with_split = compiles_phase(p, SPLIT)  # a constant of the build (numba drops the branch)

    def impl(st, p, sc, b, work):
        if with_split:
            if _split_time(st, p, b):
                _split(st, p, sc, b, work)
                return True
        return False

    return impl


def flowers_replaced(st, p, b, s, tile):
    """SHT-P2: :func:`_flower_replaced` where the wall holds flowers, else ``tile``; compiled only into builds
    with the phase (compiled code only, :mod:`mjsim.sim.families`)."""
    raise TypeError("flowers_replaced is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(flowers_replaced)
def _flowers_replaced_of(st, p, b, s, tile):
    with_flowers = compiles_phase(p, FLOWERS)  # a constant of the build (numba drops the branch)

    def impl(st, p, b, s, tile):
        if with_flowers:
            if p.has_flowers:
                return _flower_replaced(st, p, b, s, tile)
        return tile

    return impl


@njit_borrowed
def _draw(st, p, sc, b, work):
    """C-P1 draw (kong replacements from the back, C-W3; SHT-P2 flowers replaced from the back); an empty
    wall ends the hand (C-W4), and so does SHT-P7 分牌 when nobody wins on it."""
    s = st.actor[b]
    if split_now(st, p, sc, b, work):
        return
    if _drawable(st, p, b) <= 0:
        _wall_ends(st, p, b, s)
        return
    if st.replacement[b] > 0 and p.replacement_from_back:
        tile = st.wall[b, st.back[b]]
        st.back[b] -= 1
    else:
        tile = st.wall[b, st.front[b]]
        st.front[b] += 1
    tile = flowers_replaced(st, p, b, s, tile)
    if tile < 0:
        _wall_ends(st, p, b, s)
        return
    st.hands[b, s, tile] += 1
    st.target[b] = tile
    _reset_missed(st, b, s)
    st.pung_blocked[b, s] = 0
    _trace(st, p, b, s, TRACE_DRAW, tile)
    st.phase[b] = PH_TURN


@njit_borrowed(inline="always")
def _turn_flags(st, p, b, s):
    flags = 0
    if _drawable(st, p, b) == 0:
        flags |= LAST_TILE
    if _first_turn_self_draw(st, b, s):
        flags |= FIRST_TURN
    return flags


@njit_borrowed(inline="always")
def _turn_legal(st, p, sc, b, legal, work):
    """Legal actions on the actor's own turn (C-P1)."""
    s = st.actor[b]
    hand = st.hands[b, s]
    drew = st.target[b] >= 0
    can_kong = drew and _drawable(st, p, b) > 0
    wild_a, wild_b = st.wild[b, 0], st.wild[b, 1]
    for t in range(34):
        if hand[t] > 0:
            legal[DISCARD + t] = True
        if can_kong and hand[t] == 4 and t != wild_a and t != wild_b:  # wilds form no kong (C-J1)
            legal[CKONG + t] = True
    if can_kong:
        for m in range(st.n_melds[b, s]):
            t = st.meld_tile[b, s, m]
            if st.meld_kind[b, s, m] == MELD_PUNG and hand[t] >= 1:
                legal[AKONG + t] = True
    if drew:
        flags = SELF_DRAW | _turn_flags(st, p, b, s)
        if st.replacement[b] > 0:
            flags |= KONG_REPLACEMENT
        if _win_fan(st, p, sc, b, s, hand, st.target[b], flags, work) >= 0:
            legal[WIN] = True
            if _must_win(st, p, b):  # XZ-P6: the self-draw must be taken
                for a in range(legal.size):
                    legal[a] = a == WIN
                return
    if _locked(st, p, b, s):  # XZ-H7: win or discard the drawn tile
        for a in range(legal.size):
            legal[a] = legal[a] and (a == WIN or a == DISCARD + st.target[b])
    elif p.declare_void and _holds_suit(hand, st.void_suit[b, s]):
        c = st.void_suit[b, s]  # XZ-H2: the void suit's tiles go first and are never konged
        for t in range(34):
            if not 9 * c <= t < 9 * c + 9:
                legal[DISCARD + t] = False
            else:
                legal[CKONG + t] = False


@njit_borrowed
def _add_meld(st, b, s, kind, tile, source):
    m = st.n_melds[b, s]
    st.meld_kind[b, s, m] = kind
    st.meld_tile[b, s, m] = tile
    st.meld_from[b, s, m] = source
    st.n_melds[b, s] = m + 1
    if kind == MELD_CHOW:
        for k in range(3):
            st.exposed[b, s, tile + k] += 1
    else:
        st.exposed[b, s, tile] += 4 if (kind == MELD_KONG or kind == MELD_CKONG) else 3


@njit_borrowed
def _log_kong(st, b, s, kind, source):
    k = st.n_kongs[b]
    if k < st.kong_seat.shape[1]:
        st.kong_seat[b, k] = s
        st.kong_kind[b, k] = kind
        st.kong_from[b, k] = source
        st.kong_in_play[b, k] = _in_play_mask(st, b)
        st.kong_turn[b, k] = st.turns[b]
        st.n_kongs[b] = k + 1


@njit_borrowed
def _complete_added_kong(st, p, b, s, t):
    """The pung of ``t`` becomes a kong and moves to the end of the melds: the melds stay in the order made,
    so the last kong is the one a kong replacement follows (XZ-F2 杠上花 by its kind)."""
    n = st.n_melds[b, s]
    for m in range(n):
        if st.meld_kind[b, s, m] == MELD_PUNG and st.meld_tile[b, s, m] == t:
            source = st.meld_from[b, s, m]
            for j in range(m, n - 1):
                st.meld_kind[b, s, j] = st.meld_kind[b, s, j + 1]
                st.meld_tile[b, s, j] = st.meld_tile[b, s, j + 1]
                st.meld_from[b, s, j] = st.meld_from[b, s, j + 1]
            st.meld_kind[b, s, n - 1] = MELD_KONG
            st.meld_tile[b, s, n - 1] = t
            st.meld_from[b, s, n - 1] = source
            break
    st.exposed[b, s, t] += 1
    _log_kong(st, b, s, KONG_ADDED, -1)
    st.replacement[b] = KONG_ADDED
    st.replacement_from[b] = -1
    st.actor[b] = s
    st.phase[b] = PH_DRAW


@njit_borrowed
def _complete_concealed_kong(st, p, b, s, t):
    _add_meld(st, b, s, MELD_CKONG, t, -1)
    _log_kong(st, b, s, KONG_CONCEALED, -1)
    if p.first_turn_ends_on_concealed_kong:  # JPH-F2 option; by default a concealed kong is no claim
        st.claims_made[b] = True
    st.replacement[b] = KONG_CONCEALED
    st.replacement_from[b] = -1
    st.phase[b] = PH_DRAW


@njit_borrowed
def _thirteen_orphans(st, b, counts):
    """TDH-H9: ``counts`` (a concealed hand plus the robbed tile) is 十三幺, wild tiles filling gaps (C-J1)."""
    wilds = 0
    kinds = 0
    doubled = 0
    n = 0
    for t in range(34):
        c = counts[t]
        n += c
        if c == 0:
            continue
        if _is_wild(st, b, t):
            wilds += c
        elif not is_orphan(t) or c > 2:
            return False
        else:
            kinds += 1
            doubled += c == 2
    return n == 14 and doubled <= 1 and (13 - kinds) + (1 if doubled == 0 else 0) <= wilds


@njit_borrowed
def _track_follow(st, b, s, t):
    """C-P7 跟庄 fact: the dealer's first discard, then the three others' first discards in turn, all one kind
    and no claim between (a claim sets ``follow_kind`` to -1)."""
    k = st.turns[b]  # discards made before this one
    if k == 0:
        st.follow_kind[b] = t if s == st.dealer[b] else -1
    elif k <= 3 and st.follow_kind[b] >= 0:
        if s != (st.dealer[b] + k) % 4 or t != st.follow_kind[b]:
            st.follow_kind[b] = -1
        elif k == 3:
            st.followed[b] = True


@njit_borrowed
def _apply_turn(st, p, sc, b, action, work):
    s = st.actor[b]
    if action == WIN:
        kind = WIN_KONG_REPLACEMENT if st.replacement[b] > 0 else WIN_SELF_DRAW
        _trace(st, p, b, s, WIN, st.target[b])
        _record_win(st, p, sc, b, s, kind, st.hands[b, s], st.target[b], -1, 1, _turn_flags(st, p, b, s), work)
        if p.bloody_flow:  # XZ-H7: the winning tile is set aside, the hand stays as it was
            st.hands[b, s, st.target[b]] -= 1
            st.set_aside[b, st.target[b]] += 1
            _play_on(st, p, b, s)
        elif p.bloody:
            st.won[b, s] = True
            _play_on(st, p, b, s)
        else:
            st.phase[b] = PH_END
    elif action >= CKONG and action < AKONG:
        t = action - CKONG
        _trace(st, p, b, s, action, t)
        if p.orphans_rob_concealed_kong and is_orphan(t):  # TDH-H9: a 十三幺 may rob it first
            st.hands[b, s, t] -= 1  # the fourth tile is in flight, as for an added kong
            st.target[b] = t
            st.rob_concealed[b] = True
            st.phase[b] = PH_ROB
        else:
            st.hands[b, s, t] -= 4
            _complete_concealed_kong(st, p, b, s, t)
    elif action >= AKONG and action < WIN:
        t = action - AKONG
        _trace(st, p, b, s, action, t)
        st.hands[b, s, t] -= 1
        st.target[b] = t
        if p.rob_kong:  # C-P4: the others may rob the added tile first
            st.phase[b] = PH_ROB
        else:
            _complete_added_kong(st, p, b, s, t)
    else:
        t = action - DISCARD
        _trace(st, p, b, s, action, t)
        _track_follow(st, b, s, t)
        st.hands[b, s, t] -= 1
        st.discards[b, s, t] += 1
        st.discarded[b, s] += 1
        st.discarded_kinds[b, s] |= np.int64(1) << t
        st.turns[b] += 1
        st.after_kong[b] = st.replacement[b] > 0
        st.replacement[b] = 0
        st.replacement_from[b] = -1
        st.target[b] = t
        st.phase[b] = PH_RESPONSE


# ---- answers to a discard or an added kong -----------------------------------------------------------


@njit_borrowed(inline="always")
def _answer_legal(st, p, sc, b, s, legal, work):
    """Legal answers of seat ``s`` to the actor's discard (C-P2) or added kong (C-P4). True if any but PASS."""
    d = st.actor[b]
    t = st.target[b]
    hand = st.hands[b, s]
    legal[PASS] = True
    st.could_win[b, s] = False
    st.could_pung[b, s] = False
    any_option = False
    counts = work.counts
    for k in range(34):
        counts[k] = hand[k]
    counts[t] += 1
    if st.phase[b] == PH_ROB:
        own_discard = (st.discarded_kinds[b, s] >> t) & 1
        if st.rob_concealed[b] and not _thirteen_orphans(st, b, counts):
            return any_option  # TDH-H9: only 十三幺 robs a concealed kong
        if p.rob_own_discard or own_discard == 0:  # TDH-S1 option
            if _win_fan(st, p, sc, b, s, counts, t, ROBBED_KONG, work) >= 0:
                legal[WIN] = True
                any_option = True
        return any_option
    if p.discard_win:
        flags = 0
        if d == st.dealer[b] and st.turns[b] == 1 and not st.claims_made[b]:
            flags |= FIRST_TURN  # 人和: the dealer's first discard
        if st.after_kong[b]:
            flags |= AFTER_KONG  # 杠上炮 (XZ-F2)
        fan = _win_fan(st, p, sc, b, s, counts, t, flags, work)
        if fan >= 0:
            blocked = False
            if p.missed_win == 1:
                blocked = ((st.missed_kinds[b, s] >> t) & 1) == 1  # JPH-P3
            elif p.missed_win == 2:
                blocked = st.missed_any[b, s]  # TDH-P3
            elif p.missed_win == 3:
                blocked = st.missed_fan[b, s] >= 0 and fan <= st.missed_fan[b, s] and _drawable(st, p, b) >= 4
            if not blocked:
                legal[WIN] = True
                st.could_win[b, s] = True
                st.answer_fan[b, s] = fan
                any_option = True
                if _must_win(st, p, b):  # XZ-P6: the discard win must be taken
                    legal[PASS] = False
                    return True
    # C-P3: pung and chow may take the wall's last discard too (the claimer's discard can then be won);
    # an exposed kong needs a replacement tile.  C-J1: no claims with wild tiles.  XZ-H7: a locked 血流
    # winner only wins; XZ-H2: nobody claims its void suit.
    if _locked(st, p, b, s) or (p.declare_void and st.void_suit[b, s] == t // 9):
        return any_option
    if not _is_wild(st, b, t):
        if hand[t] >= 2 and ((st.pung_blocked[b, s] >> t) & 1) == 0:
            legal[PUNG] = True
            st.could_pung[b, s] = True
            any_option = True
        if hand[t] == 3 and _drawable(st, p, b) > 0:
            legal[KONG] = True
            any_option = True
        if p.chow and s == (d + 1) % 4 and t < 27:
            r = t % 9
            if r <= 6 and _real(st, b, hand, t + 1) and _real(st, b, hand, t + 2):
                legal[CHOW_LOW] = True
                any_option = True
            if 1 <= r <= 7 and _real(st, b, hand, t - 1) and _real(st, b, hand, t + 1):
                legal[CHOW_MID] = True
                any_option = True
            if r >= 2 and _real(st, b, hand, t - 2) and _real(st, b, hand, t - 1):
                legal[CHOW_HIGH] = True
                any_option = True
    return any_option


@njit_borrowed
def _check_liability(st, p, b, s, d, t, kind):
    """Record the JPH-S4 十二张落地 and JPH-S5 limit-hand facts after seat ``s`` claims ``d``'s tile ``t``."""
    exposed_sets = 0
    wind_pungs = 0
    dragon_pungs = 0
    for m in range(st.n_melds[b, s]):
        mk = st.meld_kind[b, s, m]
        if mk == MELD_CKONG:
            continue
        exposed_sets += 1
        if mk != MELD_CHOW:
            tile = st.meld_tile[b, s, m]
            if 27 <= tile <= 30:
                wind_pungs += 1
            elif tile >= 31:
                dragon_pungs += 1
    # only the facts are kept here; who pays under which switch is decided at settlement
    # (mjsim.sim.settle), so that logged hands can be re-settled under other switches
    if exposed_sets == 4 and st.twelve_feeder[b, s] < 0:
        st.twelve_feeder[b, s] = d
        st.twelve_turn[b, s] = st.turns[b]
    if kind != MELD_CHOW and st.limit_feeder[b, s] < 0:
        if (27 <= t <= 30 and wind_pungs == 4) or (t >= 31 and dragon_pungs == 3):
            st.limit_feeder[b, s] = d
            st.limit_turn[b, s] = st.turns[b]


@njit_borrowed
def _claim(st, p, b, s, action):
    d = st.actor[b]
    t = st.target[b]
    _trace(st, p, b, s, action, t)
    st.discards[b, d, t] -= 1  # the tile leaves the river for the meld
    st.claims_made[b] = True  # JPH-F2 "first go-around": a claim from a discard ends it
    # JPH-P3: a claim is 动牌 and lifts 漏胡; TDH-P3 过手 and XZ-P5 过水 last until the seat's own draw
    st.missed_kinds[b, s] = 0
    st.follow_kind[b] = -1  # C-P7: a claim ends the 跟庄 chance
    if action == PUNG:
        st.hands[b, s, t] -= 2
        _add_meld(st, b, s, MELD_PUNG, t, d)
        kind = MELD_PUNG
    elif action == KONG:
        st.hands[b, s, t] -= 3
        _add_meld(st, b, s, MELD_KONG, t, d)
        _log_kong(st, b, s, KONG_FROM_DISCARD, d)
        kind = MELD_KONG
    else:
        low = t if action == CHOW_LOW else (t - 1 if action == CHOW_MID else t - 2)
        for k in range(3):
            if low + k != t:
                st.hands[b, s, low + k] -= 1
        _add_meld(st, b, s, MELD_CHOW, low, d)
        kind = MELD_CHOW
    _check_liability(st, p, b, s, d, t, kind)
    st.actor[b] = s
    if action == KONG:  # C-P3: a kong from a discard draws a replacement
        st.replacement[b] = KONG_FROM_DISCARD
        st.replacement_from[b] = d
        st.phase[b] = PH_DRAW
    else:
        st.target[b] = -1
        st.phase[b] = PH_TURN


@njit_borrowed
def _resolve(st, p, sc, b, work):
    """Settle the answers to a discard or an added kong by priority (C-P2, C-P4)."""
    d = st.actor[b]
    t = st.target[b]
    robbing = st.phase[b] == PH_ROB
    n_win = 0
    for r in range(1, 4):
        s = (d + r) % 4
        if st.responses[b, s] == WIN:
            if n_win == 0 or p.multiple_win:  # C-P2: else the first in turn order (截胡)
                n_win += 1
    if not robbing:
        for r in range(1, 4):  # missed wins (漏胡 / 过手 / 过水)
            s = (d + r) % 4
            if st.could_win[b, s] and st.responses[b, s] != WIN:
                if p.missed_win == 1:
                    st.missed_kinds[b, s] |= np.int64(1) << t
                elif p.missed_win == 2:
                    st.missed_any[b, s] = True
                elif p.missed_win == 3:
                    st.missed_fan[b, s] = max(st.missed_fan[b, s], st.answer_fan[b, s])
    if n_win > 0:
        kind = WIN_ROBBED_KONG if robbing else WIN_DISCARD
        if not robbing:
            st.discards[b, d, t] -= 1
        counts = work.counts
        recorded = 0
        last = d  # the last winner in turn order from the discarder: play goes on after it (血战)
        for r in range(1, 4):  # the winners in turn order from the discarder
            s = (d + r) % 4
            if st.responses[b, s] != WIN or recorded == n_win:
                continue
            recorded += 1
            for k in range(34):
                counts[k] = st.hands[b, s, k]
            counts[t] += 1
            flags = 0
            if (not robbing) and d == st.dealer[b] and st.turns[b] == 1 and not st.claims_made[b]:
                flags |= FIRST_TURN
            if (not robbing) and st.after_kong[b]:
                flags |= AFTER_KONG
            _trace(st, p, b, s, WIN, t)
            # JPH-S1: several robbers of one kong are each a JPH-S3 win, never a 一炮多响
            discard_winners = 1 if robbing else n_win
            _record_win(st, p, sc, b, s, kind, counts, t, d, discard_winners, flags, work)
            if p.bloody:
                if recorded == 1:
                    if p.bloody_flow:
                        st.set_aside[b, t] += 1  # XZ-H7: set aside, the winner's hand stays
                    else:
                        st.hands[b, s, t] += 1  # the one tile joins the first winner's closed hand
                last = s
        st.responses[b] = -1
        if p.bloody:
            if not p.bloody_flow:
                for i in range(st.n_winners[b]):
                    st.won[b, st.winners[b, i]] = True
            _play_on(st, p, b, last)
        else:
            st.phase[b] = PH_END
        return
    if robbing:
        st.responses[b] = -1
        if st.rob_concealed[b]:
            st.rob_concealed[b] = False
            st.hands[b, d, t] -= 3
            _complete_concealed_kong(st, p, b, d, t)
        else:
            _complete_added_kong(st, p, b, d, t)
        return
    claimer = -1
    claim = PASS
    for r in range(1, 4):
        s = (d + r) % 4
        a = st.responses[b, s]
        if a == PUNG or a == KONG:
            claimer = s
            claim = a
    if claimer < 0:
        s = (d + 1) % 4
        a = st.responses[b, s]
        if a == CHOW_LOW or a == CHOW_MID or a == CHOW_HIGH:
            claimer = s
            claim = a
    if p.missed_pung:  # TDH-P3 / SHT-P4: a passed pung waits for the seat's next draw
        for r in range(1, 4):
            s = (d + r) % 4
            if st.could_pung[b, s] and s != claimer:
                st.pung_blocked[b, s] |= np.int64(1) << t
    st.responses[b] = -1
    if claimer >= 0:
        _claim(st, p, b, claimer, claim)
    else:
        st.actor[b] = _next_seat(st, b, d)
        st.phase[b] = PH_DRAW


# ---- the end of the wall (XZ-E) ------------------------------------------------------------------------


@njit_borrowed
def _suit_count(st, b, s):
    """Suits among seat ``s``'s concealed and exposed tiles."""
    n = 0
    for c in range(3):
        held = 0
        for t in range(9 * c, 9 * c + 9):
            held += st.hands[b, s, t] + st.exposed[b, s, t]
        n += held > 0
    return n


@njit_borrowed
def end_states(st, p, sc, b, work):
    """XZ-E facts of every seat as the hand ends: won, 花猪 (three suits, XZ-E1), ready with the fan of its
    best winning tile counted as a discard win (XZ-E2 查叫 value), or not ready.  水头: won, ready or not
    ready (the value of a wait counted the same way), and every non-winner's base 台 (SHT-T1, SHT-M2)."""
    counts = work.counts
    kinds = 27 if p.family == XUEZHAN else 34
    for s in range(4):
        st.ready_fan[b, s] = -1
        if p.family == SHUITOU and not st.has_won[b, s]:
            shuitou_base_tai(st, p, b, s, work)
        if st.has_won[b, s]:
            st.end_state[b, s] = END_WON
            continue
        if p.family == XUEZHAN and _suit_count(st, b, s) >= 3:
            st.end_state[b, s] = END_FLOWER_PIG
            continue
        best = -1
        for t in range(kinds):
            if _is_flower(p, t):
                continue
            if st.hands[b, s, t] + st.exposed[b, s, t] >= 4:
                continue  # no fifth copy to win on
            for k in range(34):
                counts[k] = st.hands[b, s, k]
            counts[t] += 1
            best = max(best, _win_fan(st, p, sc, b, s, counts, t, 0, work))
        st.ready_fan[b, s] = best
        st.end_state[b, s] = END_READY if best >= 0 else END_NOT_READY


def hand_end_facts(st, p, sc, b, work):
    """:func:`end_states` where the family needs it (血战, 水头), compiled only into their groups' builds
    (compiled code only, :mod:`mjsim.sim.families`)."""
    raise TypeError("hand_end_facts is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(hand_end_facts)
def _hand_end_facts_of(st, p, sc, b, work):
    with_end_states = compiles_for(p, XUEZHAN, SHUITOU)  # a constant of the build (numba drops the branch)

    def impl(st, p, sc, b, work):
        if with_end_states:
            if p.family == XUEZHAN or p.family == SHUITOU:
                end_states(st, p, sc, b, work)

    return impl


def shuitou_base_tai(st, p, b, s, work):
    """SHT-T1 / SHT-M2: record seat ``s``'s base 台 as the hand ends, compiled only into the 水头 build
    (compiled code only, :mod:`mjsim.sim.families`)."""
    raise TypeError("shuitou_base_tai is called from compiled code only (a numba overload, mjsim.sim.families)")


@inline_overload(shuitou_base_tai)
def _shuitou_base_tai_of(st, p, b, s, work):
    with_shuitou = compiles_for(p, SHUITOU)  # a constant of the build (numba drops the branch)

    def impl(st, p, b, s, work):
        if with_shuitou:
            _record_base_tai(st, b, s, work)

    return impl


@njit_borrowed
def _record_base_tai(st, b, s, work):
    sht_context(st, b, s, work.ctx)
    wilds = 0
    for k in range(2):
        if st.wild[b, k] >= 0:
            wilds += st.hands[b, s, st.wild[b, k]]
    st.base_tai[b, s] = base_tai_of(
        st.hands[b, s], wilds, st.meld_kind[b, s], st.meld_tile[b, s], st.n_melds[b, s],
        (s - st.dealer[b]) % 4, work.ctx,
    )  # fmt: skip


# ---- observations --------------------------------------------------------------------------------------


@njit_borrowed
def observe(st, p, rows, row_table, row_seat, obs):
    """Fill the observation of every decision row ``_collect`` wrote (what that seat sees, nothing more)."""
    # Every array is read into a local once: numba counts a reference each
    # time a field is taken from the state or a NamedTuple, and per row and
    # tile that bookkeeping (atomic increments) cost more than the copying.
    hands, exposed, discards, n_melds = st.hands, st.exposed, st.discards, st.n_melds
    phase, actor, target, dealer, round_wind, wild = st.phase, st.actor, st.target, st.dealer, st.round_wind, st.wild
    front, back = st.front, st.back
    o_hand, o_visible, o_exposed, o_discards, o_count = obs.hand, obs.visible, obs.exposed, obs.discards, obs.meld_count
    o_n, o_sets, o_wall = obs.n_concealed, obs.sets_needed, obs.wall_left
    o_offset, o_round = obs.seat_offset, obs.round_wind
    o_decision, o_target, o_from, o_wild = obs.decision, obs.target, obs.target_from, obs.wild
    void_suit, o_void = st.void_suit, obs.void_suit
    flowers, o_flowers = st.flowers, obs.flower_groups
    sets = 5 if p.hand_size == 16 else 4
    for row in range(rows):
        b = row_table[row]
        s = row_seat[row]
        n = 0
        for t in range(34):
            c = hands[b, s, t]
            o_hand[row, t] = c
            o_visible[row, t] = c
            n += c
            o_wild[row, t] = False
        o_n[row] = n
        o_sets[row] = sets - n_melds[b, s]
        for r in range(4):
            other = (s + r) % 4
            o_count[row, r] = n_melds[b, other]
            for t in range(34):
                e = exposed[b, other, t]
                d = discards[b, other, t]
                o_exposed[row, r, t] = e
                o_discards[row, r, t] = d
                o_visible[row, t] += e + d
        o_wall[row] = back[b] - front[b] + 1 - p.dead_wall
        o_offset[row] = (s - dealer[b]) % 4
        o_round[row] = round_wind[b]
        ph = phase[b]
        if ph == PH_TURN:
            decision = TURN
        elif ph == PH_ROB:
            decision = ROB
        elif ph == PH_EXCHANGE:
            decision = EXCHANGE
        elif ph == PH_VOID:
            decision = VOID
        else:
            decision = RESPONSE
        o_decision[row] = decision
        o_target[row] = target[b] if decision <= ROB else -1
        o_void[row] = void_suit[b, s]
        f = flowers[b, s]
        o_flowers[row, 0] = f[0] + f[1] + f[2] + f[3]
        o_flowers[row, 1] = f[4] + f[5] + f[6] + f[7]
        o_flowers[row, 2] = f[WHITE_SLOT]
        o_from[row] = (actor[b] - s) % 4 if decision == RESPONSE or decision == ROB else -1
        for k in range(2):
            if wild[b, k] >= 0:
                o_wild[row, wild[b, k]] = True


@kernel
def step(st, p, sc, queue, out, obs, legal, row_table, row_seat, streams, actions, answered):
    """One step of every table; return the number of decision rows written.

    First the last step's ``answered`` decision rows take their ``actions`` (each row's seat stream
    ``streams``, which the policies advanced, is stored back first) and every answered discard or kong is
    resolved.  Then every table advances to its next decision, an idle table to the next session left in
    ``queue``, and each pending decision gets a row: ``row_table``, ``row_seat``, the legal mask, what the
    seat sees (``obs``) and its seat stream (``streams``).  Call it with ``answered`` 0 to start.

    A table whose hand ended while ``out`` is full waits in PH_END until the caller has flushed the
    records.
    """
    work = new_work()
    q = by_reference(p)
    for i in range(answered):
        st.rng[row_table[i], 1 + row_seat[i]] = streams[i]
    _apply(st, q, sc, answered, row_table, row_seat, actions, work, np.zeros(answered, np.bool_))
    rows = _collect(st, q, sc, queue, out, obs, legal, row_table, row_seat, work)
    for i in range(rows):
        streams[i] = st.rng[row_table[i], 1 + row_seat[i]]
    return rows


@njit_borrowed
def _collect(st, p, sc, queue, out, obs, legal, row_table, row_seat, work):
    """:func:`step`'s second half: the loop over tables counts no references."""
    rows = 0
    capacity = out.hand_id.size
    for b in range(st.phase.size):
        while True:
            phase = st.phase[b]
            if phase == PH_IDLE:
                _start_next(st, p, b, queue)  # tables start in order: table b takes the b-th session
                if st.phase[b] == PH_IDLE:
                    break
                continue
            if phase == PH_DRAW:
                _draw(st, p, sc, b, work)
                continue
            if phase == PH_END:
                if out.count[0] >= capacity:
                    break
                hand_end_facts(st, p, sc, b, work)
                settle(st, p, sc, b)
                _finish(st, p, b, out)
                _start_next(st, p, b, queue)
                continue
            if phase == PH_EXCHANGE or phase == PH_VOID:
                rows = setup_rows(st, p, b, legal, row_table, row_seat, rows)
                break
            if phase == PH_TURN:
                legal[rows] = False
                _turn_legal(st, p, sc, b, legal[rows], work)
                row_table[rows] = b
                row_seat[rows] = st.actor[b]
                rows += 1
                break
            # PH_RESPONSE or PH_ROB
            asked = 0
            for r in range(1, 4):
                s = (st.actor[b] + r) % 4
                legal[rows] = False
                st.responses[b, s] = PASS
                if st.won[b, s]:  # XZ-P4: a winner's hand is closed
                    st.could_win[b, s] = False
                    st.could_pung[b, s] = False
                    continue
                if _answer_legal(st, p, sc, b, s, legal[rows], work):
                    st.responses[b, s] = -1
                    row_table[rows] = b
                    row_seat[rows] = s
                    rows += 1
                    asked += 1
            if asked:
                break
            _resolve(st, p, sc, b, work)
    observe(st, p, rows, row_table, row_seat, obs)
    return rows


@njit_borrowed
def _apply(st, p, sc, rows, row_table, row_seat, actions, work, answers):
    """:func:`step`'s first half: apply one action per decision row, then resolve every answered discard or
    kong (``answers``: scratch, all False, one per row)."""
    for i in range(rows):
        b = row_table[i]
        if st.phase[b] == PH_TURN:
            _apply_turn(st, p, sc, b, actions[i], work)
        elif st.phase[b] == PH_EXCHANGE or st.phase[b] == PH_VOID:
            setup_answer(st, p, b, row_seat[i], actions[i])
        else:
            st.responses[b, row_seat[i]] = actions[i]
            answers[i] = True
    for i in range(rows):
        b = row_table[i]
        # a discard made just now is answered in the next step, not here
        if answers[i] and (st.phase[b] == PH_RESPONSE or st.phase[b] == PH_ROB):
            _resolve(st, p, sc, b, work)


@kernel
def start_hand_at(st, p, b, session, hand_in_session, dealer, round_wind, streak, horse_count):
    """Start one given hand on table ``b`` (replay): its seed follows from the run key and hand id."""
    _start_hand(st, by_reference(p), b, session, hand_in_session, dealer, round_wind, streak, 1 << dealer, horse_count)


@kernel
def deal_wall(st, p, b, wall):
    """Replace table ``b``'s wall with ``wall`` (tile kinds in draw order) and deal it again.

    For scripted tests and for playing one wall from several seatings.
    """
    for i in range(wall.size):
        st.wall[b, i] = wall[i]
    _deal(st, by_reference(p), b)


@kernel
def tile_balance(st, b, counts):
    """Count table ``b``'s tiles by kind: hands, melds, rivers, the undrawn wall, an added kong tile in flight,
    reserved horses, a turned wild indicator, tiles set aside, and (``counts`` of 42 kinds) flowers.

    During play this equals the tile set (tests check it at every step).
    """
    counts[:] = 0
    for s in range(4):
        for t in range(34):
            counts[t] += st.hands[b, s, t] + st.exposed[b, s, t] + st.discards[b, s, t]
    for i in range(st.front[b], st.back[b] + 1):
        counts[st.wall[b, i]] += 1
    if st.phase[b] == PH_ROB:
        counts[st.target[b]] += 1
    for k in range(st.n_reserved[b]):
        counts[st.horse_tiles[b, k]] += 1
    for k in range(2):
        if st.turned[b, k] >= 0:
            counts[st.turned[b, k]] += 1
    for t in range(34):
        counts[t] += st.set_aside[b, t]  # XZ-H7 winning tiles put aside; SHT-P7 分牌 nobody won on
    if counts.size >= 42:  # SHT-P2 flowers set aside, and those turned up for a 财神 (SHT-P3)
        for i in range(8):
            counts[34 + i] += st.turned_flowers[b, i]
            for s in range(4):
                counts[34 + i] += st.flowers[b, s, i]
        counts[WHITE] += st.turned_flowers[b, WHITE_SLOT]
        for s in range(4):
            counts[WHITE] += st.flowers[b, s, WHITE_SLOT]
    if st.phase[b] == PH_EXCHANGE:  # XZ-H1 tiles picked, not yet passed
        for s in range(4):
            for k in range(3):
                if st.exchange_tiles[b, s, k] >= 0:
                    counts[st.exchange_tiles[b, s, k]] += 1
