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
    # per seat: how many points its horse net may lie off this one because a proportional split (TDH-M4 net)
    # had a fraction and the rules do not say how to round it
    rounding: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
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


def tuidaohu_units(rules, patterns: list[str], kind: str) -> int:
    """Units of a 推倒胡 win from its patterns and win kind (TDH-V1, TDH-V4, TDH-H4, TDH-H5)."""
    if rules.hand_value == "small_big":  # TDH-V1: big hands do not combine
        big = any(p in rules.big_hands for p in patterns)
        units = rules.big_hand_value if big else rules.small_hand_value
    elif "full_ghosts" in patterns:
        return rules.full_ghosts_value  # TDH-V4: 满鬼, no other multiplier
    else:
        units = rules.small_hand_value  # TDH-V4: every win is 平胡, 1 unit
        if "no_ghost" in patterns:
            units *= rules.no_ghost_multiplier  # 无鬼
        if "seven_pairs" in patterns:
            units *= rules.seven_pairs_multiplier  # TDH-H4 七对加倍
    if kind == "kong_replacement":
        units *= rules.kong_flower_multiplier  # TDH-V4 杠开 [G]; TDH-H5 杠开加倍 [Q][D]
    if kind == "robbed_kong":
        units *= rules.robbed_kong_multiplier  # TDH-H5 抢杠加倍
    return units


def hand_value(rules, row: dict, k: int) -> tuple[int, int]:
    """(the fan or units the hand is worth, the points of one share before payment multipliers) (C-M2)."""
    patterns = row["patterns"][k]
    if rules.hand_value == "fan":
        triple = row["win_kind"].count("discard") == 3
        fan = jipinghu_fan(rules, patterns, triple)
        return fan, 2**fan  # C-M2: base (1 point) × 2^fan
    units = tuidaohu_units(rules, patterns, row["win_kind"][k])
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
    if rules.triple_win_pays_all and row["win_kind"].count("discard") == 3:
        shares = 3  # JPH-S1 option: in a 一炮三响 the discarder pays each winner three shares
    return {row["discarder"]: points * rules.discard_multiplier * shares}


# ---- liability 包: C-M3, JPH-S2..S5, TDH-S1/S2 -----------------------------------------------------------------


def kong_flower_feeder(row: dict, winner: int) -> int:
    """JPH-S2/TDH-S2: the seat whose discard made the kong the winner drew its replacement for, or -1."""
    konger, kind, source = parse_kong(row["kongs"][-1])  # the win follows its kong's replacement draw
    assert konger == winner, f"a 杠上开花 win by seat {winner} but the last kong is {row['kongs'][-1]}"
    return source if kind == "discard" else -1


def fed_triggers(rules, row: dict) -> list[tuple[int, int, int, str]]:
    """Every 包自摸 trigger of the hand as (discard count, feeder, fed seat, rule) (JPH-S4, JPH-S5 facts)."""
    triggers = []
    for seat in range(4):
        if rules.liability_twelve_tiles and row["twelve_feeder"][seat] >= 0:
            triggers.append((row["twelve_turn"][seat], row["twelve_feeder"][seat], seat, "JPH-S4"))
        if rules.liability_limit_hands and row["limit_feeder"][seat] >= 0:
            triggers.append((row["limit_turn"][seat], row["limit_feeder"][seat], seat, "JPH-S5"))
    return triggers


def trigger_holds(rules, trigger, triggers) -> bool:
    """包先不包后 (JPH-S4): a feeder is liable for the first player they fed only — within JPH-S4, or across
    JPH-S4 and JPH-S5 when ``liability_once_across_rules`` extends the limit (JPH-S5a)."""
    turn, feeder, fed, rule = trigger
    across = rules.liability_once_across_rules
    if not (rules.liability_first_only and (across or rule == "JPH-S4")):
        return True
    return not any(f == feeder and other != fed and t < turn and (across or r == rule) for t, f, other, r in triggers)


def self_draw_feeder(rules, row: dict, winner: int) -> int | None:
    """JPH-S4/S5/S5a: who is liable for a self-drawn 鸡平胡 win through a fed meld, or None."""
    triggers = fed_triggers(rules, row)
    holding = [t for t in triggers if t[2] == winner and trigger_holds(rules, t, triggers)]
    if not holding:
        return None
    if rules.liability_precedence == "limit":
        holding.sort(key=lambda t: t[3] != "JPH-S5")  # JPH-S5a option: the JPH-S5 (limit-hand) feeder pays
    else:
        holding.sort()  # JPH-S5a: the player whose trigger came first pays
    # (In a 13-tile hand both name the same seat: a JPH-S5 claim is the third or fourth exposed set, so it never
    # comes after the JPH-S4 claim of the fourth.)
    return holding[0][1]


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


def mirror_transfers(out: Settlement, mirrored: np.ndarray, h: int, dealer: int) -> None:
    """TDH-M4 (transfers): the dealer wins what seat h wins and loses what h loses, transfer by transfer."""
    for payer in range(4):
        for payee in range(4):
            amount = int(mirrored[payer, payee])
            if payee == h:
                out.pay("horse", payer, dealer, amount)  # h received it: the payer pays the dealer too
            if payer == h:
                out.pay("horse", dealer, payee, amount)  # h paid it: the dealer pays the payee too


