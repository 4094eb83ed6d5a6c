"""A slow, readable settlement checker written from the rules reference alone.

It recomputes every transfer of one logged hand from the hand's facts and the
ruleset, one small function per rule, each citing its rule ID:

- rules/common.md C-M (transfer matrices, fan doubling, liability) and C-P7 (跟庄),
- rules/jipinghu.md JPH-F3/F4 (as they bear on payment), JPH-M, JPH-S,
- rules/tuidaohu.md TDH-V, TDH-K, TDH-S, TDH-M.

It shares no code and no reading with the engine's settlement
(``mjsim.sim.settle``) or the analysis re-settlement
(``mjsim.analysis.resettle``): it imports nothing from ``mjsim`` and reads
tiles from their notation itself.  Facts it takes from the row: who won, how,
on whose discard, each winner's logged patterns (the reference scorer
re-checks them) and fan, the kongs made, the 包 trigger facts, the horse
tiles and the wild kinds.  Everything else — hand value, who pays, liability,
kong money and its timing, horse seats and horse money — it computes.

``settle(row, rules)`` returns a :class:`Settlement`: a 4×4 matrix
``T[payer, payee]`` per component and the fan/value and liable seat it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

COMPONENTS = ("win", "liability", "kong", "horse", "penalty")
SELF_DRAWN = ("self_draw", "kong_replacement", "robbed_kong")  # JPH-S2/S3, TDH-S1/S2: all count as self-draw


@dataclass
class Settlement:
    """The transfers of one hand by component (C-M1) and the facts the checker derived on the way."""

    transfers: dict[str, np.ndarray] = field(
        default_factory=lambda: {c: np.zeros((4, 4), np.int64) for c in COMPONENTS}
    )
    values: list[int] = field(default_factory=list)  # per winner: fan (2^fan hands) or units (推倒胡)
    liable: int | None = None
    kong_feeders: list[int] = field(default_factory=list)  # per winner: who fed a 杠上开花 kong, else -1
    horse_seats: list[int] = field(default_factory=list)
    horse_hits: int = 0

    def pay(self, component: str, payer: int, payee: int, amount: int) -> None:
        if payer != payee and amount:  # C-M1: a seat never pays itself
            self.transfers[component][payer, payee] += amount

    def net(self, component: str | None = None) -> list[int]:
        """C-M1: net of seat s = Σ_p T[p, s] − Σ_q T[s, q] (of one component, or of all)."""
        t = sum(self.transfers.values()) if component is None else self.transfers[component]
        return [int(v) for v in t.sum(axis=0) - t.sum(axis=1)]


# ---- tiles from their notation (C-T5) ------------------------------------------------------------------------


def tiles_of(text: str) -> list[str]:
    """``"123m55z"`` -> ``["1m", "2m", "3m", "5z", "5z"]`` (C-T5)."""
    tiles, digits = [], ""
    for char in text:
        if char.isdigit():
            digits += char
        else:
            tiles += [d + char for d in digits]
            digits = ""
    return tiles


def meld_tiles(meld: str) -> list[str]:
    """``"chow:345p"`` -> 3p 4p 5p; ``"pung:5z"`` -> three 5z; ``"kong:9m"``/``"ckong:9m"`` -> four 9m (C-T5)."""
    kind, text = meld.split(":")
    if kind == "chow":
        return tiles_of(text)
    return tiles_of(text) * (3 if kind == "pung" else 4)


def parse_kong(text: str) -> tuple[int, str, int]:
    """A ``kongs`` entry ``"seat:kind:from"`` -> (konger, discard/added/concealed, feeding seat or -1)."""
    seat, kind, source = text.split(":")
    return int(seat), kind, int(source)


def others(seat: int) -> list[int]:
    return [s for s in range(4) if s != seat]


# ---- hand value: C-M2, JPH-F3/F4 and JPH-S1..S3 as they bear on payment; TDH-V1/V4 ----------------------------


def jipinghu_fan(rules, patterns: list[str], triple_discard_win: bool) -> int:
    """Fan of a 鸡平胡 win from its patterns (JPH-F1..F4, JPH-S1..S3)."""
    limits = [rules.limit_fan[p] for p in patterns if p in rules.limit_fan]
    if limits:
        return max(limits)  # JPH-F2: the largest limit pattern alone, never capped (JPH-F4)
    fan = sum(rules.fan[p] for p in patterns if p in rules.fan)  # JPH-F1: ordinary patterns add
    fan += sum(1 for p in patterns if p in rules.bonuses)  # JPH-F3: +1 each (dragon_pung once per dragon pung)
    if "kong_flower" in patterns and rules.kong_flower == "plus_one":
        fan += 1  # JPH-S2 [5]: +1 besides self-draw's +1
    if rules.cap is None:
        return fan
    fan = min(rules.cap, fan)  # JPH-F4: bonuses never lift an ordinary hand over the cap
    raised = (
        ("kong_flower" in patterns and rules.kong_flower == "raise_to_cap")  # JPH-S2 [3]
        or ("robbed_kong" in patterns and rules.robbed_kong_bonus == "as_kong_flower")  # JPH-S3 [3]
        or (triple_discard_win and rules.triple_win_raise)  # JPH-S1 [3]
    )
    return max(fan, rules.cap) if raised else fan


def tuidaohu_units(rules, patterns: list[str]) -> int:
    """Units of a 推倒胡 win from its patterns (TDH-V1, TDH-V4)."""
    if rules.hand_value == "small_big":  # TDH-V1: big hands do not combine
        big = any(p in rules.big_hands for p in patterns)
        return rules.big_hand_value if big else rules.small_hand_value
    if "full_ghosts" in patterns:  # TDH-V4: 满鬼, no other multiplier
        return rules.full_ghosts_value
    units = rules.small_hand_value  # TDH-V4: every win is 平胡, 1 unit
    if "no_ghost" in patterns:
        units *= rules.no_ghost_multiplier
    if "kong_flower" in patterns:
        units *= rules.kong_flower_multiplier
    return units


def hand_value(rules, row: dict, k: int) -> tuple[int, int]:
    """(the fan or units the hand is worth, the points of one share before payment multipliers) (C-M2)."""
    patterns = row["patterns"][k]
    if rules.hand_value == "fan":
        triple = row["win_kind"].count("discard") == 3
        fan = jipinghu_fan(rules, patterns, triple)
        return fan, 2**fan  # C-M2: base (1 point) × 2^fan
    units = tuidaohu_units(rules, patterns)
    return units, units


# ---- who pays a win: JPH-M1..M3, JPH-S1, TDH-V3, TDH-V4 --------------------------------------------------------


def win_shares(rules, row: dict, k: int, points: int) -> dict[int, int]:
    """Payer -> points for winner ``k`` before any liability (JPH-M, TDH-V3/V4)."""
    winner, kind = row["winners"][k], row["win_kind"][k]
    if kind in SELF_DRAWN:  # JPH-M1, TDH-V3: each of the three others pays
        return {payer: points * rules.self_draw_multiplier for payer in others(winner)}
    shares = 1  # JPH-M2: the discarder alone pays one share
    if rules.discard_pays_all and "human" not in row["patterns"][k]:
        shares = 3  # JPH-M2 option 包三家; JPH-M3: 人和 is paid by the dealer alone, one share
    return {row["discarder"]: points * rules.discard_multiplier * shares}


# ---- liability 包: C-M3, JPH-S2..S5, TDH-S1/S2 -----------------------------------------------------------------


def kong_flower_feeder(row: dict, winner: int) -> int:
    """JPH-S2/TDH-S2: the seat whose discard made the kong the winner drew its replacement for, or -1."""
    konger, kind, source = parse_kong(row["kongs"][-1])  # the win follows its kong's replacement draw
    assert konger == winner, f"a 杠上开花 win by seat {winner} but the last kong is {row['kongs'][-1]}"
    return source if kind == "discard" else -1


def twelve_tiles_feeder(rules, row: dict, winner: int) -> tuple[int, int] | None:
    """JPH-S4 包自摸 (十二张落地): (seat, discard count) of the feeder still liable for ``winner``, or None.

    包先不包后: a feeder is liable for the first player they gave a fourth exposed set only."""
    feeder = row["twelve_feeder"][winner]
    if not rules.liability_twelve_tiles or feeder < 0:
        return None
    turn = row["twelve_turn"][winner]
    if rules.liability_first_only:
        for other in others(winner):
            if row["twelve_feeder"][other] == feeder and row["twelve_turn"][other] < turn:
                return None  # the feeder's one liability went to an earlier player
    return feeder, turn


def limit_hand_feeder(rules, row: dict, winner: int) -> tuple[int, int] | None:
    """JPH-S5: (seat, discard count) of who fed the fourth wind / third dragon pung, or None."""
    feeder = row["limit_feeder"][winner]
    if not rules.liability_limit_hands or feeder < 0:
        return None
    return feeder, row["limit_turn"][winner]


def self_draw_feeder(rules, row: dict, winner: int) -> int | None:
    """JPH-S4/S5/S5a: who is liable for a self-drawn 鸡平胡 win through a fed meld, or None."""
    twelve = twelve_tiles_feeder(rules, row, winner)
    limit = limit_hand_feeder(rules, row, winner)
    if twelve is None or limit is None:
        found = twelve or limit
        return None if found is None else found[0]
    precedence = getattr(rules, "liability_precedence", "first")
    if precedence == "limit":
        return limit[0]  # JPH-S5a option: the JPH-S5 feeder pays
    return min(twelve, limit, key=lambda feeder_turn: feeder_turn[1])[0]  # JPH-S5a: the earlier trigger pays


def liable_seat(rules, row: dict, k: int) -> int | None:
    """The seat liable (C-M3) for winner ``k``'s whole payment, or None."""
    winner, kind = row["winners"][k], row["win_kind"][k]
    if kind == "robbed_kong" and rules.liability_robbed_kong:
        return row["discarder"]  # JPH-S3, TDH-S1: the robbed player pays all three shares
    if kind == "kong_replacement" and rules.liability_kong_flower:
        feeder = kong_flower_feeder(row, winner)
        if feeder >= 0:
            return feeder  # JPH-S2, TDH-S2: 杠上开花包杠
    if rules.family == "jipinghu" and kind in SELF_DRAWN:
        return self_draw_feeder(rules, row, winner)  # JPH-S4/S5 are 鸡平胡 rules
    return None


