"""What the deployment page shows (3): each army's placements and problems, and its tap map (the
hexes where the unit being placed may deploy, the units already placed). Used by the deployment
view and the map widget's layer.
"""

from __future__ import annotations

import json

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.urls import reverse

from campaign.projection import View
from campaign.services import viewcache
from maps.core.hexgrid import (
    HexIdError,
    axial_to_offset,
    distance,
    hex_id,
    offset_to_axial,
    parse_hex_id,
)
from maps.overlay import ARMY_COLOURS
from maps.tapmap import map_svg
from orders.access import Access, _hexmap, _settings, _version, context_of
from orders.models import OrderSheet
from orders.pages import page_context
from rules.armies import Army, siege_train_name, siege_train_short
from rules.deployment import (
    Violation,
    army_violations,
    may_deploy_in,
    placed_by_opening,
    read_deployment,
)
from rules.leaders import leader
from rules.suggestion import empire_leaves_west, least_points, west_share


def deployment_context(request: HttpRequest, access: Access, **extra) -> dict:
    version = _version(access.campaign)
    if version is None:
        raise PermissionDenied("The campaign has not started.")
    ctx = page_context(context_of(access, version))
    sheet: OrderSheet | None = ctx["sheet"]
    draft = sheet.draft if sheet is not None and isinstance(sheet.draft, dict) else {}
    dep = draft.get("deployment") if isinstance(draft.get("deployment"), dict) else {}
    hexmap = _hexmap(access.campaign)
    settings = _settings(access.campaign)
    state = viewcache.version_state(version)
    chosen = access.seat.leaders or {}
    armies = []
    west = hexmap is not None and empire_leaves_west(hexmap, settings, state.army_points)
    for army_value in access.seat.armies:
        army = Army.parse(army_value)
        opening = placed_by_opening(army, dep, state)
        deployment, violations = army_violations(
            access.seat.armies, army, dep, state, hexmap, settings
        )
        spec = dep.get(army.value) if isinstance(dep.get(army.value), dict) else {}
        placed_points = sum(p for _k, _h, p, _i in deployment.leaders) + sum(
            p for _c, p in deployment.garrisons
        )
        leaders = spec.get("leaders") if isinstance(spec.get("leaders"), dict) else {}
        points = state.army_points.get(army.value, 0)
        need = (
            least_points(army, hexmap, settings, west_to_france=west) if hexmap is not None else 0
        )
        armies.append(
            {
                "army": army,
                "label": army.label,
                "points": points,
                "placed": placed_points,
                "to_place": points - placed_points,
                "opening": opening,
                "opening_lines": _opening_lines(deployment) if opening else [],
                "cannot": (
                    f"{army.label} cannot deploy with {points} points: the minimum garrisons of "
                    f"its fortresses (3.2.3) and a force of {settings.min_leader_points} for its "
                    f"leaders (3.2.1) need {need}. The organiser must choose larger armies."
                    if not opening and need > points
                    else ""
                ),
                "leaders": [
                    {"key": k, "name": leader(k).name, **(leaders.get(k) or {})}
                    for k in chosen.get(army.value, [])
                ],
                "garrisons": spec.get("garrisons") or {},
                "siege_trains": [
                    {
                        "id": f"{army.value}-{i}",
                        "name": siege_train_name(f"{army.value}-{i}"),
                        **_train_spec(spec, f"{army.value}-{i}"),
                    }
                    for i in range(1, settings.siege_trains.get(army.value, 0) + 1)
                ],
                "problems": [f"({v.rule}) {v.text}" for v in violations],
                "groups": problem_groups(violations, hexmap),
                "french_note": any(v.others_may_cover for v in violations),
                "hex_problems": _by_hex(violations),
            }
        )
    shares = _shares(access.seat.armies, dep, state, hexmap, settings, west) if hexmap else []
    locked = sheet is None or sheet.ready or not access.own
    tap = None if locked else _deploy_tap(request, access, armies)
    ctx.update(
        {
            "armies": armies,
            "shares": shares,
            "unfold": _unfold(request, tap),
            "shortcut_used": request.method == "POST"
            and request.POST.get("action") in ("suggest", "garrisons"),
            "all_placed": all(a["opening"] for a in armies),
            "locked": locked,
            "errors": extra.pop("errors", []),
            "tap": tap,
            "map_svg": (
                _deploymap_svg(request, access, ctx["view"], hexmap, dep, armies, tap)
                if hexmap is not None
                else None
            ),
        }
    )
    return ctx


def _unfold(request: HttpRequest, tap: dict | None) -> set[str]:
    """The armies whose one-by-one forms stay open: the one being placed by tapping, the one
    whose form was just sent (an htmx swap must not fold what the player is working in)."""
    out = {tap["army"]} if tap else set()
    if request.method == "POST" and request.POST.get("action") in ("leader", "garrison", "train",
                                                                   "remove"):  # fmt: skip
        out.add(request.POST.get("army", ""))
    return out


