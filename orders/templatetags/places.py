"""``{{ hex|hex_place:places }}``: a hex as the pages that list forces by hex name it,
"Breslau (hex 6933)" where a city stands (``places``: hex id to name,
``orders.dashboard.places``), "Hex 6933" elsewhere.

``{{ force|enemies_here:view }}`` and ``{{ view|contacts }}``: where the seat's forces share a
hex with an enemy's, both outside the walls (a battle is pending there, 9), read from the
seat's own view: only forces it sees on its map already."""

from __future__ import annotations

from django import template

from campaign.projection import Relation

register = template.Library()


@register.filter
def hex_place(hex_id, places) -> str:
    name = places.get(str(hex_id), "") if isinstance(places, dict) else ""
    return f"{name} (hex {hex_id})" if name else f"Hex {hex_id}"


@register.filter
def enemies_here(force, view) -> str:
    """The enemy forces in ``force``'s hex, outside the walls as it is, by army:
    "Austria: Nadasy; Russia: Fermor"; empty where there is none (or ``force`` is inside)."""
    if view is None or force.inside:
        return ""
    by_army: dict[str, list[str]] = {}
    for f in view.forces:
        if f.relation is Relation.ENEMY and f.hex == force.hex and not f.inside:
            names = by_army.setdefault(f.army.label, [])
            names += [x.name for x in f.leaders] or ["points without a leader"]
    return "; ".join(f"{army}: {', '.join(names)}" for army, names in by_army.items())


@register.filter
def contacts(view) -> list[dict]:
    """One line a hex where the seat's own forces meet the enemy: the hex, its own leaders
    there and the first one's key (to order him), the enemies (``enemies_here``)."""
    out: list[dict] = []
    for f in view.forces if view is not None else ():
        if f.relation is not Relation.OWNER or any(c["hex"] == f.hex for c in out):
            continue
        if enemies := enemies_here(f, view):
            own = [
                x.name
                for g in view.forces
                if g.relation is Relation.OWNER and g.hex == f.hex and not g.inside
                for x in g.leaders
            ]
            out.append(
                {
                    "hex": f.hex,
                    "own": ", ".join(own),
                    "unit": f.leaders[0].key if f.leaders else "",
                    "enemies": enemies,
                }
            )
    return out
