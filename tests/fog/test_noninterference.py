# ruff: noqa: F811 (pytest fixtures imported from tests.orders.test_play_fixtures)
"""Noninterference (issue 42): two worlds that differ in one secret of seat B look the same to
seat A, an enemy of B, on every channel (``tests.fog.channels.SeatObserver``); each test's
control, where A's own order differs instead, shows a difference.

The campaigns: the demo (``manage.py loaddemo``: A Prussia, B France, C Austria, every seat
but Prussia away, so the phase resolves when A presses Ready) and the three-player campaign of
the new-campaign form (``tests.fog.scenarios``: A the Prussian seat, B the Austrian, C the
French), both at the march phase of turn 1; the deployment secret on a campaign whose
deployment is open (the five-seat campaign of ``tests.orders.test_play_fixtures``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Event, Seat, StateVersion
from campaign.services import gameplay
from campaign.services.resolution import resolve_due_phase
from letters.services import press
from maps.core.hexgrid import distance, hex_id, parse_hex_id, walk
from orders.models import OrderSheet
from rules.armies import CLOSED_NEUTRALS
from rules.leaders import leader
from tests.fog import scenarios
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, clear_caches, two_worlds
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_seat,
    in_phase,
    play_map,
    rules_campaign,
)
from tests.standing import ally, other, player  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

MAIL_ORDER = "Schwerin 4\n"  # A's mail order in every world (its answer is a channel)


@dataclass
class Game:
    """A campaign at its march phase and its three roles."""

    name: str
    campaign: Campaign
    a: Seat
    b: Seat
    c: Seat

    def lead(self, seat: Seat) -> str:
        """The seat's first leader (its army's commander)."""
        return seat.leaders[seat.armies[0]][0]

    def state(self) -> dict:
        return self.campaign.latest_version().state

    def observer(self) -> SeatObserver:
        return SeatObserver(self.campaign, self.a.power, mail_order=MAIL_ORDER)


@pytest.fixture(params=["demo", "3p"])
def game(request, organiser, django_capture_on_commit_callbacks) -> Game:
    if request.param == "demo":
        campaign = request.getfixturevalue("demo")
        seats = {s.power: s for s in campaign.seats.select_related("user")}
        return Game("demo", campaign, seats["prussia"], seats["france"], seats["austria"])
    scene = scenarios.march_phase(organiser, django_capture_on_commit_callbacks)
    return Game("3-player", scene.campaign, scene.a, scene.b, scene.c)


# ---- what the seats do -------------------------------------------------------------------------


def save_march(seat: Seat, unit: str, path: str) -> None:
    """A march order saved on the seat's orders page (a draft: nothing is submitted)."""
    r = client_for(seat.user).post(
        reverse("orders:save_march", args=[seat.code]),
        in_phase(seat, {"unit": unit, "path": path, "marches": 1, "meeting": "hold"}),
    )
    assert r.status_code in (200, 302), r.content.decode()[:500]
    assert OrderSheet.objects.filter(seat=seat, window=seat.campaign.open_window()).exists()


def submitted(seat: Seat, marches: list[dict]) -> None:
    """Orders that reach the resolution without the orders page's Ready check (an email order,
    the caretaker's, the engine's autoplay): the sheet written as they write it, submitted."""
    window = seat.campaign.open_window()
    OrderSheet.objects.update_or_create(
        campaign=seat.campaign, seat=seat, window=window,
        defaults={"draft": {"march": marches}, "ready": True, "submitted_at": timezone.now()},
    )  # fmt: skip


def resolve(game: Game, capture) -> None:
    """Every seat but A that is not away is ready; A presses Ready on its page and the phase
    resolves, with everything queued on commit (emails, pushes, pictures) run."""
    campaign = game.campaign
    window = campaign.open_window()
    before = campaign.latest_version().number
    now = timezone.now()
    for seat in campaign.seats.filter(reserve=False).exclude(id=game.a.id):
        if not seat.is_absent(now) and window.owes(seat):
            sheet, _ = OrderSheet.objects.get_or_create(
                campaign=campaign, seat=seat, window=window, defaults={"draft": {}}
            )
            OrderSheet.objects.filter(id=sheet.id).update(ready=True, submitted_at=now)
    with capture(execute=True):
        r = client_for(game.a.user).post(
            reverse("orders:ready", args=[game.a.code]), in_phase(game.a)
        )
    assert r.status_code == 302, r.content.decode()[:500]
    assert campaign.latest_version().number > before, "A's Ready did not resolve the phase"


def dry_run(game: Game, capture, apply) -> tuple[dict, list[str]]:
    """The state the phase would resolve to after ``apply()``, and the texts of its events, in a
    world rolled back."""
    with transaction.atomic():
        apply()
        with capture(execute=True):
            version = resolve_due_phase(
                game.campaign.open_window().id, now=timezone.now(), force=True
            )
        state = game.state()
        texts = list(Event.objects.filter(version=version).values_list("text", flat=True))
        transaction.set_rollback(True)
    clear_caches()
    return state, texts


