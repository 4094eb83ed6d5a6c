"""One engine build for each family group, holding only its own families' scorers and settlements (issue 15,
a first run's compile; :mod:`mjsim.sim.families`)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from numba import typeof, types

from mjsim.rules import preset_names, ruleset
from mjsim.sim.families import (
    EVERY_PHASE,
    FAMILY_IDS,
    FLOWERS,
    JIPINGHU,
    SETUP,
    SHUITOU,
    SPLIT,
    TUIDAOHU,
    XUEZHAN,
    compiles_for,
    compiles_phase,
    group_of,
    phases_of,
)
from mjsim.sim.runner import play_sessions, seat_policies
from mjsim.sim.state import (
    GuangdongEveryPhaseParams,
    GuangdongParams,
    ShuitouEveryPhaseParams,
    ShuitouParams,
    XuezhanParams,
    engine_params,
)


def test_the_families_keep_their_integer_ids():
    # the logs' family column and the policies read these integers
    assert FAMILY_IDS == {"jipinghu": 0, "tuidaohu": 1, "xuezhan": 2, "shuitou": 3}
    assert (JIPINGHU, TUIDAOHU, XUEZHAN, SHUITOU) == (0, 1, 2, 3)
    assert engine_params(ruleset("tuidaohu_ghost")).family == 1


def test_jipinghu_and_tuidaohu_share_a_build_and_the_others_have_their_own():
    assert group_of("jipinghu") == group_of("tuidaohu") == "guangdong"
    assert type(engine_params(ruleset("tuidaohu_dianpao"))) is GuangdongParams
    assert type(engine_params(ruleset("xueliu"))) is XuezhanParams
    assert type(engine_params(ruleset("shuitou"))) is ShuitouParams
    assert typeof(engine_params(ruleset("jipinghu"))) == typeof(engine_params(ruleset("tuidaohu")))
    assert typeof(engine_params(ruleset("jipinghu"))) != typeof(engine_params(ruleset("xuezhan")))


def test_a_group_build_holds_its_own_families_and_a_run_time_family_holds_all():
    guangdong = typeof(engine_params(ruleset("tuidaohu")))
    assert compiles_for(guangdong, JIPINGHU) and compiles_for(guangdong, TUIDAOHU)
    assert not compiles_for(guangdong, XUEZHAN, SHUITOU)
    assert compiles_for(typeof(engine_params(ruleset("shuitou"))), XUEZHAN, SHUITOU)
    assert all(compiles_for(types.int64, family) for family in (JIPINGHU, TUIDAOHU, XUEZHAN, SHUITOU))


def test_each_group_build_holds_the_phases_its_presets_play():
    assert phases_of(ruleset("jipinghu")) == frozenset()
    assert phases_of(ruleset("xuezhan_dingque")) == {SETUP}  # XZ-H1 换三张, XZ-H2 定缺
    assert phases_of(ruleset("shuitou")) == {FLOWERS, SPLIT}  # SHT-P2 补花, SHT-P7 分牌
    assert type(engine_params(ruleset("xuezhan"))) is type(engine_params(ruleset("xuezhan_dingque"))) is XuezhanParams
    jipinghu = typeof(engine_params(ruleset("jipinghu")))
    assert not any(compiles_phase(jipinghu, phase) for phase in EVERY_PHASE)
    assert compiles_phase(typeof(engine_params(ruleset("xueliu"))), SETUP)
    for name in preset_names():  # no preset needs a group's every-phase build
        params = engine_params(ruleset(name))
        assert phases_of(ruleset(name)) <= type(params).PHASES, name
        assert type(params).PHASES != EVERY_PHASE, name


def test_a_ruleset_playing_a_phase_outside_its_groups_gets_the_every_phase_build():
    assert type(engine_params(ruleset("jipinghu", exchange_three=True))) is GuangdongEveryPhaseParams
    assert type(engine_params(ruleset("tuidaohu", tile_set=144))) is GuangdongEveryPhaseParams
    assert type(engine_params(ruleset("shuitou", exchange_three=True))) is ShuitouEveryPhaseParams
    assert all(compiles_phase(typeof(engine_params(ruleset("jipinghu", split_tiles_at=8))), phase)
               for phase in EVERY_PHASE)  # fmt: skip


@pytest.mark.slow
def test_jipinghu_with_the_exchange_plays_it():
    # XZ-H1 换三张 set on a 鸡平胡 ruleset: the Guangdong every-phase build passes three tiles a seat
    rules = ruleset("jipinghu", exchange_three=True)
    (columns,) = play_sessions(rules, seat_policies("efficiency"), seed=5, first_session=0, end_session=3,
                               as_arrow=True)  # fmt: skip
    assert columns["pass_offset"].null_count == 0
    assert set(columns["pass_offset"].to_pylist()) <= {1, 2, 3}
    for seats in columns["passed_tiles"].to_pylist():  # three tiles of one suit a seat, e.g. 159s
        assert all(len(tiles) == 4 and tiles[:3].isdigit() and tiles[3] in "mps" for tiles in seats), seats


def test_the_params_keep_numbas_fast_typing():
    # numba types a NamedTuple of plain fields in C; a field of any other type sends every call to Python's
    # typing of all 76 fields (23x slower): the family must stay a plain int
    params = engine_params(ruleset("xuezhan"))
    assert all(type(v) in (bool, int, float) or isinstance(v, (np.ndarray, np.generic)) for v in params)


def test_an_unknown_family_is_refused_by_name():
    with pytest.raises(ValueError, match=r"family 'riichi' is not one of \['jipinghu', 'shuitou'"):
        group_of("riichi")


# Compiles settlement and the scorer for one ruleset on an empty numba cache (the hand tables stay cached),
# then says which families' functions numba compiled.
_COMPILED_FAMILIES = """
import json, sys
import numpy as np
from mjsim.rules import preset_names, ruleset
from mjsim.sim import fastscore, fastscore_sht, fastscore_tdh, fastscore_xz, settle
from mjsim.sim.fastscore import N_PATTERNS
from mjsim.sim.fastscore_sht import CTX_LEN
from mjsim.sim.scoring import score_win, scoring
from mjsim.sim.state import MAX_MELDS, allocate_state, engine_params

