"""Reading the hand-written facts (facts/*.toml) and the gazetteer of resolved places."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FACTS_DIR = Path(__file__).resolve().parent / "facts"
PLACES_FILE = FACTS_DIR / "places.toml"


def read_toml(name: str, facts_dir: Path = FACTS_DIR) -> dict[str, Any]:
    with open(facts_dir / name, "rb") as f:
        return tomllib.load(f)


@dataclass(frozen=True)
class Facts:
    cities: list[dict[str, Any]]
    rivers: list[dict[str, Any]]
    roads: list[dict[str, Any]]
    bridges: list[dict[str, Any]]
    marshes: list[dict[str, Any]]
    relief: dict[str, Any]
    anchors: dict[str, list[Any]]
    places: dict[str, tuple[float, float]]
    # crossings at cities of a major river where the period had no bridge (bridges.toml [[city]])
    city_crossings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def city_names(self) -> set[str]:
        return {c["name"] for c in self.cities}

    def locate(self, ref: Any) -> tuple[float, float]:
        """(lat, lon) of a point reference: a city name, a GeoNames reference or [lat, lon]."""
        if isinstance(ref, list | tuple):
            return (float(ref[0]), float(ref[1]))
        for city in self.cities:
            if city["name"] == ref:
                return self.locate(city["at"])
        try:
            return self.places[ref]
        except KeyError:
            raise KeyError(
                f"place {ref!r} is not in places.toml: run `python -m maps.tools.mapgen resolve`"
            ) from None


def read_facts(facts_dir: Path = FACTS_DIR) -> Facts:
    places: dict[str, tuple[float, float]] = {}
    if (facts_dir / "places.toml").exists():
        for ref, entry in read_toml("places.toml", facts_dir).get("places", {}).items():
            places[ref] = (float(entry["lat"]), float(entry["lon"]))
    crossings = read_toml("bridges.toml", facts_dir)
    return Facts(
        cities=read_toml("cities.toml", facts_dir)["cities"],
        rivers=read_toml("rivers.toml", facts_dir)["river"],
        roads=read_toml("roads.toml", facts_dir)["roads"],
        bridges=crossings["bridges"],
        marshes=read_toml("marshes.toml", facts_dir)["marsh"],
        relief=read_toml("relief.toml", facts_dir),
        anchors=read_toml("areas.toml", facts_dir)["anchors"],
        places=places,
        city_crossings=crossings.get("city", []),
    )


def place_references(facts: Facts) -> list[str]:
    """Every GeoNames reference the facts use (strings that are not city names)."""
    refs: list[str] = []
    names = facts.city_names

    def add(ref: Any) -> None:
        if isinstance(ref, str) and ref not in names and ref not in refs:
            refs.append(ref)

    for city in facts.cities:
        add(city["at"])
    for river in facts.rivers:
        for p in river["points"]:
            add(p)
    for road in facts.roads:
        for p in road["via"]:
            add(p)
    for bridge in facts.bridges:
        add(bridge["at"])
    for anchors in facts.anchors.values():
        for p in anchors:
            add(p)
    return refs
