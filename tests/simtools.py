"""Scripted positions for engine tests: set up a hand, answer decisions from a script.

``ScriptedHand`` builds one table in a chosen position — concealed hands,
declared melds, the order of the next draws from the front and of the
replacement tiles from the back — and plays it with the real engine.  Each
seat answers from its own script queue when the next item fits the decision
(``"discard 5z"``, ``"pung"``, ``"chow low"``, ``"kong"``, ``"ckong 1z"``,
``"akong 5m"``, ``"win"``, ``"pass"``); otherwise it plays a plain default:
discard the drawn tile (or, after a claim, its highest tile), pass on every
answer, never win unless the rules leave no other action (XZ-P6).  Filler tiles come after the scripted draws.
"""

from __future__ import annotations

import numpy as np

from mjsim.sim import engine
from mjsim.sim.constants import (
    AKONG,
    CHOW_HIGH,
    CHOW_LOW,
    CHOW_MID,
    CKONG,
    DISCARD,
    KONG,
    MELD_CHOW,
    MELD_CKONG,
    MELD_KONG,
    MELD_PUNG,
    N_ACTIONS,
    PASS,
    PUNG,
    TURN,
    WIN,
)  # fmt: skip
from mjsim.sim.observation import empty_observation
from mjsim.sim.records import allocate_records, rows_to_columns
from mjsim.sim.scoring import scoring
from mjsim.sim.state import PH_TURN, allocate_state, engine_params
from mjsim.tiles import counts_of, parse_meld, parse_tiles, tile_name, tile_set_wall

_MELD_CODES = {"chow": MELD_CHOW, "pung": MELD_PUNG, "kong": MELD_KONG, "ckong": MELD_CKONG}


def _action(text: str) -> int:
    word, _, arg = text.partition(" ")
    if word == "discard":
        return DISCARD + parse_tiles(arg)[0]
    if word == "ckong":
        return CKONG + parse_tiles(arg)[0]
    if word == "akong":
        return AKONG + parse_tiles(arg)[0]
    if word == "chow":
        return {"low": CHOW_LOW, "mid": CHOW_MID, "high": CHOW_HIGH}[arg]
    return {"win": WIN, "pass": PASS, "pung": PUNG, "kong": KONG}[word]


