"""`mjsim replay` for players: seat winds and places from the dealer, the horses, the transfers table.

The expected values come from the rules text (C-S1, C-S2, TDH-M3, TDH-M5) and the logged rows, never from
the replay code; the output is parsed as a reader would read it.
"""

import re

import pytest

from mjsim import ruleset
from mjsim.cli import main
from mjsim.io import read_hands
from mjsim.sim.parallel import RunSpec, simulate
from mjsim.sim.replay import replay_hand

# small runs of presets the suite already simulates; sessions of 8 so the deal moves and dealers keep it
RUNS = {"jipinghu": 16, "tuidaohu": 32, "tuidaohu_ghost": 16, "xuezhan": 16, "shuitou": 16}
WINDS = "东南西北"  # C-S2: the seat wind of offsets 0-3 from the dealer
PLACES = ("庄", "下家", "对家", "上家")  # C-S1: offset 0 the dealer, 1 plays after it, 2 across, 3 before it
SEAT = re.compile(r"seat (\d) (\S) ([^\s,:;()]+)")


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    """Per preset: the run directory and, for every hand, its logged row, replayed lines and differences."""
    root = tmp_path_factory.mktemp("replay")
    out = {}
    for name, hands in RUNS.items():
        spec = RunSpec(ruleset(name), ("efficiency",), hands, session_length=8, seed=3, first_dealer=1)
        simulate(spec, root / name, workers=1, progress=False)
        rows = read_hands(root / name).sort("hand_id").to_dicts()
        out[name] = (root / name, [(row, *_replayed(root / name, row["hand_id"])) for row in rows])
    return out


def _replayed(run, hand_id):
    lines, _, differences = replay_hand(run, hand_id)
    return lines, differences


def _expected_place(seat, dealer):
    offset = (seat - dealer) % 4
    return WINDS[offset], PLACES[offset]


def test_every_replay_agrees_with_its_logged_row(replays):
    for name, (_, hands) in replays.items():
        for row, lines, differences in hands:
            assert differences == [], (name, row["hand_id"])
            assert not any(line.startswith("WARNING") for line in lines)


def test_seats_show_their_wind_and_place_from_the_dealer_as_the_deal_moves(replays):
    """C-S1 / C-S2: the dealer is 东 庄, the seat after it 南 下家, across 西 对家, before it 北 上家, whichever
    absolute seat deals; the seat table, the header and every play line say so."""
    dealers = set()
    for name, (_, hands) in replays.items():
        for row, lines, _ in hands:
            dealer = row["dealer"]
            dealers.add(dealer)
            assert lines[0].startswith(f"hand {row['hand_id']} ")
            assert f"dealer seat {dealer} 东 庄" in lines[1]
            table = lines.index(next(line for line in lines if line.split()[:2] == ["seat", "wind"]))
            for seat in range(4):
                cells = lines[table + 1 + seat].split()
                assert cells[:4] == ["seat", str(seat), *_expected_place(seat, dealer)], (name, row["hand_id"])
            play = lines[lines.index("play:") + 1 :]
            assert play[0].startswith(f"  seat {dealer} 东 庄: deals (first turn)")
            for line in lines:
                for seat, wind, place in SEAT.findall(line):
                    assert (wind, place) == _expected_place(int(seat), dealer), (name, row["hand_id"], line)
    assert len(dealers - {0}) >= 2  # the winds really rotate with the dealer in these runs


def _expected_horse_seat(tile, origin, mapping):
    """TDH-M3 / TDH-M5 read from the rules text: the offset from ``origin`` (the dealer) in turn order."""
    rank, suit = int(tile[0]), tile[1]
    if suit in "mps":  # 1 5 9 the origin, 2 6 its 下家, 3 7 its 对家, 4 8 its 上家 (both mappings)
        return (origin + (rank - 1) % 4) % 4
    if mapping == "dealer_offset":  # TDH-M3: 东 南 西 北 中 发 白 count 1..7 (中 7z, 发 6z, 白 5z, C-T1)
        offset = ["1z", "2z", "3z", "4z", "7z", "6z", "5z"].index(tile) % 4
    else:  # TDH-M5: 东 the origin, 南 中 下家, 西 发 对家, 北 白 上家
        offset = {"1z": 0, "2z": 1, "7z": 1, "3z": 2, "6z": 2, "4z": 3, "5z": 3}[tile]
    return (origin + offset) % 4


HORSE = re.compile(r"^  (\d[mpsz]) +-> seat (\d) (\S) (\S+)(  \(the winner's seat: a hit\))?$")


