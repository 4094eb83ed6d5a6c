"""Comparisons that take the players seriously (issue 11): adapted play and balanced seating.

- A variant is re-settled only when no seated policy reads an option it
  changes; otherwise it is re-simulated on the same walls and its effect is
  split into a mechanical part (the base hands re-settled) and a behavioural
  part (the players' response).
- ``--duplicate`` plays every wall in every distinct seating of the policies,
  and pooled tables cluster their standard errors by wall.
"""

import numpy as np
import polars as pl
import pytest

from mjsim.analysis.metrics import seat_table
from mjsim.analysis.variants import (
    adapted_play_split,
    build_variants,
    options_read,
    run_variants,
    seatings,
)
from mjsim.cli import main
from mjsim.io import read_run_info, scan_hands
from mjsim.rules import OPTIONS

E, V, D, R = "efficiency", "value", "defensive", "random"


@pytest.mark.parametrize(
    "policies, count",
    [((E, V, D, R), 24), ((E, E, V, D), 12), ((E, E, V, V), 6), ((E, E, E, V), 4), ((E,), 1), ((E, E, E, E), 1)],
)
def test_balanced_seating_plays_every_distinct_seating_once(policies, count):
    found = [tuple(spec.split(":")[0] for spec in seating) for seating in seatings(policies)]
    given = (tuple(policies) * 4)[:4]
    assert len(found) == count == len(set(found))
    assert found[0] == given  # the given seating first
    for seating in found:
        assert sorted(seating) == sorted(given)


def test_every_option_a_policy_reads_is_a_ruleset_option():
    for policies in ((V,), (D,), (E, V, D, R)):
        assert options_read(policies) <= set(OPTIONS)
    assert options_read((E,)) == frozenset() and options_read((R,)) == frozenset()
    assert "fan" in options_read((V,)) and "liability_twelve_tiles" in options_read((D,))


def test_a_variant_a_seated_policy_reads_is_simulated_with_a_mechanical_counterpart():
    plain = build_variants(["jipinghu"], ["cap=3,5"], policies=(E,))
    assert [(v.label, v.base_label) for v in plain] == [("jipinghu-cap=3", ""), ("jipinghu-cap=5", "jipinghu-cap=3")]
    # the value policy ignores the cap but reads the fan tables, which the 5-fan edition changes
    assert build_variants(["jipinghu"], ["cap=3,5"], policies=(E, V, E, E))[1].base_label == "jipinghu-cap=3"
    adapted = build_variants(["jipinghu", "jipinghu_5fan"], [], policies=(E, V, E, E))
    assert [(v.label, v.base_label, v.mechanical_of) for v in adapted] == [
        ("jipinghu", "", ""),
        ("jipinghu_5fan", "", ""),
        ("jipinghu_5fan~resettled", "jipinghu", "jipinghu_5fan"),
    ]
    liability = build_variants(["jipinghu"], ["liability=on,off"], policies=(D,))
    assert [v.base_label for v in liability] == ["", "", "jipinghu-liability=on"]
    # the cap is not read by the defensive policy: re-settled as before
    assert build_variants(["jipinghu"], ["cap=3,5"], policies=(D,))[1].base_label == "jipinghu-cap=3"


@pytest.fixture(scope="module")
def adapted(tmp_path_factory):
    out = tmp_path_factory.mktemp("adapted")
    variants = build_variants(["jipinghu", "jipinghu_5fan"], [], policies=(V,))
    entries = run_variants(variants, (V,), 400, session_length=4, seed=3, workers=1, out_dir=out, progress=False)
    return entries


def test_the_adapted_play_split_adds_up_and_pairs_on_the_same_walls(adapted):
    split = adapted_play_split(adapted)
    assert split is not None and set(split["part"]) == {"total", "mechanical", "behavioural"}
    for role in ("dealer", "non-dealer"):
        part = {r["part"]: r for r in split.filter(pl.col("role") == role).iter_rows(named=True)}
        assert part["total"]["diff"] == pytest.approx(part["mechanical"]["diff"] + part["behavioural"]["diff"])
        for row in part.values():
            assert row["diff_ci_low"] <= row["diff"] <= row["diff_ci_high"]
    played = scan_hands(adapted[1]["path"]).select("hand_id", "seed").sort("hand_id").collect()
    resettled = scan_hands(adapted[2]["path"]).select("hand_id", "seed").sort("hand_id").collect()
    assert played.equals(resettled)  # the same walls
    assert read_run_info(adapted[2]["path"])["method"] == "re-settled"


def test_no_split_where_no_policy_reads_the_change(tmp_path):
    variants = build_variants(["jipinghu"], ["cap=3,5"], policies=(E,))
    entries = run_variants(variants, (E,), 40, session_length=4, seed=1, workers=1, out_dir=tmp_path, progress=False)
    assert adapted_play_split(entries) is None


