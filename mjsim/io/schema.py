"""The per-hand log schema: every column, its Arrow type and what it means.

One row per hand.  Seats are absolute (0-3, fixed for a session); lists
"per winner" are in win order (turn order from the discarder).  Invariants
the tests check on every run: ``net`` sums to zero; ``net_win + net_kong +
net_horse + net_liability + net_penalty == net``; a winner's ``win_hands``
and ``win_melds`` re-score with ``mjsim.score_hand`` to the logged ``fan``
and ``patterns``; the hand replays from ``seed`` (with ``dealer``,
``round_wind`` and ``streak``).

Bump ``SCHEMA_VERSION`` when a column changes meaning or type.
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = 2
# Version history: 1 — metadata in run.json beside the parts; 2 — run directories with a verified manifest
# (_run.json), page checksums, and mjsim_version holding the release plus a source hash.

_SEATS = pa.list_(pa.int64(), 4)

COLUMNS: dict[str, tuple[pa.DataType, str]] = {
    "run_id": (pa.string(), "identifier of the run that produced the hand"),
    "hand_id": (pa.int64(), "hand number, unique in a run: session * session_length + hand_in_session"),
    "seed": (pa.uint64(), "64-bit hand seed; with dealer, round_wind and streak it replays the hand"),
    "session": (pa.int64(), "session number (C-X1)"),
    "hand_in_session": (pa.int32(), "position of the hand in its session, from 0"),
    "ruleset": (pa.string(), "ruleset name (preset or house file stem)"),
    "ruleset_hash": (pa.string(), "content hash of every ruleset option (same options, same hash)"),
    "mjsim_version": (pa.string(), "mjsim release and source hash that simulated the hand (0.1.0+src.1a2b...)"),
    "dealer": (pa.int8(), "absolute seat of the dealer 庄家 (C-S3)"),
    "round_wind": (pa.int8(), "round wind 圈风 0-3 = 东南西北 (C-S2)"),
    "streak": (pa.int16(), "hands in a row the dealer has kept the deal before this one (连庄 count)"),
    "policies": (pa.list_(pa.string(), 4), "policy spec of each absolute seat, parameters included"),
    "winners": (
        pa.list_(pa.int8()),
        "absolute seats that won, in win order; empty on a drawn hand (血流成河, XZ-H7: a seat may win again)",
    ),
    "discarder": (pa.int8(), "seat whose discard (or robbed kong) was won on; null on self-draw or draw"),
    "win_kind": (pa.list_(pa.string()), "per winner: self_draw, discard, kong_replacement or robbed_kong"),
    "fan": (pa.list_(pa.int16()), "per winner: fan after bonuses, raises and cap (units in 推倒胡)"),
    "patterns": (pa.list_(pa.list_(pa.string())), "per winner: pattern and bonus ids of the rules reference"),
    "win_hands": (pa.list_(pa.string()), "per winner: concealed tiles incl. the winning tile, tile notation"),
    "win_tiles": (pa.list_(pa.string()), "per winner: the tile won on (drawn, discarded or robbed)"),
    "win_melds": (pa.list_(pa.list_(pa.string())), "per winner: declared melds in C-T5 notation, in order"),
    "last_tile": (pa.list_(pa.bool_()), "per winner: won on the last drawable tile 海底 (JPH-F3)"),
    "first_turn": (pa.list_(pa.bool_()), "per winner: a 天和/地和/人和 situation (first go-around, no claim yet)"),
    "liable": (pa.int8(), "seat that paid for others under a 包 rule (JPH-S2..S5), else null"),
    "net": (_SEATS, "points won (+) or lost (-) by each absolute seat; sums to 0 (C-M1)"),
    "net_win": (_SEATS, "part of net from win payments (the liable player's own share included)"),
    "net_kong": (
        _SEATS,
        "part of net from kong payments (zero where the ruleset has none); in 血战 also 呼叫转移 (XZ-M4) and "
        "退税 (XZ-E3)",
    ),
    "net_horse": (_SEATS, "part of net from horses 买马 (zero where the ruleset has none)"),
    "net_liability": (_SEATS, "part of net a liable player paid for the other payers (C-M3)"),
    "net_penalty": (
        _SEATS,
        "part of net from penalties (zero where the ruleset has none): 跟庄 (C-P7), 查花猪 and 查叫 (XZ-E1, XZ-E2)",
    ),
    "net_base": (
        _SEATS,
        "part of net from the non-winners' pairwise base-台 settlement (水头 SHT-M2); zero elsewhere",
    ),
    "wilds": (pa.list_(pa.string()), "wild tile kinds of the hand (鬼牌/财神, C-J1); empty where none"),
    "horses": (pa.list_(pa.string()), "horse tiles 买马 in notation: dealer horses, or those the winner bought"),
    "horse_seats": (
        pa.list_(pa.int8()),
        "absolute seat each horse points at (TDH-M3 / TDH-M5; counted from the winner under TDH-H10)",
    ),
    "horse_hits": (
        pa.int8(),
        "winner horses on the winner's seat (TDH-M5), or the one horse's rank, an honour 10 (爆炸马 TDH-H3); "
        "0 otherwise",
    ),
    "horse_pool": (pa.list_(pa.string()), "the back tiles horses are taken from, in order (for re-settlement)"),
    "horse_pool_free": (
        pa.int8(),
        "leading horse_pool tiles never drawn, so re-settlement may take them as horses (TDH-M6): those set aside, "
        "plus, if no tile was drawn from the back, the undrawn ones behind them but the wall's last",
    ),
    "kongs": (pa.list_(pa.string()), "kongs made, in order, as seat:kind:from (kind discard/added/concealed)"),
    "kong_from_discard": (
        pa.list_(pa.int8()),
        "per winner: for a 杠上开花 win, the seat whose discard made the kong (JPH-S2/TDH-S2 fact), else -1",
    ),
    "twelve_feeder": (_SEATS, "per seat: who fed its fourth exposed set (JPH-S4 fact), -1 none"),
    "twelve_turn": (_SEATS, "per seat: discard count when that happened (orders 包先不包后), -1 none"),
    "limit_feeder": (_SEATS, "per seat: who fed its 4th wind / 3rd dragon pung (JPH-S5 fact), -1 none"),
    "limit_turn": (_SEATS, "per seat: discard count when that happened, -1 none"),
    "followed_dealer": (
        pa.bool_(),
        "跟庄 fact (C-P7): the first discards of all four players, before any claim, were the kind of the "
        "dealer's first discard; with follow_dealer = N the dealer pays each other player N (net_penalty)",
    ),
    "kong_in_play": (
        pa.list_(pa.int8()),
        "per kong: bit per seat still in play when it was made (XZ-M3: who pays; 15 outside 血战)",
    ),
    "kong_turns": (
        pa.list_(pa.int16()),
        "per kong (the order of kongs): the discard count when it was made (XZ-M4: the kong 呼叫转移 moves)",
    ),
    "win_from": (pa.list_(pa.int8()), "per winner: the discarder or robbed player, -1 for a self-draw"),
    "win_turn": (pa.list_(pa.int16()), "per winner: the discard count when the win happened"),
    "win_in_play": (
        pa.list_(pa.int8()),
        "per winner: bit per seat still in play at the win, the winner included (XZ-M5: who pays a self-draw)",
    ),
    "after_kong": (pa.list_(pa.bool_()), "per winner: won on the discard made right after the discarder's kong"),
    "exhausted": (pa.bool_(), "the hand ended on an empty wall (XZ-E: the end-of-wall checks apply)"),
    "end_state": (
        pa.list_(pa.string(), 4),
        "血战 and 水头, per seat as the hand ends: won, ready, not_ready or (血战) flower_pig (XZ-E1, XZ-E2); null "
        "elsewhere",
    ),
    "ready_fan": (_SEATS, "血战: per seat, the fan of a ready hand's best winning tile as a discard win (XZ-E2), -1"),
    "void_suits": (
        pa.list_(pa.int8(), 4),
        "per seat: the suit declared void under 定缺 (XZ-H2), 0 m, 1 p, 2 s; -1 when none is declared",
    ),
    "passed_tiles": (
        pa.list_(pa.string(), 4),
        "换三张 (XZ-H1), per seat: the three tiles it passed, tile notation; null without the exchange",
    ),
    "pass_offset": (
        pa.int8(),
        "换三张 (XZ-H1): where every seat's tiles went, 1 to 下家, 2 to 对家, 3 to 上家; null without the exchange",
    ),
    "net_call_transfer": (_SEATS, "血战: the part of net_kong moved by 呼叫转移 (XZ-M4); null elsewhere"),
    "net_tax_refund": (_SEATS, "血战: the part of net_kong returned by 退税 (XZ-E3); null elsewhere"),
    "net_flower_pig": (_SEATS, "血战: the part of net_penalty paid by 查花猪 (XZ-E1); null elsewhere"),
    "net_not_ready": (_SEATS, "血战: the part of net_penalty paid by 查叫 (XZ-E2); null elsewhere"),
    "flowers": (
        pa.list_(pa.string(), 4),
        "水头, per seat: the flowers it set aside (SHT-P2), tile notation (1f..8f; 5z where 白板 is a flower); "
        "null elsewhere",
    ),
    "base_tai": (
        _SEATS,
        "水头, per seat: base 台 as the hand ends (SHT-T1; the winner's from its chosen reading; counted on a "
        "drawn hand too, which settles nothing); null elsewhere",
    ),
    "split_tiles": (
        pa.list_(pa.string()),
        "水头: the 分牌 tiles dealt (SHT-P7), in order from the player to draw; empty when none; null elsewhere",
    ),
    "split_win": (pa.bool_(), "水头: the hand was won on a 分牌 tile (SHT-P7); null elsewhere"),
    "four_winds_feeder": (
        pa.int8(),
        "水头 SHT-M3 fact: the discarder of the wind a shown 四风会齐 won on (包牌 when liability_four_winds); "
        "null when none or outside 水头",
    ),
    "end_hands": (
        pa.list_(pa.string(), 4),
        "水头, per seat: concealed tiles as the hand ended (a winner's incl. the winning tile); null elsewhere",
    ),
    "end_melds": (
        pa.list_(pa.list_(pa.string()), 4),
        "水头, per seat: declared melds as the hand ended, C-T5 notation; null elsewhere",
    ),
    "turns": (pa.int16(), "discards made in the hand"),
    "wall_left": (pa.int16(), "drawable tiles left when the hand ended (the dead wall 留牌 not counted, C-W5)"),
}


def arrow_schema() -> pa.Schema:
    """The Arrow schema with each column's description as field metadata."""
    fields = [pa.field(name, dtype, metadata={"description": text}) for name, (dtype, text) in COLUMNS.items()]
    return pa.schema(fields, metadata={"mjsim_schema_version": str(SCHEMA_VERSION)})


def describe() -> str:
    """The schema as Markdown (one row per column)."""
    lines = ["| column | type | meaning |", "| --- | --- | --- |"]
    lines += [f"| `{name}` | {dtype} | {text} |" for name, (dtype, text) in COLUMNS.items()]
    return "\n".join(lines)
