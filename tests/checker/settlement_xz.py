"""A slow, readable settlement checker for Sichuan 血战到底 (rules/xuezhan.md), written from the rules text alone.

It recomputes every transfer of one logged 血战 hand, one small function per
rule, each citing its rule ID:

- XZ-F1..F3 and the house options XZ-H3..H5, H8: a winner's fan, from the one
  XZ-F1 pattern the log names (the reference scorer re-checks the shape) plus
  the XZ-F2 additions, which the checker finds itself from the winning hand,
  the kongs made and the way the win came;
- XZ-M1, M2, M5 and XZ-H3, H6: who pays each win (only players still in play);
- XZ-M3: kong income, paid when the kong is made by the players then in play;
- XZ-M4: 呼叫转移, both readings of several winners;
- XZ-E1..E3: 查花猪, 查叫 and 退税 at an empty wall;
- XZ-H7 血流成河: winners stay in play, the same rules otherwise.

It imports nothing from ``mjsim`` and shares no code with the engine's
settlement.  Facts it takes from the row: the winners and their win kinds,
who each win came from and who was in play at it (``win_in_play``), the
logged XZ-F1 pattern, the winning hands and melds, the kongs made and who was
in play at each (``kong_in_play``), whether a discard win came right after the
discarder's kong (``after_kong``), whether the wall ran out, and each seat's
end state with a ready hand's best fan (``end_state``, ``ready_fan``: the
log keeps no final hand of a player who did not win, so 花猪, 听牌 and the
best value of a ready hand are the engine's word).

``settle(row, rules)`` returns a :class:`Settlement`: a 4×4 matrix
``T[payer, payee]`` per component (``win``, ``kong``, ``penalty``, as the log
splits ``net``), and the fan and additions it found for each winner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from checker.settlement import tiles_of

COMPONENTS = ("win", "kong", "penalty")

# XZ-H5: the four patterns of extra_patterns, with the values the rules text gives them
EXTRA_PATTERN_FAN = {"single_wait": 2, "full_flush_single_wait": 4, "four_kongs": 6, "full_flush_four_kongs": 8}
# XZ-F2 additions by their ids in the rules text; XZ-H3 / XZ-H4 by the ids the log uses for them
KONG_ADDITION = {"discard": "direct_kong", "added": "added_kong", "concealed": "concealed_kong"}
DRAGON_PATTERNS = ("dragon_seven_pairs", "full_flush_dragon_seven_pairs")  # XZ-F2 root: the first set is the pattern's


@dataclass
class Settlement:
    """The transfers of one 血战 hand by component and the facts the checker found on the way."""

    transfers: dict[str, list[list[int]]] = field(
        default_factory=lambda: {c: [[0] * 4 for _ in range(4)] for c in COMPONENTS}
    )
    fan: list[int] = field(default_factory=list)  # per winner, after additions and cap (XZ-F)
    additions: list[list[str]] = field(default_factory=list)  # per winner: the XZ-F2 / XZ-H ids found, sorted
    notes: list[str] = field(default_factory=list)  # readings the rules text leaves open that this hand met
    # per seat: how many units its kong net may lie off this one because an XZ-M4 split had a remainder and the
    # rules text does not say who gets it
    rounding: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

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


# ---- tiles from their notation (tiles_of: the other families' checker, C-T5) -------------------------------------


def meld_tiles(meld: str) -> list[str]:
    """``"pung:5s"`` -> three 5s; ``"kong:9m"`` / ``"ckong:9m"`` -> four 9m (血战 has no chow, XZ-P1)."""
    kind, text = meld.split(":")
    assert kind in ("pung", "kong", "ckong"), f"XZ-P1: no {kind} in 血战"
    return tiles_of(text) * (3 if kind == "pung" else 4)


def parse_kong(text: str) -> tuple[int, str, int]:
    """A ``kongs`` entry ``"seat:kind:from"`` -> (konger, discard/added/concealed, the discarder fed or -1)."""
    seat, kind, source = text.split(":")
    return int(seat), kind, int(source)


def seats_in(mask: int) -> list[int]:
    """The seats whose bit is set in an in-play mask (``win_in_play``, ``kong_in_play``)."""
    return [s for s in range(4) if mask >> s & 1]


# ---- fan: XZ-F1..F3, XZ-H3..H5, XZ-H8 --------------------------------------------------------------------------


def base_pattern(rules, patterns: list[str]) -> tuple[str, int]:
    """The one XZ-F1 pattern (XZ-H5 extra pattern) the log names for a win, and its fan."""
    table = dict(rules.xz_fan)
    if rules.extra_patterns:
        table |= EXTRA_PATTERN_FAN
    if not rules.heavenly_earthly:  # XZ-H8: 天胡 / 地胡 switched off are no patterns
        table.pop("heavenly", None)
        table.pop("earthly", None)
    named = [p for p in patterns if p in table]
    assert len(named) == 1, f"XZ-F1: a win has one pattern (the highest that applies), the log names {named}"
    return named[0], table[named[0]]


def roots(hand: list[str], melds: list[str]) -> int:
    """XZ-F2 根: sets of four equal tiles in the whole hand that are not a declared kong (a pung plus its fourth
    tile in the hand counts)."""
    tiles = hand + [t for m in melds if m.startswith("pung:") for t in meld_tiles(m)]
    return sum(1 for kind in set(tiles) if tiles.count(kind) == 4)


def winners_kongs(rules, row: dict, winner: int, k: int) -> list[str]:
    """The kinds of the kongs the winner made before this win (XZ-F2 刮风下雨, XZ-F2 杠上花)."""
    kinds = [kind for konger, kind, _ in map(parse_kong, row["kongs"]) if konger == winner]
    declared = sum(1 for m in row["win_melds"][k] if m.split(":")[0] in ("kong", "ckong"))
    # in 血战 a winner leaves play, so every kong of theirs came before the win; under 血流成河 (XZ-H7) a player
    # may kong after a win, and the melds at this win tell how many came before it
    assert declared == len(kinds) or (rules.bloody_flow and declared < len(kinds)), (
        f"{declared} kongs declared but {kinds} logged for seat {winner}"
    )
    return kinds[:declared]


def additions(rules, row: dict, k: int, pattern: str) -> list[str]:
    """The XZ-F2 additions (and XZ-H3 自摸加番, XZ-H4 门清中张) of winner ``k``, from the hand's facts."""
    winner, kind = row["winners"][k], row["win_kind"][k]
    hand, melds = tiles_of(row["win_hands"][k]), list(row["win_melds"][k])
    found = ["root"] * roots(hand, melds)
    if pattern in DRAGON_PATTERNS:
        found.remove("root")  # XZ-F2: in 龙七对 the first set of four is part of the pattern
    kongs = winners_kongs(rules, row, winner, k)
    found += [KONG_ADDITION[kind_] for kind_ in kongs]
    if kind == "kong_replacement":
        # XZ-F2 杠上花: the win's own kong is the winner's last one
        found.append("kong_flower_concealed" if kongs[-1] == "concealed" else "kong_flower_exposed")
    if kind == "discard" and row["after_kong"][k]:
        found.append("kong_discard")  # XZ-F2 杠上炮
    if kind == "robbed_kong":
        found.append("robbed_kong")  # XZ-F2 抢杠
    if rules.concealed_and_middle:  # XZ-H4 门清中张
        if all(m.startswith("ckong:") for m in melds):
            found.append("concealed")  # no pung and no exposed kong
        every = hand + [t for m in melds for t in meld_tiles(m)]
        if not any(t[0] in "19" for t in every):
            found.append("no_terminals")
    if rules.self_draw_bonus == "fan" and paid_as_self_draw(rules, row, k):
        found.append("self_draw")  # XZ-H3 自摸加番
    return sorted(found)


