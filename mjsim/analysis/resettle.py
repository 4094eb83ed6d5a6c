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
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import polars as pl
import pyarrow as pa

from mjsim.io.dataset import read_run_info, scan_hands
from mjsim.progress import Progress
from mjsim.rules import Ruleset, loads, ruleset
from mjsim.sim.constants import (
    KONG_KIND_NAMES,
    MAX_MELDS,
    MELD_NAMES,
    WIN_DISCARD,
    WIN_KIND_NAMES,
    WIN_KONG_REPLACEMENT,
    WIN_ROBBED_KONG,
    WIN_SELF_DRAW,
)
from mjsim.sim.fastscore import (
    AFTER_KONG,
    FIRST_TURN,
    KONG_REPLACEMENT,
    LAST_TILE,
    N_PATTERNS,
    PATTERN_IDS,
    ROBBED_KONG,
    SELF_DRAW,
)  # fmt: skip
from mjsim.sim.fastscore_sht import CTX_BASE, CTX_FLOWERS, CTX_LEN, CTX_ONE_KIND_PAIR, CTX_WILDS, SPLIT_TILE
from mjsim.sim.resettle_kernel import rescore_and_settle
from mjsim.sim.scoring import scoring
from mjsim.sim.settle import horse_seat
from mjsim.sim.state import (
    C_BASE,
    END_STATE_NAMES,
    MAX_HORSES,
    N_COMPONENTS,
    XZ_RULE_NAMES,
    allocate_state,
    engine_params,
    win_slots,
)
from mjsim.tiles import FIRST_FLOWER, N_TILE_IDS, parse_meld, parse_tiles, tile_name, tile_set_wall

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
            scan = scan_hands(directory, allow_partial=allow_partial)
            unread = {"horse_pool"} if target.horses == "none" else set()  # no horses: their tiles are never read
            read = [c for c in scan.collect_schema().names() if c in READ_COLUMNS - unread]
            hands = scan.select(read).sort("hand_id").collect()
            frames.append(resettle_hands(hands, target, session_length, bar, logged=logged))
    return pl.concat(frames)


# The log columns re-settlement reads (``resettle`` reads no others); net_base and net_call_transfer only for
# whether the log has them (the output then has them too).
READ_COLUMNS = frozenset({
    "run_id", "hand_id", "session", "dealer", "round_wind", "winners", "discarder", "win_kind", "win_hands",
    "win_tiles", "win_melds", "last_tile", "first_turn", "wilds", "horse_pool", "horse_pool_free", "kongs",
    "kong_from_discard", "twelve_feeder", "twelve_turn", "limit_feeder", "limit_turn", "followed_dealer",
    "kong_in_play", "kong_turns", "win_from", "win_turn", "win_in_play", "after_kong", "exhausted", "end_state",
    "ready_fan", "flowers", "base_tai", "split_win", "four_winds_feeder", "net_base", "net_call_transfer",
})  # fmt: skip

