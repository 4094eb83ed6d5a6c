"""Every notebook in notebooks/ runs from top to bottom on a small simulation and draws at least one figure.

The notebooks read the number of hands from ``MJSIM_NOTEBOOK_HANDS``; the
test sets it to 400 so the whole set runs in well under a minute once the
simulator is compiled.  To refresh the stored outputs at the notebooks'
default size (4,000 hands each), run ``python tests/test_notebooks.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every notebook end to end: a minute in all

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXPECTED = {
    "quick_start",
    "cap_3_vs_5",
    "horses_variance",
    "liability",
    "seat_dealer_advantage",
    "policies_and_rule_effects",
    "xuezhan_house_options",
    "shuitou_dealer_and_caishen",
}
TEST_HANDS = "400"


def execute(path: Path, workdir: Path, timeout: int = 600):
    """Run the notebook at ``path`` in a fresh kernel (cwd ``workdir``); return the executed notebook."""
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(workdir)}})  # fmt: skip
    client.execute()
    return nb


def test_every_notebook_is_here():
    assert {p.stem for p in NOTEBOOKS} >= EXPECTED


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """Compile (or load) the simulator once in this process, so that no kernel pays for it in a timeout."""
    import mjsim
    from mjsim.sim.parallel import RunSpec, simulate

    for name in ("jipinghu", "tuidaohu", "xuezhan_dingque", "shuitou"):
        simulate(RunSpec(mjsim.ruleset(name), ("efficiency",), 8, session_length=8, seed=0),
                 tmp_path_factory.mktemp("warm") / name, progress=False)  # fmt: skip


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, compiled, tmp_path, monkeypatch):
    monkeypatch.setenv("MJSIM_NOTEBOOK_HANDS", TEST_HANDS)
    # the kernel imports this checkout's mjsim, installed or not (its cwd is a temporary directory)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    nb = execute(path, tmp_path)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: {errors[0].get('ename')}: {errors[0].get('evalue')}"
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert images, f"{path.name} drew no figure"
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert f"{int(TEST_HANDS):,} hands" in printed  # it used the test size, not the default


if __name__ == "__main__":  # refresh the stored outputs in place: python tests/test_notebooks.py [NOTEBOOK...]
    import tempfile

    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    for notebook in [Path(a) for a in sys.argv[1:]] or NOTEBOOKS:
        with tempfile.TemporaryDirectory() as tmp:
            executed = execute(notebook, Path(tmp))
        nbformat.write(executed, notebook)
        print(f"executed {notebook} ({os.environ.get('MJSIM_NOTEBOOK_HANDS', 'default')} hands)")