def addition_fan(rules, name: str) -> int:
    """Fan of one addition: the XZ-F2 table; +1 for XZ-H3 自摸加番 and for each half of XZ-H4 门清中张."""
    if name in ("concealed", "no_terminals", "self_draw"):
        return 1
    return rules.xz_additions[name]


def win_fan(rules, row: dict, k: int) -> tuple[int, list[str]]:
    """(the fan winner ``k``'s hand is worth, its additions): pattern + additions, then the cap (XZ-F1..F3)."""
    pattern, fan = base_pattern(rules, row["patterns"][k])
    if pattern in ("heavenly", "earthly"):
        assert row["first_turn"][k], f"XZ-F1: {pattern} outside the first go-around"
    found = additions(rules, row, k, pattern)
    fan += sum(addition_fan(rules, a) for a in found)
    if rules.cap is not None:
        fan = min(fan, rules.cap)  # XZ-F3 封顶
    return fan, found


# ---- who pays a win: XZ-M1, XZ-M2, XZ-M5, XZ-H3, XZ-H6 ---------------------------------------------------------


def kong_flower_feeder(row: dict, k: int) -> int:
    """For a 杠上花 win after a direct kong 直杠, the seat whose discard was konged; else -1 (XZ-M2)."""
    winner = row["winners"][k]
    kongs = [parse_kong(text) for text in row["kongs"] if parse_kong(text)[0] == winner]
    declared = sum(1 for m in row["win_melds"][k] if m.split(":")[0] in ("kong", "ckong"))
    _, kind, source = kongs[declared - 1]  # the win follows its own kong, the winner's last before it
    return source if kind == "discard" else -1


