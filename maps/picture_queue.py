"""Asking for map pictures: pages and the resolution service ask, the worker draws
(``maps.pictures``, docs/map-pictures.md).

With a broker, the task goes to the worker when the transaction commits, once per picture in
ten minutes (a cache key) however many pages ask. Without one, tasks run eagerly in the process
that queues them, so a note is left instead for ``draw_wanted_map_pictures``, which
``manage.py runperiodic`` runs in its own process. Either way no web request draws a picture.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from campaign.models import Campaign, Seat, StateVersion
from campaign.services import queue
from campaign.services.gameplay import load_campaign_map
from maps.pictures import mark_wanted, picture_key, picture_stored

QUEUED_FOR = 600  # seconds a queued picture is not queued again


def ask_for_picture(version: StateVersion, seat: Seat | None) -> None:
    """Have the worker draw the picture of ``version`` for ``seat`` (None: the umpire) unless
    it is stored already."""
    if picture_stored(version, seat):
        return
    version_id, seat_id = version.id, seat.id if seat is not None else None
    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: mark_wanted(version_id, seat_id), robust=True)
        return
    key = (
        "maps:picture-queued:"
        + hashlib.sha256(picture_key(version, seat).encode()).hexdigest()[:32]
    )
    if cache.add(key, 1, timeout=QUEUED_FOR):
        # Robust: with the broker down the page still answers; the next ask after the cache
        # key expires queues it again.
        queue.on_commit(queue.DRAW_MAP_PICTURE, version_id, seat_id, robust=True)


def queue_pictures(
    campaign: Campaign, *, latest: StateVersion | None = None, seats: list[Seat] | None = None
) -> None:
    """After a phase resolves (or the campaign starts): every playing seat's picture of the
    latest version, and the umpire's when the organiser does not play. ``latest`` and
    ``seats`` (every seat of the campaign) when the caller has read them."""
    # Its row id and its campaign are all a picture's path needs: not its JSON.
    version = latest or campaign.versions.defer("state", "orders").order_by("-number").first()
    if version is None or load_campaign_map(campaign.map_name) is None:
        return
    version.campaign = campaign
    seats = list(campaign.seats.all()) if seats is None else seats
    for seat in seats:
        if seat.armies and not seat.reserve:
            seat.campaign = campaign
            ask_for_picture(version, seat)
    if campaign.umpire_sees_all_among(seats):
        ask_for_picture(version, None)


def on_version_stored(sender, *, campaign: Campaign, latest, seats, **kwargs) -> None:
    """``campaign.signals.version_stored``: the seats' pictures of the new version."""
    queue_pictures(campaign, latest=latest, seats=seats)