# ---- kong money: TDH-K1, TDH-K2 --------------------------------------------------------------------------------


def kong_transfers(rules, row: dict, out: Settlement) -> None:
    """TDH-K1 amounts for every kong made (a robbed kong was never made); TDH-K2 timing."""
    if rules.kong_settle == "end_if_won" and not row["winners"]:
        return  # TDH-K2 [Q][D]: a drawn hand settles no kongs
    for text in row["kongs"]:
        konger, kind, source = parse_kong(text)
        if kind == "discard":
            out.pay("kong", source, konger, rules.kong_pay_discard)  # 放杠: the discarder pays
        else:
            amount = rules.kong_pay_added if kind == "added" else rules.kong_pay_concealed
            for payer in others(konger):
                out.pay("kong", payer, konger, amount)  # 补杠 / 暗杠: each other player pays


# ---- horses 买马: TDH-M2..M5 ------------------------------------------------------------------------------------

# TDH-M3: honours count 东 南 西 北 中 发 白 = 1..7
DEALER_HONOUR_ORDER = {"1z": 1, "2z": 2, "3z": 3, "4z": 4, "7z": 5, "6z": 6, "5z": 7}
# TDH-M5: 1 5 9 东 -> dealer, 2 6 南 中 -> 下家, 3 7 西 发 -> 对家, 4 8 北 白 -> 上家
GHOST_HONOUR_OFFSET = {"1z": 0, "2z": 1, "7z": 1, "3z": 2, "6z": 2, "4z": 3, "5z": 3}


