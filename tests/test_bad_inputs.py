"""Bad input never ends in a traceback (issue 9): a table of bad CLI and API inputs.

Every CLI case runs in an empty temporary directory (the working directory)
and must end with exactly one line on standard error starting
``mjsim: error:``, exit status 2 for the user's input or 1 for a file-system
failure, no traceback, no raw control character, and nothing written (the
temporary directory stays empty; the shared fixture files are unchanged).
Most cases call ``mjsim.cli.main(argv)`` in this process; a few dozen run the
real ``python -m mjsim.cli`` in a subprocess.  API cases must raise
``ValueError`` or ``TypeError`` with a one-line message and write nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from mjsim import base_tai, ruleset, score_hand
from mjsim.analysis import pattern_table, seat_table, session_risk
from mjsim.analysis.paired import hands_needed
from mjsim.analysis.resettle import resettle
from mjsim.analysis.variants import build_variants, parse_vary, seatings
from mjsim.cli import build_parser, main
from mjsim.io import read_hands
from mjsim.io.dataset import scan_hands
from mjsim.report import load_runs, write_report
from mjsim.rules import loads
from mjsim.sim.parallel import RunSpec, simulate
from mjsim.tiles import format_counts, parse_meld, parse_tiles, tile_name

REPO = Path(__file__).resolve().parents[1]
HAND = "123m456p789s234m11z"  # a 鸡平胡 win (all chows)
SHT_HAND = "123m456m789m234p567p77z"  # a 水头 win (17 tiles, 5 sets + pair)
USER, IO = 2, 1


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """Fixture paths the cases name: a small run, house files (bad ones), a plain file, an empty and a read-only dir."""
    root = tmp_path_factory.mktemp("shared")
    run = root / "run"
    spec = RunSpec(ruleset("jipinghu"), ("efficiency",), 16, session_length=8, seed=3)
    simulate(spec, run, workers=1, progress=False)
    files = {
        "bad_toml": "cap = \n",
        "unknown_option": 'extends = "jipinghu"\nfrobnicate = 1\n',
        "bad_value": 'extends = "jipinghu"\ncap = "lots"\n',
        "bad_extends": 'extends = "no_such_preset"\n',
        "cycle": 'extends = "cycle.toml"\n',
        "no_family": 'name = "x"\n',
        "escape": 'extends = "jipinghu"\nname = "evil\\u001b[31m"\ndescription = "wipe \\u001b[2J \\u009b screen"\n',
    }
    paths = {"run": run, "root": root}
    for name, text in files.items():
        paths[name] = root / f"{name}.toml"
        paths[name].write_text(text, encoding="utf-8")
    paths["binary"] = root / "binary.toml"
    paths["binary"].write_bytes(b"\xff\xfe\x00cap = 3")
    paths["huge"] = root / "huge.toml"
    paths["huge"].write_bytes(b"#" * (2 << 20))
    paths["file"] = root / "plain.txt"
    paths["file"].write_text("not a run\n")
    paths["empty"] = root / "empty"
    paths["empty"].mkdir()
    paths["no_parts"] = root / "no_parts"
    paths["no_parts"].mkdir()
    for info in run.glob("*.json"):  # the run's metadata, without its hand logs
        (paths["no_parts"] / info.name).write_text(info.read_text())
    paths["ro"] = _read_only_dir(root)
    return paths


def _read_only_dir(root: Path) -> Path:
    """A directory nobody may write into: /sys for root (permission bits do not stop root), else a 0o555 dir."""
    if os.geteuid() == 0:
        return Path("/sys")
    ro = root / "read_only"
    ro.mkdir()
    ro.chmod(0o555)
    return ro


def _fill(argv, paths) -> list[str]:
    return [a.format(**{k: str(v) for k, v in paths.items()}) for a in argv]


def _snapshot(root: Path) -> dict:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


def _check_one_line_error(status, stderr, expected_status, cwd: Path, before, shared) -> None:
    assert "Traceback" not in stderr
    assert status == expected_status, stderr
    lines = stderr.splitlines()
    prefix = "mjsim: " if expected_status == 130 else "mjsim: error: "  # Ctrl-C: "mjsim: interrupted..."
    assert len(lines) == 1 and lines[0].startswith(prefix) and len(lines[0]) > 16, stderr
    assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in lines[0]), repr(lines[0])
    assert list(cwd.iterdir()) == [], "a failed command wrote files"
    assert _snapshot(shared["root"]) == before, "a failed command changed the shared fixtures"


# -- the CLI table -----------------------------------------------------------------------------------------

SIM = ["simulate", "--hands", "16", "--session-length", "8"]
CMP = ["compare", "--hands", "16", "--workers", "1"]

CLI_CASES = [
    # the command line itself
    ([], USER),
    (["frobnicate"], USER),
    (["--frobnicate"], USER),
    (["rules", "jipinghu", "extra"], USER),
    (["rules", "--frob"], USER),
    # rulesets: presets and house files
    (["rules", "no_such_preset"], USER),
    (["rules", ""], USER),
    (["rules", "/no/such/dir/house.toml"], USER),
    (["rules", "missing.toml"], USER),
    (["rules", "{root}"], USER),
    (["rules", "/dev/zero"], USER),
    (["rules", "/dev/null"], USER),
    (["rules", "{bad_toml}"], USER),
    (["rules", "{unknown_option}"], USER),
    (["rules", "{bad_value}"], USER),
    (["rules", "{bad_extends}"], USER),
    (["rules", "{cycle}"], USER),
    (["rules", "{no_family}"], USER),
    (["rules", "{binary}"], USER),
    (["rules", "{huge}"], USER),
    (["rules", "{root}/evil\x1b[31m.toml"], USER),
    # score: tiles, melds, the situation
    (["score"], USER),
    (["score", "123m"], USER),
    (["score", "123x456p789s234m11z"], USER),
    (["score", "023m456p789s234m11z"], USER),
    (["score", "123m456p789s234m88z"], USER),
    (["score", "11111m456p789s23m1z"], USER),
    (["score", "123m456p789s234m1z"], USER),
    (["score", "123m456p789s235m11z"], USER),
    (["score", "123m456p789s234m1f1z"], USER),
    (["score", "123m456p789s234m11"], USER),
    (["score", "m123"], USER),
    (["score", ""], USER),
    (["score", HAND, "--ruleset", "no_such_preset"], USER),
    (["score", HAND, "--ruleset", "/dev/zero"], USER),
    (["score", HAND, "--ruleset", "{bad_value}"], USER),
    (["score", HAND, "--ruleset", "shuitou"], USER),
    (["score", HAND, "--ruleset", "tuidaohu"], USER),
    (["score", SHT_HAND, "--ruleset", "shuitou", "--flowers", "3m"], USER),
    (["score", SHT_HAND, "--ruleset", "shuitou", "--wilds", "1f"], USER),
    (["score", SHT_HAND, "--ruleset", "shuitou", "--wilds", "1m", "2m", "3m"], USER),
    (["score", "123m456m789m234p567p7z1f", "--ruleset", "shuitou"], USER),
    (["score", HAND, "--flowers", "1f"], USER),
    (["score", HAND, "--split-tile"], USER),
    (["score", HAND, "--seat", "4"], USER),
    (["score", HAND, "--seat", "-1"], USER),
    (["score", HAND, "--seat", "east"], USER),
    (["score", HAND, "--round-wind", "7"], USER),
    (["score", HAND, "--discard-winners", "4"], USER),
    (["score", HAND, "--discard-winners", "two"], USER),
    (["score", HAND, "--discard-winners", "2", "--self-draw"], USER),
    (["score", HAND, "--win-tile", "9z"], USER),
    (["score", HAND, "--win-tile", "12m"], USER),
    (["score", HAND, "--win-tile", "5q"], USER),
    (["score", HAND, "--self-draw", "--robbed-kong"], USER),
    (["score", HAND, "--kong-replacement"], USER),
    (["score", HAND, "--kong-replacement", "--self-draw"], USER),
    (["score", HAND, "--first-turn", "--seat", "0"], USER),
    (["score", "123m456p789s11z", "--melds", "pung:5"], USER),
    (["score", "123m456p789s11z", "--melds", "chow:135m"], USER),
    (["score", "123m456p789s11z", "--melds", "trio:555z"], USER),
    (["score", "123m456p789s11z", "--melds", "kong:12m"], USER),
    (["score", "123m456p789s11z", "--melds", "pung:1f"], USER),
    (["score", "123m456p789s11z", "--melds", "5z"], USER),
    (["score", "123m456p789s11z", "--melds", "pung:1m", "pung:1m"], USER),
    (["score", HAND, "--frob"], USER),
    # simulate: numbers, rulesets, policies
    (["simulate", "--hands", "0"], USER),
    (["simulate", "--hands", "-8"], USER),
    (["simulate", "--hands", "many"], USER),
    (["simulate", "--hands", "1.5"], USER),
    (["simulate", "--hands", ""], USER),
    (["simulate", "--session-length", "0"], USER),
    (["simulate", "--session-length", "x"], USER),
    (["simulate", "--hands", "10", "--session-length", "3"], USER),
    (["simulate", "--workers", "0"], USER),
    (["simulate", "--workers", "-2"], USER),
    (["simulate", "--workers", "-100"], USER),
    (["simulate", "--workers", "two"], USER),
    (["simulate", "--workers", "1.5"], USER),
    (["simulate", "--seed", "-1"], USER),
    (["simulate", "--seed", "x"], USER),
    (["simulate", "--dealer", "4"], USER),
    (["simulate", "--round-wind", "5"], USER),
    (["simulate", "--ruleset", "no_such_preset"], USER),
    (["simulate", "--ruleset", "/dev/zero"], USER),
    (["simulate", "--ruleset", "{cycle}"], USER),
    ([*SIM, "--policy", "no_such_policy"], USER),
    ([*SIM, "--policy", "value:greed=lots"], USER),
    ([*SIM, "--policy", "efficiency", "--policy", "random"], USER),
    ([*SIM, "--policy", "efficiency;random"], USER),
    ([*SIM, "--policy", ""], USER),
    (["simulate", "--out", ""], USER),
    ([*SIM, "--out", "{run}"], USER),
    ([*SIM, "--quiet", "--frob"], USER),
    # simulate: output paths that cannot be written
    ([*SIM, "--out", "{file}"], USER),  # a file where a directory belongs: the user's to fix
    ([*SIM, "--out", "/dev/null"], USER),
    ([*SIM, "--out", "/dev/null/run"], IO),
    ([*SIM, "--out", "{ro}/mjsim-run"], IO),
    ([*SIM, "--out", "{file}/run"], IO),
    # compare
    ([*CMP, "--duplicate", "--policy", "efficiency", "--policy", "random"], USER),
    ([*CMP, "--duplicate", "--policy", "efficiency,random,defensive"], USER),
    (["compare", "--vary", "cap"], USER),
    (["compare", "--vary", "cap="], USER),
    (["compare", "--vary", "=3"], USER),
    (["compare", "--vary", "frobnicate=1,2"], USER),
    (["compare", "--vary", "cap=lots,5"], USER),
    (["compare", "--vary", "liability=maybe"], USER),
    (["compare", "--vary", "cap=3,3"], USER),
    (["compare", "--ruleset", "no_such_preset"], USER),
    (["compare", "--ruleset", "/dev/zero"], USER),
    (["compare", "--precision", "nan"], USER),
    (["compare", "--precision", "inf"], USER),
    (["compare", "--precision", "0"], USER),
    (["compare", "--precision", "-0.1"], USER),
    (["compare", "--precision", "tight"], USER),
    (["compare", "--hands", "0"], USER),
    (["compare", "--workers", "0"], USER),
    (["compare", "--workers", "-7"], USER),
    (["compare", "--seed", "-3"], USER),
    (["compare", "--session-length", "0"], USER),
    ([*CMP, "--session-length", "5"], USER),
    (["compare", "--out", ""], USER),
    (["compare", "--report", ""], USER),
    ([*CMP, "--session-length", "8", "--out", "{file}"], USER),
    ([*CMP, "--session-length", "8", "--out", "/dev/null"], USER),
    ([*CMP, "--session-length", "8", "--out", "/dev/null/compare"], IO),
    ([*CMP, "--session-length", "8", "--out", "{ro}/mjsim-compare"], IO),
    # report
    (["report"], USER),
    (["report", "{root}/no_such_run"], USER),
    (["report", "{file}"], USER),
    (["report", "{empty}"], USER),
    (["report", "{no_parts}"], USER),
    (["report", "{run}", "{run}"], USER),
    (["report", ""], USER),
    (["report", "{run}", "--out", ""], USER),
    (["report", "{run}", "--out", "{file}/report.html"], IO),
    (["report", "{run}", "--out", "/dev/null/report.html"], IO),
    (["report", "{run}", "--out", "{ro}/report.html"], IO),
    (["report", "{run}", "--out", "{empty}"], USER),
    # replay
    (["replay"], USER),
    (["replay", "{run}"], USER),
    (["replay", "{run}", "x"], USER),
    (["replay", "{run}", "-1"], USER),
    (["replay", "{run}", "99999"], USER),
    (["replay", "{root}/no_such_run", "0"], USER),
    (["replay", "{empty}", "0"], USER),
    (["replay", "", "0"], USER),
    # demo
    (["demo", "--hands", "0"], USER),
    (["demo", "--hands", "12"], USER),
    (["demo", "--workers", "0"], USER),
    (["demo", "--out", ""], USER),
    (["demo", "--report", ""], USER),
    (["demo", "--frob"], USER),
    (["demo", "--hands", "8", "--workers", "1", "--out", "/dev/null"], USER),
    (["demo", "--hands", "8", "--workers", "1", "--out", "{file}"], USER),
    (["demo", "--hands", "8", "--workers", "1", "--out", "/dev/null/demo"], IO),
]


def _case_id(case) -> str:
    argv, status = case
    return f"{status}:" + " ".join(argv).replace("{", "").replace("}", "")[:70]


@pytest.mark.parametrize("argv, status", CLI_CASES, ids=[_case_id(c) for c in CLI_CASES])
def test_cli_bad_input_is_one_line(argv, status, shared, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    before = _snapshot(shared["root"])
    code = main(_fill(argv, shared))
    _check_one_line_error(code, capsys.readouterr().err, status, tmp_path, before, shared)


# the same checks through the real console entry point, in a subprocess each
SUBPROCESS_CASES = [
    ([], USER),
    (["frobnicate"], USER),
    (["rules", "no_such_preset"], USER),
    (["rules", "/dev/zero"], USER),
    (["rules", "{bad_toml}"], USER),
    (["rules", "{root}/evil\x1b[31m.toml"], USER),
    (["score", "123m"], USER),
    (["score", "123x456p789s234m11z"], USER),
    (["score", HAND, "--ruleset", "/dev/zero"], USER),
    (["score", HAND, "--ruleset", "shuitou"], USER),
    (["score", HAND, "--seat", "4"], USER),
    (["score", "123m456p789s11z", "--melds", "pung:5"], USER),
    (["simulate", "--hands", "0"], USER),
    (["simulate", "--workers", "0"], USER),
    (["simulate", "--workers", "-1000"], USER),
    (["simulate", "--workers", "x"], USER),
    (["simulate", "--seed", "-1"], USER),
    (["simulate", "--out", ""], USER),
    (["simulate", "--ruleset", "no_such_preset"], USER),
    ([*SIM, "--policy", "no_such_policy"], USER),
    ([*SIM, "--out", "/dev/null"], USER),
    ([*SIM, "--out", "{file}"], USER),
    ([*SIM, "--out", "/dev/null/run"], IO),
    ([*SIM, "--out", "{ro}/mjsim-run"], IO),
    ([*CMP, "--duplicate", "--policy", "efficiency", "--policy", "random"], USER),
    (["compare", "--precision", "nan"], USER),
    (["compare", "--vary", "cap"], USER),
    (["report", "{file}"], USER),
    (["report", "{run}", "{run}"], USER),
    (["report", "{run}", "--out", "/dev/null/report.html"], IO),
    (["replay", "{run}", "99999"], USER),
    (["demo", "--workers", "0"], USER),
]


def _mjsim(argv, cwd, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("MJSIM_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "mjsim.cli", *argv], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=120, **kwargs,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("argv, status", SUBPROCESS_CASES, ids=[_case_id(c) for c in SUBPROCESS_CASES])
def test_cli_bad_input_is_one_line_in_a_real_process(argv, status, shared, tmp_path):
    before = _snapshot(shared["root"])
    done = _mjsim(_fill(argv, shared), tmp_path)
    _check_one_line_error(done.returncode, done.stderr, status, tmp_path, before, shared)


def test_ctrl_c_is_one_line_and_exit_130(shared, tmp_path):
    """A real SIGINT while a command runs: one line, status 130, no traceback."""
    before = _snapshot(shared["root"])
    script = (
        "import os, signal, sys; from mjsim import cli\n"
        "cli._cmd_rules = lambda args: os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.exit(cli.main(['rules']))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    _check_one_line_error(done.returncode, done.stderr, 130, tmp_path, before, shared)
    assert done.stderr.strip() == "mjsim: interrupted"


def test_keyboard_interrupt_message_is_passed_on(monkeypatch, capsys):
    """A command may say how to resume (the KeyboardInterrupt's message)."""
    from mjsim import cli

    def interrupted(args):
        raise KeyboardInterrupt("interrupted: resume with --resume")

    monkeypatch.setattr(cli, "_cmd_rules", interrupted)
    assert cli.main(["rules"]) == 130
    assert capsys.readouterr().err == "mjsim: interrupted: resume with --resume\n"


def test_a_closed_output_pipe_ends_quietly(tmp_path):
    """`mjsim rules | head`: the reader goes away; no BrokenPipeError traceback, status 141."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-m", "mjsim.cli", "rules"], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    child.stdout.close()  # before the child writes anything
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141
    assert stderr == ""


def test_an_unexpected_error_is_one_line_with_status_1(monkeypatch, capsys):
    from mjsim import cli

    def broken(args):
        raise KeyError("boom")

    monkeypatch.setattr(cli, "_cmd_rules", broken)
    monkeypatch.delenv("MJSIM_DEBUG", raising=False)
    assert cli.main(["rules"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjsim: error: unexpected KeyError: 'boom'") and err.count("\n") == 1


def test_io_errors_name_the_path_and_the_reason(shared, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main([*SIM, "--out", "/dev/null/run"]) == IO
    assert capsys.readouterr().err == "mjsim: error: cannot write /dev/null/run: Not a directory\n"
    assert main(["report", str(shared["run"]), "--out", "/dev/null/report.html"]) == IO
    assert capsys.readouterr().err == "mjsim: error: cannot write /dev/null: File exists\n"


# -- text from house files reaches the terminal escaped ------------------------------------------------------


@pytest.mark.parametrize("argv", [["rules", "{escape}"], ["score", HAND, "--ruleset", "{escape}"]])
def test_house_file_text_is_printed_escaped(argv, shared, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(_fill(argv, shared)) == 0
    out = capsys.readouterr().out
    assert "evil\\x1b[31m" in out
    assert not any(ord(c) < 32 and c not in "\n\t" or 0x7F <= ord(c) < 0xA0 for c in out)


def test_version(capsys):
    from mjsim import code_version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"mjsim {code_version()}\n"


# -- the API table -----------------------------------------------------------------------------------------

JPH = "jipinghu"


def _api_cases(paths):
    run, jph = paths["run"], ruleset(JPH)
    spec = RunSpec(jph, ("efficiency",), 16, session_length=8)
    return {
        # rulesets: a Ruleset, a preset name or a house file path, nothing else
        "ruleset(5)": (TypeError, lambda: ruleset(5)),
        "ruleset(None)": (TypeError, lambda: ruleset(None)),
        "ruleset(['jipinghu'])": (TypeError, lambda: ruleset([JPH])),
        "ruleset(unknown)": (ValueError, lambda: ruleset("no_such_preset")),
        "ruleset(/dev/zero)": (ValueError, lambda: ruleset("/dev/zero")),
        "ruleset(dir)": (ValueError, lambda: ruleset(paths["root"])),
        "ruleset(binary file)": (ValueError, lambda: ruleset(paths["binary"])),
        "ruleset(huge file)": (ValueError, lambda: ruleset(paths["huge"])),
        "ruleset(cap=lots)": (ValueError, lambda: ruleset(JPH, cap="lots")),
        "ruleset(frob=1)": (ValueError, lambda: ruleset(JPH, frobnicate=1)),
        "replace(cap=-1)": (ValueError, lambda: jph.replace(cap=-1)),
        "replace(chow=maybe)": (ValueError, lambda: jph.replace(chow="maybe")),
        "loads(bad toml)": (ValueError, lambda: loads("cap = ")),
        "loads(unknown option)": (ValueError, lambda: loads('extends = "jipinghu"\nfrob = 1')),
        # score_hand
        "score_hand(5, hand)": (TypeError, lambda: score_hand(5, HAND)),
        "score_hand(None, hand)": (TypeError, lambda: score_hand(None, HAND)),
        "score_hand(unknown preset)": (ValueError, lambda: score_hand("no_such_preset", HAND)),
        "score_hand(shuitou, 14 tiles)": (ValueError, lambda: score_hand("shuitou", HAND)),
        "score_hand(shuitou, flower in hand)": (ValueError, lambda: score_hand("shuitou", "123m456m789m234p567p7z1f")),
        "score_hand(shuitou, 5z held)": (ValueError, lambda: score_hand("shuitou", "123m456m789m234p567p55z")),
        "score_hand(shuitou, wild 5z)": (ValueError, lambda: score_hand("shuitou", SHT_HAND, wilds=["5z"])),
        "score_hand(shuitou, not a win)": (ValueError, lambda: score_hand("shuitou", "123m456m789m234p568p77z")),
        "score_hand(shuitou, flowers 3m)": (ValueError, lambda: score_hand("shuitou", SHT_HAND, flowers=["3m"])),
        "base_tai(jipinghu)": (ValueError, lambda: base_tai(JPH, HAND)),
        "base_tai(shuitou, 15 tiles)": (ValueError, lambda: base_tai("shuitou", "123m456m789m234p56p7z")),
        "hand of floats": (ValueError, lambda: score_hand(JPH, [0.5] * 14)),
        "hand of bools": (ValueError, lambda: score_hand(JPH, [True] * 14)),
        "hand id 42": (ValueError, lambda: score_hand(JPH, [42] * 14)),
        "hand id -1": (ValueError, lambda: score_hand(JPH, [-1] * 14)),
        "hand 5": (ValueError, lambda: score_hand(JPH, 5)),
        "hand None": (ValueError, lambda: score_hand(JPH, None)),
        "hand ''": (ValueError, lambda: score_hand(JPH, "")),
        "hand 1x": (ValueError, lambda: score_hand(JPH, "1x")),
        "melds 5": (ValueError, lambda: score_hand(JPH, "123m456p789s11z", melds=5)),
        "melds ['pung']": (ValueError, lambda: score_hand(JPH, "123m456p789s11z", melds=["pung"])),
        "seat 1.5": (ValueError, lambda: score_hand(JPH, HAND, seat=1.5)),
        "seat '1'": (ValueError, lambda: score_hand(JPH, HAND, seat="1")),
        "seat True": (ValueError, lambda: score_hand(JPH, HAND, seat=True)),
        "seat 4": (ValueError, lambda: score_hand(JPH, HAND, seat=4)),
        "round_wind -1": (ValueError, lambda: score_hand(JPH, HAND, round_wind=-1)),
        "win_tile 0.5": (ValueError, lambda: score_hand(JPH, HAND, win_tile=0.5)),
        "win_tile 99": (ValueError, lambda: score_hand(JPH, HAND, win_tile=99)),
        "win_tile two tiles": (ValueError, lambda: score_hand(JPH, HAND, win_tile="12m")),
        "discard_winners 0": (ValueError, lambda: score_hand(JPH, HAND, discard_winners=0)),
        "wild_kinds 9q": (ValueError, lambda: score_hand(JPH, HAND, wild_kinds="9q")),
        # tiles
        "parse_tiles(5)": (ValueError, lambda: parse_tiles(5)),
        "parse_tiles(1x)": (ValueError, lambda: parse_tiles("1x")),
        "parse_tiles(five 1m)": (ValueError, lambda: parse_tiles("11111m")),
        "parse_meld(pung)": (ValueError, lambda: parse_meld("pung")),
        "parse_meld(5)": (ValueError, lambda: parse_meld(5)),
        "tile_name(42)": (ValueError, lambda: tile_name(42)),
        "tile_name(-1)": (ValueError, lambda: tile_name(-1)),
        "format_counts(negative)": (ValueError, lambda: format_counts([-1] * 34)),
        # hand logs
        "read_hands(run, run)": (ValueError, lambda: read_hands(run, run)),
        "read_hands(run, run/.)": (ValueError, lambda: read_hands(run, run / ".")),
        "read_hands(missing)": (ValueError, lambda: read_hands(paths["root"] / "no_such_run")),
        "read_hands(empty dir)": (ValueError, lambda: read_hands(paths["empty"])),
        "scan_hands(5)": (TypeError, lambda: scan_hands(5)),
        "resettle(5)": (TypeError, lambda: resettle(5, cap=5)),
        "resettle(run, 5)": (TypeError, lambda: resettle(run, 5)),
        "resettle(run, unknown preset)": (ValueError, lambda: resettle(run, "no_such_preset")),
        "resettle(run, cap=lots)": (ValueError, lambda: resettle(run, cap="lots")),
        "resettle(run, chow=False)": (ValueError, lambda: resettle(run, chow=False)),
        "resettle(missing)": (ValueError, lambda: resettle(paths["root"] / "no_such_run", cap=5)),
        # simulate: workers 1 or more, or -1; a Ruleset in the spec
        "simulate(workers=0)": (ValueError, lambda: simulate(spec, "out", workers=0)),
        "simulate(workers=-2)": (ValueError, lambda: simulate(spec, "out", workers=-2)),
        "simulate(workers=1.5)": (TypeError, lambda: simulate(spec, "out", workers=1.5)),
        "simulate(workers='2')": (TypeError, lambda: simulate(spec, "out", workers="2")),
        "simulate(workers=True)": (TypeError, lambda: simulate(spec, "out", workers=True)),
        "simulate(workers=None)": (TypeError, lambda: simulate(spec, "out", workers=None)),
        "RunSpec(ruleset=name)": (TypeError, lambda: simulate(RunSpec(JPH, ("efficiency",), 16), "out")),
        "RunSpec(hands=0)": (ValueError, lambda: simulate(RunSpec(jph, ("efficiency",), 0), "out")),
        "RunSpec(two policies)": (ValueError, lambda: simulate(RunSpec(jph, ("efficiency", "random"), 8), "out")),
        # refused after the run's two workers have started (simulate starts them first)
        "RunSpec(unknown policy), 2 workers": (
            ValueError,
            lambda: simulate(RunSpec(jph, ("no_such_policy",), 16, chunk_hands=8), "out", workers=2),
        ),
        # analysis tables take hands as a LazyFrame, a DataFrame or a run directory
        "seat_table(5)": (TypeError, lambda: seat_table(5)),
        "seat_table(None)": (TypeError, lambda: seat_table(None)),
        "seat_table(dict)": (TypeError, lambda: seat_table({"hand_id": [1]})),
        "seat_table(missing dir)": (ValueError, lambda: seat_table(paths["root"] / "no_such_run")),
        "session_risk(5)": (TypeError, lambda: session_risk(5)),
        "pattern_table([1, 2])": (TypeError, lambda: pattern_table([1, 2])),
        # comparisons
        "seatings(two policies)": (ValueError, lambda: seatings(("efficiency", "random"))),
        "seatings(three policies)": (ValueError, lambda: seatings(("efficiency,random,defensive",))),
        "parse_vary(cap)": (ValueError, lambda: parse_vary("cap")),
        "parse_vary(cap=)": (ValueError, lambda: parse_vary("cap=")),
        "build_variants(unknown)": (ValueError, lambda: build_variants(["no_such_preset"], [])),
        "build_variants(cap=lots)": (ValueError, lambda: build_variants([JPH], ["cap=lots"])),
        "build_variants(frob=1)": (ValueError, lambda: build_variants([JPH], ["frobnicate=1"])),
        "hands_needed(nan)": (ValueError, lambda: hands_needed(1.0, float("nan"))),
        "hands_needed(0)": (ValueError, lambda: hands_needed(1.0, 0.0)),
        "hands_needed(-1)": (ValueError, lambda: hands_needed(1.0, -1.0)),
        "hands_needed(1e-300)": (ValueError, lambda: hands_needed(1.0, 1e-300)),
        # reports
        "write_report([])": (ValueError, lambda: write_report([], "r.html")),
        "write_report(run, run)": (ValueError, lambda: write_report([run, run], "r.html")),
        "write_report(missing)": (ValueError, lambda: write_report([paths["root"] / "no_such_run"], "r.html")),
        "load_runs(labels mismatch)": (ValueError, lambda: load_runs([run], labels=["a", "b"])),
    }


API_NAMES = list(_api_cases({"run": Path("r"), "root": Path("."), "empty": Path("e")}))


@pytest.mark.parametrize("name", API_NAMES)
def test_api_bad_input_raises_a_clear_error(name, shared, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = _snapshot(shared["root"])
    expected, call = _api_cases(shared)[name]
    with pytest.raises(expected) as raised:
        call()
    message = str(raised.value)
    assert message and "\n" not in message, message
    assert list(tmp_path.iterdir()) == []
    assert _snapshot(shared["root"]) == before


def _worker_processes() -> set[int]:
    """This process's children but the resource trackers loky and multiprocessing start once and keep for
    the life of the process (they are shared by every later run, not a run's workers)."""
    workers = set()
    for child in psutil.Process().children():
        try:
            if not any("resource_tracker" in part for part in child.cmdline()):
                workers.add(child.pid)
        except psutil.NoSuchProcess:  # it exited after it was listed
            continue
    return workers


def test_a_run_refused_after_its_workers_started_stops_them(tmp_path):
    before = _worker_processes()
    spec = RunSpec(ruleset(JPH), ("no_such_policy",), 16, chunk_hands=8)
    with pytest.raises(ValueError, match="unknown policy 'no_such_policy'"):
        simulate(spec, tmp_path / "run", workers=2)
    assert _worker_processes() <= before
    assert not (tmp_path / "run").exists()


def test_the_table_is_large():
    assert len(CLI_CASES) + len(SUBPROCESS_CASES) + len(API_NAMES) >= 150


def test_workers_minus_one_means_every_core_and_is_accepted_by_the_cli():
    from mjsim.sim.backends import resolve_workers

    assert resolve_workers(-1, 1000) == (os.cpu_count() or 1)
    assert build_parser().parse_args(["simulate", "--workers", "-1"]).workers == -1
