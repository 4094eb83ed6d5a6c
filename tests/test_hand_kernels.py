"""Table-driven hand evaluation (C-P5) checked against hand-written cases,
the independent ``mahjong`` package, and brute-force wild substitution."""

import itertools
import os

import numpy as np
import pytest
from handgen import near_complete_hands, uniform_hands
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from mjsim.hand import is_win, shanten, winning_tiles
from mjsim.hand import tables as hand_tables
from mjsim.tiles import parse_counts, parse_tiles

P = parse_counts


@pytest.mark.parametrize(
    "hand, form, expected",
    [
        ("123m456p789s11z222z", "standard", True),
        ("111222333m11z555z", "standard", True),
        ("123m456p789s1z222z", "standard", False),  # 13 tiles
        ("11223344556677z", "seven_pairs", True),
        ("11223344556677z", "standard", False),
        ("11112233445566m", "seven_pairs", True),  # C-P5/TDH-P4: four equal tiles are two pairs
        ("11112233445566m", "seven_pairs_distinct", False),
        ("119m19p19s1234567z", "thirteen_orphans", True),
        ("119m19p19s1234566z", "thirteen_orphans", False),
        ("11223344556677z", "all", True),
        ("111222333444m555s66p", "standard", True),  # C-P5: 17 tiles, five sets + pair
        ("111222333444m556s66p", "standard", False),
        ("55m", "standard", True),  # four melds exposed, pair left
        ("55m789p", "standard", True),
    ],
)
def test_c_p5_winning_shapes(hand, form, expected):
    assert is_win(P(hand), form=form) is expected


@pytest.mark.parametrize(
    "hand, form, expected",
    [
        ("123m456p789s11z222z", "standard", -1),
        ("123m456p789s1z222z", "standard", 0),
        ("123m456p789s1234z", "standard", 2),  # a pair (1 tile) and a pung (2 tiles) to make
        ("1111m", "standard", 1),  # four 1m: a wait on a fifth 1m does not count
        ("159m159p159s1357z", "standard", 8),
        ("159m159p159s1357z", "thirteen_orphans", 3),  # ten of the thirteen kinds, no pair
        ("1122334455667m", "seven_pairs", 0),
        ("11112233445567m", "seven_pairs", 0),
        ("11112233445567m", "seven_pairs_distinct", 1),
    ],
)
def test_shanten_known_values(hand, form, expected):
    assert shanten(P(hand), form=form) == expected


def test_winning_tiles_of_nine_gates_are_every_tile_of_the_suit():
    mask = winning_tiles(P("1112345678999m"), form="standard")
    assert np.flatnonzero(mask).tolist() == list(range(9))


def test_a_wait_on_a_fifth_copy_is_no_wait():
    # 1111m and 9999s could only be completed by a fifth 1m or 9s
    hand = P("1111m234p567s9999s")
    assert not winning_tiles(hand, form="standard").any()
    assert shanten(hand, form="standard") == 1
    assert np.flatnonzero(winning_tiles(P("1111m23m567s789s9s"), form="standard")).tolist() == parse_tiles("69s")


def test_batch_and_single_agree():
    hands = np.stack([P("123m456p789s11z222z"), P("123m456p789s1z2223z")])
    assert is_win(hands).tolist() == [True, False]
    assert shanten(hands).tolist() == [-1, 0]


@pytest.mark.parametrize(
    "counts, message",
    [(np.zeros(33), "shape"), (np.full(34, 5), "0..4"), (np.full((2, 34), -1), "0..4")],
)
def test_bad_counts_raise(counts, message):
    with pytest.raises(ValueError, match=message):
        is_win(counts)


def test_shanten_rejects_tile_counts_that_are_multiples_of_three():
    with pytest.raises(ValueError, match="12 tiles"):
        shanten(P("123m456p789s123z"))


def test_bad_form_and_wilds_raise():
    with pytest.raises(ValueError, match="form 'pairs'"):
        is_win(P("11m"), form="pairs")
    with pytest.raises(ValueError, match="wilds"):
        is_win(P("11m"), wilds=9)


# ---- the independent oracle: the `mahjong` package on 200,000 random hands ----

N_UNIFORM = 100_000
N_NEAR = 100_000


@pytest.fixture(scope="module")
def oracle_hands():
    rng = np.random.default_rng(20261130)
    return np.concatenate([uniform_hands(rng, N_UNIFORM), near_complete_hands(rng, N_NEAR)])


