"""Who may open a seat's pages, and what they show: the access checks and the loading shared by
the player's pages (``orders.views``, ``orders.deploy_views``, ``orders.widget_views``,
``orders.picture_views``).

URLs carry the seat's public ``code``. Who may open them (``_access``):
- the seat's own player: everything, and may write orders while the phase is open;
- the campaign's organiser when a non-playing umpire: every seat's pages, read-only;
- the campaign's organiser entering a seat's orders on its player's behalf (orders sent by
  email or on paper; begun from the status board, kept in the session): that seat's pages,
  writing as the player would; every sheet so saved is marked and logged as such;
- anyone else (another seat, an ally, an outsider): 403; anonymous visitors go to the login.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import PermissionDenied
from django.db.models import FilteredRelation, Q
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from campaign.models import Campaign, PhaseWindow, Seat, StateVersion, WindowStatus
from campaign.projection import View
from campaign.services import gameplay, viewcache
from campaign.services.organiser import BEHALF_SESSION_KEY, behalf_open, not_yours
from dgk.prepared import Prepared, example_id
from orders.models import OrderSheet
from rules.armies import Army
from rules.rulesettings import RuleSettings, settings_from_dict
from rules.state import State

UNREAD = object()  # (``SeatContext.found_sheet``: the sheet was not read with the window)


@dataclass
class Access:
    seat: Seat
    campaign: Campaign
    own: bool  # may write: the seat's own player, or the organiser on the player's behalf
    views: dict = field(default_factory=dict)  # the views made in this request
    behalf: bool = False  # the organiser entering the orders on the player's behalf
    user: object = None


@dataclass(frozen=True)
class SeatContext:
    """What one request of a seat's page reads, read once and handed down to the sheets, the
    checks and the pages: who asks (``access``: the seat, its campaign, whether it may write),
    the latest state version and the open window (read when the request begins), and, when
    first asked, the seat's view of the version, its decoded state, the map and the rule
    settings. Nothing here is read a second time in the request, and nothing here changes:
    the draft, which does, is the sheet's (passed beside it)."""

    access: Access
    version: StateVersion | None
    window: PhaseWindow | None
    # The seat's sheet of the window when it was read with it (``seat_context(sheet=True)``):
    # the sheet, or None when it has none yet; UNREAD otherwise (``_sheet`` reads it).
    found_sheet: object = UNREAD
    seat: Seat = field(init=False)  # the access's, at hand
    campaign: Campaign = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", self.access.seat)
        object.__setattr__(self, "campaign", self.access.campaign)

    @cached_property
    def view(self) -> View | None:
        """The seat's view of the version (None before the campaign starts)."""
        return _view(self.access, self.version) if self.version is not None else None

    @cached_property
    def state(self) -> State:
        """The engine's state of the version, decoded once per process (``viewcache``)."""
        return viewcache.version_state(self.version)

    @cached_property
    def hexmap(self):
        return _hexmap(self.campaign)

    @cached_property
    def settings(self) -> RuleSettings:
        return _settings(self.campaign)


def seat_context(
    request: HttpRequest, code, *, write: bool = False, sheet: bool = False
) -> SeatContext:
    """``_access`` (403 unless the seat may be opened, or written with ``write``), then the
    latest version and the open window: the request's ``SeatContext``. With ``sheet`` (a page
    that shows the seat's sheet and does not write it), the seat's sheet of the window is read
    with the window, in the same query."""
    access = _access(request, code, write=write)
    window = _window(access.campaign, with_version=True, sheet_of=access.seat if sheet else None)
    # An open window is of the latest version: the resolution opens it from the version it
    # made, and a roll back deletes the versions after the window it opens again. Read with
    # it (one query), the version is read alone only when no window is open.
    version = window.version if window is not None else _version(access.campaign)
    # (Django sets no ``seat_sheet`` when the join found none.)
    found = getattr(window, "seat_sheet", None) if sheet and window is not None else UNREAD
    return SeatContext(access, version, window, found)


def context_of(access: Access, version: StateVersion | None) -> SeatContext:
    """The ``SeatContext`` of ``access`` for ``version`` (an earlier one for a report of it;
    None before the campaign starts), with the window open now."""
    return SeatContext(access, version, _window(access.campaign))


def on_behalf(request: HttpRequest, seat: Seat) -> bool:
    """Whether the signed-in organiser is entering this seat's orders on its player's behalf:
    begun from the board (kept in the session) for the phase open now, not yet submitted."""
    return (
        seat.campaign.organiser_id == request.user.id
        and str(seat.code) in request.session.get(BEHALF_SESSION_KEY, [])
        and behalf_open(seat)
    )


# With the seat's last visit, for the dashboard's "Since you last looked" (one join); compiled
# once (``dgk.prepared``): every page of every seat runs it.
_SEAT = Prepared(
    lambda code: Seat.objects.select_related("campaign", "visit").filter(code=code)[:1],
    uuid.uuid4(),
)


def _access(request: HttpRequest, code, *, write: bool = False) -> Access:
    found = _SEAT(code)
    if not found:
        raise Http404("No Seat matches the given query.")
    seat = found[0]
    campaign = seat.campaign
    if seat.user_id is not None and seat.user_id == request.user.id:
        return Access(seat, campaign, own=True, user=request.user)
    if on_behalf(request, seat):
        return Access(seat, campaign, own=True, behalf=True, user=request.user)
    if campaign.organiser_id == request.user.id and campaign.umpire_sees_all and not write:
        return Access(seat, campaign, own=False)
    raise PermissionDenied(not_yours(seat, request.user))