rules = ruleset(sys.argv[1])
p, sc, st = engine_params(rules), scoring(rules), allocate_state(1)
settle.settle(st, p, sc, 0)
counts = np.zeros(34, np.int8)
melds = np.zeros(MAX_MELDS, np.int8)
score_win(p, sc, counts, 0, counts, 0, melds, melds, 0, 0, 0, 0, 0,
          np.zeros(N_PATTERNS, np.int8), np.zeros(34, np.int64), np.zeros(CTX_LEN, np.int64))
functions = {
    "jipinghu": (fastscore.score_jipinghu, settle.settle_jipinghu),
    "tuidaohu": (fastscore_tdh.score_tuidaohu, settle.settle_tuidaohu),
    "xuezhan": (fastscore_xz.score_xuezhan, settle.settle_xuezhan),
    "shuitou": (fastscore_sht.score_shuitou, settle.settle_shuitou),
}
print(json.dumps({family: [bool(f.signatures) for f in fs] for family, fs in functions.items()}))
"""


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "families"), [("jipinghu", {"jipinghu", "tuidaohu"}), ("xuezhan", {"xuezhan"})])
def test_a_ruleset_compiles_only_its_groups_scorers_and_settlements(tmp_path, preset, families):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _COMPILED_FAMILIES, preset], env=env, capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    compiled = json.loads(done.stdout.strip().splitlines()[-1])
    assert compiled == {family: [family in families] * 2 for family in FAMILY_IDS}


# Plays one 鸡平胡 hand on an empty numba cache, then says which of the optional phases' helpers numba compiled.
_COMPILED_PHASES = """
import json
from mjsim.rules import preset_names, ruleset
from mjsim.sim import engine
from mjsim.sim.runner import play_sessions, seat_policies

for _ in play_sessions(ruleset("jipinghu"), seat_policies("random"), seed=0, first_session=0, end_session=1):
    pass
helpers = (engine._setup_legal, engine._apply_setup, engine._replace_dealt_flowers, engine._flower_replaced,
           engine._split, engine._draw)
print(json.dumps({f.py_func.__name__: bool(f.signatures) for f in helpers}))
"""


@pytest.mark.slow
def test_the_guangdong_build_compiles_no_exchange_flowers_or_split(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _COMPILED_PHASES], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    compiled = json.loads(done.stdout.strip().splitlines()[-1])
    assert compiled == {"_setup_legal": False, "_apply_setup": False, "_replace_dealt_flowers": False,
                        "_flower_replaced": False, "_split": False, "_draw": True}  # fmt: skip