PROGRESS_STEP = 2048  # hands settled at a time by the compiled kernel, one progress update each


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
    logged 查叫 values, XZ-E2).

    The facts are read column by column into arrays (a list column as its values and each row's count), so
    Python never visits a hand; the compiled kernel then scores and settles ``PROGRESS_STEP`` hands at a time."""
    params = engine_params(rules, session_length=session_length)
    wins = _Wins(hands)
    horse_counts = _dealer_horse_counts(hands, rules, wins)
    _check_horses_kept_out(hands, horse_counts, rules)
    ready, has_ready = _seat_table(hands.get_column("ready_fan", default=None), hands.height, -1)
    _check_ready_values_known(hands, ready, has_ready, logged, rules)
    _check_shuitou_facts(hands, rules)
    facts = _hand_facts(hands, wins, ready, horse_counts, params, rules)
    kongs = _kong_facts(hands)
    inputs = _score_inputs(hands, wins, facts, rules)
    codes, found, ctx, nets, outcome = _settle(facts, kongs, wins, inputs, params, rules, bar)
    if (codes < 0).any():
        bad = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(
            f"hand {hands['hand_id'][int(wins.table[bad])]}: the logged win is not a win under the new options "
            f"(code {codes[bad]})"
        )
    _check_base_tai(hands, facts, wins, ctx)
    return _output(hands, wins, codes, found, facts, nets, outcome)


SHUITOU_FACTS = ("flowers", "base_tai", "split_win", "four_winds_feeder")  # what 水头 re-settlement reads


def _check_shuitou_facts(hands, rules) -> None:
    """A 水头 log from before its settlement facts were logged cannot be re-settled (SHT-M3: 包牌 would be lost)."""
    missing = [c for c in SHUITOU_FACTS if c not in hands.columns] if rules.family == "shuitou" else []
    if missing:
        raise ValueError(
            f"the log has no {', '.join(missing)} column{'s' if len(missing) > 1 else ''} (written by an older "
            f"version), so its 水头 hands cannot be re-settled; re-simulate instead"
        )


def _check_base_tai(hands, facts, wins, ctx) -> None:
    """水头: the re-scored reading's base 台 (SHT-T1) is the logged winner's; another would mean the log's facts
    (flowers, 财神, melds) were read into the scorer wrongly, and the money would be wrong with it."""
    logged = facts["base_tai"][wins.table, wins.seats]
    bad = np.flatnonzero(facts["has_base_tai"][wins.table] & (ctx[:, CTX_BASE] != logged))
    if bad.size:
        k = int(bad[0])
        raise ValueError(
            f"hand {hands['hand_id'][int(wins.table[k])]}: the re-scored win has {ctx[k, CTX_BASE]} base 台, the log "
            f"{logged[k]}; the log does not match this version's 水头 scorer, so re-simulate instead"
        )


def _check_horses_kept_out(hands, horse_counts, rules) -> None:
    """TDH-M6: the new scheme may set aside only back tiles the logged hand never drew (``horse_pool_free``)."""
    needed = {"dealer": horse_counts, "winner": np.full(hands.height, rules.horse_reserve)}.get(rules.horses)
    if needed is None:
        return
    free = hands.get_column("horse_pool_free", default=pl.Series([None] * hands.height, dtype=pl.Int64))
    known = free.is_not_null().to_numpy()
    free = free.fill_null(0).to_numpy()
    bad = np.flatnonzero((needed != 0) & (~known | (needed > free)))
    if bad.size:
        k = int(bad[0])
        raise ValueError(
            f"hand {hands['hand_id'][k]}: the new horse scheme sets aside {needed[k]} back tiles, but only "
            f"{free[k]} of them stayed out of play in the logged hand; re-simulate instead "
            f"(a paired re-simulation: `mjsim compare --vary horses=...`)"
        )


def _check_ready_values_known(hands, ready, has_ready, logged, rules) -> None:
    """XZ-E2: a ready hand's 查叫 value is logged under the logged cap; a higher cap needs the uncapped
    value, unknown where the logged one sits at the logged cap."""
    if logged is None or logged.cap is None or (rules.cap is not None and rules.cap <= logged.cap):
        return
    bad = np.flatnonzero(has_ready & (ready == logged.cap).any(axis=1))
    if bad.size:
        raise ValueError(
            f"hand {hands['hand_id'][int(bad[0])]}: a ready hand's 查叫 value sits at the logged cap {logged.cap}, so "
            f"its value under cap {rules.cap} is not in the log; re-settle a run played with the higher cap, or "
            f"re-simulate (`mjsim compare --ruleset {logged.name} --vary cap=...`)"
        )


class _Wins:
    """The logged wins, flat in row order then win order: ``table`` (the row), ``index`` (the win's slot in its
    hand), ``seats`` and ``kinds`` (WIN_KIND_NAMES codes); ``counts``: wins of each row."""

    def __init__(self, hands: pl.DataFrame):
        seats, self.counts = _flat(hands["winners"])
        self.seats = _ints(seats)
        self.table = np.repeat(np.arange(hands.height), self.counts)
        self.index = np.arange(self.table.size) - _offsets(self.counts)[self.table]
        self.kinds = _codes(_flat(hands["win_kind"], self.counts)[0], WIN_KIND_NAMES.index)

    def column(self, hands, name, default=None) -> np.ndarray:
        """A per-winner number column, flat; ``default`` where the column or a row's list is missing (older logs,
        other families), else the column is required."""
        return _per_item(hands.get_column(name, default=None), self.counts, default)


def _dealer_horse_counts(hands, rules, wins) -> np.ndarray:
    """TDH-M2 dealer-horse count of each hand under ``rules``, from the logged sessions: ``horse_base`` as a
    dealer begins, then ``min(horse_max, previous + step)`` hand by hand, which is ``min(horse_max,
    horse_base + the steps so far)``."""
    n = hands.height
    if rules.horses != "dealer" or n == 0:
        return np.zeros(n, np.int64)
    session, dealer = _ints(hands["session"]), _ints(hands["dealer"])
    begins = np.ones(n, bool)
    begins[1:] = (session[1:] != session[:-1]) | (dealer[1:] != dealer[:-1])
    step = np.ones(n, np.int64)
    if rules.horse_growth == "by_win_kind":  # after the dealer's (first) own win: +1 if on a discard, else +2
        own = wins.seats == dealer[wins.table]
        won, first = np.unique(wins.table[own], return_index=True)
        after = np.ones(n, np.int64)
        after[won] = np.where(wins.kinds[own][first] == WIN_DISCARD, 1, 2)
        step[1:] = after[:-1]
    step[begins] = 0
    grown = np.cumsum(step)
    grown -= grown[np.maximum.accumulate(np.where(begins, np.arange(n), 0))]  # the steps since the dealer began
    return np.where(begins, rules.horse_base, np.minimum(rules.horse_max, rules.horse_base + grown))


def _hand_facts(hands, wins, ready, horse_counts, params, rules) -> dict[str, np.ndarray]:
    """Each hand's settlement facts, named as the state fields they fill (and ``has_base_tai``)."""
    n = hands.height
    dealer = _ints(hands["dealer"])
    facts = {
        "dealer": dealer,
        "n_winners": wins.counts,
        "discarder": _ints(hands["discarder"].fill_null(-1)),
        "followed": _bools(hands["followed_dealer"], n),
    }
    for name in ("twelve_feeder", "twelve_turn", "limit_feeder", "limit_turn"):
        facts[name] = _seat_table(hands[name], n, 0)[0]
    # the XZ-E facts: the end of the wall, the seats' states then and their 查叫 values under the new cap (null
    # columns outside 血战)
    facts["exhausted"] = _bools(hands.get_column("exhausted", default=None), n)
    states, known = _seat_strings(hands.get_column("end_state", default=None), n)
    facts["end_state"] = np.full((n, 4), -1, np.int64)
    facts["end_state"][known] = _codes(states, END_STATE_NAMES.index).reshape(-1, 4)
    facts["ready_fan"] = ready if rules.cap is None else np.where(ready < 0, ready, np.minimum(ready, rules.cap))
    # SHT-M2 the seats' base 台 and the SHT-M3 包牌 fact (-1 on the other families' rows)
    facts["base_tai"], facts["has_base_tai"] = _seat_table(hands.get_column("base_tai", default=None), n, -1)
    feeder = hands.get_column("four_winds_feeder", default=None)
    facts["four_winds_feeder"] = np.full(n, -1, np.int64) if feeder is None else _ints(feeder.fill_null(-1))
    texts, per_row = _flat(hands["wilds"])
    tiles, owner, _ = _tiles(texts)
    row = np.repeat(np.arange(n), per_row)[owner]
    facts["wild"] = np.full((n, 2), -1, np.int64)
    facts["wild"][row, np.arange(tiles.size) - _offsets(np.bincount(row, minlength=n))[row]] = tiles
    # TDH-M horses: the logged back tiles and the seats they point at from the dealer (水头 has no horses; its
    # pool may hold flowers).  Without horses settlement never reads them.
    pool = np.zeros((n, MAX_HORSES), np.int64)
    if rules.horses != "none":
        pool = _first_tiles(_flat(hands["horse_pool"], np.full(n, MAX_HORSES))[0]).reshape(n, MAX_HORSES)
    offset = np.array([horse_seat(params, t, 0) for t in range(FIRST_FLOWER)] + [0] * (N_TILE_IDS - FIRST_FLOWER))
    facts["horse_tiles"] = pool
    facts["horse_seats"] = np.where(pool < FIRST_FLOWER, (offset[pool] + dealer[:, None]) % 4, 0)
    facts["n_horses"] = horse_counts
    reserved = {"dealer": horse_counts, "winner": np.full(n, rules.horse_reserve)}
    facts["n_reserved"] = reserved.get(rules.horses, np.zeros(n, np.int64))
    return facts


