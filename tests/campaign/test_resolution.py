"""Resolving phases: a whole turn, exactly once, all-or-nothing, and the deadline sweep."""

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection

from campaign import tasks
from campaign.models import Campaign, Event, PhaseWindow, StateVersion, WindowStatus
from campaign.services import gameplay, viewcache
from campaign.services.resolution import due_window_ids, resolve_due_phase
from orders.models import OrderSheet
from rules.state import state_to_dict
from tests.orders.test_play_fixtures import write_map
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db

TURN_PHASES = [
    "deployment", "supply", "march-allocation", "march", "forced-march", "attrition",
    "reconnaissance", "battle", "siege", "retreat-rally",
]  # fmt: skip


def ready(campaign, seat, draft=None, *, now):
    window = campaign.open_window()
    return OrderSheet.objects.update_or_create(
        window=window,
        seat=seat,
        defaults={"campaign": campaign, "draft": draft or {}, "ready": True, "submitted_at": now},
    )[0]


def test_it_opens_deployment_for_every_seat(campaign, now):
    window = campaign.open_window()
    assert window.phase == "deployment"
    assert len(window.owing) == 5
    assert window.deadline == now + timedelta(hours=72)
    assert campaign.versions.get().number == 0


def test_it_does_nothing_before_the_deadline(campaign, now):
    window = campaign.open_window()
    assert resolve_due_phase(window.id, now=now + timedelta(hours=1)) is None
    assert campaign.versions.count() == 1


def test_it_resolves_at_the_deadline_and_a_missing_deployment_is_told(campaign, prussia, now):
    window = campaign.open_window()
    version = resolve_due_phase(window.id, now=window.deadline)
    assert version.number == 1
    window.refresh_from_db()
    assert window.status == WindowStatus.RESOLVED
    told = next(
        e
        for e in Event.objects.filter(version=version)
        if e.data.get("missing") and "prussia" in e.armies
    )
    assert told.text == "Prussia is not deployed by the deadline (nothing is placed)."
    assert told.public is False and set(told.armies) == set(prussia.armies)


def test_a_whole_turn_runs_every_phase_in_order(campaign, now):
    moment = now
    # Deployment, then turn 1's march; the forced march runs through (no leader on this map-less
    # campaign's map could force march, 6.3: nobody has a choice), then turn 2's march opens.
    for _ in range(2):
        window = campaign.open_window()
        moment = window.deadline
        assert resolve_due_phase(window.id, now=moment) is not None
    resolved = list(
        campaign.versions.exclude(number=0)
        .order_by("number")
        .values_list("resolved_phase", flat=True)
    )
    assert resolved[: len(TURN_PHASES)] == TURN_PHASES
    latest = campaign.latest_version()
    assert latest.turn == 2
    assert campaign.open_window().phase == "march"
    # Each version holds the state the engine made: turn and phase agree with the row.
    assert all(v.state["phase"] == v.phase for v in campaign.versions.all())


def test_it_resolves_when_every_awaited_seat_is_ready(campaign, now):
    for seat in campaign.seats.all():
        ready(campaign, seat, now=now)
    window = campaign.open_window()
    assert window.id in due_window_ids(now)
    assert resolve_due_phase(window.id, now=now) is not None


def test_the_sweep_finds_exactly_the_due_windows(campaign, prussia, now):
    """Not due while a seat it waits for is not ready; due when the last one is, or when that
    one's player is away, or when the deadline passes (the sweep's one aggregate query)."""
    window = campaign.open_window()
    others = list(campaign.seats.exclude(id=prussia.id).filter(reserve=False))
    assert due_window_ids(now) == []
    for seat in others:
        ready(campaign, seat, now=now)
    assert len(window.owing) == len(others) + 1
    assert due_window_ids(now) == []
    prussia.absent_until = now + timedelta(days=1)
    prussia.save()
    assert due_window_ids(now) == [window.id]
    prussia.absent_until = None
    prussia.save()
    assert due_window_ids(now) == []
    sheet = ready(campaign, prussia, now=now)
    assert due_window_ids(now) == [window.id]
    OrderSheet.objects.filter(id=sheet.id).update(ready=False)
    assert due_window_ids(now) == []
    assert due_window_ids(window.deadline) == [window.id]


def test_an_absent_seat_does_not_hold_the_phase_up(campaign, prussia, now):
    prussia.absent_until = now + timedelta(days=7)
    prussia.save()
    for seat in campaign.seats.exclude(id=prussia.id):
        ready(campaign, seat, now=now)
    version = resolve_due_phase(campaign.open_window().id, now=now)
    assert version is not None
    told = Event.objects.get(version=version, data__absent=True)
    assert "away" in told.text
    prussia.refresh_from_db()
    assert prussia.missed_in_a_row == 0


