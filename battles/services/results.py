"""A battle's result (issue 7): a side enters, the other confirms or disputes, the organiser
settles (or enters alone, or uses the quick resolution); ``continue_turn`` hands every final
result of the turn to the engine through the battle window's order sheets, so the season goes on
(siege phase). ``notify`` queues the battles' emails (``battles.services.mail`` words them).
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import transaction

from battles.models import Battle, BattleStatus, EntryKind, ResultEntry
from battles.services.briefing import briefing, describe_result
from battles.services.records import (
    SIDES,
    UMPIRE,
    BattleError,
    audience_for,
    log_action,
    may_settle,
    side_of_seat,
    table_layout,
    tabletop_settings,
)
from campaign.models import Campaign, PhaseWindow, Seat, StateVersion
from campaign.projection import cites
from campaign.services import outgoing, resolution, viewcache
from maps.core.model import Terrain
from rules.armies import ADJECTIVES, Army
from rules.dice import Dice
from rules.state import Phase
from tabletop import quick
from tabletop.layout import TableLayout


class ResultError(BattleError):
    """A result that cannot be read: every problem in plain words, each with what it is about
    (``"loser"``, ``"outcome"``, ``"losses.austria"``, ``"prisoners.austria"``, ``"killed"``,
    ``"captured"``; None for the whole result), so a form shows it beside its field."""

    def __init__(self, problems: list[tuple[str | None, str]]) -> None:
        super().__init__(" ".join(text for _, text in problems))
        self.problems = problems


def _army_points(
    given, what: str, present: dict[str, int], ceiling, too_many, problems: list
) -> dict[str, int]:
    """Points per army from a result form (losses, prisoners): whole, not negative, of an army
    that fought, at most ``ceiling(army)``; each problem in plain words, added to ``problems``
    as ``("<what>.<army>", text)``."""
    out: dict[str, int] = {}
    for army, raw in (given or {}).items():
        label = ADJECTIVES.get(Army(army), army) if army in present else army
        key = f"{what}.{army}"
        try:
            points = int(raw or 0)
        except (TypeError, ValueError):
            problems.append((key, f"{label} {what} must be a whole number of points."))
            continue
        if army not in present:
            problems.append((key, f"No {army} force fought in this battle."))
        elif points < 0:
            problems.append((key, f"{label} {what} cannot be negative."))
        elif points > ceiling(army):
            problems.append((key, too_many(label, points, army)))
        elif points:
            out[army] = points
    return out


def _retire_problems(setup: dict[str, Any], loser: str, outcome: str) -> list[str]:
    """A side retires only if the rules let every force of it (10.1, 10.1.1, 11.3). Battles set
    up before this was recorded (no ``may_retire``) are taken as allowed."""
    side = setup["sides"].get(loser) or {}
    if outcome != "retired" or side.get("may_retire", True):
        return []
    reason, rule = side.get("retire_refusal") or "the rules forbid it", side.get("retire_rule")
    rule = rule or "10.1"
    cited = reason if cites(reason, rule) else f"{reason} ({rule})"  # the rule once
    side_name = loser.capitalize()  # ("austrian": the Austrian side)
    return [f"The {side_name} side may not retire: {cited}. Enter it as defeated outright."]


def parse_result(battle: Battle, data: dict[str, Any], *, informed: bool = True) -> dict[str, Any]:
    """A result in the engine's format, or BattleError with every problem, in plain words.

    ``data``: ``loser`` (alliance value), ``outcome`` ("retired" / "defeated"), ``losses``
    (army value -> points lost), optionally ``prisoners`` (army value -> the part of its losses
    taken prisoner, 13.2), ``killed`` and ``captured`` (leader keys). Unless ``informed``
    (a side of the battle, or the umpire), the messages do not say how many points were present:
    an organiser who plays settles without learning them.
    """
    setup = battle.setup
    problems: list[tuple[str | None, str]] = []
    loser = str(data.get("loser") or "")
    if loser not in setup["sides"]:
        problems.append(("loser", "Say which side lost the battle (10: one force must retreat)."))
    outcome = str(data.get("outcome") or "")
    if outcome not in ("retired", "defeated"):
        problems.append(
            ("outcome", "Say whether the loser retired or was defeated outright (10.1).")
        )
    problems += [("outcome", text) for text in _retire_problems(setup, loser, outcome)]
    present = {
        a: int(v["points"])
        for s in setup["sides"].values()
        for a, v in s.get("points_by_country", {}).items()
    }

    def too_many_losses(label: str, points: int, army: str) -> str:
        present_text = f"the {present[army]}" if informed else "the points"
        return f"{label} losses of {points} points are more than {present_text} present."

    losses = _army_points(
        data.get("losses"), "losses", present, present.__getitem__, too_many_losses, problems
    )
    prisoners = _army_points(
        data.get("prisoners"),
        "prisoners",
        present,
        lambda army: losses.get(army, 0),
        lambda label, _p, _a: f"{label} prisoners are a part of its losses (13.2): at most those.",
        problems,
    )
    leaders_present = {
        x["leader"]: x["name"] for s in setup["sides"].values() for x in s.get("leaders", [])
    }
    killed = [str(k) for k in data.get("killed") or []]
    captured = [str(k) for k in data.get("captured") or []]
    for what, keys in (("killed", killed), ("captured", captured)):
        for key in keys:
            if key not in leaders_present:
                problems.append((what, f"{key!r} was not a leader in this battle."))
    for key in sorted(set(killed) & set(captured)):
        problems.append(
            ("captured", f"{leaders_present.get(key, key)} cannot be both killed and captured.")
        )
    if problems:
        raise ResultError(problems)
    result = {
        "battle": battle.battle_id,
        "loser": loser,
        "outcome": outcome,
        "losses": losses,
        "killed": killed,
        "captured": captured,
    }
    if prisoners:
        result["prisoners"] = prisoners
    return result


def enter_result(battle: Battle, seat: Seat, data: dict[str, Any], *, now: datetime) -> Battle:
    """A side enters the result; the other side is asked to confirm it. Entering again while
    it waits voids the earlier entry (kept in the history) and tells the other side."""
    side = side_of_seat(battle, seat)
    if side is None:
        raise BattleError("Only the players whose armies fought may enter the result.")
    result = parse_result(battle, data)
    with transaction.atomic():
        battle = _locked(battle)
        if battle.status in (BattleStatus.CONFIRMED, BattleStatus.SETTLED, BattleStatus.APPLIED):
            raise BattleError("This battle's result is already final.")
        if battle.status == BattleStatus.DISPUTED:
            raise BattleError("The result is disputed: the organiser settles it.")
        replaced = _void_pending(battle, now)
        _add_entry(battle, EntryKind.ENTERED, result, now, seat=seat, user=seat.user)
        battle.result = result
        battle.status = BattleStatus.ENTERED
        battle.entered_by = seat
        battle.entered_at = now
        battle.answered_by = None
        battle.save()
    notify(battle, "result-replaced" if replaced else "result-entered", exclude_side=side)
    return battle


def _locked(battle: Battle) -> Battle:
    """The battle read again under a row lock (inside a transaction): what it is now."""
    return Battle.objects.select_for_update().select_related("campaign").get(id=battle.id)


def _void_pending(battle: Battle, now: datetime) -> bool:
    """Void the entries still waiting for an answer; True when there was one."""
    return bool(battle.entries.filter(voided__isnull=True, answer="").update(voided=now))


def _add_entry(
    battle: Battle, kind: str, result: dict, now: datetime, *, seat=None, user=None
) -> ResultEntry:
    last = battle.entries.order_by("-number").values_list("number", flat=True).first() or 0
    return ResultEntry.objects.create(
        battle=battle, number=last + 1, kind=kind, seat=seat, user=user, result=result, created=now
    )


def pending_entry(battle: Battle) -> ResultEntry | None:
    """The entry waiting for the other side's answer, if any."""
    if battle.status != BattleStatus.ENTERED:
        return None
    return battle.entries.filter(voided__isnull=True, answer="").order_by("-number").first()


