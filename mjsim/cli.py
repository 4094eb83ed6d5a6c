"""The ``mjsim`` command line: ``rules``, ``score``, ``simulate``, ``replay``, ``demo``.

Each subcommand is a thin wrapper: parsing here, work in the library.
Every failure is one line on standard error, never a traceback:

- ``mjsim: error: ...`` with exit status 2 for the user's input (bad options
  or values, bad tiles, unknown rulesets, illegal wins: ``ValueError``,
  ``TypeError``), naming the bad value and what is allowed;
- ``mjsim: error: cannot write PATH: REASON`` (or ``cannot read``) with exit
  status 1 for a file-system failure (``OSError``), and one line with exit
  status 1 for anything unexpected (``MJSIM_DEBUG=1`` shows its traceback);
- ``mjsim: interrupted`` (and how to resume a run) with exit status 130 on
  Ctrl-C; a closed output pipe (``mjsim rules | head``) ends quietly with
  exit status 141.

Standard output goes through :class:`mjsim.terminal.EscapingWriter`, so text
from house files never sends raw control sequences to the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from pathlib import Path

from mjsim import cli_args as A
from mjsim.terminal import EscapingWriter, one_line

EXAMPLE_HAND = "234m456p789s22z555z"


def _cmd_rules(args) -> None:
    from mjsim.rules import describe_presets, describe_ruleset, ruleset

    if args.name is None:
        print(describe_presets())
    else:
        print(describe_ruleset(ruleset(args.name)))


def _format_score(ruleset, score) -> str:
    lines = [f"ruleset {ruleset.name} ({ruleset.family}, hash {ruleset.content_hash})"]
    for pattern, value in score.fan_detail:
        lines.append(f"  {pattern:<28} {value:>3}")
    unit = "units" if ruleset.hand_value != "fan" else "fan"
    total = f"{score.fan} {unit}"
    if score.capped_from is not None:
        total += f" (capped from {score.capped_from})"
    if score.limit:
        total += " (limit hand)"
    lines.append(f"total: {total}")
    lines.append(f"points per payer: {score.points}")
    return "\n".join(lines)


def _format_shuitou_score(ruleset, score, wilds) -> str:
    """SHT-T: the base 台 and the winner 台 with each pattern, the doubling (SHT-T3) and the total."""
    from mjsim.rules.scoring.shuitou import BASE_IDS

    lines = [f"ruleset {ruleset.name} ({ruleset.family}, hash {ruleset.content_hash})"]
    if wilds:
        lines.append(
            f"财神 kinds {' '.join(wilds)}"
            + (f"; the held 财神 stood for {' '.join(score.assignment)}" if score.assignment else "")
        )
    base = [(pid, v) for pid, v in score.fan_detail if pid in BASE_IDS]
    winner = [(pid, v) for pid, v in score.fan_detail if pid not in BASE_IDS]
    lines.append("base 台:")
    lines += [f"  {pid:<28} {v:>3}" for pid, v in base] or ["  (none)"]
    lines.append(f"  {'base total':<28} {score.base_tai:>3}")
    lines.append("winner 台:")
    lines += [f"  {pid:<28} {v:>3}" for pid, v in winner] or ["  (none)"]
    raw = sum(v for _, v in score.fan_detail)
    if raw >= ruleset.double_from_tai:
        lines.append(f"{raw} 台 >= {ruleset.double_from_tai}: doubled x{ruleset.double_factor} (SHT-T3)")
    else:
        lines.append(f"{raw} 台 < {ruleset.double_from_tai}: not doubled (SHT-T3)")
    lines.append(f"total: {score.points} 台")
    lines.append(f"points per payer: {score.points}")
    return "\n".join(lines)


def _cmd_score(args) -> None:
    from mjsim import ruleset, score_hand

    rules = ruleset(args.ruleset)
    extra = {}  # only what was given, so the other families see the same call as before
    if args.flowers is not None:
        extra["flowers"] = tuple(args.flowers)
    if args.wilds is not None:
        extra["wilds"] = tuple(args.wilds)
    if args.split_tile:
        extra["split_tile"] = True
    score = score_hand(
        rules,
        args.hand,
        melds=tuple(args.melds or ()),
        win_tile=args.win_tile,
        self_draw=args.self_draw,
        seat=args.seat,
        round_wind=args.round_wind,
        kong_replacement=args.kong_replacement,
        robbed_kong=args.robbed_kong,
        last_tile=args.last_tile,
        first_turn=args.first_turn,
        discard_winners=args.discard_winners,
        **extra,
    )
    shown = f"hand {args.hand}" + (f" melds {' '.join(args.melds)}" if args.melds else "")
    shown += f" flowers {' '.join(args.flowers)}" if args.flowers else ""
    print(shown)
    if rules.family == "shuitou":
        print(_format_shuitou_score(rules, score, args.wilds))
    else:
        print(_format_score(rules, score))


def _import_analysis() -> None:
    import mjsim.analysis  # noqa: F401  (0.3 s: polars)


def _cmd_simulate(args) -> None:
    # the analysis (polars) is imported after the run: the run's worker processes start first (mjsim.sim.parallel)
    from mjsim import ruleset
    from mjsim.sim.parallel import CHUNK_HANDS, RunSpec, resume, simulate

    if args.resume:
        info = resume(args.resume, workers=args.workers, scheduler=args.scheduler)
        out = args.resume
    else:
        rules = ruleset(args.ruleset)
        policies = tuple(args.policy or ["efficiency"])
        out = args.out
        if out is None:
            from mjsim.analysis.variants import directory_name

            out = f"data/runs/{directory_name(rules.name)}-s{args.seed}"
        spec = RunSpec(
            ruleset=rules, policies=policies, hands=args.hands, session_length=args.session_length, seed=args.seed,
            first_dealer=-1 if args.dealer == "random" else int(args.dealer), round_wind=args.round_wind,
            chunk_hands=args.chunk_hands or CHUNK_HANDS,
        )  # fmt: skip
        info = simulate(
            spec, out, workers=args.workers, overwrite=args.overwrite, scheduler=args.scheduler,
            on_tail=_import_analysis,
        )  # fmt: skip
    from mjsim.analysis import format_summary, run_summary

    print(f"run {info['run_id']}: {info['hands']:,} hands of {info['ruleset']} in {info['seconds']:.1f} s -> {out}")
    print(f"policies by seat: {', '.join(info['policies'])}")
    print(format_summary(run_summary(out)))


def _cmd_replay(args) -> None:
    from mjsim.sim.replay import replay_hand

    lines, _, differences = replay_hand(args.run_dir, args.hand_id, allow_partial=args.partial)
    print("\n".join(lines))
    if differences:
        raise RuntimeError(
            f"the replay of hand {args.hand_id} differs from its logged row ({'; '.join(differences)}): "
            "the run was made by other code or its log is damaged"
        )


def _cmd_compare(args) -> None:
    from mjsim.analysis.variants import (
        adapted_play_split,
        build_variants,
        check_targets,
        comparison_groups,
        comparison_table,
        format_comparison,
        format_split,
        run_variants,
        seating_suffixes,
        seatings,
        unique_runs,
    )
    from mjsim.analysis.verdict import answer, format_answers, questions_from_entries
    from mjsim.report import write_report
    from mjsim.report.build import table_section

    if args.panel:
        return _compare_panel(args)
    policies = tuple(args.policy or ["efficiency"])
    variants = build_variants(args.ruleset or ["jipinghu"], args.vary or [], policies=policies)
    out = Path(args.out)
    if (out / "comparison.json").exists() and not args.overwrite:
        raise ValueError(f"{out} already holds a comparison; choose another --out or pass --overwrite")
    arrangements = seatings(policies) if args.duplicate else [policies]
    check_targets(variants, out, seating_suffixes(len(arrangements)), args.overwrite)
    if args.duplicate and len(arrangements) == 1:
        print(
            "balanced seating: all four seats play the same policy, so there is one seating (--duplicate changes nothing)"
        )
    elif args.duplicate:
        print(f"balanced seating: every wall in {len(arrangements)} distinct seatings of the policies")
    for v in variants:
        how = f"re-settled from {v.base_label}" if v.base_label else "simulated"
        if v.mechanical_of:
            how += f" (the mechanical part of {v.mechanical_of}, which a seated policy plays differently)"
        print(f"variant {v.label}: {how}")
    entries = run_variants(
        variants, policies, args.hands, session_length=args.session_length,
        seed=args.seed, workers=args.workers, out_dir=out, duplicate=args.duplicate, overwrite=args.overwrite,
        scheduler=args.scheduler,
    )  # fmt: skip
    table = comparison_table(entries, precision=args.precision)
    print(format_comparison(table, precision=args.precision))
    table.write_csv(out / "comparison.csv")
    extra = []
    if len(arrangements) > 1:
        extra.append(table_section(
            "Balanced seating", f"Every wall played in {len(arrangements)} seatings; each policy's mean net per "
            "hand pooled over them, the difference to the first variant paired within a seating, clustered by "
            "wall (95% intervals).", table.drop("group"),
        ))  # fmt: skip
    split = adapted_play_split(entries)
    if split is not None:
        print("\nadapted play: each effect split into the rule's mechanical part and the players' response")
        print(format_split(split))
        split.write_csv(out / "split.csv")
        extra.append(table_section(
            "Adapted play", "A seated policy reads what these variants change, so they were played again on the "
            "same walls. Each effect on mean net per hand is split: mechanical = the base hands paid under the "
            "variant; behavioural = how the players' changed play moved it (paired 95% intervals).", split,
        ))  # fmt: skip
    questions = [answer(q) for q in questions_from_entries(entries)]
    if questions:
        print("\n" + format_answers(questions))
    shown = unique_runs(entries)  # the report describes the first seating's runs
    report = write_report(
        [e["path"] for e in shown],
        args.report or out / "report.html",
        title=args.title or "mjsim comparison",
        labels=[e["label"] for e in shown],
        extra_sections=extra,
        comparisons=comparison_groups(entries),
        questions=questions,
    )
    print(f"comparison -> {out / 'comparison.csv'}; report -> {report}")


def _cmd_advise(args) -> None:
    """A grid of rule options, each combination's headline measures, the Pareto set and the page."""
    from mjsim import ruleset
    from mjsim.analysis.advise import advise, grid, run_grid
    from mjsim.analysis.advise_words import format_table, summary_text
    from mjsim.analysis.variants import check_targets, directory_name
    from mjsim.report.advise import write_advice

    rules = ruleset(args.ruleset)
    if args.hands % args.session_length:
        raise ValueError(
            f"--hands {args.hands} is not a multiple of --session-length {args.session_length}: "
            f"give e.g. {max(1, round(args.hands / args.session_length)) * args.session_length}"
        )
    policies = tuple(args.policy or ["efficiency"])
    combinations = grid(args.ruleset, args.consider, policies=policies)
    out = Path(args.out or f"data/advise/{directory_name(rules.name)}")
    if not args.overwrite and any((out / f"advice.{x}").exists() for x in ("csv", "png", "html")):
        raise ValueError(f"{out} already holds advice; choose another --out or pass --overwrite")
    check_targets([c.variant for c in combinations], out, overwrite=args.overwrite)  # refuse before any work
    print(f"{len(combinations)} combinations of {rules.name}, {args.hands:,} hands each on the same walls "
          f"(seed {args.seed}):")  # fmt: skip
    for c in combinations:
        print(f"  {c.label}: {c.method}")
    combinations, entries = run_grid(
        combinations, policies, args.hands, session_length=args.session_length, seed=args.seed,
        workers=args.workers, out_dir=out, overwrite=args.overwrite,
    )  # fmt: skip
    result = advise(combinations, entries)
    print("\n" + "\n\n".join(summary_text(result)))
    print("\n" + format_table(result))
    paths = write_advice(result, out)
    print(f"\nadvice -> {paths['html']} (table {paths['csv'].name}, figure {paths['png'].name}); runs -> {out}")


