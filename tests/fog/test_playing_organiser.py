"""The organiser who plays a seat (``umpire_plays``) is a player like the others: his organiser's
pages must tell him no other seat's secret. Found by a secrecy review, the fog tests having
observed only plain players:

- "Resolve now" named the seats that had saved orders without pressing Ready ("The Austrian
  player saved orders but did not press Ready..."): an enemy's draft, there or not, and the
  moment to throw it away;
- the local outbox showed him "his own" emails by a substring of the To header, so the emails
  of a player whose address holds his (myorganiser@ holds organiser@) were his to read: that
  player's report and letters.

A, the Prussian seat, is the organiser's; B, the Austrian, holds the secret; C is B's ally.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign
from letters.services import press
from mail.services.outbox import addressed_to
from orders.models import OrderSheet
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.orders.test_play_fixtures import client_for, in_phase

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene(organiser, django_capture_on_commit_callbacks) -> scenarios.Scene:
    """The 3-player campaign of the form at its march phase, the organiser seated as A."""
    scene = scenarios.march_phase(organiser, django_capture_on_commit_callbacks)
    scene.a.user = organiser
    scene.a.save(update_fields=["user"])
    Campaign.objects.filter(id=scene.campaign.id).update(umpire_plays=True)
    scene.campaign.refresh_from_db()
    assert not scene.campaign.umpire_sees_all
    return scene


def _save_march(seat, unit: str, path: str) -> None:
    r = client_for(seat.user).post(
        reverse("orders:save_march", args=[seat.code]),
        in_phase(seat, {"unit": unit, "path": path, "marches": 1, "meeting": "hold"}),
    )
    assert r.status_code in (200, 302), r.content.decode()[:500]


def _first_leader(seat) -> str:
    return seat.leaders[seat.armies[0]][0]


def test_an_enemys_unsent_draft_is_not_named_to_the_organiser_who_plays(scene):
    observe = SeatObserver(scene.campaign, scene.a.power)
    observe.pictures = False  # (the drafts are not on the map: no picture to compare)
    resolve_page = reverse("resolve_now", args=[scene.campaign.code])

    def world(which: str) -> None:
        if which == "two":  # B saves a march and does not press Ready
            _save_march(scene.b, _first_leader(scene.b), "4")

    one, two = two_worlds(world, observe)
    assert any(resolve_page in name for name in one), "the crawl reaches Resolve now"
    assert_same(one, two, label="B's unsent draft × 3p, organiser plays A × march")
    page = client_for(scene.a.user).get(resolve_page).content.decode()
    assert "whose are saved is not shown to you" in page

    def a_world(which: str) -> None:  # control: A's own march saved or not
        if which == "two":
            _save_march(scene.a, _first_leader(scene.a), "4")

    one, two = two_worlds(a_world, observe)
    assert_differs(one, two, label="control: A's draft × 3p, organiser plays A × march")


def test_the_outbox_shows_the_organiser_who_plays_only_the_emails_to_his_own_address(
    scene, settings, tmp_path, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    organiser = scene.a.user
    scene.c.user.email = "my" + organiser.email  # C's address holds the organiser's
    scene.c.user.save(update_fields=["email"])
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    outbox = reverse("campaign_outbox", args=[scene.campaign.code])
    worlds = iter(("mail-one", "mail-two", "mail-three", "mail-four"))

    def world(which: str, *, writer) -> None:
        folder = tmp_path / next(worlds)
        folder.mkdir()
        settings.EMAIL_FILE_PATH = str(folder)
        body = "We march on Dresden." if which == "one" else "Hold the Elbe at all costs."
        with capture(execute=True):
            press.send(writer, [scene.c.id] if writer == scene.b else [scene.a.id], body,
                       now=timezone.now())  # fmt: skip
        window, now = scene.campaign.open_window(), timezone.now()
        for seat in (scene.b, scene.c):
            OrderSheet.objects.update_or_create(
                campaign=scene.campaign, seat=seat, window=window,
                defaults={"draft": {}, "ready": True, "submitted_at": now},
            )  # fmt: skip
        with capture(execute=True):
            r = client_for(organiser).post(
                reverse("orders:ready", args=[scene.a.code]), in_phase(scene.a)
            )
        assert r.status_code == 302

    def observe() -> dict[str, bytes]:
        r = client_for(organiser).get(outbox)
        assert r.status_code == 200
        return {"GET outbox": r.content}

    one, two = two_worlds(lambda which: world(which, writer=scene.b), observe)
    assert_same(one, two, label="B's letter to C × 3p, organiser plays A × his outbox")
    # control: a letter to A himself is in an email to his own address
    one, two = two_worlds(lambda which: world(which, writer=scene.c), observe)
    assert_differs(one, two, label="control: C's letter to A × 3p × A's outbox")


def test_an_address_is_matched_whole():
    assert addressed_to("Prussian player <organiser@example.org>", "Organiser@example.org")
    assert addressed_to("a@example.org, organiser@example.org", "organiser@example.org")
    assert not addressed_to("myorganiser@example.org", "organiser@example.org")
    assert not addressed_to("organiser@example.org.evil", "organiser@example.org")
    assert not addressed_to("organiser@example.org", "")