def latest_entry(battle: Battle) -> ResultEntry | None:
    """The result the players last entered, while it waits for an answer or is disputed: the
    organiser's settle form starts from it."""
    if battle.status not in (BattleStatus.ENTERED, BattleStatus.DISPUTED):
        return None
    return battle.entries.filter(voided__isnull=True).order_by("-number").first()


def entry_history(battle: Battle, *, exact: bool = True) -> list[dict[str, Any]]:
    """Every entry of the result, oldest first, described for the battle page (the losses
    only when ``exact``, as ``describe_result``)."""
    rows = []
    for entry in battle.entries.select_related("seat", "user", "answered_by"):
        if entry.kind == EntryKind.ENTERED:
            who = entry.seat.label if entry.seat else "a side"
        elif entry.kind == EntryKind.SETTLED:
            who = "the organiser (settled)"
        else:
            who = "the organiser (quick resolution)"
        if entry.voided:
            state = f"replaced by a newer entry {entry.voided:%d %b %H:%M}"
        elif entry.answer:
            by = entry.answered_by.label if entry.answered_by else "the other side"
            state = f"{entry.answer} by {by}" + (f": {entry.reason}" if entry.reason else "")
        elif entry.kind == EntryKind.ENTERED:
            state = "waiting for the other side"
        else:
            state = "final"
        rows.append(
            {
                "number": entry.number,
                "who": who,
                "when": entry.created,
                "lines": describe_result(battle, entry.result, exact=exact),
                "state": state,
                "voided": bool(entry.voided),
            }
        )
    return rows


