"""From run directories to the report: tables, then figures, then the page.

``write_report(run_dirs, out_path)`` is the whole pipeline; its steps are
public so that notebooks can show a table or a figure on its own:

- :func:`load_runs` — each run's label, ``run.json`` and lazy hand scan;
- :func:`report_tables` — every table of the report (pandas, one ``run``
  column telling the runs apart);
- :func:`report_figures` — every figure, drawn from those tables (a note
  string instead of a figure where the runs have nothing to draw);
- :func:`write_report` — the self-contained HTML file.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import polars as pl

from mjsim.io.dataset import read_run_info, scan_hands
from mjsim.io.store import RunStore
from mjsim.progress import Progress
from mjsim.report import figures as F
from mjsim.report import html as H
from mjsim.report import tables as T
from mjsim.report.answers import answers_section


@dataclass
class Run:
    """One run directory: its label in the report, ``run.json`` and the lazy scan of its hands."""

    label: str
    directory: Path
    info: dict
    hands: pl.LazyFrame

    @property
    def options(self) -> dict:
        try:
            return tomllib.loads(self.info.get("ruleset_toml", ""))
        except tomllib.TOMLDecodeError:
            return {}


def _differences(runs: list[Run]) -> list[list[str]]:
    """For runs of one ruleset name: the options on which they differ, as 'key=value' per run."""
    options = [r.options for r in runs]
    keys = sorted({k for o in options for k in o})
    differing = [k for k in keys if len({repr(o.get(k)) for o in options}) > 1]

    def show(value):
        return str(value).lower() if isinstance(value, bool) else str(value)

    return [[f"{k}={show(o.get(k))}" for k in differing] for o in options]


def default_labels(runs: list[Run]) -> list[str]:
    """Each run's ruleset name; runs that share a name get the options that tell them apart
    (``jipinghu_5fan [cap=3]``), or their directory name where no option differs."""
    labels = [r.info.get("ruleset", r.directory.name) for r in runs]
    for name in set(labels):
        same = [i for i, label in enumerate(labels) if label == name]
        if len(same) < 2:
            continue
        diffs = _differences([runs[i] for i in same])
        for i, diff in zip(same, diffs, strict=True):
            if diff:
                shown = ", ".join(diff[:3]) + (", ..." if len(diff) > 3 else "")
                labels[i] = f"{name} [{shown}]"
            else:
                labels[i] = f"{name} [{runs[i].directory.name}]"
    if len(set(labels)) < len(labels):  # still ambiguous: number them
        labels = [f"{label} #{i + 1}" for i, label in enumerate(labels)]
    return labels


def load_runs(run_dirs, labels=None, allow_partial: bool = False) -> list[Run]:
    """The runs of ``run_dirs`` with their labels (given, or :func:`default_labels`); incomplete runs are
    refused unless ``allow_partial``."""
    dirs = [Path(d) for d in run_dirs]
    if not dirs:
        raise ValueError("a report needs at least one run directory")
    if len({d.absolute() for d in dirs}) != len(dirs):
        raise ValueError("a run directory is given twice")
    runs = [Run("", d, read_run_info(d, allow_partial), scan_hands(d, allow_partial=allow_partial)) for d in dirs]
    if labels is None:
        labels = default_labels(runs)
    labels = [str(label) for label in labels]
    if len(labels) != len(runs):
        raise ValueError(f"{len(labels)} labels for {len(runs)} run directories")
    if len(set(labels)) != len(labels):
        raise ValueError(f"run labels must be distinct, got {labels}")
    for run, label in zip(runs, labels, strict=True):
        run.label = label
    return runs


def _concat(frames) -> pd.DataFrame:
    frames = [f for f in frames if f is not None and not f.empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


TABLES = ("overview", "seats", "payouts", "paths", "risk", "patterns", "fans", "components", "horses", "spread",
          "liability", "xz_overview", "xz_order", "xz_rules", "sht_overview", "sht_values", "sht_money",
          "compare")  # fmt: skip
PER_RUN_TABLES = tuple(k for k in TABLES if k not in ("spread", "compare"))  # computed run by run


XUEZHAN = "xuezhan"  # the ruleset family whose runs get the 血战 tables (血流成河 included)
SHUITOU = "shuitou"  # the ruleset family whose runs get the 水头 tables


def _run_tables(lf: pl.LazyFrame, label: str, loss_thresholds, family: str | None = None) -> dict:
    """The per-run tables of the report, each as a function computing its frames (so progress can follow);
    the 血战 and 水头 ones are empty for runs of another ``family``."""
    xz, sht = family == XUEZHAN, family == SHUITOU
    return {
        "overview": lambda: [T.run_overview(lf, label)],
        "seats": lambda: [T.seat_table(lf, label, by) for by in ("role", "seat", "offset")],
        "payouts": lambda: [T.payout_table(lf, label)],
        "paths": lambda: [T.paths_table(lf, label)],
        "risk": lambda: [T.session_risk_table(lf, label, loss_thresholds)],
        "patterns": lambda: [T.pattern_table(lf, label)],
        "fans": lambda: [T.fan_table(lf, label)],
        "components": lambda: [T.component_table(lf, label)],
        "horses": lambda: [T.horse_table(lf, label)],
        "liability": lambda: [T.liability_table(lf, label)],
        "xz_overview": lambda: [T.xz_overview(lf, label)] if xz else [],
        "xz_order": lambda: [T.xz_order_table(lf, label)] if xz else [],
        "xz_rules": lambda: [T.xz_rule_table(lf, label)] if xz else [],
        "sht_overview": lambda: [T.sht_overview(lf, label)] if sht else [],
        "sht_values": lambda: [T.sht_value_table(lf, label)] if sht else [],
        "sht_money": lambda: [T.sht_money_table(lf, label)] if sht else [],
    }


def report_tables(
    runs: list[Run], loss_thresholds=T.LOSS_THRESHOLDS, progress=None, comparisons: list[list[str]] | None = None
) -> dict[str, pd.DataFrame]:
    """Every table of the report, the runs stacked (columns: see :mod:`mjsim.report.tables`).

    ``progress``: a :class:`mjsim.progress.Progress` advanced by one per run and table
    (:data:`PER_RUN_TABLES`).

    Keys: overview, seats (by role, seat and offset), payouts, paths, risk,
    patterns, fans, components, horses, spread (only where some run has
    horses), liability, xz_overview, xz_order, xz_rules (the runs of the
    血战 family only), sht_overview, sht_values, sht_money (the runs of the
    水头 family only), compare (only with several runs: differences to the
    first run of each comparison group — ``comparisons``, lists of run labels,
    default all runs in one — paired where the runs hold the same hands), runs
    (run, method, hands_from: the directory whose hands the run holds, its own
    or the one it was re-settled from).
    """
    tables: dict[str, list] = {k: [] for k in TABLES}
    bar = progress or Progress(0, enabled=False)
    for run in runs:
        for key, compute in _run_tables(run.hands, run.label, loss_thresholds, run.options.get("family")).items():
            tables[key] += compute()
            bar.update(1)
    out = {k: _concat(v) for k, v in tables.items()}
    if not out["horses"].empty:
        out["spread"] = _concat(T.spread_table(r.hands, r.label) for r in runs)
    by_label = {r.label: r for r in runs}
    comparisons = comparisons or [[r.label for r in runs]]
    unknown = [label for group in comparisons for label in group if label not in by_label]
    if unknown:
        raise ValueError(f"comparison groups name runs that are not in the report: {unknown}")
    compared = [T.compare_runs({label: by_label[label].hands for label in group})
                for group in comparisons if len(group) > 1]  # fmt: skip
    out["compare"] = _concat(compared)

    def hands_from(run: Run) -> str:
        """The directory whose hands ``run`` holds: the one it was re-settled from, else its own."""
        base = run.info.get("resettled_from") if run.info.get("method") == "re-settled" else None
        if not base:
            return str(run.directory.resolve())
        base = Path(base)
        if not base.is_absolute() and not base.exists():  # written relative to another working directory
            base = run.directory.parent / base.name
        return str(base.resolve())

    out["runs"] = pd.DataFrame({"run": [r.label for r in runs],
                                "method": [r.info.get("method", "simulated") for r in runs],
                                "hands_from": [hands_from(r) for r in runs]})  # fmt: skip
    return out


NO_HORSES = "No horse 买马 payments in these runs (ruleset option horses = none): nothing to decompose."
NO_LIABILITY = "No hand of these runs had a liable seat (包): no liability payments."


def report_figures(tables: dict[str, pd.DataFrame]) -> dict[str, object]:
    """Every figure of the report, drawn from ``tables`` (a note string where there is nothing to draw).

    ``tables["runs"]`` (where given) tells which runs hold the same hands: runs of identical pattern or fan
    tables are drawn once and said to be the same hands where they are."""
    figs: dict[str, object] = {}
    runs = tables.get("runs")
    same_hands = dict(zip(runs["run"], runs["hands_from"], strict=True)) if runs is not None else None
    figs["payouts"] = F.payout_figure(tables["payouts"])
    paths = tables["paths"]
    if paths.empty or paths["hand"].max() < 2:
        figs["paths"] = "Sessions of one hand: no cumulative path to draw (simulate with --session-length > 1)."
    else:
        figs["paths"] = F.fan_chart_figure(paths)
    patterns = tables["patterns"]
    figs["patterns"] = (F.pattern_figure(patterns, same_hands=same_hands) if not patterns.empty
                        else "No winning hand in these runs.")  # fmt: skip
    fans = tables["fans"]
    figs["fans"] = F.fan_figure(fans, same_hands=same_hands) if not fans.empty else "No winning hand in these runs."
    figs["components"] = F.component_figure(tables["components"])
    seats = tables["seats"]
    figs["seats"] = F.seat_effects_figure(seats[seats["by"].isin(["offset", "seat"])])
    figs["spread"] = F.spread_figure(tables["spread"]) if not tables["spread"].empty else NO_HORSES
    figs["compare"] = F.compare_figure(tables["compare"]) if not tables["compare"].empty else None
    if not tables["xz_order"].empty:
        figs["xz_order"] = F.xz_order_figure(tables["xz_order"])
        figs["xz_rules"] = F.xz_rule_figure(tables["xz_rules"])
    if not tables["sht_values"].empty:
        figs["sht_values"] = F.sht_value_figure(tables["sht_values"])
        figs["sht_money"] = F.sht_money_figure(tables["sht_money"])
    return figs


SUMMARY_COLUMNS = ["group", "hands", "seat-hands", "win rate [95% CI]", "self-draw share [95% CI]",
                   "deal-in rate [95% CI]", "mean net ± 95% CI", "sd net"]  # fmt: skip


def _summary_rows(seats: pd.DataFrame, run: str) -> list[dict]:
    part = seats[(seats["run"] == run) & seats["by"].isin(["role", "seat"])].copy()
    part["order"] = part["by"].map({"role": 0, "seat": 1})
    rows = []
    for r in part.sort_values(["order", "group"]).to_dict("records"):
        rows.append(dict(zip(SUMMARY_COLUMNS, [
            r["group"] if r["by"] == "role" else f"seat {r['group']}",
            f"{int(r['n']):,}",
            f"{int(r['seat_hands']):,}",
            H.fmt_interval(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"]),
            H.fmt_interval(r["self_draw_share"], r["self_draw_share_lo"], r["self_draw_share_hi"]),
            H.fmt_interval(r["deal_in_rate"], r["deal_in_rate_lo"], r["deal_in_rate_hi"]),
            H.fmt_ci(r["mean_net"], r["mean_net_lo"], r["mean_net_hi"], digits=3, sign=True),
            f"{r['sd_net']:.3f}",
        ], strict=True)))  # fmt: skip
    return rows


def _runs_section(runs: list[Run], tables) -> dict:
    rows = []
    overview = tables["overview"].set_index("run")
    for run in runs:
        info, o = run.info, overview.loc[run.label]
        rows.append({
            "run": run.label, "ruleset": info.get("ruleset", ""), "hash": info.get("ruleset_hash", ""),
            "hands": f"{int(o['hands']):,}", "sessions": f"{int(o['sessions']):,} x {info.get('session_length', '?')}",
            "seed": info.get("seed", ""), "policies": ", ".join(dict.fromkeys(info.get("policies", []))),
            "directory": str(run.directory),
        })  # fmt: skip
    parts = [H.table_html(rows, list(rows[0]), "runs", label_columns=len(rows[0]))]
    for run in runs:
        o = overview.loc[run.label]
        parts.append(H.heading(run.label))
        parts.append(H.paragraph(
            f"{int(o['hands']):,} hands in {int(o['sessions']):,} sessions; drawn hands "
            f"{H.fmt_interval(o['draw_rate'], o['draw_rate_lo'], o['draw_rate_hi'])}; mean fan per win "
            f"{o['mean_fan']:.3f}; mean discards per hand {o['mean_turns']:.1f}."
        ))  # fmt: skip
        parts.append(H.table_html(_summary_rows(tables["seats"], run.label), SUMMARY_COLUMNS, "summary",
                                  attrs={"data-run": run.label}))  # fmt: skip
    return {
        "heading": "Runs and summary",
        "intro": (
            "Per run: rates per hand and points won per seat per hand, by role (dealer 庄家 or not) and by "
            "absolute seat. Rates carry a Wilson 95% interval [low, high], mean net ± the half-width of its "
            "normal 95% interval; standard errors treat each hand as one cluster (the seats of a hand are not "
            "independent). The self-draw share is of the group's wins. 'hands' counts the hands behind a row, "
            "'seat-hands' the seat observations."
        ),
        "parts": parts,
    }


def _interval(prefix: str, digits: int = 4):
    return lambda row: H.fmt_interval(row[prefix], row[f"{prefix}_lo"], row[f"{prefix}_hi"], digits)


def _ci(prefix: str, digits: int = 3, sign: bool = True):
    return lambda row: H.fmt_ci(row[prefix], row[f"{prefix}_lo"], row[f"{prefix}_hi"], digits, sign)


def _compare_parts(tables, figs) -> list[str]:
    table = tables["compare"]
    if table.empty:
        return []
    view = pd.DataFrame({
        "run": table["label"], "against": table["reference"], "role": table["group"],
        "metric": table["metric"].str.replace("_", " "),
        "estimate [95% CI]": table.apply(lambda r: H.fmt_interval(r["estimate"], r["lo"], r["hi"]), axis=1),
        "difference to reference ± 95% CI": table.apply(
            lambda r: "reference" if pd.isna(r["diff"]) else H.fmt_ci(r["diff"], r["diff_lo"], r["diff_hi"], 4, True),
            axis=1),
        "paired": table["paired"].map(lambda p: "" if pd.isna(p) else ("yes" if p else "no")),
    })  # fmt: skip
    caption = ("Difference of each run to the first of its group, with its 95% CI: paired hand by hand where the "
               "runs hold the same hands (same seed), else unpaired.")  # fmt: skip
    return [H.figure_html(figs["compare"], caption, "compare"), H.frame_html(view, "compare", label_columns=4)]


def _risk_parts(tables) -> list[str]:
    risk = tables["risk"]
    if risk.empty:
        return []
    thresholds = sorted({c.removeprefix("p_loss_") for c in risk.columns
                         if c.startswith("p_loss_") and c.count("_") == 2}, key=float)  # fmt: skip
    view = pd.DataFrame({
        "run": risk["run"], "sessions": risk["sessions"].map("{:,.0f}".format),
        "hands per session": risk["hands_per_session"].map("{:.0f}".format),
        "sd of session net": risk["sd_cum_net"].map("{:.2f}".format),
        "5% / 95% quantile": risk.apply(lambda r: f"{r['cum_net_q05']:+.1f} / {r['cum_net_q95']:+.1f}", axis=1),
        **{f"P(lose > {x}) [95% CI]": risk.apply(_interval(f"p_loss_{x}", 3), axis=1) for x in thresholds},
        "mean drawdown ± 95% CI": risk.apply(_ci("mean_drawdown", 2, False), axis=1),
    })  # fmt: skip
    return [H.paragraph("One seat's result over a whole session (all seats pooled): spread, the chance of losing "
                        "more than a given number of points, and the mean drawdown (largest fall from a running "
                        "peak). Intervals clustered by session."),
            H.frame_html(view, "risk", label_columns=1)]  # fmt: skip


def _horse_parts(tables, figs) -> list[str]:
    horses = tables["horses"]
    if horses.empty:
        return [H.note(NO_HORSES)]
    view = pd.DataFrame({
        "run": horses["run"], "role": horses["role"],
        "share of seat-hands with horse money [95% CI]": horses.apply(_interval("horse_paid_rate"), axis=1),
        "mean horse net ± 95% CI": horses.apply(_ci("mean_net_horse"), axis=1),
        "share of the variance of net [95% CI]": horses.apply(_interval("horse_variance_share", 3), axis=1),
        "horses per hand": horses["horses_per_hand"].map("{:.2f}".format),
        "horses on a winner [95% CI]": horses.apply(_interval("hit_rate", 3), axis=1),
    })  # fmt: skip
    caption = ("Standard deviation of one seat's net per hand, with and without its horse money, by role "
               "(delta-method 95% CI clustered by hand; hand counts in the title).")  # fmt: skip
    return [H.frame_html(view, "horses", label_columns=2), H.figure_html(figs["spread"], caption, "spread")]


def _liability_parts(tables) -> list[str]:
    liability = tables["liability"]
    if liability.empty:
        return [H.note(NO_LIABILITY)]
    view = pd.DataFrame({
        "run": liability["run"], "rule": liability["rule"], "liable seat": liability["liable_role"],
        "firings": liability["firings"].map("{:,.0f}".format),
        "share of hands [95% CI]": liability.apply(_interval("rate"), axis=1),
        "paid per firing ± 95% CI": liability.apply(_ci("paid_mean", 2, False), axis=1),
        "paid per hand ± 95% CI": liability.apply(_ci("paid_per_hand", 4, False), axis=1),
        "hands": liability["hands"].map("{:,}".format),
    })  # fmt: skip
    return [H.frame_html(view, "liability", label_columns=3)]


XZ_RULE_NAMES = {"flower_pig": "flower pig", "not_ready": "not ready", "tax_refund": "kong tax refund",
                 "call_transfer": "call transfer"}  # fmt: skip


def _xuezhan_parts(tables, figs) -> list[str]:
    """The 血战 section: per run a line of figures, the two figures, and the table of the settlement rules."""
    parts = []
    for o in tables["xz_overview"].to_dict("records"):
        counts = sorted(int(c.removeprefix("p_wins_")) for c in o
                        if c.startswith("p_wins_") and c.count("_") == 2 and not pd.isna(o[c]))  # fmt: skip
        shown = [k for k in counts if k <= 3]
        spread = ", ".join(f"{k}: {o[f'p_wins_{k}']:.3f}" for k in shown)
        more = f", more than 3: {sum(o[f'p_wins_{k}'] for k in counts if k > 3):.3f}" if counts[-1] > 3 else ""
        parts.append(H.paragraph(
            f"{o['run']}: {H.fmt_ci(o['mean_wins'], o['mean_wins_lo'], o['mean_wins_hi'], 3)} wins per hand "
            f"(share of hands with {spread}{more}); kong payments are "
            f"{H.fmt_interval(o['kong_share'], o['kong_share_lo'], o['kong_share_hi'], 3)} of all money moved "
            f"({o['gross_per_hand']:.2f} per hand over every component); the dealer's edge "
            f"{H.fmt_ci(o['dealer_edge'], o['dealer_edge_lo'], o['dealer_edge_hi'], 3, sign=True)} per hand."
        ))  # fmt: skip
    parts.append(H.figure_html(figs["xz_order"], (
        "Mean net per hand of a seat by the order of its first win (血流成河, XZ-H7: a seat's repeat wins keep "
        "the place of its first), with its 95% CI clustered by hand; weighted by the seat-hands at the bars "
        "the means add up to zero."), "xz_order"))  # fmt: skip
    parts.append(H.figure_html(figs["xz_rules"], (
        "Share of hands in which each rule moves money (Wilson 95% interval) and the money it moves per hand "
        "(sum of what the receivers get; 95% CI clustered by hand). 查花猪, 查叫 and 退税 are settled at an "
        "empty wall, 呼叫转移 during play."), "xz_rules"))  # fmt: skip
    rules = tables["xz_rules"]
    view = pd.DataFrame({
        "run": rules["run"],
        "rule": rules.apply(lambda r: f"{r['name']} {XZ_RULE_NAMES.get(r['rule'], r['rule'])} ({r['rule_id']})",
                            axis=1),
        "firings": rules["firings"].map("{:,.0f}".format),
        "share of hands [95% CI]": rules.apply(_interval("rate"), axis=1),
        "moved per firing ± 95% CI": rules.apply(_ci("moved_per_firing", 2, False), axis=1),
        "moved per hand ± 95% CI": rules.apply(_ci("moved_per_hand", 3, False), axis=1),
        "share of all money moved [95% CI]": rules.apply(_interval("share", 4), axis=1),
    })  # fmt: skip
    parts.append(H.frame_html(view, "xuezhan", label_columns=2))
    return parts


def _shuitou_parts(tables, figs) -> list[str]:
    """The 水头 section: per run a line of figures, the two figures, and the table of the 分牌 figures."""
    parts = []
    for o in tables["sht_overview"].to_dict("records"):

        def ci(name, digits=2, o=o):
            return H.fmt_ci(o[name], o[f"{name}_lo"], o[f"{name}_hi"], digits, sign=True)

        def share(name, o=o):
            return H.fmt_interval(o[name], o[f"{name}_lo"], o[f"{name}_hi"], 3)

        parts.append(H.paragraph(
            f"{o['run']}: the dealer's edge {ci('dealer_edge')} points per hand (win payments "
            f"{ci('dealer_edge_win')}, base settlement {ci('dealer_edge_base')}); the non-winners' settlement "
            f"moves {share('base_to_win')} points per point of win money, {share('base_share')} of all money moved "
            f"({o['gross_per_won_hand']:.1f} per hand with a winner); each 财神 held at the end goes with "
            f"{ci('net_per_caishen', 1)} points, each flower set aside with {ci('net_per_flower', 1)} and each "
            f"flower group held with {ci('net_per_group', 1)} (least-squares slopes)."
        ))  # fmt: skip
    parts.append(H.figure_html(figs["sht_values"], (
        "Mean net per hand of a seat by the 财神 (wilds) it held as the hand ended and by the flowers it set aside, "
        "with its 95% CI clustered by session; the highest counts are pooled (4+, 6+). These are associations: a "
        "seat that ends with 财神 also wins more often, which is part of what they are worth."), "sht_values"))  # fmt: skip
    parts.append(H.figure_html(figs["sht_money"], (
        "Left: points moved per hand with a winner by the win payments (SHT-M1), the non-winners' pairwise "
        "base-台 settlement (SHT-M2) and 包牌 liability (SHT-M3), each the sum of what its receivers get; the "
        "number at a bar is its share of all money moved. Right: the dealer's net minus the mean net of the other "
        "three, per hand, in total and by component. 95% CIs clustered by session."), "sht_money"))  # fmt: skip
    o = tables["sht_overview"]
    view = pd.DataFrame({
        "run": o["run"],
        "hands reaching 分牌 [95% CI]": o.apply(_interval("split_reached"), axis=1),
        "hands won on a 分牌 tile [95% CI]": o.apply(_interval("split_decided"), axis=1),
        "of the 分牌 hands, won on one [95% CI]": o.apply(_interval("split_decided_when_reached", 3), axis=1),
        "分牌 hands": o["split_decided_when_reached_n"].map("{:,.0f}".format),
        "drawn hands [95% CI]": o.apply(_interval("drawn"), axis=1),
    })  # fmt: skip
    parts.append(H.frame_html(view, "shuitou", label_columns=1))
    return parts


def _offset_table(seats: pd.DataFrame) -> str:
    part = seats[seats["by"] == "offset"]
    view = pd.DataFrame({
        "run": part["run"], "seat": part["group"].astype(str).map(lambda g: F.OFFSET_NAMES.get(g, g)),
        "hands": part["n"].map("{:,.0f}".format),
        "win rate [95% CI]": part.apply(_interval("win_rate"), axis=1),
        "deal-in rate [95% CI]": part.apply(_interval("deal_in_rate"), axis=1),
        "mean net ± 95% CI": part.apply(_ci("mean_net"), axis=1),
    })  # fmt: skip
    return H.frame_html(view, "offsets", label_columns=2)


def report_sections(runs: list[Run], tables, figs) -> list[dict]:
    """The sections of the page (see :func:`mjsim.report.html.render_html`)."""
    sections = [_runs_section(runs, tables)]
    if not tables["compare"].empty:
        references = ", ".join(dict.fromkeys(tables["compare"]["reference"]))
        sections.append({"heading": "Comparison", "intro": (
            f"Each run against the first run of its comparison group ({references}): mean net, win rate and "
            "deal-in rate by role."), "parts": _compare_parts(tables, figs)})  # fmt: skip
    sections += [
        {"heading": "Payout distribution", "intro": (
            "How much one seat wins or loses in a single hand, dealer and non-dealers apart: the probability of "
            "each net (left) and its cumulative distribution (right)."), "parts": [
            H.figure_html(figs["payouts"], "Empirical distribution of one seat's net per hand by role; "
                          "no interval (the hand count is in the title). Left: clipped at the 0.5% and 99.5% "
                          "quantiles, what lies beyond stated above each row; right: the full range, on a "
                          "logarithmic scale beyond the clipped range where the tails reach further.",
                          "payouts")]},
        {"heading": "Sessions", "intro": (
            "Each seat's running total over its session: the median path and the bands holding the middle 50% "
            "and 90% of seat paths after each hand."), "parts": [
            H.figure_html(figs["paths"], "Empirical quantiles of the cumulative net of one seat by hands played; "
                          "hand and seat-session counts in the panel titles.", "paths"),
            *_risk_parts(tables)]},
        {"heading": "Patterns and fan", "intro": "How often each scoring pattern or bonus is part of a winning "
         "hand, and how the fan of wins is distributed.", "parts": [
            H.figure_html(figs["patterns"], "Share of wins with each pattern, Wilson 95% interval (clustered by "
                          "hand); the number at a bar's end is its count of wins. Runs with identical patterns "
                          "(variants that settle the same hands otherwise) are drawn once, labelled with all of "
                          "them.", "patterns"),
            H.figure_html(figs["fans"], "Share of wins at each fan (units in 推倒胡), Wilson 95% interval; runs "
                          "with identical fan counts drawn once.", "fans")]},
        {"heading": "Where the money comes from", "intro": (
            "Mean net per seat per hand split into its components — win payments, kong payments, horses 买马, "
            "liability 包, penalties and (水头) the non-winners' base settlement — for the dealer and the non-dealers. Components that are zero in every "
            "hand of a run are left out of its panel."), "parts": [
            H.figure_html(figs["components"], "Mean per seat per hand with its 95% CI (clustered by hand); hand "
                          "counts in the panel titles.", "components"),
            H.heading("Horses 买马"), *_horse_parts(tables, figs),
            H.heading("Liability 包"), *_liability_parts(tables)]},
        {"heading": "Seat and dealer effects", "intro": (
            "Mean net per hand by seat relative to the dealer (dealer+1 plays right after the dealer) and by "
            "absolute seat. Absolute seats should not differ when the seats play the same policy."), "parts": [
            H.figure_html(figs["seats"], "Mean net per hand with its 95% CI (clustered by hand); hand counts in "
                          "the title.", "seats"),
            _offset_table(tables["seats"])]},
    ]  # fmt: skip
    if not tables["xz_order"].empty:
        sections.append({"heading": "血战到底: win order and settlement rules", "intro": (
            "Runs of the Sichuan 血战 family only. Wins per hand, what a seat earns by the order of its first win, "
            "and the rules that move money besides wins and kongs: 查花猪 (XZ-E1), 查叫 (XZ-E2) and 退税 (XZ-E3) "
            "at an empty wall, 呼叫转移 (XZ-M4) during play. 'All money moved' is the sum over the components of "
            "net (wins, kongs, penalties, ...) of what each component's receivers get; the dealer's edge is the "
            "dealer's net minus the mean net of the other three, per hand."),
            "parts": _xuezhan_parts(tables, figs)})  # fmt: skip
    if not tables["sht_values"].empty:
        sections.append({"heading": "水头: the dealer's edge, 财神 and flowers, 分牌", "intro": (
            "Runs of the Pingyang 水头 family only. Every payment to or from the dealer counts twice (SHT-M1, SHT-M2, "
            "option dealer_pays_double); after the win payments the three non-winners settle their base 台 pair by "
            "pair (SHT-M2); at 24 tiles left each player gets one 分牌 tile and may win on it (SHT-P7), else the "
            "hand is drawn. The dealer keeps the deal while winning (SHT-P8), so the hands of a session are not "
            "independent: intervals here are clustered by session. 'All money moved' adds up, over the components "
            "of net, what each component's receivers get."),
            "parts": _shuitou_parts(tables, figs)})  # fmt: skip
    return sections


def table_section(heading: str, intro: str, frame, formats: dict | None = None, label_columns: int = 1) -> dict:
    """A report section holding one computed table (a polars or pandas frame), e.g. a comparison's extra
    results, for :func:`write_report`'s ``extra_sections``."""
    frame = frame.to_pandas() if hasattr(frame, "to_pandas") else frame
    return {"heading": heading, "intro": intro, "parts": [H.frame_html(frame, "extra", formats, label_columns)]}


