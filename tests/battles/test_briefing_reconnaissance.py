"""The printed briefing tells a side what its reconnaissance told it (8, 8.2), the same knowledge
its report and map read, and never more (docs/rules-interpretations.md, "The scenario sheet").

The 3-player campaign of the fog tests (``tests.fog.scenarios``), turn 1: Charles's Austrians
(the Austrian seat, B) have marched into Breslau's hex, 6933, where Frederick (the Prussian
seat, A) stands outside the walls of the Prussian garrison of Breslau (50 points). The forced
march, attrition and reconnaissance phases are resolved by the engine, so each side's
reconnaissance reports are the engine's own: Charles's force reports the garrison (same hex).
Both choose to fight. D'Estrees (the French seat, C) marches in with Charles where a test needs
a side of two seats.
"""

import copy

import pytest
from django.urls import reverse

from battles.models import Battle, BattleStatus
from battles.services import sheet as briefing_service
from campaign.models import Event, StateVersion
from campaign.services import knowledge, viewcache
from tests.fog import scenarios
from tests.fog.harness import clear_caches
from tests.fog.scenarios import decide, ready

pytestmark = pytest.mark.django_db

REPORTED = (
    "Breslau: a Prussian garrison of 50 points, as your reconnaissance reported it this turn "
    "(8.2); it fights no battle and may not be attacked in one (11)."
)
UNKNOWN = "Breslau: a Prussian garrison of unknown strength (3.1.2)"
UNKNOWN_LINE = "The strength of the Prussian army's garrison of Breslau (3.1.2)."


def _fought(organiser, capture, *, french: bool = False) -> tuple[scenarios.Scene, Battle]:
    scene = scenarios.forced_march(organiser, capture)
    version = scene.window.version
    state = copy.deepcopy(version.state)
    where = state["leaders"]["frederick"]["hex"]
    movers = ("charles", "d-estrees") if french else ("charles",)
    for key in movers:
        state["leaders"][key].update(
            hex=where, marched=True, moved=True, hexes_marched=1, turns_in_hex=0
        )
    StateVersion.objects.filter(id=version.id).update(state=state)
    viewcache.forget()
    window = scene.campaign.open_window()
    for role in ("A", "B", "C"):
        if window.owes(getattr(scene, role.lower())):
            ready(scene, role, capture)  # forced march, attrition, reconnaissance: the engine's
    assert scene.campaign.open_window().phase == "battle"
    for role, army in (("A", "prussia"), ("B", "austria")) + ((("C", "france"),) if french else ()):
        decide(scene, role, hex=where, army=army, choice="fight")
        ready(scene, role, capture)
    battle = scene.campaign.battles.get()
    assert battle.status == BattleStatus.PENDING and battle.hex == where == "6933"
    return scene, battle


def _garrison_reports(battle: Battle, army: str):
    """The reconnaissance events reporting Breslau's garrison to ``army``."""
    rows = Event.objects.filter(
        campaign=battle.campaign,
        kind="reconnaissance",
        text__contains="the Prussian garrison at 6933 has 50 points",
    )
    return Event.objects.filter(id__in=[e.id for e in rows if army in e.armies])


def _report_page(scene, role: str) -> str:
    seat = getattr(scene, role.lower())
    r = scene.client(role).get(reverse("orders:report", args=[seat.code]))
    assert r.status_code == 200
    return r.content.decode()


def test_a_side_told_the_garrisons_strength_reads_it_in_its_briefing(
    organiser, django_capture_on_commit_callbacks
):
    scene, battle = _fought(organiser, django_capture_on_commit_callbacks)
    # B's reconnaissance reported the garrison (8.2): its report says so, and so does its sheet.
    assert _garrison_reports(battle, "austria").exists()
    assert "the Prussian garrison at 6933 has 50 points" in _report_page(scene, "B")
    austrian = briefing_service.scenario(battle, "austrian")
    assert austrian["garrison"] == REPORTED
    assert not any("garrison" in line for line in austrian["unknown"])
    printed = scene.client("B").get(
        reverse("battles:briefing", args=[battle.campaign.code, battle.code, "austrian"])
    )
    assert printed.status_code == 200 and REPORTED in printed.content.decode()
    # The garrison's own side, and the umpire, read its strength as before.
    own = "Breslau: a Prussian garrison of 50 points; it fights no battle"
    assert briefing_service.scenario(battle, "prussian")["garrison"].startswith(own)
    umpire = briefing_service.scenario(battle, "umpire")
    assert umpire["garrison"].startswith(own) and "garrison" not in str(umpire["hidden"])
    # C, not in the battle, prints no sheet.
    assert (
        scene.client("C")
        .get(reverse("battles:briefing", args=[battle.campaign.code, battle.code, "austrian"]))
        .status_code
        == 403
    )


def test_a_side_never_told_reads_unknown_strength(organiser, django_capture_on_commit_callbacks):
    scene, battle = _fought(organiser, django_capture_on_commit_callbacks)
    # The same battle had B's reconnaissance never reported the garrison: neither its report
    # nor its sheet may know the number.
    _garrison_reports(battle, "austria").delete()
    clear_caches()  # the pages and news read before the deletion
    knowledge._kept.clear()
    assert "the Prussian garrison at 6933 has 50 points" not in _report_page(scene, "B")
    austrian = briefing_service.scenario(battle, "austrian")
    assert austrian["garrison"].startswith(UNKNOWN)
    assert UNKNOWN_LINE in austrian["unknown"]
    assert "50 points" not in austrian["garrison"]
    umpire = briefing_service.scenario(battle, "umpire")
    assert "garrison of Breslau (3.1.2). 50 points." in str(umpire["hidden"])


def test_a_side_of_two_seats_reads_it_only_if_both_were_told(
    organiser, django_capture_on_commit_callbacks
):
    """One printed sheet serves every player of a side: it says what all of them know. With
    allies not sharing, each seat knows its own armies' reports only."""
    scene, battle = _fought(organiser, django_capture_on_commit_callbacks, french=True)
    assert set(battle.setup["sides"]["austrian"]["points_by_country"]) == {"austria", "france"}
    assert briefing_service.scenario(battle, "austrian")["garrison"] == REPORTED
    _garrison_reports(battle, "france").delete()  # the French seat was never told
    assert briefing_service.scenario(battle, "austrian")["garrison"].startswith(UNKNOWN)
    # With allies sharing, the French seat reads its ally's report (as its report page does).
    campaign = battle.campaign
    campaign.options = {**(campaign.options or {}), "allies_share": True}
    campaign.save(update_fields=["options"])
    battle = Battle.objects.get(id=battle.id)
    assert briefing_service.scenario(battle, "austrian")["garrison"] == REPORTED