def _kong_facts(hands) -> dict[str, np.ndarray]:
    """The kongs, flat in row order (``table``, ``index`` in the hand), named as the state's per-kong fields:
    who, which kind and from whom; the seats in play (XZ-M3; every seat outside 血战 and in older logs) and
    the discard count (XZ-M4; 0 in older logs: 呼叫转移 takes the konger's last kong)."""
    texts, counts = _flat(hands["kongs"])
    codes = _codes(texts, _kong_code)
    table = np.repeat(np.arange(hands.height), counts)
    return {
        "table": table,
        "index": np.arange(table.size) - _offsets(counts)[table],
        "n_kongs": counts,
        "kong_seat": codes // 32,
        "kong_kind": codes // 8 % 4,
        "kong_from": codes % 8 - 1,
        "kong_in_play": _per_item(hands.get_column("kong_in_play", default=None), counts, 15),
        "kong_turn": _per_item(hands.get_column("kong_turns", default=None), counts, 0),
    }


def _kong_code(text: str) -> int:
    """A logged kong ``seat:kind:from`` as one number: (seat * 4 + KONG_KIND_NAMES code) * 8 + from + 1."""
    seat, kind, source = text.split(":")
    return (int(seat) * 4 + KONG_KIND_NAMES.index(kind)) * 8 + int(source) + 1