def mirror_net(out: Settlement, mirrored: np.ndarray, h: int, dealer: int) -> None:
    """TDH-M4 (net): the dealer receives or pays exactly seat h's net result, spread over the counterparties
    on the winning side of h's balance in proportion to what each of them netted with h; break-even moves nothing.

    A share that is not whole is paid rounded down here and both seats' ``rounding`` records the point it may
    be off: the rules give no rounding."""
    paid_to_h = {p: int(mirrored[p, h]) - int(mirrored[h, p]) for p in others(h)}
    net = sum(paid_to_h.values())
    if net == 0:
        return
    side = {p: abs(b) for p, b in paid_to_h.items() if b * net > 0}
    total = sum(side.values())
    for p, balance in side.items():
        amount, rest = divmod(abs(net) * balance, total)
        if rest and p != dealer:
            out.rounding[p] += 1
            out.rounding[dealer] += 1
        if net > 0:
            out.pay("horse", p, dealer, amount)
        else:
            out.pay("horse", dealer, p, amount)


def dealer_horse_transfers(rules, row: dict, out: Settlement) -> None:
    """TDH-M4: for each horse on seat h the dealer wins what h wins and loses what h loses."""
    dealer = row["dealer"]
    least, most = dealer_horse_count_bounds(rules, row)
    assert least <= len(row["horses"]) <= most, f"{len(row['horses'])} dealer horses, TDH-M2 allows {least}..{most}"
    check_horse_draw(rules, row, len(row["horses"]))
    out.horse_seats = [(dealer + horse_offset(rules, tile)) % 4 for tile in row["horses"]]
    # "every transfer of the hand" (TDH-M4): on a drawn hand only kong money paid at once (TDH-K2, TDH-S3) exists
    mirrored = out.transfers["win"] + out.transfers["liability"]
    if rules.horses_on_kongs:
        mirrored = mirrored + out.transfers["kong"]  # TDH-H1 马跟杠 (default): kong money too
    mirror = mirror_net if rules.horse_settlement == "net" else mirror_transfers
    for h in out.horse_seats:
        mirror(out, mirrored, h, dealer)


def holds_ghost(row: dict, k: int) -> bool:
    """TDH-M5: the winning hand holds a ghost tile (any wild kind among its tiles)."""
    tiles = tiles_of(row["win_hands"][k]) + [t for meld in row["win_melds"][k] for t in meld_tiles(meld)]
    return any(t in row["wilds"] for t in tiles)


def winner_horse_count(rules, row: dict, k: int) -> int:
    """TDH-M5: 4 winner horses with a ghost in the hand, else 6; TDH-H3 爆炸马: one; TDH-H8: none for 满鬼 if off."""
    if rules.winner_horse_scheme == "one_horse":
        return 1
    if "full_ghosts" in row["patterns"][k] and not rules.full_ghosts_horses:
        return 0
    return rules.winner_horses_with_ghost if holds_ghost(row, k) else rules.winner_horses_without_ghost


def winner_horse_hits(rules, row: dict, k: int, out: Settlement) -> int:
    """TDH-M5: hits = winner horses on the winner's seat; TDH-H3 爆炸马: the one horse's rank (honour 10)."""
    count = winner_horse_count(rules, row, k)
    assert len(row["horses"]) == count, f"{len(row['horses'])} winner horses, TDH-M5 gives {count}"
    check_horse_draw(rules, row, count)
    winner = row["winners"][k]
    origin = winner if rules.winner_horses_from == "winner" else row["dealer"]  # TDH-H10
    out.horse_seats = [(origin + horse_offset(rules, tile)) % 4 for tile in row["horses"]]
    if rules.winner_horse_scheme == "one_horse":
        tile = row["horses"][0]
        return 10 if tile[1] == "z" else int(tile[0])
    return sum(1 for seat in out.horse_seats if seat == winner)


# ---- penalties: C-P7 -------------------------------------------------------------------------------------------


def follow_dealer_penalty(rules, row: dict, out: Settlement) -> None:
    """C-P7 跟庄: all four first discards followed the dealer's: the dealer pays each other player, whatever the result."""
    units = rules.follow_dealer
    if units and row["followed_dealer"]:
        for seat in others(row["dealer"]):
            out.pay("penalty", row["dealer"], seat, units)


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
        # TDH-H2 马跟底分: a hit pays the payer's win share (hand) or that share at a hand value of 1 unit (base)
        hit_shares = win_shares(rules, row, k, 1) if rules.winner_horse_value == "base" else shares
        liable = liable_seat(rules, row, k)
        if liable is not None:
            out.liable = liable
        for payer, amount in shares.items():
            # C-M3: a liable player pays every share the others would have paid, they pay nothing
            component = "win" if liable is None or payer == liable else "liability"
            source = payer if liable is None else liable
            out.pay(component, source, winner, amount)
            out.pay("horse", source, winner, hit_shares[payer] * hits)  # TDH-M5: value × (1 + hits) a payer
        if hits and rules.winner_horses_on_kongs:
            for payer in others(winner):  # TDH-H1 马跟杠: each hit pays the kong money once more
                out.pay("horse", payer, winner, hits * int(out.transfers["kong"][payer, winner]))
    if rules.horses == "dealer":
        dealer_horse_transfers(rules, row, out)
    follow_dealer_penalty(rules, row, out)
    return out
