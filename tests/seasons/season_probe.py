"""What a season looks like from the inside, to compare two databases holding it
(tests/seasons/test_season_round_trip.py): its rows as the season file writes them, every page of
every seat and of the organiser as a browser reads them, and the next phase played by the
automatic players and resolved.

Run as a script in another process, on another database (``DATABASE_URL``), it imports a season
file there first:

    python -m tests.seasons.season_probe FILE --people PEOPLE.json --out OUT.json [--export FILE2]

and writes ``{"season": ..., "pages": ..., "next": ...}`` to OUT.json (``--export``: the
imported campaign's own season file, written before its pages are read and its next phase
played, for the way back).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

# Run as a script: Django is set up before anything imports a model.
if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
    import django

    django.setup()

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse

from battles.services import records as battle_service
from battles.services import results as battle_results
from campaign.models import Campaign, StateVersion, organisers_group
from campaign.services import viewcache
from campaign.services.caretaker import own_orders
from campaign.services.resolution import resolve_due_phase
from maps.core.loader import load_map
from orders.models import OrderSheet
from seasons.services import seasonfile
from seasons.services.autoseason import automatic_orders

# What differs from one rendering to the next and says nothing of the season.
_NOISE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken"'),
    (re.compile(r'"X-CSRFToken": ?"[^"]*"'), '"X-CSRFToken"'),
    (re.compile(r'nonce="[^"]*"'), 'nonce=""'),
    # A map picture's address carries its version's row id (a cache key): ids are the site's.
    (re.compile(r"\.png\?v=\d+"), ".png?v=ID"),
    # The letters form names the addressees by their seats' row ids.
    (re.compile(r'name="to" value="\d+"'), 'name="to" value="ID"'),
]


def season(campaign: Campaign) -> dict:
    """Every row of the campaign, as the season file writes them."""
    body = seasonfile.season_body(campaign, with_secrets=True)
    body.pop("exported_at")
    return body


def page_addresses(campaign: Campaign) -> dict[str, list[str]]:
    """username -> the addresses that person reads: every page of every seat, and the
    organiser's (the umpire's view of everything)."""
    latest = campaign.latest_version().number
    middle = latest // 2
    out = {}
    for seat in campaign.seats.select_related("user").order_by("id"):
        if seat.user is None:
            continue
        c = seat.code
        out[seat.user.username] = [
            reverse("orders:dashboard", args=[c]),
            reverse("orders:orders", args=[c]),
            reverse("orders:report", args=[c]),
            reverse("orders:report_version", args=[c, middle]),
            reverse("orders:history", args=[c]),
            reverse("orders:handover", args=[c]),
            reverse("orders:view_json", args=[c, latest]),
            reverse("orders:view_json", args=[c, middle]),
            reverse("orders:map_overlay", args=[c]),
            reverse("orders:map_history", args=[c]),
            reverse("letters", args=[c]),
            reverse("seat_settings", args=[c]),
            reverse("action_log", args=[campaign.code]),
            reverse("campaign_dice", args=[campaign.code]),
            reverse("battles:chronicle", args=[campaign.code]),
        ]
    k = campaign.code
    out[campaign.organiser.username] = [
        reverse("organiser_board", args=[k]),
        reverse("orders:umpire", args=[k]),
        reverse("orders:umpire_overlay", args=[k]),
        reverse("all_letters", args=[k]),
        reverse("action_log", args=[k]),
        reverse("campaign_dice", args=[k]),
        reverse("battles:chronicle", args=[k]),
        reverse("battles:gazette", args=[k]),
    ]
    return out


def pages(campaign: Campaign) -> dict[str, str]:
    """ "username address" -> the page's status and text, tokens taken out."""
    users = get_user_model().objects
    out = {}
    cache.clear()
    viewcache.forget()
    for username, addresses in page_addresses(campaign).items():
        client = Client()
        client.force_login(users.get(username=username))
        for address in addresses:
            r = client.get(address)
            text = r.content.decode()
            for pattern, replacement in _NOISE:
                text = pattern.sub(replacement, text)
            out[f"{username} {address}"] = f"{r.status_code}\n{text}"
    return out


def next_phase(campaign: Campaign, *, most: int = 4) -> list[dict]:
    """The open windows resolve one by one (``play_window``) until one makes dice rolls (a
    march alone rolls none): what each made."""
    made = []
    for _ in range(most):
        made.append(play_window(campaign))
        if any(v["rolls"] for v in made[-1]["versions"]):
            break
    return made


def play_window(campaign: Campaign) -> dict:
    """The automatic players give their orders for the open window and it resolves (with any
    battle it makes, by the quick resolution): the versions it made, with their rolls."""
    window = campaign.open_window()
    state = viewcache.version_state(StateVersion.objects.get(id=window.version_id))
    hexmap = load_map()
    orders = automatic_orders(window.phase, state, hexmap)
    at = window.deadline or window.opened_at
    for seat in campaign.seats.filter(reserve=False):
        if window.owes(seat) and not seat.is_absent(at):
            OrderSheet.objects.update_or_create(
                window=window,
                seat=seat,
                defaults={
                    "campaign": campaign,
                    "draft": own_orders(orders, set(seat.armies)),
                    "ready": True,
                    "submitted_at": at,
                },
            )
    before = campaign.latest_version().number
    resolve_due_phase(window.id, now=at)
    battle_service.sync(campaign)
    for b in campaign.battles.filter(status="pending"):
        battle_results.quick_resolve(b, campaign.organiser, attacker=None, now=at)
    made = []
    for v in campaign.versions.filter(number__gt=before).order_by("number"):
        made.append(
            {
                "number": v.number,
                "phase": v.phase,
                "resolved_phase": v.resolved_phase,
                "state": v.state,
                "rolls": v.rolls,
                "events": list(v.events.order_by("seq").values("seq", "kind", "text", "data")),
            }
        )
    return {"phase": window.phase, "turn": window.turn, "versions": made}


def make_people(people: list[dict]) -> None:
    """The accounts of the first site, on this one (matched by email on import)."""
    for p in people:
        user = get_user_model().objects.create_user(p["username"], p["email"], "pw")
        if p.get("organiser"):
            user.groups.add(organisers_group())


def people_of(campaign: Campaign) -> list[dict]:
    people = [
        {"username": s.user.username, "email": s.user.email}
        for s in campaign.seats.select_related("user")
        if s.user is not None
    ]
    o = campaign.organiser
    return [*people, {"username": o.username, "email": o.email, "organiser": True}]


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--people", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--export")
    args = parser.parse_args(argv)
    setup_test_environment()  # the test client's host, emails kept in memory
    call_command("migrate", verbosity=0)
    make_people(json.loads(Path(args.people).read_text()))
    body = seasonfile.read(Path(args.file))
    call_command("importcampaign", args.file, "--yes", verbosity=0)
    campaign = Campaign.objects.get(code=body["campaign"]["code"])
    found = {"season": season(campaign)}
    if args.export:  # before the pages: reading the orders page makes a sheet for the window
        call_command("exportcampaign", str(campaign.code), "-o", args.export, "--with-secrets")
    found["pages"] = pages(campaign)
    found["next"] = next_phase(campaign)
    Path(args.out).write_text(json.dumps(found))


if __name__ == "__main__":
    main(sys.argv[1:])
