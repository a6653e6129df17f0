# ruff: noqa: F811 (the browser fixture and the played season are imported)
"""The players' records on the organiser's invitation page, on a phone: Debian's chromium at
390x844; nothing overflows. ``docs/screenshots/roster-invitations.png`` with
``DGK_SCREENSHOTS=1``."""

import os
from pathlib import Path

import pytest
from django.utils import timezone

from campaign.services import setup
from club.services import channel
from tests.browser.test_play_phone import browser, shot, sign_in  # noqa: F401
from tests.club.test_roster import played  # noqa: F401
from tests.standing import NO_MAP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "roster-invitations.png"


def test_the_roster_fits_a_phone_on_the_invitation_page(
    browser, live_server, played, organiser, player, other, now
):
    from selenium.webdriver.common.by import By

    points = {"austria": 3200, "empire": 800, "france": 3000, "hanover": 1500, "prussia": 3200,
              "russia": 1500, "sweden": 200}  # fmt: skip
    nxt = setup.create_campaign(
        organiser, name="Saxony 1758", players=2, now=now, army_points=points, map_name=NO_MAP
    )
    seats = list(nxt.seats.filter(reserve=False))
    seats[0].user = other
    seats[0].save()
    setup.invite(seats[1], player.email, now=now)
    sign_in(browser, live_server, organiser)
    browser.get(live_server.url + f"/campaigns/{nxt.code}/setup/")
    section = browser.find_element(By.ID, "club-roster")
    assert "fritz" in section.text and "maria" in section.text
    assert "Bohemia 1757, Prussian player: met 2 of 2" in section.text
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, width
    widest = browser.execute_script(
        "return Math.max(...[...document.querySelectorAll('#club-roster *')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= 390, widest
    browser.execute_script("document.getElementById('club-roster').scrollIntoView()")
    shot(browser, "roster-invitations")
    if os.getenv("DGK_SCREENSHOTS") == "1":
        DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(DOCS_SHOT))


def test_the_channel_and_the_record_fit_a_phone(browser, live_server, played, organiser, player):
    from selenium.webdriver.common.by import By

    channel.set_hook(
        played, organiser, "https://discord.com/api/webhooks/1/" + "x" * 60, now=timezone.now()
    )
    channel.post(played, "phase", "Bohemia 1757, April I (turn 1): " + "a long post " * 20)
    for user, address, part in (
        (organiser, f"/campaigns/{played.code}/organiser/", "club-hook"),
        (player, "/club/record/", "content"),
    ):
        browser.delete_all_cookies()
        sign_in(browser, live_server, user)
        browser.get(live_server.url + address)
        assert browser.find_elements(By.ID, part) or part == "content"
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, (address, width)
    assert "Bohemia 1757" in browser.find_element(By.TAG_NAME, "main").text
