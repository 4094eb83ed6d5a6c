"""The ``expert`` policy: legal play on every preset, worked decisions, speed and danger against brute force."""

import itertools
from math import comb

import numpy as np
import pytest
from agenttools import act, observe, response_legal, show, tile, turn_legal

import mjsim
from mjsim.agents import get_policy
from mjsim.agents.base import rules_array
from mjsim.agents.expert import may_win_on_discard
from mjsim.agents.expert_danger import ready_probability, wait_shares
from mjsim.agents.expert_speed import chain_chance, one_away_chance, ready_chance
from mjsim.sim.constants import DISCARD, PASS, RESPONSE, WIN
from mjsim.sim.observation import policy_rules
from mjsim.sim.runner import play_sessions, seat_policies
from mjsim.tiles import parse_counts

PRESETS = ("jipinghu", "jipinghu_5fan", "jipinghu_5fan_min3", "tuidaohu", "tuidaohu_dianpao", "tuidaohu_ghost")


def play(preset, specs, hands=12, seed=5):
    """Every record column of ``hands`` one-hand sessions (the runner raises on any illegal action)."""
    rows = list(play_sessions(mjsim.ruleset(preset), seat_policies(specs), seed=seed, first_session=0,
                              end_session=hands, tables=hands))  # fmt: skip
    return {key: [v for part in rows for v in part[key]] for key in ("hand_id", "winners", "net")}


@pytest.mark.parametrize("preset", PRESETS)
def test_expert_plays_only_legal_actions_on_every_preset(preset):
    cols = play(preset, "expert;efficiency;expert:aggression=0.5,depth=0;value")
    assert len(cols["hand_id"]) == 12


def test_expert_is_deterministic_by_seed():
    a = play("jipinghu_5fan", "expert", hands=8, seed=11)
    b = play("jipinghu_5fan", "expert", hands=8, seed=11)
    assert [list(n) for n in a["net"]] == [list(n) for n in b["net"]]


def test_expert_spec_logs_its_parameters():
    assert get_policy("expert:depth=0").spec == "expert:aggression=8,depth=0,plan_rate=0.8,first_cap=20,caution=0"
    with pytest.raises(ValueError, match="depth"):
        get_policy("expert:depth=2")


def test_jph_f1_expert_keeps_the_wait_that_completes_the_higher_value_hand():
    # 111m234m678m999m + 1z + 9p: either single wait has three tiles unseen; keeping 1z is a half flush
    # (3 fan in the 5-fan edition), keeping 9p a chicken hand
    rules = policy_rules(mjsim.ruleset("jipinghu_5fan"))
    obs = observe("111m234m678m999m1z9p")
    for seed in range(4):
        assert act("expert", obs, turn_legal(obs), rules, seed)[0] == DISCARD + tile("9p")


def test_c_p6_expert_folds_to_a_tile_whose_every_copy_is_visible():
    # an opponent with three sets out and a long river is very likely ready; this hand is far from ready,
    # and 7z (three copies in the rivers) can complete no wait while 6z (none visible) can
    rules = policy_rules(mjsim.ruleset("jipinghu"))
    obs = observe("159m26p2489s13567z", wall_left=30)
    show(obs, 1, river=("2z", "9s", "1p", "7z", "7z", "2m", "8p", "3z", "4z"), melds=("222p", "345s", "777m"))
    show(obs, 2, river=("7z", "1s"))
    for seed in range(4):
        assert act("expert", obs, turn_legal(obs), rules, seed)[0] == DISCARD + tile("7z")


