"""The club's channel (docs/club.md): an optional outgoing webhook per campaign, set by its
organiser (``Campaign.options["club_hook"]``), to which the site posts the campaign's public
news only: a phase resolved (turn and phase, who was played by the caretaker), a battle's date,
the season's end (the final victory points, public under 12) and the public link of *The war*.

Every text is composed here from whitelisted fields (names of phases, turns, seat labels,
dates, victory points), never from an event's or an email's text: no orders, no strengths, no
positions can leak through a sentence written for one seat.

A post is a row (``ClubPost``) written in the transaction that made the news, so nothing is
posted for a change that rolls back. With a broker, the worker posts it once the transaction
commits (``club.tasks.deliver_post``); without one, tasks would run in the process that made
the news (a web request), so the periodic ``club.tasks.deliver_due_posts`` (``manage.py
runperiodic``) posts it instead, as the map pictures are drawn. Either way a dead or slow hook
never holds a resolution. A failed post is tried again by the sweep after ``BACKOFF``, and
after ``TRIES`` tries it is dropped with a line in the organiser's log.
"""

from __future__ import annotations

import functools
import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle
from battles.services.briefing import turn_label
from campaign.models import (
    Campaign,
    CampaignStatus,
    Event,
    OrganiserAction,
    OrganiserActionKind,
    PhaseWindow,
    Seat,
    StateVersion,
    WindowStatus,
)
from campaign.services import queue
from campaign.services.actionlog import OrganiserError, log
from campaign.services.plaintext import one_line
from club.models import ClubPost, PostStatus
from dgk import outbound

logger = logging.getLogger(__name__)

HOOK = "club_hook"  # the key of Campaign.options
DELIVER_POST = "club.tasks.deliver_post"
TRIES = 4
# The wait before the 2nd, 3rd and 4th tries (the sweep runs every CLUB_POST_SECONDS).
BACKOFF = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=15))
# A post being tried is not tried again by another worker for this long.
LEASE = timedelta(minutes=2)
MAX_URL = 500


# --- the hook: set by the organiser ------------------------------------------------------------


def hook(campaign: Campaign) -> str:
    """The campaign's webhook address, or "" when it has none."""
    return str((campaign.options or {}).get(HOOK) or "")


def check_hook(url: str) -> str:
    """The address as given, stripped, if it is an http(s) URL the site may call ("" clears
    the channel); raises OrganiserError with the reason. Its host is resolved and refused if
    any of its addresses is loopback, private, link-local, reserved or multicast
    (``dgk.outbound``, again at each post); a host that cannot be found now is taken, and its
    posts say "unreachable" until it can."""
    url = (url or "").strip()
    if not url:
        return ""
    if len(url) > MAX_URL:
        raise OrganiserError(f"The webhook address is longer than {MAX_URL} characters.")
    try:
        URLValidator(schemes=["https", "http"])(url.replace("\\", "/"))  # the guard says why
    except ValidationError:
        raise OrganiserError(
            "The webhook must be a web address starting with https:// (or http://), such as "
            "the one Discord, Slack or Matrix (hookshot) gives for a channel."
        ) from None
    try:
        outbound.check(url)
    except outbound.Refused as exc:
        raise OrganiserError(f"The webhook is refused. {exc.reason}") from None
    except outbound.Unresolved:
        pass
    return url


def set_hook(campaign: Campaign, actor, url: str, *, now: datetime) -> str:
    """The organiser sets (or clears, with "") the club's channel. Logged for every player to
    read, without the address: a webhook's address is its password."""
    url = check_hook(url)
    if url == hook(campaign):
        return url
    options = {**(campaign.options or {}), HOOK: url}
    if not url:
        options.pop(HOOK)
    Campaign.objects.filter(id=campaign.id).update(options=options)
    campaign.options = options
    log(
        campaign,
        actor,
        OrganiserActionKind.OPTIONS,
        "Set the club's channel: the campaign's public news is posted to it."
        if url
        else "Switched the club's channel off.",
        now=now,
        club_hook=bool(url),
    )
    return url


# --- the texts: public news only ----------------------------------------------------------------


def _phase(value: str) -> str:
    return value.replace("-", " ")


def turn_name(turn: int) -> str:
    """``turn_name(3)`` is "May I (turn 3)"."""
    return f"{turn_label(turn)} (turn {turn})" if turn >= 1 else "the start"


def phase_text(name: str, turn: int, resolved: list[str], next_phase: str, caretaker: list[str],
               *, ended: bool = False, next_turn: int | None = None) -> str:  # fmt: skip
    """``phase_text("Bohemia 1757", 3, ["march", "forced-march"], "attrition", ["Austria"])``
    is "Bohemia 1757, May I (turn 3): the march and forced march phases are resolved. Next:
    the attrition phase. Played by the caretaker: Austria." ``next_turn``: the next phase's
    turn, named when it is another."""
    phases = [_phase(p) for p in resolved if p] or ["a"]
    if len(phases) == 1:
        done = f"the {phases[0]} phase is resolved"
    else:
        done = f"the {', '.join(phases[:-1])} and {phases[-1]} phases are resolved"
    text = f"{name}, {turn_name(turn)}: {done}."
    if not ended:
        later = f" of {turn_name(next_turn)}" if next_turn and next_turn != turn else ""
        if next_phase == "battle" and resolved and resolved[-1] == "battle" and not later:
            text += " Next: the battles are fought on the table (9)."  # the decisions made
        else:
            text += f" Next: the {_phase(next_phase)} phase{later}."
    if caretaker:
        text += f" Played by the caretaker: {', '.join(caretaker)}."
    return text