def _meld_code(text: str) -> int:
    """A logged meld as MELD_NAMES code * 64 + its first tile."""
    meld = parse_meld(text)
    return MELD_NAMES.index(meld.kind) * 64 + meld.first


def _score_inputs(hands, wins, facts, rules) -> dict[str, np.ndarray]:
    """Each win's scorer inputs (``rescore_and_settle``'s per-win arguments), and the facts its hand's state
    holds per win, named as the state fields (``winners``, ``win_*``)."""
    m = wins.table.size
    held = _tiles(_flat(hands["win_hands"], wins.counts)[0])[2][:, :34]
    wild = facts["wild"][wins.table]  # the scorers take the wild tiles apart from the real ones (C-J1)
    real = held.copy()
    for k in range(wild.shape[1]):
        rows = np.flatnonzero(wild[:, k] >= 0)
        real[rows, wild[rows, k]] = 0
    # the declared melds: each win's list, then its melds (kind 0 pads to MAX_MELDS)
    melds, n_melds = _flat(_flat(hands["win_melds"], wins.counts)[0])
    codes = _codes(melds, _meld_code)
    meld_win = np.repeat(np.arange(m), n_melds)
    meld_slot = np.arange(meld_win.size) - _offsets(n_melds)[meld_win]
    meld_kind, meld_tile = np.zeros((m, MAX_MELDS), np.int8), np.zeros((m, MAX_MELDS), np.int8)
    meld_kind[meld_win, meld_slot], meld_tile[meld_win, meld_slot] = codes // 64, codes % 64
    kong_from = wins.column(hands, "kong_from_discard")
    after_kong = wins.column(hands, "after_kong", False).astype(bool)
    return {
        "real": real,
        "wilds": np.where(wild >= 0, np.take_along_axis(held, np.maximum(wild, 0), axis=1), 0).sum(axis=1),
        "held": held,
        "win_tile": _first_tiles(_flat(hands["win_tiles"], wins.counts)[0]),
        "meld_kind": meld_kind,
        "meld_tile": meld_tile,
        "n_melds": n_melds,
        "flags": _win_flags(hands, wins, kong_from, after_kong, rules),
        "offset": (wins.seats - facts["dealer"][wins.table]) % 4,
        "round_wind": _ints(hands["round_wind"])[wins.table],
        "discard_winners": _winners_on_the_discard(hands, wins),
        "ctx": _shuitou_context(hands, wins, facts, rules),
        # the per-win state (XZ-M5 / XZ-M4: who each win came from, when, who was in play; 杠上炮)
        "winners": wins.seats,
        "win_kind": wins.kinds,
        "win_kong_from": kong_from,
        "win_from": wins.column(hands, "win_from", -1),
        "win_turn": wins.column(hands, "win_turn", 0),
        "win_in_play": wins.column(hands, "win_in_play", 15),
        "win_flags": np.where(after_kong, AFTER_KONG, 0),
        "win_hand": held,
    }