def horse_offset(rules, tile: str) -> int:
    """Offset from the dealer in turn order that a horse tile points at (TDH-M3, TDH-M5)."""
    rank, suit = int(tile[0]), tile[1]
    if suit != "z":
        return (rank - 1) % 4  # both mappings: 1 5 9 dealer, 2 6 下家, 3 7 对家, 4 8 上家
    if rules.horse_mapping == "ghost_edition":
        return GHOST_HONOUR_OFFSET[tile]
    return (DEALER_HONOUR_ORDER[tile] - 1) % 4


def check_horse_draw(rules, row: dict, count: int) -> None:
    """The horses are the first ``count`` tiles of the back tiles set aside for them (TDH-M1, TDH-M5)."""
    assert list(row["horses"]) == list(row["horse_pool"][:count]), (
        f"horses {row['horses']} are not the first {count} of the pool {row['horse_pool']}"
    )


def dealer_horse_count_bounds(rules, row: dict) -> tuple[int, int]:
    """TDH-M2: the dealer horses a hand may have from its streak (exact for [Q], a range for [D])."""
    least = min(rules.horse_max, rules.horse_base + row["streak"])  # +1 per 连庄 at least
    most = (
        least
        if rules.horse_growth == "plus_one_per_streak"
        else min(rules.horse_max, rules.horse_base + 2 * row["streak"])
    )
    return least, most


