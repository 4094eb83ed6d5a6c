"""The option documentation in docs/ is generated from the one registry and kept current."""

from pathlib import Path

from mjsim.rules import OPTIONS, options_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs" / "options.md"


def test_docs_options_md_is_generated_from_the_registry():
    # regenerate with: python -c "from mjsim.rules import options_markdown; print(options_markdown())" > docs/options.md
    assert DOCS.read_text(encoding="utf-8").strip() == options_markdown().strip()


def test_every_option_is_documented_with_rule_id_or_meaning():
    text = DOCS.read_text(encoding="utf-8")
    for name, option in OPTIONS.items():
        assert f"`{name}`" in text
        assert option.meaning


def test_docs_schema_md_is_generated_from_the_schema_module():
    from mjsim.io.schema import SCHEMA_VERSION, describe

    text = (DOCS.parent / "schema.md").read_text(encoding="utf-8")
    assert describe() in text
    assert f"schema version {SCHEMA_VERSION}" in text