def test_c_p6_a_cautious_expert_folds_a_one_away_hand_that_the_plain_expert_pushes():
    # one away (1235m 456p 69p 55s 78s), 14 tiles left, an opponent with two sets out and a long river; 9p is
    # the efficient discard, 2m (in the opponent's river: almost never its wait) and 5m (every copy visible)
    # are the safe ones.  Pushing on costs the risk of every later discard: with caution 4 that outweighs
    # the hand, so it folds; without it, it pushes
    rules = policy_rules(mjsim.ruleset("jipinghu_5fan"))
    obs = observe("1235m45669p5578s", wall_left=14)
    show(obs, 1, river=("2z", "9s", "1p", "5m", "5m", "2m", "8p", "3z", "4z", "5m"), melds=("222p", "345s"))
    show(obs, 2, river=("7z", "1s"))
    for seed in range(4):
        assert act("expert", obs, turn_legal(obs), rules, seed)[0] == DISCARD + tile("9p")
        assert act("expert:caution=4", obs, turn_legal(obs), rules, seed)[0] in (
            DISCARD + tile("2m"),
            DISCARD + tile("5m"),
        )


def test_tdh_v3_expert_passes_a_discard_win_early_for_a_self_draw_worth_six_times():
    # 推倒胡 [D]: a discard win pays 1 unit, a self-draw 2 from each of three; early, with a two-sided wait,
    # waiting is worth more; with two draws left, the win now is
    rules = policy_rules(mjsim.ruleset("tuidaohu_dianpao"))
    early = observe("111m456m789m11p34s", decision=RESPONSE, target=tile("5s"), target_from=3, wall_left=80)
    assert act("expert", early, response_legal(WIN), rules)[0] == PASS
    late = observe("111m456m789m11p34s", decision=RESPONSE, target=tile("5s"), target_from=3, wall_left=6)
    assert act("expert", late, response_legal(WIN), rules)[0] == WIN


def test_jph_m2_expert_takes_a_discard_win_late_in_the_hand():
    rules = policy_rules(mjsim.ruleset("jipinghu"))
    obs = observe("123m456m789m11p34p", decision=RESPONSE, target=tile("5p"), target_from=3, wall_left=6)
    assert act("expert", obs, response_legal(WIN), rules)[0] == WIN


def seen_orders(pool, seen):
    """Every ordering of the labelled ``pool`` (each equally likely), cut to the first ``seen`` tiles."""
    for order in itertools.permutations(range(len(pool))):
        yield [pool[k] for k in order[:seen]]


@pytest.mark.parametrize("unseen,winners,seen", [(6, 1, 2), (7, 2, 3), (8, 3, 5)])
def test_ready_chance_matches_brute_force(unseen, winners, seen):
    pool = ["w"] * winners + ["x"] * (unseen - winners)
    survive = 0.9
    total = 0.0
    count = 0
    for tiles in seen_orders(pool, seen):
        count += 1
        if "w" in tiles:
            total += survive ** (tiles.index("w") + 1)
    assert ready_chance(unseen, winners, seen, survive) == pytest.approx(total / count)
    assert ready_chance(unseen, winners, seen, 1.0) == pytest.approx(
        1 - comb(unseen - winners, seen) / comb(unseen, seen)
    )


@pytest.mark.parametrize("improvers,winners,others,seen", [(2, 2, 3, 4), (1, 3, 3, 5), (3, 1, 3, 3)])
def test_one_away_chance_matches_brute_force(improvers, winners, others, seen):
    # the hand is ready after its first improver; only a winner after that completes it
    pool = ["i"] * improvers + ["w"] * winners + ["x"] * others
    survive = 0.95
    total = 0.0
    count = 0
    for tiles in seen_orders(pool, seen):
        count += 1
        if "i" in tiles:
            first = tiles.index("i")
            after = tiles[first + 1 :]
            if "w" in after:
                total += survive ** (first + 1 + after.index("w") + 1)
    scratch = np.zeros((2, 16))
    got = one_away_chance(len(pool), improvers, winners, seen, 1.0, survive, scratch[0], scratch[1])
    assert got == pytest.approx(total / count)