def paid_as_self_draw(rules, row: dict, k: int) -> bool:
    """XZ-M1 自摸 (every player still in pays): a self-draw, and a 杠上花 — unless it follows a direct kong and
    XZ-M2 has the discarder of the konged tile pay alone (XZ-H6 default)."""
    kind = row["win_kind"][k]
    if kind == "self_draw":
        return True
    if kind == "kong_replacement":
        return kong_flower_feeder(row, k) < 0 or rules.kong_flower_from_discard == "self_draw"
    return False


def win_payers(rules, row: dict, k: int) -> list[int]:
    """Who pays winner ``k`` one share each (XZ-M1, XZ-M2, XZ-M5)."""
    winner, kind = row["winners"][k], row["win_kind"][k]
    if paid_as_self_draw(rules, row, k):
        in_play = seats_in(row["win_in_play"][k])
        assert winner in in_play, f"XZ-P4: seat {winner} won while out of play"
        return [s for s in in_play if s != winner]  # XZ-M1, XZ-M5: every player who has not yet won
    if kind == "kong_replacement":
        return [kong_flower_feeder(row, k)]  # XZ-M2: the player whose discard was konged, alone, one share
    assert kind in ("discard", "robbed_kong"), kind
    source = row["win_from"][k]
    assert source >= 0 and row["win_in_play"][k] >> source & 1, f"XZ-M5: the discarder {source} was not in play"
    return [source]  # XZ-M1: the discarder (the robbed player for 抢杠) pays; 一炮多响: each winner in turn


def win_transfers(rules, row: dict, out: Settlement) -> None:
    """Every win's payment: base (1 unit) × 2^fan a share (XZ-F), +1 unit for 自摸加底 (XZ-H3)."""
    for k, winner in enumerate(row["winners"]):
        fan, found = win_fan(rules, row, k)
        out.fan.append(fan)
        out.additions.append(found)
        points = 2**fan
        if rules.self_draw_bonus == "base" and paid_as_self_draw(rules, row, k):
            points += 1  # XZ-H3 自摸加底: +1 base unit per payer
        for payer in win_payers(rules, row, k):
            out.pay("win", payer, winner, points)


# ---- kong income: XZ-M3; 呼叫转移 XZ-M4 -------------------------------------------------------------------------


def kong_income(rules, row: dict) -> list[dict[int, int]]:
    """Per kong made, payer -> units (XZ-M3); a robbed kong was never made and is not in the log."""
    incomes = []
    for j, text in enumerate(row["kongs"]):
        konger, kind, source = parse_kong(text)
        in_play = seats_in(row["kong_in_play"][j])
        assert konger in in_play, f"XZ-P4: seat {konger} konged while out of play"
        if kind == "discard":
            assert source in in_play
            incomes.append({source: rules.kong_pay_discard})  # 直杠: the discarder pays
        else:
            amount = rules.kong_pay_added if kind == "added" else rules.kong_pay_concealed
            incomes.append({s: amount for s in in_play if s != konger})  # 补杠 / 暗杠: each player not yet won
    return incomes


def call_transfer_kong(row: dict, k: int) -> int:
    """The kong whose income passes to the 杠上炮 winner ``k`` (XZ-M4): the discarder's last kong made before the
    win (``kong_turns``: the discard count at each kong; logs without it: the last made while the winner was in
    play, since under 血战 the winner leaves play at the win)."""
    discarder, winner = row["win_from"][k], row["winners"][k]
    turns = row.get("kong_turns")
    candidates = [
        j
        for j, text in enumerate(row["kongs"])
        if parse_kong(text)[0] == discarder
        and (turns[j] <= row["win_turn"][k] if turns else row["kong_in_play"][j] >> winner & 1)
    ]
    assert candidates, f"XZ-M4: a win after seat {discarder}'s kong, but no such kong"
    return candidates[-1]