def test_resolve_twice_gives_one_new_state(campaign, now):
    window = campaign.open_window()
    first = resolve_due_phase(window.id, now=window.deadline)
    second = resolve_due_phase(window.id, now=window.deadline)
    assert first is not None and second is None
    assert campaign.versions.filter(number=1).count() == 1


def test_the_task_twice_gives_one_new_state(campaign, now, monkeypatch):
    window = campaign.open_window()
    PhaseWindow.objects.filter(id=window.id).update(deadline=now - timedelta(minutes=1))
    tasks.resolve_phase.delay(window.id)
    tasks.resolve_phase.delay(window.id)
    assert campaign.versions.filter(number=1).count() == 1
    assert campaign.windows.filter(status=WindowStatus.OPEN).count() == 1


def test_a_crash_leaves_no_half_written_state(campaign, now, monkeypatch):
    window = campaign.open_window()
    real = gameplay.run_phase
    calls = []

    def crash_on_the_third_phase(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("the worker died")
        return real(*args, **kwargs)

    monkeypatch.setattr(gameplay, "run_phase", crash_on_the_third_phase)
    with pytest.raises(RuntimeError):
        resolve_due_phase(window.id, now=window.deadline)
    assert campaign.versions.count() == 1
    assert Event.objects.filter(campaign=campaign).count() == 0
    window.refresh_from_db()
    assert window.status == WindowStatus.OPEN
    monkeypatch.setattr(gameplay, "run_phase", real)
    assert resolve_due_phase(window.id, now=window.deadline).number == 1


def test_a_paused_campaign_does_not_resolve(campaign, now):
    Campaign.objects.filter(id=campaign.id).update(paused=True)
    window = campaign.open_window()
    assert resolve_due_phase(window.id, now=window.deadline) is None
    assert due_window_ids(window.deadline) == []


def test_the_sweep_resolves_due_windows(campaign, now):
    window = campaign.open_window()
    PhaseWindow.objects.filter(id=window.id).update(deadline=now - timedelta(seconds=1))
    assert tasks.sweep_deadlines.delay().get() == 1
    assert campaign.versions.filter(number=1).exists()


def test_orders_for_another_seats_units_are_rejected(campaign, prussia, now):
    sheet = ready(campaign, prussia, {"march": [{"unit": "daun", "path": "4"}]}, now=now)
    orders, rejections = gameplay.seat_orders(prussia, sheet.draft, {})
    assert orders == {"march": []}
    assert "'daun' is not under your command" in rejections[0]["text"]
    assert rejections[0]["audience"] == sorted(prussia.armies)


HOSTILE = [
    # (phase, draft, what the seat is told)
    ("march", {"transfers": [{"from": "garrison", "to": "daun", "points": 50}]}, "'daun'"),
    ("battle", {"battle": [{"hex": "0503", "army": "austria", "choice": "decline"}]},
     "you do not command Austria"),
    ("battle", {"battle_results": [{"battle": "t1-0503", "loser": "austrian", "outcome": "rout"}]},
     "battle results come from the tabletop"),
    ("siege", {"honors": [{"city": "Dresden", "garrison": "fight"}]}, "only the garrison"),
    ("siege", {"honors": [{"city": "Nowhere", "besieger": "deny"}]}, "no fortress"),
]  # fmt: skip


@pytest.mark.parametrize(("phase", "draft", "told"), HOSTILE)
def test_a_seat_orders_only_what_is_its_own(campaign, prussia, phase, draft, told):
    from rules.armies import Army
    from rules.state import Garrison, Phase, State

    state = State(garrisons=(Garrison("Dresden", Army.AUSTRIA, 400),))
    orders, rejections = gameplay.seat_orders(prussia, draft, {}, phase=Phase(phase), state=state)
    assert all(items == [] for items in orders.values())
    assert told in rejections[0]["text"]
    assert rejections[0]["audience"] == sorted(prussia.armies)


def test_a_besieger_answers_for_the_besiegers(campaign, prussia):
    from rules.armies import Army
    from rules.state import Garrison, Phase, State

    state = State(garrisons=(Garrison("Dresden", Army.AUSTRIA, 400),))
    draft = {"honors": [{"city": "Dresden", "besieger": "deny"}], "march": [{"unit": "x"}]}
    orders, rejections = gameplay.seat_orders(prussia, draft, {}, phase=Phase.SIEGE, state=state)
    assert orders == {"honors": [{"city": "Dresden", "besieger": "deny"}]}  # march: not now
    assert rejections == []


HONORS_AT_BERLIN = [
    # (who holds Berlin, leaders in its hex, the answer, who changed sides, what Austria is told)
    ("prussia", [], {"besieger": "deny"}, (), "you have no force besieging Berlin"),
    ("prussia", [("daun", "austria")], {"besieger": "deny"}, (), ""),
    ("prussia", [("daun", "austria")], {"besieger": "grant"}, ("austria",),
     "only the besiegers of Berlin"),
    ("hanover", [("daun", "austria")], {"garrison": "fight"}, ("austria",),
     "only the garrison of Berlin"),
    ("austria", [("frederick", "prussia")], {"garrison": "surrender"}, (), ""),
    ("austria", [], {"besieger": "grant"}, (), "only the besiegers of Berlin"),
]  # fmt: skip


@pytest.mark.parametrize(("holder", "outside", "answer", "changed", "told"), HONORS_AT_BERLIN)
def test_each_side_answers_only_its_own_part_of_the_honors_of_war(
    campaign, austria, tmp_path, holder, outside, answer, changed, told
):
    """11.6: the garrison's owner (not an ally) answers for the garrison, a force outside in the
    fortress's hex for the besiegers; sides are the state's, after 13.8's changes of side."""
    from maps.core.loader import load_map
    from rules.armies import Army
    from rules.state import Garrison, LeaderState, Phase, State

    state = State(
        garrisons=(Garrison("Berlin", Army(holder), 500),),
        leaders=tuple(LeaderState(key, Army(army), "0202", 1000) for key, army in outside),
        changed_sides=tuple(Army(a) for a in changed),
    )
    draft = {"honors": [{"city": "Berlin", **answer}]}
    orders, rejections = gameplay.seat_orders(
        austria, draft, {}, phase=Phase.SIEGE, state=state, hexmap=load_map(write_map(tmp_path))
    )
    if told:
        assert orders == {"honors": []}
        assert told in rejections[0]["text"]
    else:
        assert orders == draft and rejections == []


def test_a_battle_decision_for_an_allys_army_is_rejected(campaign, austria):
    from rules.state import Phase, State

    draft = {"battle": [{"hex": "0503", "army": "france", "choice": "fight"},
                        {"hex": "0503", "army": "empire", "choice": "fight"}]}  # fmt: skip
    orders, rejections = gameplay.seat_orders(austria, draft, {}, phase=Phase.BATTLE, state=State())
    assert orders == {"battle": [{"hex": "0503", "army": "empire", "choice": "fight"}]}
    assert "you do not command France" in rejections[0]["text"]


def test_the_orders_used_are_kept_with_the_version(campaign, prussia, now):
    ready(campaign, prussia, {"deployment": {"prussia": {"leaders": {}}}}, now=now)
    version = resolve_due_phase(campaign.open_window().id, now=now + timedelta(days=3))
    assert version.orders["prussia"]["orders"] == {"deployment": {"prussia": {"leaders": {}}}}


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_the_same_moment_give_one_new_state(campaign, now):
    """Threads on PostgreSQL; on SQLite the writes serialise the same way."""
    window = campaign.open_window()
    barrier = threading.Barrier(2)
    results, errors = [], []

    def work():
        try:
            barrier.wait(timeout=10)
            results.append(resolve_due_phase(window.id, now=window.deadline))
        except Exception as exc:  # collected, asserted below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    if connection.vendor == "sqlite":
        # SQLite may refuse the second writer outright ("database is locked"): still one state.
        errors = [e for e in errors if "locked" not in str(e)]
    assert not errors
    assert sum(r is not None for r in results) == 1
    assert StateVersion.objects.filter(campaign=campaign, number=1).count() == 1


def test_a_whole_turn_under_the_rules_on_the_bundled_map(organiser, now):
    """Deployment, then every phase of turn 1 by the engine on the real map, to turn 2."""
    from campaign.services import setup
    from maps.core.loader import load_map
    from rules.autoplay import deployment_orders
    from rules.orders import Orders, orders_to_dict

    rules = gameplay.rule_settings(Campaign(rule_settings={}))
    points, orders = deployment_orders(load_map(), rules)
    campaign = setup.create_campaign(
        organiser, name="Real 1757", players=5, now=now, army_points=points
    )
    by_army = {d.army.value: d for d in orders.deployment}
    for seat in campaign.seats.all():
        seat.leaders = {a: [k for k, *_ in by_army[a].leaders] for a in seat.armies}
        seat.save()
    setup.start_campaign(campaign, organiser, now=now)
    drafts = {
        seat.id: orders_to_dict(Orders(deployment=tuple(by_army[a] for a in seat.armies)))
        for seat in campaign.seats.all()
    }
    moment = now
    for phase in ("deployment", "march", "forced-march"):
        window = campaign.open_window()
        assert window.phase == phase
        for seat in campaign.seats.all():
            ready(campaign, seat, drafts[seat.id] if phase == "deployment" else {}, now=moment)
        assert window.id in due_window_ids(moment)
        assert resolve_due_phase(window.id, now=moment) is not None
        moment += timedelta(hours=1)
    latest = campaign.latest_version()
    assert latest.turn == 2 and campaign.open_window().phase == "march"
    assert len(latest.state["leaders"]) == sum(rules.leaders.values())
    kinds = set(Event.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert {"deployed", "supplied", "marches-allocated"} <= kinds
    assert not Event.objects.filter(campaign=campaign, kind="order-rejected").exists()
    # The named rolls of the allocation phase are kept with its version (6.1).
    allocation = campaign.versions.get(turn=1, resolved_phase="march-allocation")
    assert any(r["name"].startswith("march-allocation:") for r in allocation.rolls)


def test_a_season_runs_to_its_end_and_everyone_is_told(
    campaign, mailoutbox, django_capture_on_commit_callbacks
):
    """18 turns of deadlines (every phase passing through, no map): the campaign ends."""
    campaign.seats.update(email_kinds=["campaign-over"])
    resolutions = 0
    while (window := campaign.open_window()) is not None:
        with django_capture_on_commit_callbacks(execute=True):
            assert resolve_due_phase(window.id, now=window.deadline) is not None
        resolutions += 1
        assert resolutions < 100
    campaign.refresh_from_db()
    assert campaign.status == "ended" and campaign.ended is not None
    latest = campaign.latest_version()
    assert latest.state["ended"] is True and latest.turn == 18
    # Deployment, then the march each turn (the forced march asks nobody here: no leader is on
    # this map-less campaign's map, so none could force march, 6.3).
    assert resolutions == 1 + 18
    assert len([m for m in mailoutbox if "the campaign is over" in m.subject]) == 5


def test_the_state_a_resolution_goes_on_from_is_the_one_it_stored(
    organiser, django_capture_on_commit_callbacks
):
    """The resolution hands each version's decoded state to the next phases and to this
    process's pages and emails (``viewcache``) without reading the JSON back: with the clock of
    fate striking every turn (a card drawn as the turn closes), that state is the stored one,
    card included, and the versions go on from it."""
    fate = {"every": "turn", "from_year": 1, "from_turn": 1, "less_extreme": False}
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=3, name="Fate every turn",
        prefix="fe", options={"fate": fate},
    )  # fmt: skip
    assert Event.objects.filter(campaign=campaign, kind="fate").exists()
    versions = list(StateVersion.objects.filter(campaign=campaign).order_by("number"))
    assert len(versions) > 20
    for v in versions:
        # As JSON text, keys in the order written: the state column keeps it on PostgreSQL too
        # (``TextJSONField``: json, not jsonb, which would sort them).
        made = json.dumps(state_to_dict(viewcache.version_state(v)))
        assert made == json.dumps(v.state), v.number


def test_an_open_window_stands_on_the_campaigns_latest_version(
    organiser, django_capture_on_commit_callbacks
):
    """What the emails read once for a resolution (``email.Shared``) counts on it: while a
    window waits for players or a battle, no version is made after its own; a roll back
    reopens a window on what is then the latest version."""
    from django.utils import timezone

    from campaign.services import organiser as organiser_service

    checked = []

    def step(what, subject):
        campaign = subject if isinstance(subject, Campaign) else subject.campaign
        window = campaign.open_window()
        if window is not None:
            assert window.version_id == campaign.latest_version().id, (what, window.phase)
            checked.append(window.phase)

    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=2, name="Windows on the latest",
        prefix="wl", step=step,
    )  # fmt: skip
    assert {"deployment", "march", "forced-march"} <= set(checked), checked
    with django_capture_on_commit_callbacks(execute=True):
        window = organiser_service.roll_back(campaign, organiser, now=timezone.now())
    assert window.id == campaign.open_window().id
    assert campaign.open_window().version_id == campaign.latest_version().id


def test_state_versions_are_stored_with_lz4_where_postgresql_has_it(campaign):
    """Migration 0010: a version's JSON state is compressed with lz4 on PostgreSQL (faster to
    write than pglz); SQLite is left as it is."""
    import importlib

    lz4 = importlib.import_module("campaign.migrations.0010_state_lz4")._lz4
    version = campaign.latest_version()
    state = {**version.state, "filler": [{"hex": f"{i:04d}", "points": i} for i in range(2000)]}
    StateVersion.objects.filter(id=version.id).update(state=state)  # large enough to compress
    if connection.vendor != "postgresql":
        assert not lz4(connection)
        return
    assert lz4(connection)  # Debian's PostgreSQL 15 is built with it
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(state) FROM campaign_stateversion WHERE id = %s",
            [version.id],
        )
        assert cursor.fetchone()[0] == "lz4"