def test_pooled_tables_cluster_by_wall(tmp_path):
    from mjsim import ruleset
    from mjsim.sim.parallel import RunSpec, simulate

    simulate(RunSpec(ruleset("jipinghu"), (E,), 400, session_length=4, seed=5), tmp_path / "a", progress=False)
    one = scan_hands(tmp_path / "a")
    twice = pl.concat([one.with_columns(pl.lit(s).alias("seating")) for s in (0, 1)])  # the same walls twice
    single = seat_table(one, "role").filter(pl.col("metric") == "mean_net").sort("role")
    by_hand = seat_table(twice, "role").filter(pl.col("metric") == "mean_net").sort("role")
    by_wall = seat_table(twice, "role", cluster="seed").filter(pl.col("metric") == "mean_net").sort("role")
    assert by_wall["se"].to_list() == pytest.approx(single["se"].to_list())  # two copies of a wall add nothing
    assert np.all(by_hand["se"].to_numpy() < single["se"].to_numpy() * 0.75)  # treating them as independent lies


@pytest.mark.slow
def test_cli_compare_duplicate_plays_each_seating_and_pools_by_policy(tmp_path, capsys):
    out = tmp_path / "dup"
    code = main(["compare", "--vary", "cap=3,5", "--policy", "efficiency;efficiency;random;random", "--duplicate",
                 "--hands", "16", "--session-length", "4", "--workers", "1", "--out", str(out)])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert "every wall in 6 distinct seatings" in text
    runs = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert len(runs) == 12 and "jipinghu-cap=3-seat5" in runs
    table = pl.read_csv(out / "comparison.csv")
    assert set(table["policy"]) == {"efficiency", "random"}
    hands = table.filter(pl.col("metric") == "mean_net").select("label", "policy", "n")
    assert set(hands["n"]) == {16 * 6 * 2}  # 16 walls x 6 seatings x 2 seats of each policy
    cap5 = table.filter((pl.col("label") == "jipinghu-cap=5") & (pl.col("metric") == "mean_net"))
    assert cap5["paired"].to_list() == [True, True]


# ---- policy panels ---------------------------------------------------------------------------------------


def test_the_built_in_panels_load_and_bad_panels_are_clear_errors(tmp_path):
    from mjsim.analysis.panel import load_panel

    default = load_panel("default")
    assert set(default.members) == {"efficiency", "value-low", "value-high", "defensive", "expert", "expert-cautious"}
    assert default.members["expert-cautious"] == "expert:caution=1"
    tables = default.tables()
    assert tables["mixed"] == ("efficiency", "value:greed=0.3", "value:greed=0.8", "defensive")
    assert tables["defensive"] == ("defensive",)
    assert tables["expert"] == ("expert",)
    with pytest.raises(ValueError, match="unknown panel 'nosuch'; panels: default, quick"):
        load_panel("nosuch")
    house = tmp_path / "house.toml"
    house.write_text('[panels.a]\nmembers = { x = "efficiency", y = "genius" }\n')
    with pytest.raises(ValueError, match="unknown policy 'genius'"):
        load_panel(str(house))
    house.write_text('[panels.a]\nmembers = { x = "efficiency", y = "random" }\n[panels.b]\nmembers = {}\n')
    with pytest.raises(ValueError, match="name one as"):
        load_panel(str(house))
    assert load_panel(f"{house}:a").members == {"x": "efficiency", "y": "random"}
    house.write_text('[panels.a]\nmembers = { "../x" = "efficiency", y = "random" }\n')
    with pytest.raises(ValueError, match="must be a plain name"):
        load_panel(str(house))


@pytest.mark.slow
def test_panel_effects_per_member_with_the_range_over_the_panel(tmp_path, capsys):
    out = tmp_path / "panel"
    code = main(["compare", "--panel", "quick", "--ruleset", "jipinghu_5fan", "--vary", "cap=3,5", "--hands", "80",
                 "--session-length", "4", "--workers", "1", "--out", str(out)])  # fmt: skip
    assert code == 0
    assert "range over the panel" in capsys.readouterr().out
    effects = pl.read_csv(out / "panel.csv")
    assert effects["variant"].to_list() == ["jipinghu_5fan-cap=5"] * 2
    for row in effects.iter_rows(named=True):
        members = [row["efficiency"], row["value-high"]]  # the mixed table is not a member
        assert row["lowest"] == min(members) and row["highest"] == max(members)
        assert row["sign_differs"] == (min(members) < 0 < max(members))
    for table in ("efficiency", "value-high", "mixed"):
        assert read_run_info(out / table / "jipinghu_5fan-cap=5")["label"] == "jipinghu_5fan-cap=5"
    assert "Policy panel" in (out / "report.html").read_text(encoding="utf-8")
