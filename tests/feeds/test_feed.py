"""The calendar feeds (docs/calendar.md): read back with ``icalendar``, as a calendar app would."""

from datetime import UTC, timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from icalendar import Calendar

from battles.models import Battle
from battles.services import dates
from campaign.models import PhaseWindow
from campaign.services import organiser as organiser_service
from feeds.services import tokens

pytestmark = pytest.mark.django_db


def make_battle(campaign, battle_id, sides, city, *, turn=1) -> Battle:
    """A battle record as the engine's set-up leaves it, with only what the feed reads."""
    return Battle.objects.create(
        campaign=campaign,
        battle_id=battle_id,
        hex=battle_id.split("-")[1],
        turn=turn,
        setup={
            "sides": {
                side: {"points_by_country": dict.fromkeys(armies, 100)}
                for side, armies in sides.items()
            },
            "city": {"name": city, "hexes_away": 0},
        },
    )


@pytest.fixture
def kolin(campaign, organiser, now):
    """Prussia against Austria, fought on a club night."""
    battle = make_battle(
        campaign, "t1-1010", {"prussian": ["prussia"], "austrian": ["austria"]}, "Kolin"
    )
    return dates.set_date(battle, organiser, now + timedelta(days=3, hours=10), now=now)


@pytest.fixture
def zorndorf(campaign, organiser, now):
    """Hanover against Russia: the Prussian seat is not in it."""
    battle = make_battle(
        campaign, "t1-2020", {"prussian": ["hanover"], "austrian": ["russia"]}, "Zorndorf"
    )
    return dates.set_date(battle, organiser, now + timedelta(days=5, hours=10), now=now)


def read(client, feed):
    response = client.get(tokens.links(feed).https.removeprefix(settings.SITE_URL))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def events(cal) -> dict[str, dict]:
    """The events by summary: their start, end, uid, sequence, url and text."""
    out = {}
    for e in cal.events:
        out[str(e["SUMMARY"])] = {
            "start": e["DTSTART"].dt,
            "end": e["DTEND"].dt if "DTEND" in e else None,
            "uid": str(e["UID"]),
            "sequence": int(e["SEQUENCE"]),
            "modified": e["LAST-MODIFIED"].dt,
            "stamp": e["DTSTAMP"].dt,
            "url": str(e["URL"]),
            "text": e.to_ical().decode(),
        }
    return out


def window(campaign) -> PhaseWindow:
    return campaign.open_window()


def test_it_serves_the_seats_open_deadline_in_utc(client, campaign, prussia, player):
    deadline = window(campaign).deadline
    assert deadline is not None
    cal = read(client, tokens.renew_seat(prussia, player))
    assert str(cal["VERSION"]) == "2.0"
    assert "Prussia" in str(cal["X-WR-CALNAME"])
    # calendar apps are asked to read it again every hour
    assert cal["REFRESH-INTERVAL"].to_ical() == b"PT1H"
    assert "X-PUBLISHED-TTL:PT1H" in cal.to_ical().decode()
    [event] = events(cal).values()
    assert event["start"] == deadline
    assert event["start"].utcoffset() == timedelta(0) and event["start"].tzinfo is not None
    assert event["end"] is None  # a deadline is a moment
    assert event["url"] == settings.SITE_URL + reverse("orders:dashboard", args=[prussia.code])
    assert "deployment orders due" in next(iter(events(cal)))


def test_a_deadline_the_seat_does_not_owe_is_not_in_its_calendar(client, campaign, prussia, player):
    w = window(campaign)
    w.owing = [c for c in w.owing if c != str(prussia.code)]
    w.save(update_fields=["owing"])
    assert events(read(client, tokens.renew_seat(prussia, player))) == {}


def test_an_extension_moves_the_event_under_the_same_uid(
    client, campaign, prussia, player, organiser, now
):
    feed = tokens.renew_seat(prussia, player)
    [before] = events(read(client, feed)).values()
    [again] = events(read(client, feed)).values()
    assert again["sequence"] == before["sequence"]  # read twice, nothing moved: one revision

    organiser_service.extend_deadline(campaign, organiser, 24, now=now)

    [after] = events(read(client, feed)).values()
    assert after["uid"] == before["uid"]
    assert after["start"] == before["start"] + timedelta(hours=24)
    assert after["sequence"] == before["sequence"] + 1
    assert after["modified"] >= before["modified"] and after["stamp"] == after["modified"]
    assert after["modified"].tzinfo is not None


def test_a_pause_takes_the_deadline_out_and_the_resume_puts_it_back_moved(
    client, campaign, prussia, player, organiser, now
):
    feed = tokens.renew_seat(prussia, player)
    [before] = events(read(client, feed)).values()
    organiser_service.pause(campaign, organiser, now=now)
    assert events(read(client, feed)) == {}
    organiser_service.resume(campaign, organiser, now=now + timedelta(hours=5))
    [after] = events(read(client, feed)).values()
    assert after["uid"] == before["uid"]
    assert after["start"] == before["start"] + timedelta(hours=5)
    assert after["sequence"] == before["sequence"] + 1


