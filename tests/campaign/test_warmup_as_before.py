"""Issue 44, third pass: the seats' views and map layers the worker prepares are made faster, and
are the same, to the value, as the code before made them, on every version and seat of a real
season (``tests/seasons/real_season.py``).

- ``projection.project`` takes the viewer's relation to each army once per state, not three
  times per force and garrison, and ``eventfog`` finds the army of a unit's word once (and
  copies a public event only when its text changes): compared with the projection as it was
  (``project_as_before``), for every seat (and with allies sharing, the umpire and the public).
- ``maps.overlay`` keeps each hex's centre, each city's name plate and the side of its name
  once per map: the layer's counters, supply sources, focus and names compared with the
  functions as they were (``hex_xy_as_before``, ``number_stacks_as_before``,
  ``names_near_as_before``), and a returned centre is the caller's own to change.
"""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import timezone

from campaign import eventfog, projection
from campaign.projection import (
    ForceView,
    GarrisonView,
    LeaderlessView,
    SiegeTrainView,
    View,
    Viewer,
    _army_totals,
    _leader_known,
    _leader_public,
    _news,
    project,
)
from campaign.services import knowledge, viewcache
from campaign.services import organiser as organiser_tools
from campaign.services.resolution import resolve_due_phase
from maps import overlay
from maps.core.hexgrid import HexIdError, parse_hex_id
from maps.core.loader import load_map
from maps.core.model import CitySize
from maps.core.render import name_side
from maps.core.tiles import grid_of
from orders import layers
from orders.pages import own_units
from rules.armies import Army
from rules.events import Event, EventKind, event_from_dict
from rules.state import Phase
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db


# --- the code as it was before (8376d2e) -----------------------------------------------------


def _as_event_as_before(item):
    if isinstance(item, Event):
        return None, item
    if hasattr(item, "armies") and hasattr(item, "public") and hasattr(item, "kind"):
        version = getattr(item, "version", None)
        turn = getattr(item, "turn", None) or getattr(version, "turn", None)
        audience = None if item.public else frozenset(Army.parse(a) for a in item.armies)
        return turn, Event(item.rule, EventKind(item.kind), item.text, dict(item.data), audience)
    if isinstance(item, tuple):
        return item[0], item[1] if isinstance(item[1], Event) else event_from_dict(item[1])
    data = dict(item)
    turn = data.pop("turn", None)
    return (int(turn) if turn is not None else None), event_from_dict(data)


def as_seen_as_before(event, informed, deploying, *, umpire):
    if not eventfog.visible(event, informed, deploying, umpire=umpire):
        return None
    if umpire:
        return event
    if event.public:
        event = dataclasses.replace(event, text=eventfog.public_text(event, informed, umpire=False))
    return eventfog.stopped_march_as_seen(event, informed)


def _force_as_before(force, viewer):
    relation = viewer.relation(force.army)
    if viewer.knows(force.army):
        return ForceView(
            army=force.army,
            hex=force.hex,
            inside=force.inside,
            relation=relation,
            leaders=tuple(_leader_known(x, relation) for x in force.leaders),
            points=force.points,
            supplied=all(x.supplied for x in force.leaders),
            demoralized=force.demoralized,
        )
    return ForceView(
        army=force.army,
        hex=force.hex,
        inside=force.inside,
        relation=relation,
        leaders=tuple(_leader_public(x, relation) for x in force.leaders),
        supplied=all(x.supplied for x in force.leaders),
        demoralized=force.demoralized,
    )


