"""Battles on the tabletop (issue 7): the records and who may see them.

- ``sync`` makes one ``Battle`` record for each battle the engine set up and waits for (9).
- Who is in a battle and who may open it: ``side_of_seat``, ``seats_in``, ``audience_for``,
  ``may_settle``; the campaign's tabletop settings; ``table_request`` turns the set-up into the
  generated table (``tabletop.layout``).

The other jobs of the battles have their own services: ``battle_briefing`` (what an audience may
read), ``battle_results`` (entering, confirming, disputing, settling, the quick resolution, the
turn going on), ``battle_dates`` (dates, reminders, the periodic sweep), ``battle_mail`` (the
emails' words), ``battle_news`` (the chronicle and the gazette) and ``battle_print`` (PDF).

Time is passed in (``now=``); the rules stay in the engine and ``tabletop``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from battles.models import Battle, BattleStatus
from campaign.models import (
    Campaign,
    Event,
    OrganiserAction,
    OrganiserActionKind,
    Seat,
    StateVersion,
)
from campaign.services import gameplay, outgoing, viewcache
from maps.core.hexgrid import DIRECTIONS, parse_hex_id
from maps.core.model import CitySize, River, Terrain
from rules.armies import Alliance
from rules.state import Phase
from tabletop import forces
from tabletop.layout import (
    RiverSide,
    TableCity,
    TableLayout,
    TableRequest,
    TableSide,
    generate,
)
from tabletop.sheet import fighting_name
from tabletop.shore import WaterSide, road_sides, water_sides

DEFAULT_GAZETTE_DELAY = timedelta(hours=48)


UMPIRE = "umpire"


SIDES = (Alliance.PRUSSIAN.value, Alliance.AUSTRIAN.value)


class BattleError(ValueError):
    """A result or an action that the rules or the battle's state do not allow, explained."""


def sync(campaign: Campaign, latest: StateVersion | None = None) -> list[Battle]:
    """One record per battle the latest state waits for (made once; safe to run twice); the
    records it made. The state is read decoded (``viewcache.version_state``: no JSON read or
    decoded when this process has it, as after a resolution), and only when a battle it waits
    for has no record yet (``viewcache.pending_battle_ids``, kept for every process). Its
    callers (the battle pages, the dashboard, the organiser's board) read the battles they show
    themselves: no battle row is read when the state waits for none. ``latest``: the
    campaign's latest version, when the caller has read it already."""
    if latest is None:
        latest = campaign.versions.defer("state", "orders").order_by("-number").first()
    if latest is None:
        return []
    waiting = viewcache.pending_battle_ids(latest)
    if not waiting:
        return []
    known = set(campaign.battles.values_list("battle_id", flat=True))
    if known.issuperset(waiting):
        return []  # every record made: the state need not be decoded
    state = viewcache.version_state(latest)
    made = []
    for pending in state.pending_battles:
        if pending.id in known:
            continue
        setup = _setup_of(campaign, pending.id)
        if setup is None:
            continue
        battle, created = Battle.objects.get_or_create(
            campaign=campaign,
            battle_id=pending.id,
            defaults={
                "hex": pending.hex,
                "turn": state.turn,
                "setup": setup,
                "came_from": _came_from(campaign, state.turn, setup),
                "table_seed": campaign.derived_seed(f"table:{pending.id}"),
            },
        )
        if created:
            made.append(battle)
            # The campaign waits for it with no deadline: the organiser is told to date it
            # (the players' email says he does), or the season would wait unnoticed.
            outgoing.queue_battle(battle.id, "to-date", organiser=True)
    return made


def _setup_of(campaign: Campaign, battle_id: str) -> dict | None:
    rows = Event.objects.filter(campaign=campaign, kind="battle").order_by("-version__number")
    for row in rows:
        setup = (row.data or {}).get("setup")
        if isinstance(setup, dict) and setup.get("battle") == battle_id:
            return setup
    return None