class ScriptedHand:
    def __init__(
        self,
        ruleset,
        hands,
        *,
        melds=None,
        draws="",
        back="",
        dealer=0,
        round_wind=0,
        actor=None,
        meld_from=None,
        first_go_around=False,
        wall_ends_after_draws=False,
        horses="",
        wilds=None,
        flowers=None,
    ):
        """``hands``: seat -> concealed tiles (the actor's last tile is the one it just drew);
        ``melds``: seat -> C-T5 meld strings; ``meld_from``: (seat, meld index) -> feeding seat;
        ``first_go_around``: the position is the hand's very start (天和/地和/人和 possible), else mid-hand;
        ``wall_ends_after_draws``: nothing but ``draws`` and ``back`` is left to draw (海底 positions);
        ``horses``: horse tiles set aside (dealer horses, or the reserve winner horses are bought from);
        ``wilds``: the 财神 kinds in notation (水头, SHT-P3; default none turned); ``flowers``: seat -> the
        flowers it has set aside (SHT-P2, e.g. ``"12f5z"``).  Filler flowers sit in the middle of the wall, so
        scripted front and back draws meet them only when written there."""
        self.ruleset = ruleset
        self.params = engine_params(ruleset, replay=True)
        self.scoring = scoring(ruleset)
        self.state = st = allocate_state(1)
        self.queue = np.array([0, 0], np.int64)
        self.out = allocate_records(4)
        horse_tiles = parse_tiles(horses)
        engine.start_hand_at(st, self.params, 0, 0, 0, dealer, round_wind, 0, len(horse_tiles))
        used = []
        st.hands[0] = 0
        st.meld_kind[0] = 0
        st.n_melds[0] = 0
        st.exposed[0] = 0
        for seat in range(4):
            tiles = parse_tiles(hands.get(seat, ""))
            used += tiles
            st.hands[0, seat] = counts_of(tiles)
            for m, text in enumerate((melds or {}).get(seat, [])):
                meld = parse_meld(text)
                used += list(meld.tiles)
                st.meld_kind[0, seat, m] = _MELD_CODES[meld.kind]
                st.meld_tile[0, seat, m] = meld.first
                st.meld_from[0, seat, m] = (meld_from or {}).get((seat, m), -1)
                st.n_melds[0, seat] = m + 1
                for tile in meld.tiles:
                    st.exposed[0, seat, tile] += 1
                st.claims_made[0] = True
        front, rear = parse_tiles(draws), parse_tiles(back)
        used += front + rear + horse_tiles
        st.turned[0] = -1  # wilds stay as the ruleset fixes them; no turned indicator
        st.flowers[0] = 0
        st.turned_flowers[0] = 0
        st.set_aside[0] = 0
        if wilds is None and ruleset.family == "shuitou":
            wilds = []  # 水头 positions name their 财神 (the dealt wall's turned tiles are not the position's)
        if wilds is not None:
            kinds = parse_tiles("".join(wilds)) if wilds else []
            st.wild[0] = (kinds + [-1, -1])[:2]
        for seat, text in (flowers or {}).items():
            for tile in parse_tiles(text):
                used.append(tile)
                st.flowers[0, seat, 8 if tile == 31 else tile - 34] += 1
        st.n_reserved[0] = len(horse_tiles)
        st.n_horses[0] = len(horse_tiles) if ruleset.horses == "dealer" else 0
        for k, tile in enumerate(horse_tiles):
            st.horse_tiles[0, k] = tile
            st.horse_seats[0, k] = engine.horse_seat(self.params, tile, dealer)
        pool = list(tile_set_wall(ruleset.tile_set))
        for tile in used:
            if tile not in pool:
                raise ValueError(f"the position uses more {tile_name(tile)} than the tile set holds")
            pool.remove(tile)
        # filler in a fixed order that keeps honours last (fewer accidental pungs), flowers in the middle
        filler = sorted(pool, key=lambda t: (t >= 27, t % 9, t))
        blooms = [t for t in filler if t >= 34 or (ruleset.white_is_flower and t == 31)]
        filler = [t for t in filler if t not in blooms]
        filler = filler[: len(filler) // 2] + blooms + filler[len(filler) // 2 :]
        wall = filler + front + rear[::-1] if wall_ends_after_draws else front + filler + rear[::-1]
        n = len(tile_set_wall(ruleset.tile_set))
        dealt = n - len(wall)
        st.wall[0, :] = 0
        st.wall[0, dealt:n] = wall
        st.front[0] = n - len(front) - len(rear) if wall_ends_after_draws else dealt
        st.back[0] = n - 1
        st.back_start[0] = n - 1
        behind = [int(st.wall[0, n - 1 - k]) for k in range(st.horse_pool.shape[1] - len(horse_tiles))]
        st.horse_pool[0] = (horse_tiles + behind)[: st.horse_pool.shape[1]]  # the set-aside horses, then the back
        seat = dealer if actor is None else actor
        st.actor[0] = seat
        st.target[0] = parse_tiles(hands[seat])[-1]  # the actor's last tile written is the one just drawn
        st.phase[0] = PH_TURN
        if not first_go_around:
            st.claims_made[0] = True
            st.turns[0] = 8
            st.discarded[0] = 2

    def play(self, script: dict[int, list[str]], max_steps: int = 500) -> dict:
        """Play to the end of the hand; return the logged row (columns) plus ``transfers``."""
        queues = {s: [_action(a) for a in items] for s, items in script.items()}
        st = self.state
        obs = empty_observation(3)
        legal = np.zeros((3, N_ACTIONS), np.bool_)
        row_table = np.zeros(3, np.int64)
        row_seat = np.zeros(3, np.int64)
        actions = np.zeros(3, np.int16)
        streams = np.zeros(3, np.uint64)
        self.decisions = []
        self.legal_masks = []  # (seat, decision kind, legal mask) per decision
        rows = 0
        for _ in range(max_steps):
            rows = engine.step(
                st, self.params, self.scoring, self.queue, self.out, obs, legal, row_table, row_seat, streams, actions,
                rows,
            )  # fmt: skip
            if rows == 0:
                break
            for i in range(rows):
                seat = int(row_seat[i])
                actions[i] = self._choose(queues.get(seat, []), legal[i], obs, i)
                self.decisions.append((seat, int(obs.decision[i]), int(actions[i]), bool(legal[i, WIN])))
                self.legal_masks.append((seat, int(obs.decision[i]), legal[i].copy()))
        unused = {s: q for s, q in queues.items() if q}
        assert not unused, f"script items never played: {unused}"
        assert self.out.count[0] == 1, "the hand did not finish"
        row = {k: v[0] for k, v in rows_to_columns(self.out, 1).items()}
        row["transfers"] = st.transfers[0].copy()  # settled, and kept once the table is idle
        row["trace"] = st.trace[0, : st.trace_len[0]].copy()
        return row

    @staticmethod
    def _choose(queue, legal, obs, i) -> int:
        if queue and legal[queue[0]]:
            return queue.pop(0)
        if legal[WIN] and legal.sum() == 1:  # a win the rules make compulsory (XZ-P6)
            return WIN
        if obs.decision[i] != TURN:
            return PASS
        target = int(obs.target[i])
        if target >= 0 and legal[DISCARD + target]:
            return DISCARD + target
        return DISCARD + int(np.flatnonzero(legal[:34])[-1])


def logged_frame(row: dict):
    """A scripted hand's row as a one-row hand log, as re-settlement reads logged hands."""
    import polars as pl

    columns = {
        k: [np.asarray(v).tolist() if isinstance(v, (np.ndarray, np.generic)) else v]
        for k, v in row.items()
        if k not in ("transfers", "trace")
    }
    return pl.DataFrame({"run_id": ["scripted"], **columns})