def test_one_away_chance_improves_only_on_own_draws():
    # each tile seen is an own draw with chance 1/2: the improver must be an own draw, the winner may be any
    # tile seen.  The brute force spends an improver another player holds; the chance here keeps the
    # improvers fresh, so it is higher (on this 8-tile pool by 14%; on a real pool of ~100 by much less)
    pool = ["i"] * 2 + ["w"] * 2 + ["x"] * 4
    total = 0.0
    count = 0
    for tiles in seen_orders(pool, 6):
        count += 1
        for own in itertools.product((False, True), repeat=6):
            firsts = [k for k in range(6) if tiles[k] == "i" and own[k]]
            if firsts and "w" in tiles[firsts[0] + 1 :]:
                total += 0.5**6
    scratch = np.zeros((2, 16))
    got = one_away_chance(len(pool), 2, 2, 6, 0.5, 1.0, scratch[0], scratch[1])
    every_draw_own = one_away_chance(len(pool), 2, 2, 6, 1.0, 1.0, scratch[0], scratch[1])
    assert total / count < got < 1.15 * total / count
    assert got < every_draw_own


def test_chain_with_no_stage_is_the_ready_chance():
    state = np.zeros(8)
    # every tile seen is an own draw: the ready stage is exactly ready_chance
    assert chain_chance(60, 9, 1.0, 0, 5, 20, 20, 0.97, state, 1.5, np.zeros(64)) == pytest.approx(
        ready_chance(60, 5, 20, 0.97)
    )
    # a stage more is slower even with more tiles accepted now (the later stages do not depend on them)
    assert (
        0
        < chain_chance(60, 30, 1.0, 3, 5, 20, 20, 0.97, state, 1.5, np.zeros(64))
        < chain_chance(60, 20, 1.0, 2, 5, 20, 20, 0.97, state, 1.5, np.zeros(64))
    )


def test_chain_improves_only_on_own_draws():
    state = np.zeros(8)
    # the same 40 tiles seen, but 10 own draws instead of 40: the one improvement stage must come on one of
    # the 10 own draws (pool 80, 76, ..., 44: four tiles leave the pool per own draw), which bounds the chance
    mine = chain_chance(80, 12, 1.0, 1, 6, 10, 40, 1.0, state, 1.5, np.zeros(64))
    all_mine = chain_chance(80, 12, 1.0, 1, 6, 40, 40, 1.0, state, 1.5, np.zeros(64))
    improve_by_own_draws = 1.0 - np.prod([1.0 - 12 / (80 - 4 * j) for j in range(10)])
    assert mine < improve_by_own_draws < all_mine
    # at the ready stage every tile seen counts: 10 steps of 4 tiles ~ 40 tiles (pool 80, 6 winners)
    ready_10 = chain_chance(80, 0, 1.0, 0, 6, 10, 40, 1.0, state, 1.5, np.zeros(64))
    assert ready_10 == pytest.approx(ready_chance(80, 6, 40, 1.0), rel=0.03)


def test_chain_memo_reused_or_refreshed_gives_the_fresh_chance():
    # the memo keeps the last stage's chances between calls; a call with other arguments must refill it, and a
    # call with the same arguments must read it back exactly (the expert's choices may not depend on call order)
    state = np.zeros(8)
    fresh = [chain_chance(80, 12, 1.0, s, w, o, 40, 0.98, state, 1.5, np.zeros(64)) for s, w, o in ARGS_CHAIN]
    memo = np.zeros(64)
    for _ in range(2):
        kept = [chain_chance(80, 12, 1.0, s, w, o, 40, 0.98, state, 1.5, memo) for s, w, o in ARGS_CHAIN]
        assert kept == fresh
    too_many_draws = chain_chance(400, 12, 1.0, 2, 5, 100, 200, 0.99, state, 1.5, memo)
    assert too_many_draws == chain_chance(400, 12, 1.0, 2, 5, 100, 200, 0.99, state, 1.5, np.zeros(64)) > 0


ARGS_CHAIN = [(2, 5, 10), (3, 5, 10), (2, 6, 10), (2, 5, 12), (1, 5, 12), (0, 5, 12)]


