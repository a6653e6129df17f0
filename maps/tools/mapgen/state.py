"""What the map generator has decided so far (the ``Build``), and the look-ups the steps share."""

from __future__ import annotations

from dataclasses import dataclass, field

from maps.core.hexgrid import DIRECTIONS, Hex, Side, side_key
from maps.tools.mapgen.geo import Grid, Point, Projection


@dataclass
class Build:
    """Everything the generator decides, kept for the report and the tests."""

    grid: Grid
    proj: Projection
    terrain: dict[Hex, str] = field(default_factory=dict)
    area: dict[Hex, str] = field(default_factory=dict)
    cities: list[dict] = field(default_factory=list)
    rivers: list[dict] = field(default_factory=list)
    river_sides: dict[Side, tuple[str, str]] = field(default_factory=dict)
    bridges: set[Side] = field(default_factory=set)
    roads: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def xy(self, lat: float, lon: float) -> Point:
        return self.proj.forward(lat, lon)

    def land(self, h: Hex) -> bool:
        return self.terrain.get(h, "s") in "cmr"


def city_hex(b: Build, name: str) -> Hex | None:
    for c in b.cities:
        if c["name"] == name:
            return c["_hex"]
    return None


def hex_on(b: Build, h: Hex, river: str) -> bool:
    return any(b.river_sides.get(side_key(h, d), ("",))[0] == river for d in DIRECTIONS) or any(
        side in run["sides"]
        for run in b.rivers
        if run["name"] == river
        for side in (side_key(h, d) for d in DIRECTIONS)
    )


def sides_of_river(b: Build, h: Hex, river: str) -> list[Side]:
    out = []
    for d in DIRECTIONS:
        side = side_key(h, d)
        for run in b.rivers:
            if run["name"] == river and side in run["sides"]:
                out.append(side)
                break
    return out
