"""Deadline policies and reminder steps. Pure functions: time comes in as ``now``.

A campaign's ``deadline_policy`` maps a *phase kind* to a rule:

- ``{"hours": 48}``: the phase closes 48 hours after it opens;
- ``{"at": "20:00", "min_hours": 12}``: it closes at the next 20:00 in the campaign's time zone
  that is at least 12 hours after it opens (a club night, say).

Phase kinds are the phases that wait for players (deployment, march, forced-march, battle,
siege); a kind left out uses ``DEFAULT_POLICY``.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

DEFAULT_POLICY: dict[str, dict] = {
    "deployment": {"hours": 72},
    "march": {"hours": 48},
    "forced-march": {"hours": 24},
    "battle": {"hours": 48},
    "siege": {"hours": 24},
}
DEFAULT_REMINDERS = {"hours_before": [24, 2], "flag_after_missed": 2}
MAX_HOURS = 24 * 60


class PolicyError(ValueError):
    """A deadline policy that cannot be used; the message says why."""


def check_rule(kind: str, rule: dict) -> dict:
    """Return a clean copy of one phase kind's rule, or raise PolicyError."""
    if not isinstance(rule, dict):
        raise PolicyError(f"{kind}: a rule is {{'hours': n}} or {{'at': 'HH:MM'}}")
    if "hours" in rule:
        hours = rule["hours"]
        if not isinstance(hours, int | float) or isinstance(hours, bool):
            raise PolicyError(f"{kind}: hours must be a number")
        if not 0 < hours <= MAX_HOURS:
            raise PolicyError(f"{kind}: hours must be between 0 and {MAX_HOURS}")
        return {"hours": hours}
    if "at" in rule:
        try:
            at = time.fromisoformat(str(rule["at"]))
        except ValueError:
            raise PolicyError(f"{kind}: 'at' is a time of day such as 20:00") from None
        min_hours = rule.get("min_hours", 12)
        if not isinstance(min_hours, int | float) or not 0 <= min_hours <= MAX_HOURS:
            raise PolicyError(f"{kind}: min_hours must be between 0 and {MAX_HOURS}")
        return {"at": at.strftime("%H:%M"), "min_hours": min_hours}
    raise PolicyError(f"{kind}: a rule is {{'hours': n}} or {{'at': 'HH:MM'}}")


def deadline_for(policy: dict, kind: str, opened_at: datetime, time_zone: str) -> datetime:
    """When a phase of ``kind`` opened at ``opened_at`` closes.

    >>> from datetime import UTC
    >>> opened = datetime(1757, 5, 1, 9, 0, tzinfo=UTC)
    >>> deadline_for({"march": {"hours": 48}}, "march", opened, "UTC").isoformat()
    '1757-05-03T09:00:00+00:00'
    >>> deadline_for({"march": {"at": "20:00", "min_hours": 12}}, "march", opened, "UTC").hour
    20
    >>> deadline_for({"march": {"at": "20:00", "min_hours": 12}}, "march", opened, "UTC").day
    2
    """
    rule = check_rule(kind, (policy or {}).get(kind) or DEFAULT_POLICY.get(kind, {"hours": 48}))
    if "hours" in rule:
        return opened_at + timedelta(hours=rule["hours"])
    zone = ZoneInfo(time_zone)
    earliest = (opened_at + timedelta(hours=rule["min_hours"])).astimezone(zone)
    at = time.fromisoformat(rule["at"])
    candidate = datetime.combine(earliest.date(), at, tzinfo=zone)
    if candidate < earliest:
        candidate = datetime.combine(earliest.date() + timedelta(days=1), at, tzinfo=zone)
    return candidate


def reminder_steps(reminders: dict) -> list[int]:
    """Hours before the deadline at which reminders go out, earliest first.

    >>> reminder_steps({"hours_before": [2, 24]})
    [24, 2]
    """
    steps = (reminders or {}).get("hours_before", DEFAULT_REMINDERS["hours_before"])
    return sorted({int(h) for h in steps if int(h) > 0}, reverse=True)


QUIET_AFTER_OPENING = timedelta(hours=1)
# A step's lead is at most this share of the phase's length: "24 hours before" a 24-hour
# phase is its opening, so its reminder comes 12 hours before the deadline instead.
LEAD_SHARE = 0.5


def lead_hours(step: int, opened_at: datetime | None, deadline: datetime) -> int:
    """How many hours before the deadline the reminder of ``step`` goes: the step, scaled down
    to ``LEAD_SHARE`` of a phase too short for it (at least an hour).

    >>> from datetime import UTC
    >>> d = datetime(1757, 5, 3, 9, 0, tzinfo=UTC)
    >>> lead_hours(24, d - timedelta(hours=72), d), lead_hours(2, d - timedelta(hours=72), d)
    (24, 2)
    >>> lead_hours(24, d - timedelta(hours=24), d), lead_hours(24, d - timedelta(hours=6), d)
    (12, 3)
    """
    if opened_at is None:
        return step
    length = (deadline - opened_at).total_seconds() / 3600
    return max(1, min(step, int(length * LEAD_SHARE)))


def due_reminder(
    reminders: dict, deadline: datetime, now: datetime, opened_at: datetime | None = None
) -> int | None:
    """The reminder step (hours before, as the campaign sets it) due at ``now``: the latest
    step already reached, or None. A step is sent once (the Reminder row claims it), so a
    missed beat catches up with the most urgent step only. Each step comes ``lead_hours``
    before the deadline (scaled down in a short phase; steps that scale to the same lead are
    one reminder). A step that falls within an hour of the phase opening is not sent: the
    opening email has just said when the orders are due.

    >>> from datetime import UTC
    >>> d = datetime(1757, 5, 3, 9, 0, tzinfo=UTC)
    >>> due_reminder({"hours_before": [24, 2]}, d, d - timedelta(hours=30)) is None
    True
    >>> due_reminder({"hours_before": [24, 2]}, d, d - timedelta(hours=20))
    24
    >>> due_reminder({"hours_before": [24, 2]}, d, d - timedelta(hours=1))
    2
    >>> due_reminder({"hours_before": [24, 2]}, d, d - timedelta(hours=24), d - timedelta(hours=24))
    >>> due_reminder({"hours_before": [24, 2]}, d, d - timedelta(hours=11), d - timedelta(hours=24))
    24
    """
    if now >= deadline:
        return None
    leads = {h: lead_hours(h, opened_at, deadline) for h in reminder_steps(reminders)}
    steps = list(leads)
    if opened_at is not None:
        steps = [
            h
            for h in steps
            if deadline - timedelta(hours=leads[h]) >= opened_at + QUIET_AFTER_OPENING
        ]
    reached = [h for h in steps if now >= deadline - timedelta(hours=leads[h])]
    return reached[-1] if reached else None


def due_in(hours: int) -> str:
    """When orders are due, as the emails and pushes say it: "in 6 hours", "in 1 hour", and
    "within the hour" for 0 (a deadline brought to less than an hour away)."""
    if hours < 1:
        return "within the hour"
    return "in 1 hour" if hours == 1 else f"in {hours} hours"


def is_last_step(reminders: dict, hours: int) -> bool:
    """The last (most urgent) reminder also goes to the organiser: the escalation."""
    steps = reminder_steps(reminders)
    return bool(steps) and hours == steps[-1]
