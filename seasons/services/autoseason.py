"""A season on the bundled map of 1756 played through the services by the engine's automatic
players (``rules.autoplay``): five seats, battles settled by the quick resolution.

The tests' seasons (``tests/seasons/real_season.py``), the benches and the sample book of the season
(``manage.py playseason``, docs/season-end.md) all play it here. ``capture`` wraps each
resolution and each battle (the tests pass Django's on-commit capture; elsewhere the commit
runs them); ``step`` is called after each with what it did; ``make_user`` makes each seat's
player.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from django.utils import timezone

from battles.services import records as battle_service
from battles.services import results as battle_results
from campaign.models import Campaign, StateVersion
from campaign.services import gameplay, setup, viewcache
from campaign.services.caretaker import own_orders
from campaign.services.resolution import resolve_due_phase
from maps.core.loader import load_map
from orders.models import OrderSheet
from rules.autoplay import battle_decisions, deployment_orders, march_orders
from rules.orders import Orders, orders_to_dict

SEED = "crawl-7a3f91c2e5d80b64"  # the same season every run


def _no_capture(execute: bool = True) -> AbstractContextManager:
    return nullcontext()


def automatic_orders(phase: str, state, hexmap, sample: Orders | None = None) -> Orders:
    """Every army's orders for the window of ``phase`` as the automatic players give them (the
    same every run: their dice are named "crawl"); a deployment is ``sample``'s."""
    if phase == "deployment":
        return Orders(deployment=sample.deployment if sample is not None else ())
    if phase == "march":
        return march_orders(state, hexmap, "crawl")
    if phase == "battle":
        return battle_decisions(state, "crawl")
    return Orders()


def play_season(
    organiser,
    capture: Callable[..., AbstractContextManager] = _no_capture,
    *,
    make_user: Callable[[str], object],
    turns: int = 3,
    name: str = "Real crawl",
    prefix: str = "real",
    step: Callable[[str, object], None] | None = None,
    plays: Callable[[object], bool] | None = None,
    **create,
) -> tuple[Campaign, int]:
    """Play ``turns`` turns; returns the campaign and the number of battles fought.
    ``step(what, subject)`` follows each resolution ("phase", the window resolved) and each
    quick battle ("battle", the battle), each inside its own on-commit capture. ``plays(seat)``:
    whether that seat writes its orders (default every seat; the others leave them to what a
    missed deadline does, the caretaker for one). ``create``: more
    arguments of ``setup.create_campaign`` (rule settings, options...)."""
    hexmap = load_map()
    rules = gameplay.rule_settings(Campaign(rule_settings={}))
    points, sample = deployment_orders(hexmap, rules)
    now = timezone.now()
    campaign = setup.create_campaign(
        organiser, name=name, players=5, now=now, army_points=points, **create
    )
    campaign.seed = SEED
    campaign.save(update_fields=["seed"])
    by_army = {d.army.value: d for d in sample.deployment}
    for s in campaign.seats.all():
        s.user = make_user(f"{prefix}-{s.power}")
        s.leaders = {a: [k for k, *_ in by_army[a].leaders] for a in s.armies}
        s.save()
    with capture(execute=True):
        setup.start_campaign(campaign, organiser, now=now)
    if step:
        step("start", campaign)
    battles = 0
    for _ in range(20 * turns + 10):  # the windows that wait for players, with margin
        window = campaign.open_window()
        if window is None or window.turn > turns:
            break
        # The players read the state as their pages do: decoded once per process, or the one
        # the resolution just made (its JSON not loaded again).
        state = viewcache.version_state(
            StateVersion.objects.defer("state", "orders").get(id=window.version_id)
        )
        orders = automatic_orders(window.phase, state, hexmap, sample)
        sheets = []
        for s in campaign.seats.filter(reserve=False):
            if not window.owes(s) or s.is_absent(window.deadline or now):
                continue  # (an absent player gives no orders: his forces stand still)
            if plays is not None and not plays(s):
                continue
            draft = (
                orders_to_dict(Orders(deployment=tuple(by_army[a] for a in s.armies)))
                if window.phase == "deployment"
                else own_orders(orders, set(s.armies))
            )
            sheets.append(
                OrderSheet(
                    campaign=campaign, window=window, seat=s, draft=draft, ready=True,
                    submitted_at=now,
                )
            )  # fmt: skip
        # Every seat's sheet, ready, in one upsert (the players' own requests are measured by
        # the page benches; this is what they leave in the database).
        OrderSheet.objects.bulk_create(
            sheets,
            update_conflicts=True,
            unique_fields=["window", "seat"],
            update_fields=["draft", "ready", "submitted_at"],
        )
        with capture(execute=True):
            resolve_due_phase(window.id, now=window.deadline or now)
            battle_service.sync(campaign)
            pending = list(campaign.battles.filter(status="pending"))
        if step:
            step("phase", window)
        for b in pending:
            with capture(execute=True):
                battle_results.quick_resolve(b, organiser, attacker=None, now=now)
            battles += 1
            if step:
                step("battle", b)
    return campaign, battles
