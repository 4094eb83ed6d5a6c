"""A slow, readable settlement checker for Pingyang 水头 (rules/shuitou.md), written from the rules text alone.

It recomputes every transfer of one logged 水头 hand, one small function per
rule, each citing its rule ID:

- SHT-T1..T3 and SHT-H3: the winner's total 台 from the logged pattern ids,
  each valued by the tables of the rules text (written out below).  The ids
  whose value the table leaves to the hand — ``caishen`` 2/5/8,
  ``caishen_honour`` 3/7/11, ``flowers`` 2/3/5/8 a group, ``kong`` 3/4/4/5,
  ``kong_flower`` 7/8 (+1), ``kill_pig`` 13/30/100 — are worked out from the
  logged win hand, melds, flowers and 财神 kinds; the ids the situation alone
  decides (自摸, 天胡, 地胡, 硬牌, 杠上开花, 抢杠, 分牌, 杀猪 and the hand-fact
  ids above) must be logged exactly when they apply.  The ids that depend on
  the winner's reading (平和, the flushes, 对对和, 四风会齐, 财神汇, the special
  pungs and pair) are taken from the log and only checked against what the
  tiles make possible.  Then base + winner 台, × ``double_factor`` from
  ``double_from_tai``: the logged ``fan``; the base part: the winner's
  logged ``base_tai``.
- SHT-T1 for the non-winners: base 台 from their end hands, melds and
  flowers (the project's reading of "a non-winner may count 财神 as any
  tile", docs/shuitou_readings.md), compared with the logged ``base_tai``.
- SHT-M1, SHT-H4: who pays the win, twice to or from the dealer.
- SHT-M3: 包牌, its condition decided here from the win and compared with the
  logged ``four_winds_feeder``.
- SHT-M2, SHT-H5: the non-winners' pairwise base-台 settlement (from the
  logged ``base_tai``, so that this part checks settlement alone).
- SHT-M4: a drawn hand settles nothing.

It imports nothing from ``mjsim`` (the tile notation is read with the other
families' checker helpers).  Readings where the rules text is silent are the
project's (docs/shuitou_readings.md), restated where they are used.  SHT-M3's "exposed
sets" are the pungs and exposed kongs 明杠 (docs/shuitou_readings.md: "exposed pung/kong
melds"); a concealed kong 暗杠 does not show a wind for 包牌, although the
seed has it "亮出" (laid out) — a house may read that otherwise.

``settle(row, rules)`` returns a :class:`Settlement`: a 4×4 matrix
``T[payer, payee]`` per component (``win``, ``liability``, ``base``, as the
log splits ``net``), the winner's total and base 台, every seat's base 台 as
the checker finds it, and the 包牌 seat.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from checker.settlement import meld_tiles, tiles_of

COMPONENTS = ("win", "liability", "base")

# ---- the 台 tables of the rules text (SHT-T1, SHT-T2) ---------------------------------------------------------

CAISHEN_TAI = {1: 2, 2: 5, 3: 8}  # SHT-T1 caishen: 财神 of a suited kind held, by copies
CAISHEN_HONOUR_TAI = {1: 3, 2: 7, 3: 11}  # SHT-T1 caishen_honour: of a wind / dragon kind
FLOWER_GROUP_TAI = {1: 2, 2: 3, 3: 5, 4: 8}  # SHT-T1 flowers: per group (red, black, 白板), by tiles of the group
KONG_TAI = {"kong": 3, "ckong": 4}  # SHT-T1 kong: exposed / concealed; +1 of the seat wind, 中 or 发
KONG_FLOWER_TAI = {"kong": 7, "ckong": 8}  # SHT-T2 杠上开花: +1 when the kong is 中 or the seat wind
KILL_PIG_TAI = {4: 13, 5: 30, 6: 100}  # SHT-T2 杀猪: by 财神 held
FIXED_TAI = {  # every other id of SHT-T1 / SHT-T2: one value an occurrence
    "special_pung": 1,
    "special_pair": 1,
    "self_draw": 1,
    "heavenly": 13,
    "earthly": 13,
    "hard": 7,
    "plain": 13,
    "all_honours": 26,
    "full_flush": 13,
    "half_flush": 7,
    "all_pungs": 7,
    "four_winds": 13,
    "robbed_kong": 3,
    "caishen_set": 7,
    "split_tile_win": 3,
}
BASE_IDS = ("caishen", "caishen_honour", "flowers", "kong", "special_pung", "special_pair")  # SHT-T1
VARIABLE_IDS = ("caishen", "caishen_honour", "flowers", "kong", "kong_flower", "kill_pig")

WINDS = ("1z", "2z", "3z", "4z")
RED_FLOWERS = ("1f", "2f", "3f", "4f")  # 春夏秋冬
BLACK_FLOWERS = ("5f", "6f", "7f", "8f")  # 梅兰菊竹


@dataclass
class Settlement:
    """The transfers of one 水头 hand by component and the facts the checker found on the way."""

    transfers: dict[str, list[list[int]]] = field(
        default_factory=lambda: {c: [[0] * 4 for _ in range(4)] for c in COMPONENTS}
    )
    fan: list[int] = field(default_factory=list)  # per winner: total 台 after doubling (SHT-T3)
    winner_base: list[int] = field(default_factory=list)  # per winner: the base part of that total (SHT-T1)
    base_tai: list[int | None] = field(default_factory=lambda: [None] * 4)  # per non-winner (SHT-T1), worked out
    four_winds_feeder: int | None = None  # the SHT-M3 fact: the discarder of the wind a shown 四风会齐 won on
    liable: int | None = None  # that seat when 包牌 applies (liability_four_winds)

    def pay(self, component: str, payer: int, payee: int, amount: int) -> None:
        if payer != payee and amount:  # a seat never pays itself
            self.transfers[component][payer][payee] += amount

    def net(self, component: str | None = None) -> list[int]:
        """Net of seat s = what s received − what s paid (of one component, or of all)."""
        parts = COMPONENTS if component is None else (component,)
        result = [0, 0, 0, 0]
        for c in parts:
            t = self.transfers[c]
            for payer in range(4):
                for payee in range(4):
                    result[payee] += t[payer][payee]
                    result[payer] -= t[payer][payee]
        return result


# ---- seats and tiles -------------------------------------------------------------------------------------------


def seat_wind(row: dict, seat: int) -> str:
    """门风: the dealer is 东 1z, its 下家 南 2z, and so on (the seed's 东家 南家 西家 北家)."""
    return f"{(seat - row['dealer']) % 4 + 1}z"


def special_kinds(row: dict, seat: int) -> set[str]:
    """SHT-T1: the kinds with kong / pung / pair bonuses: the seat wind, 发 6z and 中 7z (白板 never, docs/shuitou_readings.md)."""
    return {seat_wind(row, seat), "6z", "7z"}


def is_honour(tile: str) -> bool:
    return tile[1] == "z"


def wilds_in_play(rules, row: dict) -> dict[str, int]:
    """SHT-P3: the 财神 kinds and how many copies of each are in play (the turned tiles are out).

    Two turned tiles of two kinds leave three of each; both of one kind leave two (caishen_same_kind one_kind);
    one turned tile (flip_kind) leaves three."""
    kinds = list(row["wilds"])
    if rules.wild_scheme == "flip_two_kinds" and len(kinds) == 1:
        return {kinds[0]: 2}
    return {kind: 3 for kind in kinds}


def concealed(row: dict, k: int) -> list[str]:
    """Winner ``k``'s concealed tiles, the winning tile included."""
    return tiles_of(row["win_hands"][k])


def held_wilds(row: dict, tiles: list[str]) -> Counter:
    """财神 held among ``tiles``, by kind (a held 财神 is written as its own kind)."""
    return Counter(t for t in tiles if t in row["wilds"])


def check_no_wild_in_melds(row: dict, melds: list[str]) -> None:
    """SHT-P4: a 财神 cannot be chowed or punged (and a kong is made of four held or claimed real tiles)."""
    for meld in melds:
        assert not set(meld_tiles(meld)) & set(row["wilds"]), f"SHT-P4: a 财神 in the meld {meld}"


# ---- SHT-T1 base 台 ---------------------------------------------------------------------------------------------


def caishen_values(row: dict, tiles: list[str]) -> dict[str, list[int]]:
    """SHT-T1 财神: per 财神 kind held, 2/5/8 for 1/2/3 copies of a suited kind, 3/7/11 of an honour kind."""
    found: dict[str, list[int]] = {"caishen": [], "caishen_honour": []}
    for kind, n in sorted(held_wilds(row, tiles).items()):
        if is_honour(kind):
            found["caishen_honour"].append(CAISHEN_HONOUR_TAI[n])
        else:
            found["caishen"].append(CAISHEN_TAI[n])
    return found


def flower_groups(rules, text: str | None) -> dict[str, int]:
    """SHT-P1: the flowers a seat set aside, by group: red 1f-4f, black 5f-8f, and 白板 5z when it is a flower."""
    tiles = tiles_of(text or "")
    groups = {
        "red": sum(1 for t in tiles if t in RED_FLOWERS),
        "black": sum(1 for t in tiles if t in BLACK_FLOWERS),
        "white": tiles.count("5z"),
    }
    assert groups["white"] == 0 or rules.white_is_flower, f"SHT-H1: 白板 set aside as a flower: {text}"
    assert sum(groups.values()) == len(tiles), f"SHT-P1: not a flower among {text}"
    return {group: n for group, n in groups.items() if n}


def flower_values(rules, row: dict, seat: int) -> list[int]:
    """SHT-T1 花牌: per flower group held, 2/3/5/8 for 1/2/3/4 tiles of the group."""
    return [FLOWER_GROUP_TAI[n] for n in flower_groups(rules, row["flowers"][seat]).values()]


def kong_values(row: dict, seat: int, melds: list[str]) -> list[int]:
    """SHT-T1 杠: per declared kong, exposed 3 / concealed 4; of the seat wind, 中 or 发 exposed 4 / concealed 5."""
    values = []
    for meld in melds:
        kind, text = meld.split(":")
        if kind in KONG_TAI:
            values.append(KONG_TAI[kind] + (text in special_kinds(row, seat)))
    return values


def exposed_special_pungs(row: dict, seat: int, melds: list[str]) -> int:
    """SHT-T1 +1 a pung of the seat wind, 中 or 发 made by 碰 (the kongs have their own value)."""
    return sum(1 for m in melds if m.split(":")[0] == "pung" and m.split(":")[1] in special_kinds(row, seat))


def non_winner_base(rules, row: dict, seat: int) -> int:
    """SHT-T1 for a non-winner (the seed: it "may count 财神 as any tile" and "adds flowers, kongs and pungs").

    The project's reading (docs/shuitou_readings.md): 财神 + flowers + kongs + exposed special pungs; then for each special
    kind that is not a 财神 kind, with c concealed copies: +1 when c >= 2 (a pair or a concealed triplet, also
    with four); the kinds with c == 1 get +1 each while there are held 财神 to pair them, one each."""
    hand, melds = tiles_of(row["end_hands"][seat] or ""), list(row["end_melds"][seat])
    check_no_wild_in_melds(row, melds)
    caishen = caishen_values(row, hand)
    base = sum(caishen["caishen"]) + sum(caishen["caishen_honour"])
    base += sum(flower_values(rules, row, seat)) + sum(kong_values(row, seat, melds))
    base += exposed_special_pungs(row, seat, melds)
    singles = 0
    for kind in sorted(special_kinds(row, seat) - set(row["wilds"])):
        c = hand.count(kind)
        if c >= 2:
            base += 1  # 自家门风对 / 中发刻: the pair or the triplet held
        elif c == 1:
            singles += 1
    return base + min(singles, sum(held_wilds(row, hand).values()))  # "或与财神搭配加一台"


# ---- SHT-T2 winner 台 that the tiles or the situation decide ----------------------------------------------------


def winners_last_kong(row: dict, k: int) -> str:
    """The meld of the kong a 杠上开花 follows: the winner's last declared (the melds stay in the order made),
    and the last kong of the hand, by the winner (the replacement draw comes right after it)."""
    winner = row["winners"][k]
    kongs = [m for m in row["win_melds"][k] if m.split(":")[0] in KONG_TAI]
    assert kongs and row["kongs"], f"SHT-T2 杠上开花 without a kong: {row['win_melds'][k]}"
    seat, kind, _ = row["kongs"][-1].split(":")
    assert int(seat) == winner, f"SHT-T2 杠上开花 by seat {winner} after seat {seat}'s kong"
    assert (kind == "concealed") == kongs[-1].startswith("ckong:"), f"the last kong {kind} is {kongs[-1]}"
    return kongs[-1]


def kong_flower_value(row: dict, k: int) -> int:
    """SHT-T2 杠上开花: exposed 7, concealed 8; +1 more when the kong is 中 7z or the seat wind (the seed:
    "红中或自家风牌", 发 not named)."""
    kind, text = winners_last_kong(row, k).split(":")
    return KONG_FLOWER_TAI[kind] + (text in ("7z", seat_wind(row, row["winners"][k])))


def kill_pig_value(rules, row: dict, k: int) -> int:
    """SHT-T2 杀猪: 4 / 5 / 6 财神 held with three of one kind: 13 / 30 / 100; or, with one 财神 kind of two
    copies (both turned tiles of one kind), both held: 13.  0 when it does not apply."""
    held = held_wilds(row, concealed(row, k))
    n = sum(held.values())
    if n >= 4 and 3 in held.values():
        return KILL_PIG_TAI[n]
    in_play = wilds_in_play(rules, row)
    if len(in_play) == 1 and list(in_play.values()) == [2] and n == 2:
        return 13
    return 0


def hand_values(rules, row: dict, k: int) -> dict[str, list[int]]:
    """The variable-valued ids of winner ``k``, one value per occurrence, from the tiles (SHT-T1, SHT-T2)."""
    winner, melds = row["winners"][k], list(row["win_melds"][k])
    values = caishen_values(row, concealed(row, k))
    values["flowers"] = flower_values(rules, row, winner)
    values["kong"] = kong_values(row, winner, melds)
    values["kong_flower"] = [kong_flower_value(row, k)] if row["win_kind"][k] == "kong_replacement" else []
    pig = kill_pig_value(rules, row, k)
    values["kill_pig"] = [pig] if pig else []
    return values


def situation_ids(rules, row: dict, k: int) -> dict[str, bool]:
    """The fixed-valued winner ids that the way the hand was won (or the held 财神) alone decide (SHT-T2)."""
    winner, kind, first = row["winners"][k], row["win_kind"][k], bool(row["first_turn"][k])
    dealer, drawn = winner == row["dealer"], kind in ("self_draw", "kong_replacement")
    if kind == "discard" and first and not dealer:
        assert row["win_from"][k] == row["dealer"], "SHT-T2 地胡: the first discard is the dealer's"
    return {
        "self_draw": drawn,  # 自摸; a kong replacement and a 分牌 are drawn too (docs/shuitou_readings.md)
        # 天胡 "庄家一开局便胡牌": the dealer's self-draw in its first turn, also on the replacement of a concealed
        # kong made then (docs/shuitou_readings.md: a kong replacement is a self-draw; a concealed kong is no claim)
        "heavenly": dealer and drawn and first,
        "earthly": not dealer and kind == "discard" and first,  # 地胡: on the dealer's first discard
        "hard": not held_wilds(row, concealed(row, k)),  # 硬牌: no 财神
        "robbed_kong": kind == "robbed_kong",  # 抢杠胡
        "split_tile_win": bool(row["split_win"]),  # 分牌 (SHT-P7)
    }


def check_reading_ids(rules, row: dict, k: int, patterns: Counter) -> None:
    """The reading-dependent ids (taken from the log): what the tiles make possible (SHT-T1, SHT-T2).

    A 财神 may stand for any tile, so only the real tiles and melds constrain the reading."""
    winner, melds = row["winners"][k], list(row["win_melds"][k])
    hand = concealed(row, k)
    wild_count = sum(held_wilds(row, hand).values())
    real = [t for t in hand if t not in row["wilds"]] + [t for m in melds for t in meld_tiles(m)]
    suits = {t[1] for t in real if not is_honour(t)}
    chows = [m for m in melds if m.startswith("chow:")]
    if patterns["plain"]:  # 平和: no 财神, no flower, no pung or kong
        assert not wild_count and not row["flowers"][winner] and len(chows) == len(melds), "SHT-T2 平和"
    if patterns["all_honours"]:
        assert not suits, "SHT-T2 绿一色 with suited tiles"
    if patterns["full_flush"]:
        assert len(suits) == 1 and not any(map(is_honour, real)), "SHT-T2 清一色"
    if patterns["half_flush"]:
        assert len(suits) <= 1, "SHT-T2 混一色 with two suits"
    if patterns["all_pungs"]:
        assert not chows, "SHT-T2 对对和 with a chow"
    if patterns["four_winds"]:
        missing = [w for w in WINDS if w not in real]
        assert len(missing) <= wild_count, f"SHT-T2 四风会齐 missing {missing}, {wild_count} 财神 held"
    if patterns["caishen_set"]:
        assert wild_count >= 3 and patterns["caishen_set"] == 1, "SHT-T2 财神汇: three 财神 as one set"
    shown = exposed_special_pungs(row, winner, melds)
    assert patterns["special_pung"] >= shown, f"SHT-T1: {shown} special pungs shown, {patterns['special_pung']} scored"
    assert patterns["special_pair"] <= 1, "SHT-T1: one pair"
    for name in patterns:
        assert name in FIXED_TAI or name in VARIABLE_IDS, f"SHT-T: no 台 id {name!r} in the rules text"


# ---- SHT-T3 the winner's total ----------------------------------------------------------------------------------


def winner_total(rules, row: dict, k: int) -> tuple[int, int]:
    """(total 台 after doubling, base 台) of winner ``k`` from its logged ids (SHT-T1..T3, SHT-H3)."""
    patterns = Counter(row["patterns"][k])
    check_no_wild_in_melds(row, list(row["win_melds"][k]))
    check_reading_ids(rules, row, k, patterns)
    for name, applies in situation_ids(rules, row, k).items():
        assert patterns[name] == applies, f"SHT-T2 {name}: applies {applies}, logged {patterns[name]}"
    values = hand_values(rules, row, k)
    for name, found in values.items():
        assert patterns[name] == len(found), f"SHT-T1/T2 {name}: the hand gives {found}, logged {patterns[name]}"
    base = sum(sum(values[name]) if name in values else FIXED_TAI[name] * patterns[name] for name in BASE_IDS)
    winner_only = sum(
        sum(values[name]) if name in values else FIXED_TAI[name] * n
        for name, n in patterns.items()
        if name not in BASE_IDS
    )
    total = base + winner_only  # SHT-T3 基础台数 + 奖励 ("以上所有发生的番数累计")
    if total >= rules.double_from_tai:
        total *= rules.double_factor  # SHT-T3 "(13 + X) × 2", SHT-H3
    return total, base


# ---- SHT-M1, SHT-M3: paying the win -----------------------------------------------------------------------------


def dealer_factor(rules, row: dict, a: int, b: int) -> int:
    """SHT-M1 / SHT-M2, SHT-H4: a payment between the dealer and another seat counts twice."""
    return 2 if rules.dealer_pays_double and row["dealer"] in (a, b) else 1


def shown_four_winds_feeder(row: dict, k: int) -> int | None:
    """SHT-M3 包牌 ("四风会齐牌色清楚时，打风牌让其和牌"): a winner whose exposed sets show 四风会齐 — exposed
    pungs and kongs (not 暗杠) of three or more different winds — who scores four_winds and won on a discarded
    wind (not a robbed kong, not a self-draw): the discarder; else None."""
    if row["win_kind"][k] != "discard" or row["win_tiles"][k] not in WINDS:
        return None
    shown = {m.split(":")[1] for m in row["win_melds"][k] if m.split(":")[0] in ("pung", "kong")}
    if len(shown & set(WINDS)) < 3 or "four_winds" not in row["patterns"][k]:
        return None
    return row["win_from"][k]


def win_transfers(rules, row: dict, k: int, total: int, out: Settlement) -> None:
    """SHT-M1: each non-winner pays the total, twice when it or the winner is the dealer; SHT-M3: a liable
    discarder pays the other two non-winners' shares too (under ``liability``), they pay nothing."""
    winner = row["winners"][k]
    out.four_winds_feeder = shown_four_winds_feeder(row, k)
    if rules.liability_four_winds and out.four_winds_feeder is not None:
        out.liable = out.four_winds_feeder
    for payer in (s for s in range(4) if s != winner):
        share = total * dealer_factor(rules, row, payer, winner)
        if out.liable is None or payer == out.liable:
            out.pay("win", payer, winner, share)
        else:
            out.pay("liability", out.liable, winner, share)  # what the payer would have paid


# ---- SHT-M2: the non-winners among themselves -------------------------------------------------------------------


def base_transfers(rules, row: dict, winner: int, out: Settlement) -> None:
    """SHT-M2: for each pair of non-winners, fewer base 台 pays the difference (never doubled for 13+), twice
    with the dealer in the pair (SHT-H4); off with settle_non_winners = false (SHT-H5)."""
    if not rules.settle_non_winners:
        return
    seats = [s for s in range(4) if s != winner]
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            low, high = sorted((a, b), key=lambda s: row["base_tai"][s])
            difference = row["base_tai"][high] - row["base_tai"][low]
            out.pay("base", low, high, difference * dealer_factor(rules, row, a, b))


# ---- the whole hand ---------------------------------------------------------------------------------------------


def settle(row: dict, rules) -> Settlement:
    """Every transfer of one logged 水头 hand, by component."""
    out = Settlement()
    winners = list(row["winners"])
    assert len(winners) <= 1, f"SHT-P5: one winner at most, logged {winners}"
    for seat in range(4):
        if seat not in winners:
            out.base_tai[seat] = non_winner_base(rules, row, seat)
    if row["split_win"]:
        assert row["win_kind"] == ["self_draw"], "SHT-P7: a 分牌 win is drawn"
    if not winners:
        return out  # SHT-M4: a drawn hand settles nothing
    winner = winners[0]
    total, base = winner_total(rules, row, 0)
    out.fan.append(total)
    out.winner_base.append(base)
    out.base_tai[winner] = base
    win_transfers(rules, row, 0, total, out)
    base_transfers(rules, row, winner, out)
    return out