STOPS = {  # why a march stops, as the stopped march's event says it
    "its MPs": "too few MPs left",
    "a closed area": "(3.3)",
}


def overlong_march(game: Game, capture, why: str) -> tuple[str, str, str]:
    """A march of one of B's forces past where it stops (``why``: its MPs run out, or the next
    hex is in a closed neutral area, 3.3): (the unit, the path to where it stops, the path that
    goes on beyond). Found by resolving the candidates in worlds rolled back."""
    state = game.state()
    hexmap = gameplay.load_campaign_map(game.campaign.map_name)
    closed = hexmap.hexes_of_areas(CLOSED_NEUTRALS)
    candidates = []  # (unit, direction, steps before the stop)
    for army in game.b.armies:
        for unit in game.b.leaders[army]:
            start = parse_hex_id(state["leaders"][unit]["hex"])
            for d in (4, 1, 5, 2, 3, 6):
                hexes = walk(start, [d] * 12)
                if why == "its MPs":
                    candidates.append((unit, d, None))
                    break
                shut = [k for k, h in enumerate(hexes[:3]) if h in closed]
                if shut:
                    candidates.append((unit, d, shut[0]))
    for unit, d, k in candidates[:8]:
        goes_on = "-".join([str(d)] * 12)
        start = parse_hex_id(state["leaders"][unit]["hex"])
        hexes = [hex_id(h) for h in (start, *walk(start, [d] * 12))]
        after, texts = dry_run(game, capture, lambda u=unit, p=goes_on: submitted(game.b, [{
            "unit": u, "path": p, "marches": 1}]))  # fmt: skip
        stopped = after["leaders"][unit]["hex"]
        said = any(STOPS[why] in t and leader(unit).name in t for t in texts)
        if said and stopped in hexes[:-1] and (k is None or hexes.index(stopped) == k):
            return unit, "-".join([str(d)] * hexes.index(stopped)), goes_on
    raise AssertionError(f"no force of B stops on the way for {why}: {candidates[:8]}")


STEPS: dict[str, str] = {}  # by campaign: the terrain decides, not the dice


def a_step(game: Game, capture) -> str:
    """A one-hex march of A's commander that the orders page accepts at Ready."""
    if game.name in STEPS:
        return STEPS[game.name]
    unit = game.lead(game.a)
    here = game.state()["leaders"][unit]["hex"]
    for d in "415263":
        with transaction.atomic():
            save_march(game.a, unit, d)
            try:
                resolve(game, capture)
                moved = game.state()["leaders"][unit]["hex"] != here
            except AssertionError:  # refused at Ready
                moved = False
            transaction.set_rollback(True)
        clear_caches()
        if moved:
            STEPS[game.name] = d
            return d
    raise AssertionError(f"{unit} cannot march one hex")


def unfound_pair(game: Game) -> tuple[str, str]:
    """Two leaders of one army of B, the farthest from every force of A (no reconnaissance
    reaches them: 8)."""
    leaders = game.state()["leaders"]
    mine = [parse_hex_id(x["hex"]) for x in leaders.values() if x["army"] in game.a.armies]

    def away(key: str) -> int:
        return min(distance(parse_hex_id(leaders[key]["hex"]), h) for h in mine)

    army = max(game.b.armies, key=lambda a: max(away(k) for k in game.b.leaders[a]))
    far = sorted(game.b.leaders[army], key=away, reverse=True)
    assert len(far) >= 2 and away(far[1]) >= 6, far
    return far[0], far[1]


def control(game: Game, capture, *, resolves: bool, label: str, observe) -> None:
    """A's own order differs (A's commander stands, or marches one hex): a difference."""
    unit, step = game.lead(game.a), a_step(game, capture)

    def world(which):
        if which == "two":
            save_march(game.a, unit, step)
        if resolves:
            resolve(game, capture)

    observe.pictures = False  # a control needs one difference, not seconds of drawing
    try:
        one, two = two_worlds(world, observe)
    finally:
        observe.pictures = True
    assert_differs(one, two, label=f"control: A's march × {label}")


# ---- the secrets -------------------------------------------------------------------------------


def test_the_same_world_twice_is_the_same(demo):
    """The harness itself: two worlds with no difference at all compare equal."""
    seats = {s.power: s for s in demo.seats.all()}
    game = Game("demo", demo, seats["prussia"], seats["france"], seats["austria"])
    observe = game.observer()
    one, two = two_worlds(lambda which: None, observe)
    assert observe.crawled >= 100
    assert_same(one, two, label="nothing × demo × march")