def call_transfers(rules, row: dict, incomes: list[dict[int, int]], out: Settlement) -> set[int]:
    """XZ-M4 呼叫转移: the discarder pays each 杠上炮 winner the kong's income ('each', the seed), or the income
    split over the winners of that discard ('split'); returns the kongs whose income passed."""
    passed: set[int] = set()
    if not rules.call_transfer:
        return passed
    groups: dict[tuple[int, int], list[int]] = {}  # one discard: (discarder, discard count) -> its 杠上炮 winners
    for k, kind in enumerate(row["win_kind"]):
        if kind == "discard" and row["after_kong"][k]:
            groups.setdefault((row["win_from"][k], row["win_turn"][k]), []).append(k)
    for (discarder, _), ks in groups.items():
        kongs = {call_transfer_kong(row, k) for k in ks}
        assert len(kongs) == 1, f"XZ-M4: the winners of one discard name different kongs {kongs}"
        j = kongs.pop()
        passed.add(j)
        income = sum(incomes[j].values())
        share = income if rules.call_transfer_multiple == "each" else income // len(ks)
        if rules.call_transfer_multiple == "split" and income % len(ks):
            out.notes.append(f"XZ-M4 split: {income} units over {len(ks)} winners, rounded down")
            out.rounding[discarder] += income % len(ks)
            for k in ks:
                out.rounding[row["winners"][k]] += 1
        for k in ks:
            out.pay("kong", discarder, row["winners"][k], share)
    return passed


# ---- end of wall: XZ-E1..E3 ------------------------------------------------------------------------------------


def end_of_wall(rules, row: dict, incomes: list[dict[int, int]], passed: set[int], out: Settlement) -> None:
    """查花猪 (XZ-E1), 查叫 (XZ-E2) and 退税 (XZ-E3), when the wall ran out with players still in."""
    states = list(row["end_state"])
    if not row["exhausted"] or not rules.end_checks:
        return
    for seat, state in enumerate(states):
        assert (row["ready_fan"][seat] >= 0) == (state == "ready"), f"seat {seat} {state} with a ready fan"
    pigs = [s for s in range(4) if states[s] == "flower_pig"]
    for pig in pigs:
        for other in range(4):
            if states[other] != "flower_pig":  # XZ-E1: to every non-花猪, those who have won included
                out.pay("penalty", pig, other, rules.flower_pig_penalty)
    ready = [s for s in range(4) if states[s] == "ready"]
    for payer in (s for s in range(4) if states[s] == "not_ready"):  # XZ-E2: a 花猪 pays no 查叫
        for r in ready:
            fan = row["ready_fan"][r]
            if rules.cap is not None:
                assert fan <= rules.cap, f"XZ-F3: a ready fan {fan} over the cap"
            out.pay("penalty", payer, r, 2**fan)  # its best winning tile as a discard win: 1 × 2^fan
    if not rules.tax_refund:
        return
    for j, text in enumerate(row["kongs"]):
        konger = parse_kong(text)[0]
        if states[konger] in ("not_ready", "flower_pig") and j not in passed:
            # XZ-E3 退税: the kong's income goes back to whoever paid it; income that already passed to a
            # 杠上炮 winner (XZ-M4) is no longer the konger's to return
            for payer, amount in incomes[j].items():
                out.pay("kong", konger, payer, amount)


# ---- the whole hand --------------------------------------------------------------------------------------------


def check_play(rules, row: dict) -> None:
    """Facts XZ-P4 / XZ-H7 fix about who won: each seat once in 血战, winners out of play at later wins."""
    winners = list(row["winners"])
    if not rules.bloody_flow:
        assert len(set(winners)) == len(winners) <= 3, f"XZ-P4: winners {winners}"
        for k in range(len(winners)):
            earlier = [winners[i] for i in range(k) if row["win_turn"][i] < row["win_turn"][k]]
            assert not any(row["win_in_play"][k] >> e & 1 for e in earlier), f"XZ-P4: {earlier} still in at {k}"


def settle(row: dict, rules) -> Settlement:
    """Every transfer of one logged 血战 hand, by component."""
    out = Settlement()
    check_play(rules, row)
    win_transfers(rules, row, out)
    incomes = kong_income(rules, row)
    for j, income in enumerate(incomes):
        konger = parse_kong(row["kongs"][j])[0]
        for payer, amount in income.items():
            out.pay("kong", payer, konger, amount)  # XZ-M3: paid at once
    passed = call_transfers(rules, row, incomes, out)
    end_of_wall(rules, row, incomes, passed, out)
    return out
