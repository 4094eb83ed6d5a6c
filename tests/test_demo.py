"""`mjsim demo`, the README's main job: three house-rule questions, answered first (issue 14)."""

import json
import re

import pytest

from mjsim.analysis.resettle import play_changes
from mjsim.cli import demo_variants, main


def test_demo_questions_are_the_cap_alone_the_edition_and_the_horses():
    variants = demo_variants()
    groups = {}
    for v in variants:
        groups.setdefault(v.group, []).append(v)
    assert list(groups) == ["cap", "edition", "horses"]
    cap_ref, cap_alt = groups["cap"]
    # JPH-F4: the cap alone — nothing but the cap differs within the 3-fan edition
    differs = {k for k, v in cap_ref.ruleset.to_dict().items() if cap_alt.ruleset.to_dict()[k] != v}
    assert differs == {"cap"} and cap_ref.ruleset.cap == 3 and cap_alt.ruleset.cap == 5
    assert [v.ruleset.name for v in groups["edition"]] == ["jipinghu", "jipinghu_5fan"]
    assert [v.ruleset.horses for v in groups["horses"]] == ["dealer", "none"]  # TDH-M1 dealer horses vs none
    for ref, alt in groups.values():  # each alternative re-settles its reference's hands, which is exact
        assert alt.base_label == ref.label and not play_changes(ref.ruleset, alt.ruleset)


@pytest.mark.slow  # the README's main job end to end
def test_demo_opens_its_report_with_the_answers(tmp_path, capsys):
    out, report = tmp_path / "runs", tmp_path / "demo.html"
    assert main(["demo", "--hands", "64", "--workers", "1", "--out", str(out), "--report", str(report)]) == 0
    printed = capsys.readouterr().out
    for i, words in enumerate(
        ("The cap 爆胡: 5 fan instead of 3", "The 5-fan edition", "推倒胡 without dealer horses"), 1
    ):
        assert f"Q{i}. {words}" in printed
    assert printed.count("For a house:") == 3
    page = report.read_text()
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings[0] == "Questions and answers"
    assert page.index("Q3. 推倒胡") < page.index("<h2>Runs and summary</h2>")
    # the jipinghu run is simulated once and shared by the cap and the edition questions
    entries = json.loads((out / "comparison.json").read_text())
    assert sorted({e["path"] for e in entries if e["label"] == "jipinghu"}) == [str(out / "jipinghu")]
    assert [e["method"] for e in entries] == ["simulated", "re-settled", "simulated", "re-settled", "simulated",
                                              "re-settled"]  # fmt: skip
    # the HTML comparison is within each question's group: 推倒胡 runs are never compared with 鸡平胡
    compared = re.search(r'<table class="compare".*?</table>', page, re.S).group(0)
    rows = re.findall(r"<tr><td[^>]*>(tuidaohu-horses=none)</td><td[^>]*>([^<]*)</td>", compared)
    assert rows and {against for _, against in rows} == {"tuidaohu-horses=dealer"}