def battle_text(name: str, turn: int, when: datetime) -> str:
    """A battle's date: when it is fought on the table, and the turn it belongs to. Not where
    nor who: the gazette publishes those only after its delay (battles.services.news)."""
    return (
        f"{name}: a battle of {turn_name(turn)} is to be fought on the table on "
        f"{when:%a %d %b %Y, %H:%M %Z}."
    )


def season_end_text(name: str, vps: list[tuple[str, int]], link: str) -> str:
    text = f"{name}: the season is over."
    if vps:
        text += " Victory points (12): " + ", ".join(f"{label} {vp}" for label, vp in vps) + "."
    if link:
        text += f" The whole war, public: {link}"
    return text


def war_link(campaign: Campaign) -> str:
    """The public link of *The war* (seasons), or "" when the organiser has not given one."""
    if not campaign.war_token:
        return ""
    return settings.SITE_URL.rstrip("/") + reverse("war_public", args=[campaign.war_token])


# --- what the campaign tells: its signals' receivers --------------------------------------------


def post(campaign: Campaign, kind: str, text: str, *, now: datetime | None = None):
    """Write the post (in the caller's transaction) and, with a broker, have the worker post it
    once the transaction commits; None when the campaign has no channel."""
    if not hook(campaign):
        return None
    row = ClubPost.objects.create(
        # one line: a name written before the check could hold a line break (docs/security.md)
        campaign=campaign,
        kind=kind,
        text=one_line(text),
        next_try=now or timezone.now(),
    )
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        # Robust: with the broker down the post waits for the sweep.
        queue.on_commit(DELIVER_POST, row.id, robust=True)
    return row


def _labels(campaign: Campaign, seats) -> dict[str, str]:
    seats = list(campaign.seats.all()) if seats is None else seats
    return {s.power: s.label for s in seats if s.power}


def _safely(receiver):
    """A receiver runs in the transaction of the change it hears of (a resolution): in a
    savepoint, and a failure of its own is logged, never the resolution's."""

    @functools.wraps(receiver)
    def wrapper(*args, **kwargs) -> None:
        try:
            with transaction.atomic():
                receiver(*args, **kwargs)
        except (DatabaseError, LookupError, ValueError, TypeError, AttributeError):
            logger.exception("the club's channel could not write its post")

    return wrapper


@_safely
def on_version_stored(sender, *, campaign: Campaign, latest, seats=None, **kwargs) -> None:
    """``campaign.signals.version_stored``: the campaign started, or phases resolved."""
    if not hook(campaign):
        return
    if latest is None:
        post(campaign, "start", f"{campaign.name} has begun: the deployment is open.")
        return
    resolved = (
        PhaseWindow.objects.filter(
            campaign=campaign, status=WindowStatus.RESOLVED, version__number__lt=latest.number
        )
        .order_by("-version__number")
        .values_list("version__number", flat=True)
        .first()
    )
    since = -1 if resolved is None else resolved
    made = list(
        StateVersion.objects.filter(campaign=campaign, number__gt=since, number__lte=latest.number)
        .order_by("number")
        .values_list("turn", "resolved_phase")
    )
    labels = _labels(campaign, seats)
    played = Event.objects.filter(
        campaign=campaign,
        kind="caretaker",
        version__number__gt=since,
        version__number__lte=latest.number,
    ).values_list("data", flat=True)
    caretaker = sorted({labels.get((d or {}).get("seat", ""), "") for d in played} - {""})
    text = phase_text(
        campaign.name,
        made[0][0] if made else latest.turn,
        [phase for _turn, phase in made],
        latest.phase,
        caretaker,
        next_turn=latest.turn,
        ended=Campaign.objects.filter(id=campaign.id, status=CampaignStatus.ENDED).exists(),
    )
    post(campaign, "phase", text)


@_safely
def on_told(sender, *, notices, campaign_id=None, **kwargs) -> None:
    """``campaign.signals.told``: of the emails, only a battle's date is news for the club."""
    for kind, ids in notices:
        if kind == "battle" and ids.get("battle_kind") == "date-set":
            battle = Battle.objects.select_related("campaign").filter(id=ids["battle_id"]).first()
            if battle is None or battle.fight_on is None or not hook(battle.campaign):
                continue
            when = timezone.localtime(battle.fight_on, ZoneInfo(battle.campaign.time_zone))
            post(
                battle.campaign, "battle-date", battle_text(battle.campaign.name, battle.turn, when)
            )


