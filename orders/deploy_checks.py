"""What is wrong with a seat's deployment draft (3), by the engine's validator: shown next to
the deployment as it grows, and what keeps "Submit my deployment" from going through.

An army a historical opening has placed already (``state.deployed`` before the deployment phase,
docs/historical-openings.md) stands as the opening put it while the seat's draft says nothing
of it: it needs no draft and blocks nothing."""

from __future__ import annotations

from maps.core.model import HexMap
from rules.armies import Army
from rules.deployment import Violation, check_deployment, deployment_of
from rules.orders import Deployment, OrderError, deployment_from_dict
from rules.rulesettings import RuleSettings
from rules.state import State


def read_deployment(army: Army, spec: dict) -> tuple[Deployment, list[str]]:
    try:
        return deployment_from_dict(army.value, spec), []
    except (OrderError, ValueError, KeyError, TypeError) as exc:
        return Deployment(army), [f"The draft cannot be read: {exc}"]


def placed_by_opening(army: Army, dep: dict, state: State) -> bool:
    """The army stands as the campaign's opening placed it, and the draft leaves it so."""
    return army in state.deployed and not isinstance(dep.get(army.value), dict)


def army_violations(
    armies: list[str],
    army: Army,
    dep: dict,
    state: State,
    hexmap: HexMap | None,
    settings: RuleSettings,
) -> tuple[Deployment, list[Violation]]:
    """The army's deployment read from the draft, and every restriction of 3 it breaks (the
    seat's other armies count for the exceptions; another seat's never: they are secret)."""
    if placed_by_opening(army, dep, state):
        return deployment_of(state, army), []
    spec = dep.get(army.value) if isinstance(dep.get(army.value), dict) else {}
    deployment, unread = read_deployment(army, spec)
    if unread:
        return deployment, [Violation("3", p) for p in unread]
    if hexmap is None:
        return deployment, []
    others = {}
    for other in armies:
        a = Army.parse(other)
        if other == army.value:
            continue
        if placed_by_opening(a, dep, state):
            others[a] = deployment_of(state, a)
        elif isinstance(dep.get(other), dict):
            others[a], _ = read_deployment(a, dep[other])
    return deployment, check_deployment(
        deployment, hexmap, settings, state.army_points.get(army.value), others
    )


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