@pytest.mark.parametrize("preset, mapping", [("tuidaohu", "dealer_offset"), ("tuidaohu_ghost", "ghost_edition")])
def test_horses_show_each_tile_and_the_seat_the_rules_point_it_at(replays, preset, mapping):
    """TDH-M1..M3 dealer horses (bought by the dealer, more after a 连庄) and TDH-M5 winner horses (bought by
    the winner, a hit on its own seat): every logged horse tile is shown, in order, on the seat the rule
    text gives from the tile and the dealer."""
    several = 0
    for row, lines, _ in replays[preset][1]:
        dealer, winners = row["dealer"], row["winners"]
        shown = [m.groups() for m in map(HORSE.match, lines) if m]
        assert [tile for tile, *_ in shown] == list(row["horses"]), row["hand_id"]
        for tile, seat, wind, place, hit in shown:
            expected = _expected_horse_seat(tile, dealer, mapping)
            assert int(seat) == expected, (row["hand_id"], tile)
            assert (wind, place) == _expected_place(expected, dealer)
            assert bool(hit) == (mapping == "ghost_edition" and expected == winners[-1])
        head = next(line for line in lines if line.startswith("horses"))
        if mapping == "dealer_offset":
            assert f"dealer horse{'s' * (len(shown) != 1)}, bought by the dealer seat {dealer} 东 庄" in head
        elif shown:
            assert f"bought by the winner seat {winners[-1]} " in head
        else:
            assert "none bought" in head
        several += len(shown) > 1
    assert several > 0  # some hands turn more than one horse


def _transfers(lines):
    """The transfers table as {column: [seat 0..3 values]}, read back from the text."""
    start = lines.index("transfers (points; + received, - paid):")
    header = lines[start + 1].split()
    assert header[0] == "seat" and header[-1] == "total"
    table = {name: [None] * 4 for name in header[1:]}
    for line in lines[start + 2 : start + 6]:
        cells = line.split()
        assert cells[0] == "seat" and SEAT.match(" ".join(cells[:4]))
        for name, cell in zip(header[1:], cells[4:], strict=True):
            table[name][int(cells[1])] = int(cell)
    return table, lines[start + 6]


COMPONENTS = ("win", "kong", "horse", "liability", "penalty", "base")


def test_the_transfers_table_is_the_logged_net_by_component_and_sums_to_zero(replays):
    """C-M1: one row per seat; each shown component is the logged net_<component>, those left out are zero for
    every seat, the components add up to the total, the total is the logged net and sums to 0."""
    columns = set()
    for name, (_, hands) in replays.items():
        for row, lines, _ in hands:
            table, after = _transfers(lines)
            columns |= set(table)
            assert table["total"] == list(row["net"]), (name, row["hand_id"])
            assert sum(table["total"]) == 0
            assert after.startswith("the totals sum to 0")
            for component in COMPONENTS:
                logged = list(row[f"net_{component}"])
                assert table.get(component, [0, 0, 0, 0]) == logged, (name, row["hand_id"], component)
            for seat in range(4):
                assert sum(table[c][seat] for c in COMPONENTS if c in table) == table["total"][seat]
    assert {"win", "kong", "horse", "base", "penalty"} <= columns  # the runs exercise those components


def test_no_python_lists_or_reprs_anywhere_in_the_output(replays):
    for name, (_, hands) in replays.items():
        for row, lines, _ in hands:
            for line in lines:
                for token in ("[", "]", "{", "None", "np.", "array(", "'self_draw'"):
                    assert token not in line, (name, row["hand_id"], line)


@pytest.mark.parametrize("preset", ["jipinghu", "xuezhan", "shuitou"])
def test_rulesets_without_horses_say_so_once(replays, preset):
    for _, lines, _ in replays[preset][1]:
        assert [line for line in lines if "horse" in line] == ["horses: no horses (买马) in this ruleset"]


def test_xuezhan_shows_every_winner_in_order_and_the_shuitou_flowers(replays):
    """血战 (XZ-H): several winners, each on a line of its own in win order; 水头: each seat's flowers (SHT-P2)
    and base 台 (SHT-T1) as the hand ended."""
    for row, lines, _ in replays["xuezhan"][1]:
        wins = [line for line in lines if re.match(r"^  seat \d \S [^\s:]+ wins on ", line)]
        assert [int(line.split()[1]) for line in wins] == list(row["winners"])
    assert any(len(row["winners"]) > 1 for row, _, _ in replays["xuezhan"][1])
    for row, lines, _ in replays["shuitou"][1]:
        start = lines.index("as the hand ended (SHT-P2 flowers, SHT-T1 base 台):")
        for seat in range(4):
            cells = lines[start + 2 + seat].split()
            assert cells[4] == (row["flowers"][seat] or "none") and int(cells[5]) == row["base_tai"][seat]


def test_cli_replay_prints_the_narration(replays, capsys):
    run, hands = replays["tuidaohu"]
    row = next(row for row, _, _ in hands if row["winners"] and row["dealer"] != 0)
    assert main(["replay", str(run), str(row["hand_id"])]) == 0
    text = capsys.readouterr().out
    assert re.search(r"\n  seat +wind +to the dealer +player +dealt\n", text) and "horses (买马): " in text
    assert text.startswith(f"hand {row['hand_id']} ") and "the totals sum to 0" in text and "[" not in text
