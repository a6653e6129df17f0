# ruff: noqa: F811 (pytest fixtures imported from test_battles)
"""The leak crawler (issue 11): every URL pattern of the site, requested as every role, shows
no secret that role's forces could not know.

The campaign is the battle of ``test_battles`` (Frederick and Schwerin against Charles and Daun
on a small map), played through a quick resolution into the next turn, with a reserve player.
Secret markers: each leader's points (3.1.2) and the garrisons; the two battle totals, known to
the sides that fought (9) and to no one else; the campaign seed (docs/dice.md), which no one may
see while the campaign runs.

Roles: each seat's player, a reserve, an outsider, an anonymous visitor, the organiser as a
non-playing umpire (who may see every point, never the seed) and the organiser who plays.
The URL list is read from the URLconf: a new pattern fails ``test_every_url_pattern_is_crawled``
until ``FILL`` says how to request it.

Looked at: the body of every response (HTML, htmx fragments, JSON), every text drawn on a
picture while serving it (captions, labels), and every email sent while the campaign was played.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field

import pytest
from django.core import mail
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from PIL import ImageDraw

from battles.services import printing as battle_print
from campaign.models import Invitation
from campaign.services import setup
from feeds.services import tokens
from letters.services import press
from mail.services.email import preferences_token
from maps.core.loader import load_map
from rules.armies import Alliance, Army
from tests.battles.test_battles import (  # noqa: F401 (fixtures)
    AUSTRIAN_SECRETS,
    BERLIN,
    CHARLES,
    DAUN,
    FREDERICK,
    PRUSSIAN_SECRETS,
    SCHWERIN,
    battle,
    battle_map,
    campaign,
    post,
)
from tests.orders.test_play_fixtures import client_for, without_noise
from tests.seasons.real_season import play_real_season
from tests.standing import make_user

pytestmark = pytest.mark.django_db

PRUSSIAN_TOTAL = str(FREDERICK + SCHWERIN)  # 2213: the Prussian side at the battle
AUSTRIAN_TOTAL = str(CHARLES + DAUN)  # 3150
BATTLE_TOTALS = (PRUSSIAN_TOTAL, AUSTRIAN_TOTAL)

# How to fill each URL pattern's arguments. Every pattern of the URLconf must be here (the
# admin aside: staff only, checked once below). The values name the argument sets ``urls_for``
# builds for the campaign under test.
# A letter from Prussia to Austria: only those two seats may ever read it.
LETTER = "Letter7741secret"

FILL = {
    "home": "none",
    "healthz": "none",
    "readyz": "none",
    "favicon": "none",
    "login": "none",
    "logout": "none",
    "password_change": "none",
    "password_change_done": "none",
    "password_reset": "none",
    "password_reset_done": "none",
    "password_reset_confirm": "reset",
    "password_reset_complete": "none",
    "campaigns": "none",
    "new_campaign": "none",
    "accept_invitation": "token",
    "email_preferences": "prefs",
    "campaign_setup": "campaign",
    "invite": "campaign",
    "invitation": "campaign_token",
    "campaign_outbox": "campaign",
    "start_campaign": "campaign",
    "action_log": "campaign",
    "campaign_dice": "campaign",
    # The war (issue 28): shown only once the campaign is over; the crawled one runs.
    "war": "campaign",
    "war_history": "campaign_history",
    "war_link": "campaign",
    "war_public": "war_token",
    "war_public_history": "war_token",
    "war_book": "campaign_paper",
    "war_public_book": "war_token_paper",
    "reseed": "campaign",
    "unlock_signin": "campaign_seat",
    "reopen_campaign": "campaign",
    "organiser_board": "campaign",
    "season_file": "campaign",
    "options": "campaign",
    "pause": "campaign",
    "resume": "campaign",
    "extend": "campaign",
    "resolve_now": "campaign",
    "roll_back": "campaign",
    "end_campaign": "campaign",
    "next_year": "campaign",
    "end_war": "campaign",
    "enter_orders": "campaign_seat",
    "enter_orders_on_behalf": "campaign_seat",
    "replace_player": "campaign_seat",
    "caretaker_seat": "campaign_seat",
    "missed_policy": "campaign",
    # The club (docs/club.md): its channel on the board, a player's record, the roster.
    "club_hook": "campaign",
    "club:record": "none",
    "club:roster": "campaign",
    "seat_settings": "seat",
    "letters": "seat",
    "all_letters": "campaign",
    "pick_leaders": "seat",
    "orders:index": "none",
    "orders:dashboard": "seat",
    "orders:orders": "seat",
    "orders:save_march": "seat",
    "orders:remove_order": "seat",
    "orders:save_transfer": "seat",
    "orders:decide": "seat",
    "orders:ready": "seat",
    "orders:unready": "seat",
    "orders:no_forced_march": "seat",
    "orders:take_seat_back": "seat",
    "orders:map_overlay": "seat",
    "orders:map_history": "seat_history",
    "orders:deploy": "seat",
    "orders:report": "seat",
    "orders:report_version": "seat_number",
    "orders:history": "seat",
    "orders:handover": "seat_turns",
    "orders:map": "seat_number",
    "orders:view_json": "seat_number",
    "orders:umpire": "campaign",
    "orders:umpire_map": "campaign_number",
    "orders:umpire_overlay": "campaign",
    "maps:page": "none",
    "maps:png": "map_region",
    "maps:tile": "tile",
    "battles:chronicle": "campaign",
    "battles:settings": "campaign",
    "battles:gazette": "campaign",
    "battles:battle": "battle",
    "battles:table_png": "battle",
    "battles:briefing": "battle_audience",
    "battles:briefing_pdf": "battle_audience_refused",
    "battles:enter": "battle",
    "battles:confirm": "battle",
    "battles:dispute": "battle",
    "battles:settle": "battle",
    "battles:quick": "battle",
    "battles:date": "battle",
    "battles:collection": "battle",
    # The photos and accounts (issue 45): a made-up photo answers 404; the real ones are
    # reached by the links of the pages that may show them.
    "battles:photo_upload": "battle",
    "battles:photo_image": "battle_photo_kind",
    "battles:photo_caption": "battle_photo",
    "battles:photo_move": "battle_photo",
    "battles:photo_remove": "battle_photo",
    "battles:account": "battle_audience",
    "battles:gazette_consent": "battle_audience",
    "battles:gazette_photo": "campaign_photo_kind",
    "push:service_worker": "none",
    "push:settings": "seat",
    "push:subscribe": "seat",
    "push:unsubscribe": "seat",
    "push:remove_device": "seat_device",
    # The calendar feeds (docs/calendar.md): each seat's, the organiser's; renewals are POSTs.
    "calendar_feed": "calendar_token",
    "calendar_renew_seat": "seat",
    "calendar_renew_organiser": "campaign",
}
NO_PHOTO = "00000000-0000-4000-8000-0000000000f0"  # a photo of no battle
# Pages with htmx partials: requested again as an htmx fragment.
HTMX = {"orders:orders", "orders:deploy", "organiser_board", "battles:battle", "orders:dashboard"}


def url_patterns(resolver=None, namespace=None) -> list[tuple[str, URLPattern]]:
    """Every (name, pattern) of the URLconf, the admin left out."""
    found = []
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            ns = p.namespace or namespace
            if ns == "admin":
                continue
            found += url_patterns(p, ns)
        else:
            found.append(((f"{namespace}:" if namespace else "") + (p.name or "?"), p))
    return found


def test_every_url_pattern_is_crawled():
    missing = sorted({name for name, _ in url_patterns()} - set(FILL))
    assert not missing, f"say in FILL how the crawler requests {missing}"


@dataclass
class Role:
    name: str
    client: Client
    forbidden: tuple[str, ...]
    email: str = ""
    hits: list[str] = field(default_factory=list)


def side_of(seat) -> str | None:
    alliances = {Army(a).alliance for a in seat.armies}
    if Alliance.PRUSSIAN in alliances:
        return "prussian"
    return "austrian" if alliances else None


def roles_for(campaign, organiser, outsider) -> list[Role]:
    seed_parts = tuple(campaign.seed[i : i + 8] for i in range(len(campaign.seed) - 7))
    prussian = (*PRUSSIAN_SECRETS, str(BERLIN))
    austrian = AUSTRIAN_SECRETS
    uninvolved = (*prussian, *austrian, *BATTLE_TOTALS)
    roles = []
    for s in campaign.seats.filter(user__isnull=False).select_related("user"):
        letter = () if s.power in ("prussia", "austria") else (LETTER,)
        if s.reserve:
            forbidden = uninvolved
        elif "prussia" in s.armies:
            forbidden = austrian
        elif "austria" in s.armies:
            forbidden = prussian
        else:
            # Not in the battle; allies are told nothing unless the campaign shares (off here).
            forbidden = uninvolved
        roles.append(
            Role(s.label, client_for(s.user), forbidden + letter + seed_parts, s.user.email)
        )
    hidden = uninvolved + seed_parts + (LETTER,)
    roles.append(Role("outsider", client_for(outsider), hidden, outsider.email))
    roles.append(Role("anonymous", Client(), hidden))
    # The umpire sees every force, never a letter (the campaign is not moderated).
    roles.append(Role("umpire", client_for(organiser), seed_parts + (LETTER,), organiser.email))
    return roles


# A length on the table (the scenario sheet's terrain features: 88" long (225 cm)) is a
# measurement, not a count of points: a number followed by cm or an inch mark is not a marker.
_MEASURE = r"(?!\s*(?:cm\b|\"|&quot;|″))"


def marker_found(text: str, markers: tuple[str, ...]) -> list[str]:
    return [m for m in markers if re.search(rf"(?<![\w.]){re.escape(m)}(?![\w.]){_MEASURE}", text)]


def urls_for(campaign, battle) -> list[tuple[str, str]]:
    """(name, url) for every pattern, with every argument set that matters."""
    seats = list(campaign.seats.all())
    versions = sorted(campaign.versions.values_list("number", flat=True))
    numbers = sorted({versions[0], versions[len(versions) // 2], versions[-1]})
    token = Invitation.objects.filter(seat__campaign=campaign).first().token
    stamp = "0" * 12
    out = []
    for name, _ in url_patterns():
        how = FILL[name]
        if how == "none":
            args_list = [()]
        elif how in ("campaign", "campaign_history"):
            args_list = [(campaign.code,)]
        elif how == "campaign_seat":
            args_list = [(campaign.code, s.code) for s in seats]
        elif how in ("seat", "seat_history", "seat_turns"):
            args_list = [(s.code,) for s in seats]
        elif how == "seat_device":  # a device of no one: the page answers 404 or 405
            args_list = [(s.code, "00000000-0000-4000-8000-000000000000") for s in seats]
        elif how == "seat_number":
            args_list = [(s.code, n) for s in seats for n in numbers]
        elif how == "campaign_number":
            args_list = [(campaign.code, n) for n in numbers]
        elif how == "battle":
            args_list = [(campaign.code, battle.code)]
        elif how in ("battle_audience", "battle_audience_refused"):
            args_list = [
                (campaign.code, battle.code, a) for a in ("prussian", "austrian", "umpire")
            ]
        elif how == "battle_photo":
            args_list = [(campaign.code, battle.code, NO_PHOTO)]
        elif how == "battle_photo_kind":
            args_list = [(campaign.code, battle.code, NO_PHOTO, k) for k in ("thumb", "display")]
        elif how == "campaign_photo_kind":
            args_list = [(campaign.code, NO_PHOTO, k) for k in ("thumb", "display")]
        elif how == "token":
            args_list = [(token,)]
        elif how == "campaign_token":
            args_list = [(campaign.code, token)]
        elif how == "calendar_token":  # read by whoever has the address: no secret in it
            feeds = [tokens.renew_seat(s, s.user) for s in seats if s.user_id]
            args_list = [(f.token,) for f in (*feeds, tokens.renew_organiser(campaign))]
        elif how == "war_token":  # off while the campaign runs: a made-up token
            args_list = [(campaign.war_token or "A" * 43,)]
        elif how == "campaign_paper":  # the book of the season (PDF)
            args_list = [(campaign.code, paper) for paper in ("a4", "letter")]
        elif how == "war_token_paper":
            args_list = [(campaign.war_token or "A" * 43, paper) for paper in ("a4", "letter")]
        elif how == "prefs":
            args_list = [(preferences_token(s.id),) for s in seats[:2]]
        elif how == "reset":
            args_list = [("MQ", "set-password")]
        elif how == "tile":
            args_list = [(stamp, 0, 0, 0)]
        elif how == "map_region":
            args_list = [()]
        else:
            raise AssertionError(f"unknown fill {how!r} for {name}")
        for args in args_list:
            target = reverse(name, args=args)
            if how in ("seat_history", "campaign_history"):
                out += [(name, f"{target}?version={n}") for n in numbers]
            elif how == "seat_turns":  # the recent turns, and an earlier turn's page
                out += [(name, target), (name, f"{target}?turn=1")]
            elif how == "map_region":
                out.append((name, f"{target}?region=0502%2B3&size=s"))
            else:
                out.append((name, target))
    return out


@pytest.fixture
def played(battle, organiser, player, django_capture_on_commit_callbacks):
    """The battle resolved quickly by the organiser and the turn gone on; a reserve seated."""
    campaign = battle.campaign
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        post(client_for(organiser), "quick", battle, {"attacker": "prussian"})
        reserve = setup.add_reserve(campaign, "reserve@example.org", now=campaign.created)
        prussia, austria = (campaign.seats.get(power=p) for p in ("prussia", "austria"))
        press.send(prussia, [austria.id], f"Parley? {LETTER}", now=campaign.created)
    setup.accept_invitation(reserve.token, make_user("reserve"), now=campaign.created)
    battle.refresh_from_db()
    campaign.refresh_from_db()
    assert battle.quick and battle.status == "applied"
    return campaign, battle


@pytest.fixture
def drawn(monkeypatch):
    """Every text drawn on a picture while a request is served (the drawing still happens)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, string, *args, **kwargs):
        texts.append(str(string))
        return original(self, xy, string, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts


def crawl(role: Role, urls, drawn: list[str]) -> list[str]:
    leaks = []
    for name, target in urls:
        for htmx in (False, True) if name in HTMX else (False,):
            drawn.clear()
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            r = role.client.get(target, **headers)
            unprintable = name == "battles:briefing_pdf" and battle_print.chromium() is None
            if r.status_code == 503 and unprintable:
                continue  # without chromium nothing is printed, and the page says so
            # /healthz's status is the heartbeat's age, its own tests' business
            # (tests/front/test_health.py): a long crawl on a busy machine outlives any
            # heartbeat. Its body is still read like every other.
            healthz = name == "healthz" and r.status_code == 503
            assert r.status_code < 500 or healthz, f"{role.name} {target}: {r.status_code}"
            role.hits.append(target)
            body = b"".join(r) if r.streaming else r.content
            if body[:5] == b"%PDF-":
                text = pdf_text(body)  # what the reader sees, not the file's object numbers
            elif body[:4] == b"\x89PNG":
                text = ""
            elif body[:2] == b"\x1f\x8b":  # a gzip'd download (the season file): its content
                text = gzip.decompress(body).decode("utf-8", "replace")
            else:
                text = without_noise(body.decode("utf-8", "replace"))
            if "html" in r.get("Content-Type", ""):
                assert "{#" not in text and "#}" not in text, f"template comment shown: {target}"
            found = marker_found(text + "\n" + "\n".join(drawn), role.forbidden)
            if found:
                where = [context(text, m) for m in found]
                leaks.append(f"{role.name} {target}{' (htmx)' if htmx else ''}: {found} {where}")
    return leaks


def pdf_text(body: bytes) -> str:
    """The text of a PDF's pages (pypdfium2, requirements-browser.txt)."""
    pdfium = pytest.importorskip("pypdfium2")
    return "\n".join(p.get_textpage().get_text_range() for p in pdfium.PdfDocument(body))


def context(text: str, marker: str) -> str:
    found = re.search(rf"(?<![\w.]){re.escape(marker)}(?![\w.])", text)
    return text[max(0, found.start() - 40) : found.end() + 20] if found else ""


def test_no_role_sees_another_seats_secrets(played, organiser, outsider, drawn):
    campaign, battle = played
    urls = urls_for(campaign, battle)
    roles = roles_for(campaign, organiser, outsider)
    leaks = []
    for role in roles:
        leaks += crawl(role, urls, drawn)
    # The crawler can see a leak: the umpire may read every point, and does, on these pages.
    uninvolved = (*PRUSSIAN_SECRETS, str(BERLIN), *AUSTRIAN_SECRETS, *BATTLE_TOTALS)
    seen = crawl(Role("umpire, as if uninvolved", client_for(organiser), uninvolved), urls, drawn)
    assert {m for line in seen for m in re.findall(r"'(\d+)'", line)} >= set(uninvolved)
    # ... and the letter, to its addressee.
    austria = campaign.seats.get(power="austria")
    assert LETTER in client_for(austria.user).get(reverse("letters", args=[austria.code])).text
    # The organiser who plays: the same pages, with no more than an uninvolved player knows.
    campaign.umpire_plays = True
    campaign.save(update_fields=["umpire_plays"])
    seed_parts = roles[-1].forbidden
    playing = Role("organiser who plays", client_for(organiser), uninvolved + seed_parts)
    leaks += crawl(playing, urls, drawn)
    pairs = sum(len(r.hits) for r in [*roles, playing])
    print(f"leak crawler: {len(roles) + 1} roles x {len(urls)} URLs, {pairs} requests")
    assert pairs >= 10 * len(urls)
    assert not leaks, "\n".join(leaks[:20])


def test_no_email_tells_a_player_another_seats_secrets(played, organiser, outsider):
    campaign, _ = played
    by_email = {r.email: r for r in roles_for(campaign, organiser, outsider) if r.email}
    assert len(mail.outbox) >= 3
    leaks = []
    for message in mail.outbox:
        body = message.body + "".join(str(a[0]) for a in getattr(message, "alternatives", []))
        for to in message.to:
            role = by_email.get(to)
            assert role is not None, f"an email to {to}, who is no one in the campaign"
            found = marker_found(without_noise(body), role.forbidden)
            if found:
                leaks.append(f"{message.subject} to {role.name}: {found}")
    assert not leaks, "\n".join(leaks)


def test_the_admin_is_for_staff_only(played, player, outsider):
    for client in (client_for(player), client_for(outsider), Client()):
        r = client.get("/admin/campaign/campaign/")
        assert r.status_code == 302 and "/admin/login/" in r.url


@pytest.mark.browser
def test_the_printed_briefings_show_no_secret_of_the_other_side(played, player, other):
    """The PDF of each side's scenario sheet, read back with pypdfium2: none of the other side's
    secret points (leaders, garrisons), nor the campaign seed; the side named by who fights."""
    pdfium = pytest.importorskip("pypdfium2")
    if battle_print.chromium() is None:
        pytest.skip("chromium is needed (apt-get install chromium)")
    campaign, battle = played
    for user, side, forbidden in (
        (player, "prussian", AUSTRIAN_SECRETS),
        (other, "austrian", (*PRUSSIAN_SECRETS, str(BERLIN))),
    ):
        for paper in ("a4", "letter"):
            r = client_for(user).get(
                reverse("battles:briefing_pdf", args=[campaign.code, battle.code, side]),
                {"paper": paper},
            )
            assert r.status_code == 200 and r.content[:5] == b"%PDF-"
            pdf = pdfium.PdfDocument(r.content)
            text = "\n".join(p.get_textpage().get_text_range() for p in pdf)
            assert "for this side only" in text and "What you do not know".upper() in text
            assert not marker_found(text, forbidden)
            assert not marker_found(text, (campaign.seed,))


# ---- the same crawl over a campaign played on the real map ------------------------------------


@pytest.fixture
def real_played(organiser, django_capture_on_commit_callbacks):
    """Five seats on the bundled map of 1756, played by the engine's automatic players through
    the services for three turns: battles (each settled by the quick resolution) and whatever
    sieges the moves bring."""
    campaign, battles = play_real_season(organiser, django_capture_on_commit_callbacks)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        reserve = setup.add_reserve(campaign, "real-reserve@example.org", now=now)
    setup.accept_invitation(reserve.token, make_user("real-reserve"), now=now)
    campaign.refresh_from_db()
    assert campaign.latest_version().turn >= 3, campaign.latest_version()
    return campaign, battles


def knowable(role: Role, campaign) -> set[str]:
    """Every number the seat's own projection gives it, in any version (its view documents)."""
    numbers: set[str] = set()
    for s in campaign.seats.filter(user__email=role.email):
        for n in campaign.versions.values_list("number", flat=True):
            r = role.client.get(reverse("orders:view_json", args=[s.code, n]))
            numbers |= set(re.findall(r"\d{3,}", r.content.decode()))
    return numbers


def test_no_role_sees_a_secret_on_the_real_map(real_played, organiser, outsider, drawn):
    """The markers are the true points of every force and garrison in every version, less what
    each seat's own projection tells it (and the public army totals, 3): any page, fragment,
    picture text or email that shows more than the projection is a leak."""
    campaign, battles = real_played
    secrets = set()
    public = set()
    for state in campaign.versions.values_list("state", flat=True):
        secrets |= {str(x["points"]) for x in state["leaders"].values()}
        secrets |= {str(g["points"]) for g in state.get("garrisons", [])}
        public |= {str(p) for p in state.get("army_points", {}).values()}
    # Three digits or more and not round: a round or short number stands on pages for other
    # reasons (MPs, feet, years).
    # Nor a hex id of the map (CCRR): the maps label their hexes.
    hexmap = load_map()
    hex_ids = {f"{c:02d}{r:02d}" for c in range(hexmap.columns + 1) for r in range(hexmap.rows + 1)}
    secrets = {s for s in secrets if len(s) >= 3 and not s.endswith("0")} - public - hex_ids
    seed_parts = tuple(campaign.seed[i : i + 8] for i in range(len(campaign.seed) - 7))
    battle = campaign.battles.first()
    urls = [(n, u) for n, u in urls_for(campaign, battle) if battle or "battles:" not in n]
    leaks, pairs = [], 0
    for role in roles_for(campaign, organiser, outsider):
        if role.name == "umpire":
            role.forbidden = seed_parts
        else:
            role.forbidden = tuple(sorted(secrets - knowable(role, campaign))) + seed_parts
        leaks += crawl(role, urls, drawn)
        pairs += len(role.hits)
        for message in mail.outbox:
            if role.email and role.email in message.to:
                found = marker_found(without_noise(message.body), role.forbidden)
                leaks += [f"email {message.subject!r} to {role.name}: {found}"] if found else []
    kinds = list(campaign.events.values_list("kind", flat=True))
    sieges = sum(k in ("siege-begun", "blockade", "breach", "siege") for k in kinds)
    print(
        f"real-map crawl: {battles} battles, {sieges} siege events, {len(secrets)} markers, "
        f"{len(urls)} URLs, {pairs} requests"
    )
    assert battles >= 1 and sieges >= 1 and len(secrets) >= 10
    assert not leaks, "\n".join(leaks[:20])