def _win_flags(hands, wins, kong_from, after_kong, rules) -> np.ndarray:
    """Each win's situation bits for the scorer (fastscore SELF_DRAW, ...; 水头 SPLIT_TILE)."""
    kinds = wins.kinds
    # XZ-H6: a 点杠花 the konged tile's discarder pays alone is no self-draw
    discarder_pays = rules.family == "xuezhan" and rules.kong_flower_from_discard == "discarder"
    paid_by_discarder = (kinds == WIN_KONG_REPLACEMENT) & (kong_from >= 0) & discarder_pays
    self_drawn = ((kinds == WIN_SELF_DRAW) | (kinds == WIN_KONG_REPLACEMENT)) & ~paid_by_discarder
    split = _bools(hands.get_column("split_win", default=None), hands.height)[wins.table]  # SHT-P7: on a 分牌 tile
    return (
        np.where(self_drawn, SELF_DRAW, 0)
        | np.where(kinds == WIN_KONG_REPLACEMENT, KONG_REPLACEMENT, 0)
        | np.where(kinds == WIN_ROBBED_KONG, ROBBED_KONG, 0)
        | np.where(wins.column(hands, "last_tile") != 0, LAST_TILE, 0)
        | np.where(wins.column(hands, "first_turn") != 0, FIRST_TURN, 0)
        | np.where(after_kong, AFTER_KONG, 0)  # 杠上炮 (XZ-F2)
        | np.where(split, SPLIT_TILE, 0)
    )


def _winners_on_the_discard(hands, wins) -> np.ndarray:
    """How many won on each discard win's discard (1 for the other wins): its hand's winners, and in 血战 / 血流
    those at the same turn from the same discarder (wins at other turns were on other discards)."""
    out = np.ones(wins.table.size, np.int64)
    discard = wins.kinds == WIN_DISCARD
    out[discard] = wins.counts[wins.table[discard]]
    turns = hands.get_column("win_turn", default=None)
    if turns is None:  # older logs
        return out
    timed = discard & np.repeat(_flat(turns)[1] > 0, wins.counts)
    turn, source = wins.column(hands, "win_turn", 0), wins.column(hands, "win_from", -1)
    key = (wins.table * 65536 + turn + 32768) * 8 + source + 1  # (hand, turn, discarder)
    _, group, size = np.unique(key[timed], return_inverse=True, return_counts=True)
    out[timed] = size[group]
    return out


def _shuitou_context(hands, wins, facts, rules) -> np.ndarray:
    """The 水头 scorer's context of each win (as ``engine.sht_context`` fills it; zeros elsewhere): the winner's
    flower groups (red 1f-4f, black 5f-8f, 白板 5z), the 财神 kinds, and whether the one 财神 kind has two
    copies in play (SHT-P3: both turned tiles of one kind, so one kind is logged under flip_two_kinds)."""
    ctx = np.zeros((wins.table.size, CTX_LEN), np.int64)
    if rules.family != "shuitou":
        return ctx
    texts, known = _seat_strings(hands.get_column("flowers", default=None), hands.height)
    shown = np.flatnonzero(known[wins.table])  # the wins whose hand logged its flowers
    row = (np.cumsum(known) - 1)[wins.table[shown]]  # their hands among those
    held = _tiles(texts.gather(row * 4 + wins.seats[shown]))[2]
    ctx[shown, CTX_FLOWERS] = held[:, FIRST_FLOWER : FIRST_FLOWER + 4].sum(axis=1)
    ctx[shown, CTX_FLOWERS + 1] = held[:, FIRST_FLOWER + 4 :].sum(axis=1)
    ctx[shown, CTX_FLOWERS + 2] = held[:, :FIRST_FLOWER].sum(axis=1)  # 白板 (SHT-P1)
    wild = facts["wild"][wins.table]
    ctx[:, CTX_WILDS : CTX_WILDS + 2] = wild
    ctx[:, CTX_ONE_KIND_PAIR] = (rules.wild_scheme == "flip_two_kinds") & (wild[:, 0] >= 0) & (wild[:, 1] < 0)
    return ctx


HAND_FIELDS = ("dealer", "n_winners", "discarder", "followed", "twelve_feeder", "twelve_turn", "limit_feeder",
               "limit_turn", "exhausted", "end_state", "ready_fan", "base_tai", "four_winds_feeder", "wild",
               "horse_tiles", "horse_seats", "n_horses", "n_reserved")  # fmt: skip