def _compare_panel(args) -> None:
    """``compare --panel``: every variant played by each member of a policy panel (and a mixed table)."""
    from mjsim.analysis.panel import format_panel, load_panel, panel_effects, run_panel
    from mjsim.analysis.variants import build_variants, check_targets, comparison_groups, seating_suffixes, seatings
    from mjsim.analysis.verdict import format_answers, panel_questions
    from mjsim.report import write_report
    from mjsim.report.build import table_section

    if args.policy:
        raise ValueError("give --panel or --policy, not both: a panel names its own players")
    panel = load_panel(args.panel)
    out = Path(args.out)
    rulesets = args.ruleset or ["jipinghu"]
    for table, policies in panel.tables().items():  # refuse before any work starts
        variants = build_variants(rulesets, args.vary or [], policies=policies)
        count = len(seatings(policies)) if args.duplicate else 1
        check_targets(variants, out / table, seating_suffixes(count), args.overwrite)
    print(f"panel {panel.name}: {', '.join(f'{k} ({v})' for k, v in panel.members.items())}, and a mixed table")
    results = run_panel(
        rulesets, args.vary or [], panel, args.hands, session_length=args.session_length, seed=args.seed,
        workers=args.workers, out_dir=out, duplicate=args.duplicate, overwrite=args.overwrite,
        scheduler=args.scheduler,
    )  # fmt: skip
    effects = panel_effects(results)
    print(format_panel(effects))
    effects.write_csv(out / "panel.csv")
    questions = panel_questions(results, "mixed")
    if questions:
        print("\nthe questions, answered at the mixed table:\n" + format_answers(questions))
    mixed = [e for e in results["mixed"] if e["seating"] == 0]
    section = table_section(
        "Policy panel", f"Each rule effect (mean net per hand against the first variant, paired) for every player "
        f"type of panel {panel.name!r} at all four seats and for the mixed table, with the range over the panel. "
        "sign_differs: the point estimates lie on both sides of zero; sign_differs_clearly: so do 95% intervals.",
        effects,
    )  # fmt: skip
    report = write_report(
        [e["path"] for e in mixed], args.report or out / "report.html", title=args.title or "mjsim panel comparison",
        labels=[e["label"] for e in mixed], extra_sections=[section], comparisons=comparison_groups(results["mixed"]),
        questions=questions,
    )  # fmt: skip
    print(f"panel -> {out / 'panel.csv'}; report (the mixed table's runs) -> {report}")


