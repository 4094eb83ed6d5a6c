"""Replay one logged hand from its seed and print it turn by turn (for debugging and teaching)."""

from __future__ import annotations

import unicodedata

import numpy as np

from mjsim.io.dataset import read_run_info, scan_hands
from mjsim.rules import loads
from mjsim.sim import engine
from mjsim.sim.constants import (
    AKONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CKONG,
    KONG,
    N_ACTIONS,
    PUNG,
    WIN,
)  # fmt: skip
from mjsim.sim.observation import empty_observation, policy_rules
from mjsim.sim.records import allocate_records, rows_to_columns
from mjsim.sim.rng import root_key
from mjsim.sim.runner import _decide, seat_policies
from mjsim.sim.scoring import scoring
from mjsim.sim.state import COMPONENT_NAMES, allocate_state, engine_params, win_slots
from mjsim.tiles import format_counts, tile_name

WINDS = "东南西北"
RELATIONS = ("庄", "下家", "对家", "上家")  # C-S1: by turn-order offset from the dealer


def replay_hand(run_dir, hand_id: int, allow_partial: bool = False) -> tuple[list[str], dict, list[str]]:
    """Re-simulate ``hand_id`` of the run; return the narrated lines, the replayed record, and how the replay
    differs from the logged row (empty when seed, ruleset hash and outcome all agree)."""
    import polars as pl

    if isinstance(hand_id, bool) or not isinstance(hand_id, int | np.integer):
        raise TypeError(f"hand_id must be an integer, got {hand_id!r}")
    info = read_run_info(run_dir, allow_partial)
    rows = scan_hands(run_dir, allow_partial=allow_partial).filter(pl.col("hand_id") == hand_id).collect()
    if rows.height == 0:
        raise ValueError(f"hand {hand_id} is not in {run_dir}")
    row = rows.row(0, named=True)
    ruleset = loads(info["ruleset_toml"], name=info["ruleset"])
    seats = seat_policies(info["policies"])
    params = engine_params(ruleset, session_length=info["session_length"], seed_key=root_key(info["seed"]), replay=True)
    sc = scoring(ruleset)
    slots = win_slots(ruleset)
    st = allocate_state(1, slots)
    out = allocate_records(4, slots)
    queue = np.array([0, 0], np.int64)  # nothing after this hand
    dealer_horses = len(row["horses"]) if ruleset.horses == "dealer" else 0
    engine.start_hand_at(
        st,
        params,
        0,
        row["session"],
        row["hand_in_session"],
        row["dealer"],
        row["round_wind"],
        row["streak"],
        dealer_horses,
    )
    dealt = st.hands[0].copy()
    obs = empty_observation(4)  # 换三张 / 定缺 ask all four seats at once
    legal = np.zeros((4, N_ACTIONS), np.bool_)
    row_table = np.zeros(4, np.int64)
    row_seat = np.zeros(4, np.int64)
    actions = np.zeros(4, np.int16)
    rng_rows = np.zeros(4, np.uint64)
    rules = policy_rules(ruleset)
    n = 0
    while True:
        n = engine.step(st, params, sc, queue, out, obs, legal, row_table, row_seat, rng_rows, actions, n)
        if n == 0:
            break
        _decide(seats, np.array(seats.groups), obs, legal, rng_rows, actions, row_seat, n, rules)
    record = {k: (v[0] if len(v) else None) for k, v in rows_to_columns(out, int(out.count[0])).items()}
    differences = differences_from_log(record, row, ruleset.content_hash)
    lines = _narrate(st, dealt, row, seats.specs, ruleset)
    if record.get("seed") is not None:
        lines += _outcome(record, ruleset)
    if differences:
        lines.append("WARNING: the replay differs from the logged row: " + "; ".join(differences))
    return lines, record, differences


def differences_from_log(record: dict, row: dict, ruleset_hash: str) -> list[str]:
    """What a replayed hand's record has that its logged row does not: seed, ruleset hash or outcome."""
    found = []
    if row["ruleset_hash"] != ruleset_hash:
        found.append(f"the row's ruleset hash {row['ruleset_hash']} is not the run's {ruleset_hash}")
    if record is None or record.get("seed") is None:
        return found + ["the replay finished no hand"]
    if int(record["seed"]) != int(row["seed"]):
        found.append(f"seed {int(record['seed'])} replayed, {int(row['seed'])} logged")
    for name in ("winners", "win_kind", "fan", "win_hands"):
        if list(record[name]) != list(row[name]):
            found.append(f"{name} {_spaced(record[name])} replayed, {_spaced(row[name])} logged")
    if [int(x) for x in record["net"]] != [int(x) for x in row["net"]]:
        found.append(f"net {_spaced(record['net'])} replayed, {_spaced(row['net'])} logged")
    return found


def _spaced(values) -> str:
    """A flat list as words (``0 2``, ``none`` when empty), never as a Python list."""
    words = [str(int(v)) if isinstance(v, int | np.integer) else str(v) for v in values]
    return " ".join(words) if words else "none"


# --- the narration: who sits where, the play ------------------------------------------------------


def seat_wind(seat: int, dealer: int) -> str:
    """The seat wind 门风 (C-S2): 东 for the dealer, then 南 西 北 in turn order."""
    return WINDS[(int(seat) - int(dealer)) % 4]


def seat_relation(seat: int, dealer: int) -> str:
    """Where the seat sits from the dealer (C-S1): 庄 (the dealer), 下家 (plays next), 对家, 上家."""
    return RELATIONS[(int(seat) - int(dealer)) % 4]


def seat_label(seat: int, dealer: int) -> str:
    """``seat 2 西 对家``: the absolute seat, its seat wind and its place from the dealer."""
    return f"seat {seat} {seat_wind(seat, dealer)} {seat_relation(seat, dealer)}"


def _narrate(st, dealt, row, specs, ruleset) -> list[str]:
    dealer = int(row["dealer"])
    lines = [
        f"hand {row['hand_id']} (hand {row['hand_in_session']} of session {row['session']}), "
        f"ruleset {ruleset.name}: {ruleset.description}",
        f"round wind {WINDS[row['round_wind']]}; dealer {seat_label(dealer, dealer)}, "
        f"连庄 streak {row['streak']} (hands in a row it has kept the deal)",
        "",
    ]
    seats = [
        [f"seat {s}", seat_wind(s, dealer), seat_relation(s, dealer), specs[s], format_counts(dealt[s])]
        for s in range(4)
    ]
    lines += _table(["seat", "wind", "to the dealer", "player", "dealt"], seats, right=())
    if row.get("wilds"):  # C-J1 鬼牌, SHT-P3 财神
        lines.append(f"  wild tiles (鬼牌/财神): {', '.join(row['wilds'])}")
    if row.get("pass_offset") is not None:  # XZ-H1: one direction for every seat, drawn for the hand
        lines.append(f"  换三张: each seat passes three tiles to its {RELATIONS[row['pass_offset']]}")
    return lines + ["", "play:"] + _play_lines(st, dealer, ruleset)


def _play_lines(st, dealer, ruleset) -> list[str]:
    """The trace, one line per turn: a seat's actions in a row share a line (``draws 3s, discards 2z``)."""
    turns = []  # (seat, [(action, tile), ...])
    for k in range(int(st.trace_len[0])):
        seat, action, tile = (int(x) for x in st.trace[0, k])
        # 换三张 and 定缺 go round the table one seat at a time, so each keeps a line of its own
        if turns and turns[-1][0] == seat and action not in (engine.TRACE_PASS, engine.TRACE_VOID):
            turns[-1][1].append((action, tile))
        else:
            turns.append((seat, [(action, tile)]))
    return [f"  {seat_label(seat, dealer)}: {_turn_text(actions, ruleset)}" for seat, actions in turns]


def _turn_text(actions, ruleset) -> str:
    """A seat's actions in a row; flowers set aside one after another (SHT-P2 补花) are named together."""
    texts, flowers = [], []
    for action, tile in [*actions, (None, None)]:
        if action == engine.TRACE_FLOWER:
            flowers.append(tile_name(tile))
            continue
        named = f"the flower {flowers[0]}" if len(flowers) == 1 else f"the flowers {' '.join(flowers)}"
        if flowers and action == engine.TRACE_DRAW:  # the draw traced after flowers is their replacement
            them = "it" if len(flowers) == 1 else "them"
            texts.append(f"draws {named}, sets {them} aside (补花) and takes {tile_name(tile)} from the back")
            flowers = []
            continue
        if flowers:  # dealt flowers, replaced before the first turn
            each = "" if len(flowers) == 1 else "each "
            texts.append(f"sets {named} aside, {each}replaced from the back (补花)")
            flowers = []
        if action is not None:
            texts.append(_action_text(action, tile, ruleset))
    return ", ".join(texts)