def _came_from(campaign: Campaign, turn: int, setup: dict) -> dict[str, list[int]]:
    """Each side's approach: the direction from the battle hex to where each of its leaders
    stood before the march phase (none for leaders that held the hex)."""
    first = (
        StateVersion.objects.filter(campaign=campaign, turn=turn, phase=Phase.MARCH.value)
        .order_by("-number")
        .first()
    )
    if first is None:
        return {}
    where = {key: x.get("hex") for key, x in (first.state.get("leaders") or {}).items()}
    battle_hex = parse_hex_id(setup["hex"])
    out: dict[str, list[int]] = {}
    for side, data in setup["sides"].items():
        directions = []
        for line in data.get("leaders", []):
            start = where.get(line["leader"])
            if start and start != setup["hex"]:
                directions.append(_bearing(battle_hex, parse_hex_id(start)))
        out[side] = sorted(set(directions))
    return out


def _pixel(q: float, r: float) -> tuple[float, float]:
    return (math.sqrt(3) * (q + r / 2), 1.5 * r)


def _bearing(frm, to) -> int:
    """The direction code (rule 6) nearest the bearing from one hex to another."""
    fx, fy = _pixel(frm.q, frm.r)
    tx, ty = _pixel(to.q, to.r)
    vx, vy = tx - fx, ty - fy
    best = None
    for d, (dq, dr) in DIRECTIONS.items():
        ux, uy = _pixel(dq, dr)
        score = (vx * ux + vy * uy) / math.hypot(ux, uy)
        if best is None or score > best[0]:
            best = (score, d)
    return best[1]


def side_of_seat(battle: Battle, seat: Seat) -> str | None:
    """The alliance value of the seat's armies in this battle, or None if it has none there."""
    for side, data in battle.setup["sides"].items():
        if set(data.get("points_by_country", {})) & set(seat.armies):
            return side
    return None


def seats_in(battle: Battle) -> dict[str, list[Seat]]:
    out: dict[str, list[Seat]] = {side: [] for side in battle.setup["sides"]}
    for seat in battle.campaign.seats.filter(reserve=False):
        side = side_of_seat(battle, seat)
        if side is not None:
            out[side].append(seat)
    return out


def audience_for(battle: Battle, user) -> tuple[str, Seat | None] | None:
    """``(UMPIRE, None)`` for a non-playing organiser, ``(side, seat)`` for a player whose
    armies fought, None for anyone else."""
    campaign = battle.campaign
    if user.is_authenticated and campaign.organiser_id == user.id and campaign.umpire_sees_all:
        return UMPIRE, None
    for seat in campaign.seats.filter(user=user, reserve=False):
        side = side_of_seat(battle, seat)
        if side is not None:
            return side, seat
    return None


def waiting(campaign: Campaign) -> list[Battle]:
    """The campaign's battles not yet applied, the disputed first, for the organiser's board."""
    sync(campaign)
    order = {BattleStatus.DISPUTED: 0, BattleStatus.ENTERED: 1, BattleStatus.PENDING: 2}
    rows = list(campaign.battles.exclude(status=BattleStatus.APPLIED))
    return sorted(rows, key=lambda b: (order.get(b.status, 3), b.turn, b.hex))


def battles_for_seat(seat: Seat, latest: StateVersion | None = None) -> list[Battle]:
    """The battles of the seat's armies the campaign waits for, for its dashboard: link each to
    ``battles:battle``. ``latest``: the campaign's latest version, if read already. The state's
    battles waiting are kept for every process (``viewcache.pending_battle_ids``): when it waits
    for none, as in most phases, no battle row is read."""
    campaign = seat.campaign
    if latest is None:
        latest = campaign.versions.defer("state", "orders").order_by("-number").first()
    waiting = viewcache.pending_battle_ids(latest) if latest is not None else ()
    if not waiting:
        return []
    sync(campaign, latest)
    rows = campaign.battles.filter(battle_id__in=waiting).exclude(status=BattleStatus.APPLIED)
    return [b for b in rows if side_of_seat(b, seat) is not None]


def may_settle(battle: Battle, user) -> bool:
    return user.is_authenticated and battle.campaign.organiser_id == user.id


@dataclass(frozen=True)
class TabletopSettings:
    """The campaign settings of the tabletop, kept in ``Campaign.options["tabletop"]``."""

    table_feet: tuple[float, float] = (6, 4)
    scale: forces.Scale = forces.Scale()
    collections: dict[str, int] | None = None
    unit_costs: str = ""
    gazette_delay: timedelta = DEFAULT_GAZETTE_DELAY
    points_per_strength_point: int = 50


