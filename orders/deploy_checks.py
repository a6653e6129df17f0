"""What is wrong with a seat's deployment draft (3), by the engine's validator: shown next to
the deployment as it grows, and what keeps "Submit my deployment" from going through.

An army a historical opening has placed already (``state.deployed`` before the deployment phase,
docs/historical-openings.md) stands as the opening put it while the seat's draft says nothing
of it: it needs no draft and blocks nothing."""

from __future__ import annotations

from maps.core.model import HexMap
from rules.armies import Army
from rules.deployment import army_violations
from rules.orders import Deployment
from rules.rulesettings import RuleSettings
from rules.state import State


def army_problems(
    armies: list[str],
    army: Army,
    dep: dict,
    state: State,
    hexmap: HexMap | None,
    settings: RuleSettings,
    *,
    blocking: bool = False,
) -> tuple[Deployment, list[str]]:
    """``army_violations`` as sentences with their rule numbers. ``blocking`` leaves out what
    another seat's deployment may still put right (3.2.4)."""
    deployment, violations = army_violations(armies, army, dep, state, hexmap, settings)
    return deployment, [
        f"({v.rule}) {v.text}" for v in violations if not (blocking and v.others_may_cover)
    ]


def deployment_problems(
    armies: list[str], draft: dict, state: State, hexmap: HexMap | None, settings: RuleSettings
) -> list[str]:
    """What keeps the seat's deployment from being submitted, each named with its army: every
    restriction it breaks but those another seat may still put right (3.2.4)."""
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    out = []
    for value in armies:
        army = Army.parse(value)
        _, problems = army_problems(armies, army, dep, state, hexmap, settings, blocking=True)
        out += [f"{army.label}: {p}" for p in problems]
    return out