def _cmd_report(args) -> None:
    from mjsim.report import write_report

    path = write_report(args.run_dirs, args.out, title=args.title, allow_partial=args.partial)
    print(f"report -> {path}")


def demo_variants():
    """The demo's three questions, each a comparison group (the reference first):

    - cap: 鸡平胡's 3-fan edition with its cap 爆胡 raised to 5 fan, nothing else changed;
    - edition: the whole 5-fan edition against the 3-fan edition, as packages;
    - horses: 推倒胡 with dealer horses 买马 against none.

    Each alternative re-settles the reference's hands (play is the same), and the 鸡平胡 run is shared."""
    from mjsim import ruleset
    from mjsim.analysis.variants import Variant

    three, five = ruleset("jipinghu"), ruleset("jipinghu_5fan")
    horses, none = ruleset("tuidaohu").replace(horses="dealer"), ruleset("tuidaohu").replace(horses="none")
    return [
        Variant("jipinghu", three, "", "cap"),
        Variant("jipinghu-cap=5", three.replace(cap=5), "jipinghu", "cap"),
        Variant("jipinghu", three, "", "edition"),
        Variant("jipinghu_5fan", five, "jipinghu", "edition"),
        Variant("tuidaohu-horses=dealer", horses, "", "horses"),
        Variant("tuidaohu-horses=none", none, "tuidaohu-horses=dealer", "horses"),
    ]