def test_wait_shares_of_a_last_single_tile_match_brute_force():
    # four sets out: the opponent waits on its one concealed tile, any unseen copy; with every suited tile
    # visible that is an honour, so the shares are the unseen copies of each honour over all of them
    # (honour singles all weigh the same)
    obs = observe("")
    obs.visible[0, :27] = 4
    obs.visible[0, 27:] = (2, 3, 4, 4, 1, 4, 4)  # unseen 东 2, 南 1, 中 3
    obs.meld_count[0, 1] = 4
    shares = np.zeros(34)
    wait_shares(0, 1, obs.visible, obs.discards, obs.exposed, 4, shares)
    unseen = {27: 2, 28: 1, 31: 3}
    for kind in range(34):
        assert shares[kind] == pytest.approx(unseen.get(kind, 0) / 6)


def test_ready_probability_grows_with_discards_and_exposed_sets():
    for sets in range(4):
        chances = [ready_probability(n, sets) for n in range(25)]
        assert all(a < b for a, b in zip(chances, chances[1:]))
        assert chances[0] < 0.05
    for n in range(25):
        assert all(ready_probability(n, m) < ready_probability(n, m + 1) for m in range(4))


def test_wait_shares_count_a_kind_the_opponent_discarded_at_one_twentieth():
    # no furiten here, but a ready player who draws its winning tile wins with it: what it throws is almost
    # never its wait.  3p and 7p are seen equally often (one copy each, 3p in the opponent's river, 7p in
    # another's); the only difference is who threw it
    obs = observe("")
    show(obs, 1, river=("3p",))
    show(obs, 2, river=("7p",))
    shares = np.zeros(34)
    wait_shares(0, 1, obs.visible, obs.discards, obs.exposed, 0, shares)
    assert shares[tile("3p")] == pytest.approx(0.05 * shares[tile("7p")])


def test_wait_shares_halve_a_kind_whose_suji_partners_the_opponent_discarded():
    # 筋: 4s with both 1s and 7s in the opponent's river against 4p with 1p and 7p in another seat's river
    # (same visibility).  1m has one partner only (4m, thrown by the opponent) against 1p; 5s has one of
    # its two (2s, not 8s), which is not enough, against 5p
    obs = observe("")
    show(obs, 1, river=("1s", "7s", "4m", "2s"))
    show(obs, 2, river=("1p", "7p", "1m", "2p"))
    show(obs, 3, river=("2m",))  # 2m as visible as 2p, for 1m against 1p
    shares = np.zeros(34)
    wait_shares(0, 1, obs.visible, obs.discards, obs.exposed, 0, shares)
    assert shares[tile("4s")] == pytest.approx(0.5 * shares[tile("4p")])
    assert shares[tile("1m")] == pytest.approx(0.5 * shares[tile("1p")])
    assert shares[tile("5s")] == pytest.approx(shares[tile("5p")])


def test_wait_shares_never_count_an_honour_whose_other_copies_are_visible():
    obs = observe("7z")
    show(obs, 2, river=("7z", "7z", "7z"))
    shares = np.zeros(34)
    wait_shares(0, 1, obs.visible, obs.discards, obs.exposed, 0, shares)
    assert shares[tile("7z")] == 0.0
    assert shares[tile("6z")] > 0.0


def test_expert_actions_do_not_depend_on_the_batch_a_row_is_in():
    # ready hands' waits are remembered across rows and calls: each row's action must be the same alone, in a
    # batch, and in a batch in reverse order
    from mjsim.sim.constants import N_ACTIONS, TURN
    from mjsim.sim.observation import empty_observation, take

    rng = np.random.default_rng(5)
    rows = 120
    obs = empty_observation(rows)
    for i in range(rows):
        wall = rng.permutation(136) // 4
        obs.hand[i] = np.bincount(wall[:14], minlength=34)
        for j, kind in enumerate(wall[14 : 14 + rng.integers(0, 50)]):
            obs.discards[i, 1 + j % 3, kind] += 1
        obs.visible[i] = obs.hand[i] + obs.discards[i].sum(axis=0)
        obs.wall_left[i] = 100 - obs.discards[i].sum()
    obs.n_concealed[:] = 14
    obs.sets_needed[:] = 4
    obs.decision[:] = TURN
    obs.target_from[:] = -1
    legal = np.zeros((rows, N_ACTIONS), dtype=bool)
    legal[:, DISCARD : DISCARD + 34] = obs.hand > 0
    rules = policy_rules(mjsim.ruleset("jipinghu"))
    policy, params = get_policy("expert")
    batch = policy.act(obs, legal, np.arange(rows, dtype=np.uint64), params, rules)
    back = np.arange(rows)[::-1]
    reverse = policy.act(take(obs, back), legal[back], np.arange(rows, dtype=np.uint64)[back], params, rules)
    alone = [policy.act(take(obs, [i]), legal[[i]], np.array([i], np.uint64), params, rules)[0] for i in range(rows)]
    assert list(batch) == alone
    assert list(reverse[::-1]) == alone


