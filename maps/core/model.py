"""The campaign map as data: terrain, areas, rivers, bridges, roads and cities (rule 2).

A ``HexMap`` is immutable once built; the loader (``maps.core.loader``) and the compact builder
(``maps.core.compact``) make them. Movement costs follow the Terrain Effects Chart (2.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from maps.core.hexgrid import (
    DIRECTIONS,
    Hex,
    Side,
    Vertex,
    hex_id,
    neighbour,
    parse_hex_id,
    side_hexes,
    side_key,
    side_vertices,
)


class Terrain(Enum):
    CLEAR = "c"
    MARSH = "m"
    ROUGH = "r"
    SEA = "s"
    LAKE = "l"

    @property
    def passable(self) -> bool:
        return self not in (Terrain.SEA, Terrain.LAKE)

    @property
    def is_water(self) -> bool:
        return self in (Terrain.SEA, Terrain.LAKE)

    @property
    def label(self) -> str:
        return self.name.lower()


class River(Enum):
    MINOR = "minor"
    MAJOR = "major"


class CitySize(Enum):
    """The City Chart (2.3.1): symbol, buildings on the table, fortress VPs, bastions."""

    CIRCLED_STAR = "circled star"
    STAR = "star"
    SQUARE = "square"
    CIRCLED_DOT = "circled dot"
    CIRCLE = "circle"
    DOT = "dot"

    @property
    def buildings(self) -> int:
        return _CITY_CHART[self][0]

    @property
    def fortress_vp(self) -> int | None:
        """None where the chart says NA: circled star cities are never fortresses."""
        return _CITY_CHART[self][1]

    @property
    def bastions(self) -> int | None:
        return _CITY_CHART[self][2]

    @property
    def can_be_fortress(self) -> bool:
        return self.bastions is not None

    @classmethod
    def parse(cls, text: str) -> CitySize:
        key = str(text).strip().lower().replace("_", " ").replace("-", " ")
        for size in cls:
            if size.value == key:
                return size
        names = ", ".join(s.value for s in cls)
        raise ValueError(f"{text!r} is not a city size; the City Chart has: {names}")


_CITY_CHART: dict[CitySize, tuple[int, int | None, int | None]] = {
    CitySize.CIRCLED_STAR: (80, None, None),
    CitySize.STAR: (40, 10, 10),
    CitySize.SQUARE: (20, 8, 8),
    CitySize.CIRCLED_DOT: (12, 6, 6),
    CitySize.CIRCLE: (8, 4, 5),
    CitySize.DOT: (4, 2, 4),
}


@dataclass(frozen=True)
class City:
    name: str
    hex: Hex
    size: CitySize
    fortress: bool
    area: str
    bastions: int = 0
    vp: int = 0
    lat: float | None = None
    lon: float | None = None
    rivers: tuple[str, ...] = ()
    note: str = ""
    same_hex_as: str = ""

    @property
    def hex_id(self) -> str:
        return hex_id(self.hex)

    @property
    def buildings(self) -> int:
        return self.size.buildings

    @property
    def garrison_limit(self) -> int:
        """Points a fortress holds without a leader: 100 per bastion (2.3.4, 11.2)."""
        return 100 * self.bastions


@dataclass(frozen=True)
class MovementCosts:
    """The numbers of the Terrain Effects Chart (2.2); rule 1.4 lets players change them."""

    clear: int = 2
    marsh: int = 3
    rough: int = 4
    road: int = 1
    minor_river: int = 2
    enemy_occupied: int = 2
    bridge_to_enemy_fortress: int = 2

    def terrain(self, terrain: Terrain) -> int | None:
        return {
            Terrain.CLEAR: self.clear,
            Terrain.MARSH: self.marsh,
            Terrain.ROUGH: self.rough,
        }.get(terrain)


DEFAULT_COSTS = MovementCosts()


@dataclass(frozen=True)
class RiverCourse:
    name: str
    river: River
    sides: tuple[Side, ...]


@dataclass(frozen=True)
class Road:
    name: str
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, eq=False)
class HexMap:
    """An immutable hex map. Build it with ``maps.core.loader`` or ``maps.core.compact``."""

    name: str
    title: str
    columns: int
    rows: int
    terrain_of: Mapping[Hex, Terrain]
    area_of: Mapping[Hex, str]
    river_courses: tuple[RiverCourse, ...] = ()
    bridges: frozenset[Side] = frozenset()
    roads: tuple[Road, ...] = ()
    cities: tuple[City, ...] = ()
    hex_miles: int = 10
    projection: Mapping[str, object] = field(default_factory=dict)
    source: str = ""

    def __post_init__(self) -> None:
        river_at: dict[Side, tuple[River, str]] = {}
        for course in self.river_courses:
            for side in course.sides:
                known = river_at.get(side)
                # A side shared by two rivers (a confluence) keeps the larger class.
                if known is None or (known[0] is River.MINOR and course.river is River.MAJOR):
                    river_at[side] = (course.river, course.name)
        road_sides = set()
        for road in self.roads:
            for a, b in zip(road.hexes, road.hexes[1:], strict=False):
                for d, (dq, dr) in DIRECTIONS.items():
                    if (b.q - a.q, b.r - a.r) == (dq, dr):
                        road_sides.add(side_key(a, d))
        cities_at: dict[Hex, list[City]] = {}
        for city in self.cities:
            cities_at.setdefault(city.hex, []).append(city)
        set_ = object.__setattr__
        set_(self, "terrain_of", MappingProxyType(dict(self.terrain_of)))
        set_(self, "area_of", MappingProxyType(dict(self.area_of)))
        set_(self, "_river_at", river_at)
        set_(self, "_road_sides", frozenset(road_sides))
        set_(self, "_cities_at", {h: tuple(cs) for h, cs in cities_at.items()})
        set_(self, "_city_by_name", {c.name.casefold(): c for c in self.cities})
        set_(self, "_hexes", tuple(sorted(self.terrain_of, key=lambda h: (h.r, h.q))))
        # Filled on first use: most callers need the steps and water lines of a few hexes only,
        # and loading stays fast (bench/map_bench.py).
        set_(self, "_steps", {})
        set_(self, "_water_vertices", None)
        set_(self, "_water_network", None)
        set_(self, "_area_hexes", {})

    # --- hexes ---------------------------------------------------------------------------------

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, row by row from the North-West."""
        return self._hexes  # type: ignore[attr-defined]

    def __contains__(self, h: object) -> bool:
        return h in self.terrain_of

    def terrain(self, h: Hex) -> Terrain:
        return self.terrain_of[h]

    def area(self, h: Hex) -> str:
        return self.area_of[h]

    def hexes_of_areas(self, areas: Iterable[str]) -> frozenset[Hex]:
        """Every hex whose area is one of ``areas`` (found once for each set of areas)."""
        key = frozenset(areas)
        cache = self._area_hexes  # type: ignore[attr-defined]
        found = cache.get(key)
        if found is None:
            found = cache[key] = frozenset(h for h in self._hexes if self.area_of[h] in key)  # type: ignore[attr-defined]
        return found

    def hex_id(self, h: Hex) -> str:
        return hex_id(h)

    def parse_hex_id(self, text: str) -> Hex:
        """Read a hex id and check the hex is on this map."""
        h = parse_hex_id(text)
        if h not in self.terrain_of:
            raise ValueError(
                f"hex {text!r} is not on the map {self.name!r} "
                f"({self.columns} columns x {self.rows} rows)"
            )
        return h

    def hexes_in_area(self, area: str) -> list[Hex]:
        return [h for h in self.hexes if self.area_of[h] == area]

    @property
    def areas(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.area_of.values())))

    # --- cities --------------------------------------------------------------------------------

    def city_at(self, h: Hex) -> City | None:
        """The city of a hex (the largest when two share it)."""
        cities = self._cities_at.get(h)  # type: ignore[attr-defined]
        return cities[0] if cities else None

    def cities_at(self, h: Hex) -> tuple[City, ...]:
        return self._cities_at.get(h, ())  # type: ignore[attr-defined]

    def city(self, name: str) -> City:
        try:
            return self._city_by_name[name.casefold()]  # type: ignore[attr-defined]
        except KeyError:
            raise KeyError(f"no city called {name!r} on the map {self.name!r}") from None

    @property
    def fortresses(self) -> tuple[City, ...]:
        return tuple(c for c in self.cities if c.fortress)

    def fortress_at(self, h: Hex) -> City | None:
        for city in self.cities_at(h):
            if city.fortress:
                return city
        return None

    # --- hexsides ------------------------------------------------------------------------------

    def river(self, h: Hex, d: int) -> River | None:
        found = self._river_at.get(side_key(h, d))  # type: ignore[attr-defined]
        return found[0] if found else None

    def river_name(self, h: Hex, d: int) -> str | None:
        found = self._river_at.get(side_key(h, d))  # type: ignore[attr-defined]
        return found[1] if found else None

    def bridge(self, h: Hex, d: int) -> bool:
        return side_key(h, d) in self.bridges

    def road(self, h: Hex, d: int) -> bool:
        return side_key(h, d) in self._road_sides  # type: ignore[attr-defined]

    def is_coastal(self, h: Hex) -> bool:
        """A land hex next to a sea hex (2.2: coastline hexes carry supply like rivers)."""
        if not self.terrain_of[h].passable:
            return False
        for d in DIRECTIONS:
            other = neighbour(h, d)
            if self.terrain_of.get(other) is Terrain.SEA:
                return True
        return False

    def on_river(self, h: Hex) -> bool:
        """A river flows along one of the hex's sides (5.2.2)."""
        return any(self.river(h, d) is not None for d in DIRECTIONS)

    def rivers_of(self, h: Hex) -> list[tuple[int, River, str]]:
        out = []
        for d in DIRECTIONS:
            found = self._river_at.get(side_key(h, d))  # type: ignore[attr-defined]
            if found:
                out.append((d, found[0], found[1]))
        return out

    # --- movement (2.2, 6.4.4, 6.4.5) ----------------------------------------------------------

    def _steps_of(self, h: Hex) -> tuple[tuple[int, Hex, int, bool], ...]:
        """(direction, neighbour, cost without enemies, bridge over a river) for every passable
        step out of ``h``, so that path searches do not recompute the chart."""
        terrain = self.terrain_of.get(h)
        if terrain is None or not terrain.passable:
            return ()
        row = []
        for d in DIRECTIONS:
            cost = self._static_cost(h, d, DEFAULT_COSTS)
            if cost is not None:
                side = side_key(h, d)
                bridged = side in self.bridges and side in self._river_at  # type: ignore[attr-defined]
                row.append((d, neighbour(h, d), cost, bridged))
        return tuple(row)

    def _static_cost(self, frm: Hex, d: int, costs: MovementCosts) -> int | None:
        to = neighbour(frm, d)
        terrain = self.terrain_of.get(to)
        if terrain is None or not terrain.passable:
            return None
        side = side_key(frm, d)
        cost = costs.road if side in self._road_sides else costs.terrain(terrain)  # type: ignore[attr-defined]
        if cost is None:
            return None
        found = self._river_at.get(side)  # type: ignore[attr-defined]
        if found and side not in self.bridges:
            if found[0] is River.MAJOR:
                return None
            cost += costs.minor_river
        return cost

    def enter_cost(
        self,
        frm: Hex,
        d: int,
        *,
        enemy_occupied: Iterable[Hex] | frozenset[Hex] = frozenset(),
        enemy_fortresses: Iterable[Hex] | frozenset[Hex] = frozenset(),
        costs: MovementCosts = DEFAULT_COSTS,
    ) -> int | None:
        """MPs to move from ``frm`` into its neighbour in direction ``d``; None if impassable.

        Terrain Effects Chart (2.2): clear 2, marsh 3, rough 4, 1 along a road; a minor river
        hexside +2; a major river hexside impassable except at a bridge; a bridge costs nothing
        more unless an enemy-occupied fortress is on the far side (then 2); sea and lake hexes
        are impassable; +2 to enter an enemy-occupied hex (6.4.4).

        >>> from maps.core.compact import compact_map
        >>> m = compact_map({"terrain": ["c m r"]})
        >>> m.enter_cost(parse_hex_id("0101"), 4), m.enter_cost(parse_hex_id("0201"), 4)
        (3, 4)
        """
        if costs is DEFAULT_COSTS:  # the chart's costs, read from the steps already made
            step = next((step for step in self.steps(frm) if step[0] == d), None)
            if step is None:
                return None
            _d, to, cost, bridged = step
        else:
            cost = self._static_cost(frm, d, costs)
            if cost is None:
                return None
            to = neighbour(frm, d)
            side = side_key(frm, d)
            bridged = side in self.bridges and side in self._river_at  # type: ignore[attr-defined]
        if bridged and to in enemy_fortresses:
            cost += costs.bridge_to_enemy_fortress
        if to in enemy_occupied:
            cost += costs.enemy_occupied
        return cost

    def steps(self, h: Hex) -> tuple[tuple[int, Hex, int, bool], ...]:
        """Passable steps out of ``h`` at default costs: (direction, neighbour, MP, bridged)."""
        cache = self._steps  # type: ignore[attr-defined]
        found = cache.get(h)
        if found is None:
            found = cache[h] = self._steps_of(h)
        return found

    # --- water lines for supply (5, 5.2.2, 5.2.3) ----------------------------------------------

    def water_sides(self, h: Hex) -> list[Side]:
        """The sides of ``h`` along which supply travels by water: rivers, coast and lake shore."""
        out = []
        if not self.terrain_of.get(h, Terrain.SEA).passable:
            return out
        for d in DIRECTIONS:
            side = side_key(h, d)
            if side in self._river_at:  # type: ignore[attr-defined]
                out.append(side)
                continue
            other = self.terrain_of.get(neighbour(h, d))
            if other is not None and other.is_water:
                out.append(side)
        return out

    def _water_vertex_index(self) -> dict[Vertex, tuple[Side, ...]]:
        index: dict[Vertex, set[Side]] = {}
        for h in self.terrain_of:
            for side in self.water_sides(h):
                for v in side_vertices(side):
                    index.setdefault(v, set()).add(side)
        return {v: tuple(sorted(s)) for v, s in index.items()}

    def water_network(self) -> Mapping[Side, tuple[tuple[Side, ...], frozenset[Hex], tuple]]:
        """Every water side of the map (``water_sides``), made once: the water sides that
        continue it (``water_side_neighbours``), its two hexes, and the hexes a supply line
        along it reaches (its own hex, and the one across it when passable)."""
        network = self._water_network  # type: ignore[attr-defined]
        if network is None:
            network = {}
            for h in self._hexes:  # type: ignore[attr-defined]
                for side in self.water_sides(h):
                    if side in network:
                        continue
                    a, b = side_hexes(side)
                    across = self.terrain_of.get(b)
                    reached = (a, b) if across is not None and across.passable else (a,)
                    network[side] = (
                        tuple(self.water_side_neighbours(side)),
                        frozenset((a, b)),
                        reached,
                    )
            network = MappingProxyType(network)
            object.__setattr__(self, "_water_network", network)
        return network

    def water_side_neighbours(self, side: Side) -> list[Side]:
        """Water sides that continue ``side``: they share one of its two ends."""
        index = self._water_vertices  # type: ignore[attr-defined]
        if index is None:
            index = self._water_vertex_index()
            object.__setattr__(self, "_water_vertices", index)
        out = []
        for v in side_vertices(side):
            for other in index.get(v, ()):
                if other != side:
                    out.append(other)
        return out