DEMO_TITLES = {
    "cap": "The cap 爆胡: 5 fan instead of 3, in the 3-fan edition of 鸡平胡 (nothing else changed)",
    "edition": "The 5-fan edition of 鸡平胡 instead of the 3-fan edition, as whole packages "
    "(cap, fan table, bonuses and special rules together)",
    "horses": "推倒胡 without dealer horses 买马 instead of with them",
}


def _cmd_demo(args) -> None:
    """The built-in default job: three house-rule questions answered on shared walls, and the report."""
    from mjsim import ruleset, score_hand
    from mjsim.analysis.variants import (
        comparison_groups,
        comparison_table,
        format_comparison,
        run_variants,
        unique_runs,
    )
    from mjsim.analysis.verdict import answer, format_answers, questions_from_entries
    from mjsim.report import write_report

    rules = ruleset("jipinghu")
    print(f"example hand {EXAMPLE_HAND}, self-drawn by the dealer's 下家:")
    print(_format_score(rules, score_hand(rules, EXAMPLE_HAND, self_draw=True, seat=1)))
    variants = demo_variants()
    out = Path(args.out)
    print(f"\nsimulating {args.hands:,} hands each of 鸡平胡 and 推倒胡 (four efficiency seats, sessions of 8)")
    print("(the first run compiles the simulator, a few minutes; later runs start at once)")
    for v in dict.fromkeys(v.label for v in variants):
        base = next(x.base_label for x in variants if x.label == v)
        print(f"  {v}: " + (f"the same hands re-settled from {base}" if base else "simulated"))
    entries = run_variants(variants, ("efficiency",), args.hands, session_length=8, seed=1, workers=args.workers,
                           out_dir=out, overwrite=True)  # fmt: skip
    table = comparison_table(entries)
    table.write_csv(out / "comparison.csv")
    questions = []
    for q in questions_from_entries(entries):
        q.title = DEMO_TITLES[q.group]
        questions.append(answer(q))
    print("\n" + format_answers(questions))
    print("\nmean net per hand by role, each question's runs against its reference:")
    print(format_comparison(table))
    shown = unique_runs(entries)
    report = write_report([e["path"] for e in shown], args.report, title="mjsim demo: three house-rule questions",
                          labels=[e["label"] for e in shown], comparisons=comparison_groups(entries),
                          questions=questions)  # fmt: skip
    print(f"\nruns -> {out}\nreport -> {report}")