def caretaker_text(name: str, label: str, style: str) -> str:
    """The post when a seat is handed to the caretaker: who and how, not why nor till when."""
    return f"{name}: the {label} is now played by the caretaker ({style})."


@_safely
def on_action_saved(sender, *, instance: OrganiserAction, created: bool, raw=False, **kwargs):
    """``post_save`` of the organiser's log: a seat handed to the caretaker is news for the
    club (the log, which every player reads, says it too; taking it back is not posted)."""
    if not created or raw or instance.kind != OrganiserActionKind.CARETAKER:
        return
    data = instance.data if isinstance(instance.data, dict) else {}
    style = str(data.get("style") or "")
    if not style or not hook(instance.campaign):
        return
    seat = Seat.objects.filter(campaign_id=instance.campaign_id, code=data.get("seat")).first()
    if seat is not None:
        post(
            instance.campaign,
            "caretaker",
            caretaker_text(instance.campaign.name, seat.label, style),
            now=instance.created,
        )


@_safely
def on_campaign_ended(sender, *, campaign: Campaign, **kwargs) -> None:
    """``campaign.signals.campaign_ended``: the season is over; its victory points (public,
    12) and the public link of *The war* if the organiser has given one already."""
    if not hook(campaign):
        return
    latest = campaign.versions.only("state").order_by("-number").first()
    points = ((latest.state if latest else None) or {}).get("victory_points") or {}
    labels = _labels(campaign, None)
    vps = sorted(
        ((labels.get(power, power), int(vp)) for power, vp in points.items()),
        key=lambda pair: (-pair[1], pair[0]),
    )
    post(campaign, "season-end", season_end_text(campaign.name, vps, war_link(campaign)))


@_safely
def on_war_public(sender, *, campaign: Campaign, **kwargs) -> None:
    """``seasons.signals.war_made_public``: the organiser gave *The war* a public link."""
    link = war_link(campaign)
    if link and hook(campaign):
        post(campaign, "war-public", f"{campaign.name}: the whole war is public: {link}")


# --- delivery: the task and the sweep -------------------------------------------------------------


def payload(text: str) -> dict[str, str]:
    """What Discord (``content``), Slack and Matrix-hookshot (``text``) read."""
    return {"content": text, "text": text}


def deliver(post_id: int, *, now: datetime) -> bool:
    """Try to post ``post_id`` once (if it is due and no one else is trying it); whether it
    was posted. A failure waits for its next try, or after the last one is dropped and written
    in the organiser's log. Never raises for the hook's sake."""
    claimed = ClubPost.objects.filter(
        id=post_id, status=PostStatus.PENDING, next_try__lte=now
    ).update(next_try=now + LEASE)
    if not claimed:
        return False  # posted, dropped, not due, or another worker has it
    row = ClubPost.objects.select_related("campaign").get(id=post_id)
    url = hook(row.campaign)
    if not url:
        ClubPost.objects.filter(id=row.id).update(status=PostStatus.DROPPED, error="switched off")
        return False
    try:
        answer = outbound.post(
            url, json=payload(row.text), deadline=float(settings.CLUB_HOOK_TIMEOUT)
        )
    except Exception as exc:  # refused, timed out, unreachable, or anything else: this post
        # The exception's kind, never its text: requests' errors name the URL, and the hook's
        # address is its password (the log is read by whoever runs the server, not the club).
        logger.info("club post %s: %s (%s)", row.id, outbound.outcome(exc), type(exc).__name__)
        _failed(row, outbound.outcome(exc), now=now)
        return False
    if not 200 <= answer.status_code < 300:  # a redirect is not followed: not posted either
        _failed(row, outbound.outcome(answer), now=now)
        return False
    ClubPost.objects.filter(id=row.id).update(
        status=PostStatus.SENT, sent_at=now, tries=row.tries + 1, error=""
    )
    return True


def _failed(row: ClubPost, error: str, *, now: datetime) -> None:
    tries = row.tries + 1
    logger.info("club post %s failed (try %s of %s): %s", row.id, tries, TRIES, error)
    if tries < TRIES:
        ClubPost.objects.filter(id=row.id).update(
            tries=tries, error=error, next_try=now + BACKOFF[tries - 1]
        )
        return
    if ClubPost.objects.filter(id=row.id, status=PostStatus.PENDING).update(
        tries=tries, error=error, status=PostStatus.DROPPED
    ):
        log(
            row.campaign,
            None,
            OrganiserActionKind.OPTIONS,
            f"The club's channel did not answer after {TRIES} tries; this post was dropped: "
            f"“{row.text}”",
            now=now,
            club_post=row.id,
        )


def deliver_due(*, now: datetime) -> int:
    """The sweep: every post due (new ones without a broker, and the tries again); how many
    were posted."""
    due = ClubPost.objects.filter(status=PostStatus.PENDING, next_try__lte=now).order_by("id")
    return sum(deliver(post_id, now=now) for post_id in due.values_list("id", flat=True)[:50])


def recent(campaign: Campaign, count: int = 5) -> list[ClubPost]:
    """The last posts, for the organiser's board."""
    return list(campaign.club_posts.all()[:count])
