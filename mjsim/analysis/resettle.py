"""Re-settlement: logged hands paid again under other scoring options, without replaying play.

The hand log keeps every fact settlement needs — the winners' tiles and
melds, how each won, the 包 trigger facts (who fed a fourth exposed set or
the last honour pung, who discarded into a 杠上开花 kong), the kongs, the
back tiles horses come from — so a change to the cap, the fan tables, a
liability switch, the payment split, the kong money or the horse scheme is
applied by re-scoring each win with the compiled scorer and running the
engine's own settlement code on the logged facts.  水头 (SHT-H3..H5, SHT-M3):
the win is re-scored under the new doubling from its logged flowers, 财神
and 分牌 fact, and settled on the logged base 台 and 包牌 fact.

Options that change what players do (which wins are legal, claims, the
wall, …) cannot be re-settled; they raise ``ValueError`` pointing to a
paired re-simulation.  Two approximations, both documented: policies saw
the logged ruleset (a ``value`` policy might have played differently for
other fan values), and with fewer horses than the logged hand set aside the
freed back tiles would have been drawable (a kong replacement would then
have been another tile).  A scheme that sets aside more back tiles than the
logged hand left undrawn (``horse_pool_free``) is refused: those tiles were
in play.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

import numpy as np
import polars as pl

from mjsim.io.dataset import read_run_info, scan_hands
from mjsim.progress import Progress
from mjsim.rules import Ruleset, loads, ruleset
from mjsim.sim.constants import KONG_KIND_NAMES, MELD_NAMES, WIN_KIND_NAMES, WIN_KONG_REPLACEMENT, WIN_SELF_DRAW
from mjsim.sim.fastscore import (
    AFTER_KONG,
    FIRST_TURN,
    KONG_REPLACEMENT,
    LAST_TILE,
    N_PATTERNS,
    ROBBED_KONG,
    SELF_DRAW,
)  # fmt: skip
from mjsim.sim.fastscore_sht import CTX_BASE, CTX_FLOWERS, CTX_LEN, CTX_ONE_KIND_PAIR, CTX_WILDS, SPLIT_TILE
from mjsim.sim.records import pattern_list
from mjsim.sim.resettle_kernel import rescore_and_settle
from mjsim.sim.scoring import scoring
from mjsim.sim.settle import horse_seat
from mjsim.sim.state import C_BASE, END_STATE_NAMES, XZ_RULE_NAMES, allocate_state, engine_params, win_slots
from mjsim.tiles import FIRST_FLOWER, parse_meld, parse_tiles, tile_name

SETTLEMENT_OPTIONS = frozenset({
    # JPH-F, JPH-M, JPH-S: scoring, payment split and liabilities
    "cap", "fan", "limit_fan", "bonuses", "kong_flower", "robbed_kong_bonus", "triple_win_raise",
    "discard_pays_all", "triple_win_pays_all", "liability_kong_flower", "liability_robbed_kong", "liability_twelve_tiles",
    "liability_limit_hands", "liability_first_only", "liability_precedence", "liability_once_across_rules", "nine_gates_wait",
    # TDH-V, TDH-K, TDH-M: values, multipliers, kong money, horses
    "big_hands", "small_hand_value", "big_hand_value", "self_draw_multiplier", "discard_multiplier",
    "earthly_rule", "no_ghost_multiplier", "kong_flower_multiplier", "full_ghosts_value",
    "kong_pay_discard", "kong_pay_added", "kong_pay_concealed", "kong_settle",
    "horses", "horse_growth", "horse_base", "horse_max", "horse_mapping", "winner_horses_with_ghost",
    "winner_horses_without_ghost", "horse_reserve",
    # TDH-H house options on values and horses, C-P7 跟庄 (its fact, followed_dealer, is logged)
    "robbed_kong_multiplier", "seven_pairs_multiplier", "ghost_as_itself_counts_as_no_ghost", "full_ghosts_horses",
    "horses_on_kongs", "winner_horses_on_kongs", "winner_horse_value", "winner_horse_scheme", "winner_horses_from",
    "horse_settlement", "follow_dealer",
    # XZ-F3 cap, XZ-M3 kong amounts (above), XZ-M4 呼叫转移, XZ-E1..E3, XZ-H3 自摸加底/加番, XZ-H6 点杠花.  The fan
    # tables and XZ-H4/H5 are not here: they change the 查叫 value of hands the log does not keep.
    "call_transfer", "call_transfer_multiple", "end_checks", "flower_pig_penalty", "tax_refund", "self_draw_bonus",
    "kong_flower_from_discard",
    # SHT-H3 doubling (the logged win re-scored), SHT-H4 dealer doubles, SHT-H5 non-winners' base 台, SHT-M3 包牌
    # (its fact, four_winds_feeder, is logged)
    "double_from_tai", "double_factor", "dealer_pays_double", "settle_non_winners", "liability_four_winds",
    # not rules
    "name", "description",
})  # fmt: skip


def play_changes(logged: Ruleset, target: Ruleset) -> list[str]:
    """Options that differ between the rulesets and change play (so cannot be re-settled)."""
    a, b = logged.to_dict(), target.to_dict()
    return sorted(k for k in a if a[k] != b[k] and k not in SETTLEMENT_OPTIONS)


def target_ruleset(logged: Ruleset, ruleset_or_overrides) -> Ruleset:
    """The ruleset to settle under: a ``Ruleset``, a preset name or house file, or options changed from ``logged``."""
    if isinstance(ruleset_or_overrides, (Ruleset, str, os.PathLike)):
        target = ruleset(ruleset_or_overrides)
    elif ruleset_or_overrides is None or isinstance(ruleset_or_overrides, Mapping):
        target = logged.replace(**dict(ruleset_or_overrides or {}))
    else:
        raise TypeError(
            f"expected a Ruleset, a preset name or a dict of options to change, got {ruleset_or_overrides!r}"
        )
    changed = play_changes(logged, target)
    if changed:
        raise ValueError(
            f"{', '.join(changed)} change{'s' if len(changed) == 1 else ''} how the hands are played, so logged "
            f"hands cannot be re-settled under them; simulate both options on the same seeds instead "
            f"(a paired re-simulation: `mjsim compare --ruleset {logged.name} --vary {changed[0]}=...`)"
        )
    return target


def resettle(runs, ruleset_or_overrides=None, *, allow_partial: bool = False, **overrides) -> pl.DataFrame:
    """Each logged hand of ``runs`` (run directories) settled again under another scoring option.

    ``ruleset_or_overrides``: a ``Ruleset``, or a dict of options changed from
    each run's logged ruleset (keywords work too: ``resettle(run, cap=5)``).
    Returns one row per hand: run_id, hand_id, fan (per winner), patterns,
    liable, horse_hits, horses, horse_seats, net and net_win/kong/horse/liability/penalty (and net_base, SHT-M2).
    An incomplete run is refused unless ``allow_partial``.
    """
    if overrides:
        ruleset_or_overrides = {**dict(ruleset_or_overrides or {}), **overrides}
    if isinstance(runs, (str, os.PathLike)):
        dirs = [runs]
    elif isinstance(runs, Iterable):
        dirs = list(runs)
    else:
        raise TypeError(f"runs must be a run directory or a list of them, got {runs!r}")
    targets = []
    for directory in dirs:
        info = read_run_info(directory, allow_partial)
        logged = loads(info["ruleset_toml"], name=info["ruleset"])
        targets.append((logged, target_ruleset(logged, ruleset_or_overrides), info["session_length"]))
    total = sum(scan_hands(d, allow_partial=allow_partial).select(pl.len()).collect().item() for d in dirs)
    frames = []
    with Progress(total, label="hands re-settled") as bar:
        for directory, (logged, target, session_length) in zip(dirs, targets, strict=True):
            hands = scan_hands(directory, allow_partial=allow_partial).sort("hand_id").collect()
            frames.append(resettle_hands(hands, target, session_length, bar, logged=logged))
    return pl.concat(frames)


PROGRESS_STEP = 2048  # hands between progress updates


def resettle_hands(
    hands: pl.DataFrame,
    rules: Ruleset,
    session_length: int,
    bar: Progress | None = None,
    *,
    logged: Ruleset | None = None,
) -> pl.DataFrame:
    """Logged hand rows (the log's columns, sorted by hand_id) settled under ``rules`` (checked by the caller);
    ``bar`` counts the hands done; ``logged`` is the ruleset they were played under (its cap bounds the
    logged 查叫 values, XZ-E2)."""
    n = hands.height
    st = allocate_state(max(n, 1), win_slots(rules))
    params = engine_params(rules, session_length=session_length)
    sc = scoring(rules)
    rows = hands.to_dicts()
    horse_counts = _dealer_horse_counts(rows, rules)
    _check_horses_kept_out(rows, horse_counts, rules)
    _check_ready_values_known(rows, logged, rules)
    _check_shuitou_facts(hands, rules)
    wins = []  # per winner: (table, index, concealed real, wilds, win tile, melds, flags, offset, winners, held,
    # 水头 scorer context)
    for b, row in enumerate(rows):
        _fill_facts(st, params, b, row, horse_counts[b], rules)
        for i, seat in enumerate(row["winners"]):
            wins.append(_win_inputs(b, i, seat, row, rules))
        if bar is not None and (b + 1) % PROGRESS_STEP == 0:
            bar.update(PROGRESS_STEP)
    if bar is not None:
        bar.update(n % PROGRESS_STEP)
    n_wins = len(wins)
    table = np.array([w[0] for w in wins], np.int64)
    index = np.array([w[1] for w in wins], np.int64)
    real = np.array([w[2] for w in wins], np.int8).reshape(n_wins, 34)
    wilds = np.array([w[3] for w in wins], np.int64)
    win_tile = np.array([w[4] for w in wins], np.int64)
    meld_kind = np.array([w[5] for w in wins], np.int8).reshape(n_wins, 5)
    meld_tile = np.array([w[6] for w in wins], np.int8).reshape(n_wins, 5)
    n_melds = np.array([w[7] for w in wins], np.int64)
    flags = np.array([w[8] for w in wins], np.int64)
    offset = np.array([w[9] for w in wins], np.int64)
    discard_winners = np.array([w[10] for w in wins], np.int64)
    held = np.array([w[11] for w in wins], np.int8).reshape(n_wins, 34)
    ctx = np.array([w[12] for w in wins], np.int64).reshape(n_wins, CTX_LEN)
    round_wind = np.array([rows[t]["round_wind"] for t in table], np.int64)
    found = np.zeros((n_wins, N_PATTERNS), np.int8)
    codes = rescore_and_settle(
        st, params, sc, n, table, index, real, wilds, held, win_tile, meld_kind, meld_tile, n_melds, flags, offset,
        round_wind, discard_winners, found, ctx,
    )  # fmt: skip
    if n_wins and (codes < 0).any():
        bad = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(
            f"hand {rows[table[bad]]['hand_id']}: the logged win is not a win under the new options (code {codes[bad]})"
        )
    _check_base_tai(rows, table, index, ctx)
    return _output(hands, st, n, table, index, codes, found)


SHUITOU_FACTS = ("flowers", "base_tai", "split_win", "four_winds_feeder")  # what 水头 re-settlement reads


def _check_shuitou_facts(hands, rules) -> None:
    """A 水头 log from before its settlement facts were logged cannot be re-settled (SHT-M3: 包牌 would be lost)."""
    missing = [c for c in SHUITOU_FACTS if c not in hands.columns] if rules.family == "shuitou" else []
    if missing:
        raise ValueError(
            f"the log has no {', '.join(missing)} column{'s' if len(missing) > 1 else ''} (written by an older "
            f"version), so its 水头 hands cannot be re-settled; re-simulate instead"
        )


def _check_base_tai(rows, table, index, ctx) -> None:
    """水头: the re-scored reading's base 台 (SHT-T1) is the logged winner's; another would mean the log's facts
    (flowers, 财神, melds) were read into the scorer wrongly, and the money would be wrong with it."""
    for k in range(table.size):
        row = rows[table[k]]
        if row.get("base_tai") is None:
            continue
        logged = row["base_tai"][row["winners"][index[k]]]
        if ctx[k, CTX_BASE] != logged:
            raise ValueError(
                f"hand {row['hand_id']}: the re-scored win has {ctx[k, CTX_BASE]} base 台, the log {logged}; "
                "the log does not match this version's 水头 scorer, so re-simulate instead"
            )


def _check_horses_kept_out(rows, horse_counts, rules) -> None:
    """TDH-M6: the new scheme may set aside only back tiles the logged hand never drew (``horse_pool_free``)."""
    for row, dealer_horses in zip(rows, horse_counts):
        needed = {"dealer": dealer_horses, "winner": rules.horse_reserve}.get(rules.horses, 0)
        free = row.get("horse_pool_free")
        if needed and (free is None or needed > free):
            raise ValueError(
                f"hand {row['hand_id']}: the new horse scheme sets aside {needed} back tiles, but only "
                f"{0 if free is None else free} of them stayed out of play in the logged hand; re-simulate instead "
                f"(a paired re-simulation: `mjsim compare --vary horses=...`)"
            )


def _check_ready_values_known(rows, logged, rules) -> None:
    """XZ-E2: a ready hand's 查叫 value is logged under the logged cap; a higher cap needs the uncapped
    value, unknown where the logged one sits at the logged cap."""
    if logged is None or logged.cap is None or (rules.cap is not None and rules.cap <= logged.cap):
        return
    for row in rows:
        if row.get("ready_fan") is not None and logged.cap in row["ready_fan"]:
            raise ValueError(
                f"hand {row['hand_id']}: a ready hand's 查叫 value sits at the logged cap {logged.cap}, so its value "
                f"under cap {rules.cap} is not in the log; re-settle a run played with the higher cap, or "
                f"re-simulate (`mjsim compare --ruleset {logged.name} --vary cap=...`)"
            )


def _dealer_horse_counts(rows, rules) -> list[int]:
    """TDH-M2 dealer-horse count of each hand under ``rules``, from the logged sessions."""
    counts = []
    previous = None
    for row in rows:
        if rules.horses != "dealer":
            counts.append(0)
            continue
        if previous is None or row["session"] != previous["session"] or row["dealer"] != previous["dealer"]:
            count = rules.horse_base
        else:
            step = 1
            if rules.horse_growth == "by_win_kind" and previous["dealer"] in previous["winners"]:
                kind = previous["win_kind"][previous["winners"].index(previous["dealer"])]
                step = 1 if kind == "discard" else 2
            count = min(rules.horse_max, counts[-1] + step)
        counts.append(count)
        previous = row
    return counts


def _fill_facts(st, params, b, row, horse_count, rules) -> None:
    """Load one logged hand's settlement facts into table ``b`` of the state."""
    winners = row["winners"]
    st.dealer[b] = row["dealer"]
    st.n_winners[b] = len(winners)
    st.winners[b] = -1
    st.winners[b, : len(winners)] = winners
    st.win_kind[b, : len(winners)] = [WIN_KIND_NAMES.index(k) for k in row["win_kind"]]
    st.discarder[b] = -1 if row["discarder"] is None else row["discarder"]
    st.win_kong_from[b] = -1
    st.win_kong_from[b, : len(winners)] = row["kong_from_discard"]
    st.liable[b] = -1
    st.followed[b] = row["followed_dealer"]
    for name in ("twelve_feeder", "twelve_turn", "limit_feeder", "limit_turn"):
        getattr(st, name)[b] = list(row[name])
    kongs = [k.split(":") for k in row["kongs"]]
    st.n_kongs[b] = len(kongs)
    for k, (seat, kind, source) in enumerate(kongs):
        st.kong_seat[b, k] = int(seat)
        st.kong_kind[b, k] = KONG_KIND_NAMES.index(kind)
        st.kong_from[b, k] = int(source)
    # the seats each kong's money came from (XZ-M3: those in play; every seat outside 血战 and in older logs)
    st.kong_in_play[b] = 15
    st.kong_in_play[b, : len(kongs)] = row.get("kong_in_play") or [15] * len(kongs)
    st.kong_turn[b] = 0  # older logs: 呼叫转移 takes the konger's last kong
    st.kong_turn[b, : len(kongs)] = row.get("kong_turns") or [0] * len(kongs)
    _fill_xuezhan_facts(st, b, row, rules)
    # SHT-M2 the seats' base 台 and the SHT-M3 包牌 fact (-1 on the other families' rows)
    st.base_tai[b] = -1 if row.get("base_tai") is None else row["base_tai"]
    feeder = row.get("four_winds_feeder")
    st.four_winds_feeder[b] = -1 if feeder is None else feeder
    wild = [t for text in row["wilds"] for t in parse_tiles(text)]
    st.wild[b] = -1
    st.wild[b, : len(wild)] = wild
    for i, text in enumerate(row["win_hands"]):
        st.win_hand[b, i] = np.bincount(parse_tiles(text), minlength=34)[:34]
    pool = [parse_tiles(t)[0] for t in row["horse_pool"]]
    st.horse_tiles[b] = pool
    st.n_horses[b] = horse_count if rules.horses == "dealer" else 0
    for k in range(len(pool)):
        if pool[k] < FIRST_FLOWER:  # a 水头 pool may hold flowers, never horses (水头 has none)
            st.horse_seats[b, k] = horse_seat(params, pool[k], row["dealer"])
    st.n_reserved[b] = (
        horse_count if rules.horses == "dealer" else (rules.horse_reserve if rules.horses == "winner" else 0)
    )


def _fill_xuezhan_facts(st, b, row, rules) -> None:
    """XZ-M5 / XZ-M4 / XZ-E facts: who each win came from, when, who was in play, 杠上炮, and the seats'
    end-of-wall states with their 查叫 values under the new cap (null columns outside 血战)."""
    k = len(row["winners"])
    st.win_from[b, :k] = row.get("win_from") or [-1] * k
    st.win_turn[b, :k] = row.get("win_turn") or [0] * k
    st.win_in_play[b, :k] = row.get("win_in_play") or [15] * k
    st.win_flags[b, :k] = [AFTER_KONG if after else 0 for after in (row.get("after_kong") or [False] * k)]
    st.exhausted[b] = bool(row.get("exhausted"))
    states = row.get("end_state")
    st.end_state[b] = -1 if states is None else [END_STATE_NAMES.index(s) for s in states]
    ready = row.get("ready_fan") or [-1] * 4
    st.ready_fan[b] = [f if f < 0 or rules.cap is None else min(f, rules.cap) for f in ready]


def _win_inputs(b, i, seat, row, rules):
    kind = row["win_kind"][i]
    tiles = parse_tiles(row["win_hands"][i])
    counts = np.bincount(tiles, minlength=34)[:34]
    wild = [t for text in row["wilds"] for t in parse_tiles(text)]
    wilds = int(sum(counts[t] for t in wild))
    real = counts.copy()
    for t in wild:
        real[t] = 0
    kinds, firsts = [0] * 5, [0] * 5
    for m, text in enumerate(row["win_melds"][i]):
        meld = parse_meld(text)
        kinds[m] = MELD_NAMES.index(meld.kind)
        firsts[m] = meld.first
    flags = 0
    code = WIN_KIND_NAMES.index(kind)
    discarder_pays = (  # XZ-H6: a 点杠花 the konged tile's discarder pays alone is no self-draw
        code == WIN_KONG_REPLACEMENT and rules.family == "xuezhan" and rules.kong_flower_from_discard == "discarder"
        and row["kong_from_discard"][i] >= 0
    )  # fmt: skip
    if code in (WIN_SELF_DRAW, WIN_KONG_REPLACEMENT) and not discarder_pays:
        flags |= SELF_DRAW
    if code == WIN_KONG_REPLACEMENT:
        flags |= KONG_REPLACEMENT
    if kind == "robbed_kong":
        flags |= ROBBED_KONG
    if row["last_tile"][i]:
        flags |= LAST_TILE
    if row["first_turn"][i]:
        flags |= FIRST_TURN
    if (row.get("after_kong") or [False] * (i + 1))[i]:
        flags |= AFTER_KONG  # 杠上炮 (XZ-F2)
    if row.get("split_win"):
        flags |= SPLIT_TILE  # SHT-P7: won on a 分牌 tile (only one winner in 水头)
    discard_winners = _winners_on_the_discard(row, i) if kind == "discard" else 1
    win_tile = parse_tiles(row["win_tiles"][i])[0]
    offset = (seat - row["dealer"]) % 4
    return (b, i, real.tolist(), wilds, win_tile, kinds, firsts, len(row["win_melds"][i]), flags, offset,
            discard_winners, counts.tolist(), _shuitou_context(seat, row, wild, rules))  # fmt: skip


def _shuitou_context(seat, row, wild, rules) -> list[int]:
    """The 水头 scorer's context for the winner (as ``engine.sht_context`` fills it; zeros elsewhere): its
    flower groups (red 1f-4f, black 5f-8f, 白板 5z), the 财神 kinds, and whether the one 财神 kind has two
    copies in play (SHT-P3: both turned tiles of one kind, so one kind is logged under flip_two_kinds)."""
    ctx = [0] * CTX_LEN
    if rules.family != "shuitou":
        return ctx
    for t in parse_tiles(row["flowers"][seat]) if row.get("flowers") else ():
        group = 2 if t < FIRST_FLOWER else (t - FIRST_FLOWER) // 4
        ctx[CTX_FLOWERS + group] += 1
    ctx[CTX_WILDS], ctx[CTX_WILDS + 1] = (wild + [-1, -1])[:2]
    ctx[CTX_ONE_KIND_PAIR] = 1 if rules.wild_scheme == "flip_two_kinds" and len(wild) == 1 else 0
    return ctx


def _winners_on_the_discard(row, i) -> int:
    """How many won on the ``i``-th win's discard (血战 / 血流: wins at other turns are other discards)."""
    turns, sources = row.get("win_turn"), row.get("win_from")
    if not turns:
        return len(row["winners"])
    return sum(
        1 for j in range(len(turns))
        if row["win_kind"][j] == "discard" and turns[j] == turns[i] and sources[j] == sources[i]
    )  # fmt: skip


def _output(hands, st, n, table, index, codes, found) -> pl.DataFrame:
    fans = [[] for _ in range(n)]
    patterns = [[] for _ in range(n)]
    for k in range(len(table)):
        fans[table[k]].append(int(codes[k]))
        patterns[table[k]].append(pattern_list(found[k]))
    transfers = st.transfers[:n]  # (hand, component, payer, payee)
    nets = transfers.sum(axis=2) - transfers.sum(axis=3)
    out = {
        "run_id": hands["run_id"],
        "hand_id": hands["hand_id"],
        "fan": fans,
        "patterns": patterns,
        "liable": [None if x < 0 else int(x) for x in st.liable[:n]],
        "horse_hits": st.horse_hits[:n].astype(np.int8),
        "horses": [[tile_name(int(t)) for t in st.horse_tiles[b, : st.n_horses[b]]] for b in range(n)],
        "horse_seats": [st.horse_seats[b, : st.n_horses[b]].astype(int).tolist() for b in range(n)],
        "net": nets.sum(axis=1).tolist(),
    }
    for c, name in enumerate(("win", "kong", "horse", "liability", "penalty")):
        out[f"net_{name}"] = nets[:, c, :].tolist()
    if "net_base" in hands.columns:  # SHT-M2 (zero elsewhere)
        out["net_base"] = nets[:, C_BASE, :].tolist()
    if "net_call_transfer" in hands.columns:  # 血战's parts of net_kong and net_penalty (null elsewhere)
        xuezhan = st.end_state[:n, 0] >= 0
        for rule, name in enumerate(XZ_RULE_NAMES):
            moves = st.xz_moves[:n, rule].tolist()
            out[f"net_{name}"] = [m if x else None for m, x in zip(moves, xuezhan)]
    return pl.DataFrame(out)
