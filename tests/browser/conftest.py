"""Fixtures of the browser tests."""

import pytest

from tests.browser.axe import Axe, axe_or_skip


@pytest.fixture
def axe() -> Axe:
    """axe-core, the accessibility checker (tests/browser/axe.py): ``axe.check(driver, name)``."""
    return axe_or_skip()
