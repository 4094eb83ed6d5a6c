"""Re-settlement reads the logged tile notation all at once; what that fast reading does not take (another
spelling, a bad string) goes through ``parse_tiles``: the same hands, or its error."""

import polars as pl
import pytest

from mjsim import ruleset
from mjsim.analysis.resettle import resettle_hands
from mjsim.io.dataset import scan_hands
from mjsim.sim.parallel import RunSpec, simulate

RULES = ruleset("jipinghu")


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    path = tmp_path_factory.mktemp("columns")
    simulate(RunSpec(RULES, ("efficiency",), 60, session_length=6, seed=3), path, workers=1, progress=False)
    return scan_hands(path).sort("hand_id").collect()


def _with_win_hands(hands, texts):
    return hands.with_columns(pl.col("win_hands").list.eval(texts(pl.element())))


def test_notation_with_spaces_is_read_as_parse_tiles_reads_it(hands):
    assert hands["winners"].list.len().sum() > 20
    spaced = _with_win_hands(hands, lambda tiles: tiles.str.replace_all(r"([mpsz])", "$1 "))
    assert spaced["win_hands"].list.first().drop_nulls().str.contains(" ").all()
    assert resettle_hands(spaced, RULES, 6).equals(resettle_hands(hands, RULES, 6))


def test_a_bad_notation_raises_the_parser_error(hands):
    one_winner = pl.col("winners").list.len() == 1
    bad = hands.with_columns(
        pl.when(one_winner & (pl.int_range(pl.len()) == pl.arg_where(one_winner).first()))
        .then(pl.lit(["11111m"])).otherwise(pl.col("win_hands")).alias("win_hands")
    )  # fmt: skip
    with pytest.raises(ValueError, match="'11111m' holds 5 copies of 1m; only 4 exist"):
        resettle_hands(bad, RULES, 6)
