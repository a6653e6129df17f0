"""What the orders page takes (issue 43): an order with no step is refused at save (the draft
kept); an order the army's march pool cannot pay for is refused at save, naming the pool
(6.2, 6.2.1); the tap map numbers only the hexes the force can enter; a unit tapped again
starts its line anew.

The Russian refusal: a load test of copies of the demo (``loaddemo``; a copy imported with new
codes from its season file; seats present) found, in 2 of 8 set-ups, the Ready check refusing
every Russian march and stand order. The cause was no cache nor the copy: the Russians roll
one die less one for their marches (6.1), so one demo in six has 0 marches for Russia and
Sweden together (6.2.1), and every march of theirs is refused by the rules; the stand orders
(no step) were refused as every seat's are ("gives no line of march"). The page let them be
written all the same and refused them only at Ready. Now they are refused at save with the
reason, and Ready takes the orders the pool can pay for."""

import json

import pytest
from django.utils import timezone

from campaign.models import Campaign, StateVersion
from campaign.services import gameplay, viewcache
from maps.core.wording import march_in_words
from orders.forms import march_preview, next_steps
from orders.models import OrderSheet
from orders.pages import unit_position
from seasons.services.seasonfile import season_body
from seasons.services.seasonimport import import_season
from tests.orders.test_play_fixtures import client_for, in_phase, url
from tests.standing import load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def copy(settings) -> Campaign:
    """A copy of the demo imported with new codes (its seats present), as the load test made."""
    demo = load_demo(settings)
    now = timezone.now()
    body = season_body(demo, with_secrets=False, now=now)
    campaign = import_season(body, organiser=demo.organiser, now=now, new_code=True).campaign
    campaign.seats.update(absent_until=None)
    return campaign


def _russian_marches(campaign: Campaign, n: int) -> None:
    """The copy's march allocation as the dice might give it (6.1: Russia 1 die - 1)."""
    version = campaign.open_window().version
    state = StateVersion.objects.values_list("state", flat=True).get(id=version.id)
    state = json.loads(state) if isinstance(state, str) else state
    state["marches"]["russia"] = n
    StateVersion.objects.filter(id=version.id).update(state=state)
    viewcache.forget()


def _one_step(campaign, seat, unit: str) -> str:
    """A first step the unit can make (the tap map's first number)."""
    view = viewcache.seat_view(seat, campaign.open_window().version)
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    start = unit_position(view, unit)[0]
    preview = march_preview(view, hexmap, gameplay.rule_settings(campaign), start, "")
    return str(next_steps(hexmap, start, preview, view)[0][0])


def _save(c, seat, unit: str, path: str):
    return c.post(
        url("save_march", seat), in_phase(seat, {"unit": unit, "path": path, "marches": "1"})
    )


def _draft(seat) -> list:
    sheet = OrderSheet.objects.filter(seat=seat, window=seat.campaign.open_window()).first()
    return sheet.draft.get("march", []) if sheet is not None else []


def test_with_no_russian_march_the_page_says_so_at_save_and_ready_takes_no_orders(
    copy, django_capture_on_commit_callbacks
):
    _russian_marches(copy, 0)
    russia = copy.seats.get(power="russia")
    c = client_for(russia.user)
    r = _save(c, russia, "apraxin", _one_step(copy, russia, "apraxin"))
    page = r.content.decode()
    assert r.status_code == 400
    assert "the Russian and Swedish forces share 0 marches this turn" in page
    assert _draft(russia) == []
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post(url("ready", russia), in_phase(russia))
    assert r.status_code == 302
    assert OrderSheet.objects.get(seat=russia, window__version__number=3).ready


def test_the_russian_marches_the_dice_gave_are_taken_the_next_refused_at_save(
    copy, django_capture_on_commit_callbacks
):
    _russian_marches(copy, 2)
    russia = copy.seats.get(power="russia")
    c = client_for(russia.user)
    # Sweden marches on Russian marches (6.2.1): Hamilton's order takes one of the two
    for unit in ("hamilton", "apraxin"):
        assert _save(c, russia, unit, _one_step(copy, russia, unit)).status_code == 302
    refused = _save(c, russia, "saltykov", _one_step(copy, russia, "saltykov"))
    assert refused.status_code == 400
    assert "share 2 marches this turn (6.2, 6.2.1; 2 given to other orders)" in (
        refused.content.decode()
    )
    # replacing an order of its own is no new march
    r = _save(c, russia, "apraxin", _one_step(copy, russia, "apraxin"))
    assert r.status_code == 302
    assert [o["unit"] for o in _draft(russia)] == ["hamilton", "apraxin"]
    with django_capture_on_commit_callbacks(execute=True):
        c.post(url("ready", russia), in_phase(russia))
    sheet = OrderSheet.objects.get(seat=russia, window__version__number=3)
    assert sheet.ready  # every order the pool pays for is taken


def test_an_order_with_no_step_is_refused_and_the_draft_kept(copy):
    _russian_marches(copy, 5)
    russia = copy.seats.get(power="russia")
    c = client_for(russia.user)
    assert _save(c, russia, "apraxin", _one_step(copy, russia, "apraxin")).status_code == 302
    before = _draft(russia)
    r = _save(c, russia, "saltykov", "")
    assert r.status_code == 400
    assert "An order needs at least one step" in r.content.decode()
    assert _draft(russia) == before


def test_the_tap_map_numbers_only_hexes_the_force_can_enter(copy):
    russia = copy.seats.get(power="russia")
    view = viewcache.seat_view(russia, copy.open_window().version)
    hexmap = gameplay.load_campaign_map(copy.map_name)
    settings = gameplay.rule_settings(copy)
    for unit in ("apraxin", "saltykov", "fermor", "hamilton"):
        start = unit_position(view, unit)[0]
        preview = march_preview(view, hexmap, settings, start, "")
        for code, _name, there in next_steps(hexmap, start, preview, view):
            step = march_preview(view, hexmap, settings, start, str(code))
            assert step.valid, (unit, there, step.message)
        # a neighbour it cannot enter is not numbered (Saltykov's West is impassable)
        every = {h for _c, _n, h in next_steps(hexmap, start)}
        numbered = {h for _c, _n, h in next_steps(hexmap, start, preview, view)}
        for h in every - numbered:
            code = next(c for c, _n, x in next_steps(hexmap, start) if x == h)
            assert not march_preview(view, hexmap, settings, start, str(code)).valid


def test_a_unit_tapped_again_starts_its_line_anew(copy):
    _russian_marches(copy, 5)
    russia = copy.seats.get(power="russia")
    c = client_for(russia.user)
    step = _one_step(copy, russia, "apraxin")
    _save(c, russia, "apraxin", step)
    page = c.get(url("orders", russia), {"unit": "apraxin"}).content.decode()
    view = viewcache.seat_view(russia, copy.open_window().version)
    hexmap = gameplay.load_campaign_map(copy.map_name)
    words = march_in_words(hexmap, unit_position(view, "apraxin")[0], step)
    assert f"Apraxin&#x27;s order: {words}. Tapping it starts its line of march anew" in page
    assert 'name="path" value=""' in page  # nothing added to the saved line
