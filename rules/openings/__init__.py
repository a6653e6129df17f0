"""Historical openings: the SPI *Frederick the Great* scenarios of 1756-1759 as set-ups (issue 18).

An opening replaces rule 3's free deployment for the armies it names: each SPI placement (a
strength in SPI strength points, numbered leaders, an SPI hex) stands on our map at the place
its hex stands for (``spi_hexes.json``), with DGK points from one ratio per army:

    points per SP = the army's agreed points (3, 3.4) / the army's SP in the opening

so the Deployment Chart's ratios between armies still hold (3.4) and each army keeps SPI's
proportions between its forces. The rest is in ``docs/historical-openings.md``. Armies the
scenario leaves out deploy by rule 3 as usual.

>>> opening = load_opening("spi-1757")
>>> [p.place for p in opening.placements if "frederick" in p.leaders]
['Dresden']
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from maps.core.model import HexMap
from rules.armies import LABELS, Army
from rules.deployment import apply_deployment
from rules.events import Event, EventKind
from rules.leaders import leader
from rules.orders import Deployment
from rules.rulesettings import RuleSettings
from rules.state import Phase, State

HERE = Path(__file__).parent
OPENINGS = ("spi-1756", "spi-1757", "spi-1758", "spi-1759")


class OpeningError(ValueError):
    """An opening file that cannot be read or does not fit the map."""


@dataclass(frozen=True)
class Placement:
    """One SPI placement on our map: ``sp`` strength points under ``leaders`` (DGK keys) at
    ``hex`` (the place ``place`` stands for SPI hex ``spi_hex``); with no leader, the points
    garrison the fortress ``garrison``."""

    army: Army
    spi_hex: str
    sp: int
    spi_leaders: tuple[str, ...]
    leaders: tuple[str, ...]
    place: str | None
    hex: str
    garrison: str | None
    joins: bool  # points without a leader and no fortress: they join the force at the same hex
    inside: bool
    spi_turn: int
    why: str


@dataclass(frozen=True)
class Opening:
    key: str
    year: int
    title: str
    source: str
    summary: str
    start_turn: int
    placements: tuple[Placement, ...]
    rules: tuple[dict, ...]
    control: dict[str, str]
    left_out: tuple[str, ...]

    @property
    def armies(self) -> tuple[Army, ...]:
        present = {p.army for p in self.placements}
        return tuple(a for a in Army if a in present)

    def sp_of(self, army: Army) -> int:
        return sum(p.sp for p in self.placements if p.army is army)

    def leaders_of(self, army: Army) -> list[str]:
        """The army's leaders in the opening, highest-ranking first."""
        keys = {k for p in self.placements if p.army is army for k in p.leaders}
        return sorted(keys, key=lambda k: leader(k).rank)


@functools.lru_cache(maxsize=1)
def spi_hexes() -> dict[str, dict]:
    """SPI hex number -> the place of our map it stands for (``spi_hexes.json``)."""
    return json.loads((HERE / "spi_hexes.json").read_text(encoding="utf-8"))["hexes"]


@functools.lru_cache(maxsize=8)
def load_opening(key: str) -> Opening:
    """Read ``<key>.json``; every SPI hex is translated through ``spi_hexes.json``."""
    if key not in OPENINGS:
        raise OpeningError(f"Unknown opening {key!r}; choose one of {', '.join(OPENINGS)}.")
    data = json.loads((HERE / f"{key}.json").read_text(encoding="utf-8"))
    table = spi_hexes()
    placements = []
    led = {p["spi_hex"] for p in data["placements"] if p.get("leaders")}
    for i, item in enumerate(data["placements"]):
        where = table.get(item["spi_hex"])
        if where is None:
            raise OpeningError(f"{key} placement {i}: SPI hex {item['spi_hex']} has no place")
        leaders = tuple(item.get("leaders", ()))
        garrison = None
        fortress = where["place"] if where.get("fortress") else where.get("garrison")
        joins = not leaders and fortress is None and item["spi_hex"] in led
        if not leaders and not joins:
            garrison = fortress
            if garrison is None:
                raise OpeningError(f"{key} placement {i}: points without a leader need a fortress")
        placements.append(
            Placement(
                army=Army(item["army"]),
                spi_hex=item["spi_hex"],
                sp=int(item["sp"]),
                spi_leaders=tuple(item.get("spi_leaders", ())),
                leaders=leaders,
                place=where["place"],
                hex=where["hex"],
                garrison=garrison,
                joins=joins,
                inside=bool(item.get("inside", False)),
                spi_turn=int(item.get("spi_turn", 1)),
                why=where["why"],
            )
        )
    return Opening(
        key=key,
        year=int(data["year"]),
        title=data["title"],
        source=data["source"],
        summary=data["summary"],
        start_turn=int(data.get("start_turn", 1)),
        placements=tuple(placements),
        rules=tuple(data.get("rules", ())),
        control=dict(data.get("control", {})),
        left_out=tuple(data.get("left_out", ())),
    )