def project_as_before(state, viewer, *, events=(), rolls=(), monkeypatch) -> View:
    viewer = viewer.bound_to(state)
    informed = viewer.informed()
    deploying = state.phase is Phase.DEPLOYMENT

    def on_map(army):
        return viewer.knows(army) or not deploying

    forces = tuple(_force_as_before(f, viewer) for f in state.forces() if on_map(f.army))
    garrisons = tuple(
        GarrisonView(
            g.city, g.army, viewer.relation(g.army), g.points if viewer.knows(g.army) else None
        )
        for g in state.garrisons
        if on_map(g.army)
    )
    leaderless = tuple(
        LeaderlessView(
            x.army,
            x.hex,
            viewer.relation(x.army),
            x.points if viewer.knows(x.army) else None,
            x.supplied if viewer.knows(x.army) else None,
        )
        for x in state.leaderless
        if on_map(x.army)
    )
    trains = tuple(
        SiegeTrainView(t.id, t.army, t.hex, t.inside)
        for t in state.siege_trains
        if viewer.knows(t.army)
    )
    marches = {a: n for a, n in state.marches.items() if Army.parse(a) in informed}
    with monkeypatch.context() as m:
        m.setattr(projection, "_as_event", _as_event_as_before)
        m.setattr(projection, "as_seen", as_seen_as_before)
        m.setattr(eventfog, "unit_army", eventfog.unit_army.__wrapped__)  # (found each time)
        seen_events, seen_reports = _news(viewer, informed, deploying, events, ())
        seen_rolls = tuple(
            projection.RollView(
                str(r["name"]), tuple(int(d) for d in r.get("dice", ())), int(r["total"])
            )
            for r in rolls
            if viewer.umpire or projection.roll_concerns(str(r["name"]), informed)
        )
    return View(
        viewer_label=viewer.label,
        umpire=viewer.umpire,
        armies=tuple(a for a in Army if a in viewer.armies),
        turn=state.turn,
        phase=state.phase,
        ended=state.ended,
        forces=forces,
        garrisons=garrisons,
        siege_trains=trains,
        control=dict(state.control),
        army_totals=_army_totals(state),
        marches=marches,
        reports=seen_reports,
        events=seen_events,
        dice=seen_rolls,
        killed=tuple(state.killed),
        captives=tuple((c.leader, c.held_by.value) for c in state.captives),
        prisoners=tuple(
            (p.army.value, p.held_by.value, p.points)
            for p in state.prisoners
            if p.army in informed or p.held_by in informed
        ),
        besieged=dict(state.besieged_turns),
        honors_pending=tuple(state.honors_pending),
        deployed=tuple(a.value for a in state.deployed),
        victory_points=dict(state.victory_points),
        leaderless=leaderless,
    )


def hex_xy_as_before(grid, text):
    try:
        x, y = grid.centre(parse_hex_id(text))
    except HexIdError:
        return None
    return [round(x, 1), round(y, 1)]


def number_stacks_as_before(stacks, hexmap):
    for h, stack in stacks.items():
        try:
            city = hexmap.city_at(parse_hex_id(h))
        except HexIdError:
            city = None
        side = name_side(hexmap, city.hex) if city is not None else ""
        for i, item in enumerate(stack):
            item["slot"], item["of"] = i, len(stack)
            if side:
                item["name_side"] = side


def names_near_as_before(counters, hexmap, grid):
    near = overlay._cities_near(hexmap)
    found: set[int] = set()
    for text in {c.get("hex") for c in counters}:
        try:
            found.update(near.get(parse_hex_id(text), ()))
        except HexIdError:
            continue
    return [
        {
            "name": city.name,
            "xy": hex_xy_as_before(grid, city.hex_id),
            "side": name_side(hexmap, city.hex),
            "star": city.size in (CitySize.CIRCLED_STAR, CitySize.STAR),
        }
        for i, city in enumerate(hexmap.cities)
        if i in found
    ]


def seen_as_before(view, hexmap, grid, units, monkeypatch) -> dict:
    """``layers._seen`` with the overlay's helpers as they were."""
    with monkeypatch.context() as m:
        m.setattr(overlay, "hex_xy", hex_xy_as_before)
        m.setattr(overlay, "_number_stacks", number_stacks_as_before)
        m.setattr(overlay, "names_near", names_near_as_before)
        return layers._seen(view, hexmap, grid, units)


