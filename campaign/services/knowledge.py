"""What an audience knows of one state version: its ``View``, read from the database.

The projection (``campaign.projection``) decides the fog of war; this module only reads what it
needs from the database, so the player pages (``orders.access``) and the map pictures drawn by
the worker (``maps.pictures``) show one and the same view of a version for a seat.
"""

from __future__ import annotations

from django.db.models import Q, TextField
from django.db.models.functions import Cast

from campaign.models import Event, Seat, StateVersion
from campaign.projection import View, Viewer, project
from rules.events import EventKind
from rules.state import State, state_from_dict


def seat_viewer(seat: Seat) -> Viewer:
    """The seat as an audience: its armies, and its allies' secrets when the campaign shares
    them (``allies_share``)."""
    return Viewer.for_armies(
        seat.armies,
        allies_share=bool((seat.campaign.options or {}).get("allies_share", False)),
        label=seat.label,
    )


def _reports_for(seat: Seat, kind: EventKind) -> Q:
    """The events of ``kind`` that ``seat``'s view may keep, chosen in SQL: public ones and
    those addressed to one of its armies (the projection drops the others). With
    ``allies_share`` its allies' too, and who is an ally depends on the state (13.8): then
    every one is read and the projection chooses. Portable: the armies' JSON list is matched
    as text (``"prussia"`` with its quotes, so that ``"russia"`` never matches it)."""
    q = Q(kind=kind.value)
    if (seat.campaign.options or {}).get("allies_share", False):
        return q
    mine = Q(public=True)
    for army in seat.armies:
        mine |= Q(armies_text__contains=f'"{army}"')
    return q & mine


def seat_view(
    seat: Seat, version: StateVersion, *, turn: int | None = None, state: State | None = None
) -> View:
    """The seat's view of ``version``: its state, the events up to it (with the reports they
    carry) and this turn's dice. Three queries whatever the number of forces; ``state`` is the
    version's decoded state when the caller has it (``viewcache.version_state``).

    Pages read the events of this turn and the last (and every reconnaissance report, for the
    map); ``turn`` reads the events of that one turn instead (the handover page's earlier
    turns, one page each). An event is projected alone against the state, so the events of a
    turn read so are those of that turn in a view of the whole history."""
    events = Event.objects.annotate(armies_text=Cast("armies", TextField())).filter(
        campaign_id=version.campaign_id,
        version__campaign_id=version.campaign_id,  # the versions by (campaign, number)
        version__number__lte=version.number,
    )
    if turn is not None:
        events = events.filter(version__turn=turn)
    else:
        events = events.filter(
            Q(version__turn__gte=version.turn - 1) | _reports_for(seat, EventKind.RECONNAISSANCE)
        )
    events = (
        events.select_related("version")
        .only("rule", "kind", "text", "public", "armies", "data", "version__turn")
        .order_by("version__number", "seq")
    )
    rolls = []
    for v in (
        StateVersion.objects.filter(
            campaign_id=version.campaign_id, turn=version.turn, number__lte=version.number
        )
        .only("rolls")
        .order_by("number")
    ):  # (in the order made, on every database)
        rolls.extend(v.rolls or [])
    state = state if state is not None else state_from_dict(version.state)
    return project(state, seat_viewer(seat), events=events, rolls=rolls)


def umpire_view(version: StateVersion, *, state: State | None = None) -> View:
    """Everything, for the non-playing umpire: every force with its points, every garrison and
    siege train, every event and roll of this turn and the last."""
    events = (
        Event.objects.filter(
            campaign_id=version.campaign_id,
            version__campaign_id=version.campaign_id,
            version__number__lte=version.number,
            version__turn__gte=version.turn - 1,
        )
        .select_related("version")
        .only("rule", "kind", "text", "public", "armies", "data", "version__turn")
        .order_by("version__number", "seq")
    )
    state = state if state is not None else state_from_dict(version.state)
    return project(
        state, Viewer.umpire_view(), events=events,
        rolls=version.rolls or [],
    )  # fmt: skip
