"""Battles on the tabletop (issue 7): from the engine's battle set-up to the result applied.

- ``sync`` makes one ``Battle`` record for each battle the engine set up and waits for (9).
- ``briefing`` is the one place that decides what an audience may read of a battle: the umpire
  everything; a side its own forces in full and of the enemy only what the rules make known
  (the commander and the leaders present, 3.1.1; the total points, 9; demoralization, which
  changes the enemy's morale on the table, 10.2).
- ``table_request`` turns the set-up into the generated table (``campaign.tabletop.layout``).
- Results: a side enters, the other confirms or disputes, the organiser settles (or enters
  alone, or uses the quick resolution); ``continue_turn`` hands every final result of the turn
  to the engine through the battle window's order sheets, so the season goes on (siege phase).
- ``set_date`` and ``send_reminders``: battles have a date (the club night) and reminders, and
  the battle window's deadline follows the date so a battle never freezes nor drops the season.
- ``chronicle`` and ``gazette``: the season's battles for members, and the public news with a
  delay, never carrying secret numbers.

Time is passed in (``now=``); the rules stay in the engine and ``campaign.tabletop``.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import tempfile
import zoneinfo
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from django.db import transaction

from campaign.battles.models import Battle, BattleStatus, EntryKind, ResultEntry
from campaign.engine.armies import ADJECTIVES, Alliance, Army
from campaign.engine.armies import Seat as EngineSeat
from campaign.engine.dice import Dice
from campaign.engine.leaders import leader
from campaign.engine.state import Phase
from campaign.models import (
    Campaign,
    CampaignStatus,
    Event,
    OrganiserAction,
    OrganiserActionKind,
    PhaseWindow,
    Seat,
    StateVersion,
)
from campaign.services import gameplay
from campaign.tabletop import forces, quick
from campaign.tabletop.layout import (
    RiverSide,
    TableCity,
    TableLayout,
    TableRequest,
    TableSide,
    generate,
)
from maps.core.hexgrid import DIRECTIONS, parse_hex_id
from maps.core.model import CitySize, River, Terrain

REMIND_BEFORE = timedelta(hours=24)
DEFAULT_GAZETTE_DELAY = timedelta(hours=48)
MONTHS = ("April", "May", "June", "July", "August", "September", "October", "November", "December")
UMPIRE = "umpire"
SIDES = (Alliance.PRUSSIAN.value, Alliance.AUSTRIAN.value)


class BattleError(ValueError):
    """A result or an action that the rules or the battle's state do not allow, explained."""


# ---- records ------------------------------------------------------------------------------------


def sync(campaign: Campaign) -> list[Battle]:
    """One record per battle the latest state waits for (made once; safe to run twice)."""
    latest = campaign.latest_version()
    if latest is None:
        return []
    state = gameplay.read_state(latest.state)
    known = set(campaign.battles.values_list("battle_id", flat=True))
    for pending in state.pending_battles:
        if pending.id in known:
            continue
        setup = _setup_of(campaign, pending.id)
        if setup is None:
            continue
        Battle.objects.get_or_create(
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
    return list(campaign.battles.all())


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


# ---- who may see what ---------------------------------------------------------------------------


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


def battles_for_seat(seat: Seat) -> list[Battle]:
    """The battles of the seat's armies not yet applied, for its dashboard: link each to
    ``battles:battle``."""
    sync(seat.campaign)
    return [
        b
        for b in seat.campaign.battles.exclude(status=BattleStatus.APPLIED)
        if side_of_seat(b, seat) is not None
    ]


def may_settle(battle: Battle, user) -> bool:
    return user.is_authenticated and battle.campaign.organiser_id == user.id


# ---- settings -----------------------------------------------------------------------------------


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


# ---- the table ----------------------------------------------------------------------------------


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
            _side_name(side),
            tuple(battle.came_from.get(side, [])),
            int(setup["sides"][side].get("field_works", {}).get("inches", 0)),
        )
        for side in SIDES
        if side in setup["sides"]
    )
    return TableRequest(
        terrain=terrain,
        sides=sides,  # type: ignore[arg-type]
        rivers=rivers,
        city=city,
        table_feet=feet,
        seed=battle.table_seed or battle.campaign.derived_seed(f"table:{battle.battle_id}"),
    )


def table_layout(battle: Battle) -> TableLayout:
    return generate(table_request(battle, tabletop_settings(battle.campaign).table_feet))


def _side_name(side: str) -> str:
    return f"{side.capitalize()} alliance"


# ---- briefings ----------------------------------------------------------------------------------


def turn_label(turn: int) -> str:
    return f"{MONTHS[(turn - 1) // 2]} {'I' if turn % 2 else 'II'}"