WIN_FIELDS = ("winners", "win_kind", "win_kong_from", "win_from", "win_turn", "win_in_play", "win_flags", "win_hand")
KONG_FIELDS = ("kong_seat", "kong_kind", "kong_from", "kong_in_play", "kong_turn")
SCORER_INPUTS = ("real", "wilds", "held", "win_tile", "meld_kind", "meld_tile", "n_melds", "flags", "offset",
                 "round_wind", "discard_winners")  # fmt: skip
KERNEL_TYPES = {"real": np.int8, "held": np.int8, "meld_kind": np.int8, "meld_tile": np.int8}  # the rest int64
OUTCOME_SHAPES = {"liable": (), "horse_hits": (), "n_horses": (), "horse_tiles": (MAX_HORSES,),
                  "horse_seats": (MAX_HORSES,), "xz_moves": (len(XZ_RULE_NAMES), 4)}  # fmt: skip


def _settle(facts, kongs, wins, inputs, params, rules, bar):
    """Score and settle the hands ``PROGRESS_STEP`` at a time, each batch in a fresh state filled from the
    facts by fancy indexing.  Returns each win's value, pattern counts and scorer context, and each hand's
    nets and outcome (the state fields of ``OUTCOME_SHAPES``)."""
    n, m = facts["dealer"].size, wins.table.size
    sc = scoring(rules)
    # the kernel's arrays as it was compiled for (writable, C order): other layouts would compile it again
    args = {a: np.require(inputs[a], KERNEL_TYPES.get(a, np.int64), ["C", "W"]) for a in SCORER_INPUTS}
    codes, found = np.zeros(m, np.int64), np.zeros((m, N_PATTERNS), np.int8)
    ctx = np.require(inputs["ctx"], np.int64, ["C", "W"])
    nets = np.zeros((n, N_COMPONENTS, 4), np.int64)
    outcome = {name: np.zeros((n, *shape), np.int64) for name, shape in OUTCOME_SHAPES.items()}
    win_at, kong_at = _offsets(wins.counts), _offsets(kongs["n_kongs"])
    for first in range(0, n, PROGRESS_STEP):
        last = min(n, first + PROGRESS_STEP)
        w, k = slice(win_at[first], win_at[last]), slice(kong_at[first], kong_at[last])
        st = allocate_state(last - first, win_slots(rules))
        st.winners[:] = -1
        st.win_kong_from[:] = -1
        st.liable[:] = -1
        st.kong_in_play[:] = 15
        for name in HAND_FIELDS:
            getattr(st, name)[:] = facts[name][first:last]
        table = wins.table[w] - first
        for name in WIN_FIELDS:
            getattr(st, name)[table, wins.index[w]] = inputs[name][w]
        st.n_kongs[:] = kongs["n_kongs"][first:last]
        for name in KONG_FIELDS:
            getattr(st, name)[kongs["table"][k] - first, kongs["index"][k]] = kongs[name][k]
        codes[w] = rescore_and_settle(
            st, params, sc, last - first, table, wins.index[w].copy(), *(args[a][w] for a in SCORER_INPUTS),
            found[w], ctx[w],
        )  # fmt: skip
        transfers = st.transfers  # (hand, component, payer, payee): received less paid (einsum: 5x .sum here)
        nets[first:last] = np.einsum("hcij->hcj", transfers) - np.einsum("hcij->hci", transfers)
        for name, values in outcome.items():
            values[first:last] = getattr(st, name)
        if bar is not None:
            bar.update(last - first)
    return codes, found, ctx, nets, outcome


