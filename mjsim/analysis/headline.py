"""The headline measures a house decides a rule on, and their change between two runs.

A house asks "what does this option do to my tables?"; the answer is a few
figures, each with its interval:

- mean net per hand by role and by seat relative to the dealer (庄, 下家, 对家, 上家);
- the dealer's edge (dealer's net minus the mean of the other three, per hand);
- seat fairness (the widest gap between two non-dealer seats' mean nets);
- spread: the sd of one seat's net per hand and per session;
- tail risk: the chance a seat loses more than a threshold over a session, and
  the mean drawdown (largest fall from a running peak within a session);
- hand length (discards), the drawn-hand rate and the limit rate (爆胡: a
  winner paid at the cap);
- for two runs on the same walls, the share of hands whose payments differ
  (how often the option fires).

Every figure is a ratio of sums over sessions, so one multinomial bootstrap
of sessions (the clusters: a session's hands share the dealer's streak, and
runs made on one seed share their walls session by session) gives every
interval.  Two runs on the same walls are resampled with the same weights,
so their differences and ratios are paired.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass

import numpy as np
import polars as pl

from mjsim.analysis.stats import Z95

BOOTSTRAP = 1000
POWER_Z = 0.84  # 80% power: the sample that would resolve an effect of the estimated size
OFFSET_NAMES = ("庄", "下家", "对家", "上家")
# Each measure: (name, what it is in words, unit, how a change is stated: "ratio" or "difference")
MEASURES = (
    ("mean_dealer", "the dealer's mean net", "points a hand", "difference"),
    ("mean_offset1", "下家's mean net", "points a hand", "difference"),
    ("mean_offset2", "对家's mean net", "points a hand", "difference"),
    ("mean_offset3", "上家's mean net", "points a hand", "difference"),
    ("dealer_edge", "the dealer's edge", "points a hand", "difference"),
    ("seat_gap", "the widest gap between two non-dealer seats", "points a hand", "difference"),
    ("sd_hand", "the spread of a player's result per hand", "sd, points", "ratio"),
    ("sd_dealer", "the spread of the dealer's result per hand", "sd, points", "ratio"),
    ("sd_session", "the spread of a player's result per session", "sd, points", "ratio"),
    ("p_session_loss", "the chance of losing more than the threshold in a session", "share of seat-sessions",
     "difference"),
    ("drawdown", "the mean drawdown over a session", "points", "difference"),
    ("hand_length", "hand length", "discards a hand", "difference"),
    ("drawn_rate", "the drawn-hand rate", "share of hands", "difference"),
    ("limit_rate", "the limit rate (a winner paid at the cap)", "share of hands", "difference"),
)  # fmt: skip
MEASURE_NAMES = tuple(m[0] for m in MEASURES)
SHARES = frozenset({"p_session_loss", "drawn_rate", "limit_rate", "changed_rate"})  # shown as percentages
WORDS = {m[0]: m[1] for m in MEASURES}  # each measure in words


@dataclass(frozen=True)
class RunHands:
    """One run's hands as arrays, sorted by ``key`` (seating, hand id).

    ``cluster`` is the session index (0..clusters-1) shared by runs made on one
    seed; ``seat_session`` is (seating, session) as one index, for session totals."""

    key: np.ndarray
    cluster: np.ndarray
    seat_session: np.ndarray
    net: np.ndarray  # (hands, 4) by absolute seat
    dealer: np.ndarray
    turns: np.ndarray
    drawn: np.ndarray
    limit: np.ndarray | None  # None: the ruleset has no cap
    session_ids: np.ndarray  # the session number of each cluster index

    @property
    def hands(self) -> int:
        return self.key.size


def _cap(info: dict | None):
    if info is None:
        return None
    try:
        cap = tomllib.loads(info.get("ruleset_toml", "")).get("cap")
    except tomllib.TOMLDecodeError:
        return None
    return cap if isinstance(cap, int) and not isinstance(cap, bool) else None  # "none": no cap


def load_hands(lf: pl.LazyFrame, info: dict | None = None, session_ids: np.ndarray | None = None) -> RunHands:
    """The arrays of a run's hands (a lazy hand log, with a ``seating`` column when pooled over seatings).

    ``info``: the run's ``run.json`` (for the cap); ``session_ids``: the session numbers to index the
    clusters by (another run's, so that two runs on one seed share cluster indices)."""
    columns = lf.collect_schema().names()
    seating = pl.col("seating").cast(pl.Int64) if "seating" in columns else pl.lit(0, pl.Int64)
    frame = (
        lf.select(
            (seating * (1 << 40) + pl.col("hand_id")).alias("key"), seating.alias("seating"), "session", "dealer",
            "net", "turns", (pl.col("winners").list.len() == 0).alias("drawn"),
            pl.col("fan").list.max().fill_null(0).alias("top_fan"),
        )
        .sort("key")
        .collect()
    )  # fmt: skip
    if frame.height == 0:
        raise ValueError("a run with no hands has no headline measures")
    session = frame["session"].to_numpy().astype(np.int64)
    ids = np.unique(session) if session_ids is None else session_ids
    cluster = np.searchsorted(ids, session)
    if np.any(cluster >= ids.size) or np.any(ids[np.minimum(cluster, ids.size - 1)] != session):
        raise ValueError("the two runs do not hold the same sessions: they cannot be paired")
    seatings = frame["seating"].to_numpy()
    seat_session = np.unique(seatings * (session.max() + 1) + session, return_inverse=True)[1]
    cap = _cap(info)
    top = frame["top_fan"].to_numpy()
    return RunHands(
        key=frame["key"].to_numpy(), cluster=cluster, seat_session=seat_session,
        net=np.stack(frame["net"].to_numpy()).astype(np.float64).reshape(-1, 4),
        dealer=frame["dealer"].to_numpy().astype(np.int64), turns=frame["turns"].to_numpy().astype(np.float64),
        drawn=frame["drawn"].to_numpy(), limit=None if cap is None else (top >= cap) & ~frame["drawn"].to_numpy(),
        session_ids=ids,
    )  # fmt: skip


def session_totals(h: RunHands) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per seat-session: the session's cluster index, the seat's total, its drawdown (seat-sessions x 4)."""
    order = np.lexsort((h.key, h.seat_session))
    groups = h.seat_session[order]
    net = h.net[order]
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    cum = np.cumsum(net, axis=0)
    base = np.repeat(cum[starts] - net[starts], np.diff(np.r_[starts, groups.size]), axis=0)
    running = cum - base  # the seat's total within its session after each hand
    peak = _segment_running_max(np.maximum(running, 0), groups)
    drawdown = np.maximum.reduceat(peak - running, starts, axis=0)
    totals = running[np.r_[starts[1:], groups.size] - 1]
    return h.cluster[order][starts], totals, drawdown


def _segment_running_max(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Running maximum down each column of ``values`` (>= 0), restarted where ``segment`` (sorted) changes.

    Each segment is lifted above everything before it, so one cumulative maximum restarts at its start."""
    lift = (np.nanmax(values) + 1.0) * segment.astype(np.float64)[:, None]
    return np.maximum.accumulate(values + lift, axis=0) - lift


STAT_NAMES = ("H", "S1", "S2", "D", "D2", "O1", "O2", "O3", "T", "R", "L", "Q", "Q1", "Q2", "LOSS", "DD", "C")


def cluster_sums(h: RunHands, threshold: float, changed: np.ndarray | None = None) -> np.ndarray:
    """Per cluster (session), the sums every measure is a ratio of (columns :data:`STAT_NAMES`)."""
    k = h.session_ids.size
    stats = np.zeros((k, len(STAT_NAMES)))
    add = lambda col, values: np.add.at(stats[:, STAT_NAMES.index(col)], h.cluster, values)  # noqa: E731
    rows = np.arange(h.hands)
    add("H", 1.0)
    add("S1", h.net.sum(axis=1))
    add("S2", (h.net**2).sum(axis=1))
    add("D", h.net[rows, h.dealer])
    add("D2", h.net[rows, h.dealer] ** 2)
    for offset in (1, 2, 3):
        add(f"O{offset}", h.net[rows, (h.dealer + offset) % 4])
    add("T", h.turns)
    add("R", h.drawn.astype(float))
    if h.limit is not None:
        add("L", h.limit.astype(float))
    if changed is not None:
        add("C", changed.astype(float))
    where, totals, drawdown = session_totals(h)
    q = lambda col, values: np.add.at(stats[:, STAT_NAMES.index(col)], where, values)  # noqa: E731
    q("Q", 4.0)
    q("Q1", totals.sum(axis=1))
    q("Q2", (totals**2).sum(axis=1))
    q("LOSS", (totals < -threshold).sum(axis=1).astype(float))
    q("DD", drawdown.sum(axis=1))
    return stats


def measures_of(sums: np.ndarray, has_limit: bool = True) -> dict[str, np.ndarray]:
    """Every measure from summed statistics (the last axis :data:`STAT_NAMES`; leading axes broadcast)."""
    s = {name: sums[..., i] for i, name in enumerate(STAT_NAMES)}
    hands, seat_hands = s["H"], 4 * s["H"]
    offsets = np.stack([s[f"O{o}"] / hands for o in (1, 2, 3)])
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {
            "mean_dealer": s["D"] / hands,
            "mean_offset1": offsets[0], "mean_offset2": offsets[1], "mean_offset3": offsets[2],
            "dealer_edge": s["D"] / hands - offsets.mean(axis=0),
            "seat_gap": offsets.max(axis=0) - offsets.min(axis=0),
            "sd_hand": np.sqrt(np.maximum(s["S2"] / seat_hands - (s["S1"] / seat_hands) ** 2, 0)),
            "sd_dealer": np.sqrt(np.maximum(s["D2"] / hands - (s["D"] / hands) ** 2, 0)),
            "sd_session": np.sqrt(np.maximum(s["Q2"] / s["Q"] - (s["Q1"] / s["Q"]) ** 2, 0)),
            "p_session_loss": s["LOSS"] / s["Q"],
            "drawdown": s["DD"] / s["Q"],
            "hand_length": s["T"] / hands,
            "drawn_rate": s["R"] / hands,
            "limit_rate": s["L"] / hands if has_limit else np.full(np.shape(hands), np.nan),
            "changed_rate": s["C"] / hands,
        }  # fmt: skip
    return out


def bootstrap_weights(clusters: int, replicates: int = BOOTSTRAP, seed: int = 0) -> np.ndarray:
    """Multinomial resampling counts of ``clusters`` sessions, one row per replicate."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(clusters, np.full(clusters, 1 / clusters), size=replicates).astype(np.float64)


def nice_threshold(value: float) -> float:
    """A round loss threshold near ``value`` (1, 2 or 5 times a power of ten)."""
    if not value > 0 or not math.isfinite(value):
        return 0.0
    power = 10 ** math.floor(math.log10(value))
    return min((m * power for m in (1, 2, 5, 10)), key=lambda x: abs(math.log(x / value)))


def loss_threshold(reference: RunHands) -> float:
    """The session loss a question reports the chance of: a round number near twice the reference's
    sd of a seat's session total (so a few in a hundred seat-sessions lose that much)."""
    _, totals, _ = session_totals(reference)
    return nice_threshold(2 * float(totals.std()))


def hands_to_resolve(estimate: float, se: float, hands: int) -> int | None:
    """Hands (of each run) that would make a 95% interval exclude no change with 80% power, for an effect
    of the estimated size; None when the estimate is exactly no change."""
    if not estimate or not math.isfinite(se) or se <= 0:
        return None
    return int(math.ceil(hands * ((Z95 + POWER_Z) * se / abs(estimate)) ** 2))


def hands_text(n: int) -> str:
    """A sample size in words, to two significant figures: "about 550,000 hands"."""
    rounded = float(f"{n:.2g}")
    return f"about {rounded:,.0f} hands" if rounded < 1e9 else "more hands than is practical"


@dataclass(frozen=True)
class Change:
    """One measure in a reference and an alternative run, and how it changed."""

    measure: str
    reference: float
    alternative: float
    kind: str  # "ratio" or "difference"
    estimate: float  # alternative / reference or alternative - reference
    ci_low: float
    ci_high: float
    se: float  # of the difference, or of the log ratio
    resolved: bool  # the 95% interval excludes no change
    identical: bool  # no change in any hand (same play, and the option never touched this figure)
    hands_needed: int | None  # hands that would resolve an effect of this size (unresolved only)


def compare_runs(
    reference: RunHands, alternative: RunHands, paired: bool, threshold: float | None = None,
    replicates: int = BOOTSTRAP, seed: int = 0,
) -> tuple[list[Change], float]:  # fmt: skip
    """Every headline measure of two runs and its change, with 95% percentile intervals from a cluster
    bootstrap of sessions — the same resampled sessions for both runs when ``paired`` (same walls).
    Returns the changes and the session-loss threshold used (default :func:`loss_threshold`)."""
    threshold = loss_threshold(reference) if threshold is None else threshold
    changed = None
    if paired:
        if reference.hands != alternative.hands or not np.array_equal(reference.key, alternative.key):
            raise ValueError("paired runs must hold the same hands")
        changed = np.any(reference.net != alternative.net, axis=1)
    a = cluster_sums(reference, threshold, changed)
    b = cluster_sums(alternative, threshold, changed)
    wa = bootstrap_weights(a.shape[0], replicates, seed)
    wb = wa if paired else bootstrap_weights(b.shape[0], replicates, seed + 1)
    has_limit = reference.limit is not None and alternative.limit is not None
    point_a, point_b = measures_of(a.sum(axis=0), has_limit), measures_of(b.sum(axis=0), has_limit)
    reps_a, reps_b = measures_of(wa @ a, has_limit), measures_of(wb @ b, has_limit)
    changes = []
    for name, _, _, kind in MEASURES:
        x, y = float(point_a[name]), float(point_b[name])
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        ra, rb = reps_a[name], reps_b[name]
        identical = paired and bool(np.all(ra == rb))
        if kind == "ratio" and x > 0:
            estimate, reps = y / x, np.log(rb / ra)
            with np.errstate(invalid="ignore"):
                se = float(np.nanstd(reps, ddof=1))
            lo, hi = np.exp(np.nanquantile(reps, [0.025, 0.975]))
            resolved = bool(not identical and (lo > 1 or hi < 1))
            effect = math.log(estimate) if estimate > 0 else 0.0
        else:
            kind = "difference"
            estimate, reps = y - x, rb - ra
            se = float(np.std(reps, ddof=1))
            lo, hi = np.quantile(reps, [0.025, 0.975])
            resolved = bool(not identical and (lo > 0 or hi < 0))
            effect = estimate
        needed = None if resolved or identical else hands_to_resolve(effect, se, reference.hands)
        changes.append(Change(name, x, y, kind, estimate, float(lo), float(hi), se, resolved, identical, needed))
    if paired:
        c = float(point_a["changed_rate"])
        lo, hi = np.quantile(reps_a["changed_rate"], [0.025, 0.975])
        changes.append(Change("changed_rate", 0.0, c, "share", c, float(lo), float(hi), float("nan"), c > 0,
                              c == 0, None))  # fmt: skip
    return changes, threshold


def run_measures(hands: RunHands, threshold: float, replicates: int = BOOTSTRAP, seed: int = 0) -> pl.DataFrame:
    """Every headline measure of one run with its 95% cluster-bootstrap interval.

    Columns: measure, estimate, ci_low, ci_high."""
    sums = cluster_sums(hands, threshold)
    has_limit = hands.limit is not None
    point = measures_of(sums.sum(axis=0), has_limit)
    reps = measures_of(bootstrap_weights(sums.shape[0], replicates, seed) @ sums, has_limit)
    rows = []
    for name in MEASURE_NAMES:
        x = float(point[name])
        lo, hi = np.nanquantile(reps[name], [0.025, 0.975]) if math.isfinite(x) else (math.nan, math.nan)
        rows.append({"measure": name, "estimate": x, "ci_low": float(lo), "ci_high": float(hi)})
    return pl.DataFrame(rows)


def abs_difference(
    reference: RunHands, alternative: RunHands, measure: str, threshold: float, replicates: int = BOOTSTRAP,
    seed: int = 0,
) -> Change:  # fmt: skip
    """How much further from zero one measure is in ``alternative`` than in ``reference``: the paired
    change |alternative| - |reference| of two runs on the same walls (the same resampled sessions), with
    its 95% percentile interval and the hands that would resolve it.

    For a signed measure such as the dealer's edge, where "smaller" means nearer zero: two edges of
    opposite sign are compared by their size, which a difference of the signed values cannot do."""
    if reference.hands != alternative.hands or not np.array_equal(reference.key, alternative.key):
        raise ValueError("paired runs must hold the same hands")
    a, b = cluster_sums(reference, threshold), cluster_sums(alternative, threshold)
    weights = bootstrap_weights(a.shape[0], replicates, seed)
    has_limit = reference.limit is not None and alternative.limit is not None
    x = abs(float(measures_of(a.sum(axis=0), has_limit)[measure]))
    y = abs(float(measures_of(b.sum(axis=0), has_limit)[measure]))
    reps = np.abs(measures_of(weights @ b, has_limit)[measure]) - np.abs(measures_of(weights @ a, has_limit)[measure])
    identical = bool(np.all(reps == 0)) and x == y
    lo, hi = np.quantile(reps, [0.025, 0.975])
    se = float(np.std(reps, ddof=1))
    resolved = bool(not identical and (lo > 0 or hi < 0))
    needed = None if resolved or identical else hands_to_resolve(y - x, se, reference.hands)
    return Change(measure, x, y, "difference", y - x, float(lo), float(hi), se, resolved, identical, needed)


__all__ = [
    "MEASURES",
    "SHARES",
    "WORDS",
    "Change",
    "RunHands",
    "abs_difference",
    "compare_runs",
    "hands_text",
    "hands_to_resolve",
    "load_hands",
    "loss_threshold",
    "nice_threshold",
    "run_measures",
    "session_totals",
]