def test_b_draft_before_the_deadline(game, django_capture_on_commit_callbacks):
    observe = game.observer()
    unit = game.lead(game.b)

    def world(which):
        save_march(game.b, unit, "4" if which == "one" else "1-1")

    one, two = two_worlds(world, observe)
    label = f"{game.name} × march (draft)"
    assert_same(one, two, label=f"B's draft × {label}")
    control(game, django_capture_on_commit_callbacks, resolves=False, label=label, observe=observe)


# The three-player campaign's B (Austria, the Empire, Russia, Sweden) stands nowhere near a
# closed neutral (Denmark, the United Provinces) at its first march: the demo's France does.
@pytest.mark.parametrize(
    ("game", "why"),
    [("demo", "its MPs"), ("demo", "a closed area"), ("3p", "its MPs")],
    indirect=["game"],
)
def test_b_path_beyond_where_it_stops(game, why, django_capture_on_commit_callbacks):
    """Known leak (issue 42): the enemy's report named the hex the march meant to enter next
    ("...too few MPs left to enter 1731", "...may not enter United Provinces (3.3)")."""
    capture = django_capture_on_commit_callbacks
    unit, stops, goes_on = overlong_march(game, capture, why)
    observe = game.observer()

    def world(which):
        path = stops if which == "one" else goes_on
        submitted(game.b, [{"unit": unit, "path": path, "marches": 1}])
        resolve(game, capture)

    one, two = two_worlds(world, observe)
    label = f"{game.name} × march (resolved)"
    assert_same(one, two, label=f"B's path past its stop ({why}) × {label}")
    control(game, capture, resolves=True, label=label, observe=observe)


def test_strength_of_a_b_force_a_has_not_found(game, django_capture_on_commit_callbacks):
    """Points moved between two of B's leaders (the army's total, public by 3, unchanged)."""
    capture = django_capture_on_commit_callbacks
    big, small = unfound_pair(game)
    observe = game.observer()
    version = game.campaign.latest_version()

    def world(which):
        if which == "two":
            state = version.state
            moved = state["leaders"][small]["points"] // 2
            assert moved > 0
            state["leaders"][big]["points"] += moved
            state["leaders"][small]["points"] -= moved
            StateVersion.objects.filter(id=version.id).update(state=state)
        resolve(game, capture)

    one, two = two_worlds(world, observe)
    label = f"{game.name} × march (resolved)"
    assert_same(one, two, label=f"B's unfound force's points × {label}")
    control(game, capture, resolves=True, label=label, observe=observe)


@pytest.mark.parametrize("channel", ["open", "courier"])
def test_a_letter_between_b_and_c(game, channel, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    campaign = game.campaign
    campaign.options = {**(campaign.options or {}), "press": channel}
    campaign.save(update_fields=["options"])
    observe = game.observer()

    def world(which):
        body = "We march on Dresden." if which == "one" else "Hold the Elbe at all costs, C."
        with capture(execute=True):
            press.send(game.b, [game.c.id], body, now=timezone.now())
        resolve(game, capture)

    one, two = two_worlds(world, observe)
    label = f"{game.name} × march, {channel} letters (resolved)"
    assert_same(one, two, label=f"B's letter to C × {label}")
    control(game, capture, resolves=True, label=label, observe=observe)


def test_b_deployment_before_it_is_revealed(rules_campaign):
    """At deployment (3): B (Austria) has deployed and pressed nothing; its draft differs."""
    campaign = rules_campaign
    a, b = (campaign.seats.select_related("user").get(power=p) for p in ("prussia", "austria"))
    observe = SeatObserver(campaign, a.power)
    key = b.leaders["austria"][0]
    deploy = reverse("orders:deploy", args=[b.code])

    def world(which):
        deploy_seat(b, client_for(b.user))
        if which == "two":  # another hex, fewer points in the field
            r = client_for(b.user).post(deploy, in_phase(b, {"army": "austria",
                "action": "leader", "unit": key, "hex": "1108", "points": 31000}))  # fmt: skip
            assert r.status_code == 302, r.content.decode()[:1000]

    one, two = two_worlds(world, observe)
    assert_same(one, two, label="B's deployment draft × 5 seats × deployment")

    def a_world(which):
        deploy_seat(a, client_for(a.user))
        if which == "two":
            r = client_for(a.user).post(reverse("orders:deploy", args=[a.code]), in_phase(a, {
                "army": "prussia", "action": "leader", "unit": a.leaders["prussia"][0],
                "hex": "0402", "points": 31000}))  # fmt: skip
            assert r.status_code == 302, r.content.decode()[:1000]

    observe.pictures = False
    one, two = two_worlds(a_world, observe)
    assert_differs(one, two, label="control: A's deployment draft × 5 seats × deployment")