def dealer_horse_transfers(rules, row: dict, out: Settlement) -> None:
    """TDH-M4: for each horse on seat h the dealer wins what h wins and loses what h loses."""
    dealer = row["dealer"]
    least, most = dealer_horse_count_bounds(rules, row)
    assert least <= len(row["horses"]) <= most, f"{len(row['horses'])} dealer horses, TDH-M2 allows {least}..{most}"
    check_horse_draw(rules, row, len(row["horses"]))
    out.horse_seats = [(dealer + horse_offset(rules, tile)) % 4 for tile in row["horses"]]
    # "every transfer of the hand" (TDH-M4): on a drawn hand only kong money paid at once (TDH-K2, TDH-S3) exists
    mirrored = out.transfers["win"] + out.transfers["liability"]
    if getattr(rules, "horses_on_kongs", True):
        mirrored = mirrored + out.transfers["kong"]  # TDH-H1 马跟杠 (default): kong money too
    for h in out.horse_seats:
        for payer in range(4):
            for payee in range(4):
                amount = int(mirrored[payer, payee])
                if payee == h:
                    out.pay("horse", payer, dealer, amount)  # h received it: the payer pays the dealer too
                if payer == h:
                    out.pay("horse", dealer, payee, amount)  # h paid it: the dealer pays the payee too


def holds_ghost(row: dict, k: int) -> bool:
    """TDH-M5: the winning hand holds a ghost tile (any wild kind among its tiles)."""
    tiles = tiles_of(row["win_hands"][k]) + [t for meld in row["win_melds"][k] for t in meld_tiles(meld)]
    return any(t in row["wilds"] for t in tiles)


def winner_horse_hits(rules, row: dict, k: int, out: Settlement) -> int:
    """TDH-M5: winner horses (4 with a ghost in the hand, else 6); hits = horses on the winner's seat."""
    count = rules.winner_horses_with_ghost if holds_ghost(row, k) else rules.winner_horses_without_ghost
    assert len(row["horses"]) == count, f"{len(row['horses'])} winner horses, TDH-M5 gives {count}"
    check_horse_draw(rules, row, count)
    dealer, winner = row["dealer"], row["winners"][k]
    out.horse_seats = [(dealer + horse_offset(rules, tile)) % 4 for tile in row["horses"]]
    return sum(1 for seat in out.horse_seats if seat == winner)


# ---- the whole hand --------------------------------------------------------------------------------------------


def settle(row: dict, rules) -> Settlement:
    """Every transfer of one logged hand, by component (C-M1)."""
    out = Settlement()
    kong_transfers(rules, row, out)
    winner_horses = rules.horses == "winner" and len(row["winners"]) == 1
    if rules.horses == "winner" and not row["winners"]:
        assert not row["horses"], "TDH-M5: no winner, no horses bought"
    for k, winner in enumerate(row["winners"]):
        value, points = hand_value(rules, row, k)
        out.values.append(value)
        kind = row["win_kind"][k]
        out.kong_feeders.append(kong_flower_feeder(row, winner) if kind == "kong_replacement" else -1)
        shares = win_shares(rules, row, k, points)
        hits = winner_horse_hits(rules, row, k, out) if winner_horses else 0
        out.horse_hits += hits
        liable = liable_seat(rules, row, k)
        if liable is not None:
            out.liable = liable
        for payer, amount in shares.items():
            # C-M3: a liable player pays every share the others would have paid, they pay nothing
            component = "win" if liable is None or payer == liable else "liability"
            source = payer if liable is None else liable
            out.pay(component, source, winner, amount)
            out.pay("horse", source, winner, amount * hits)  # TDH-M5: each payer pays value × (1 + hits)
    if rules.horses == "dealer":
        dealer_horse_transfers(rules, row, out)
    return out