def points_per_sp(opening: Opening, army_points: dict[str, int]) -> dict[Army, float]:
    """The one ratio per army: its agreed points (3) over its strength points in the opening."""
    return {a: army_points[a.value] / opening.sp_of(a) for a in opening.armies}


def apportion(
    opening: Opening, army_points: dict[str, int], settings: RuleSettings
) -> tuple[int, ...]:
    """DGK points of every placement, in order: SP x the army's ratio, rounded by largest
    remainder so that each army's points add up exactly to its agreed total. A placement that
    would fall under the minimum of 3.2.1 / 3.2.3 gets the minimum, taken from the army's
    largest force.

    >>> o = load_opening("spi-1757")
    >>> sum(apportion(o, {"prussia": 3200, "austria": 3200, "france": 3000, "hanover": 1500,
    ...     "russia": 1500, "empire": 800, "sweden": 200}, RuleSettings())[:16])
    3200
    """
    out = [0] * len(opening.placements)
    for army, ratio in points_per_sp(opening, army_points).items():
        idx = [i for i, p in enumerate(opening.placements) if p.army is army]
        exact = {i: opening.placements[i].sp * ratio for i in idx}
        for i in idx:
            out[i] = int(exact[i])
        short = army_points[army.value] - sum(out[i] for i in idx)
        for i in sorted(idx, key=lambda i: (-(exact[i] - int(exact[i])), i))[:short]:
            out[i] += 1
        for i in idx:
            p = opening.placements[i]
            floor = settings.min_leader_points if p.leaders else settings.min_garrison_points
            if out[i] < floor:
                biggest = max(idx, key=lambda j: (out[j], -j))
                out[biggest] -= floor - out[i]
                out[i] = floor
    return tuple(out)


def deployments(
    opening: Opening, army_points: dict[str, int], settings: RuleSettings
) -> dict[Army, Deployment]:
    """Each army's deployment (3) as the opening places it. Leaders in one placement share its
    points, the first (highest-ranking) taking the odd ones; the army's siege trains (3.4) stand
    with its commander-in-chief (3.2.6)."""
    points = apportion(opening, army_points, settings)
    out: dict[Army, Deployment] = {}
    for army in opening.armies:
        leaders: list[tuple[str, str, int, bool]] = []
        garrisons: dict[str, int] = {}
        joining: dict[str, int] = {}
        for i, p in enumerate(opening.placements):
            if p.army is army and p.joins:
                joining[p.spi_hex] = joining.get(p.spi_hex, 0) + points[i]
        for i, p in enumerate(opening.placements):
            if p.army is not army or p.joins:
                continue
            if p.garrison:
                garrisons[p.garrison] = garrisons.get(p.garrison, 0) + points[i]
                continue
            keys = sorted(p.leaders, key=lambda k: leader(k).rank)
            total = points[i] + joining.pop(p.spi_hex, 0)
            share = total // len(keys)
            for n, k in enumerate(keys):
                extra = total - share * len(keys) if n == 0 else 0
                leaders.append((k, p.hex, share + extra, p.inside))
        cic = min(leaders, key=lambda x: leader(x[0]).rank)
        trains = tuple(
            (f"{army.value}-{n + 1}", cic[1], cic[3])
            for n in range(settings.siege_trains[army.value])
        )
        out[army] = Deployment(army, tuple(leaders), tuple(sorted(garrisons.items())), trains)
    return out


def opening_state(
    opening: Opening,
    players: int,
    army_points: dict[str, int],
    settings: RuleSettings,
    hexmap: HexMap,
) -> tuple[State, list[Event]]:
    """The state before the deployment phase with the opening's armies already deployed, and
    the public events that announce it. The deployment phase then waits only for the armies the
    opening leaves out (3) and fixes control (2.3) with the opening's own ``control``."""
    control = {}
    for area, army in opening.control.items():
        for city in hexmap.cities:
            if city.area == area:
                control[city.name] = army
    state = State(
        turn=opening.start_turn,
        phase=Phase.DEPLOYMENT,
        players=players,
        army_points=dict(army_points),
        control=control,
    )
    events = []
    for army, dep in deployments(opening, army_points, settings).items():
        state = apply_deployment(state, dep, hexmap)
        events.append(_announcement(opening, army, hexmap))
    return state, events


def _announcement(opening: Opening, army: Army, hexmap: HexMap) -> Event:
    parts, garrisons = [], []
    for p in opening.placements:
        if p.army is not army:
            continue
        if p.joins:
            continue
        if p.leaders:
            names = " and ".join(leader(k).name for k in sorted(p.leaders, key=_rank))
            parts.append(f"{names} at {p.place or 'hex ' + p.hex} ({p.hex})")
        elif p.garrison not in garrisons:
            garrisons.append(p.garrison)
    if garrisons:
        parts.append("garrisons in " + ", ".join(garrisons))
    return Event(
        "3",
        EventKind.DEPLOYED,
        f"{opening.title}: {LABELS[army]} stands as in {opening.year}: " + "; ".join(parts) + ".",
        {"army": army.value, "opening": opening.key},
    )


def _rank(key: str) -> int:
    return leader(key).rank