# --- the outcome: wins, horses, the end of the hand, the transfers ------------------------------


def _outcome(record, ruleset) -> list[str]:
    dealer = int(record["dealer"])
    return [
        "",
        *_win_lines(record, ruleset, dealer),
        "",
        *_horse_lines(record, ruleset, dealer),
        *_end_lines(record, ruleset, dealer),
        "",
        *_transfer_lines(record, ruleset, dealer),
    ]


def _win_lines(record, ruleset, dealer) -> list[str]:
    winners = record["winners"]
    if not winners:
        lines = ["result: nobody won" + (", the wall ran out (exhaustive draw)" if record["exhausted"] else "")]
    else:
        lines = ["result:" if len(winners) == 1 else f"result: {len(winners)} wins, in order:"]
    lines += [f"  {_win_text(record, ruleset, i, dealer)}" for i in range(len(winners))]
    if record["liable"] is not None:
        lines.append(f"  {seat_label(record['liable'], dealer)} pays for the other payers (包, C-M3)")
    if record["followed_dealer"] and ruleset.follow_dealer:
        lines.append(f"  跟庄 (C-P7): the first discards all followed the dealer's, who pays each other player "
                     f"{ruleset.follow_dealer}")  # fmt: skip
    return lines


def _win_text(record, ruleset, i, dealer) -> str:
    """One win: who, on what tile and how, its value with the pattern ids, the winning hand."""
    source = int(record["win_from"][i])
    how = {
        "self_draw": "self-drawn (自摸)",
        "discard": f"discarded by {seat_label(source, dealer)}",
        "kong_replacement": "drawn after a kong (杠上开花)",
        "robbed_kong": f"robbed from the added kong of {seat_label(source, dealer)} (抢杠)",
    }[record["win_kind"][i]]
    if record.get("split_win"):
        how += ", a 分牌 tile (SHT-P7)"
    value = _value(ruleset, record["fan"][i])
    patterns = _pattern_text(record["patterns"][i])
    value += f" ({patterns})" if patterns else ""
    hand = record["win_hands"][i] + "".join(f" + {meld}" for meld in record["win_melds"][i])
    return f"{seat_label(record['winners'][i], dealer)} wins on {record['win_tiles'][i]}, {how}: {value}; hand {hand}"


def _value(ruleset, value) -> str:
    """A hand value in the family's unit: ``3 fan``, ``2 units`` (推倒胡), ``28 台`` (水头)."""
    value = int(value)
    if ruleset.family == "shuitou":
        return f"{value} 台"
    return f"{value} fan" if ruleset.hand_value == "fan" else _count(value, "unit")


def _pattern_text(ids) -> str:
    """Pattern ids in order, a repeated one once with its count: ``self_draw, flowers ×2``."""
    counts = {}
    for pid in ids:
        counts[pid] = counts.get(pid, 0) + 1
    return ", ".join(pid if n == 1 else f"{pid} ×{n}" for pid, n in counts.items())


# the tiles that point at offsets 0-3 from the horses' origin (the dealer, or the winner under TDH-H10)
_HORSE_GROUPS = {
    "dealer_offset": ("TDH-M3", ("1 5 9 东 中", "2 6 南 发", "3 7 西 白", "4 8 北")),
    "ghost_edition": ("TDH-M5", ("1 5 9 东", "2 6 南 中", "3 7 西 发", "4 8 北 白")),
}


def _horse_mapping_text(ruleset, from_winner: bool) -> str:
    rule, groups = _HORSE_GROUPS[ruleset.horse_mapping]
    if from_winner:  # TDH-H10
        origin, places = "the winner (TDH-H10)", ("the winner", "its 下家", "its 对家", "its 上家")
    else:
        origin, places = "the dealer", RELATIONS
    pointing = "; ".join(f"{tiles} -> {place}" for tiles, place in zip(groups, places, strict=True))
    return f"{rule}, counted from {origin}: {pointing}"


