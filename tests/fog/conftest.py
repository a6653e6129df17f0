"""The fog tests' fixtures, and the table of every two-world comparison made in the session
(label "secret × campaign × phase", its channels, "no difference" or "differs"), printed at the
end of the run to be pasted into a report."""

import pytest

from campaign.models import Campaign
from tests.fog.harness import RESULTS
from tests.standing import load_demo


@pytest.fixture
def demo(db, settings) -> Campaign:
    """The demo campaign (``manage.py loaddemo``): five seats on the bundled map of 1756, every
    army deployed, turn 1 open for march orders; every seat but Prussia away."""
    return load_demo(settings)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if not RESULTS:
        return
    width = max(len(label) for label, _, _ in RESULTS)
    terminalreporter.section("noninterference: two worlds compared")
    terminalreporter.write_line(f"{'secret × campaign × phase':<{width}}  channels  result")
    for label, channels, result in RESULTS:
        terminalreporter.write_line(f"{label:<{width}}  {channels:>8}  {result}")
