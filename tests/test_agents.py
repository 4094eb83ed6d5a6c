"""Policies (mjsim.agents): legality on random observations, hand-written decisions, determinism, specs.

Expected actions are worked out by hand in the comments (shanten counted as
"tiles to add for four sets and a pair, minus one"); shanten values used as
a check come from mjsim.hand, which the policies do not call.
"""

import zlib

import agenttools
import numpy as np
import pytest
from agenttools import observe, response_legal, show, tile, turn_legal

from mjsim.agents import POLICIES, get_policy, parse_policy
from mjsim.hand import shanten
from mjsim.rules import load_preset
from mjsim.sim.constants import (
    AKONG,
    CHOW_MID,
    CKONG,
    DISCARD,
    KONG,
    N_ACTIONS,
    PASS,
    PUNG,
    RESPONSE,
    ROB,
    TURN,
    WIN,
)
from mjsim.sim.observation import empty_observation, policy_rules
from mjsim.tiles import parse_counts

JPH = policy_rules(load_preset("jipinghu"))
JPH_MIN1 = policy_rules(load_preset("jipinghu_5fan_min1"))
PRESETS = ["jipinghu", "jipinghu_5fan_min3", "tuidaohu", "xuezhan", "shuitou"]


def act(spec, obs, legal, rules=JPH, seed=0):
    return agenttools.act(spec, obs, legal, rules, seed)


def discards_of(spec, obs, legal, rules=JPH, seeds=range(8)):
    return agenttools.discards_of(spec, obs, legal, rules, seeds)


# --- every policy, any observation -----------------------------------------------------------


def random_observations(rng, rows):
    obs = empty_observation(rows)
    obs.hand[:] = rng.integers(0, 5, (rows, 34)) * (rng.random((rows, 34)) < 0.35)
    obs.n_concealed[:] = obs.hand.sum(axis=1)
    obs.sets_needed[:] = rng.integers(0, 6, rows)
    obs.exposed[:] = rng.integers(0, 5, (rows, 4, 34)) * (rng.random((rows, 4, 34)) < 0.05)
    obs.meld_count[:] = rng.integers(0, 5, (rows, 4))
    obs.discards[:] = rng.integers(0, 3, (rows, 4, 34)) * (rng.random((rows, 4, 34)) < 0.2)
    obs.visible[:] = np.minimum(4, obs.hand + obs.exposed.sum(axis=1) + obs.discards.sum(axis=1))
    obs.wall_left[:] = rng.integers(0, 120, rows)
    obs.seat_offset[:] = rng.integers(0, 4, rows)
    obs.round_wind[:] = rng.integers(0, 4, rows)
    obs.decision[:] = rng.integers(0, 3, rows)
    obs.target[:] = rng.integers(-1, 34, rows)
    obs.target_from[:] = rng.integers(-1, 4, rows)
    legal = rng.random((rows, N_ACTIONS)) < rng.random((rows, 1)) * 0.3
    legal[np.arange(rows), rng.integers(0, N_ACTIONS, rows)] = True  # at least one legal action
    return obs, legal


def dealt_observations(rng, rows):
    """Consistent observations: dealt hands, kinds held are the legal discards, some claims."""
    obs = empty_observation(rows)
    walls = rng.random((rows, 136)).argsort(axis=1) // 4
    decision = rng.integers(0, 2, rows)
    legal = np.zeros((rows, N_ACTIONS), dtype=bool)
    for i in range(rows):
        size = 14 if decision[i] == TURN else 13
        obs.hand[i] = np.bincount(walls[i, :size], minlength=34)
        obs.target[i] = walls[i, size]
        if decision[i] == TURN:
            legal[i, :34] = obs.hand[i] > 0
            legal[i, CKONG : CKONG + 34] = obs.hand[i] == 4
        else:
            t = obs.target[i]
            legal[i, PASS] = True
            legal[i, PUNG] = obs.hand[i, t] >= 2
            legal[i, KONG] = obs.hand[i, t] >= 3
            obs.visible[i, t] += 1
    obs.visible[:] += obs.hand
    obs.n_concealed[:] = obs.hand.sum(axis=1)
    obs.sets_needed[:] = 4
    obs.decision[:] = decision
    obs.wall_left[:] = 70
    return obs, legal


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_returns_a_legal_int16_action_per_row(name, preset):
    rules = policy_rules(load_preset(preset))
    policy = POLICIES[name]
    rng = np.random.default_rng(zlib.crc32(f"{name}/{preset}".encode()))
    for make in (random_observations, dealt_observations):
        obs, legal = make(rng, 400)
        actions = policy.act(obs, legal, np.arange(400, dtype=np.uint64), policy.defaults(), rules)
        assert actions.dtype == np.int16 and actions.shape == (400,)
        assert legal[np.arange(400), actions].all()


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_same_rng_state_gives_the_same_actions(name):
    policy = POLICIES[name]
    obs, legal = dealt_observations(np.random.default_rng(5), 300)
    first_rng = np.arange(300, dtype=np.uint64) * np.uint64(7919)
    second_rng = first_rng.copy()
    first = policy.act(obs, legal, first_rng, policy.defaults(), JPH)
    second = policy.act(obs, legal, second_rng, policy.defaults(), JPH)
    assert (first == second).all()
    assert (first_rng == second_rng).all()  # the streams advanced alike


