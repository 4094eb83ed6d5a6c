"""Tiles and notation (rules/common.md C-T)."""

import numpy as np
import pytest

from mjsim import tiles


def test_c_t1_c_t2_ids_follow_the_common_order():
    assert tiles.parse_tiles("1m9m1p9p1s9s") == [0, 8, 9, 17, 18, 26]
    assert tiles.parse_tiles("1234567z") == list(range(27, 34))
    assert (tiles.EAST, tiles.WHITE, tiles.RED) == (27, 31, 33)


def test_c_t3_flowers_are_ids_34_to_41():
    assert tiles.parse_tiles("1f8f") == [34, 41]
    assert tiles.tile_name(41) == "8f"


@pytest.mark.parametrize("tile_set, size", [(108, 108), (136, 136), (144, 144)])
def test_c_t4_tile_sets(tile_set, size):
    wall = tiles.tile_set_wall(tile_set)
    assert wall.size == size
    assert np.bincount(wall, minlength=42)[:27].tolist() == [4] * 27


def test_c_t5_round_trip_keeps_order_and_formats_sorted():
    assert tiles.parse_tiles("21m") == [1, 0]
    assert tiles.format_tiles(tiles.parse_tiles("9s1m11z2p")) == "1m2p9s11z"
    counts = tiles.parse_counts("123m456p789s11z")
    assert counts.dtype == np.int8 and counts.sum() == 11
    assert tiles.format_counts(counts) == "123m456p789s11z"


@pytest.mark.parametrize(
    "text, part",
    [
        ("123x", "'x'"),
        ("103m", "0m"),
        ("8z", "8z"),
        ("9f", "9f"),
        ("123", "suit letter"),
        ("m123", "cannot read 'm123'"),
        ("11111m", "5 copies of 1m"),
        ("11f", "2 copies of 1f"),
    ],
)
def test_bad_notation_names_the_bad_part(text, part):
    with pytest.raises(ValueError, match=part):
        tiles.parse_tiles(text)


def test_tile_outside_the_tile_set_is_rejected():
    with pytest.raises(ValueError, match="1z.*108"):
        tiles.parse_counts("123m1z", tile_set=108)


def test_flowers_are_not_part_of_a_hand_shape():
    with pytest.raises(ValueError, match="flower"):
        tiles.parse_counts("123m1f")


@pytest.mark.parametrize(
    "text, kind, ids",
    [
        ("pung:5z", "pung", (31, 31, 31)),
        ("pung:555z", "pung", (31, 31, 31)),
        ("chow:345p", "chow", (11, 12, 13)),
        ("kong:9m", "kong", (8, 8, 8, 8)),
        ("ckong:1z", "ckong", (27, 27, 27, 27)),
    ],
)
def test_c_t5_meld_notation(text, kind, ids):
    meld = tiles.parse_meld(text)
    assert (meld.kind, meld.tiles) == (kind, ids)


@pytest.mark.parametrize("text", ["pong:5z", "chow:135m", "chow:123z", "pung:56z", "kong", "chow:789m1p"])
def test_bad_melds_raise(text):
    with pytest.raises(ValueError):
        tiles.parse_meld(text)