def confirm_result(battle: Battle, seat: Seat, entry: int | None, *, now: datetime) -> Battle:
    """The other side confirms the entry it read (by its number): it is final."""
    with transaction.atomic():
        battle = _locked(battle)
        pending = _answerable(battle, seat, entry)
        ResultEntry.objects.filter(id=pending.id).update(
            answer="confirmed", answered_by=seat, answered_at=now
        )
        Battle.objects.filter(id=battle.id).update(status=BattleStatus.CONFIRMED, answered_by=seat)
    battle.refresh_from_db()
    continue_turn(battle.campaign, now=now)
    battle.refresh_from_db()
    return battle


def dispute_result(
    battle: Battle, seat: Seat, entry: int | None, reason: str, *, now: datetime
) -> Battle:
    """The other side disputes the entry it read: the organiser settles it."""
    reason = reason.strip()
    with transaction.atomic():
        battle = _locked(battle)
        pending = _answerable(battle, seat, entry)
        if not reason:
            raise BattleError("Say what is wrong with the result, for the organiser.")
        ResultEntry.objects.filter(id=pending.id).update(
            answer="disputed", answered_by=seat, answered_at=now, reason=reason
        )
        Battle.objects.filter(id=battle.id).update(
            status=BattleStatus.DISPUTED, answered_by=seat, dispute=reason
        )
    battle.refresh_from_db()
    notify_organiser(battle, "result-disputed")
    # The side that entered it learns why, and that it waits for nothing more from him.
    notify(battle, "result-contested", exclude_side=side_of_seat(battle, seat))
    return battle


def _answerable(battle: Battle, seat: Seat, entry: int | None) -> ResultEntry:
    """The pending entry ``seat`` may answer; refused unless it is the one the player read."""
    side = side_of_seat(battle, seat)
    if side is None:
        raise BattleError("Only the players whose armies fought may answer the result.")
    pending = pending_entry(battle)
    if pending is None:
        raise BattleError("There is no result waiting for confirmation.")
    if battle.entered_by is not None and side_of_seat(battle, battle.entered_by) == side:
        raise BattleError(
            "The other side confirms or disputes a result, not the side that entered it."
        )
    if entry != pending.number:
        raise BattleError(
            f"The result was entered again (entry {pending.number}) after the one you answered: "
            "read the new entry below and answer it."
        )
    return pending


def settle_result(
    battle: Battle, user, data: dict[str, Any], *, now: datetime, reason: str = ""
) -> Battle:
    """The organiser settles a dispute, or enters a result alone: it is final."""
    if not may_settle(battle, user):
        raise BattleError("Only the organiser settles results.")
    if battle.status == BattleStatus.APPLIED:
        raise BattleError("This battle's result is already applied.")
    result = parse_result(battle, data, informed=audience_for(battle, user) is not None)
    _void_pending(battle, now)
    _add_entry(battle, EntryKind.SETTLED, result, now, user=user)
    battle.result = result
    battle.status = BattleStatus.SETTLED
    battle.settled_by = user
    battle.entered_at = battle.entered_at or now
    battle.save()
    log_action(battle, user, f"Settled the result of {battle.named}.", now, reason)
    continue_turn(battle.campaign, now=now)
    battle.refresh_from_db()
    return battle


