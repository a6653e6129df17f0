"""Three-player campaigns for the noninterference tests (issue 42), made as the organiser's form
makes them, on the bundled map of 1756.

The campaign is posted through the new-campaign form (three players, the ratios of 3.4 from
Sweden's 400 points, historical leaders); with three players rule 1.2 gives the Austrian seat
Austria, the Empire, Russia and Sweden, the French seat France, and the Prussian seat Prussia
and Hanover. The three players are seated, every seat deploys the engine's sample deployment
(``rules.autoplay.deployment_orders``, the seasons' one) and the deployment resolves: the
first turn's march orders are open. From there each builder writes the state a phase needs the
way the tests of the orders pages do (a new state version and its window).

Roles, so that tests read clearly:
- **B**, the secret holder: the Austrian seat (four armies);
- **A**, the observer, an enemy of B: the Prussian seat (two armies, allied to each other);
- **C**, B's ally, never in the battle or the siege: the French seat.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, PhaseWindow, Seat, StateVersion
from campaign.services import gameplay, viewcache
from campaign.services.resolution import resolve_due_phase
from maps.core.loader import load_map
from orders.models import OrderSheet
from rules.autoplay import deployment_orders
from rules.orders import Orders, orders_to_dict
from rules.state import Phase
from tests.fog.channels import SeatObserver
from tests.fog.harness import assert_differs, assert_same, two_worlds
from tests.standing import make_user

SEED = "fog-3p-5c1d9e07a2b4"  # the same dice every run (the campaign's, in the database)

# What the organiser types into the new-campaign form (organiser/forms.py, CampaignForm).
FORM = {
    "name": "Fog of Saxony 1757",
    "players": "3",
    "army_size": "base",
    "base_army": "sweden",
    "base_points": "400",
    "leader_selection": "historical",
    "time_zone": "Europe/Berlin",
    "reminder_hours": "24, 2",
    "flag_after_missed": "2",
    "rule_settings": "{}",
    "hours_deployment": "72",
    "hours_march": "48",
    "hours_forced-march": "24",
    "hours_battle": "48",
    "hours_siege": "24",
    "missed_policy": "stand-still",
    "grace_hours": "12",
    "excused_misses": "1",
    "caretaker_style": "defensive",
}
ROLES = {"A": "prussia", "B": "austria", "C": "france"}


@dataclass
class Scene:
    """A campaign brought to a phase, its seats by role and the window that is open."""

    campaign: Campaign
    a: Seat  # the observer, an enemy of B
    b: Seat  # the secret holder
    c: Seat  # B's ally, not in the battle
    window: PhaseWindow

    def client(self, role: str) -> Client:
        c = Client()
        c.force_login(getattr(self, role.lower()).user)
        return c

    @property
    def state(self) -> dict:
        return self.window.version.state


def _seats(campaign: Campaign) -> dict[str, Seat]:
    return {role: campaign.seats.get(power=power) for role, power in ROLES.items()}


def form_campaign(organiser, capture, **form) -> Campaign:
    """The organiser posts the new-campaign form; three players are seated; it starts."""
    client = Client()
    client.force_login(organiser)
    with capture(execute=True):
        r = client.post(reverse("new_campaign"), {**FORM, **form})
    assert r.status_code == 302, r.content.decode()[:2000]
    campaign = Campaign.objects.get(name=form.get("name", FORM["name"]))
    campaign.seed = SEED
    campaign.save(update_fields=["seed"])
    _, sample = deployment_orders(load_map(), gameplay.rule_settings(campaign))
    by_army = {d.army.value: d for d in sample.deployment}
    for s in campaign.seats.filter(reserve=False):
        s.user = make_user(f"fog-{s.power}")
        # The sample deployment's leaders, as the seasons' players choose them (autoseason).
        s.leaders = {a: [k for k, *_ in by_army[a].leaders] for a in s.armies}
        s.save()
    with capture(execute=True):
        r = client.post(reverse("start_campaign", args=[campaign.code]), {"confirmed": "yes"})
    assert r.status_code == 302, r.content.decode()[:2000]
    campaign.refresh_from_db()
    window = campaign.open_window()
    assert window is not None and window.phase == "deployment", window
    for s in campaign.seats.filter(reserve=False):
        draft = orders_to_dict(Orders(deployment=tuple(by_army[a] for a in s.armies)))
        OrderSheet.objects.update_or_create(
            campaign=campaign, window=window, seat=s,
            defaults={"draft": draft, "ready": True, "submitted_at": window.opened_at},
        )  # fmt: skip
    with capture(execute=True):
        resolve_due_phase(window.id, now=window.opened_at)
    campaign.refresh_from_db()
    return campaign


def march_phase(organiser, capture, **form) -> Scene:
    """The first turn's march orders are open (6.2)."""
    campaign = form_campaign(organiser, capture, **form)
    window = campaign.open_window()
    assert window.phase == "march" and window.turn == 1, window
    return Scene(campaign, **{k.lower(): v for k, v in _seats(campaign).items()}, window=window)


