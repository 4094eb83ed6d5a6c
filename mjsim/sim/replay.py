"""Replay one logged hand from its seed and print it turn by turn (for debugging and teaching)."""

from __future__ import annotations

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
from mjsim.sim.state import allocate_state, engine_params, win_slots
from mjsim.tiles import format_counts, tile_name

WINDS = "东南西北"


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
    while True:
        n = engine.collect(st, params, sc, queue, out, obs, legal, row_table, row_seat)
        if n == 0:
            break
        engine.seat_streams(st, n, row_table, row_seat, rng_rows)
        _decide(seats, np.array(seats.groups), obs, legal, rng_rows, actions, row_seat, n, rules)
        engine.store_streams(st, n, row_table, row_seat, rng_rows)
        engine.apply(st, params, sc, n, row_table, row_seat, actions)
    record = {k: (v[0] if len(v) else None) for k, v in rows_to_columns(out, int(out.count[0])).items()}
    differences = differences_from_log(record, row, ruleset.content_hash)
    lines = _narrate(st, dealt, row, seats.specs)
    lines.append(
        f"result: winners {record['winners']} {record['win_kind']} fan {record['fan']} "
        f"patterns {record['patterns']} hands {record['win_hands']} melds {record['win_melds']} "
        f"net {[int(x) for x in record['net']]}"
    )
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
            found.append(f"{name} {list(record[name])} replayed, {list(row[name])} logged")
    if [int(x) for x in record["net"]] != [int(x) for x in row["net"]]:
        found.append(f"net {[int(x) for x in record['net']]} replayed, {list(row['net'])} logged")
    return found


def _narrate(st, dealt, row, specs) -> list[str]:
    lines = [
        f"hand {row['hand_id']} (session {row['session']}, hand {row['hand_in_session']}), "
        f"dealer seat {row['dealer']}, round wind {WINDS[row['round_wind']]}, streak {row['streak']}",
    ]
    for seat in range(4):
        lines.append(f"  seat {seat} [{specs[seat]}] dealt {format_counts(dealt[seat])}")
    if row.get("wilds"):  # C-J1 鬼牌, SHT-P3 财神
        lines.append(f"  wild tiles (鬼牌/财神): {', '.join(row['wilds'])}")
    if row.get("pass_offset") is not None:  # XZ-H1: one direction for every seat, drawn for the hand
        lines.append(
            f"  换三张: each seat passes three tiles to its {('下家', '对家', '上家')[row['pass_offset'] - 1]}"
        )
    for k in range(int(st.trace_len[0])):
        seat, action, tile = (int(x) for x in st.trace[0, k])
        lines.append(f"  seat {seat}: {_action_text(action, tile)}")
    return lines


def _action_text(action: int, tile: int) -> str:
    name = tile_name(tile)
    if action == engine.TRACE_DEAL:
        return "deals (first turn)"
    if action == engine.TRACE_DRAW:
        return f"draws {name}"
    if action == engine.TRACE_PASS:
        return f"passes {name} (换三张)"
    if action == engine.TRACE_VOID:
        return f"declares {'mps'[tile]} void (定缺)"
    if action == engine.TRACE_EXHAUSTED:
        return "cannot draw: the wall is empty (exhaustive draw; 水头: 黄牌)"
    if action == engine.TRACE_FLOWER:
        return f"sets the flower {name} aside and draws from the back (补花)"
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
