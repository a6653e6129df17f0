"""The site as the fault tests drive it (``tests/integration/test_faults.py``): each command
runs in a process of its own, with the environment the test gives it (a throw-away PostgreSQL
and Redis), as a web process would, and prints JSON.

    python -m tests.integration.fault_site seed MAP_DIR [--deployed]
    python -m tests.integration.fault_site deploy-drafts   every seat's deployment, not ready
    python -m tests.integration.fault_site march-draft     Prussia's march order, not ready
    python -m tests.integration.fault_site ready all|but-prussia   seats press Ready (the view)
    python -m tests.integration.fault_site expire          the open window's deadline is past
    python -m tests.integration.fault_site state           windows, versions, drafts, outbox
    python -m tests.integration.fault_site healthz         /healthz with its details
"""

from __future__ import annotations

import json
import os
import sys
from datetime import timedelta
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from campaign.models import Campaign, OutboxEmail, PhaseWindow, StateVersion  # noqa: E402
from campaign.services import setup  # noqa: E402
from campaign.services.resolution import resolve_due_phase  # noqa: E402
from mail.services import email  # noqa: E402
from orders.models import OrderSheet  # noqa: E402
from rules.armies import Army  # noqa: E402
from tests.orders.test_play_fixtures import ARMY_POINTS, deploy_seat, write_map  # noqa: E402

NAME = "Faults 1757"
MARCH = {"unit": "frederick", "path": "4", "marches": "1", "meeting": "hold"}


def _campaign() -> Campaign:
    return Campaign.objects.get(name=NAME)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seed(map_dir: str, deployed: bool = False) -> dict:
    """Migrate, then a five-seat campaign (the players' fixture of the web tests); with
    ``deployed``, everyone deployed and the deployment resolved here (eagerly: run with no
    broker), so the march of turn 1 is open."""
    call_command("migrate", verbosity=0)
    users = get_user_model()
    organiser = users.objects.create_user("organiser", "organiser@example.org", "pw-organiser")
    now = timezone.now()
    one = dict.fromkeys((a.value for a in Army), 1)
    campaign = setup.create_campaign(
        organiser,
        name=NAME,
        players=5,
        now=now,
        army_points=dict(ARMY_POINTS),
        rule_settings={
            "leaders": one,
            "siege_trains": {**dict.fromkeys((a.value for a in Army), 0), "prussia": 1},
        },
        map_name=write_map(Path(map_dir)),
    )
    for seat in campaign.seats.all():
        seat.user = users.objects.create_user(
            f"p-{seat.power}", f"{seat.power}@example.org", f"pw-{seat.power}"
        )
        seat.save()
    setup.start_campaign(campaign, organiser, now=now)
    if deployed:
        deploy_drafts()
        OrderSheet.objects.update(ready=True)
        window = campaign.open_window()
        resolve_due_phase(window.id, now=timezone.now())
    return state()


def deploy_drafts() -> dict:
    for seat in _campaign().seats.filter(reserve=False):
        deploy_seat(seat, _client(seat.user))
    return state()


def march_draft() -> dict:
    prussia = _campaign().seats.get(power="prussia")
    client = _client(prussia.user)
    response = client.post(
        reverse("orders:save_march", args=[prussia.code]), {**MARCH, "phase": "march"}
    )
    assert response.status_code == 302, response.content.decode()[:1000]
    return state()


def ready(which: str) -> dict:
    """``all`` the playing seats press Ready, or all ``but-prussia``."""
    campaign = _campaign()
    window = campaign.open_window()
    answers = {}
    seats = campaign.seats.filter(reserve=False).order_by("id")
    if which == "but-prussia":
        seats = seats.exclude(power="prussia")
    for seat in seats:
        power = seat.power
        client = _client(seat.user)
        response = client.post(
            reverse("orders:ready", args=[seat.code]), {"phase": window.phase}, follow=True
        )
        page = response.content.decode()
        answers[power] = {
            "status": response.status_code,
            "broker_down": "background worker cannot be reached" in page,
        }
    return {"ready": answers, **state()}


def expire() -> dict:
    window = _campaign().open_window()
    PhaseWindow.objects.filter(id=window.id).update(deadline=timezone.now() - timedelta(minutes=1))
    return state()


def state() -> dict:
    campaign = _campaign()
    windows = list(campaign.windows.order_by("id").values("id", "turn", "phase", "status"))
    versions = list(
        StateVersion.objects.filter(campaign=campaign)
        .order_by("number")
        .values_list("number", "turn", "resolved_phase")
    )
    drafts = {
        f"{sheet.window_id}:{sheet.seat.power}": {"draft": sheet.draft, "ready": sheet.ready}
        for sheet in OrderSheet.objects.filter(campaign=campaign).select_related("seat")
    }
    outbox = []
    for row in OutboxEmail.objects.order_by("id"):
        built = email.build(row.kind, **row.ids)
        outbox.append(
            {
                "batch": row.batch,
                "kind": row.kind,
                "to": built[0] if built else [],
                "sent": row.sent_at is not None,
            }
        )
    seats = {s.power: s.missed_in_a_row for s in campaign.seats.all()}
    open_window = campaign.open_window()
    return {
        "windows": windows,
        "open": open_window.id if open_window else None,
        "versions": versions,
        "drafts": drafts,
        "outbox": outbox,
        "missed": seats,
    }


def healthz() -> dict:
    client = Client(HTTP_AUTHORIZATION=f"Bearer {os.environ['HEALTHZ_TOKEN']}")
    response = client.get("/healthz")
    return {"http": response.status_code, **response.json()}


COMMANDS = {
    "seed": lambda *a: seed(a[0], deployed="--deployed" in a),
    "deploy-drafts": lambda *a: deploy_drafts(),
    "march-draft": lambda *a: march_draft(),
    "ready": lambda *a: ready(a[0]),
    "expire": lambda *a: expire(),
    "state": lambda *a: state(),
    "healthz": lambda *a: healthz(),
}

if __name__ == "__main__":
    print(json.dumps(COMMANDS[sys.argv[1]](*sys.argv[2:]), default=str))