def write_phase(campaign: Campaign, state: dict, *, phase: str, resolved: str,
                owing: list[Seat]) -> PhaseWindow:  # fmt: skip
    """A new state version in ``phase`` and its window waiting for ``owing`` (as the tests of
    the orders pages write one): the open window before it is closed."""
    latest = campaign.latest_version()
    PhaseWindow.objects.filter(campaign=campaign, status__in=("open", "paused")).update(
        status="resolved", resolved_at=timezone.now()
    )
    now = timezone.now()
    version = StateVersion.objects.create(
        campaign=campaign, number=latest.number + 1, turn=latest.turn,
        resolved_phase=resolved, phase=phase, state=state, created=now,
    )  # fmt: skip
    viewcache.forget()
    return PhaseWindow.objects.create(
        campaign=campaign, version=version, phase=phase, turn=latest.turn,
        owing=[str(s.code) for s in owing], opened_at=now, deadline=now + timedelta(days=1),
    )  # fmt: skip


def _scene(campaign: Campaign, state: dict, *, phase: str, resolved: str) -> Scene:
    """The state written as a new version in ``phase``, its window owed by the seats the
    product says owe it (``gameplay.seats_owing``)."""
    seats = list(campaign.seats.filter(reserve=False))
    owing = gameplay.seats_owing(
        seats, gameplay.read_state(state), Phase(phase), gameplay.load_campaign_map("")
    )
    window = write_phase(campaign, state, phase=phase, resolved=resolved, owing=owing)
    campaign.refresh_from_db()
    return Scene(campaign, **{k.lower(): v for k, v in _seats(campaign).items()}, window=window)


def _move(state: dict, key: str, hex_id: str, **fields) -> None:
    state["leaders"][key].update(hex=hex_id, **fields)


def battle(organiser, capture, *, outnumbered: bool = False, **form) -> Scene:
    """Turn 1's battle decisions (9, 10.1): an Austrian force of B marched into the hex of
    Frederick's Prussian force (A's), 6933, outside any fortress; the battle phase waits for
    both. B's force is Charles's (3353 points against Frederick's 2970: a battle if either
    wishes it) or, ``outnumbered``, Daun's (371: outnumbered 4:1, taken prisoner whatever B
    decides, 9, 10.1.1). The French seat (C) has no force there."""
    scene = march_phase(organiser, capture, **form)
    state = copy.deepcopy(scene.state)
    where = state["leaders"]["frederick"]["hex"]
    mover = "daun" if outnumbered else "charles"
    _move(state, mover, where, marched=True, moved=True, hexes_marched=1, turns_in_hex=0)
    state["phase"] = "battle"
    return _scene(scene.campaign, state, phase="battle", resolved="reconnaissance")


def forced_march(organiser, capture, **form) -> Scene:
    """Turn 1's forced march orders (6.3): every seat with a leader who may force march owes
    them (the marches of the first turn stood still)."""
    scene = march_phase(organiser, capture, **form)
    state = copy.deepcopy(scene.state)
    state["phase"] = "forced-march"
    return _scene(scene.campaign, state, phase="forced-march", resolved="march")


def forced_march_in_contact(organiser, capture, **form) -> Scene:
    """Turn 1's forced march orders (6.3) with the enemy in a hex: an Austrian force of B
    (Charles's) marched into the hex of Frederick's Prussian force (A's) in the march phase and
    halted there (6.4.4); Frederick may force march out to avoid the battle (6.3.1). The French
    seat (C) has no force there."""
    scene = march_phase(organiser, capture, **form)
    state = copy.deepcopy(scene.state)
    where = state["leaders"]["frederick"]["hex"]
    _move(state, "charles", where, marched=True, moved=True, hexes_marched=1, turns_in_hex=0,
          halted=True)  # fmt: skip
    state["phase"] = "forced-march"
    return _scene(scene.campaign, state, phase="forced-march", resolved="march")


SIEGES = {
    # besieger role: (the fortress, its hex, the besieging leader, his trains, who leaves)
    "B": ("Neisse", "7038", "charles", ("austria-1", "austria-2"), "maurice"),
    "A": ("Koniggratz", "6340", "frederick", ("prussia-1", "prussia-2"), "nadasy"),
}