def _horse_lines(record, ruleset, dealer) -> list[str]:
    """买马: each horse tile and the seat it points at; whose horses they are and what they did."""
    if ruleset.horses == "none":
        return ["horses: no horses (买马) in this ruleset"]
    tiles, seats, winners = record["horses"], record["horse_seats"], record["winners"]
    if ruleset.horses == "dealer":
        head = (
            f"{_count(len(tiles), 'dealer horse')}, bought by the dealer {seat_label(dealer, dealer)} (TDH-M1, TDH-M2)"
        )
    elif tiles:
        head = f"{_count(len(tiles), 'winner horse')}, bought by the winner {seat_label(winners[-1], dealer)} (TDH-M5)"
    else:
        why = "nobody won" if not winners else "a 满鬼 win buys none (TDH-H8)"
        return [f"horses (买马): winner horses, none bought: {why} (TDH-M5)"]
    from_winner = ruleset.horses == "winner" and ruleset.winner_horses_from == "winner"
    lines = [f"horses (买马): {head}", f"  {_horse_mapping_text(ruleset, from_winner)}"]
    for tile, seat in zip(tiles, seats, strict=True):
        hit = ruleset.horses == "winner" and ruleset.winner_horse_scheme == "count" and seat == winners[-1]
        lines.append(f"  {tile:<3} -> {seat_label(seat, dealer)}" + ("  (the winner's seat: a hit)" if hit else ""))
    lines += [f"  {line}" for line in _horse_effect(record, ruleset)]
    if not any(record["net_horse"]):
        lines.append("  this hand they move nothing" + (": nobody won" if not winners else ""))
    return lines


def _horse_effect(record, ruleset) -> list[str]:
    """What the horses do, as the ruleset settles them."""
    if ruleset.horses == "dealer" and ruleset.horse_settlement == "net":
        return ["TDH-M4 (horse_settlement net): for each horse the dealer takes that seat's net result of the hand"]
    if ruleset.horses == "dealer":
        return [
            "TDH-M4: for each horse the dealer wins what that seat wins and loses what it loses",
            "(what passes between that seat and the dealer cancels out)",
        ]
    hits = int(record["horse_hits"])
    if ruleset.winner_horse_scheme == "one_horse":
        return [f"爆炸马 (TDH-H3): the one horse's rank counts as {_count(hits, 'hit')} (an honour 10)"]
    pays = "a 1-unit hand's payment (TDH-H2)" if ruleset.winner_horse_value == "base" else "its payment"
    return [f"{_count(hits, 'hit')}: for each hit every payer pays the winner {pays} once more (TDH-M5)"]


def _end_lines(record, ruleset, dealer) -> list[str]:
    """How each seat ended: 水头's flowers and base 台 (SHT-P2, SHT-T1); 血战's end-of-wall checks (XZ-E)."""
    states = record.get("end_state")
    if ruleset.family == "shuitou" and states is not None:
        rows = [
            [
                seat_label(s, dealer),
                record["flowers"][s] or "none",
                str(record["base_tai"][s]),
                _state(record, ruleset, s),
            ]
            for s in range(4)
        ]
        return ["", "as the hand ended (SHT-P2 flowers, SHT-T1 base 台):"] + _table(
            ["seat", "flowers", "base 台", "state"], rows, right=(2,)
        )
    if ruleset.family == "xuezhan" and states is not None and record["exhausted"]:
        rows = [[seat_label(s, dealer), _state(record, ruleset, s)] for s in range(4)]
        return ["", "the wall ran out; the end-of-wall checks (XZ-E1 查花猪, XZ-E2 查叫) saw:"] + _table(
            ["seat", "state"], rows, right=()
        )
    return []


def _state(record, ruleset, seat) -> str:
    state = record["end_state"][seat]
    ready = record.get("ready_fan")
    if state == "ready" and ready is not None and int(ready[seat]) >= 0:
        return f"ready (best wait {_value(ruleset, ready[seat])})"
    return {"not_ready": "not ready", "flower_pig": "flower pig (花猪)"}.get(state, state)