def quick_resolve(
    battle: Battle, user, *, attacker: str | None, now: datetime, why: str = ""
) -> Battle:
    """The organiser resolves the battle with SPI's tables (docs/quick-resolution.md), with
    the campaign's named dice; the record says it was not fought on the table."""
    if not may_settle(battle, user):
        raise BattleError("Only the organiser may resolve a battle without the table.")
    if battle.status == BattleStatus.APPLIED:
        raise BattleError("This battle's result is already applied.")
    setup = battle.setup
    outcome, quick_dice = quick_outcome(battle, attacker)
    loser = outcome.loser
    retired = loser.outcome is quick.QuickOutcome.RETIRED
    steps = [{"rule": s.rule, "text": s.text} for s in outcome.steps]
    loser_side = setup["sides"][loser.name]
    if retired and not loser_side.get("may_retire", True):
        # SPI's retreat is a retirement only where DGK allows one (docs/rules-interpretations.md)
        retired = False
        steps.append(
            {
                "rule": loser_side.get("retire_rule") or "10.1",
                "text": f"The {loser.name.capitalize()} side may not retire "
                f"({loser_side.get('retire_refusal') or 'the rules forbid it'}): "
                "it is defeated outright.",
            }
        )
    # The engine's losses count the prisoners; "prisoners" says which part of them (13.2).
    losses: dict[str, int] = {}
    prisoners: dict[str, int] = {}
    for side_result in outcome.sides:
        eliminated = _share(setup["sides"][side_result.name], side_result.losses)
        taken = _share(setup["sides"][side_result.name], side_result.prisoners)
        for army in eliminated:
            if eliminated[army] + taken[army]:
                losses[army] = eliminated[army] + taken[army]
            if taken[army]:
                prisoners[army] = taken[army]
    killed = [k for s in outcome.sides for k in s.killed]
    captured = [k for s in outcome.sides for k in s.captured]
    data = {
        "loser": loser.name,
        "outcome": "retired" if retired else "defeated",
        "losses": losses,
        "prisoners": prisoners,
        "killed": killed,
        "captured": captured,
    }
    battle.result = parse_result(battle, data)
    _void_pending(battle, now)
    _add_entry(battle, EntryKind.QUICK, battle.result, now, user=user)
    battle.quick = True
    battle.quick_record = {
        "method": outcome.method,
        "steps": steps,
        "cell": str(outcome.cell) if outcome.cell else "",
        "die": outcome.die,
        "rolls": quick_dice.rolls_as_dicts(),
        "seed_epoch": battle.campaign.seed_epoch,
    }
    battle.status = BattleStatus.SETTLED
    battle.settled_by = user
    battle.entered_at = now
    battle.save()
    log_action(
        battle,
        user,
        f"Resolved {battle.named} with the quick resolution (not on the table).",
        now,
        why,
    )
    continue_turn(battle.campaign, now=now)
    battle.refresh_from_db()
    return battle


def quick_outcome(battle: Battle, attacker: str | None) -> tuple[quick.QuickResult, Dice]:
    """SPI's tables applied to the battle with its own named dice (docs/quick-resolution.md):
    the outcome as SPI gives it, and the dice (their rolls go into the record)."""
    setup = battle.setup
    # SPI 9.0: the side that elects to attack is the attacker; here, a side whose player chose
    # to fight in the battle phase (9). quick.resolve decides with the first option otherwise.
    electing = set(wished_to_fight(battle))
    sides = []
    for side in SIDES:
        data = setup["sides"][side]
        leaders = sorted(
            data.get("leaders", []),
            key=lambda x: (x["leader"] != data.get("commander"), x["rank"]),
        )
        sides.append(
            quick.QuickSide(
                side,
                int(data["points"]),
                tuple(
                    quick.QuickLeader(x["leader"], x["rank"], x["book_tactical_ir"])
                    for x in leaders
                ),
                demoralized=bool(data.get("demoralized_forces")),
                unsupplied=bool(data.get("unsupplied_forces")),
                elects_to_attack=side in electing,
                field_works=int((data.get("field_works") or {}).get("inches", 0)),
            )
        )
    ts = tabletop_settings(battle.campaign)
    terrain = Terrain[setup["terrain"].upper()]
    # Its own seed (docs/dice.md), so that no campaign die tells the quick result beforehand.
    quick_dice = Dice(seed=battle.campaign.derived_seed("quick"))
    outcome = quick.resolve(
        quick.QuickBattle(
            battle.battle_id,
            (sides[0], sides[1]),
            terrain,
            attacker=attacker or None,
            points_per_strength_point=ts.points_per_strength_point,
        ),
        quick_dice.roll,
    )
    return outcome, quick_dice


