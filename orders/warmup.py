"""The seats' pages of a new state version, prepared by the worker when a phase resolves.

The worker that resolved the phase knows the new version first. For every playing seat it makes
the seat's view (``viewcache.seat_view``; the version's events and dice read once for all of
them, ``knowledge.VersionNews``, each view given only the rows its own seat's query reads),
what the map widget draws from that view alone
(``layers.seen_layer``) and, for a seat with a player, the map block its pages embed for its
draft as it is (``layers.warm_inline``: blank after a resolution), the dashboard's kept parts
(``orders.dashboard``) and its "since you last looked" from the seat's last visit
(``orders.services.catchup.kept_catch_up``: the versions made since the last warm-up, their
events, the battles and the organiser's acts read once for all the seats,
``catchup.Shared``; each seat's list extended from the one kept at the last warm-up,
``catchup.Told``, by what its own armies may know); once, the battles' records the new state
waits for (``battles.services.records.sync``) and its alliances (``viewcache.alliances``). All
are left in Django's cache, which the web processes share (Redis in production), so the first
player to open a page after the resolution finds them made. Each value is kept under its own
seat's key (the seat, its armies, whether allies share, the version's own row): a seat's view
is made from that seat alone, as a page would make it, and no seat is served another's.

Queued by name on the resolution's commit (``campaign.services.queue.WARM_SEAT_PAGES``); with
no broker it runs in the resolving process after the commit. A version that is no longer the
latest when the task runs is left alone.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from battles.services import records
from campaign.models import StateVersion
from campaign.services import knowledge, viewcache
from orders import dashboard
from orders.access import _hexmap, _window
from orders.layers import seen_layer, warm_inline
from orders.models import OrderSheet
from orders.pages import ORDER_PHASES
from orders.services import catchup


def warm_pages(version_id: int) -> int:
    """Make and keep each playing seat's view of the version and its map layer; how many
    seats were prepared (0 when the version is gone or no longer the latest)."""
    later = StateVersion.objects.filter(
        campaign_id=OuterRef("campaign_id"), number__gt=OuterRef("number")
    )
    version = (
        StateVersion.objects.defer("state", "orders")
        .select_related("campaign")
        .filter(id=version_id)
        .exclude(Exists(later))  # the latest: no later version of its campaign
        .first()
    )
    if version is None:
        return 0
    campaign = version.campaign
    # The battles it waits for, and their records (the dashboard's and battle pages' sync).
    records.sync(campaign, version)
    viewcache.alliances(version)  # the seats' "since you last looked" (orders.services.catchup)
    window = _window(campaign)
    hexmap = _hexmap(campaign)
    news = knowledge.VersionNews(version)  # the rows every seat's view reads, read once
    told = catchup.Shared(campaign.id, every_seat=True)  # those every seat's catch-up reads
    sheets = {}  # and the open window's sheets, for the map blocks
    if window is not None and hexmap is not None:
        sheets = {s.seat_id: s for s in OrderSheet.objects.filter(window=window)}
    done = 0
    for seat in campaign.seats.select_related("visit"):
        if not seat.armies or seat.reserve:
            continue
        seat.campaign = campaign
        _warm_seat(seat, version, news, told, window, hexmap, sheets)
        done += 1
    return done


def _warm_seat(seat, version, news, told, window, hexmap, sheets) -> None:
    """One seat's view, dashboard parts, "since you last looked" and map layer and block.

    Left in Django's cache for the processes that serve the pages, and kept here only until
    this seat is done (``viewcache.made_for_others``): a worker serves none of them (a web
    process with no broker, that runs this itself, reads them from its cache once)."""
    with viewcache.made_for_others():
        view = viewcache.seat_view(seat, version, news=news)
        dashboard.draw_parts(seat, version, view)
        if seat.user_id is not None:  # "since you last looked", from the seat's last visit
            since = catchup.last_visit(seat)
            catchup.kept_catch_up(seat, since, latest=version, window=window, shared=told)
        if hexmap is not None:
            # The phase the seat's pages show: the open window's, if it waits for this seat.
            owed = window is not None and window.owes(seat) and window.phase in ORDER_PHASES
            seen_layer(seat, version, view, hexmap, window.phase if owed else "")
            if seat.user_id is not None:  # the block its pages embed, for its player
                warm_inline(seat, version, view, hexmap, window, sheets=sheets)