def siege(organiser, capture, *, besieger: str = "B", **form) -> Scene:
    """Turn 1's siege phase (11, 11.6): a supplied force with its siege trains has stood a
    complete turn in the hex of an enemy fortress: with ``besieger="B"`` Charles's Austrians
    (B) before the Prussian Neisse (A's garrison), with ``besieger="A"`` Frederick's Prussians
    (A) before the Austrian Koniggratz (B's garrison). Besieger and garrison answer the honors
    of war in advance, should the walls be breached. The French seat (C) is in neither."""
    scene = march_phase(organiser, capture, **form)
    state = copy.deepcopy(scene.state)
    city, where, leader, trains, leaving = SIEGES[besieger]
    # The fortress's own field force steps out of the way (else a battle comes first, 11.3).
    _move(state, leaving, state["leaders"]["schwerin" if besieger == "B" else "daun"]["hex"])
    _move(state, leader, where, turns_in_hex=1)
    for train in trains:
        state["siege_trains"][train]["hex"] = where
    state["honors_pending"] = [city]
    state["phase"] = "siege"
    return _scene(scene.campaign, state, phase="siege", resolved="battle")


def caretaker_march(organiser, capture, *, style: str = "plays-on") -> Scene:
    """The first turn's march orders in a campaign whose missed deadlines go to the caretaker
    (no excused miss), in ``style``: B will stay silent."""
    return march_phase(
        organiser, capture, missed_policy="caretaker", excused_misses="0", caretaker_style=style
    )


# --- what a seat's player does, through the pages -------------------------------------------


def _post(scene: Scene, role: str, name: str, data: dict) -> None:
    seat = getattr(scene, role.lower())
    window = scene.campaign.open_window()
    r = scene.client(role).post(
        reverse(f"orders:{name}", args=[seat.code]), {"phase": window.phase, **data}
    )
    assert r.status_code in (200, 302), r.content.decode()[:1000]
    sheet = OrderSheet.objects.filter(window=window, seat=seat).first()
    assert name == "ready" or (sheet is not None and sheet.draft), (
        f"{role}'s {name} {data} was not saved: " + r.content.decode()[:1000]
    )


def decide(scene: Scene, role: str, **data) -> None:
    """A battle decision (``hex``, ``army``, ``choice``) or an honors answer (``city``,
    ``answer``), saved from the orders page's form."""
    kind = "battle" if "choice" in data else "honors"
    _post(scene, role, "decide", {"kind": kind, **data})
    saved = draft_of(scene, role).get(kind, [])
    if kind == "battle":
        wanted = {"hex": data["hex"], "army": data["army"], "choice": data["choice"]}
        assert wanted in saved, (wanted, saved)
    else:
        assert any(d["city"] == data["city"] and data["answer"] in d.values() for d in saved), (
            data,
            saved,
        )


def march(scene: Scene, role: str, unit: str, path: str) -> None:
    """A march order (or, in the forced march phase, a forced march order) on the orders page."""
    extra = {"marches": 1} if scene.campaign.open_window().phase == "march" else {}
    _post(scene, role, "save_march", {"unit": unit, "path": path, "meeting": "hold", **extra})
    kind = "march" if extra else "forced_march"
    saved = [o for o in draft_of(scene, role).get(kind, []) if o["unit"] == unit]
    assert saved and str(saved[0]["path"]) == path, (unit, path, saved)


def ready(scene: Scene, role: str, capture) -> None:
    """The seat presses Ready; the phase resolves if everyone owed is (its on-commit work done)."""
    seat = getattr(scene, role.lower())
    window = scene.campaign.open_window()
    with capture(execute=True):
        _post(scene, role, "ready", {})
    sheet = OrderSheet.objects.filter(window=window, seat=seat).first()
    assert sheet is not None and sheet.ready, f"{role}'s Ready was refused"


def draft_of(scene: Scene, role: str) -> dict:
    """The seat's draft in the open window (its decisions as saved)."""
    seat = getattr(scene, role.lower())
    window = scene.campaign.open_window()
    sheet = OrderSheet.objects.filter(window=window, seat=seat).first()
    return sheet.draft if sheet is not None else {}


# --- the comparison ---------------------------------------------------------------------------


def noninterference(scene: Scene, secret, control, *, label: str, at=None, mail_order="") -> None:
    """``secret(which)`` seen by A and by C: no difference; ``control(which)`` (A's own order
    or decision differs) seen by A: a difference. Every comparison is made, and tabled, before
    the first failure is raised. ``mail_order``: a mail order A sends in each world (its answer
    is a channel); ``at``: the frozen moment of both worlds."""
    failures = []
    for role, seat in (("A", scene.a), ("C", scene.c)):
        observe = SeatObserver(scene.campaign, seat.power, mail_order=mail_order * (role == "A"))
        one, two = two_worlds(secret, observe, at=at)
        try:
            assert_same(one, two, label=f"{label} → seen by {role}")
        except AssertionError as exc:
            failures.append(str(exc))
    observe = SeatObserver(scene.campaign, scene.a.power, mail_order=mail_order)
    one, two = two_worlds(control, observe, at=at)
    assert_differs(one, two, label=f"control: A's own instead, {label} → seen by A")
    assert not failures, "\n\n".join(failures)


def two(which: str, one, other):
    """World one's value or world two's."""
    return one if which == "one" else other