def tabletop_settings(campaign: Campaign) -> TabletopSettings:
    data = (campaign.options or {}).get("tabletop") or {}
    share = data.get("british_share", "1/4")
    return TabletopSettings(
        table_feet=tuple(data.get("table_feet") or (6, 4)),  # type: ignore[arg-type]
        scale=forces.Scale(
            ratio=Fraction(str(data.get("ratio", "1"))),
            british_share=None if share in (None, "") else Fraction(str(share)),
        ),
        collections={k: int(v) for k, v in (data.get("collections") or {}).items()},
        unit_costs=data.get("unit_costs", ""),
        gazette_delay=timedelta(hours=float(data.get("gazette_delay_hours", 48))),
        points_per_strength_point=int(data.get("points_per_strength_point", 50)),
    )


def save_tabletop_settings(campaign: Campaign, values: dict[str, Any]) -> None:
    """Store the organiser's settings (already validated by the form)."""
    options = dict(campaign.options or {})
    current = dict(options.get("tabletop") or {})
    current.update(values)
    options["tabletop"] = current
    Campaign.objects.filter(id=campaign.id).update(options=options)
    campaign.options = options


def record_collection(seat: Seat, points: int) -> None:
    """A player's painted collection, in tabletop points (rule 3's warning uses it)."""
    campaign = Campaign.objects.get(id=seat.campaign_id)
    data = dict((campaign.options or {}).get("tabletop") or {})
    collections = dict(data.get("collections") or {})
    collections[seat.power] = int(points)
    save_tabletop_settings(campaign, {"collections": collections})


def table_request(battle: Battle, feet: tuple[float, float] = (6, 4)) -> TableRequest:
    setup = battle.setup
    terrain = Terrain[setup["terrain"].upper()]
    if terrain not in (Terrain.CLEAR, Terrain.MARSH, Terrain.ROUGH):
        terrain = Terrain.CLEAR
    rivers = tuple(
        RiverSide(int(r["side"]), River(r["class"]), bridge=bool(r.get("bridge")))
        for r in setup.get("rivers", [])
    )
    city = None
    near = setup.get("city")
    if near and near.get("hexes_away") == 0:
        city = TableCity(near["name"], CitySize.parse(near["size"]), bool(near.get("fortress")))
    sides = tuple(
        TableSide(
            fighting_name(setup["sides"][side]),
            tuple(battle.came_from.get(side, [])),
            int(setup["sides"][side].get("field_works", {}).get("inches", 0)),
        )
        for side in SIDES
        if side in setup["sides"]
    )
    roads, waters = _map_sides(battle)
    return TableRequest(
        terrain=terrain,
        sides=sides,  # type: ignore[arg-type]
        rivers=rivers,
        city=city,
        table_feet=feet,
        seed=battle.table_seed or battle.campaign.derived_seed(f"table:{battle.battle_id}"),
        roads=roads,
        waters=waters,
    )


def _map_sides(battle: Battle) -> tuple[tuple[int, ...], tuple[WaterSide, ...]]:
    """The hexsides of the battle hex a road of the campaign map crosses, and those with sea or
    a lake beyond them (none if the map cannot be loaded: the table is still drawn)."""
    hexmap = gameplay.load_campaign_map(battle.campaign.map_name)
    if hexmap is None:
        return (), ()
    h = parse_hex_id(battle.hex)
    return road_sides(hexmap, h), water_sides(hexmap, h)


def table_layout(battle: Battle) -> TableLayout:
    return generate(table_request(battle, tabletop_settings(battle.campaign).table_feet))


def side_name(side: str) -> str:
    return f"{side.capitalize()} alliance"


def log_action(battle: Battle, user, text: str, now: datetime, reason: str = "", **data) -> None:
    """The organiser's act on a battle, in the campaign log every player reads."""
    why = f" Why: {reason.strip()}" if reason.strip() else ""
    OrganiserAction.objects.create(
        campaign=battle.campaign,
        actor=user,
        kind=OrganiserActionKind.BATTLE,
        text=f"{text}{why}",
        data={"battle": str(battle.code), **data},
        created=now,
    )