def test_oracle_hands_cover_every_distance(oracle_hands):
    # the near-complete half must exercise complete, ready and 1-2 away hands
    values = shanten(oracle_hands, form="standard")
    assert oracle_hands.shape[0] >= 200_000
    for value in (-1, 0, 1, 2, 3, 4):
        assert (values == value).sum() > 1000


def test_standard_shanten_and_win_match_the_mahjong_package(oracle_hands):
    expected = np.array([Shanten.calculate_shanten_for_regular_hand(h.tolist()) for h in oracle_hands])
    mine = shanten(oracle_hands, form="standard")
    mismatches = np.flatnonzero(mine != expected)
    assert mismatches.size == 0, [(oracle_hands[i].tolist(), expected[i], mine[i]) for i in mismatches[:5]]
    full = oracle_hands.sum(axis=1) == 14
    assert np.array_equal(is_win(oracle_hands[full], form="standard"), expected[full] == -1)


def test_seven_pairs_and_orphans_shanten_match_the_mahjong_package(oracle_hands):
    pairs = np.array([Shanten.calculate_shanten_for_chiitoitsu_hand(h.tolist()) for h in oracle_hands])
    orphans = np.array([Shanten.calculate_shanten_for_kokushi_hand(h.tolist()) for h in oracle_hands])
    full = oracle_hands.sum(axis=1) >= 13
    assert np.array_equal(shanten(oracle_hands[full], form="seven_pairs_distinct"), pairs[full])
    assert np.array_equal(shanten(oracle_hands[full], form="thirteen_orphans"), orphans[full])


def test_is_win_all_forms_matches_the_mahjong_package():
    rng = np.random.default_rng(7)
    agari = Agari()
    hands = near_complete_hands(rng, 20_000, max_swaps=1, drop_share=0.0)
    specials = np.array([P("11223344556677z"), P("119m19p19s1234567z"), P("1199m1199p1199s11z"), P("11112233445566m")])
    hands = np.concatenate([hands, specials])
    expected = np.array([agari.is_agari(h.tolist()) for h in hands])
    mine = is_win(hands, form=("standard", "seven_pairs_distinct", "thirteen_orphans"))
    assert expected.sum() > 5000
    assert np.array_equal(mine, expected)


# ---- wild tiles (C-J1) against brute-force substitution ----


def _brute_force_win(counts, wilds, form):
    """Try every multiset of kinds for the wilds, keeping at most four of a kind."""
    options = np.array(list(itertools.combinations_with_replacement(range(34), wilds)))
    filled = np.repeat(counts[None, :], len(options), axis=0).astype(np.int16)
    for column in range(wilds):
        np.add.at(filled, (np.arange(len(options)), options[:, column]), 1)
    filled = filled[(filled <= 4).all(axis=1)].astype(np.int8)
    return bool(is_win(filled, form=form).any())


@pytest.mark.parametrize("wilds, count", [(1, 400), (2, 300), (3, 60), (4, 8)])
@pytest.mark.parametrize("form", ["standard", "seven_pairs", "seven_pairs_distinct", "thirteen_orphans"])
def test_c_j1_wilds_match_brute_force_substitution(wilds, count, form):
    rng = np.random.default_rng(100 * wilds + len(form))
    if form == "thirteen_orphans":
        hands = np.array([_swap_some(rng, P("119m19p19s1234567z")) for _ in range(count)])
    elif form.startswith("seven_pairs"):
        hands = np.array([_swap_some(rng, _seven_pairs(rng)) for _ in range(count)])
    else:
        hands = near_complete_hands(rng, count, max_swaps=1, drop_share=0.0)
    wins = 0
    for hand in hands:
        real = hand.copy()
        for _ in range(wilds):  # turn real tiles into wilds
            real[rng.choice(np.flatnonzero(real))] -= 1
        got = is_win(real, form=form, wilds=wilds)
        assert got == _brute_force_win(real, wilds, form), (real.tolist(), wilds)
        wins += got
    assert wins > 0
    assert wilds >= 3 or wins < count  # with few wilds both outcomes occur


def _seven_pairs(rng):
    counts = np.zeros(34, dtype=np.int8)
    for kind in rng.choice(34, 7, replace=rng.random() < 0.3):  # sometimes four equal tiles
        counts[kind] += 2
    return counts