def wished_to_fight(battle: Battle) -> list[str]:
    """The sides whose players chose to fight (9: a battle is fought "if and only if either
    player involved wishes to do so"), from the decisions the battle phase used."""
    sides = set()
    # Each army's side as the engine set the battle up (the alliance of now, 1.2 and 13.8).
    side_of = {
        army: side
        for side, data in battle.setup["sides"].items()
        for army in data.get("points_by_country", {})
    }
    versions = StateVersion.objects.filter(
        campaign=battle.campaign, turn=battle.turn, resolved_phase=Phase.BATTLE.value
    )
    for version in versions:
        for used in (version.orders or {}).values():
            for d in (used or {}).get("orders", {}).get("battle", []) or []:
                fought = d.get("hex") == battle.hex and d.get("choice") == "fight"
                if fought and d.get("army") in side_of:
                    sides.add(side_of[d["army"]])
    return sorted(sides)


def _share(side: dict, loss: int) -> dict[str, int]:
    """A side's loss shared among its countries in proportion to their points (largest
    remainder), so the engine can take it from each country's forces."""
    points = {a: int(v["points"]) for a, v in side.get("points_by_country", {}).items()}
    total = sum(points.values())
    if total == 0:
        return {}
    exact = {a: Fraction(loss * p, total) for a, p in points.items()}
    out = {a: int(v) for a, v in exact.items()}
    rest = loss - sum(out.values())
    for a in sorted(exact, key=lambda a: (-(exact[a] - out[a]), a))[:rest]:
        out[a] += 1
    return out


def battle_window(campaign: Campaign) -> PhaseWindow | None:
    window = campaign.open_window()
    if window is None or window.phase != Phase.BATTLE.value:
        return None
    return window


def continue_turn(campaign: Campaign, *, now: datetime) -> bool:
    """When every battle the campaign waits for has a final result, hand them all to the
    engine (the battle window's orders from no seat) and resolve it: the turn continues with
    the siege phase (9, 4). False when some battle still waits."""
    campaign.refresh_from_db()
    window = battle_window(campaign)
    if window is None:
        return False
    # Decoded once per process (the resolution that opened the window left it), JSON unread.
    state = viewcache.version_state(
        StateVersion.objects.defer("state", "orders").get(id=window.version_id)
    )
    waiting = [b.id for b in state.pending_battles]
    if not waiting:
        return False
    records = {b.battle_id: b for b in campaign.battles.filter(battle_id__in=waiting)}
    if len(records) < len(waiting) or not all(b.is_final for b in records.values()):
        return False
    results = [records[i].result for i in waiting]
    version = resolution.resolve_due_phase(
        window.id, now=now, force=True, extra_orders={"battle_results": results}
    )
    if version is None:
        return False
    for battle in records.values():
        layout = table_layout(battle)  # (one table for the three briefings)
        battle.archive = {
            audience: _archived(battle, audience, layout) for audience in (UMPIRE, *SIDES)
        }
        battle.status = BattleStatus.APPLIED
        battle.applied_at = now
        battle.save()
        notify(battle, "result-applied")
    return True


def _archived(battle: Battle, audience: str, layout: TableLayout) -> dict[str, Any]:
    """The briefing as it was, JSON-safe, kept for history."""
    data = briefing(battle, audience, layout=layout)
    data.pop("battle")
    return data


def _queue_mail(battle: Battle, kind: str, **options: Any) -> None:
    """Queue the email when the transaction commits; the ``send_email`` task sends it."""
    outgoing.queue_battle(battle.id, kind, **options)


def notify(battle: Battle, kind: str, exclude_side: str | None = None) -> None:
    """Email every seated player whose armies fought (but ``exclude_side``)."""
    _queue_mail(battle, kind, exclude_side=exclude_side)


def notify_organiser(battle: Battle, kind: str) -> None:
    _queue_mail(battle, kind, organiser=True)
