"""The fog lifts (issue 28, docs/season-end.md): once a campaign is over, every seat sees the
whole war: the map of every phase as the umpire saw it, every seat's orders with the rejected
ones, every roll with its check, and the charts.

Nothing here is shown before the end: ``war_shown`` is the one test, and every view and email
that offers *The war* asks it. Linked campaigns (13) hold the fog over a year's end until the
organiser ends the war (``Campaign.fog_held``, ``end_war``): the next year starts from the same
positions (13.1), so the year before must not show them. The map and the lists reuse the
umpire's projection (``viewcache.umpire_view``, ``knowledge.umpire_view``): there is no second
projection.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from django.core.cache import cache
from django.db import transaction

from campaign.models import (
    Campaign,
    CampaignStatus,
    Event,
    OrganiserActionKind,
    PhaseWindow,
    StateVersion,
)
from campaign.projection import View
from campaign.services import gameplay, viewcache
from campaign.services.actionlog import OrganiserError, log
from maps import overlay
from maps.core.tiles import grid_of
from orders.models import OrderSheet
from rules.armies import ADJECTIVES, Army
from rules.dice import check_rolls
from rules.state import Phase
from seasons import signals, warcharts, warseries
from seasons.services import bookfiles

LOSS_KINDS = ("battle", "prisoners", "attrition", "siege", "surrender")
TIMELINE_KINDS = ("battle", "siege", "breach", "surrender", "honors-of-war")
ARMY_LABELS = {a.value: ADJECTIVES[a] for a in Army}


def war_shown(campaign: Campaign) -> bool:
    """*The war* is shown once the campaign is over (12.7, or the organiser's end), never
    before; a campaign reopened by its organiser hides it again."""
    return campaign.seeds_revealed  # one moment for both: the campaign has ended


def end_war_refusal(campaign: Campaign) -> str:
    """Why the organiser cannot end the war from ``campaign`` now ("" when he can)."""
    if campaign.status != CampaignStatus.ENDED:
        return "The war can be ended only from a year that is over."
    if not campaign.fog_held:
        return "The fog has lifted already: the war is shown."
    if campaign.next_years.exists():
        return "The next year has started: end the war from the latest year."
    return ""


@transaction.atomic
def end_war(campaign: Campaign, actor, *, now: datetime, reason: str = "") -> list[Campaign]:
    """The organiser ends a war of linked campaigns (13) at the end of its latest year: the fog
    lifts on that year and every year before it (*The war*, its book, the dice seeds), and no
    next year starts. Logged in each year for its players to read. Returns the years shown."""
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    refused = end_war_refusal(campaign)
    if refused:
        raise OrganiserError(refused)
    text = "Ended the war: the fog has lifted on every year of it." + (
        f" Reason: {reason}" if reason else ""
    )
    years, year = [], campaign
    while year is not None:
        year.options = {**(year.options or {}), "war_over": True}
        Campaign.objects.filter(id=year.id).update(options=year.options)
        log(year, actor, OrganiserActionKind.ENDED, text, now=now, war_over=True)
        bookfiles.ask_for_book(year)  # (refused at the year's end while the fog was held)
        years.append(year)
        year = year.previous
    return years


def public_campaign(token: str) -> Campaign | None:
    """The campaign whose public link of *The war* is ``token``: switched on, and over."""
    if not token:
        return None
    campaign = Campaign.objects.filter(war_token=token).first()
    return campaign if campaign is not None and war_shown(campaign) else None


@transaction.atomic
def set_public_link(campaign: Campaign, actor, *, on: bool, now: datetime) -> str:
    """Switch the public read-only link of *The war* on (a new random token each time) or off
    (the old link is broken for good). Only once the campaign is over; logged for every player
    to read. Returns the token ("" when off)."""
    if on and not war_shown(campaign):
        raise OrganiserError("The war can be made public only once the campaign is over.")
    token = secrets.token_urlsafe(32) if on else ""
    Campaign.objects.filter(id=campaign.id).update(war_token=token)
    campaign.war_token = token
    if on:
        signals.war_made_public.send(Campaign, campaign=campaign)  # the club's channel
    log(
        campaign,
        actor,
        OrganiserActionKind.OPTIONS,
        "Switched on a public link to The war."
        if on
        else "Switched off the public link to The war.",
        now=now,
    )
    return token


def _versions(campaign: Campaign):
    return list(
        StateVersion.objects.filter(campaign=campaign).defer("state", "orders").order_by("number")
    )


# --- the map of every phase --------------------------------------------------------------------


def war_layer(campaign: Campaign, number: int | None) -> dict | None:
    """The map widget's history document (docs/map-widget.md) of one version, all-seeing:
    every counter with its points (garrisons, siege trains), every force's move of the phase
    as an arrow (march, forced march, retreat), the battles of the turn, the sieges under way,
    and the supply sources (the garrisoned fortresses, 5). None when there is no map or state;
    a number that is no version gives the latest."""
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    versions = _versions(campaign)
    if hexmap is None or not versions:
        return None
    by_number = {v.number: v for v in versions}
    version = by_number.get(number if number is not None else -1, versions[-1])
    i = versions.index(version)
    before = versions[i - 1] if i > 0 else None
    grid = grid_of(hexmap)
    view = viewcache.umpire_view(version)
    how = {
        Phase.MARCH.value: "march",
        "forced-march": "forced march",
    }.get(version.resolved_phase, "retreat" if "retreat" in version.resolved_phase else "moved")
    moves = (
        overlay.every_move(viewcache.umpire_view(before), view, grid, how)
        if before is not None
        else []
    )
    battles = sorted(
        {
            str(e.data.get("hex"))
            for e in Event.objects.filter(version=version, kind="battle", public=True)
            if e.data.get("hex")
        }
    )
    label = f"Turn {version.turn}: " + (
        f"after the {version.resolved_phase} phase" if version.resolved_phase else "the start"
    )
    counters = _counters(view, hexmap, grid)
    return {
        "version": version.number,
        "turn": view.turn,
        "label": label,
        "prev": versions[i - 1].number if i > 0 else None,
        "next": versions[i + 1].number if i + 1 < len(versions) else None,
        "first": versions[0].number,
        "last": versions[-1].number,
        "locked": True,
        "counters": counters,
        "names": overlay.names_near(counters, hexmap, grid),
        "war": True,
        "colours": overlay.ARMY_COLOURS,
        "supply": overlay.supply_sources(view, hexmap, grid),
        "orders": [],
        "seen": moves,
        "battles": [{"hex": h, "xy": overlay.hex_xy(grid, h)} for h in battles],
        "sieges": overlay.sieges(view, hexmap, grid),
        # where to look: the battles of the phase, else its moves, else every force
        "focus": [overlay.hex_xy(grid, h) for h in battles]
        or [m["line"][-1] for m in moves]
        or [overlay.hex_xy(grid, f.hex) for f in view.forces],
    }


def _counters(view: View, hexmap, grid) -> list[dict]:
    """The umpire's counters, each with its points written under it (``pts``); without the
    reconnaissance reports, which say less than the counters themselves."""
    out = []
    for c in overlay.counters(view, hexmap, grid, {}):
        if c["kind"] == "report":
            continue
        found = re.search(r" (\d+)$", c["label"])
        out.append({**c, "pts": found.group(1) if found else ""})
    return out


# --- the orders and rolls of every phase -------------------------------------------------------


@dataclass
class PhaseRecord:
    """One resolved phase: what every seat ordered, what was refused and why, the rolls."""

    version: StateVersion
    sheets: list[tuple[str, list[str], bool]] = field(default_factory=list)  # seat, lines, behalf
    rejected: list[tuple[str, str]] = field(default_factory=list)  # text, rule
    rolls: list[dict] = field(default_factory=list)  # name, dice, total, fixed, ok


def phase_records(campaign: Campaign) -> list[PhaseRecord]:
    """Every resolved phase, oldest first. A window waits on version N and its resolution makes
    N+1: the sheets of the window on N are the orders of phase N+1; its ORDER_REJECTED events
    (and those of any automatic phase) are stored with the version they made."""
    every = _versions(campaign)
    versions = [v for v in every if v.number > 0]
    number_of = {v.id: v.number for v in every}  # (the versions' states are never read here)
    by_number = {number_of[w.version_id]: w for w in PhaseWindow.objects.filter(campaign=campaign)}
    sheets: dict[int, list[OrderSheet]] = {}
    for s in (
        OrderSheet.objects.filter(campaign=campaign).select_related("seat").order_by("seat__id")
    ):
        sheets.setdefault(s.window_id, []).append(s)
    rejected: dict[int, list[tuple[str, str]]] = {}
    for e in Event.objects.filter(campaign=campaign, kind="order-rejected").order_by("seq"):
        rejected.setdefault(e.version_id, []).append((e.text, e.rule))
    sides = gameplay.rule_settings(campaign).die_sides
    out = []
    for v in versions:
        record = PhaseRecord(v, rejected=rejected.get(v.id, []))
        window = by_number.get(v.number - 1)
        if window is not None and window.phase == v.resolved_phase:
            for s in sheets.get(window.id, []):
                record.sheets.append(
                    (s.seat.label, warseries.order_lines(s.draft), s.entered_by_organiser)
                )
        seed = campaign.seed_of_epoch(v.seed_epoch)
        for r in v.rolls or []:
            ok = None
            if seed is not None and not r.get("fixed"):
                checked, bad = check_rolls(seed, [r], sides)
                ok = bool(checked) and not bad
            record.rolls.append({**r, "ok": ok})
        out.append(record)
    return out


# --- the charts' figures -----------------------------------------------------------------------


@dataclass
class WarFigures:
    points: warseries.Chart
    vps: warseries.Chart
    losses: dict[str, warseries.Losses]
    timeline: tuple[warseries.Happening, ...]
    turns: int


def _turn_ends(versions: list[StateVersion]) -> list[StateVersion]:
    last: dict[int, StateVersion] = {}
    for v in versions:
        last[v.turn] = v
    return [last[t] for t in sorted(last)]


def figures(campaign: Campaign) -> WarFigures:
    """The charts' series, made once per latest version (kept in the cache like the views)."""
    versions = _versions(campaign)
    stamp = f"{versions[-1].id}.{versions[-1].created.timestamp():.6f}" if versions else "none"
    key = f"dgk:war:1:c{campaign.id}:{stamp}"
    found = cache.get(key)
    if found is not None:
        return found
    points, vps = [], []
    for v in _turn_ends(versions):
        view: View = viewcache.umpire_view(v)
        points.append((v.turn, {t.army.value: t.current for t in view.army_totals}))
        vps.append((v.turn, dict(view.victory_points)))
    # the final table of 12 (key cities and fortresses held at the end count then)
    final = (
        Event.objects.filter(campaign=campaign, kind="campaign-ends")
        .select_related("version")
        .order_by("-version__number")
        .first()
    )
    rows = ((final.data or {}).get("table") or {}).get("rows") if final is not None else None
    if rows:
        vps.append((final.version.turn, {str(r["seat"]): int(r["total"]) for r in rows}))
    control: dict[int, dict] = {}
    events = []
    for e in (
        Event.objects.filter(campaign=campaign, kind__in=sorted({*LOSS_KINDS, *TIMELINE_KINDS}))
        .select_related("version")
        .only(
            "kind", "rule", "text", "public", "armies", "data", "version__turn", "version__number"
        )
        .order_by("version__number", "seq")
    ):
        item = {"turn": e.version.turn, "kind": e.kind, "rule": e.rule, "data": e.data,
                "armies": e.armies, "public": e.public, "text": e.text}  # fmt: skip
        if e.kind in ("siege", "surrender") and e.data.get("city"):
            number = e.version.number - 1
            if number not in control:
                before = next((v for v in versions if v.number == number), None)
                control[number] = (
                    dict(viewcache.version_state(before).control) if before is not None else {}
                )
            item["holder"] = control[number].get(e.data["city"])
        events.append(item)
    seat_labels = {s.power: s.label for s in campaign.seats.filter(reserve=False)}
    result = WarFigures(
        points=warseries.points_by_turn(points, ARMY_LABELS),
        vps=warseries.vps_by_turn(vps, seat_labels),
        losses=warseries.losses_by_cause(events),
        timeline=warseries.timeline(events),
        turns=max((v.turn for v in versions), default=1),
    )
    cache.set(key, result, viewcache.TIMEOUT)
    return result


def charts(figures: WarFigures) -> dict[str, str]:
    """The four charts as SVG (*The war* and the book of the season draw the same)."""
    return {
        "points": warcharts.line_chart(figures.points, "Each army's points by turn", "ch-points"),
        "vps": warcharts.line_chart(
            figures.vps, "Victory points by player by turn", "ch-vps", unit="VPs"
        ),
        "losses": warcharts.losses_chart(figures.losses, ARMY_LABELS, "ch-losses"),
        "timeline": warcharts.timeline_chart(figures.timeline, figures.turns, "ch-timeline"),
    }


def loss_rows(figures: WarFigures) -> list[tuple[str, list[int], int]]:
    """The losses chart's table: each army, its losses by cause, its total; most lost first."""
    return [
        (ARMY_LABELS.get(x.army, x.army), [x.by_cause[c] for c in warseries.CAUSES], x.total)
        for x in sorted(figures.losses.values(), key=lambda x: (-x.total, x.army))
    ]