@pytest.mark.parametrize("name", ["efficiency", "value", "defensive"])
def test_always_wins_when_the_win_is_legal(name):
    obs, legal = dealt_observations(np.random.default_rng(9), 200)
    obs.decision[:100] = ROB  # robbing a kong, too
    legal[:, WIN] = True
    assert (act(name, obs, legal) == WIN).all()


# --- efficiency ------------------------------------------------------------------------------


def test_efficiency_discards_an_isolated_honour_not_a_set_tile():
    # 123m 456p 789s + 1z 2z 33z + drawn 4z: any lone honour keeps 3 sets, the 33z pair and two
    # honours (shanten 1); a suited tile breaks a set.  The three lone honours tie exactly.
    obs = observe("123m456p789s1z2z33z4z")
    assert discards_of("efficiency", obs, turn_legal(obs)) <= {tile("1z"), tile("2z"), tile("4z")}


def test_efficiency_keeps_a_ready_hand_ready():
    # 123m 456p 789s 23s 11z + drawn 9m: only 9m leaves a ready hand (waiting on 1s/4s)
    obs = observe("123m456p789s23s11z9m", target=tile("9m"))
    assert discards_of("efficiency", obs, turn_legal(obs)) == {tile("9m")}


def test_efficiency_ukeire_prefers_the_wider_wait():
    # 123p 456p 789s 11z + 3m 5m 6m: discarding 3m waits on 4m/7m (8 tiles), discarding 6m on 4m only
    # (4 tiles); discarding 5m is not ready.  Both ready, so ukeire decides: 3m.
    obs = observe("356m123456p789s11z")
    assert discards_of("efficiency", obs, turn_legal(obs)) == {tile("3m")}


def test_efficiency_ukeire_counts_only_unseen_tiles():
    # 357m 123p 456p 789s 11z: discarding 7m waits on 4m, discarding 3m on 6m (5m leaves 37m, not
    # ready).  Four copies each: a tie, broken at random.  With three 4m in sight 3m's wait is wider;
    # with three 6m in sight 7m's is.
    obs = observe("357m123456p789s11z")
    assert discards_of("efficiency", obs, turn_legal(obs), seeds=range(40)) == {tile("3m"), tile("7m")}
    obs = observe("357m123456p789s11z")
    show(obs, 2, river=["4m", "4m", "4m"])
    assert discards_of("efficiency", obs, turn_legal(obs)) == {tile("3m")}
    obs = observe("357m123456p789s11z")
    show(obs, 1, river=["6m", "6m", "6m"])
    assert discards_of("efficiency", obs, turn_legal(obs)) == {tile("7m")}


