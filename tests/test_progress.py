"""Progress bars (tqdm), the quiet switch and ``--quiet``, and the platform cache directory (issue 9)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mjsim import progress, ruleset
from mjsim.cli import build_parser, main
from mjsim.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def not_quiet():
    progress.set_quiet(False)
    yield
    progress.set_quiet(False)


def test_a_bar_on_a_terminal_counts_and_shows_the_rate_and_an_eta():
    screen = Terminal()
    bar = Progress(20_000, label="hands", stream=screen)
    bar.update(5_000)
    bar.update(5_000)
    bar.close()
    text = screen.getvalue()
    assert "10000/20000" in text and " hands/s" in text
    assert "<" in text  # elapsed<remaining: the ETA
    assert bar.done == 10_000


def test_no_bar_off_a_terminal_unless_asked():
    piped = io.StringIO()
    Progress(10, stream=piped).update(10)
    assert piped.getvalue() == ""
    forced = io.StringIO()
    bar = Progress(10, stream=forced, enabled=True)
    bar.update(10)
    bar.close()
    assert "10/10" in forced.getvalue()


def test_the_quiet_switch_turns_every_bar_off():
    progress.set_quiet(True)
    screen = Terminal()
    bar = Progress(10, stream=screen, enabled=True)
    bar.update(10)
    bar.close()
    assert screen.getvalue() == "" and not bar.enabled and bar.done == 10


def test_close_all_ends_the_open_bars():
    screen = Terminal()
    bar = Progress(10, stream=screen)
    bar.update(3)
    progress.close_all()
    assert screen.getvalue().endswith("\n")
    bar.close()  # closing twice is harmless


@pytest.mark.parametrize("command", [["simulate"], ["compare"], ["report", "run"], ["demo"]])
def test_long_commands_take_quiet(command):
    assert build_parser().parse_args([*command, "--quiet"]).quiet is True
    assert build_parser().parse_args(command).quiet is False


def test_quiet_holds_for_the_command_only(monkeypatch):
    from mjsim import cli

    seen = []
    monkeypatch.setattr(cli, "_cmd_report", lambda args: seen.append(progress.is_quiet()))
    assert main(["report", "run", "--quiet"]) == 0
    assert main(["report", "run"]) == 0
    assert seen == [True, False] and not progress.is_quiet()


class Recorder:
    """Stands in for Progress: records the total and every update."""

    made: list[Recorder] = []

    def __init__(self, total, label="hands", stream=None, enabled=None):
        self.total, self.label, self.updates = total, label, []
        Recorder.made.append(self)

    def update(self, n):
        self.updates.append(n)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from mjsim.sim.parallel import RunSpec, simulate

    out = tmp_path_factory.mktemp("progress") / "run"
    simulate(RunSpec(ruleset("jipinghu"), ("efficiency",), 40, session_length=8, seed=5), out, progress=False)
    return out


def test_resettlement_reports_progress_over_every_hand(small_run, monkeypatch):
    from mjsim.analysis import resettle as module

    Recorder.made = []
    monkeypatch.setattr(module, "Progress", Recorder)
    monkeypatch.setattr(module, "PROGRESS_STEP", 16)
    module.resettle([small_run], cap=5)
    (bar,) = Recorder.made
    assert bar.total == 40 and bar.label == "hands re-settled"
    assert bar.updates == [16, 16, 8]


def test_report_building_reports_progress_step_by_step(small_run, tmp_path, monkeypatch):
    from mjsim.report import build

    Recorder.made = []
    monkeypatch.setattr(build, "Progress", Recorder)
    build.write_report([small_run], tmp_path / "r.html")
    (bar,) = Recorder.made
    assert bar.total == len(build.PER_RUN_TABLES) + 2 == 18  # the 血战 and 水头 tables are steps of every run
    assert sum(bar.updates) == bar.total and set(bar.updates) == {1}


def test_cache_dir_is_the_platform_user_cache_dir(monkeypatch, tmp_path):
    from mjsim.cache import cache_dir

    monkeypatch.delenv("MJSIM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # platformdirs follows it on Linux
    assert cache_dir() == tmp_path / "xdg" / "mjsim"
    monkeypatch.setenv("MJSIM_CACHE_DIR", str(tmp_path / "own"))
    assert cache_dir() == Path(tmp_path / "own")


def test_a_long_warm_up_says_on_the_bar_that_the_simulator_is_compiling_then_clears_it():
    import threading
    from concurrent.futures import Future

    from mjsim.sim.compile_notice import await_warm_up

    screen = Terminal()
    bar = Progress(100, stream=screen)
    compiling = Future()
    threading.Timer(0.3, compiling.set_result, (None,)).start()  # still running at the first two polls
    await_warm_up([compiling], bar, poll=0.01, quiet_for=0.0)
    shown = screen.getvalue()
    assert "compiling the simulator, first run only" in shown
    bar.update(100)
    bar.close()
    assert screen.getvalue().rsplit("\r", 1)[-1].startswith("100%")  # the last redraw has no note


def test_a_warm_up_that_fails_raises_its_error_and_a_quick_one_shows_no_note():
    from concurrent.futures import Future

    from mjsim.sim.compile_notice import await_warm_up

    screen = Terminal()
    bar = Progress(100, stream=screen)
    loaded = Future()
    loaded.set_result(None)
    await_warm_up([loaded], bar, poll=0.01, quiet_for=60.0)
    assert "compiling" not in screen.getvalue()
    broken = Future()
    broken.set_exception(RuntimeError("compiling the engine kernels failed"))
    with pytest.raises(RuntimeError, match="engine kernels failed"):
        await_warm_up([broken], bar, poll=0.01)
    bar.close()


def test_numba_compiling_in_this_process_is_noted_on_the_bar_while_it_lasts():
    import time

    import numba
    from numba.core import event

    from mjsim.sim.compile_notice import noting_compiles

    screen = Terminal()
    bar = Progress(100, stream=screen)
    with noting_compiles(bar, every=0.01) as watch:
        assert watch.note() == ""  # nothing compiling yet
        event.start_event("numba:compile", data={})  # what numba fires on a cache miss
        deadline = time.monotonic() + 30  # waits for the note's thread; not a timing check
        while "compiling the simulator" not in screen.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        noted = screen.getvalue()
        event.end_event("numba:compile", data={})
        assert watch.note() == ""
    assert "compiling the simulator, first run only: " in noted
    with noting_compiles(bar) as watch:
        numba.njit(lambda x: x + 1)(1)  # a real compile fires the events listened to
    assert watch.first_start is not None and watch.depth == 0
    bar.close()