class _VersionAction(argparse.Action):
    """``--version``: ``mjsim <release>+src.<hash>`` (the source hash is computed only when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from mjsim import code_version

        print(f"mjsim {code_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = A.OneLineParser(prog="mjsim", description="Monte Carlo strategy analytics for Chinese regional mahjong.")
    parser.add_argument("--version", action=_VersionAction, help="print the version and the source hash, then exit")
    sub = parser.add_subparsers(dest="command", required=True)
    quiet = argparse.ArgumentParser(add_help=False)
    quiet.add_argument("--quiet", "-q", action="store_true", help="no progress bars")

    rules = sub.add_parser("rules", help="list the presets, or show one ruleset's options")
    rules.add_argument("name", nargs="?", help="preset name or path to a house TOML file")
    rules.set_defaults(run=_cmd_rules)

    score = sub.add_parser("score", help="score one winning hand under a ruleset")
    score.add_argument("hand", help="concealed tiles incl. the winning tile, e.g. 123m456p789s234m11z")
    score.add_argument("--ruleset", "-r", default="jipinghu", help="preset name or house TOML file")
    score.add_argument("--melds", "-m", nargs="*", help="exposed melds, e.g. pung:5z chow:123m kong:9p ckong:1z")
    score.add_argument("--win-tile", help="the winning tile (default: the last tile written)")
    score.add_argument("--self-draw", action="store_true", help="won by self-draw 自摸")
    score.add_argument("--seat", type=int, default=1, choices=range(4), help="offset from the dealer (0 = dealer)")
    score.add_argument("--round-wind", type=int, default=0, choices=range(4), help="0 东 1 南 2 西 3 北")
    score.add_argument("--kong-replacement", action="store_true", help="won on a kong replacement tile 杠上开花")
    score.add_argument("--robbed-kong", action="store_true", help="won by robbing a kong 抢杠")
    score.add_argument("--last-tile", action="store_true", help="won on the last drawable tile 海底")
    score.add_argument("--first-turn", action="store_true", help="天和/地和/人和 situation")
    score.add_argument("--discard-winners", type=int, default=1, choices=(1, 2, 3), help="winners on this discard")
    score.add_argument("--flowers", nargs="*", help="flowers set aside (shuitou), e.g. 1f 2f 5z")
    score.add_argument("--wilds", nargs="*", help="the wild / 财神 kinds turned up, e.g. 3m 7z (SHT-P3, TDH-G1)")
    score.add_argument("--split-tile", action="store_true", help="won on a 分牌 tile (shuitou SHT-P7)")
    score.set_defaults(run=_cmd_score)

    sim = sub.add_parser("simulate", help="play many hands and log each one as Parquet", parents=[quiet])
    sim.add_argument("--ruleset", "-r", default="jipinghu", help="preset name or house TOML file")
    sim.add_argument(
        "--hands", "-n", type=A.positive_int, default=10_000,
        help="number of hands (a multiple of the session length)",
    )  # fmt: skip
    sim.add_argument(
        "--session-length", type=A.positive_int, default=1, help="hands per session (dealer rotation, C-X)"
    )
    sim.add_argument(
        "--policy", "-p", action="append",
        help="policy of every seat, or give it four times (one per absolute seat); "
        "e.g. efficiency, value:greed=0.8, defensive; a comma list random,efficiency,... also works",
    )  # fmt: skip
    sim.add_argument("--seed", type=A.non_negative_int, default=0, help="root seed: the same seed gives the same hands")
    sim.add_argument(
        "--workers", "-w", type=A.workers, default=1,
        help="processes (-1 = every core); rows do not depend on it",
    )  # fmt: skip
    sim.add_argument("--out", "-o", type=A.path, help="run directory (default data/runs/RULESET-sSEED)")
    sim.add_argument("--overwrite", action="store_true", help="replace the run already in --out (as a whole)")
    sim.add_argument(
        "--resume", metavar="DIR", type=A.path, help="finish the interrupted run in DIR (only its missing chunks)"
    )
    sim.add_argument("--scheduler", metavar="ADDRESS", help="run the chunks on a Dask cluster (tcp://host:8786)")
    sim.add_argument(
        "--chunk-hands",
        type=A.positive_int,
        help="hands per chunk, the unit of parallel work and of --resume (default 5,000; rows never depend on it)",
    )
    sim.add_argument("--dealer", default="random", choices=["random", "0", "1", "2", "3"], help="first dealer")
    sim.add_argument("--round-wind", type=int, default=0, choices=range(4), help="first round wind 0 东 .. 3 北")
    sim.set_defaults(run=_cmd_simulate)

    compare = sub.add_parser(
        "compare", help="compare rule options on the same walls (paired), with a report", parents=[quiet]
    )
    compare.add_argument("--ruleset", "-r", action="append", help="base ruleset(s); repeat for several")
    compare.add_argument(
        "--vary", action="append", help="OPTION=V1,V2,...: e.g. cap=3,5,none, liability=on,off, horses=none,dealer"
    )
    compare.add_argument("--hands", "-n", type=A.positive_int, default=20_000, help="hands per variant")
    compare.add_argument("--session-length", type=A.positive_int, default=8)
    compare.add_argument("--policy", "-p", action="append", help="as for simulate")
    compare.add_argument(
        "--panel",
        help="a policy panel (built-in name, or FILE.toml[:NAME]): every variant "
        "played by each member at all four seats, plus a mixed table",
    )
    compare.add_argument("--seed", type=A.non_negative_int, default=0)
    compare.add_argument("--workers", "-w", type=A.workers, default=2, help="processes (-1 = every core)")
    compare.add_argument(
        "--duplicate",
        action="store_true",
        help="balanced seating: every wall in every distinct seating of the policies",
    )
    compare.add_argument("--out", "-o", type=A.path, default="data/runs/compare", help="directory for the variant runs")
    compare.add_argument("--overwrite", action="store_true", help="replace the runs already in --out")
    compare.add_argument("--scheduler", metavar="ADDRESS", help="run the chunks on a Dask cluster (tcp://host:8786)")
    compare.add_argument("--report", type=A.path, help="HTML report path (default OUT/report.html)")
    compare.add_argument("--title")
    compare.add_argument(
        "--precision",
        type=A.positive_number,
        default=0.1,
        help="half-width of a 95%% interval on a difference: the table says how many hands it needs",
    )
    compare.set_defaults(run=_cmd_compare)

    advise = sub.add_parser(
        "advise", help="which combination of rule options to settle on: every combination's measures, the "
        "Pareto set of spread and dealer's edge, and a one-page report", parents=[quiet],
    )  # fmt: skip
    advise.add_argument("--ruleset", "-r", default="jipinghu", help="the base ruleset: preset or house TOML file")
    advise.add_argument(
        "--consider", action="append", required=True, metavar="OPTION=V1,V2",
        help="an option and its candidate values, as compare --vary (e.g. cap=3,4,5, liability=on,off, "
        "min_fan=0,1); repeat for several: every combination is run",
    )  # fmt: skip
    advise.add_argument(
        "--hands", "-n", type=A.positive_int, default=4_000,
        help="hands per combination (a multiple of the session length)",
    )  # fmt: skip
    advise.add_argument("--policy", "-p", action="append", help="as for simulate (default efficiency)")
    advise.add_argument("--session-length", type=A.positive_int, default=8, help="hands per session (C-X)")
    advise.add_argument("--seed", type=A.non_negative_int, default=0, help="root seed: every combination's walls")
    advise.add_argument("--workers", "-w", type=A.workers, default=2, help="processes (-1 = every core)")
    advise.add_argument(
        "--out", "-o", type=A.path, help="directory for the runs and advice.* (default data/advise/RULESET)"
    )
    advise.add_argument("--overwrite", action="store_true", help="replace the runs and advice already in --out")
    advise.set_defaults(run=_cmd_advise)

    report = sub.add_parser("report", help="write a self-contained HTML report of one or more runs", parents=[quiet])
    report.add_argument("run_dirs", nargs="+", type=A.path)
    report.add_argument("--out", "-o", type=A.path, default="reports/report.html")
    report.add_argument("--title")
    report.add_argument("--partial", action="store_true", help="also read incomplete runs (with a warning)")
    report.set_defaults(run=_cmd_report)

    replay = sub.add_parser("replay", help="re-simulate one logged hand and print it turn by turn")
    replay.add_argument("run_dir", type=A.path, help="a run directory written by mjsim simulate")
    replay.add_argument("hand_id", type=A.non_negative_int, help="the hand's hand_id")
    replay.add_argument("--partial", action="store_true", help="also read an incomplete run (with a warning)")
    replay.set_defaults(run=_cmd_replay)

    demo = sub.add_parser(
        "demo", help="the built-in default job: a small paired rule comparison and its report", parents=[quiet]
    )
    demo.add_argument("--hands", type=A.positive_int, default=8_000, help="hands per ruleset (a multiple of 8)")
    demo.add_argument("--workers", type=A.workers, default=2, help="processes (-1 = every core)")
    demo.add_argument(
        "--out", type=A.path, default="data/runs/demo", help="directory for the runs (replaced on every demo)"
    )
    demo.add_argument("--report", type=A.path, default="reports/demo.html", help="the HTML report")
    demo.set_defaults(run=_cmd_demo)
    return parser


SIGPIPE_STATUS = 141  # 128 + SIGPIPE, as a shell reports a program its closed pipe ended


def main(argv=None) -> int:
    """Run one command; return its exit status (0, 1 failure, 2 bad input, 130 Ctrl-C, 141 closed pipe)."""
    from mjsim import progress

    args = None
    quiet_before = progress.is_quiet()
    try:
        with contextlib.redirect_stdout(EscapingWriter(sys.stdout)):
            args = build_parser().parse_args(argv)
            if getattr(args, "quiet", False):
                progress.set_quiet(True)
            args.run(args)
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else 0
    except (ValueError, TypeError, NotImplementedError) as error:
        return _fail(str(error), 2)
    except BrokenPipeError:
        _silence_stdout()
        return SIGPIPE_STATUS
    except OSError as error:
        return _fail(_io_message(error, _output_paths(args)), 1)
    except RuntimeError as error:  # a failure while running (a cluster out of reach, a worker lost)
        return _fail(str(error), 1)
    except KeyboardInterrupt as interrupt:  # a run's message says what was kept and how to resume
        progress.close_all()
        print(f"mjsim: {one_line(str(interrupt))}" if str(interrupt) else "mjsim: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if os.environ.get("MJSIM_DEBUG"):
            raise
        return _fail(f"unexpected {type(error).__name__}: {error} (a bug: MJSIM_DEBUG=1 shows where)", 1)
    finally:
        progress.close_all()
        progress.set_quiet(quiet_before)
        _stop_workers()
    return 0


def _fail(message: str, status: int) -> int:
    from mjsim import progress

    progress.close_all()  # so the message starts its own line
    print(f"mjsim: error: {one_line(message)}", file=sys.stderr)
    return status


def _output_paths(args) -> list[Path]:
    """The paths the command writes to (its ``--out`` and ``--report``)."""
    return [Path(p).absolute() for p in (getattr(args, "out", None), getattr(args, "report", None)) if p]


def _io_message(error: OSError, outputs: list[Path]) -> str:
    """``cannot write PATH: REASON`` for a path under an output of the command, else ``cannot read ...``."""
    reason = error.strerror or str(error) or type(error).__name__
    if error.filename is None:
        return reason if not error.strerror else f"I/O error: {reason}"
    path = Path(os.fsdecode(error.filename))
    absolute = path.absolute()
    written = any(absolute == out or out in absolute.parents or absolute in out.parents for out in outputs)
    return f"{'cannot write' if written else 'cannot read'} {path}: {reason}"


def _silence_stdout() -> None:
    """Point standard output at /dev/null so that the interpreter's last flush does not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _stop_workers() -> None:
    """Stop the worker processes loky keeps for reuse: a command is done, so nothing lingers after it."""
    if "loky" in sys.modules:
        from loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=True)


def run() -> None:
    """The ``mjsim`` command (and ``python -m mjsim.cli``): :func:`main`, then exit with its status."""
    from mjsim.sim.backends import ONE_BLAS_THREAD

    for name, value in ONE_BLAS_THREAD.items():  # before numpy loads; an explicit setting stays
        os.environ.setdefault(name, value)
    status = main()
    # Everything the command writes is closed by now.  Left to itself, interpreter shutdown would search
    # numba's and pyarrow's objects for reference cycles once more (0.4 s of every command that ran a
    # kernel); frozen, they are left to the operating system.  Not in main(): tests call it many times.
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
