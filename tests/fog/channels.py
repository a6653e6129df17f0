"""Every channel through which one seat's player learns anything, collected as bytes for the
noninterference harness (``tests.fog.harness.two_worlds``'s ``observe``).

``SeatObserver(campaign, power)`` is made before the worlds (in the database state both share):
it gives the player a push device and a calendar address, the campaign a club channel (a
webhook that is never called: the tasks run eagerly), and visits the dashboard once (so its
"Since you last looked" has a last visit to count from). Called in a world, it collects:

- ``GET <url>`` (and ``HX <url>`` for the htmx fragment): every page, fragment, JSON view, map
  layer, picture, tile and PDF the player's signed-in browser reaches: the leak crawler's URL
  list (``tests.campaign.test_leak_crawler.urls_for``: every pattern, with every seat's and
  version's arguments) and every same-site link and ``hx-get`` target found on the way, within
  the campaign. Status, content type and redirect target are part of the channel. PNGs are
  compared by their decoded pixels (Pillow; the digest of the RGBA pixels), PDFs by their text
  (pypdfium2) when installed.
- ``mail-order answer``: a mail order from the player (``orders.mailorders.receive``); its answer
  is one of the emails.
- ``email <n>``: every email to the player (subject, text and HTML bodies, in the order sent).
- ``push <n>``: every push payload for the player's devices (``push.services.delivery``).
- ``club posts``: the text of the campaign's posts to the club's channel (public).

The crawl is bounded (``MAX_REQUESTS``); a crawl that hits the cap fails, never stops silently.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import re
from email.message import EmailMessage
from urllib.parse import urldefrag, urlsplit

from django.conf import settings
from django.core import mail
from django.test import Client, TestCase
from django.urls import Resolver404, resolve, reverse

from campaign.models import Campaign, Invitation, Seat
from club.models import ClubPost
from club.services import channel
from feeds.services import tokens
from maps.pictures import draw_picture
from orders import replyaddress
from push.models import PushDevice
from tests.campaign.test_leak_crawler import HTMX, urls_for
from tests.fog import harness
from tests.orders.test_play_fixtures import client_for

MAX_REQUESTS = 600
MAIL_ORDER_ID = "<fog-harness-order@mail.example.com>"  # the Message-ID of the player's mail
FOG_HOOK = "https://discord.example.org/api/webhooks/fog"
# Pages that would end the session or change the player's account if requested.
NOT_CRAWLED = {"logout", "password_change", "password_reset_confirm"}
# Site-wide pages (not under the campaign's codes) a player reaches from the campaign's pages.
# (Not the public map's pages: the bundled map, the same for everyone, in a thousand regions;
# the crawler's list requests one of each.)
SITE_WIDE = {"home", "campaigns", "orders:index", "club:record", "email_preferences"}
_LINK = re.compile(rb"""(?:href|hx-get|src)\s*=\s*["']([^"'#][^"']*)["']""")


class _NoBattle:
    code = "00000000-0000-4000-8000-000000000000"