# what the transfer components of the log (net_<name>, COMPONENT_NAMES, C-M1) hold, where a name does not say
_EXPLAINED = {
    "liability": "what a liable player paid for the other payers (包, C-M3)",
    "penalty": "penalties",
    "base": "the non-winners' pairwise base 台 (SHT-M2)",
}
# 血战 parts of kong and penalty money the log breaks out (net_<name>)
_XZ_PARTS = {
    "call_transfer": "呼叫转移 XZ-M4",
    "tax_refund": "退税 XZ-E3",
    "flower_pig": "查花猪 XZ-E1",
    "not_ready": "查叫 XZ-E2",
}


def _transfer_lines(record, ruleset, dealer) -> list[str]:
    """The points each seat won (+) or lost (-), by component, one row per seat; the total is ``net``."""
    shown = [c for c in COMPONENT_NAMES if c == "win" or any(record[f"net_{c}"])]
    rows = [
        [seat_label(s, dealer), *(_signed(record[f"net_{c}"][s]) for c in shown), _signed(record["net"][s])]
        for s in range(4)
    ]
    lines = ["transfers (points; + received, - paid):"]
    lines += _table(["seat", *shown, "total"], rows, right=range(1, len(shown) + 2))
    total = sum(int(x) for x in record["net"])
    lines.append(
        "the totals sum to 0: every point one seat pays another receives (C-M1)"
        if total == 0
        else f"WARNING: the totals sum to {total}, not 0 (C-M1)"
    )
    lines += [f"  {c}: {_explained(c, ruleset)}" for c in shown if c in _EXPLAINED]
    if len(shown) < len(COMPONENT_NAMES):
        lines.append("  components that are zero for every seat are left out")
    return lines + _xz_part_lines(record, dealer)


def _explained(component, ruleset) -> str:
    if component != "penalty":
        return _EXPLAINED[component]
    kinds = (["跟庄 (C-P7)"] if ruleset.follow_dealer else []) + (
        ["查花猪 and 查叫 (XZ-E1, XZ-E2)"] if ruleset.family == "xuezhan" else []
    )
    return ", ".join(kinds) or _EXPLAINED[component]


def _xz_part_lines(record, dealer) -> list[str]:
    parts = [name for name in _XZ_PARTS if record.get(f"net_{name}") is not None and any(record[f"net_{name}"])]
    if not parts:
        return []
    rows = [[seat_label(s, dealer), *(_signed(record[f"net_{name}"][s]) for name in parts)] for s in range(4)]
    return ["of that, the 血战 rules moved (already counted in kong and penalty):"] + _table(
        ["seat", *(_XZ_PARTS[name] for name in parts)], rows, right=range(1, len(parts) + 1)
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _signed(value) -> str:
    value = int(value)
    return f"{value:+d}" if value else "0"


def _table(headers, rows, right) -> list[str]:
    """Plain-text columns, two spaces apart, padded by display width (a CJK character takes two)."""
    right = set(right)
    widths = [max(_width(str(r[j])) for r in [headers, *rows]) for j in range(len(headers))]

    def line(cells):
        padded = [_pad(str(c), w, j in right) for j, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  " + "  ".join(padded).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool) -> str:
    space = " " * (width - _width(text))
    return space + text if right else text + space


def _action_text(action: int, tile: int, ruleset) -> str:
    name = tile_name(tile)
    if action == engine.TRACE_DEAL:
        return "deals (first turn)"
    if action == engine.TRACE_DRAW:
        return f"draws {name}"
    if action == engine.TRACE_PASS:
        return f"passes {name} (换三张)"
    if action == engine.TRACE_VOID:
        return f"declares {'万筒条'[tile]} ({'mps'[tile]}) void (定缺)"
    if action == engine.TRACE_EXHAUSTED:
        return "cannot draw: the wall is empty (exhaustive draw" + (", 黄牌)" if ruleset.family == "shuitou" else ")")
    if action == engine.TRACE_SPLIT:
        return f"receives the 分牌 tile {name}"
    if action == WIN:
        return f"wins on {name}"
    if action == PUNG:
        return f"pungs {name}"
    if action == KONG:
        return f"kongs {name} (from the discard)"
    if action in (CHOW_LOW, CHOW_MID, CHOW_HIGH):
        return f"chows {name}"
    if CKONG <= action < AKONG:
        return f"declares a concealed kong of {name}"
    if AKONG <= action < WIN:
        return f"adds {name} to its pung (added kong)"
    return f"discards {name}"