def _pair_rich_wall(rng):
    """A shuffled wall whose first 14 tiles hold five or six pairs (seven pairs within reach)."""
    tiles = list(rng.permutation(136) // 4)
    hand = []
    for kind in rng.choice(34, size=int(rng.integers(5, 7)), replace=False):
        for _ in range(2):
            tiles.remove(kind)
            hand.append(kind)
    while len(hand) < 14:
        hand.append(tiles.pop())
    return np.array(hand + tiles)


@pytest.mark.parametrize("deal", ["random", "pair_rich"])
@pytest.mark.parametrize("preset, form", [("jipinghu", ("standard", "thirteen_orphans")), ("tuidaohu", "all")])
def test_efficiency_discard_is_best_by_brute_force(preset, form, deal):
    # oracle: mjsim.hand.shanten on every (discard, draw) pair; the policy's discard must have the
    # lowest shanten, the most unseen tiles that lower it, and among those prefer honours > terminals.
    # Pair-rich hands make seven pairs the best or an equal form (its ukeire path).
    rows = 60
    obs, _ = dealt_observations(np.random.default_rng(11), rows)
    obs.decision[:] = TURN
    rng = np.random.default_rng(12)
    walls = rng.random((rows, 136)).argsort(axis=1) // 4
    if deal == "pair_rich":
        walls = np.array([_pair_rich_wall(rng) for _ in range(rows)])
    for i in range(rows):
        obs.hand[i] = np.bincount(walls[i, :14], minlength=34)
        obs.visible[i] = obs.hand[i] + np.bincount(walls[i, 14:40], minlength=34)
    legal = np.zeros((rows, N_ACTIONS), dtype=bool)
    legal[:, :34] = obs.hand > 0
    chosen = act("efficiency", obs, legal, rules=policy_rules(load_preset(preset)))
    eye = np.eye(34, dtype=np.int8)
    for i in range(rows):
        held = np.flatnonzero(obs.hand[i])
        after = obs.hand[i] - eye[held]
        sh = shanten(after, form=form)
        unseen = 4 - obs.visible[i]
        ukeire = np.zeros(held.size, dtype=int)
        for j in np.flatnonzero(sh == sh.min()):
            draws = np.flatnonzero((unseen > 0) & (after[j] < 4))
            lower = shanten(after[j] + eye[draws], form=form) < sh[j]
            ukeire[j] = unseen[draws][lower].sum()
        best = (sh == sh.min()) & (ukeire == ukeire[sh == sh.min()].max())
        rank = np.array([2 if t >= 27 else int(t % 9 in (0, 8)) for t in held])
        best &= rank == rank[best].max()
        assert chosen[i] in held[best], (i, chosen[i], held[best])
    if deal == "pair_rich":  # the rows do reach the seven-pairs path
        assert (shanten(obs.hand, form="seven_pairs") <= shanten(obs.hand, form="standard")).sum() >= 20


def test_efficiency_declares_a_concealed_kong_that_keeps_the_shanten():
    # 1111m 456p 789s 23s 55s: the kong leaves 456p 789s 23s 55s, still ready (shanten 0 either way)
    obs = observe("1111m456p789s23s55s")
    assert act("efficiency", obs, turn_legal(obs, [CKONG + tile("1m")]))[0] == CKONG + tile("1m")


def test_efficiency_skips_a_kong_that_raises_the_shanten():
    # 1111 2345m 456p 11z + 9s: discarding 9s is ready (111m 123m 45m 456p 11z); kong 1m would leave
    # 2345m 456p 9s 11z, one step further (shanten 1)
    obs = observe("11112345m456p9s11z")
    assert act("efficiency", obs, turn_legal(obs, [CKONG + tile("1m")]))[0] == DISCARD + tile("9s")


def test_efficiency_adds_a_kong_that_keeps_the_shanten():
    # an exposed 5p pung (one meld, three sets to make): 123m 456s 789s 5p 1z; adding 5p to the pung
    # leaves a single wait on 1z, as discarding 5p would (shanten 0 either way)
    obs = observe("123m456789s5p1z", melds=1)
    obs.exposed[0, 0, tile("5p")] = 3
    assert act("efficiency", obs, turn_legal(obs, [AKONG + tile("5p")]))[0] == AKONG + tile("5p")


def test_efficiency_pungs_when_it_lowers_the_shanten():
    # 123m 456p 789s 77z 5s 1z (shanten 1: a set and the pair to make); pung 7z, discard 1z: ready
    obs = observe("123m456p789s77z5s1z", decision=RESPONSE, target=tile("7z"), target_from=2)
    assert act("efficiency", obs, response_legal(PUNG))[0] == PUNG


def test_efficiency_passes_when_the_claim_does_not_gain():
    # ready hand 123m 456p 789s 23s 55s; pung 5s then discard leaves a single wait: still ready
    obs = observe("123m456p789s23s55s", decision=RESPONSE, target=tile("5s"), target_from=2)
    assert act("efficiency", obs, response_legal(PUNG))[0] == PASS


def test_efficiency_chows_when_it_lowers_the_shanten():
    # 123m 456p 57s 11p 9s 3z 4z: shanten 2; chow 6s (5s 6s 7s), discard 3z: 123m 456p 11p 9s 4z, shanten 1
    obs = observe("123m456p11p579s34z", decision=RESPONSE, target=tile("6s"), target_from=3)
    assert act("efficiency", obs, response_legal(CHOW_MID))[0] == CHOW_MID


# --- value -----------------------------------------------------------------------------------


FLUSH_HAND = "1234567899m45p22z"  # 2z is nobody's wind here (seat and round wind are 1z)


def test_value_discards_off_suit_toward_a_flush_when_greedy():
    # discarding 9m is ready (123 456 789m 45p 22z) but a chicken hand; discarding 4p or 5p is one step
    # from ready and also one step from a half flush (123 456 78 99m 22z: 2 fan in jipinghu).
    obs = observe(FLUSH_HAND)
    assert discards_of("efficiency", obs, turn_legal(obs)) == {tile("9m")}
    assert discards_of("value:greed=0.9", obs, turn_legal(obs)) <= {tile("4p"), tile("5p")}


def test_value_with_little_greed_takes_the_ready_hand():
    obs = observe(FLUSH_HAND)
    assert discards_of("value:greed=0.1", obs, turn_legal(obs)) == {tile("9m")}


def test_value_keeps_a_dragon_pair_when_the_minimum_fan_needs_it():
    # four pairs (44m 11p 99s 55z), 456p, 2p 1s 3s: every discard leaves shanten 2, so one pair can go;
    # with a minimum fan of 1 the 5z pair (a dragon pung is a fan) stays even at greed 0
    hand = "44m112456p1399s55z"
    obs = observe(hand)
    chosen = discards_of("value:greed=0", obs, turn_legal(obs), rules=JPH_MIN1)
    assert tile("5z") not in chosen
    for kind in chosen:
        counts = parse_counts(hand)
        counts[kind] -= 1
        assert shanten(counts) == 2


def test_value_keeps_a_dragon_pair_over_an_isolated_middle_tile():
    # 44m 8m 11p 456p 1s 5s 99s 55z: the lone 8m, 1s, 5s can go at shanten 2; breaking 55z costs a step
    obs = observe("448m11456p1599s55z")
    chosen = discards_of("value", obs, turn_legal(obs), rules=JPH_MIN1)
    assert chosen <= {tile("8m"), tile("1s"), tile("5s")}


def test_value_pungs_a_dragon_even_without_speed_gain():
    # ready hand 123m 456p 789s 66z 23s: pung 6z gains no shanten, but a dragon pung is a fan
    obs = observe("123m456p789s66z23s", decision=RESPONSE, target=tile("6z"), target_from=2)
    assert act("efficiency", obs, response_legal(PUNG))[0] == PASS
    assert act("value", obs, response_legal(PUNG))[0] == PUNG


def test_value_does_not_chow_away_a_concealed_hand_under_a_minimum_fan():
    # the chow of the efficiency test above gains a step but leaves a hand with no fan
    obs = observe("123m456p11p579s34z", decision=RESPONSE, target=tile("6s"), target_from=3)
    assert act("value", obs, response_legal(CHOW_MID), rules=JPH_MIN1)[0] == PASS
    assert act("efficiency", obs, response_legal(CHOW_MID), rules=JPH_MIN1)[0] == CHOW_MID


# --- defensive -------------------------------------------------------------------------------


NO_TWELVE = JPH._replace(liability_twelve_tiles=False)


FAR = "1559m258p369s14z77z"  # 1m 55m 9m 2p 5p 8p 3s 6s 9s 1z 4z 77z: far from ready


def far_hand():
    return observe(FAR)


def test_defensive_plays_like_efficiency_without_a_threat():
    obs = far_hand()
    show(obs, 2, river=["5m"])
    assert discards_of("defensive", obs, turn_legal(obs), rules=NO_TWELVE) == discards_of(
        "efficiency", obs, turn_legal(obs), rules=NO_TWELVE
    )


def test_defensive_discards_the_threatening_players_own_discard():
    # opponent 2 shows three melds; the only held kind in their river is 2p: discard it
    obs = far_hand()
    show(obs, 2, river=["2p"], melds=["222s", "888m", "345p"])
    show(obs, 1, river=["9s"])  # another player's river does not count as safe against opponent 2
    assert discards_of("defensive", obs, turn_legal(obs), rules=NO_TWELVE) == {tile("2p")}


def test_defensive_folds_late_in_the_wall_against_everyone():
    obs = observe(FAR, wall_left=10)
    for r in (1, 2, 3):
        show(obs, r, river=["4z"])
    assert discards_of("defensive", obs, turn_legal(obs)) == {tile("4z")}


def test_defensive_never_feeds_the_fourth_wind_to_three_wind_pungs():
    # ready after discarding 4z (123m 456p 789s 23s 55s), but opponent 1 shows pungs of 1z 2z 3z:
    # 4z would complete big winds (JPH-S5), so it keeps 4z even though that breaks the ready hand
    obs = observe("123m456p789s23s55s4z")
    show(obs, 1, melds=["111z", "222z", "333z"])
    assert tile("4z") not in discards_of("defensive", obs, turn_legal(obs))
    plain = observe("123m456p789s23s55s4z")
    show(plain, 1, melds=["111m", "222p", "333s"])
    assert discards_of("defensive", plain, turn_legal(plain), rules=NO_TWELVE) == {tile("4z")}


def test_defensive_never_feeds_the_third_dragon_to_two_dragon_pungs():
    obs = observe("123m456p789s23s55s7z")
    show(obs, 3, melds=["555z", "666z"])
    assert tile("7z") not in discards_of("defensive", obs, turn_legal(obs))


def test_defensive_avoids_feeding_a_fourth_exposed_set():
    # opponent 2 has three melds: a kind with two unseen copies could be punged for a fourth set
    # (JPH-S4); 9m has all other copies in sight, so it is the one tile that cannot be claimed
    obs = far_hand()
    show(obs, 2, melds=["222s", "888m", "345p"], river=["9m", "9m", "9m"])
    assert discards_of("defensive", obs, turn_legal(obs)) == {tile("9m")}


def test_defensive_never_claims_while_folding_but_still_wins():
    obs = observe("1559m258p369s4z77z", decision=RESPONSE, target=tile("7z"), target_from=1)
    show(obs, 1, melds=["222s", "888m", "345p"])
    assert act("defensive", obs, response_legal(PUNG), rules=NO_TWELVE)[0] == PASS
    assert act("efficiency", obs, response_legal(PUNG), rules=NO_TWELVE)[0] == PUNG
    assert act("defensive", obs, response_legal(PUNG, WIN), rules=NO_TWELVE)[0] == WIN


# --- specs -----------------------------------------------------------------------------------


def test_policy_specs_parse_and_normalise():
    assert get_policy("efficiency").spec == "efficiency"
    assert get_policy("value").spec == "value:greed=0.5"
    assert get_policy(" value : greed = 0.7 ").spec == "value:greed=0.7"
    parsed = get_policy("defensive:fold_shanten=2")
    assert parsed.spec == "defensive:late_wall=20,fold_shanten=2"
    policy, params = parsed
    assert policy is POLICIES["defensive"] and params.dtype == np.float64 and list(params) == [20.0, 2.0]
    assert parse_policy(parsed.spec).spec == parsed.spec


def test_act_rejects_a_wrong_parameter_count():
    obs, legal = dealt_observations(np.random.default_rng(1), 3)
    with pytest.raises(ValueError, match="greed"):
        POLICIES["value"].act(obs, legal, np.zeros(3, dtype=np.uint64), np.zeros(0), JPH)


@pytest.mark.parametrize(
    "spec, names",
    [
        ("greedy", ["'greedy'", "random", "efficiency", "value", "defensive"]),
        ("value:greed=0.7,fold=0.5", ["'fold'", "greed"]),
        ("efficiency:greed=1", ["'greed'", "none"]),
        ("value:greed=lots", ["greed", "'lots'", "not a number"]),
        ("value:greed=2", ["greed", "[0, 1]"]),
        ("value:greed", ["greed", "needs a value"]),
        ("value:greed=0.1,greed=0.2", ["greed", "twice"]),
        ("value:greed=nan", ["greed", "finite"]),
    ],
)
def test_bad_policy_specs_name_the_bad_part(spec, names):
    with pytest.raises(ValueError) as error:
        get_policy(spec)
    for name in names:
        assert name in str(error.value)
