"""Faults a real `mjsim simulate` process survives (issue 9): Ctrl-C, kill -9 of the parent, Dask, fsspec URLs.

These start real processes (the CLI with two local workers, a Dask
LocalCluster with two worker processes), so they take some seconds each.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from mjsim import ruleset
from mjsim.io import read_hands, read_run_info
from mjsim.sim.parallel import RunSpec, simulate

pytestmark = pytest.mark.slow  # real processes killed, interrupted and run on a Dask cluster: a minute in all

ROOT = Path(__file__).resolve().parents[1]
HANDS, CHUNK = 6000, 200  # 30 chunks of fast random-policy hands


def _start(out: Path, *extra) -> subprocess.Popen:
    command = [sys.executable, "-m", "mjsim.cli", "simulate", "--hands", str(HANDS), "--chunk-hands", str(CHUNK),
               "--policy", "random", "--seed", "5", "--workers", "2", "--out", str(out), *extra]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)


def _wait_for_chunks(out: Path, process: subprocess.Popen, at_least: int = 2, seconds: float = 240) -> int:
    manifest = out / "_staging" / "_run.json"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if manifest.exists():
            done = len(json.loads(manifest.read_text())["chunks"])
            if done >= at_least:
                return done
        time.sleep(0.05)
    raise AssertionError("the run wrote no chunk in time")


def _parts(out: Path) -> set[tuple[str, int]]:
    return {(str(p.relative_to(out)), p.stat().st_mtime_ns) for p in out.rglob("*.parquet")}


def test_ctrl_c_prints_one_line_with_the_resume_command_and_leaves_no_tmp(tmp_path):
    out = tmp_path / "run"
    process = _start(out)
    _wait_for_chunks(out, process)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole process group
    _, err = process.communicate(timeout=60)
    lines = err.decode().strip().splitlines()
    assert process.returncode == 130
    assert len(lines) == 1, lines
    assert lines[0].startswith("mjsim: interrupted: ") and f"resume with `mjsim simulate --resume {out}`" in lines[0]
    assert not list(out.rglob("*.tmp"))
    resumed = subprocess.run([sys.executable, "-m", "mjsim.cli", "simulate", "--resume", str(out), "--workers", "2"],
                             capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr.decode()
    hands = read_hands(out)
    assert hands.height == HANDS and hands["hand_id"].n_unique() == HANDS
    assert hands["run_id"].n_unique() == 1


def test_kill_9_of_the_parent_stops_its_workers_and_an_overwrite_holds_one_run(tmp_path):
    out = tmp_path / "run"
    process = _start(out)
    _wait_for_chunks(out, process)
    children = psutil.Process(process.pid).children(recursive=True)
    process.kill()
    process.wait()
    _, alive = psutil.wait_procs(children, timeout=30)
    assert not alive, [p.cmdline() for p in alive]
    written = _parts(out)
    time.sleep(1.0)
    assert _parts(out) == written  # no part is written after the parent is gone
    rerun = _start(out, "--overwrite")
    assert rerun.wait(timeout=600) == 0, rerun.communicate()
    hands = read_hands(out)
    assert hands.height == HANDS and hands["run_id"].n_unique() == 1
    assert hands["run_id"][0] == read_run_info(out)["run_id"]
    assert not (out / "_staging").exists()


@pytest.fixture(scope="module")
def local_cluster():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def _small_spec(run_id):
    return RunSpec(ruleset("tuidaohu"), ("efficiency", "value", "defensive", "random"), 240, session_length=4,
                   seed=21, run_id=run_id, chunk_hands=60)  # fmt: skip


def test_a_dask_cluster_writes_the_same_rows_as_a_local_run(tmp_path, local_cluster):
    simulate(_small_spec("same"), tmp_path / "local", progress=False)
    info = simulate(_small_spec("same"), tmp_path / "dask", progress=False, scheduler=local_cluster)
    assert info["backend"]["kind"] == "dask" and info["backend"]["workers"] == 2
    assert read_hands(tmp_path / "dask").equals(read_hands(tmp_path / "local"))
    assert read_run_info(tmp_path / "dask")["backend"]["scheduler"].startswith("tcp://")


def test_cli_scheduler_address(tmp_path, local_cluster):
    out = tmp_path / "cli"
    address = local_cluster.scheduler.address
    command = [sys.executable, "-m", "mjsim.cli", "simulate", "--hands", "80", "--session-length", "4",
               "--chunk-hands", "40", "--scheduler", address, "--out", str(out)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600)
    assert done.returncode == 0, done.stderr.decode()
    assert read_run_info(out)["backend"]["kind"] == "dask"
    bad = subprocess.run([*command[:-4], "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "x")],
                         capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)  # fmt: skip
    err = bad.stderr.decode().strip().splitlines()
    assert bad.returncode == 1 and len(err) == 1 and "cannot reach the Dask scheduler tcp://127.0.0.1:9" in err[0]


def test_a_filesystem_url_holds_a_run(tmp_path):
    url = "memory://mjsim-test/run"
    simulate(_small_spec("mem"), url, progress=False)
    simulate(_small_spec("mem"), tmp_path / "local", progress=False)
    assert read_hands(url).equals(read_hands(tmp_path / "local"))
    assert read_run_info(url)["state"] == "complete"


def test_a_third_party_policy_registers_through_the_entry_point_group(tmp_path):
    package = tmp_path / "site"
    (package / "cautious_policy").mkdir(parents=True)
    (package / "cautious_policy" / "__init__.py").write_text(
        "from dataclasses import replace\n"
        "from mjsim.agents import efficiency\n"
        "POLICY = replace(efficiency.POLICY, name='cautious')\n"
    )
    dist = package / "cautious_policy-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cautious-policy\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[mjsim.policies]\ncautious = cautious_policy:POLICY\n")
    out = tmp_path / "run"
    command = [sys.executable, "-m", "mjsim.cli", "simulate", "--hands", "40", "--policy", "cautious",
               "--workers", "2", "--chunk-hands", "20", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{package}"}
    done = subprocess.run(command, capture_output=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr.decode()
    assert read_hands(out)["policies"][0].to_list() == ["cautious"] * 4
