"""Template filters for numbers people read: time left, in words, to the minute."""

from __future__ import annotations

import re
from datetime import timedelta

from django import template

from rules.armies import Army
from rules.battlesetup import turn_date
from rules.leaders import UnknownLeader, leader

ARMY_NAMES = {a.value: a.value.capitalize() for a in Army}

register = template.Library()


@register.filter
def duration_left(value: timedelta | None) -> str:
    """``timedelta(days=1, hours=23, minutes=59, seconds=57.4)`` -> "1 day 23 h 59 min".

    >>> duration_left(timedelta(days=1, hours=23, minutes=59, seconds=57.4))
    '1 day 23 h 59 min'
    >>> duration_left(timedelta(minutes=5))
    '5 min'
    >>> duration_left(timedelta(days=2))
    '2 days'
    """
    if not isinstance(value, timedelta):
        return ""
    minutes = max(0, int(value.total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days > 1 else ''}")
    if hours:
        parts.append(f"{hours} h")
    if minutes or not parts:
        parts.append(f"{minutes} min")
    return " ".join(parts)


def _list(draft: dict, key: str) -> list:
    value = draft.get(key)
    return value if isinstance(value, list) else []


def _name(key) -> str:
    try:
        return leader(str(key)).name
    except UnknownLeader:
        return str(key)


def _march(o: dict) -> str:
    text = f"{_name(o.get('unit'))}: march {o.get('path') or '(stands)'}"
    if o.get("marches") == 2:
        text += " (2 marches)"
    extras = [
        label
        for key, label in (
            ("enter_fortress", "enters the fortress"),
            ("leave_fortress", "leaves the fortress"),
            ("works", "builds field works"),
        )
        if o.get(key)
    ]
    drops = o.get("drop") or {}
    if isinstance(drops, dict) and drops:
        extras.append("drops " + ", ".join(f"{_name(k)} at {h}" for k, h in drops.items()))
    return text + (", " + ", ".join(extras) if extras else "")


@register.filter
def order_lines(draft) -> list[str]:
    """A seat's draft in words for the organiser's board, not a Python dict.

    >>> order_lines({"march": [{"unit": "frederick", "path": "4-4", "marches": 2}]})
    ['Frederick: march 4-4 (2 marches)']
    >>> order_lines({"transfers": [{"from": "garrison", "to": "frederick", "points": 200}]})
    ['Transfer: 200 points from the garrison to Frederick']
    """
    if not isinstance(draft, dict):
        return []
    lines = []
    for o in _list(draft, "march") + _list(draft, "forced_march"):
        if isinstance(o, dict):
            forced = o in _list(draft, "forced_march")
            line = _march(o)
            lines.append(line.replace(": march", ": forced march", 1) if forced else line)
    for t in _list(draft, "transfers"):
        if isinstance(t, dict):
            giver = "the garrison" if t.get("from") == "garrison" else _name(t.get("from"))
            taker = "the garrison" if t.get("to") == "garrison" else _name(t.get("to"))
            lines.append(f"Transfer: {t.get('points')} points from {giver} to {taker}")
    for d in _list(draft, "battle"):
        if isinstance(d, dict):
            hex_, army, choice = d.get("hex"), d.get("army"), d.get("choice")
            lines.append(f"Battle at {hex_}: {army} chooses to {choice}")
    for h in _list(draft, "honors"):
        if isinstance(h, dict):
            answer = h.get("besieger") or h.get("garrison")
            lines.append(f"Honors of war at {h.get('city')}: {answer}")
    deployment = draft.get("deployment")
    for army, dep in (deployment if isinstance(deployment, dict) else {}).items():
        if not isinstance(dep, dict):
            continue
        leaders, garrisons = dep.get("leaders"), dep.get("garrisons")
        for key, x in (leaders if isinstance(leaders, dict) else {}).items():
            if isinstance(x, dict):
                where, points = x.get("hex"), x.get("points")
                lines.append(f"{_name(key)} deploys at {where} with {points} points")
        for city, points in (garrisons if isinstance(garrisons, dict) else {}).items():
            lines.append(f"{army.capitalize()} garrison of {points} points in {city}")
    return lines


@register.filter
def roll_words(name: str) -> str:
    """A named roll in words, for the dashboard (docs/dice.md lists the names).

    >>> roll_words("march-allocation:austria:t3")
    'march allocation, Austria, turn 3'
    >>> roll_words("forced-march:frederick:t3")
    'forced march, Frederick, turn 3'
    >>> roll_words("meeting:daun-vs-frederick:t2:daun:r2")
    'meeting, Daun against Frederick, turn 2, Daun, roll 2'
    """
    what, *parts = str(name).split(":")
    words = [what.replace("-", " ")]
    for part in parts:
        if re.fullmatch(r"t\d+", part):
            words.append(f"turn {part[1:]}")
        elif re.fullmatch(r"y\d+", part):
            words.append(f"year {part[1:]}")
        elif re.fullmatch(r"r\d+", part):
            words.append(f"roll {part[1:]}")
        elif "-vs-" in part:
            words.append(" against ".join(_name(k) for k in part.split("-vs-")))
        else:
            words.append(_name(part) if part not in ARMY_NAMES else ARMY_NAMES[part])
    return ", ".join(words)


@register.filter
def half_month(turn) -> str:
    """The turn's half month (4): 1 is "April I", 18 "December II"."""
    try:
        return turn_date(int(turn))
    except (TypeError, ValueError, IndexError):
        return ""


PHASE_WORDS = {
    "": "The start of the campaign",
    "deployment": "Deployment (3)",
    "supply": "Supply (5)",
    "march-allocation": "March allocation (6.1)",
    "march": "Marches (6)",
    "forced-march": "Forced marches (7)",
    "attrition": "Attrition (5.3, 7)",
    "reconnaissance": "Reconnaissance (8)",
    "battle": "Battles (9)",
    "siege": "Sieges (11)",
    "retreat-rally": "Retreats and rallies (10)",
}


@register.filter
def phase_words(phase: str) -> str:
    """A resolved phase as a heading: "Marches (6)"."""
    return PHASE_WORDS.get(phase or "", (phase or "").replace("-", " ").capitalize())


@register.filter
def armies_named(values) -> str:
    """A seat's armies as a sentence names them: "Austria, the Empire, Russia and Sweden".

    >>> armies_named(["austria", "empire", "russia", "sweden"])
    'Austria, the Empire, Russia and Sweden'
    >>> armies_named(["france"]), armies_named(["empire"])
    ('France', 'the Empire')
    """
    names = [
        "the Empire" if v == "empire" else ARMY_NAMES.get(str(v), str(v)) for v in values or ()
    ]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)