def _deploy_tap(request: HttpRequest, access: Access, armies: list[dict]) -> dict | None:
    """What the player is placing by tapping the map, from the query string:
    ``?army=prussia&place=leader:frederick`` (or ``train:prussia-1``, or ``garrison``), with
    ``hex`` (or ``city``) once a hex is tapped without JavaScript (it fills the form)."""
    army_value = request.GET.get("army", "")
    kind, _, key = request.GET.get("place", "").partition(":")
    entry = next((a for a in armies if a["army"].value == army_value), None)
    if entry is None:
        return None
    if kind == "leader":
        item = next((x for x in entry["leaders"] if x["key"] == key), None)
    elif kind == "train":
        item = next((t for t in entry["siege_trains"] if t["id"] == key), None)
    elif kind == "garrison":
        item, key = {}, ""
    else:
        item = None
    if item is None:
        return None
    name = item.get("name") or "a garrison"
    return {
        "army": army_value,
        "kind": kind,
        "key": key,
        "place": f"{kind}:{key}" if key else kind,
        "name": name,
        "hex": request.GET.get("hex", "")[:8] or item.get("hex", ""),
        "city": request.GET.get("city", "")[:60],
        "points": item.get("points") or 0,
        "inside": bool(item.get("inside")),
    }


def _deploymap_svg(
    request: HttpRequest, access: Access, view: View, hexmap, dep: dict, armies: list, tap
) -> dict:
    """The deployment map: the hexes around the unit being placed (or ``centre``), the hexes
    where its army may deploy tappable (3.2.1, 3.2.4, 3.2.5; fortresses only for a garrison),
    the units already placed in the draft, and links to look further in each direction."""
    if not access.seat.armies:  # a reserve seat: nothing to deploy
        return map_svg(view, hexmap, None)
    army = Army.parse(tap["army"] if tap else access.seat.armies[0])
    others = {}
    for other in access.seat.armies:
        if other != army.value and isinstance(dep.get(other), dict):
            others[Army.parse(other)], _ = read_deployment(Army.parse(other), dep[other])

    def allowed(h) -> bool:
        return may_deploy_in(army, h, hexmap, others=others, fortress=hexmap.fortress_at(h))

    centre = None
    for text in (request.GET.get("centre", ""), (tap or {}).get("hex", "")):
        try:
            h = parse_hex_id(text)
        except HexIdError:
            continue
        if h in hexmap:
            centre = h
            break
    if centre is None:  # the allowed hex nearest the middle of the army's areas
        spots = [h for h in hexmap.hexes if allowed(h)]
        if spots:
            cols, rows = zip(*(axial_to_offset(h) for h in spots), strict=True)
            middle = offset_to_axial(sum(cols) // len(cols), sum(rows) // len(rows))
            centre = min(spots, key=lambda h: distance(h, middle))
    svg = map_svg(view, hexmap, None, focus=[hex_id(centre)] if centre else [], radius=5)
    shown = {c["id"] for c in svg["cells"]}
    cells = {c["id"]: c for c in svg["cells"]}
    url = reverse("orders:deploy", args=[access.seat.code])
    taps = []
    if tap is not None:
        query = f"army={tap['army']}&place={tap['place']}"
        for text in sorted(shown):
            h = parse_hex_id(text)
            fortress = hexmap.fortress_at(h)
            if not allowed(h) or (tap["kind"] == "garrison" and fortress is None):
                continue
            if tap["kind"] == "garrison":
                vals = None  # the points are typed: a tap fills the fortress in
                href = f"?{query}&city={fortress.name}&centre={text}"
            else:
                vals = {"phase": "deployment", "army": tap["army"], "action": tap["kind"],
                        "unit": tap["key"], "hex": text}  # fmt: skip
                if tap["kind"] == "leader":
                    vals["points"] = tap["points"]
                if tap["inside"] and fortress is not None:
                    vals["inside"] = "on"
                href = f"?{query}&hex={text}"
            taps.append(
                {
                    "hex": text,
                    "points": cells[text]["points"],
                    "href": href,
                    "post": f"{url}?{query}" if vals else "",
                    "vals": json.dumps(vals) if vals else "",
                    "name": fortress.name if fortress else "",
                }
            )
    placed = []
    for a in armies:
        for x in a["leaders"]:
            if x.get("hex") in cells:
                placed.append({**cells[x["hex"]], "short": x["name"][:3], "label": x["name"]})
        for t in a["siege_trains"]:
            if t.get("hex") in cells:
                placed.append(
                    {**cells[t["hex"]], "short": siege_train_short(t["id"]), "label": t["name"]}
                )
    pans = []
    if centre is not None:
        col, row = axial_to_offset(centre)
        query = f"army={tap['army']}&place={tap['place']}&" if tap else ""
        for label, dc, dr in (("North", 0, -1), ("West", -1, 0), ("East", 1, 0), ("South", 0, 1)):
            for step in (8, 4, 2):  # as far as the map goes, up to 8 hexes
                h = offset_to_axial(col + dc * step, row + dr * step)
                if h in hexmap:
                    pans.append((label, f"?{query}centre={hex_id(h)}"))
                    break
    return {
        **svg,
        "taps": taps,
        "placed": placed,
        "pans": pans,
        "fill": ARMY_COLOURS[army.value][0],
    }


def _train_spec(spec: dict, tid: str) -> dict:
    trains = spec.get("siege_trains") if isinstance(spec.get("siege_trains"), dict) else {}
    value = trains.get(tid)
    if isinstance(value, str):
        return {"hex": value}
    return value if isinstance(value, dict) else {}


# The headings of the page's problems, by rule (3.2).
GROUP_TITLES = {
    "3": "Points",
    "3.4": "The Deployment Chart",
    "3.1.1": "Leaders",
    "14": "Leaders",
    "3.2.1": "Leaders' places and points",
    "3.2.2": "Siege trains and points",
    "3.2.3": "Garrisons",
    "2.3.4": "Garrisons over their bastions' limit",
    "11.3": "Inside a fortress",
    "3.2.5": "Dresden, Glatz or Schweidnitz",
    "3.2.6": "The commander-in-chief's force",
}


def problem_groups(violations: list[Violation], hexmap) -> list[dict]:
    """The army's problems once each, grouped by rule; the fortresses short of their minimum
    garrison (3.2.3) together by name, each a link to its hex. 3.2.4's notes are said once, at
    the top of the page, not on every fortress."""
    groups: dict[str, dict] = {}
    short = [v for v in violations if v.kind == "ungarrisoned"]
    if short:
        names = []
        for v in short:
            fortress = hexmap.fortress_at(parse_hex_id(v.where)) if hexmap is not None else None
            names.append({"name": fortress.name if fortress else v.where, "hex": v.where,
                          "french": v.others_may_cover})  # fmt: skip
        groups["ungarrisoned"] = {
            "rule": "3.2.3",
            "title": (
                f"{len(short)} fortress{'es' if len(short) > 1 else ''} without the minimum "
                "garrison of 50 points"
            ),
            "places": names,
            "items": [],
        }
    for v in violations:
        if v.kind == "ungarrisoned":
            continue
        group = groups.setdefault(
            v.rule,
            {
                "rule": v.rule,
                "title": GROUP_TITLES.get(v.rule, "Deployment"),
                "places": [],
                "items": [],
            },  # fmt: skip
        )
        group["items"].append({"text": v.text, "hex": v.where})
    return list(groups.values())


def _by_hex(violations: list[Violation]) -> dict[str, list[str]]:
    """The problems concerning each hex (the map's sheet for a hex shows only these)."""
    out: dict[str, list[str]] = {}
    for v in violations:
        if v.where:
            out.setdefault(v.where, []).append(f"({v.rule}) {v.text}")
    return out


def _opening_lines(deployment) -> list[str]:
    lines = [f"{leader(k).name}: {p} points at {h}" for k, h, p, _i in deployment.leaders]
    lines += [f"Garrison of {c}: {p} points" for c, p in deployment.garrisons]
    return lines


def _shares(armies: list[str], dep: dict, state, hexmap, settings, west: bool) -> list[dict]:
    """What 3.2.4 means for this seat: for the Empire, what it may leave to the French and the
    points that frees; for France, the Imperial fortresses West of the Rhine awaiting French
    garrisons (and whether the draft has them)."""
    share = west_share(hexmap, settings)
    if not share.cities:
        return []
    out = []
    empire, france = Army.EMPIRE.value, Army.FRANCE.value
    empire_needs = least_points(Army.EMPIRE, hexmap, settings, west_to_france=False)
    empire_points = state.army_points.get(empire, 0)
    cities = ", ".join(share.cities)
    if empire in armies and not placed_by_opening(Army.EMPIRE, dep, state):
        text = (
            f"3.2.4: French points may garrison the Empire's {len(share.cities)} fortresses "
            f"West of the Rhine ({cities}); leaving them to France frees {share.points} of the "
            f"Empire's points. "
        )
        if west:
            text += (
                f"At {empire_points} points the Empire cannot garrison all its fortresses and "
                f"give its leaders a force ({empire_needs} needed), so the shortcuts leave them "
                "to France"
                + (
                    ": your French army garrisons them."
                    if france in armies
                    else ", and the French player's page asks for French garrisons there."
                )
            )
        else:
            text += "The shortcuts garrison them with Imperial points; agree otherwise with France."
        out.append({"army": empire, "text": text, "cities": []})
    if france in armies and empire not in armies:
        spec = dep.get(france) if isinstance(dep.get(france), dict) else {}
        garrisons = spec.get("garrisons") if isinstance(spec.get("garrisons"), dict) else {}
        text = "3.2.4: Imperial fortresses West of the Rhine awaiting French garrisons. " + (
            f"At {empire_points} points the Empire cannot hold them all ({empire_needs} "
            "needed): without at least 50 French points in each, the Empire's deployment is "
            "refused. The shortcuts garrison them."
            if west
            else "The Empire's player may leave them to you: agree it with him."
        )
        out.append(
            {
                "army": france,
                "text": text,
                "cities": [
                    {"name": c, "hex": hexmap.city(c).hex_id, "points": garrisons.get(c, 0)}
                    for c in share.cities
                ],
            }
        )
    return out
