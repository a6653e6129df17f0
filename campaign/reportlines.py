"""A report as the lines a player reads: each event or reconnaissance report one sentence with
its rule unless its words cite it already (``cites``), and a turn's routine supply (5) told in one
summary line, the forces' own lines folded under it (``event_items``). Pure Python, like
``campaign.projection``, whose views' events and reports (``EventView``, ``ReportView``: a text,
a rule, a turn, a kind and the army a supply line is about) it is given; it reads nothing else,
so a line says no more than the events it is made from.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.armies import ADJECTIVES, Army
from rules.events import EventKind

__all__ = ["FOLD_FROM", "ReportLine", "cites", "event_items", "items", "lines"]


@dataclass(frozen=True)
class ReportLine:
    """One line of a report: its sentence and its rule, unless the sentence cites it. A
    summary line holds the lines it stands for (``folded``): a page may show them under it
    (``<details>``), an email tells the summary alone. ``str()`` is the line as an email says
    it."""

    text: str
    rule: str = ""
    folded: tuple[ReportLine, ...] = ()

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text


SUPPLIED, UNSUPPLIED = EventKind.SUPPLIED.value, EventKind.UNSUPPLIED.value
FOLD_FROM = 2  # supplied forces in one turn's report told in one line from this many on


def event_items(events: Iterable[Any]) -> list[ReportLine]:
    """Events as report lines, in their order, with the routine supply of each turn (5: every
    force of the viewer's that a supply line reaches, one line each, about fourteen in a
    season's first report) told in one line where the first supply line stood, the forces'
    own lines folded under it: "All 10 Austrian and Imperial forces are supplied. (5)" The
    exceptions keep their own lines after it: a force out of supply (5.1, public: its U
    marker, 3.1.4), attrition, a fortress lost. Only the events given are read, so the summary
    says no more than the lines it stands for: the supplied forces are those whose private
    lines the viewer reads, the unsupplied ones counted with them are of the same armies.

    >>> from campaign.projection import EventView
    >>> line = "The Prussian force under {} is supplied (by land, 2 MPs from a friendly fortress)."
    >>> events = [EventView(1, "5", "supplied", line.format(name), False, "prussia")
    ...           for name in ("Frederick", "Schwerin")]
    >>> events.append(EventView(1, "5.1", "unsupplied", "The Prussian force under Dohna is "
    ...     "unsupplied: no supply line reaches it.", True, "prussia"))
    >>> lines = event_items(events)
    >>> [str(x) for x in lines]  # doctest: +NORMALIZE_WHITESPACE
    ['2 of the 3 Prussian forces are supplied; the other is not: its line follows. (5)',
     'The Prussian force under Dohna is unsupplied: no supply line reaches it. (5.1)']
    >>> str(lines[0].folded[0])
    'The Prussian force under Frederick is supplied (by land, 2 MPs from a friendly fortress). (5)'
    """
    events = list(events)
    supplied: dict[int | None, list[Any]] = {}
    for e in events:
        if e.kind == SUPPLIED:
            supplied.setdefault(e.turn, []).append(e)
    folding = {t for t, group in supplied.items() if len(group) >= FOLD_FROM}
    told: set[int | None] = set()
    out: list[ReportLine] = []
    for e in events:
        if e.turn in folding and e.kind in (SUPPLIED, UNSUPPLIED):
            if e.turn not in told:  # the summary where the turn's first supply line stood
                told.add(e.turn)
                out.append(_supply_summary(supplied[e.turn], events))
            if e.kind == SUPPLIED:
                continue
        out.append(_item(e))
    return out


def _supply_summary(group: list[Any], events: list[Any]) -> ReportLine:
    """One line for the supplied forces of one turn (``group``), with the number of forces of
    the same armies out of supply in that turn, whose own lines follow it."""
    armies = [a for a in Army if a.value in {e.army for e in group}]
    forces = " ".join(filter(None, (_joined([ADJECTIVES[a] for a in armies]), "forces")))
    turn = group[0].turn
    out_of_supply = sum(
        1
        for e in events
        if e.kind == UNSUPPLIED
        and e.turn == turn
        and e.army
        and e.army in {a.value for a in armies}
    )
    n = len(group)
    if out_of_supply:
        rest = (
            "the other is not: its line follows"
            if out_of_supply == 1
            else f"the other {out_of_supply} are not: their lines follow"
        )
        text = f"{n} of the {n + out_of_supply} {forces} are supplied; {rest}."
    else:
        text = f"All {n} {forces} are supplied."
    return ReportLine(text, "5", tuple(_item(e) for e in group))


def _joined(words: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return (
        words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}" if words else ""
    )


def items(events, reports, turn: int | None = None) -> list[ReportLine]:
    """The events of ``turn`` (all when None) then its reports, as report lines."""
    items = event_items(e for e in events if turn is None or e.turn in (None, turn))
    items += [_item(r) for r in reports if turn is None or r.turn == turn]
    return items


def lines(events, reports, turn: int | None = None) -> list[str]:
    """``items`` as the sentences an email says."""
    return [str(item) for item in items(events, reports, turn)]


def _item(told: Any) -> ReportLine:
    """An event or a report as a line: its text, and its rule unless the text cites it."""
    return ReportLine(told.text, told.uncited_rule)


_CITATION = re.compile(r"\(([^()]*)\)")


def cites(text: str, rule: str) -> bool:
    """Whether ``text`` cites ``rule`` in parentheses already, alone or among others (a range
    names its ends); an empty rule is cited by any text.

    >>> cites("A battle is fought at 6639 between Wedel and Nadasy (9).", "9")
    True
    >>> cites("It goes inside (10.1.4) (10.1.3, 10.1.4-10.1.6). Route 6340-6439.", "10.1.3")
    True
    >>> cites("It goes inside (10.1.4-10.1.6).", "10.1.6"), cites("Turn 4 begins.", "4")
    (True, False)
    >>> cites("Daun has 9 MPs left (9.5 is not met).", "9"), cites("Retire (10.1.1).", "10.1")
    (False, False)
    """
    if not rule:
        return True
    return any(rule in re.split(r"[\s,;\-–]+", group) for group in _CITATION.findall(text))
