"""`mjsim simulate` and `mjsim replay` end to end: Parquet runs, worker-independence, errors."""

import numpy as np
import polars as pl
import pytest

from mjsim import ruleset
from mjsim.cli import main
from mjsim.io import read_hands, read_run_info
from mjsim.io.schema import COLUMNS
from mjsim.sim.parallel import RunSpec, simulate
from mjsim.sim.replay import replay_hand


def _run(tmp_path, name, workers, monkeypatch, hands=240):
    # several chunks, so workers really split the run
    spec = RunSpec(ruleset("jipinghu"), ("efficiency", "random", "efficiency", "defensive"), hands,
                   session_length=4, seed=9, run_id="fixed", chunk_hands=80)  # fmt: skip
    simulate(spec, tmp_path / name, workers=workers, progress=False)
    return read_hands(tmp_path / name)


def test_same_seed_same_rows_whatever_the_number_of_workers(tmp_path, monkeypatch):
    one = _run(tmp_path, "w1", 1, monkeypatch)
    two = _run(tmp_path, "w2", 2, monkeypatch)
    assert one.height == 240
    assert one.equals(two)
    files_one = sorted(p.name for p in (tmp_path / "w1").glob("part-*.parquet"))
    assert files_one == sorted(p.name for p in (tmp_path / "w2").glob("part-*.parquet"))
    assert len(files_one) == 3


def test_logs_follow_the_schema(tmp_path, monkeypatch):
    hands = _run(tmp_path, "schema", 1, monkeypatch)
    assert hands.columns == list(COLUMNS)
    assert hands["hand_id"].n_unique() == hands.height
    policies = hands["policies"][0].to_list()
    assert policies[:3] == ["efficiency", "random", "efficiency"] and policies[3].startswith("defensive")
    nets = np.array(hands["net"].to_list())
    assert np.all(nets.sum(axis=1) == 0)
    draws = hands.filter(pl.col("winners").list.len() == 0)
    assert draws["discarder"].null_count() == draws.height
    info = read_run_info(tmp_path / "schema")
    assert info["hands"] == 240 and info["seed"] == 9 and info["ruleset_hash"] == ruleset("jipinghu").content_hash


def test_replay_reproduces_the_logged_hand(tmp_path, monkeypatch):
    hands = _run(tmp_path, "replay", 1, monkeypatch)
    for hand_id in (0, 5, 101, 239):
        logged = hands.filter(pl.col("hand_id") == hand_id).row(0, named=True)
        lines, record, differences = replay_hand(tmp_path / "replay", hand_id)
        assert differences == []
        assert record["winners"] == logged["winners"]
        assert record["fan"] == logged["fan"]
        assert [int(x) for x in record["net"]] == list(logged["net"])
        assert lines[0].startswith(f"hand {hand_id} ")


@pytest.mark.parametrize("preset", ["xuezhan_dingque", "xueliu"])
def test_replay_reproduces_xuezhan_hands_with_the_exchange_and_the_declarations(tmp_path, preset):
    """XZ-H1 / XZ-H2 / XZ-H7: the replay plays the passes and the 定缺 declarations again and reaches the
    logged outcome; it narrates twelve passes, four declarations and the direction."""
    out = tmp_path / preset
    assert main(["simulate", "--ruleset", preset, "--hands", "16", "--policy", "expert;random;value;defensive",
                 "--seed", "4", "--out", str(out), "-q"]) == 0  # fmt: skip
    for hand_id in (0, 7, 15):
        lines, record, differences = replay_hand(out, hand_id)
        assert differences == []
        assert sum("(换三张)" in line for line in lines) == 12
        assert sum("void (定缺)" in line for line in lines) == 4
        assert any(line.startswith("  换三张: each seat passes three tiles to its ") for line in lines)


def test_cli_simulate_prints_a_summary(tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["simulate", "--hands", "200", "--policy", "efficiency", "--seed", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "200 hands of jipinghu" in text and "win rate" in text and "draw rate" in text
    assert main(["simulate", "--hands", "200", "--out", str(out)]) == 2  # would overwrite: refused
    assert "already holds a run" in capsys.readouterr().err
    assert main(["simulate", "--hands", "200", "--out", str(out), "--overwrite"]) == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--hands", "10", "--session-length", "4"], "not a multiple"),
        (["--hands", "0"], "at least 1"),
        (["--policy", "genius"], "unknown policy 'genius'"),
        (["--ruleset", "nosuch"], "nosuch"),
    ],
)
def test_cli_simulate_rejects_bad_input_with_a_clear_message(tmp_path, capsys, args, message):
    assert main(["simulate", "--out", str(tmp_path / "x"), *args]) == 2
    assert message in capsys.readouterr().err


def test_cli_simulate_refuses_flowers_outside_shuitou_with_a_clear_message(tmp_path, capsys):
    house = tmp_path / "flowery.toml"
    house.write_text('name = "flowery"\nfamily = "jipinghu"\ntile_set = 144\n', encoding="utf-8")
    assert main(["simulate", "--out", str(tmp_path / "x"), "--ruleset", str(house)]) == 2
    assert "tile_set=144 (flowers) outside the shuitou family" in capsys.readouterr().err


def test_cli_simulate_plays_shuitou(tmp_path, capsys):
    assert main(["simulate", "--ruleset", "shuitou", "--hands", "40", "--out", str(tmp_path / "sht"), "-q"]) == 0
    import polars as pl

    hands = pl.read_parquet(tmp_path / "sht" / "*.parquet")
    assert hands.height == 40 and hands["base_tai"].null_count() == 0


def test_cli_replay_unknown_hand(tmp_path, monkeypatch, capsys):
    _run(tmp_path, "r", 1, monkeypatch)
    assert main(["replay", str(tmp_path / "r"), "99999"]) == 2
    assert "hand 99999 is not in" in capsys.readouterr().err