def _output(hands, wins, codes, found, facts, nets, outcome) -> pl.DataFrame:
    """The re-settled columns, typed as polars types the same values built from Python lists (so: null
    columns where no row has a value, list[null] where every list is empty)."""
    n = hands.height
    win, pattern = np.nonzero(found)
    patterns = np.repeat(pattern, found[win, pattern])  # each win's ids by count, in PATTERN_IDS order
    n_horses = outcome["n_horses"]
    horses = np.arange(MAX_HORSES) < n_horses[:, None]
    liable = outcome["liable"]
    four = np.full(n, 4)
    out = {
        "run_id": hands["run_id"],
        "hand_id": hands["hand_id"],
        "fan": _lists(codes, wins.counts),
        "patterns": _lists(_lists(PATTERN_NAMES.gather(patterns), found.sum(axis=1, dtype=np.int64)), wins.counts),
        "liable": pl.from_arrow(pa.array(liable, mask=liable < 0)) if (liable >= 0).any() else _nulls(n),
        "horse_hits": pl.Series(outcome["horse_hits"].astype(np.int8)),
        "horses": _lists(TILE_NAMES.gather(outcome["horse_tiles"][horses]), n_horses),
        "horse_seats": _lists(outcome["horse_seats"][horses], n_horses),
        "net": _lists(nets.sum(axis=1).ravel(), four),
    }
    for c, name in enumerate(("win", "kong", "horse", "liability", "penalty")):
        out[f"net_{name}"] = _lists(nets[:, c, :].ravel(), four)
    if "net_base" in hands.columns:  # SHT-M2 (zero elsewhere)
        out["net_base"] = _lists(nets[:, C_BASE, :].ravel(), four)
    if "net_call_transfer" in hands.columns:  # 血战's parts of net_kong and net_penalty (null elsewhere)
        xuezhan = facts["end_state"][:, 0] >= 0
        for rule, name in enumerate(XZ_RULE_NAMES):
            moves = outcome["xz_moves"][xuezhan, rule]
            out[f"net_{name}"] = _lists(moves.ravel(), np.where(xuezhan, 4, 0), xuezhan)
    return pl.DataFrame(out)


# ---- log columns as arrays: a list column as its values in row order and each row's count -------------------

TILE_NAMES = pl.Series([tile_name(t) for t in range(N_TILE_IDS)])
PATTERN_NAMES = pl.Series(list(PATTERN_IDS))


