"""Noninterference at the end of a season (issue 42, docs/season-end.md): once the campaign is
over the fog lifts on *The war* and its book, and nowhere else.

The campaign: the demo (``manage.py loaddemo``: A Prussia, B France), ended by its organiser
with the project's own service (``campaign.services.organiser.end_campaign``, as the organiser's
*End the campaign* does) inside each world, so that the campaign-over email is one of the
channels. The secret: points moved between two of B's leaders that no force of A can find
(``unfound_pair``; the army's total, public by 3, unchanged), in the latest state version or
in the first version that has them (the deployment), an earlier one. Seen as A
(``SeatObserver``), the channels that differ must all be season-end pages, and at least one
must differ: the fog has lifted there (the control).
"""

from __future__ import annotations

import copy
from urllib.parse import urlsplit

import pytest
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone

from campaign.models import CampaignStatus, StateVersion
from campaign.services import organiser as organiser_service
from tests.fog.channels import SeatObserver
from tests.fog.harness import RESULTS, differences, short_diff, two_worlds
from tests.fog.test_noninterference import Game, unfound_pair

pytestmark = pytest.mark.django_db

# docs/season-end.md, "What is shown, and when": after the end every member sees
# `/campaigns/<code>/war/` and `/campaigns/<code>/war/history.json` (The war and its map document,
# with its charts, every phase's orders and rolls), the book of the season
# (`/campaigns/<code>/war/book-a4.pdf`, `book-letter.pdf`), and, under "The public link", the same
# page, map document and book at `/war/<token>/...`; "every other page, fragment, picture, email:
# unchanged: each seat's own view". Their URL names (seasons/urls.py):
SEASON_END_PAGES = {
    "war",
    "war_history",
    "war_book",
    "war_public",
    "war_public_history",
    "war_public_book",
}
# The same table's campaign-over email ("says the fog has lifted and links The war and the
# book"), told by its subject (campaign/services/outgoing.py, "campaign-over").
CAMPAIGN_OVER = b"is over"


def season_end_channel(name: str, one: bytes | None, two: bytes | None) -> bool:
    """Whether the channel is one the doc says shows the whole war after the end."""
    method, _, target = name.partition(" ")
    if method in ("GET", "HX"):
        try:
            return resolve(urlsplit(target).path).view_name in SEASON_END_PAGES
        except Resolver404:
            return False
    if method == "email":
        subjects = [(body or b"").split(b"\n", 1)[0] for body in (one, two)]
        return all(CAMPAIGN_OVER in s for s in subjects)
    return False


def assert_only_season_end_differs(
    one: dict[str, bytes], two: dict[str, bytes], *, label: str
) -> list[str]:
    """Every differing channel is a season-end page, and at least one differs (the control).
    Records the comparison in the harness's table; returns the differing channels."""
    differing = differences(one, two)
    leaks = [n for n in differing if not season_end_channel(n, one.get(n), two.get(n))]
    channels = len(one.keys() | two.keys())
    if leaks:
        result = f"LEAK: {len(leaks)} channels outside the season-end pages differ"
    elif differing:
        result = f"only the season-end pages differ ({len(differing)})"
    else:
        result = "no difference (the fog did not lift)"
    RESULTS.append((label, channels, result))
    if leaks:
        shown = "\n\n".join(short_diff(n, one.get(n), two.get(n)) for n in leaks[:5])
        raise AssertionError(
            f"{label}: {len(leaks)} of {channels} channels outside the season-end pages "
            f"differ: {leaks}\nThe first:\n{shown}"
        )
    assert differing, f"{label}: no season-end page shows the difference ({channels} channels)"
    return differing


@pytest.mark.parametrize("where", ["latest", "earlier"])
def test_b_force_points_after_the_end(demo, where, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    seats = {s.power: s for s in demo.seats.select_related("user")}
    game = Game("demo", demo, seats["prussia"], seats["france"], seats["austria"])
    big, small = unfound_pair(game)
    versions = list(demo.versions.order_by("number"))
    if where == "latest":
        version = versions[-1]
    else:  # the first version where the two stand on the map (the deployment's): not the latest
        version = next(v for v in versions if small in (v.state.get("leaders") or {}))
        assert version.number < versions[-1].number, [v.number for v in versions]
    observe = SeatObserver(demo, game.a.power)
    # The war's map document of every version, as its Earlier and Later walk them (the crawler
    # asks for the first, middle and latest only; the page's script asks for the others).
    history = reverse("war_history", args=[demo.code])
    observe.seeds += [("war_history", f"{history}?version={v.number}") for v in versions]

    def world(which):
        if which == "two":
            state = copy.deepcopy(version.state)
            moved = state["leaders"][small]["points"] // 2
            assert moved > 0
            state["leaders"][big]["points"] += moved
            state["leaders"][small]["points"] -= moved
            StateVersion.objects.filter(id=version.id).update(state=state)
        with capture(execute=True):
            organiser_service.end_campaign(demo, demo.organiser, now=timezone.now())
        demo.refresh_from_db()
        assert demo.status == CampaignStatus.ENDED

    one, two = two_worlds(world, observe)
    war = reverse("war", args=[demo.code])
    for seen in (one, two):  # the season is over for A in both worlds: The war, the email
        assert seen[f"GET {war}"].startswith(b"200 "), seen[f"GET {war}"][:300]
        assert any(
            n.startswith("email") and CAMPAIGN_OVER in b.split(b"\n", 1)[0] for n, b in seen.items()
        ), [n for n in seen if n.startswith("email")]
    differing = assert_only_season_end_differs(
        one, two, label=f"B's force's points ({where} version) × ended season × after the end"
    )
    print(f"\n{where}: {len(differing)} of {len(one)} channels differ: {differing}")