def briefing(battle: Battle, audience: str) -> dict[str, Any]:
    """What ``audience`` (UMPIRE or a side's alliance value) may read of the battle."""
    if audience != UMPIRE and audience not in battle.setup["sides"]:
        raise BattleError(f"{audience!r} fought no part in this battle")
    setup = battle.setup
    ts = tabletop_settings(battle.campaign)
    rules = gameplay.rule_settings(battle.campaign)
    layout = table_layout(battle)
    city = setup.get("city") if (setup.get("city") or {}).get("hexes_away") == 0 else None
    out: dict[str, Any] = {
        "audience": audience,
        "audience_label": "Umpire" if audience == UMPIRE else _side_name(audience),
        "battle": battle,
        "hex": setup["hex"],
        "area": setup.get("area", ""),
        "date": turn_label(setup["turn"]),
        "month": MONTHS[(setup["turn"] - 1) // 2],
        "winter": rules.is_winter(setup["turn"]),
        "terrain": setup["terrain"],
        "rivers": [
            {"side": r["side"], "class": r["class"], "name": r.get("name", "")}
            for r in setup.get("rivers", [])
        ],
        "city": city,
        "fortress": setup.get("fortress"),
        "table": {
            "feet": f"{layout.width / 12:g} × {layout.depth / 12:g} ft",
            "deployments": [d.description for d in layout.deployments],
            "notes": list(layout.notes),
        },
        "stakes": _stakes(setup, audience),
        "sides": [],
        "quick": battle.quick,
        "fought_on_table": not battle.quick,
    }
    for side in SIDES:
        if side not in setup["sides"]:
            continue
        data = setup["sides"][side]
        full = audience in (UMPIRE, side)
        entry: dict[str, Any] = {
            "side": side,
            "name": _side_name(side),
            "own": audience == side,
            "full": full,
            "commander": data.get("commander_name", ""),
            "points": data.get("points", 0),
            "size_class": data.get("size_class", ""),
            "leaders": [_leader_entry(x, full) for x in data.get("leaders", [])],
            "demoralized": bool(data.get("demoralized_forces")),
            "morale_penalty": data.get("morale_penalty", 0),
            "field_works": data.get("field_works", {}).get("inches", 0),
        }
        if full:
            budget = forces.side_budget(
                _side_name(side),
                [
                    forces.Contingent(Army(a), int(v["points"]), _player_of(battle, Army(a)))
                    for a, v in data.get("points_by_country", {}).items()
                ],
                ts.scale,
                {
                    _power_label(battle, power): points
                    for power, points in (ts.collections or {}).items()
                },
            )
            entry["budget"] = [a.description for a in budget.armies]
            entry["tabletop_points"] = budget.tabletop_points
            entry["warnings"] = list(budget.warnings)
            entry["unsupplied"] = [leader(k).name for k in data.get("unsupplied_forces", [])]
            entry["demoralized_forces"] = [
                leader(k).name for k in data.get("demoralized_forces", [])
            ]
            entry["order_of_battle"] = _suggestions(budget, ts.unit_costs)
        out["sides"].append(entry)
    return out


def _leader_entry(line: dict, full: bool) -> dict[str, Any]:
    entry = {
        "name": line["name"],
        "army": ADJECTIVES[Army(line["army"])],
        "rank": line["rank"],
        "tactical_ir": line["tactical_ir"],
        "strategic_ir": line["strategic_ir"],
    }
    if full:
        entry["points"] = line["points"]
    return entry


def _stakes(setup: dict, audience: str) -> list[str]:
    """The VPs at stake (12.1, 12.2): who gains and loses what if a side retires or is
    defeated. Both sides may know them: they follow from the size classes both can see."""
    lines = []
    for key, vps in sorted((setup.get("stakes") or {}).items()):
        side, outcome = key.split(" ", 1)
        what = "retires" if outcome == "retired" else "is defeated"
        shares = ", ".join(f"{_seat_label(seat)} {v:+d}" for seat, v in sorted(vps.items()))
        lines.append(f"If the {side} alliance {what}: {shares} VPs.")
    return lines


def _awarded(battle: Battle) -> list[str]:
    """The VPs the battle's result gave (12.1, 12.2): the one stake of the four that came true."""
    result = battle.result or {}
    vps = (battle.setup.get("stakes") or {}).get(f"{result.get('loser')} {result.get('outcome')}")
    if not vps:
        return []
    return [", ".join(f"{_seat_label(seat)} {v:+d}" for seat, v in sorted(vps.items())) + " VPs"]


def _seat_label(value: str) -> str:
    try:
        return EngineSeat(value).label
    except ValueError:
        return value


def _player_of(battle: Battle, army: Army) -> str:
    for seat in battle.campaign.seats.filter(reserve=False):
        if army.value in seat.armies:
            return seat.label
    return ""


def _power_label(battle: Battle, power: str) -> str:
    seat = battle.campaign.seats.filter(power=power).first()
    return seat.label if seat else power


def _suggestions(budget: forces.SideBudget, unit_costs: str) -> list[dict[str, Any]]:
    if not unit_costs.strip():
        return []
    try:
        costs = forces.parse_unit_costs(unit_costs)
    except forces.UnitCostError:
        return []
    out = []
    for army in budget.armies:
        oob = forces.suggest_order_of_battle(army, costs)
        bought: dict[tuple[Army, forces.Nationality], int] = {}
        for unit, count in oob.units:
            key = (army.army, unit.nationality)
            bought[key] = bought.get(key, 0) + unit.cost * count
        out.append(
            {
                "army": ADJECTIVES[army.army],
                "lines": oob.lines(),
                "spent": oob.spent,
                "left": oob.left,
                # the suggestion obeys 9 as any purchase must (never shown wrong)
                "problems": forces.check_purchase(budget, bought),
            }
        )
    return out


# ---- results ------------------------------------------------------------------------------------


def _army_points(
    given, what: str, present: dict[str, int], ceiling, too_many, problems: list[str]
) -> dict[str, int]:
    """Points per army from a result form (losses, prisoners): whole, not negative, of an army
    that fought, at most ``ceiling(army)``; each problem in plain words, added to ``problems``."""
    out: dict[str, int] = {}
    for army, raw in (given or {}).items():
        label = ADJECTIVES.get(Army(army), army) if army in present else army
        try:
            points = int(raw or 0)
        except (TypeError, ValueError):
            problems.append(f"{label} {what} must be a whole number of points.")
            continue
        if army not in present:
            problems.append(f"No {army} force fought in this battle.")
        elif points < 0:
            problems.append(f"{label} {what} cannot be negative.")
        elif points > ceiling(army):
            problems.append(too_many(label, points, army))
        elif points:
            out[army] = points
    return out


def _retire_problems(setup: dict[str, Any], loser: str, outcome: str) -> list[str]:
    """A side retires only if the rules let every force of it (10.1, 10.1.1, 11.3). Battles set
    up before this was recorded (no ``may_retire``) are taken as allowed."""
    side = setup["sides"].get(loser) or {}
    if outcome != "retired" or side.get("may_retire", True):
        return []
    return [
        f"The {loser} side may not retire: {side.get('retire_refusal') or 'the rules forbid it'}"
        f" ({side.get('retire_rule') or '10.1'}). Enter it as defeated outright."
    ]


def parse_result(battle: Battle, data: dict[str, Any], *, informed: bool = True) -> dict[str, Any]:
    """A result in the engine's format, or BattleError with every problem, in plain words.

    ``data``: ``loser`` (alliance value), ``outcome`` ("retired" / "defeated"), ``losses``
    (army value -> points lost), optionally ``prisoners`` (army value -> the part of its losses
    taken prisoner, 13.2), ``killed`` and ``captured`` (leader keys). Unless ``informed``
    (a side of the battle, or the umpire), the messages do not say how many points were present:
    an organiser who plays settles without learning them.
    """
    setup = battle.setup
    problems = []
    loser = str(data.get("loser") or "")
    if loser not in setup["sides"]:
        problems.append("Say which side lost the battle (10: one force must retreat).")
    outcome = str(data.get("outcome") or "")
    if outcome not in ("retired", "defeated"):
        problems.append("Say whether the loser retired or was defeated outright (10.1).")
    problems += _retire_problems(setup, loser, outcome)
    present = {
        a: int(v["points"])
        for s in setup["sides"].values()
        for a, v in s.get("points_by_country", {}).items()
    }

    def too_many_losses(label: str, points: int, army: str) -> str:
        present_text = f"the {present[army]}" if informed else "the points"
        return f"{label} losses of {points} points are more than {present_text} present."

    losses = _army_points(
        data.get("losses"), "losses", present, present.__getitem__, too_many_losses, problems
    )
    prisoners = _army_points(
        data.get("prisoners"),
        "prisoners",
        present,
        lambda army: losses.get(army, 0),
        lambda label, _p, _a: f"{label} prisoners are a part of its losses (13.2): at most those.",
        problems,
    )
    leaders_present = {
        x["leader"]: x["name"] for s in setup["sides"].values() for x in s.get("leaders", [])
    }
    killed = [str(k) for k in data.get("killed") or []]
    captured = [str(k) for k in data.get("captured") or []]
    for key in killed + captured:
        if key not in leaders_present:
            problems.append(f"{key!r} was not a leader in this battle.")
    for key in set(killed) & set(captured):
        problems.append(f"{leaders_present.get(key, key)} cannot be both killed and captured.")
    if problems:
        raise BattleError(" ".join(problems))
    result = {
        "battle": battle.battle_id,
        "loser": loser,
        "outcome": outcome,
        "losses": losses,
        "killed": killed,
        "captured": captured,
    }
    if prisoners:
        result["prisoners"] = prisoners
    return result


def describe_result(battle: Battle, result: dict[str, Any], *, exact: bool = True) -> list[str]:
    """The result in words; the losses by country only when ``exact`` (the sides that fought
    and the umpire: points are secret, 3). Who gave way, and leaders killed or captured, are
    public: every army sees the leaders and the field."""
    if not result:
        return []
    names = {
        x["leader"]: x["name"] for s in battle.setup["sides"].values() for x in s.get("leaders", [])
    }
    how = "retired" if result["outcome"] == "retired" else "was defeated outright and routed"
    lines = [f"The {result['loser']} alliance {how} (10.1)."]
    taken = result.get("prisoners") or {}
    for army, points in sorted(result.get("losses", {}).items()) if exact else ():
        line = f"{ADJECTIVES[Army(army)]} losses: {points} points (9.5)"
        if taken.get(army):
            line += f", of which {taken[army]} taken prisoner (13.2)"
        lines.append(line + ".")
    for key in result.get("killed", []):
        lines.append(f"{names.get(key, key)} was killed (9.5).")
    for key in result.get("captured", []):
        lines.append(f"{names.get(key, key)} was captured (9.5).")
    return lines


def enter_result(battle: Battle, seat: Seat, data: dict[str, Any], *, now: datetime) -> Battle:
    """A side enters the result; the other side is asked to confirm it. Entering again while
    it waits voids the earlier entry (kept in the history) and tells the other side."""
    side = side_of_seat(battle, seat)
    if side is None:
        raise BattleError("Only the players whose armies fought may enter the result.")
    result = parse_result(battle, data)
    with transaction.atomic():
        battle = _locked(battle)
        if battle.status in (BattleStatus.CONFIRMED, BattleStatus.SETTLED, BattleStatus.APPLIED):
            raise BattleError("This battle's result is already final.")
        if battle.status == BattleStatus.DISPUTED:
            raise BattleError("The result is disputed: the organiser settles it.")
        replaced = _void_pending(battle, now)
        _add_entry(battle, EntryKind.ENTERED, result, now, seat=seat, user=seat.user)
        battle.result = result
        battle.status = BattleStatus.ENTERED
        battle.entered_by = seat
        battle.entered_at = now
        battle.answered_by = None
        battle.save()
    _notify(battle, "result-replaced" if replaced else "result-entered", exclude_side=side)
    return battle


def _locked(battle: Battle) -> Battle:
    """The battle read again under a row lock (inside a transaction): what it is now."""
    return Battle.objects.select_for_update().select_related("campaign").get(id=battle.id)


def _void_pending(battle: Battle, now: datetime) -> bool:
    """Void the entries still waiting for an answer; True when there was one."""
    return bool(battle.entries.filter(voided__isnull=True, answer="").update(voided=now))


def _add_entry(
    battle: Battle, kind: str, result: dict, now: datetime, *, seat=None, user=None
) -> ResultEntry:
    last = battle.entries.order_by("-number").values_list("number", flat=True).first() or 0
    return ResultEntry.objects.create(
        battle=battle, number=last + 1, kind=kind, seat=seat, user=user, result=result, created=now
    )


def pending_entry(battle: Battle) -> ResultEntry | None:
    """The entry waiting for the other side's answer, if any."""
    if battle.status != BattleStatus.ENTERED:
        return None
    return battle.entries.filter(voided__isnull=True, answer="").order_by("-number").first()


def latest_entry(battle: Battle) -> ResultEntry | None:
    """The result the players last entered, while it waits for an answer or is disputed: the
    organiser's settle form starts from it."""
    if battle.status not in (BattleStatus.ENTERED, BattleStatus.DISPUTED):
        return None
    return battle.entries.filter(voided__isnull=True).order_by("-number").first()


def entry_history(battle: Battle, *, exact: bool = True) -> list[dict[str, Any]]:
    """Every entry of the result, oldest first, described for the battle page (the losses
    only when ``exact``, as ``describe_result``)."""
    rows = []
    for entry in battle.entries.select_related("seat", "user", "answered_by"):
        if entry.kind == EntryKind.ENTERED:
            who = entry.seat.label if entry.seat else "a side"
        elif entry.kind == EntryKind.SETTLED:
            who = "the organiser (settled)"
        else:
            who = "the organiser (quick resolution)"
        if entry.voided:
            state = f"replaced by a newer entry {entry.voided:%d %b %H:%M}"
        elif entry.answer:
            by = entry.answered_by.label if entry.answered_by else "the other side"
            state = f"{entry.answer} by {by}" + (f": {entry.reason}" if entry.reason else "")
        elif entry.kind == EntryKind.ENTERED:
            state = "waiting for the other side"
        else:
            state = "final"
        rows.append(
            {
                "number": entry.number,
                "who": who,
                "when": entry.created,
                "lines": describe_result(battle, entry.result, exact=exact),
                "state": state,
                "voided": bool(entry.voided),
            }
        )
    return rows


def confirm_result(battle: Battle, seat: Seat, entry: int | None, *, now: datetime) -> Battle:
    """The other side confirms the entry it read (by its number): it is final."""
    with transaction.atomic():
        battle = _locked(battle)
        pending = _answerable(battle, seat, entry)
        ResultEntry.objects.filter(id=pending.id).update(
            answer="confirmed", answered_by=seat, answered_at=now
        )
        Battle.objects.filter(id=battle.id).update(status=BattleStatus.CONFIRMED, answered_by=seat)
    battle.refresh_from_db()
    continue_turn(battle.campaign, now=now)
    battle.refresh_from_db()
    return battle


def dispute_result(
    battle: Battle, seat: Seat, entry: int | None, reason: str, *, now: datetime
) -> Battle:
    """The other side disputes the entry it read: the organiser settles it."""
    reason = reason.strip()
    with transaction.atomic():
        battle = _locked(battle)
        pending = _answerable(battle, seat, entry)
        if not reason:
            raise BattleError("Say what is wrong with the result, for the organiser.")
        ResultEntry.objects.filter(id=pending.id).update(
            answer="disputed", answered_by=seat, answered_at=now, reason=reason
        )
        Battle.objects.filter(id=battle.id).update(
            status=BattleStatus.DISPUTED, answered_by=seat, dispute=reason
        )
    battle.refresh_from_db()
    _notify_organiser(battle, "result-disputed")
    return battle


def _answerable(battle: Battle, seat: Seat, entry: int | None) -> ResultEntry:
    """The pending entry ``seat`` may answer; refused unless it is the one the player read."""
    side = side_of_seat(battle, seat)
    if side is None:
        raise BattleError("Only the players whose armies fought may answer the result.")
    pending = pending_entry(battle)
    if pending is None:
        raise BattleError("There is no result waiting for confirmation.")
    if battle.entered_by is not None and side_of_seat(battle, battle.entered_by) == side:
        raise BattleError(
            "The other side confirms or disputes a result, not the side that entered it."
        )
    if entry != pending.number:
        raise BattleError(
            f"The result was entered again (entry {pending.number}) after the one you answered: "
            "read the new entry below and answer it."
        )
    return pending


def _log(battle: Battle, user, text: str, now: datetime, reason: str = "", **data) -> None:
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


def settle_result(
    battle: Battle, user, data: dict[str, Any], *, now: datetime, reason: str = ""
) -> Battle:
    """The organiser settles a dispute, or enters a result alone: it is final."""
    if not may_settle(battle, user):
        raise BattleError("Only the organiser settles results.")
    if battle.status == BattleStatus.APPLIED:
        raise BattleError("This battle's result is already applied.")
    result = parse_result(battle, data, informed=audience_for(battle, user) is not None)
    _void_pending(battle, now)
    _add_entry(battle, EntryKind.SETTLED, result, now, user=user)
    battle.result = result
    battle.status = BattleStatus.SETTLED
    battle.settled_by = user
    battle.entered_at = battle.entered_at or now
    battle.save()
    _log(battle, user, f"Settled the result of the battle in hex {battle.hex}.", now, reason)
    continue_turn(battle.campaign, now=now)
    battle.refresh_from_db()
    return battle


def quick_resolve(
    battle: Battle, user, *, attacker: str | None, now: datetime, why: str = ""
) -> Battle:
    """The organiser resolves the battle with SPI's tables (docs/quick-resolution.md), with
    the campaign's named dice; the record says it was not fought on the table."""
    if not may_settle(battle, user):
        raise BattleError("Only the organiser may resolve a battle without the table.")
    if battle.status == BattleStatus.APPLIED:
        raise BattleError("This battle's result is already applied.")
    setup = battle.setup
    # SPI 9.0: the side that elects to attack is the attacker; here, a side whose player chose
    # to fight in the battle phase (9). quick.resolve decides with the first option otherwise.
    electing = set(wished_to_fight(battle))
    sides = []
    for side in SIDES:
        data = setup["sides"][side]
        leaders = sorted(
            data.get("leaders", []),
            key=lambda x: (x["leader"] != data.get("commander"), x["rank"]),
        )
        sides.append(
            quick.QuickSide(
                side,
                int(data["points"]),
                tuple(
                    quick.QuickLeader(x["leader"], x["rank"], x["book_tactical_ir"])
                    for x in leaders
                ),
                demoralized=bool(data.get("demoralized_forces")),
                unsupplied=bool(data.get("unsupplied_forces")),
                elects_to_attack=side in electing,
                field_works=int((data.get("field_works") or {}).get("inches", 0)),
            )
        )
    ts = tabletop_settings(battle.campaign)
    terrain = Terrain[setup["terrain"].upper()]
    # Its own seed (docs/dice.md), so that no campaign die tells the quick result beforehand.
    quick_dice = Dice(seed=battle.campaign.derived_seed("quick"))
    outcome = quick.resolve(
        quick.QuickBattle(
            battle.battle_id,
            (sides[0], sides[1]),
            terrain,
            attacker=attacker or None,
            points_per_strength_point=ts.points_per_strength_point,
        ),
        quick_dice.roll,
    )
    loser = outcome.loser
    # The engine's losses count the prisoners; "prisoners" says which part of them (13.2).
    losses: dict[str, int] = {}
    prisoners: dict[str, int] = {}
    for side_result in outcome.sides:
        eliminated = _share(setup["sides"][side_result.name], side_result.losses)
        taken = _share(setup["sides"][side_result.name], side_result.prisoners)
        for army in eliminated:
            if eliminated[army] + taken[army]:
                losses[army] = eliminated[army] + taken[army]
            if taken[army]:
                prisoners[army] = taken[army]
    killed = [k for s in outcome.sides for k in s.killed]
    captured = [k for s in outcome.sides for k in s.captured]
    data = {
        "loser": loser.name,
        "outcome": "retired" if loser.outcome is quick.QuickOutcome.RETIRED else "defeated",
        "losses": losses,
        "prisoners": prisoners,
        "killed": killed,
        "captured": captured,
    }
    if data["outcome"] == "retired" and not setup["sides"][loser.name].get("may_retire", True):
        data["outcome"] = "defeated"  # a side that may not retire is defeated outright (10.1)
    battle.result = parse_result(battle, data)
    _void_pending(battle, now)
    _add_entry(battle, EntryKind.QUICK, battle.result, now, user=user)
    battle.quick = True
    battle.quick_record = {
        "method": outcome.method,
        "steps": [{"rule": s.rule, "text": s.text} for s in outcome.steps],
        "cell": str(outcome.cell) if outcome.cell else "",
        "die": outcome.die,
        "rolls": quick_dice.rolls_as_dicts(),
        "seed_epoch": battle.campaign.seed_epoch,
    }
    battle.status = BattleStatus.SETTLED
    battle.settled_by = user
    battle.entered_at = now
    battle.save()
    _log(
        battle,
        user,
        f"Resolved the battle in hex {battle.hex} with the quick resolution (not on the table).",
        now,
        why,
    )
    continue_turn(battle.campaign, now=now)
    battle.refresh_from_db()
    return battle


def wished_to_fight(battle: Battle) -> list[str]:
    """The sides whose players chose to fight (9: a battle is fought "if and only if either
    player involved wishes to do so"), from the decisions the battle phase used."""
    sides = set()
    # Each army's side as the engine set the battle up (the alliance of now, 1.2 and 13.8).
    side_of = {
        army: side
        for side, data in battle.setup["sides"].items()
        for army in data.get("points_by_country", {})
    }
    versions = StateVersion.objects.filter(
        campaign=battle.campaign, turn=battle.turn, resolved_phase=Phase.BATTLE.value
    )
    for version in versions:
        for used in (version.orders or {}).values():
            for d in (used or {}).get("orders", {}).get("battle", []) or []:
                fought = d.get("hex") == battle.hex and d.get("choice") == "fight"
                if fought and d.get("army") in side_of:
                    sides.add(side_of[d["army"]])
    return sorted(sides)


def _share(side: dict, loss: int) -> dict[str, int]:
    """A side's loss shared among its countries in proportion to their points (largest
    remainder), so the engine can take it from each country's forces."""
    points = {a: int(v["points"]) for a, v in side.get("points_by_country", {}).items()}
    total = sum(points.values())
    if total == 0:
        return {}
    exact = {a: Fraction(loss * p, total) for a, p in points.items()}
    out = {a: int(v) for a, v in exact.items()}
    rest = loss - sum(out.values())
    for a in sorted(exact, key=lambda a: (-(exact[a] - out[a]), a))[:rest]:
        out[a] += 1
    return out


# ---- the turn goes on ---------------------------------------------------------------------------


def battle_window(campaign: Campaign) -> PhaseWindow | None:
    window = campaign.open_window()
    if window is None or window.phase != Phase.BATTLE.value:
        return None
    return window


def continue_turn(campaign: Campaign, *, now: datetime) -> bool:
    """When every battle the campaign waits for has a final result, hand them all to the
    engine (the battle window's orders from no seat) and resolve it: the turn continues with
    the siege phase (9, 4). False when some battle still waits."""
    from campaign.services import resolution

    campaign.refresh_from_db()
    window = battle_window(campaign)
    if window is None:
        return False
    state = gameplay.read_state(window.version.state)
    waiting = [b.id for b in state.pending_battles]
    if not waiting:
        return False
    records = {b.battle_id: b for b in campaign.battles.filter(battle_id__in=waiting)}
    if len(records) < len(waiting) or not all(b.is_final for b in records.values()):
        return False
    results = [records[i].result for i in waiting]
    version = resolution.resolve_due_phase(
        window.id, now=now, force=True, extra_orders={"battle_results": results}
    )
    if version is None:
        return False
    for battle in records.values():
        battle.archive = {audience: _archived(battle, audience) for audience in (UMPIRE, *SIDES)}
        battle.status = BattleStatus.APPLIED
        battle.applied_at = now
        battle.save()
        _notify(battle, "result-applied")
    return True


def _archived(battle: Battle, audience: str) -> dict[str, Any]:
    """The briefing as it was, JSON-safe, kept for history."""
    data = briefing(battle, audience)
    data.pop("battle")
    return data


# ---- dates and reminders ------------------------------------------------------------------------


def set_date(battle: Battle, user, when: datetime, *, now: datetime) -> Battle:
    """The organiser sets (or moves, to extend it) the date the battle is fought. The battle
    window has no deadline (it waits for the table); the date drives the reminders, and when it
    passes without a final result the organiser is told to extend it, settle it or resolve it
    quickly, so the season never freezes unnoticed."""
    if not may_settle(battle, user):
        raise BattleError("Only the organiser sets battle dates.")
    if battle.status == BattleStatus.APPLIED:
        raise BattleError("This battle is over.")
    if when < now:
        raise BattleError("The date must lie ahead.")
    Battle.objects.filter(id=battle.id).update(
        fight_on=when, reminded_before=None, overdue_notified=None
    )
    battle.refresh_from_db()
    tz = zoneinfo.ZoneInfo(battle.campaign.time_zone)
    _log(
        battle,
        user,
        f"Set the date of the battle in hex {battle.hex}: {when.astimezone(tz):%a %d %b, %H:%M}.",
        now,
    )
    _notify(battle, "date-set")
    return battle


def send_reminders(*, now: datetime) -> int:
    """Reminders, each sent once: to the players the day before a battle's date, and to the
    organiser when the date has passed without a final result (extend it, settle it, or use
    the quick resolution). Returns how many went out."""
    sent = 0
    open_statuses = (BattleStatus.PENDING, BattleStatus.ENTERED, BattleStatus.DISPUTED)
    soon = Battle.objects.filter(
        status__in=open_statuses,
        fight_on__gt=now,
        fight_on__lte=now + REMIND_BEFORE,
        reminded_before=None,
        campaign__status=CampaignStatus.RUNNING,
    )
    for battle in soon:
        if Battle.objects.filter(id=battle.id, reminded_before=None).update(reminded_before=now):
            _notify(battle, "reminder")
            sent += 1
    overdue = Battle.objects.filter(
        status__in=open_statuses,
        fight_on__lte=now,
        overdue_notified=None,
        campaign__status=CampaignStatus.RUNNING,
    )
    for battle in overdue:
        if Battle.objects.filter(id=battle.id, overdue_notified=None).update(overdue_notified=now):
            _notify_organiser(battle, "overdue")
            sent += 1
    return sent


def apply_waiting(*, now: datetime) -> int:
    """Apply the results that are final but could not be applied when they became so (the
    campaign was paused, say): the turn goes on once the campaign runs again. Safe to run
    twice: ``continue_turn`` resolves a window once."""
    applied = 0
    campaigns = Campaign.objects.filter(
        status=CampaignStatus.RUNNING,
        paused=False,
        battles__status__in=BattleStatus.final(),
    ).distinct()
    for campaign in campaigns:
        if continue_turn(campaign, now=now):
            applied += 1
    return applied


def sweep(*, now: datetime) -> dict[str, int]:
    """The periodic work of the battles: reminders, and results waiting to be applied. Run it
    from the periodic sweep (Celery beat or ``manage.py runperiodic``)."""
    return {"reminders": send_reminders(now=now), "applied": apply_waiting(now=now)}


# ---- email --------------------------------------------------------------------------------------

_SUBJECTS = {
    "result-entered": "{campaign}: the result of the battle at {hex} waits for you",
    "result-replaced": "{campaign}: the result of the battle at {hex} was entered again",
    "result-disputed": "{campaign}: the result of the battle at {hex} is disputed",
    "result-applied": "{campaign}: the battle at {hex} is decided; the turn goes on",
    "date-set": "{campaign}: the battle at {hex} is fought on {date}",
    "reminder": "{campaign}: the battle at {hex} is fought tomorrow",
    "overdue": "{campaign}: the battle at {hex} has no result yet",
}
_BODIES = {
    "result-replaced": "The result of the battle at {hex} ({when}) was entered again; the"
    " earlier entry is void, and any answer you gave to it no longer counts. Now: {result}\n"
    "Confirm it or dispute it on the battle page: {link}",
    "result-entered": "The result of the battle at {hex} ({when}) was entered. Confirm it or"
    " dispute it on the battle page: {link}",
    "result-disputed": "The result of the battle at {hex} ({when}) is disputed: {dispute}\n"
    "Settle it on the battle page: {link}",
    "result-applied": "The battle at {hex} ({when}) is decided and applied to the campaign."
    "\n{result}\nThe turn goes on. Battle page: {link}",
    "date-set": "The battle at {hex} ({when}) is to be fought on {date}. Briefings: {link}",
    "reminder": "The battle at {hex} ({when}) is fought on {date}. Print your briefing: {link}",
    "overdue": "The battle at {hex} ({when}) was due on {date} and has no final result."
    " Extend its date, settle it, or use the quick resolution: {link}",
}


def build_mail(
    battle_id: int, kind: str, *, exclude_side: str | None = None, organiser: bool = False
) -> tuple[list[str], str, str, dict] | None:
    """(recipients, subject, body, context) of one battle email, read when it is sent (by the
    ``send_email`` task): the seated players whose armies fought (but ``exclude_side``), or
    the organiser. None when there is no one to tell."""
    from django.urls import reverse

    battle = Battle.objects.select_related("campaign__organiser").filter(id=battle_id).first()
    if battle is None or kind not in _SUBJECTS:
        return None
    if organiser:
        email = battle.campaign.organiser.email
        to = [email] if email else []
    else:
        to = sorted(
            {
                seat.user.email
                for side, seats in seats_in(battle).items()
                if side != exclude_side
                for seat in seats
                if seat.user_id and seat.user.email
            }
        )
    if not to:
        return None
    link = django_settings.SITE_URL + reverse(
        "battles:battle", args=[battle.campaign.code, battle.code]
    )
    values = {
        "campaign": battle.campaign.name,
        "hex": battle.hex,
        "when": turn_label(battle.turn),
        "date": f"{battle.fight_on:%A %d %B %Y, %H:%M}" if battle.fight_on else "",
        "link": link,
        "dispute": battle.dispute,
        "result": " ".join(describe_result(battle, battle.result)),
    }
    context = {"campaign": battle.campaign, "link": link}
    return to, _SUBJECTS[kind].format(**values), _BODIES[kind].format(**values), context


def _queue_mail(battle: Battle, kind: str, **options: Any) -> None:
    """Queue the email when the transaction commits; the ``send_email`` task sends it."""
    from campaign.services.email import queue_battle

    queue_battle(battle.id, kind, **options)


def _notify(battle: Battle, kind: str, exclude_side: str | None = None) -> None:
    """Email every seated player whose armies fought (but ``exclude_side``)."""
    _queue_mail(battle, kind, exclude_side=exclude_side)


def _notify_organiser(battle: Battle, kind: str) -> None:
    _queue_mail(battle, kind, organiser=True)


# ---- printing -----------------------------------------------------------------------------------


class PrintError(RuntimeError):
    """The browser could not print the page."""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def html_to_pdf(html: str, *, timeout: int = 90) -> bytes:
    """Print an HTML page (self-contained: images inline) to PDF with Debian's chromium."""
    browser = chromium()
    if browser is None:
        raise PrintError("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="dgk-print-") as folder:
        page = Path(folder) / "briefing.html"
        pdf = Path(folder) / "briefing.pdf"
        page.write_text(html, encoding="utf-8")
        command = [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--user-data-dir={folder}/profile",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ]
        try:
            subprocess.run(command, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise PrintError("chromium took too long to print") from exc
        if not pdf.exists() or pdf.stat().st_size == 0:
            raise PrintError("chromium printed nothing")
        return pdf.read_bytes()


# ---- the chronicle and the gazette --------------------------------------------------------------

_NUMBERS = re.compile(r"\b\d[\d,]*\s*(points?|pts)\b", re.IGNORECASE)
_GAZETTE_KINDS = ("leader-killed", "leader-captured", "fortress-captured", "army-surrenders",
                  "campaign-ends")  # fmt: skip


def chronicle(campaign: Campaign, user=None) -> list[dict[str, Any]]:
    """Every battle of the season, and the sieges, for the campaign's members (12). The exact
    forces are shown to the umpire and to the players who fought; the others (an organiser who
    plays, too) see the size classes of 12.1 (A, B, C), which the VPs reveal anyway."""
    rows = []
    for b in campaign.battles.all():
        sides = b.setup["sides"]
        exact = user is None or audience_for(b, user) is not None
        rows.append(
            {
                "battle": b,
                "kind": "battle",
                "date": turn_label(b.turn),
                "place": _place(b),
                "commanders": " against ".join(
                    f"{sides[s].get('commander_name', '')} ({_side_name(s)})"
                    for s in SIDES
                    if s in sides
                ),
                "forces": " against ".join(
                    f"{sides[s].get('points', 0)} points"
                    if exact
                    else f"size class {sides[s].get('size_class', '?')}"
                    for s in SIDES
                    if s in sides
                ),
                "result": (
                    describe_result(b, b.result, exact=exact)
                    if b.status == BattleStatus.APPLIED
                    else []
                ),
                "status": b.get_status_display(),
                "quick": b.quick,
                "vps": _awarded(b) if b.status == BattleStatus.APPLIED else [],
                "stakes": _stakes(b.setup, UMPIRE) if b.status != BattleStatus.APPLIED else [],
            }
        )
    sieges = Event.objects.filter(
        campaign=campaign,
        public=True,
        kind__in=("breach", "fortress-captured", "surrender", "honors-of-war"),
    ).select_related("version")
    for e in sieges:
        rows.append(
            {
                "kind": "siege",
                "date": turn_label(e.version.turn),
                "place": (e.data or {}).get("city", ""),
                "text": e.text,
            }
        )
    return rows


def _place(battle: Battle) -> str:
    city = battle.setup.get("city") or {}
    if city.get("hexes_away") == 0:
        return f"{city['name']} ({battle.hex})"
    if city:
        return f"near {city['name']} ({battle.hex})"
    return battle.hex


def gazette(campaign: Campaign, *, now: datetime) -> list[dict[str, str]]:
    """The season's public news, published ``gazette_delay`` after it happened: battles (who
    met whom, where, who gave way), leaders lost, fortresses fallen. No secret numbers."""
    delay = tabletop_settings(campaign).gazette_delay
    cutoff = now - delay
    news = []
    for b in campaign.battles.filter(status=BattleStatus.APPLIED, applied_at__lte=cutoff):
        sides = b.setup["sides"]
        loser = b.result.get("loser", "")
        victor = next((s for s in SIDES if s in sides and s != loser), "")
        how = "gave way" if b.result.get("outcome") == "retired" else "was routed"
        text = (
            f"Battle {_place(b)}: {sides.get(SIDES[0], {}).get('commander_name', '')} against"
            f" {sides.get(SIDES[1], {}).get('commander_name', '')}. The army of"
            f" {sides.get(loser, {}).get('commander_name', '')} {how}; the field belongs to"
            f" {sides.get(victor, {}).get('commander_name', '')}."
        )
        if b.quick:
            text += " (Decided without the table.)"
        news.append({"date": turn_label(b.turn), "text": text, "when": b.applied_at})
    events = Event.objects.filter(
        campaign=campaign,
        public=True,
        kind__in=_GAZETTE_KINDS,
        version__created__lte=cutoff,
    ).select_related("version")
    for e in events:
        news.append(
            {
                "date": turn_label(e.version.turn),
                "text": _NUMBERS.sub("", e.text).replace(" ,", ","),
                "when": e.version.created,
            }
        )
    news.sort(key=lambda n: n["when"], reverse=True)
    return news