# --- the comparisons -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hexmap():
    return load_map()


def test_the_views_and_layers_of_a_real_season_are_as_before(
    organiser, django_capture_on_commit_callbacks, monkeypatch, hexmap
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=4, prefix="asbefore"
    )
    grid = grid_of(hexmap)
    seats = list(campaign.seats.filter(reserve=False).select_related("campaign"))
    versions = list(campaign.versions.order_by("number"))
    assert len(versions) > 30 and len(seats) == 5
    compared = layered = 0
    for version in versions:
        state = viewcache.version_state(version)
        news = knowledge.VersionNews(version)
        rolls = news.rolls()
        viewers = [(knowledge.seat_viewer(s), news.for_seat(s)) for s in seats]
        viewers += [
            (Viewer.for_armies(s.armies, allies_share=True, label=s.label), news.for_seat(s))
            for s in seats
        ]
        every = [(turn, event) for turn, *_, event in news._read()]
        viewers += [(Viewer.umpire_view(), every), (Viewer.public(), every)]
        # and each seat as if the state were the first turn's deployment (3: no other army on
        # the map), which the season's own deployment versions show little of
        plotting = dataclasses.replace(state, phase=Phase.DEPLOYMENT)
        cases = [(state, viewer, events) for viewer, events in viewers]
        cases += [(plotting, viewer, events) for viewer, events in viewers[:5]]
        for state, viewer, events in cases:
            new = project(state, viewer, events=events, rolls=rolls)
            old = project_as_before(
                state, viewer, events=events, rolls=rolls, monkeypatch=monkeypatch
            )
            assert new == old, (version.number, viewer.label)
            compared += 1
            for phase in ("", "march", "forced march"):
                units = own_units(new, leaders_only=phase == "forced march") if phase else {}
                was = seen_as_before(new, hexmap, grid, units, monkeypatch)
                assert layers._seen(new, hexmap, grid, units) == was, (version.number, phase)
                layered += 1
    assert compared == len(versions) * 17 and layered == compared * 3


def test_a_centre_is_the_callers_own_and_odd_hex_ids_read_as_before(hexmap):
    grid = grid_of(hexmap)
    first = overlay.hex_xy(grid, "0503")
    first[0] = -1.0  # a caller that changes the list it was given
    assert overlay.hex_xy(grid, "0503") == hex_xy_as_before(grid, "0503")
    odd = ["\u0660\u0665\u0660\u0663", "12\u00b34", " 0503", "0503 ", "abcd"]
    for text in ["0503", "0000", "0100", "9999", "503", "", None, 503, *odd]:
        assert overlay.hex_xy(grid, text) == hex_xy_as_before(grid, text), text
        assert overlay.hex_xy(grid, text) == hex_xy_as_before(grid, text), text  # (kept)
    # only four ASCII digits are kept for the process, whatever a draft sends
    overlay._number_stacks({text: [{}] for text in odd}, hexmap)
    overlay.names_near([{"hex": text} for text in odd], hexmap, grid)
    kept = [overlay._centres(grid), overlay._name_sides(hexmap), overlay._cities_near_id(hexmap)]
    assert not any(text in memo for text in odd for memo in kept)
    plates = overlay.names_near([{"hex": "0503"}], hexmap, grid)
    if plates:
        plates[0]["xy"][0] = -1.0
    assert overlay.names_near([{"hex": "0503"}], hexmap, grid) == names_near_as_before(
        [{"hex": "0503"}], hexmap, grid
    )


def test_the_names_near_every_hex_of_the_map_are_as_before(hexmap):
    grid = grid_of(hexmap)
    hexes = [c.hex_id for c in hexmap.cities]
    hexes += [f"{col:02d}{row:02d}" for col in range(0, 99, 3) for row in range(0, 99, 4)]
    for text in hexes:
        counters = [{"hex": text}, {"hex": "bad"}]
        assert overlay.names_near(counters, hexmap, grid) == names_near_as_before(
            counters, hexmap, grid
        ), text
        stacks, was = {text: [{}, {}]}, {text: [{}, {}]}
        overlay._number_stacks(stacks, hexmap)
        number_stacks_as_before(was, hexmap)
        assert stacks == was, text


