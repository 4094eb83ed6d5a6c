"""Drive the compiled engine over a range of sessions and hand back the records in chunks.

``play_sessions`` is the single-process loop: a ``step`` of the engine applies the
last decisions and collects the next, each seat's policy answers them (grouped so
each policy sees one batch), and finished hands are flushed whenever the record
buffer fills.  Parallel runs split the
session range (``mjsim.sim.parallel``); a hand's content depends only on its
seed, so the split never changes the rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from mjsim.agents.legal import setup_choice, two_suit_legal
from mjsim.sim import engine
from mjsim.sim.constants import EXCHANGE, N_ACTIONS
from mjsim.sim.observation import empty_observation, policy_rules, take
from mjsim.sim.records import allocate_records, arrow_columns, rows_to_columns
from mjsim.sim.rng import root_key
from mjsim.sim.scoring import scoring
from mjsim.sim.state import allocate_state, engine_params, win_slots
from mjsim.sim.supported import check_supported

PROGRESS_HANDS = 256  # finished hands between two progress reports


@dataclass(frozen=True)
class SeatPolicies:
    """The policy of each absolute seat: objects with ``act``, their parameter arrays and spec strings.

    ``groups[seat]`` numbers the distinct (policy, parameters) pairs, so seats
    that play alike are asked in one batch.
    """

    policies: tuple
    params: tuple
    specs: tuple[str, str, str, str]
    groups: tuple[int, int, int, int]


def play_sessions(
    ruleset,
    seats: SeatPolicies,
    *,
    seed: int,
    first_session: int,
    end_session: int,
    session_length: int = 1,
    first_dealer: int = -1,
    round_wind: int = 0,
    tables: int = 2048,
    chunk_rows: int = 20_000,
    on_hands: Callable[[int], None] | None = None,
    as_arrow: bool = False,
) -> Iterator[dict]:
    """Play sessions ``[first_session, end_session)`` and yield record columns, ``chunk_rows`` hands at most each.

    Rows come out in the order hands finish; ``hand_id`` identifies them
    (``session * session_length + hand_in_session``).  Columns are Python
    lists and numpy arrays (``rows_to_columns``), or with ``as_arrow`` the
    Arrow arrays a run writes (``arrow_columns``, much faster).
    """
    check_supported(ruleset)
    sessions = end_session - first_session
    tables = max(1, min(tables, sessions))
    params = engine_params(
        ruleset, session_length=session_length, first_dealer=first_dealer, first_round_wind=round_wind,
        seed_key=root_key(seed),
    )  # fmt: skip
    sc = scoring(ruleset)
    rules = policy_rules(ruleset)
    slots = win_slots(ruleset)
    state = allocate_state(tables, slots)
    queue = np.array([first_session, end_session], np.int64)
    out = allocate_records(max(chunk_rows, tables), slots)
    max_rows = 4 * tables  # 换三张 / 定缺 ask all four seats at once
    obs = empty_observation(max_rows)
    legal = np.zeros((max_rows, N_ACTIONS), np.bool_)
    row_table = np.zeros(max_rows, np.int64)
    row_seat = np.zeros(max_rows, np.int64)
    actions = np.zeros(max_rows, np.int16)
    rng_rows = np.zeros(max_rows, np.uint64)
    seat_policy = np.array(seats.groups, np.int64)
    counted = 0  # hands of the current buffer already passed to on_hands
    rows = 0  # decision rows answered in the last step
    while True:
        rows = engine.step(state, params, sc, queue, out, obs, legal, row_table, row_seat, rng_rows, actions, rows)
        if on_hands is not None and out.count[0] - counted >= PROGRESS_HANDS:
            on_hands(int(out.count[0]) - counted)  # progress per table batch, not per flush
            counted = int(out.count[0])
        if out.count[0] >= chunk_rows or (rows == 0 and out.count[0] > 0):
            n = int(out.count[0])
            columns = arrow_columns(out, n) if as_arrow else rows_to_columns(out, n)
            out.count[0] = 0
            out.nets[:n] = 0
            if on_hands is not None and n > counted:
                on_hands(n - counted)
            counted = 0
            yield columns
            if rows == 0:
                continue
        if rows == 0:
            return
        _decide(seats, seat_policy, obs, legal, rng_rows, actions, row_seat, rows, rules)


def _decide(seats, seat_policy, obs, legal, rng_rows, actions, row_seat, rows, rules) -> None:
    """Ask each seat's policy for its rows' actions; check every answer is legal.

    Under 缺一门 (``max_suits`` 2) every policy is offered only the actions that play its void suit out
    (:func:`~mjsim.agents.legal.two_suit_legal`), so no policy plays toward a 花猪.  The choices before play
    (换三张 tiles, the 定缺 suit) are the policy's ``setup`` or else the common
    :func:`~mjsim.agents.legal.setup_choice`."""
    offered = legal
    if rules.max_suits < 3:
        offered = np.empty((rows, legal.shape[1]), np.bool_)
        two_suit_legal(obs.hand, obs.exposed, obs.decision, obs.target, obs.void_suit, legal[:rows], offered)
    owner = seat_policy[row_seat[:rows]]
    setup = obs.decision[:rows] >= EXCHANGE
    for index in np.unique(owner):
        for asked_setup in (False, True):
            # one policy at every seat (the common case) reads the buffers' first rows as views, uncopied
            positions = np.flatnonzero((owner == index) & (setup == asked_setup))
            if positions.size == 0:
                continue
            idx = slice(0, rows) if positions.size == rows else positions
            seat = seats.groups.index(index)
            policy = seats.policies[seat]
            choose = (policy.setup or _common_setup) if asked_setup else policy.act
            streams = rng_rows[idx]
            chosen = choose(take(obs, idx), offered[idx], streams, seats.params[seat], rules)
            rng_rows[idx] = streams
            ok = legal[positions, chosen]
            if not ok.all():
                bad = int(np.flatnonzero(~ok)[0])
                raise RuntimeError(f"policy {seats.specs[seat]!r} chose the illegal action {int(chosen[bad])}")
            actions[idx] = chosen


def _common_setup(obs, legal, rng, params, rules):
    """Every policy's 换三张 and 定缺 choices unless it has its own (``Policy.setup``)."""
    chosen = np.empty(legal.shape[0], np.int16)
    setup_choice(obs.hand, obs.decision, legal, chosen)
    return chosen


def seat_policies(specs) -> SeatPolicies:
    """Parse one spec for every seat, or four: a list, or one string split on ``;``
    (``"efficiency;value:greed=0.9;defensive;random"``; plain names may also be split on ``,``)."""
    from mjsim.agents import parse_policy

    parts = [specs] if isinstance(specs, str) else list(specs)
    if len(parts) == 1 and isinstance(parts[0], str):
        text = parts[0]
        if ";" in text:
            parts = text.split(";")
        elif "," in text and ":" not in text:
            parts = text.split(",")
    if len(parts) == 1:
        parts = parts * 4
    if len(parts) != 4:
        raise ValueError(f"give one policy or four (one per seat), got {len(parts)}: {parts}")
    parsed = [parse_policy(p.strip()) for p in parts]
    specs = tuple(p.spec for p in parsed)
    groups = tuple(specs.index(spec) for spec in specs)
    return SeatPolicies(tuple(policy for policy, _ in parsed), tuple(values for _, values in parsed), specs, groups)
