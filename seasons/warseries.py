"""The war in numbers, once the fog has lifted (issue 28; docs/season-end.md): the series the
charts of *The war* draw, and the orders of a sheet in words. Pure Python (no Django), like the
projection beside it: ``seasons.services.war`` reads the versions and events and hands them here.

- ``points_by_turn(turns)``: each army's points (leaders, garrisons and leaderless points, 3) at
  the end of each turn, from ``(turn, {army: points})`` pairs;
- ``vps_by_turn(turns)``: each player's victory points (12) at the end of each turn;
- ``losses_by_cause(events)``: the points each army lost to battle (9.5), attrition (7),
  siege (11.6.3) and surrender (11.6.2), from the engine's events;
- ``timeline(events)``: the battles (9) and sieges (11) turn by turn;
- ``order_lines(draft)``: a seat's orders of a phase (an order sheet's draft) in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

CAUSES = ("battle", "attrition", "siege", "surrender")


@dataclass(frozen=True)
class Series:
    """One line of a chart: a name and a value for each turn (None where there is none)."""

    key: str
    label: str
    values: tuple[int | None, ...]

    @property
    def last(self) -> int | None:
        return next((v for v in reversed(self.values) if v is not None), None)


@dataclass(frozen=True)
class Chart:
    """The turns (x) and the series drawn over them."""

    turns: tuple[int, ...]
    series: tuple[Series, ...]

    @property
    def rows(self) -> list[tuple]:
        """(turn, value of each series): the chart as a table."""
        return [(t, *(s.values[i] for s in self.series)) for i, t in enumerate(self.turns)]


def _by_turn(turns: Iterable[tuple[int, Mapping[str, int]]], labels: Mapping[str, str]) -> Chart:
    last: dict[int, Mapping[str, int]] = {}
    for turn, values in turns:
        last[int(turn)] = values  # the last state of each turn wins
    order = tuple(sorted(last))
    keys: list[str] = []
    for t in order:
        keys += [k for k in last[t] if k not in keys]
    keys.sort(key=lambda k: (list(labels).index(k) if k in labels else len(labels), k))
    series = tuple(
        Series(k, labels.get(k, k), tuple(_int(last[t].get(k)) for t in order)) for k in keys
    )
    return Chart(order, series)


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def points_by_turn(
    turns: Iterable[tuple[int, Mapping[str, int]]], labels: Mapping[str, str]
) -> Chart:
    """Each army's points at the end of each turn (the last version of the turn).

    >>> c = points_by_turn([(1, {"prussia": 900}), (1, {"prussia": 880}), (2, {"prussia": 700})],
    ...                    {"prussia": "Prussian"})
    >>> c.turns, c.series[0].values
    ((1, 2), (880, 700))
    """
    return _by_turn(turns, labels)


def vps_by_turn(turns: Iterable[tuple[int, Mapping[str, int]]], labels: Mapping[str, str]) -> Chart:
    """Each player's victory points at the end of each turn; a player not yet on the table
    (every one of ``labels`` is drawn) has 0 (12: everyone starts at 0)."""
    turns = list(turns)
    if turns:
        turns[0] = (turns[0][0], {**dict.fromkeys(labels, 0), **turns[0][1]})
    chart = _by_turn(turns, labels)
    return Chart(
        chart.turns,
        tuple(
            Series(s.key, s.label, tuple(0 if v is None else v for v in s.values))
            for s in chart.series
        ),
    )


@dataclass
class Losses:
    """Points lost by one army, by cause."""

    army: str
    by_cause: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))

    @property
    def total(self) -> int:
        return sum(self.by_cause.values())


def losses_by_cause(events: Iterable[Mapping[str, Any]]) -> dict[str, Losses]:
    """The points each army lost, by cause, from event dicts (``kind``, ``data``, ``armies``
    its audience, and for a siege or a surrender ``holder``: the army that held the fortress
    before, which the service reads from the state before the event).

    - battle (9.5): the loss of each army in a battle (``data.army``, ``data.loss``), and the
      points left without a leader that are taken prisoner after it (``prisoners``, rule 9.5);
    - attrition (7): ``data.loss`` of the force of the one army the event is addressed to;
    - siege (11.6.3): ``data.loss`` on each side: the holder loses it, the besiegers (the other
      armies the event names) share it evenly (the rest to the first);
    - surrender (11.6.2): the garrison's ``data.points`` are lost by the holder.

    Events without a number (a breach roll, a siege that wipes out a side) add nothing.

    >>> out = losses_by_cause([
    ...     {"kind": "battle", "data": {"army": "prussia", "loss": 162}, "armies": []},
    ...     {"kind": "attrition", "data": {"loss": 15}, "armies": ["hanover"]},
    ...     {"kind": "siege", "data": {"loss": 40}, "armies": ["austria", "prussia"],
    ...      "holder": "austria"},
    ...     {"kind": "surrender", "data": {"points": 30}, "armies": ["austria", "prussia"],
    ...      "holder": "austria"},
    ... ])
    >>> {a: (l.by_cause, l.total) for a, l in sorted(out.items())}["austria"]
    ({'battle': 0, 'attrition': 0, 'siege': 40, 'surrender': 30}, 70)
    >>> out["prussia"].by_cause["siege"], out["prussia"].by_cause["battle"]
    (40, 162)
    """
    out: dict[str, Losses] = {}

    def add(army: str | None, cause: str, points: Any) -> None:
        if not army or not isinstance(points, int) or isinstance(points, bool) or points <= 0:
            return
        out.setdefault(army, Losses(army)).by_cause[cause] += points

    for e in events:
        kind, data = e.get("kind"), e.get("data") or {}
        armies = [str(a) for a in e.get("armies") or ()]
        if kind == "battle" and "loss" in data:
            add(str(data.get("army") or ""), "battle", data.get("loss"))
        elif kind == "prisoners" and e.get("rule") == "9.5":
            # a force's points left without a leader after a battle, taken prisoner (9.5); the
            # prisoners of 13.2 are part of the battle's loss already
            add(str(data.get("army") or ""), "battle", data.get("points"))
        elif kind == "attrition" and len(armies) == 1:
            add(armies[0], "attrition", data.get("loss"))
        elif kind == "siege" and isinstance(data.get("loss"), int):
            holder = e.get("holder")
            add(holder, "siege", data["loss"])
            besiegers = [a for a in armies if a != holder]
            if besiegers:
                share, rest = divmod(data["loss"], len(besiegers))
                for i, a in enumerate(besiegers):
                    add(a, "siege", share + (rest if i == 0 else 0))
        elif kind == "surrender":
            add(e.get("holder"), "surrender", data.get("points"))
    return out


@dataclass(frozen=True)
class Happening:
    """A battle or a siege on the timeline."""

    turn: int
    kind: str  # "battle" or "siege"
    place: str  # the hex of a battle, the city of a siege
    text: str


def timeline(events: Iterable[Mapping[str, Any]]) -> tuple[Happening, ...]:
    """The battles (the public "The battle near ... is fought between ..." of 9) and the sieges
    (one entry per city and turn: a siege roll, a breach, a fight or a surrender of 11), in turn
    order.

    >>> [h.place for h in timeline([
    ...     {"turn": 2, "kind": "siege", "data": {"city": "Neisse"}, "text": "roll"},
    ...     {"turn": 2, "kind": "breach", "data": {"city": "Neisse"}, "text": "breach"},
    ...     {"turn": 1, "kind": "battle", "data": {"hex": "5639", "battle": "t1-5639"},
    ...      "text": "A battle", "public": True},
    ... ])]
    ['5639', 'Neisse']
    """
    out: dict[tuple, Happening] = {}
    for e in events:
        kind, data, turn = e.get("kind"), e.get("data") or {}, int(e.get("turn") or 0)
        if kind == "battle" and e.get("public") and data.get("battle") and "loss" not in data:
            key = (turn, "battle", str(data.get("hex", "")))
            out.setdefault(key, Happening(turn, "battle", key[2], str(e.get("text", ""))))
        elif kind in ("siege", "breach", "surrender", "honors-of-war") and data.get("city"):
            key = (turn, "siege", str(data["city"]))
            out.setdefault(key, Happening(turn, "siege", key[2], str(e.get("text", ""))))
    return tuple(sorted(out.values(), key=lambda h: (h.turn, h.kind, h.place)))


def order_lines(draft: Any) -> list[str]:
    """A sheet's orders in words, one line an order (what the seat wrote, read or not).

    >>> order_lines({"march": [{"unit": "frederick", "path": "5639-5640", "marches": 2}],
    ...              "transfers": [{"from": "frederick", "to": "schwerin", "points": 50}]})
    ['frederick marches 5639-5640 (2 marches)', 'frederick gives 50 points to schwerin']
    >>> order_lines({})
    []
    """
    if not isinstance(draft, dict):
        return []
    out: list[str] = []
    for kind, verb in (("march", "marches"), ("forced_march", "force-marches")):
        for o in _items(draft.get(kind)):
            extra = [f"{o['marches']} marches"] if o.get("marches", 1) not in (1, None) else []
            extra += [w for w in ("leave_fortress", "enter_fortress", "works") if o.get(w)]
            if o.get("drop"):
                extra.append(
                    "drops " + ", ".join(f"{k} at {v}" for k, v in dict(o["drop"]).items())
                )
            tail = f" ({'; '.join(x.replace('_', ' ') for x in extra)})" if extra else ""
            out.append(f"{o.get('unit', '?')} {verb} {o.get('path') or '(stays)'}{tail}")
    for t in _items(draft.get("transfers")):
        out.append(
            f"{t.get('from', '?')} gives {t.get('points', '?')} points to {t.get('to', '?')}"
        )
    deployment = draft.get("deployment")
    if isinstance(deployment, dict):
        for army, d in deployment.items():
            if not isinstance(d, dict):
                continue
            for key, x in (d.get("leaders") or {}).items():
                if isinstance(x, dict):
                    inside = " inside" if x.get("inside") else ""
                    out.append(
                        f"{army}: {key} with {x.get('points')} points at {x.get('hex')}{inside}"
                    )
            for city, points in (d.get("garrisons") or {}).items():
                out.append(f"{army}: garrison of {points} points in {city}")
            for train, x in (d.get("siege_trains") or {}).items():
                if isinstance(x, dict):
                    out.append(f"{army}: siege train {train} at {x.get('hex')}")
    for kind in sorted(k for k in draft if k not in ("march", "forced_march", "transfers",
                                                     "deployment")):  # fmt: skip
        for item in _items(draft.get(kind)):
            words = ", ".join(f"{k} {v}" for k, v in item.items() if not isinstance(v, dict | list))
            out.append(f"{kind.replace('_', ' ')}: {words}")
    return out


def _items(value: Any) -> list[dict]:
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []
