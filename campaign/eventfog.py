"""What one audience may read of an event: whether it sees it at all, and in which words.

Beside ``campaign.projection`` (which calls ``as_seen`` for every event it projects), pure
Python like it. An event's audience is the armies it was written for, or everyone (public);
``informed`` is the armies the viewer knows (his own, and his allies' when they share). A public
event may still hold a number or a clause only the armies concerned may read: those are taken
out here, so that two worlds differing in one seat's secret read the same to every other seat
(tests/fog/).

- The points of one army (``data`` with ``points`` and ``army``): told only to those who know
  that army or hold the prisoners (9, 9.5, 13.2).
- An exchange of prisoners (13.2, ``data`` with ``points`` and ``armies``): its counts, army by
  army, told only to the two players who exchange; the others read that they did.
- Why a march stopped short (6.4.4, 6.4.5, 3.3, 10.2.2): the reason names where the order meant
  to go ("it has too few MPs left to enter 1731"), which only the marching side knows. Another
  seat reads the march as it saw it: from where to where, or nothing when the force never left
  its hex.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import re

from rules.armies import Army
from rules.events import Event, EventKind
from rules.leaders import UnknownLeader, leader, leader_key

__all__ = ["as_seen", "roll_concerns", "unit_army"]

# Where an exchange of prisoners (13.2) begins to count them: "…and the Austrian player: 300
# Prussian for 200 Austrian and 100 Imperial (13.2)."
EXCHANGE_CLAUSE = ": "
# The clause a stopped march adds to its text: "…(5 MPs); it has too few MPs left to enter 1731."
STOP_CLAUSE = "; it "


@functools.lru_cache(maxsize=1024)
def unit_army(word: str) -> Army | None:
    """The army named by one word of a roll name or an event: an army, a leader or a siege
    train id (found once per word: the projection asks it of every seat's rolls and stopped
    marches, and a leader's key is read only after ``Army.parse`` has refused it).

    >>> unit_army("frederick"), unit_army("austria"), unit_army("nobody")
    (<Army.PRUSSIA: 'prussia'>, <Army.AUSTRIA: 'austria'>, None)
    """
    try:
        return Army.parse(word)
    except ValueError:
        pass
    try:
        return leader(leader_key(word)).army
    except (KeyError, UnknownLeader):
        pass
    head = word.rsplit("-", 1)[0]
    try:
        return Army.parse(head)
    except ValueError:
        return None


def roll_concerns(name: str, armies: frozenset[Army]) -> bool:
    """True when a named roll ("forced-march:frederick:t3") names one of ``armies``.

    >>> roll_concerns("forced-march:frederick:t3", frozenset({Army.PRUSSIA}))
    True
    >>> roll_concerns("march-allocation:austria:t3", frozenset({Army.PRUSSIA}))
    False
    """
    for word in name.split(":")[1:]:
        army = unit_army(word)
        if army is not None and army in armies:
            return True
    return False


def visible(event: Event, informed: frozenset[Army], deploying: bool, *, umpire: bool) -> bool:
    """Whether a viewer who knows ``informed`` sees ``event`` at all."""
    if umpire:
        return True
    if event.audience is not None:
        return bool(event.audience & informed)
    if event.kind is EventKind.SIEGE_TRAIN_CAPTURED:
        # Siege trains are never reported (8): a capture is news to the army that lost the
        # train and the army that took it, whatever audience the engine gave it.
        concerned = set()
        for key in ("from", "by"):
            with contextlib.suppress(ValueError):
                concerned.add(Army.parse(str(event.data.get(key, ""))))
        return bool(concerned & informed)
    if deploying and event.kind is EventKind.DEPLOYED:
        # Where an army deployed is public only once every army has deployed (3, 3.1.1).
        try:
            return Army.parse(event.data.get("army", "")) in informed
        except ValueError:
            return False
    return True


def public_text(event: Event, informed: frozenset[Army], *, umpire: bool) -> str:
    """The text of a public event as this viewer may read it. An event that counts one army's
    points (``data`` with ``points`` and ``army``: points left without a leader, 9.5, and
    prisoners taken, 9, 13.2) tells the number only to those who know that army or hold the
    prisoners (``data["by"]``); the others read that it happened, without the number, as the
    projection shows leaderless points and prisoners. Fail closed: an army that cannot be read
    hides the number from all but the umpire.

    >>> e = Event("9.5", EventKind.PRISONERS, "312 Austrian points are taken (9.5).",
    ...           {"points": 312, "army": "austria", "by": "prussia"})
    >>> public_text(e, frozenset(), umpire=False)
    'Austrian points are taken (9.5).'
    >>> public_text(e, frozenset({Army.PRUSSIA}), umpire=False)
    '312 Austrian points are taken (9.5).'
    """
    data = event.data
    if umpire or "points" not in data:
        return event.text
    concerned = set()
    for value in (data.get("army"), data.get("by"), *(data.get("armies") or ())):
        if value:
            with contextlib.suppress(ValueError):
                concerned.add(Army.parse(str(value)))
    if concerned & informed:
        return event.text
    if event.kind is EventKind.PRISONERS and "armies" in data:
        return exchange_as_seen(event)
    number = re.escape(str(data["points"]))
    return re.sub(rf"\b{number}\s+", "", event.text)


def exchange_as_seen(event: Event) -> str:
    """An exchange of prisoners (13.2) as a player who is not one of the two reads it: that the
    two players exchanged prisoners, and nothing of how many, army by army. The counts are
    what each army had held by the other (9, 13.2: told to the armies concerned only), and they
    do not follow from the public totals (3) when another hidden change of the same armies
    (points leaving the map in winter quarters 13.1, a loan's number 13.6, a siege train built
    13.5) comes in the same step. Fail closed: a text without its clause says only that
    prisoners were exchanged.

    >>> e = Event("13.2", EventKind.PRISONERS, "Prisoners are exchanged one for one between "
    ...           "Prussia and Austria: 300 Prussian for 200 Austrian and 100 Imperial (13.2).",
    ...           {"points": 300, "armies": ["austria", "empire", "prussia"]})
    >>> exchange_as_seen(e)
    'Prisoners are exchanged one for one between Prussia and Austria (13.2).'
    >>> public_text(e, frozenset({Army.EMPIRE}), umpire=False) == e.text
    True
    """
    if EXCHANGE_CLAUSE not in event.text:
        return f"Prisoners are exchanged ({event.rule})."
    return f"{event.text.split(EXCHANGE_CLAUSE, 1)[0]} ({event.rule})."


def stopped_march_as_seen(event: Event, informed: frozenset[Army]) -> Event | None:
    """A stopped march (6.4.4, 6.4.5, 3.3, 10.2.2) as a seat that does not know the marching
    army sees it: a march from where to where, with no word of why it stopped, since the
    reason names where the order meant to go; nothing when the force never left its hex (as if
    it had no order). Fail closed: a unit that cannot be read counts as unknown.

    >>> e = Event("6.4.5", EventKind.STOPPED, "French force under D'Estrees marches from 1331 "
    ...           "to 1631 (5 MPs); it has too few MPs left to enter 1731.",
    ...           {"leader": "d-estrees", "hexes": 3, "phase": "march", "stopped": True})
    >>> seen = stopped_march_as_seen(e, frozenset({Army.PRUSSIA}))
    >>> seen.rule, seen.kind.value, seen.text
    ('6.2', 'marched', "French force under D'Estrees marches from 1331 to 1631 (5 MPs).")
    >>> stopped_march_as_seen(e, frozenset({Army.FRANCE})) is e
    True
    """
    if event.kind is not EventKind.STOPPED:
        return event
    data = event.data
    army = unit_army(str(data.get("leader") or data.get("unit") or ""))
    if army is not None and army in informed:
        return event
    text = event.text.split(STOP_CLAUSE, 1)[0].rstrip(".") + "."
    if not data.get("hexes") and text.endswith(f" stays at {data.get('from')}."):
        return None  # it never left its hex nor changed fortress: as a force with no order
    forced = data.get("phase") == "forced march"
    return dataclasses.replace(
        event,
        rule="6.3" if forced else "6.2",
        kind=EventKind.FORCED_MARCH if forced else EventKind.MARCHED,
        text=text,
        data={k: v for k, v in data.items() if k != "stopped"},
    )


def as_seen(
    event: Event, informed: frozenset[Army], deploying: bool, *, umpire: bool
) -> Event | None:
    """``event`` as this viewer reads it, or None when he does not see it."""
    if not visible(event, informed, deploying, umpire=umpire):
        return None
    if umpire:
        return event
    if event.public:
        text = public_text(event, informed, umpire=False)
        if text != event.text:  # (an event equal to it otherwise: not made again)
            event = dataclasses.replace(event, text=text)
    return stopped_march_as_seen(event, informed)