class SeatObserver:
    """What ``power``'s player in ``campaign`` can learn, on every channel (see the module)."""

    def __init__(self, campaign: Campaign, power: str, *, mail_order: str = ""):
        self.campaign = campaign
        self.seat = campaign.seats.select_related("user").get(power=power)
        self.user = self.seat.user
        self.mail_order = mail_order
        PushDevice.objects.get_or_create(
            user=self.user,
            endpoint=f"https://fcm.googleapis.com/fcm/send/fog-{self.seat.code}",
            defaults={"p256dh": "fog", "auth": "fog", "name": "fog test"},
        )
        tokens.renew_seat(self.seat, self.user)
        if not channel.hook(campaign):
            # A club channel, so that the club's posts are written (eager tasks never post them).
            campaign.options = {**(campaign.options or {}), channel.HOOK: FOG_HOOK}
            campaign.save(update_fields=["options"])
        if not Invitation.objects.filter(seat__campaign=campaign).exists():
            # The crawler's URL list names an invitation: the one this player came in by.
            Invitation.objects.create(
                seat=self.seat, email=self.user.email, accepted_at=campaign.created,
                accepted_by=self.user,
            )  # fmt: skip
        battle = campaign.battles.first() or _NoBattle()
        self.seeds = [(n, u) for n, u in urls_for(campaign, battle) if n not in NOT_CRAWLED]
        self.codes = {campaign.code, *campaign.seats.values_list("code", flat=True)}
        self.codes = {str(c) for c in self.codes}
        # A last visit to count from (the dashboard's: "Since you last looked"). It read
        # "/orders/<code>/", no page of the site, until the secrecy audit of 30 November 2026
        # (second): every world was the player's first visit.
        visit = client_for(self.user).get(reverse("orders:dashboard", args=[self.seat.code]))
        assert visit.status_code == 200, visit.status_code
        self.requests = 0
        self.pictures = True  # draw the seat's map pictures (off in the controls: seconds each)

    # -- the observe() of two_worlds ------------------------------------------------------------

    def __call__(self) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        if self.mail_order:
            out["mail-order answer"] = self.send_mail_order()
        out.update(self.crawl())
        out.update(self.emails())
        mine = [payload for user_id, payload in harness.PUSHED if user_id == self.user.id]
        for n, payload in enumerate(mine, start=1):
            out[f"push {n}"] = repr(sorted(payload.items())).encode()
        posts = ClubPost.objects.filter(campaign=self.campaign).order_by("id")
        out["club posts"] = "\n".join(f"{p.kind}: {p.text}" for p in posts).encode()
        return out

    # -- channels -------------------------------------------------------------------------------

    def send_mail_order(self) -> bytes:
        """A mail order from the player (its answer is read with the other emails)."""
        from orders.mailorders import receive

        window = self.campaign.windows.order_by("-id").first()
        saved = settings.ORDERS_MAIL_DOMAIN, settings.ORDERS_MAILBOX
        settings.ORDERS_MAIL_DOMAIN, settings.ORDERS_MAILBOX = "dgk.example.org", ""
        try:
            msg = EmailMessage()
            msg["From"] = f"Player <{self.user.email}>"
            msg["To"] = replyaddress.address(window.id, self.seat.id)
            msg["Subject"] = "Re: your orders"
            msg["Message-ID"] = MAIL_ORDER_ID
            msg.set_content(self.mail_order)
            outcome = receive(msg.as_bytes())
        finally:
            settings.ORDERS_MAIL_DOMAIN, settings.ORDERS_MAILBOX = saved
        return f"{outcome.status}: {getattr(outcome, 'reason', '')}".encode()

    def emails(self) -> dict[str, bytes]:
        out = {}
        mine = [m for m in mail.outbox if self.user.email in (*m.to, *m.cc, *m.bcc)]
        for n, message in enumerate(mine, start=1):
            html = "".join(str(a[0]) for a in getattr(message, "alternatives", []))
            text = f"Subject: {message.subject}\n\n{message.body}\n\n{html}"
            out[f"email {n}"] = text.encode()
        return out

    def crawl(self) -> dict[str, bytes]:
        client = client_for(self.user)
        frontier = [(u, name in HTMX) for name, u in self.seeds]
        seen: set[tuple[str, bool]] = set()
        out: dict[str, bytes] = {}
        while frontier:
            target, htmx = frontier.pop(0)
            if (target, htmx) in seen:
                continue
            seen.add((target, htmx))
            assert len(seen) <= MAX_REQUESTS, (
                f"the crawl reached its cap of {MAX_REQUESTS} requests with {len(frontier)} left: "
                f"{sorted(seen)[:: max(1, len(seen) // 60)]}"
            )
            for as_htmx in (False, True) if htmx else (False,):
                key = f"{'HX' if as_htmx else 'GET'} {target}"
                headers = {"HTTP_HX_REQUEST": "true"} if as_htmx else {}
                response = self.get(client, target, headers)
                if response.status_code == 202 and self.draw(target):
                    response = self.get(client, target, headers)
                body = b"".join(response) if response.streaming else response.content
                head = f"{response.status_code} {response.get('Content-Type', '')}"
                if response.status_code in (301, 302, 303, 307, 308):
                    head += f" -> {response['Location']}"
                out[key] = head.encode() + b"\n" + readable(body)
                for link, hx in self.links(body):
                    if (link, hx) not in seen:
                        frontier.append((link, hx))
        self.crawled = len(out)
        return out

    def draw(self, target: str) -> bool:
        """Draw the picture a page asked for (as ``runperiodic`` does with no broker) when it is
        the seat's picture of the latest version, the one the worker draws as the phase
        resolves: an earlier version's was drawn when that version was new, before any secret
        of a test, and each costs seconds."""
        match = resolve(urlsplit(target).path)
        if not self.pictures or match.view_name != "orders:map":
            return False
        number = match.kwargs["number"]
        latest = self.campaign.latest_version().number
        if number != latest or str(match.kwargs["code"]) != str(self.seat.code):
            return False
        version = self.campaign.versions.get(number=number)
        return draw_picture(version.id, self.seat.id) is not None

    def get(self, client: Client, target: str, headers: dict):
        """One request, the work it queues on commit (a picture to draw) done."""
        self.requests += 1
        with TestCase.captureOnCommitCallbacks(execute=True):
            return client.get(target, **headers)

    def links(self, body: bytes) -> list[tuple[str, bool]]:
        """Same-site links and hx-get targets within the campaign (or to a site-wide page)."""
        if body[:1] not in (b"<", b"\n", b" ", b"{"):
            return []
        found = []
        for match in _LINK.finditer(body):
            raw = match.group(1).decode("utf-8", "replace").replace("&amp;", "&")
            link = urldefrag(raw)[0]
            if link.startswith(settings.SITE_URL):
                link = link[len(settings.SITE_URL) :]
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not link.startswith("/"):
                continue
            if link.startswith(("/static/", "/media/", "/admin/")):
                continue
            try:
                name = resolve(parts.path).view_name
            except Resolver404:
                continue
            if name in NOT_CRAWLED:
                continue
            if name in SITE_WIDE or any(code in link for code in self.codes):
                found.append((link, b"hx-get" in match.group(0)))
        return found


def readable(body: bytes) -> bytes:
    """What a reader gets of a response: a PNG's pixels, a PDF's text, a gzip's content, a
    calendar's unfolded lines."""
    if body[:4] == b"\x89PNG":
        from PIL import Image

        image = Image.open(io.BytesIO(body)).convert("RGBA")
        pixels = hashlib.sha256(image.tobytes()).hexdigest()  # megabytes: their digest
        return f"PNG {image.size} pixels sha256 {pixels}".encode()
    if body[:5] == b"%PDF-":
        try:
            import pypdfium2 as pdfium
        except ImportError:
            return body
        text = "\n".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(body))
        return b"PDF text\n" + text.encode()
    if body[:2] == b"\x1f\x8b":
        return b"gzip\n" + gzip.decompress(body)
    if body.startswith(b"BEGIN:VCALENDAR"):
        # A calendar's lines as its app reads them: unfolded (RFC 5545 3.1), so that a code
        # made in the world and folded across two lines is still found and normalised.
        return body.replace(b"\r\n ", b"").replace(b"\r\n\t", b"")
    return body


def seat_of(campaign: Campaign, power: str) -> Seat:
    return campaign.seats.select_related("user").get(power=power)


def client(campaign: Campaign, power: str) -> Client:
    return client_for(seat_of(campaign, power).user)
