"""axe-core, the accessibility checker, run in the page the browser tests have open.

axe-core is the npm package pinned in ``tests/browser/axe/package.json``; ``./bin/test`` installs
it there with Debian's ``npm`` (docs/accessibility.md says why npm and not a PyPI wrapper). Only
the rules of WCAG 2.1 levels A and AA run. Without axe-core installed the ``axe`` fixture skips
the test, which ``DGK_REQUIRE_SERVICES=1`` (CI) turns into a failure.
"""

import json
from pathlib import Path

import pytest

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")

# Runs axe in the page and hands back each violation: its rule, impact and the first nodes
# (their CSS selector and axe's summary of what is wrong).
RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
  .then(r => done(r.violations.map(v => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}))))
  .catch(e => done([{id: 'axe-error', impact: 'critical', count: 1, nodes: [String(e)]}]));
"""


def pinned_version() -> str:
    return json.loads((AXE_DIR / "package.json").read_text())["dependencies"]["axe-core"]


def installed_version() -> str | None:
    package = AXE_JS.parent / "package.json"
    if not (AXE_JS.exists() and package.exists()):
        return None
    return json.loads(package.read_text())["version"]


class Axe:
    """``check(driver, name)`` runs axe in the open page and notes what it finds under ``name``;
    ``found`` holds one line per page and rule, ``counts`` the nodes per rule."""

    def __init__(self, source: str):
        self.source = source
        self.found: list[str] = []
        self.counts: dict[str, int] = {}
        self.pages = 0

    def violations(self, driver) -> list[dict]:
        if not driver.execute_script("return typeof window.axe === 'object'"):
            driver.execute_script(self.source)
        driver.set_script_timeout(60)
        return driver.execute_async_script(RUN, list(TAGS))

    def check(self, driver, name: str) -> list[dict]:
        self.pages += 1
        found = self.violations(driver)
        for v in found:
            self.counts[v["id"]] = self.counts.get(v["id"], 0) + v["count"]
            self.found.append(f"{name}: {v['id']} ({v['impact']}, {v['count']}): {v['nodes']}")
        return found

    def report(self) -> str:
        """What a failed assertion prints: the nodes per rule, then one line per page and rule."""
        return f"axe over {self.pages} pages: {self.counts}\n" + "\n".join(self.found)


def axe_or_skip() -> Axe:
    """The checker with the pinned axe-core; skips the test when it is not installed."""
    version = installed_version()
    if version is None:
        pytest.skip(f"axe-core is not installed in {AXE_DIR} (./bin/test installs it with npm)")
    if version != pinned_version():
        pytest.fail(f"axe-core {version} is installed, {pinned_version()} is pinned: ./bin/test")
    return Axe(AXE_JS.read_text())