def _offsets(counts: np.ndarray) -> np.ndarray:
    """Where each row's items begin in the flat order, and (last) their total."""
    out = np.zeros(counts.size + 1, np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _ints(values) -> np.ndarray:
    return values.to_numpy().astype(np.int64)  # a copy: polars may hand out read-only memory


def _bools(column: pl.Series | None, n: int) -> np.ndarray:
    """A true/false column, false where null or missing."""
    return np.zeros(n, bool) if column is None else column.fill_null(False).to_numpy().astype(bool)


def _flat(column: pl.Series, counts: np.ndarray | None = None) -> tuple[pl.Series, np.ndarray]:
    """A list column's values in row order, and each row's count (0 for a null row); with ``counts`` every row
    must hold that many."""
    lengths = column.list.len().fill_null(0).to_numpy().astype(np.int64)
    if counts is not None and not np.array_equal(lengths, counts):
        row = int(np.flatnonzero(lengths != counts)[0])
        raise ValueError(f"row {row} of the log's {column.name} column lists {lengths[row]} items for {counts[row]}")
    return column.explode(empty_as_null=False, keep_nulls=False), lengths


def _per_item(column: pl.Series | None, counts: np.ndarray, default) -> np.ndarray:
    """A list column of numbers holding one per item of each row (``counts``), flat; without a ``default`` every
    row must list them, with one a row listing none (or a missing column) takes it."""
    if default is None:
        return _ints(_flat(column, counts)[0])
    out = np.full(int(counts.sum()), default, np.int64)
    if column is not None:
        values, lengths = _flat(column)
        listed = lengths > 0
        if not np.array_equal(lengths[listed], counts[listed]):
            row = int(np.flatnonzero(listed & (lengths != counts))[0])
            raise ValueError(
                f"row {row} of the log's {column.name} column lists {lengths[row]} items for {counts[row]}"
            )
        out[np.repeat(listed, counts)] = _ints(values)
    return out


def _seat_table(column: pl.Series | None, n: int, default) -> tuple[np.ndarray, np.ndarray]:
    """A column of four numbers a row (one per seat) as an (n, 4) array, ``default`` on null rows (or all of them
    for a missing column); and which rows were known."""
    table = np.full((n, 4), default, np.int64)
    known = np.zeros(n, bool) if column is None else column.is_not_null().to_numpy()
    if known.any():
        table[known] = _ints(column.filter(known).explode(empty_as_null=False)).reshape(-1, 4)
    return table, known


def _seat_strings(column: pl.Series | None, n: int) -> tuple[pl.Series, np.ndarray]:
    """A column of four strings a row: those of its non-null rows, flat, and which rows those are."""
    known = np.zeros(n, bool) if column is None else column.is_not_null().to_numpy()
    if not known.any():
        return pl.Series([], dtype=pl.String), known
    return column.filter(known).explode(empty_as_null=False).cast(pl.String), known


def _codes(values: pl.Series, decode: Callable[[str], int]) -> np.ndarray:
    """Each string read by ``decode``, called once per distinct string (in order of first appearance, so a bad
    one raises as it would row by row)."""
    if values.len() == 0:
        return np.zeros(0, np.int64)
    distinct = values.cast(pl.String).unique(maintain_order=True)
    codes = [decode(text) for text in distinct.to_list()]
    return _ints(values.cast(pl.String).replace_strict(distinct, codes, return_dtype=pl.Int64))


# (suit letter byte, rank) -> tile id, read by the notation parser itself; -1 where that is no tile
_TILE_OF = np.full((256, 10), -1, np.int64)
for _letter in "mpszf":
    for _rank in range(1, 10):
        try:
            _TILE_OF[ord(_letter), _rank] = parse_tiles(f"{_rank}{_letter}")[0]
        except ValueError:
            pass
_COPIES = np.bincount(tile_set_wall(144), minlength=N_TILE_IDS)  # copies of each tile that exist


def _tiles(texts: pl.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tile notation strings read all at once: their tiles in written order, the string each came from, and
    each string's copies of every tile id (N_TILE_IDS columns, int8).

    The logs write groups of rank digits each closed by a suit letter; where a string is anything else (other
    spellings, or no notation), every string is read by ``parse_tiles``, which raises on the bad one."""
    texts = texts.cast(pl.String)
    lengths = texts.str.len_bytes().to_numpy().astype(np.int64)
    data = np.frombuffer("".join(texts.to_list()).encode(), np.uint8)
    source = np.repeat(np.arange(lengths.size), lengths)  # the string of each byte
    digit = (data >= ord("1")) & (data <= ord("9"))
    ranks, letters = np.flatnonzero(digit), np.flatnonzero(~digit)
    group = np.cumsum(~digit)[ranks]  # a digit's suit letter is the first non-digit after it: letters[group]
    owner = source[ranks]
    if (group < letters.size).all():
        closing = letters[group]
        tiles = _TILE_OF[data[closing], data[ranks] - ord("0")]
        if (
            (tiles >= 0).all()
            and (source[closing] == owner).all()  # the letter is in the digit's own string
            and (letters > 0).all() and digit[letters - 1].all() and (source[letters - 1] == source[letters]).all()
        ):  # fmt: skip
            counts = _tile_counts(tiles, owner, lengths.size)
            if (counts <= _COPIES).all():
                return tiles, owner, counts
    parsed = [parse_tiles(text) for text in texts.to_list()]
    tiles = np.array([t for p in parsed for t in p], np.int64)
    owner = np.repeat(np.arange(len(parsed)), [len(p) for p in parsed])
    return tiles, owner, _tile_counts(tiles, owner, len(parsed))


def _first_tiles(texts: pl.Series) -> np.ndarray:
    """The tile each notation string begins with (the logs write one tile name each)."""
    return _codes(texts, lambda text: parse_tiles(text)[0])


def _tile_counts(tiles: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """Copies of each tile id in each of ``n`` strings (N_TILE_IDS columns), int8."""
    return np.bincount(owner * N_TILE_IDS + tiles, minlength=n * N_TILE_IDS).reshape(n, N_TILE_IDS).astype(np.int8)


def _lists(values, lengths: np.ndarray, valid: np.ndarray | None = None) -> pl.Series:
    """A list column whose row ``i`` holds the next ``lengths[i]`` of ``values`` (null where not ``valid``),
    typed as from Python lists: null when no row is a list, list[null] when every list is empty."""
    if lengths.size == 0 or (valid is not None and not valid.any()):
        return _nulls(lengths.size)
    if len(values) == 0:
        child = pa.nulls(0)
    else:
        child = values.to_arrow() if isinstance(values, pl.Series) else pa.array(values)
    mask = None if valid is None else pa.array(~valid)
    return pl.from_arrow(pa.LargeListArray.from_arrays(pa.array(_offsets(lengths)), child, mask=mask))


def _nulls(n: int) -> pl.Series:
    return pl.Series([None] * n)
