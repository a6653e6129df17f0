"""A battle's name, as a club names it: after the town where it was fought, or the one near it.

The engine keeps the city nearest to the battle hex in the set-up (``setup["city"]``, with
``hexes_away``; ``rules.battlesetup.nearest_city``). Every page, email, sheet and picture names a
battle through these functions, so the battle page, its emails, the dashboard, the chronicle,
the gazette and the season's book all call the same battle the same thing:

- a city in the hex: "The battle of Breslau" (hex 6933);
- a city within ``NEAR_HEXES`` hexes: "Battle near Lobositz" (hex 5639);
- none so near: "Battle in hex 4127".

The hex and its nearest town are what every member may read of a battle (the chronicle and the
gazette name them): a name adds nothing secret. docs/tabletop.md, "Names of battles".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# A hex is about 16 km across (224 km², docs/map-sources.md): two hexes is a day's march, as far
# as a battle is still "near" a town. Beyond, the battle is named by its hex.
NEAR_HEXES = 2


def place(setup: Mapping[str, Any]) -> str:
    """Where the battle was fought, in a sentence's words: "Breslau", "near Lobositz",
    "hex 4127"."""
    city = setup.get("city") or {}
    away = city.get("hexes_away")
    if city and away == 0:
        return str(city["name"])
    if city and isinstance(away, int) and away <= NEAR_HEXES:
        return f"near {city['name']}"
    return f"hex {setup.get('hex', '?')}"


def where(setup: Mapping[str, Any]) -> str:
    """``place`` with its hex: "Breslau (hex 6933)", "near Lobositz (hex 5639)", "hex 4127"
    (a column of the chronicle, the calendar's location)."""
    at = place(setup)
    return at if at.startswith("hex ") else f"{at} (hex {setup.get('hex', '?')})"


def in_town(setup: Mapping[str, Any]) -> bool:
    """Whether a city stands in the battle's own hex (it is then "the battle of" it)."""
    return (setup.get("city") or {}).get("hexes_away") == 0


def title(setup: Mapping[str, Any]) -> str:
    """The battle's name as a heading: "The battle of Breslau", "Battle near Lobositz",
    "Battle in hex 4127"."""
    where = place(setup)
    if in_town(setup):
        return f"The battle of {where}"
    return f"Battle {where}" if where.startswith("near ") else f"Battle in {where}"


def short(setup: Mapping[str, Any]) -> str:
    """The battle inside a sentence, short (an email's subject): "the battle of Breslau",
    "the battle near Lobositz", "the battle in hex 4127"."""
    where = place(setup)
    if in_town(setup):
        return f"the battle of {where}"
    return f"the battle {where}" if where.startswith("near ") else f"the battle in {where}"


def named(setup: Mapping[str, Any]) -> str:
    """The battle inside a sentence, its hex always given (the numbers of the map's hexes):
    "the battle of Breslau (hex 6933)", "the battle near Lobositz (hex 5639)", "the battle in
    hex 4127"."""
    name = short(setup)
    return name if place(setup).startswith("hex ") else f"{name} (hex {setup.get('hex', '?')})"


def hex_note(setup: Mapping[str, Any]) -> str:
    """ "hex 5639, " where the name does not give the hex already (to open a parenthesis: "Battle
    near Lobositz (hex 5639, clear, April I)"), else ""."""
    return "" if place(setup).startswith("hex ") else f"hex {setup.get('hex', '?')}, "


def capital(text: str) -> str:
    """``text`` with its first letter a capital (a name opening a sentence)."""
    return text[:1].upper() + text[1:]