def write_report(
    run_dirs, out_path, title: str | None = None, labels=None, allow_partial: bool = False,
    extra_sections: list[dict] | None = None, comparisons: list[list[str]] | None = None, questions=None,
) -> Path:  # fmt: skip
    """Write the HTML report of ``run_dirs`` to ``out_path`` (parents created); return its path.

    ``labels`` name the runs (default: ruleset names, told apart by their
    differing options); ``title`` heads the page (default: the labels);
    ``extra_sections`` (:func:`table_section`) follow the description of the runs;
    ``comparisons``: lists of run labels, each run compared with the first of its list (default: all with
    the first run);
    ``questions`` (answered :class:`mjsim.analysis.verdict.Question`) open the page, verdict first.
    """
    runs = load_runs(run_dirs, labels, allow_partial)
    with Progress(len(runs) * len(PER_RUN_TABLES) + 2, label="report steps") as bar:
        tables = report_tables(runs, progress=bar, comparisons=comparisons)
        figs = report_figures(tables)
        bar.update(1)
        title = title or "mjsim report: " + " vs ".join(r.label for r in runs)
        sections = report_sections(runs, tables, figs)
        sections[1:1] = list(extra_sections or [])
        if questions:
            sections.insert(0, answers_section(questions))
        page = H.render_html(title, sections)
        bar.update(1)
    for fig in figs.values():
        if hasattr(fig, "clear"):
            fig.clear()
    out = Path(out_path)
    if out.is_dir():
        raise ValueError(f"{out} is a directory: give the report's file name (e.g. {out / 'report.html'})")
    out.parent.mkdir(parents=True, exist_ok=True)
    RunStore(out.parent).write_bytes(out.name, page.encode("utf-8"))
    return out
