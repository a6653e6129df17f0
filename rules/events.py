"""Events: every change the engine makes, with its rule, its numbers and who may see it.

An event's ``audience`` is the set of armies whose commanding seats may read it, or ``None`` for a
public event (everyone). The web layer turns armies into seats with ``armies.seat_map``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rules.armies import Army


class EventKind(Enum):
    # orders and deployment
    ORDER_REJECTED = "order-rejected"
    CARETAKER = "caretaker"  # a seat's orders given by the site's caretaker (issue 35), not a rule
    DEPLOYED = "deployed"
    DEPLOYMENT_REJECTED = "deployment-rejected"
    # 5 supply
    SUPPLIED = "supplied"
    UNSUPPLIED = "unsupplied"
    # 6 movement
    MARCHES_ALLOCATED = "marches-allocated"
    POINTS_TRANSFERRED = "points-transferred"
    MARCHED = "marched"
    STOPPED = "stopped"
    DROPPED_OFF = "dropped-off"
    MEETING = "meeting"
    ENTERED_FORTRESS = "entered-fortress"
    LEFT_FORTRESS = "left-fortress"
    FIELD_WORKS = "field-works"
    FORCED_MARCH = "forced-march"
    FORCED_MARCH_FAILED = "forced-march-failed"
    NO_RETIRING = "no-retiring"
    CITY_CONTROL = "city-control"
    COMMANDER_IN_CHIEF = "commander-in-chief"
    # 7 attrition
    ATTRITION = "attrition"
    # 8 reconnaissance
    RECONNAISSANCE = "reconnaissance"
    # 9-12 (part 2)
    BATTLE = "battle"
    NO_BATTLE = "no-battle"
    RETIRED = "retired"
    ROUTED = "routed"
    RETREAT = "retreat"
    DEMORALIZED = "demoralized"
    RALLIED = "rallied"
    RALLY_FAILED = "rally-failed"
    BLOCKADE = "blockade"
    SIEGE = "siege"
    BREACH = "breach"
    HONORS_OF_WAR = "honors-of-war"
    SURRENDER = "surrender"
    FORTRESS_CAPTURED = "fortress-captured"
    LEADER_CAPTURED = "leader-captured"
    LEADER_KILLED = "leader-killed"
    SIEGE_TRAIN_CAPTURED = "siege-train-captured"
    PRISONERS = "prisoners"
    VICTORY_POINTS = "victory-points"
    ARMY_SURRENDERS = "army-surrenders"
    CAMPAIGN_ENDS = "campaign-ends"
    FATE = "fate"  # a Card of Fate drawn (Friedrich 11, rules/fate.py)
    # bookkeeping
    PHASE = "phase"
    TURN = "turn"


@dataclass(frozen=True)
class Event:
    """One thing that happened, told in plain English with the rule it applied.

    ``data`` holds the numbers behind the sentence (JSON-safe values only).
    """

    rule: str
    kind: EventKind
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    audience: frozenset[Army] | None = None

    @property
    def public(self) -> bool:
        return self.audience is None

    def visible_to(self, army: Army) -> bool:
        return self.audience is None or army in self.audience


def mps(n: int) -> str:
    """A number of movement points as a line says it: "1 MP", "5 MPs"."""
    return f"{n} MP" if n == 1 else f"{n} MPs"


def private(*armies: Army) -> frozenset[Army]:
    return frozenset(armies)


def event_to_dict(event: Event) -> dict[str, Any]:
    return {
        "rule": event.rule,
        "kind": event.kind.value,
        "text": event.text,
        "data": event.data,
        "audience": "public" if event.audience is None else sorted(a.value for a in event.audience),
    }


def event_from_dict(data: dict[str, Any]) -> Event:
    audience = data.get("audience", "public")
    return Event(
        rule=str(data["rule"]),
        kind=EventKind(data["kind"]),
        text=data["text"],
        data=dict(data.get("data", {})),
        audience=None if audience == "public" else frozenset(Army(a) for a in audience),
    )


@dataclass(frozen=True)
class Report:
    """Reconnaissance (8): what the observing army learns about one enemy force or garrison.

    ``commander`` is the leader key of the highest-ranking leader (None for a leaderless
    garrison); ``points`` the total points; siege trains and other leaders are never reported.
    """

    to: Army
    hex: str
    army: Army
    commander: str | None
    points: int
    inside: bool
    garrison: bool
    text: str
    rule: str = "8"


def report_to_dict(report: Report) -> dict[str, Any]:
    return {
        "rule": report.rule,
        "to": report.to.value,
        "hex": report.hex,
        "army": report.army.value,
        "commander": report.commander,
        "points": report.points,
        "inside": report.inside,
        "garrison": report.garrison,
        "text": report.text,
    }


def report_from_dict(data: dict[str, Any]) -> Report:
    return Report(
        to=Army(data["to"]),
        hex=data["hex"],
        army=Army(data["army"]),
        commander=data.get("commander"),
        points=int(data["points"]),
        inside=bool(data.get("inside", False)),
        garrison=bool(data.get("garrison", False)),
        text=data["text"],
        rule=data.get("rule", "8"),
    )