def _swap_some(rng, counts):
    counts = counts.copy()
    if rng.random() < 0.5:
        out = rng.choice(np.flatnonzero(counts))
        counts[out] -= 1
        counts[rng.integers(34)] += 1
    return np.minimum(counts, 4)


def test_wild_pair_and_wild_sets():
    assert is_win(P("123m456p789s111z"), wilds=2)  # two wilds as the pair
    assert is_win(P("123m456p11z"), wilds=3)  # three wilds as a set
    assert not is_win(P("1111m"), form="standard", wilds=0)
    assert is_win(P("19m19p19s1234567z"), form="thirteen_orphans", wilds=1)


# ---- tables: generator, cache and checksum ----

PINNED_CHECKSUM = "0f76bc01595cbf1832dd62c032bef9ff3fc1e11cb833216095f65ee20df2e2cc"


def test_tables_checksum_is_pinned():
    suit, honours = hand_tables.load_tables()
    assert hand_tables.table_checksum(suit, honours) == PINNED_CHECKSUM


def test_tables_are_one_read_only_mapping_of_the_cache_file():
    """Worker processes share the tables' pages: every array is a read-only view of the mapped file, and
    the policies' joint table holds the suit and honour ``partial`` rows themselves (no copy)."""
    suit, honours = hand_tables.load_tables()
    joint = hand_tables.joint_partial()
    assert joint.shape == (5**9 + 5**7, 12)
    assert np.shares_memory(suit.partial, joint) and np.shares_memory(honours.partial, joint)
    assert np.array_equal(joint[5**9 + 7].reshape(6, 2), honours.partial[7])
    shape = hand_tables.shape_table()  # the policies' rows: the same need vectors, 32 bytes a row
    assert shape.shape == (5**9 + 5**7, 32) and np.array_equal(shape[:, :12], joint)
    for array in (joint, shape, suit.partial, suit.exact, suit.features, honours.exact, honours.features):
        assert not array.flags.writeable


def test_flipped_byte_in_cache_file_fails_the_checksum(tmp_path):
    source = hand_tables._cache_file()
    data = bytearray(source.read_bytes())
    data[5**9 * 12 // 2] ^= 1  # one entry of the suit partial table
    path = tmp_path / "tables.bin"
    path.write_bytes(bytes(data))
    assert hand_tables._load(path) is None
    data[5**9 * 12 // 2] ^= 1
    shape_start = next(e.offset for e in hand_tables._layout()[0] if e.name == "shape_table")
    data[shape_start + 5**9 * 16 + 12] ^= 1  # one draw_lowers byte of the derived shape table
    path.write_bytes(bytes(data))
    assert hand_tables._load(path) is None
    path.write_bytes(bytes(data[:-1]))  # one byte short
    assert hand_tables._load(path) is None
    assert hand_tables._load(source) is not None


def test_a_verified_cache_file_is_not_hashed_again(tmp_path, monkeypatch):
    path = tmp_path / "tables.bin"
    path.write_bytes(hand_tables._cache_file().read_bytes())
    assert hand_tables._load(path) is not None  # hashed, then stamped
    assert (tmp_path / "tables.bin.verified").exists()

    def no_hash(*args):
        raise AssertionError("a stamped file was hashed again")

    monkeypatch.setattr(hand_tables, "_file_checksum", no_hash)
    assert hand_tables._load(path) is not None


def test_an_edited_verified_cache_file_fails_the_checksum(tmp_path):
    path = tmp_path / "tables.bin"
    data = bytearray(hand_tables._cache_file().read_bytes())
    path.write_bytes(bytes(data))
    assert hand_tables._load(path) is not None  # stamped as it was
    data[5**9 * 12 // 2] ^= 1
    path.write_bytes(bytes(data))  # the same size, a new modification time
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))  # however coarse the clock
    assert hand_tables._load(path) is None


@pytest.mark.slow
def test_corrupt_cache_is_regenerated(tmp_path, monkeypatch):
    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path))
    hand_tables._loaded.cache_clear()
    try:
        path = hand_tables._cache_file()
        path.write_bytes(b"not a table")
        suit, honours = hand_tables.load_tables()
        assert hand_tables.table_checksum(suit, honours) == PINNED_CHECKSUM
        assert hand_tables._load(path) is not None  # rewritten intact
    finally:
        hand_tables._loaded.cache_clear()
