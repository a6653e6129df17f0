"""What is wrong with a seat's deployment draft (3), by the engine's validator: shown next to
the deployment as it grows, and what keeps "Submit my deployment" from going through."""

from __future__ import annotations

from maps.core.model import HexMap
from rules.armies import Army
from rules.deployment import check_deployment
from rules.orders import Deployment, OrderError, deployment_from_dict
from rules.rulesettings import RuleSettings
from rules.state import State


def read_deployment(army: Army, spec: dict) -> tuple[Deployment, list[str]]:
    try:
        return deployment_from_dict(army.value, spec), []
    except (OrderError, ValueError, KeyError, TypeError) as exc:
        return Deployment(army), [f"The draft cannot be read: {exc}"]


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
    """The army's deployment read from the draft, and every restriction of 3 it breaks (the
    seat's other armies count for the exceptions; another seat's never: they are secret).
    ``blocking`` leaves out what another seat's deployment may still put right (3.2.4)."""
    spec = dep.get(army.value) if isinstance(dep.get(army.value), dict) else {}
    deployment, problems = read_deployment(army, spec)
    if hexmap is None or problems:
        return deployment, problems
    others = {}
    for other in armies:
        if other != army.value and isinstance(dep.get(other), dict):
            others[Army.parse(other)], _ = read_deployment(Army.parse(other), dep[other])
    return deployment, [
        f"({v.rule}) {v.text}"
        for v in check_deployment(
            deployment, hexmap, settings, state.army_points.get(army.value), others
        )
        if not (blocking and v.others_may_cover)
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