@pytest.mark.parametrize(
    ("preset", "melds", "may"),
    [
        ("jipinghu_5fan_min3", ("123m", "456p"), False),  # two suits and chows: 平胡 1 at most on a discard
        ("jipinghu_5fan_min3", ("123m", "555p"), False),  # two suits: no flush; a chow: no all pungs
        ("jipinghu_5fan_min3", ("123m", "789m"), True),  # a flush in view (混一色 3)
        ("jipinghu_5fan_min3", ("111m", "555p"), True),  # all pungs in view (碰碰胡 3)
        ("jipinghu_5fan_min3", ("123m", "456p", "777z"), False),  # 中 pung 1 + 平胡 1 = 2 < 3
        ("jipinghu_5fan_min3", ("123m", "456p", "777z", "111z"), True),  # and 东, if it is the seat's: 3
        ("jipinghu_5fan_min1", ("123m", "456p"), True),  # 平胡 (1) still reaches a minimum of 1
        ("jipinghu", ("123m", "456p"), True),  # no minimum
    ],
)
def test_jph_p4_an_opponent_short_of_the_minimum_fan_on_a_discard_takes_no_discard(preset, melds, may):
    rules = policy_rules(mjsim.ruleset(preset))
    obs = observe("")
    show(obs, 1, melds=melds)
    assert may_win_on_discard(0, 1, obs.exposed, obs.meld_count, rules_array(rules)) == may


def test_wait_cache_key_tells_apart_seat_round_melds_wilds_and_wild_kinds():
    # the waits' points depend on all of these (a wind pung's fan, the melds' patterns, a ghost's kind), so two
    # hands alike in their concealed tiles but not in one of them must never share a cached entry
    from mjsim.agents.expert import hand_key
    from mjsim.sim.constants import MELD_CHOW, MELD_PUNG

    H = np.zeros((1, 34), np.int8)
    H[0, :] = parse_counts("123m456p789s1z")[:34]
    MK = np.array([MELD_PUNG, MELD_CHOW, 0, 0, 0, 0, 0, 0], np.int8)
    MT = np.array([tile("5s"), tile("1m"), 0, 0, 0, 0, 0, 0], np.int8)
    no_wild = np.zeros((1, 34), bool)
    ghost = no_wild.copy()
    ghost[0, tile("5z")] = True

    def key(seat=0, round_wind=0, nm=1, wilds=0, wild=no_wild, melds=MK):
        return hand_key(H, 0, wilds, 0, wild, np.array([0, seat, round_wind], np.int64), melds, MT, nm)

    base = key()
    other_meld = MK.copy()
    other_meld[0] = MELD_CHOW
    variants = [key(seat=1), key(round_wind=2), key(nm=2), key(nm=0), key(wilds=1), key(wild=ghost),
                key(melds=other_meld)]  # fmt: skip
    assert base == key()
    assert len({base, *variants}) == 1 + len(variants)


