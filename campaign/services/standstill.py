"""What a seat that has not pressed Ready does when its phase resolves: at its deadline, or
when the organiser resolves it early ("Resolve now"). See docs/rules-interpretations.md,
"Missing orders".

Orders phases: the seat's forces stand still (its draft is not read: Ready is what makes a
draft orders). Deployment (3): nothing is on the map to stand still, so each army of the seat
whose draft is legal as it stands (3.2, by the engine's own check) deploys from it, and the
others stay undeployed: the deployment stays open for that seat alone, with the deadline it had
when that deadline is still ahead (an organiser's extension is kept), a new one by the
campaign's rules when it has passed.
"""

from __future__ import annotations

from maps.core.model import HexMap
from rules import phases
from rules.armies import LABELS, Army
from rules.deployment import army_violations
from rules.events import Event, EventKind, event_to_dict, private
from rules.rulesettings import RuleSettings
from rules.state import Phase, State


def _when(early: bool, absent: bool) -> str:
    if absent:
        return "while its player is away"
    return (
        "when the organiser resolved the phase before its deadline"
        if early
        else ("by the deadline")
    )


def unsent(draft, phase: Phase) -> bool:
    """Whether a sheet that was never sent (no Ready) holds orders of ``phase``'s kinds: the
    orders a player saved and thought given. They are not used (pressing Ready is what makes a
    draft orders, docs/rules-interpretations.md), but the player and the organiser are told.

    >>> unsent({"march": [{"unit": "daun", "path": "1-2"}]}, Phase.MARCH)
    True
    >>> unsent({"march": []}, Phase.MARCH), unsent({"battle": [{}]}, Phase.MARCH)
    (False, False)
    """
    if not isinstance(draft, dict):
        return False
    return any(draft.get(kind) for kind in phases.ORDER_KINDS.get(phase, ()))


def missing_event(seat, phase: Phase, *, absent: bool, early: bool, drafted: bool = False) -> dict:
    """The seat's own event: no orders came, so its forces stand still. ``drafted``: the seat
    had saved orders it never sent (``unsent``), which the text owns up to."""
    rule = "3" if phase is Phase.DEPLOYMENT else "6.2"
    if absent:
        text = (
            f"The {seat.label} is away: no {phase.value} orders, so its forces stand "
            "still. This does not count as a missed deadline."
        )
    elif drafted:
        text = (
            f"The {seat.label} saved {phase.value} orders but did not press Ready "
            f"{_when(early, absent)}: orders not sent are not used, so its forces stand still."
        )
        if early:
            text += " This does not count as a missed deadline."
    else:
        text = (
            f"No {phase.value} orders from the {seat.label} {_when(early, absent)}: its "
            "forces stand still."
        )
        if early:
            text += " This does not count as a missed deadline."
    audience = private(*(Army(a) for a in seat.armies))
    event = Event(
        rule,
        EventKind.ORDER_REJECTED,
        text,
        {"missing": True, "absent": absent, "early": early, "unsent": drafted},
        audience=audience,
    )
    return event_to_dict(event)


def standing_deployment(
    seat,
    draft,
    state: State,
    hexmap: HexMap | None,
    settings: RuleSettings,
    *,
    absent: bool,
    early: bool,
) -> tuple[dict, list[dict]]:
    """The deployment of a seat that has not pressed Ready: (the engine's orders for its armies
    whose draft is legal as it stands, the seat's events saying which army deployed from its
    draft and which stays undeployed, and why)."""
    spec = draft.get("deployment") if isinstance(draft, dict) else None
    spec = spec if isinstance(spec, dict) else {}
    armies = [Army(a) for a in seat.armies if Army(a) not in state.deployed]
    legal, wrong = {}, {}
    for army in armies:
        if not isinstance(spec.get(army.value), dict):
            wrong[army] = "nothing is placed"
            continue
        # the deployment page's own check (what keeps "Submit my deployment" from going
        # through): the seat's other armies, those its opening placed too, count (3.2.4)
        _, violations = army_violations(seat.armies, army, spec, state, hexmap, settings)
        problems = [v for v in violations if not v.others_may_cover]
        if problems:
            count = len(problems)
            wrong[army] = (
                f"{count} restriction{'s' if count > 1 else ''} of 3.2 still broken, "
                f"first ({problems[0].rule}) {problems[0].text}"
            )
        else:
            legal[army] = spec[army.value]
    audience = private(*(Army(a) for a in seat.armies))
    when = _when(early, absent)
    events = []
    if legal:
        names = ", ".join(LABELS[a] for a in legal)
        events.append(
            Event(
                "3",
                EventKind.ORDER_REJECTED,
                f"The {seat.label} had not pressed Ready {when}: the deployment of {names} is "
                "taken as drafted, being legal as it stands.",
                {
                    "missing": True,
                    "from_draft": [a.value for a in legal],
                    "absent": absent,
                    "early": early,
                },
                audience=audience,
            )
        )
    # (Without a map the engine passes the deployment by: nothing stays open.)
    stays = f": its deployment stays open for the {seat.label}" if hexmap is not None else ""
    for army, why in wrong.items():
        events.append(
            Event(
                "3",
                EventKind.ORDER_REJECTED,
                f"{LABELS[army]} is not deployed {when} ({why}){stays}.",
                {"missing": True, "undeployed": army.value, "absent": absent, "early": early},
                audience=audience,
            )
        )
    orders = {"deployment": {a.value: s for a, s in legal.items()}} if legal else {}
    return orders, [event_to_dict(e) for e in events]