def _umpire_access(request: HttpRequest, code) -> Access:
    """Only a non-playing organiser is the umpire, who sees everything."""
    campaign = get_object_or_404(Campaign, code=code)
    if campaign.organiser_id != request.user.id or not campaign.umpire_sees_all:
        raise PermissionDenied("Only the campaign's non-playing umpire sees everything.")
    seat = Seat(campaign=campaign, label="umpire", armies=[a.value for a in Army])
    return Access(seat, campaign, own=False)


# --- loading what a page shows ----------------------------------------------------------------


def _version(campaign: Campaign, number: int | None = None) -> StateVersion | None:
    """The version (its JSON state deferred: pages read it decoded, from
    ``viewcache.version_state``, or not at all when the seat's view is cached)."""
    versions = StateVersion.objects.filter(campaign=campaign).defer("state", "orders")
    if number is None:
        return versions.order_by("-number").first()
    return versions.filter(number=number).first()


def _view(access: Access, version: StateVersion, *, turn: int | None = None) -> View:
    """The seat's view of ``version`` (``knowledge.seat_view``; with ``turn``, the events of
    that turn alone), made once per (version, seat) and kept in the cache (``viewcache``);
    read once per request."""
    key = (version.number, turn)
    if key not in access.views:
        access.views[key] = viewcache.seat_view(access.seat, version, turn=turn)
    return access.views[key]


def _umpire_view(access: Access, version: StateVersion) -> View:
    return viewcache.umpire_view(version)


def _settings(campaign: Campaign) -> RuleSettings:
    return settings_from_dict(campaign.rule_settings, stored=True)


def _hexmap(campaign: Campaign):
    return gameplay.load_campaign_map(campaign.map_name)


def _window(
    campaign: Campaign, *, with_version: bool = False, sheet_of: Seat | None = None
) -> PhaseWindow | None:
    """The campaign's open window; ``with_version``: its version read with it (its JSON state
    deferred, as ``_version`` reads it); ``sheet_of``: that seat's sheet of the window read
    with it too, as ``window.seat_sheet`` (absent when it has none)."""
    ids = (campaign.id,) if sheet_of is None else (campaign.id, sheet_of.id)
    found = _WINDOWS[with_version, sheet_of is not None](*ids)
    return found[0] if found else None


def _windows(with_version: bool, with_sheet: bool):
    """The query of ``_window``'s shape: (campaign id[, seat id]) -> the open window."""

    def build(campaign_id: int, seat_id: int | None = None):
        windows = PhaseWindow.objects.filter(campaign_id=campaign_id, status=WindowStatus.OPEN)
        if with_version:
            windows = windows.select_related("version").defer("version__state", "version__orders")
        if with_sheet:
            mine = FilteredRelation("order_sheets", condition=Q(order_sheets__seat_id=seat_id))
            windows = windows.annotate(seat_sheet=mine).select_related("seat_sheet")
        return windows.order_by("-id")[:1]

    return build


# Each shape compiled once (``dgk.prepared``): the pages of every seat run them.
_WINDOWS = {
    (version, sheet): Prepared(_windows(version, sheet), *[example_id() for _ in range(1 + sheet)])
    for version in (False, True)
    for sheet in (False, True)
}


def _sheet(
    access: Access, window: PhaseWindow | None, *, make: bool = True, found: object = UNREAD
) -> OrderSheet | None:
    """The seat's sheet of the window, None when the window does not wait for the seat. For its
    own player (or the organiser on the player's behalf) there always is one: made if need be,
    or, with ``make=False`` (a page that only shows it, as the dashboard), a blank one not
    saved, which shows as the one made would (the pages that write make it). ``found``: the
    sheet (or None) when it was read already (``SeatContext.found_sheet``)."""
    if window is None or not window.owes(access.seat):
        return None
    if found is not UNREAD and (found is not None or not access.own):
        return found  # type: ignore[return-value]
    if not access.own:
        return OrderSheet.objects.filter(window=window, seat=access.seat).first()
    if not make:
        if found is UNREAD:
            found = OrderSheet.objects.filter(window=window, seat=access.seat).first()
        return found or OrderSheet(campaign=access.campaign, window=window, seat=access.seat)
    sheet, _ = OrderSheet.objects.get_or_create(
        window=window, seat=access.seat, defaults={"campaign": access.campaign}
    )
    return sheet


def version_cache_headers(request: HttpRequest, version, stamp: str) -> dict[str, str]:
    """Cache headers for a document drawn from one state version. A roll back deletes version
    N and a later resolution makes a new one with the same number, so the ETag holds the
    version's own id, and only a URL that names that id (``?v=<id>``) is cached as immutable;
    any other is revalidated."""
    etag = '"' + hashlib.sha256(f"{version.id}:{stamp}".encode()).hexdigest()[:32] + '"'
    fixed = request.GET.get("v") == str(version.id)
    cache = "private, max-age=31536000, immutable" if fixed else "private, no-cache"
    return {"ETag": etag, "Cache-Control": cache}