def test_a_battle_night_has_its_place_time_and_link(client, kolin, prussia, player):
    cal = read(client, tokens.renew_seat(prussia, player))
    [night] = [e for e in cal.events if "Kolin" in str(e["SUMMARY"])]
    assert night["DTSTART"].dt == kolin.fight_on
    assert night["DTSTART"].dt.utcoffset() == timedelta(0)
    assert night["DTEND"].dt > night["DTSTART"].dt
    assert "Kolin" in str(night["LOCATION"])
    assert str(night["URL"]) == settings.SITE_URL + reverse(
        "battles:battle", args=[kolin.campaign.code, kolin.code]
    )


def test_moving_a_battle_night_keeps_its_uid(client, kolin, prussia, player, organiser, now):
    feed = tokens.renew_seat(prussia, player)
    [first] = [e for e in read(client, feed).events if "Kolin" in str(e["SUMMARY"])]
    later = (now + timedelta(days=10)).astimezone(UTC)
    dates.set_date(kolin, organiser, later, now=now)
    [moved] = [e for e in read(client, feed).events if "Kolin" in str(e["SUMMARY"])]
    assert str(moved["UID"]) == str(first["UID"])
    assert moved["DTSTART"].dt == later
    assert int(moved["SEQUENCE"]) == int(first["SEQUENCE"]) + 1


def test_a_seat_sees_no_other_seats_battle_nor_deadline(
    client, campaign, kolin, zorndorf, prussia, austria, hanover, player, ally
):
    w = window(campaign)
    w.owing = [str(austria.code)]
    w.save(update_fields=["owing"])
    response = client.get(
        tokens.links(tokens.renew_seat(prussia, player)).https.removeprefix(settings.SITE_URL)
    )
    text = response.content.decode()
    assert "Kolin" in text
    assert "Zorndorf" not in text and str(zorndorf.code) not in text
    assert "orders due" not in text and str(austria.code) not in text
    assert "Austria" not in text.replace("Austrian", "")  # no other seat is named
    # Hanover's own calendar has its battle, and not Prussia's.
    hanover_text = str(read(client, tokens.renew_seat(hanover, ally)).to_ical())
    assert "Zorndorf" in hanover_text and "Kolin" not in hanover_text


def test_the_organisers_calendar_has_the_whole_campaign(
    client, campaign, kolin, zorndorf, prussia, player
):
    cal = read(client, tokens.renew_organiser(campaign))
    found = events(cal)
    assert {s for s in found if "Kolin" in s or "Zorndorf" in s} and len(found) == 3
    [deadline] = [e for s, e in found.items() if "deadline" in s]
    assert deadline["start"] == window(campaign).deadline
    for label in ("Prussia", "Austria", "Hanover"):
        assert label in deadline["text"]
    assert deadline["url"] == settings.SITE_URL + reverse("organiser_board", args=[campaign.code])
    # the same event of a seat's calendar has a UID of its own: apps never mix the two
    seat_feed = tokens.renew_seat(prussia, player)
    seat_uids = {e["uid"] for e in events(read(client, seat_feed)).values()}
    assert not seat_uids & {e["uid"] for e in found.values()}


def zorndorf_text(client, campaign) -> str:
    cal = read(client, tokens.renew_organiser(campaign))
    [event] = [e for e in cal.events if "Zorndorf" in str(e["SUMMARY"])]
    return str(event["DESCRIPTION"])


def test_an_organiser_who_plays_is_not_told_who_fights(client, campaign, zorndorf):
    assert "Hanoverian player" in zorndorf_text(client, campaign)  # the umpire is
    campaign.umpire_plays = True
    campaign.save(update_fields=["umpire_plays"])
    text = zorndorf_text(client, campaign)  # still listed: the board lists it too
    assert "Hanoverian" not in text and "Russian" not in text


@pytest.mark.parametrize("token", ["nonsense", "x" * 43, "a" * 300])
def test_a_bad_address_is_404_with_a_clear_message(client, campaign, token):
    response = client.get(f"/calendar/{token}.ics")
    assert response.status_code == 404
    assert "No calendar at this address" in response.content.decode()


def test_the_feed_answers_head_and_refuses_a_post(client, campaign, prussia, player):
    url = tokens.links(tokens.renew_seat(prussia, player)).https.removeprefix(settings.SITE_URL)
    assert client.head(url).status_code == 200
    assert client.post(url).status_code == 405


def test_a_replaced_players_address_stops_answering(client, campaign, prussia, player, outsider):
    url = tokens.links(tokens.renew_seat(prussia, player)).https.removeprefix(settings.SITE_URL)
    prussia.user = outsider
    prussia.save(update_fields=["user"])
    assert client.get(url).status_code == 404


def test_the_organisers_address_stops_answering_when_the_campaign_changes_hands(
    client, campaign, outsider
):
    url = tokens.links(tokens.renew_organiser(campaign)).https.removeprefix(settings.SITE_URL)
    campaign.organiser = outsider
    campaign.save(update_fields=["organiser"])
    assert client.get(url).status_code == 404


def test_the_links_are_made_from_the_sites_address(settings, campaign, prussia, player):
    settings.SITE_URL = "https://dgk.example.org"
    feed = tokens.renew_seat(prussia, player)
    links = tokens.links(feed)
    assert links.https == f"https://dgk.example.org/calendar/{feed.token}.ics"
    assert links.webcal == f"webcal://dgk.example.org/calendar/{feed.token}.ics"
    assert len(feed.token) >= 43  # 256 bits of secrets.token_urlsafe