# --- a version's news made from the last one's ----------------------------------------------


def fresh_news(version):
    """``VersionNews`` read from nothing kept, as the first warm-up of a process reads it."""
    knowledge._kept.pop(version.campaign_id, None)
    news = knowledge.VersionNews(version)
    return news._read(), news.rolls()


def kept_news(version):
    news = knowledge.VersionNews(version)
    return news._read(), news.rolls()


def test_the_news_kept_from_the_last_version_are_the_news_read_afresh(
    organiser, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=4, prefix="keptnews"
    )
    versions = list(campaign.versions.order_by("number"))
    knowledge._kept.clear()
    for step in (1, 2, 5):  # a warm-up after each version, or after a few
        for version in versions[::step]:
            rows, rolls = kept_news(version)
            assert knowledge._kept[campaign.id].number == version.number
            assert (rows, rolls) == fresh_news(version), (step, version.number)
        knowledge._kept.clear()
    # and the next version's news read in two statements, whatever the number of rows
    kept_news(versions[-3])
    with django_assert_max_num_queries(2):
        kept_news(versions[-1])
    with django_assert_max_num_queries(0):
        kept_news(versions[-1])


def test_the_news_of_a_phase_rolled_back_and_resolved_again_are_read_afresh(
    organiser, django_capture_on_commit_callbacks
):
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=2, prefix="keptback"
    )
    stale = {}  # what a worker kept of each version, before the roll back
    for version in campaign.versions.order_by("number"):
        kept_news(version)
        stale[version.number] = knowledge._kept[campaign.id]
    window = organiser_tools.roll_back(campaign, organiser, now=timezone.now(), reason="test")
    earlier = campaign.latest_version()
    assert earlier.number < max(stale)
    assert kept_news(earlier) == fresh_news(earlier)
    with django_capture_on_commit_callbacks(execute=True):
        assert resolve_due_phase(window.id, now=timezone.now(), force=True) is not None
    again = list(campaign.versions.filter(number__gt=earlier.number).order_by("number"))
    assert again and not {v.id for v in again} & {k.version[0] for k in stale.values()}
    checked = 0
    for version in again:  # made anew, with the numbers of versions kept before
        for number, kept in stale.items():
            if number > earlier.number and number <= version.number:
                knowledge._kept[campaign.id] = kept
                assert kept_news(version) == fresh_news(version), (number, version.number)
                checked += 1
    assert checked >= len(again)


@pytest.mark.parametrize("allies_share", [False, True])
def test_the_views_made_with_what_each_audience_was_told_before_are_the_views(
    organiser, django_capture_on_commit_callbacks, allies_share
):
    """The worker's views, made version after version from the news kept and what each
    audience was told of them (``project(told=)``), are the views made from nothing kept, and
    the views the pages make from their own queries."""
    campaign, _ = play_real_season(
        organiser, django_capture_on_commit_callbacks, turns=4, prefix=f"told{allies_share:d}"
    )
    campaign.options = {**(campaign.options or {}), "allies_share": allies_share}
    campaign.save(update_fields=["options"])
    seats = list(campaign.seats.filter(reserve=False))
    for s in seats:
        s.campaign = campaign
    knowledge._kept.clear()
    told = 0
    for version in campaign.versions.order_by("number"):
        state = viewcache.version_state(version)
        news = knowledge.VersionNews(version)
        for seat in seats:
            view = knowledge.seat_view(seat, version, state=state, news=news)
            events, rolls = news.for_seat(seat), news.rolls()
            assert view == project(state, knowledge.seat_viewer(seat), events=events, rolls=rolls)
            assert view == knowledge.seat_view(seat, version, state=state), version.number
        told += sum(len(seen) for seen in news.told.values())
    assert told > 0
