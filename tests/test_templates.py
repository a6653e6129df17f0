"""Template hygiene: Django's ``{# #}`` comments are one line only; one that spans lines is
printed on the page as text (issue 12)."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parents[1]


def test_no_template_comment_spans_lines():
    bad = []
    for template in sorted(ROOT.glob("**/templates/**/*")):
        if not template.is_file() or ".venv" in template.parts:
            continue
        for number, line in enumerate(template.read_text().splitlines(), 1):
            opened = [m.start() for m in re.finditer(r"\{#", line)]
            closed = [m.start() for m in re.finditer(r"#\}", line)]
            if len(opened) != len(closed):
                bad.append(f"{template.relative_to(ROOT)}:{number}")
    assert not bad, f"use {{% comment %}} for comments over several lines: {bad}"