@pytest.mark.parametrize("preset", ["jipinghu", "tuidaohu_ghost"])
def test_expert_actions_do_not_depend_on_what_the_wait_cache_remembers(preset, monkeypatch):
    # the cache of ready hands' waits lives across decisions: a row's action must be the same with a cold
    # one-slot cache (always scored afresh) as with a cache warmed by other tables, seats and melds
    import mjsim.agents.expert as expert

    specs = ["expert"] * 4
    monkeypatch.setattr(expert, "wait_cache", lambda ruleset: expert.new_wait_cache(1))
    cold = play(preset, specs, hands=24, seed=11)
    monkeypatch.undo()
    play(preset, specs, hands=24, seed=12)  # other walls first: the shared cache holds their hands
    warm = play(preset, specs, hands=24, seed=11)
    assert np.array_equal(np.array(warm["net"]), np.array(cold["net"]))
    assert [list(w) for w in warm["winners"]] == [list(w) for w in cold["winners"]]


@pytest.mark.parametrize(("minimum", "reach"), [(0, 1.0), (1, 0.99), (3, 0.03)])
def test_jph_p4_a_concealed_opponent_threatens_a_discard_win_only_as_often_as_it_reaches_the_minimum(minimum, reach):
    # JPH-P4: a discard wins only with the minimum fan; measured on logged play, a concealed ready hand makes
    # 1 fan on a discard 99% of the time and 3 fan 3%.  So a concealed opponent's danger for a tile is that
    # share of the danger it would carry with no minimum, times what its hand pays at the minimum (2**fan)
    from mjsim.agents.expert import danger_table, pay_facts

    def danger(ruleset):
        obs = observe("123m456p789s1122z", wall_left=40)
        show(obs, 1, river=("9m", "1p", "2s", "7z", "6z", "5z", "4z", "9p"))
        D, S, RB = np.zeros(34), np.zeros(34), np.zeros(34)
        danger_table(0, obs.meld_count, obs.exposed, obs.discards, obs.visible, obs.wall_left,
                     rules_array(policy_rules(ruleset)), pay_facts(ruleset), D, S, RB)  # fmt: skip
        return D[tile("5m")]

    base = danger(mjsim.ruleset("jipinghu_5fan", min_fan=0))
    assert base > 0
    assert danger(mjsim.ruleset("jipinghu_5fan", min_fan=minimum)) == pytest.approx(
        base * reach * 2.0 ** max(1, minimum) / 2.0
    )


def test_xz_e2_a_ready_hand_is_worth_the_cha_jiao_it_avoids_when_the_wall_may_run_out():
    """XZ-E2 查叫: where it applies (pay slot P_END_CHECKS), a ready hand's value adds, for the hands not won,
    the 查叫 staying ready is worth at an empty wall (in points: divided by aggression, which scales win
    values) — never more than a win, so a better wait still beats a worse one.  Not outside 血战."""
    from mjsim.agents.expert import END_OPPONENT_READY, END_OPPONENT_VALUE, P_END_CHECKS, pay_facts, ready_value

    assert pay_facts(mjsim.ruleset("xuezhan"))[P_END_CHECKS] == 1
    assert pay_facts(mjsim.ruleset("jipinghu"))[P_END_CHECKS] == 0
    E = np.zeros(79)
    E[0], E[1], E[2], E[3], E[4] = 40, 10, 0.5, 1.0, 8.0  # unseen, seen, self-draw share, survival, aggression
    A, v_self, v_ron = 4, 12.0, 8.0  # four winning tiles unseen: 3 a self-draw, 2 a discard win each
    plain = ready_value(A, v_self, v_ron, E)
    mean = (0.5 * v_self + 0.5 * v_ron) / A
    chance = plain / mean
    assert 0 < chance < 1
    E[78] = 1.5  # the empty wall's weight (chance x others still in)
    end = END_OPPONENT_READY * END_OPPONENT_VALUE + (1 - END_OPPONENT_READY) * v_ron / A
    assert ready_value(A, v_self, v_ron, E) == pytest.approx(plain + (1 - chance) * 1.5 * end / 8.0)
    better = ready_value(A + 2, v_self * 1.5, v_ron * 1.5, E)  # two more winning tiles, same value each
    assert better > ready_value(A, v_self, v_ron, E)
    E[78] = 1e6  # however likely the empty wall, a wait is never worth more than winning on it
    assert ready_value(A, v_self, v_ron, E) <= mean + 1e-12
