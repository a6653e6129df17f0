"""Orders: what players write, read from plain data, and checked against the state.

A march or forced march order names one leader or siege train and gives its line of march in
direction codes (6: "1-2-2-1-6"). A leader with two marches writes one line; the engine spends his
first march's MPs, then his second's (see docs/rules-interpretations.md, 6.2). Orders that cannot
be read or that break a rule are *rejected*: the engine reports them to their owner
(``ORDER_REJECTED``, with the reason) and treats them as no order; they never stop the turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from maps.core.hexgrid import PathError, format_path, parse_path
from rules.armies import Alliance, Army
from rules.events import Event, EventKind, private
from rules.leaders import leader, leader_key


class OrderError(ValueError):
    """An order that cannot be read or breaks a rule; the message says which and why."""


@dataclass(frozen=True)
class MarchOrder:
    """A march order (6.2) for a leader's force or a siege train.

    ``drop`` lists subordinates dropped off along the line of march (6.2.6) as (leader, hex id).
    ``works``: Frederick builds field works with his marches instead of moving (9.4.2).
    ``meeting``: the hex chosen if this force wins a meeting roll (6.4.4): "hold" its own hex,
    or "advance" into the enemy's.
    """

    unit: str
    path: tuple[int, ...] = ()
    marches: int = 1
    drop: tuple[tuple[str, str], ...] = ()
    leave_fortress: bool = False
    enter_fortress: bool = False
    works: bool = False
    meeting: str = "hold"

    def describe(self) -> str:
        return f"{self.unit} {format_path(self.path) or '(no steps)'}"


@dataclass(frozen=True)
class ForcedMarchOrder:
    """A forced march order (6.3): one more march of 5 MPs, if the die allows."""

    unit: str
    path: tuple[int, ...] = ()
    drop: tuple[tuple[str, str], ...] = ()
    leave_fortress: bool = False
    enter_fortress: bool = False
    meeting: str = "hold"


GARRISON = "garrison"


@dataclass(frozen=True)
class TransferOrder:
    """Points handed over at the start of the turn (6.4.2, 6.4.3). ``source`` and ``target`` are
    leader keys, or "garrison" for the fortress garrison of the leader's hex."""

    source: str
    target: str
    points: int


@dataclass(frozen=True)
class Deployment:
    """One army's deployment (3): leaders (key, hex, points, inside), garrisons (city, points)
    and siege trains (id, hex, inside)."""

    army: Army
    leaders: tuple[tuple[str, str, int, bool], ...] = ()
    garrisons: tuple[tuple[str, int], ...] = ()
    siege_trains: tuple[tuple[str, str, bool], ...] = ()


@dataclass(frozen=True)
class Orders:
    """All orders for one phase (or a whole scenario); each phase reads the kinds it needs."""

    march: tuple[MarchOrder, ...] = ()
    transfers: tuple[TransferOrder, ...] = ()
    forced_march: tuple[ForcedMarchOrder, ...] = ()
    deployment: tuple[Deployment, ...] = ()
    battle: tuple[BattleDecision, ...] = ()  # part 2: 9, 10.1
    battle_results: tuple[BattleResult, ...] = ()  # part 2: 9.5, 10.1
    honors: tuple[HonorsDecision, ...] = ()  # part 2: 11.6
    rejected: tuple[Event, ...] = field(default=())  # orders that could not even be read


NO_ORDERS = Orders()
# every kind of order a file may give, in the order of the turn
ORDER_KINDS = (
    "deployment",
    "transfers",
    "march",
    "forced_march",
    "battle",
    "battle_results",
    "honors",
)


def rejection(army: Army | None, text: str, rule: str, **data: Any) -> Event:
    """An order that was not carried out, told to its owner only. When the owner cannot be
    told from the order (an unknown unit), no seat is told: only the umpire sees it, since
    what a player wrote is that player's secret."""
    return Event(
        rule=rule,
        kind=EventKind.ORDER_REJECTED,
        text=f"Order rejected: {text}",
        data=data,
        audience=private(army) if army else frozenset(),
    )


def _army_or_none(name: Any) -> Army | None:
    try:
        return Army.parse(name)
    except ValueError:
        return None


def unit_army(unit: str) -> Army | None:
    """The army of a leader key, or of a siege train id "army-n"; None if neither."""
    try:
        return leader(unit).army
    except KeyError:
        pass
    head = unit.rsplit("-", 1)[0]
    try:
        return Army.parse(head)
    except ValueError:
        return None


def _path(value: Any) -> tuple[int, ...]:
    if isinstance(value, list):
        value = "-".join(str(v) for v in value)
    return parse_path(value or "")


def _drops(value: Any) -> tuple[tuple[str, str], ...]:
    if not value:
        return ()
    if not isinstance(value, dict):
        raise OrderError(
            "'drop' maps subordinate leaders to the hex where they stay, e.g. "
            '{"seydlitz": "0405"}'
        )
    return tuple((leader_key(k), str(v)) for k, v in value.items())


def _meeting(value: Any) -> str:
    if value not in ("hold", "advance"):
        raise OrderError("'meeting' is 'hold' (meet in your own hex) or 'advance'")
    return value


_MARCH_KEYS = {
    "unit",
    "path",
    "marches",
    "drop",
    "leave_fortress",
    "enter_fortress",
    "works",
    "meeting",
}
_FORCED_KEYS = _MARCH_KEYS - {"marches", "works"}


def _check_keys(item: dict, allowed: set[str], what: str) -> None:
    unknown = set(item) - allowed
    if unknown:
        raise OrderError(
            f"{what}: unknown field(s) {', '.join(sorted(unknown))}; "
            f"allowed: {', '.join(sorted(allowed))}"
        )


def _unit(item: dict) -> str:
    unit = item.get("unit")
    if not isinstance(unit, str) or not unit.strip():
        raise OrderError(
            'every order names its \'unit\': a leader ("frederick") or a siege train ("prussia-1")'
        )
    key = leader_key(unit)
    return key


def march_order_from_dict(item: dict) -> MarchOrder:
    if not isinstance(item, dict):
        raise OrderError('a march order is an object such as {"unit": "daun", "path": "4-4"}')
    _check_keys(item, _MARCH_KEYS, f"march order for {item.get('unit')!r}")
    marches = item.get("marches", 1)
    if not isinstance(marches, int) or isinstance(marches, bool) or marches < 1:
        raise OrderError(f"march order for {item.get('unit')!r}: 'marches' is 1 or 2")
    return MarchOrder(
        unit=_unit(item),
        path=_path(item.get("path")),
        marches=marches,
        drop=_drops(item.get("drop")),
        leave_fortress=bool(item.get("leave_fortress", False)),
        enter_fortress=bool(item.get("enter_fortress", False)),
        works=bool(item.get("works", False)),
        meeting=_meeting(item.get("meeting", "hold")),
    )


def forced_march_order_from_dict(item: dict) -> ForcedMarchOrder:
    if not isinstance(item, dict):
        raise OrderError(
            'a forced march order is an object such as {"unit": "daun", "path": "4-4"}'
        )
    _check_keys(item, _FORCED_KEYS, f"forced march order for {item.get('unit')!r}")
    return ForcedMarchOrder(
        unit=_unit(item),
        path=_path(item.get("path")),
        drop=_drops(item.get("drop")),
        leave_fortress=bool(item.get("leave_fortress", False)),
        enter_fortress=bool(item.get("enter_fortress", False)),
        meeting=_meeting(item.get("meeting", "hold")),
    )


def transfer_from_dict(item: dict) -> TransferOrder:
    if not isinstance(item, dict) or not {"from", "to", "points"} <= set(item):
        raise OrderError(
            'a transfer is an object {"from": leader or "garrison", '
            '"to": leader or "garrison", "points": n}'
        )
    points = item["points"]
    if not isinstance(points, int) or isinstance(points, bool) or points <= 0:
        raise OrderError(f"transfer from {item['from']!r}: 'points' must be a whole number above 0")
    source, target = (leader_key(str(item[k])) for k in ("from", "to"))
    return TransferOrder(source, target, points)


def deployment_from_dict(army_name: str, item: dict) -> Deployment:
    army = Army.parse(army_name)
    if not isinstance(item, dict):
        raise OrderError(
            f"deployment of {army.value}: an object with 'leaders', 'garrisons', 'siege_trains'"
        )
    _check_keys(item, {"leaders", "garrisons", "siege_trains"}, f"deployment of {army.value}")
    leaders = []
    for key, spec in (item.get("leaders") or {}).items():
        if not isinstance(spec, dict) or "hex" not in spec:
            raise OrderError(f"deployment of {army.value}: leader {key!r} needs a 'hex'")
        leaders.append(
            (
                leader_key(key),
                str(spec["hex"]),
                int(spec.get("points", 0)),
                bool(spec.get("inside", False)),
            )
        )
    garrisons = [(str(city), int(points)) for city, points in (item.get("garrisons") or {}).items()]
    trains = []
    for tid, spec in (item.get("siege_trains") or {}).items():
        if isinstance(spec, str):
            spec = {"hex": spec}
        trains.append((str(tid), str(spec["hex"]), bool(spec.get("inside", False))))
    return Deployment(army, tuple(leaders), tuple(garrisons), tuple(trains))


def orders_from_dict(data: dict | None) -> Orders:
    """Read orders. A malformed single order becomes a rejection; a malformed file raises."""
    if not data:
        return NO_ORDERS
    if not isinstance(data, dict):
        raise OrderError(f"an object of orders by kind; the kinds are {', '.join(ORDER_KINDS)}")
    unknown = set(data) - set(ORDER_KINDS)
    if unknown:
        raise OrderError(
            f"unknown kind(s) {', '.join(sorted(unknown))}; the kinds are {', '.join(ORDER_KINDS)}"
        )
    rejected: list[Event] = []

    def read(items: Iterable, reader, rule: str, kind: str = "") -> tuple:
        out = []
        for item in items or []:
            try:
                out.append(reader(item))
            except (OrderError, PathError, ValueError, KeyError) as exc:
                unit = item.get("unit") or item.get("from") if isinstance(item, dict) else None
                army = unit_army(leader_key(unit)) if isinstance(unit, str) else None
                rejected.append(rejection(army, str(exc), rule, order=item, order_kind=kind))
        return tuple(out)

    march = read(data.get("march"), march_order_from_dict, "6.2", "march")
    transfers = read(data.get("transfers"), transfer_from_dict, "6.4.2", "transfers")
    forced = read(data.get("forced_march"), forced_march_order_from_dict, "6.3", "forced_march")
    deployments = []
    for army_name, item in (data.get("deployment") or {}).items():
        try:
            deployments.append(deployment_from_dict(army_name, item))
        except (OrderError, ValueError, KeyError, TypeError) as exc:
            rejected.append(
                rejection(
                    _army_or_none(army_name),
                    str(exc)
                    if str(exc).startswith("deployment of")
                    else f"deployment of {army_name}: {exc}",
                    "3",
                    order_kind="deployment",
                )
            )
    battle = read(data.get("battle"), battle_decision_from_dict, "9", "battle")
    results = read(data.get("battle_results"), battle_result_from_dict, "9.5", "battle_results")
    honors = merge_honors(read(data.get("honors"), honors_from_dict, "11.6", "honors"))
    return Orders(
        march,
        transfers,
        forced,
        tuple(deployments),
        battle=battle,
        battle_results=results,
        honors=honors,
        rejected=tuple(rejected),
    )


def orders_to_dict(orders: Orders) -> dict[str, Any]:
    def common(o: MarchOrder | ForcedMarchOrder) -> dict[str, Any]:
        d: dict[str, Any] = {"unit": o.unit, "path": format_path(o.path)}
        if o.drop:
            d["drop"] = dict(o.drop)
        if o.leave_fortress:
            d["leave_fortress"] = True
        if o.enter_fortress:
            d["enter_fortress"] = True
        if o.meeting != "hold":
            d["meeting"] = o.meeting
        return d

    out: dict[str, Any] = {}
    if orders.march:
        out["march"] = [
            {**common(o), "marches": o.marches, **({"works": True} if o.works else {})}
            for o in orders.march
        ]
    if orders.transfers:
        out["transfers"] = [
            {"from": t.source, "to": t.target, "points": t.points} for t in orders.transfers
        ]
    if orders.forced_march:
        out["forced_march"] = [common(o) for o in orders.forced_march]
    if orders.deployment:
        out["deployment"] = {
            d.army.value: {
                "leaders": {k: {"hex": h, "points": p, "inside": i} for k, h, p, i in d.leaders},
                "garrisons": dict(d.garrisons),
                "siege_trains": {t: {"hex": h, "inside": i} for t, h, i in d.siege_trains},
            }
            for d in orders.deployment
        }
    out.update(part2_orders_to_dict(orders))
    return out


# --- part 2: battle decisions, battle results, honors of war (9, 10.1, 11.6) ------------------


class Choice(Enum):
    """An army's decision for a meeting in the battle phase (9, 10.1)."""

    FIGHT = "fight"  # wishes a battle
    DECLINE = "decline"  # does not wish one (also: no decision)
    RETIRE = "retire"  # retires before the battle (10.1; only after a march order)


class Outcome(Enum):
    """How the losing side left the battle (10.1)."""

    RETIRED = "retired"  # retired during the battle with the enemy's consent
    DEFEATED = "defeated"  # defeated outright: demoralized and routed


@dataclass(frozen=True)
class BattleDecision:
    hex: str
    army: Army
    choice: Choice


@dataclass(frozen=True)
class BattleResult:
    """The result of a tabletop battle (9.5, 10.1): ``loser`` is the alliance that retreats;
    ``losses`` the points each army lost; leaders ``killed`` or ``captured``. ``prisoners``: the
    part of each army's losses that surrendered on the tabletop (13.2). A loser written as an army
    is kept in ``loser_army``: its alliance is the state's (13.8), read when applied."""

    battle: str
    loser: Alliance
    outcome: Outcome
    losses: tuple[tuple[str, int], ...] = ()
    killed: tuple[str, ...] = ()
    captured: tuple[str, ...] = ()
    loser_army: Army | None = None
    prisoners: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class HonorsDecision:
    """Honors of war at a breached fortress (11.6): the besieger "grant"s or "deny"s, the garrison
    then "surrender"s or "fight"s. Missing answers take the defaults (grant; surrender)."""

    city: str
    besieger: str | None = None
    garrison: str | None = None


def _enum(cls: type[Enum], value: Any, what: str) -> Any:
    try:
        return cls(str(value).strip().lower())
    except ValueError:
        names = ", ".join(repr(m.value) for m in cls)
        raise OrderError(f"{what} is one of {names}, not {value!r}") from None


def battle_decision_from_dict(item: dict) -> BattleDecision:
    if not isinstance(item, dict) or not {"hex", "army", "choice"} <= set(item):
        raise OrderError(
            'a battle decision is {"hex": "0503", "army": "prussia", '
            '"choice": "fight" | "decline" | "retire"}'
        )
    return BattleDecision(
        str(item["hex"]), Army.parse(item["army"]), _enum(Choice, item["choice"], "'choice'")
    )


def _alliance(value: Any) -> tuple[Alliance, Army | None]:
    text = str(value).strip().lower()
    for alliance in Alliance:
        if text == alliance.value:
            return alliance, None
    army = Army.parse(text)
    return army.alliance, army


def battle_result_from_dict(item: dict) -> BattleResult:
    if not isinstance(item, dict) or not {"battle", "loser", "outcome"} <= set(item):
        raise OrderError(
            'a battle result is {"battle": "t3-0503", "loser": "austrian", '
            '"outcome": "retired" | "defeated", "losses": {"austria": 400}, '
            '"killed": [], "captured": []}'
        )
    losses = item.get("losses") or {}
    prisoners = item.get("prisoners") or {}
    for key, what in (("losses", losses), ("prisoners", prisoners)):
        if not isinstance(what, dict) or any(
            not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in what.values()
        ):
            raise OrderError(f"{key!r} maps armies to whole points")
    loser, loser_army = _alliance(item["loser"])
    return BattleResult(
        str(item["battle"]),
        loser,
        _enum(Outcome, item["outcome"], "'outcome'"),
        tuple(sorted((Army.parse(k).value, int(v)) for k, v in losses.items())),
        tuple(leader_key(k) for k in item.get("killed") or ()),
        tuple(leader_key(k) for k in item.get("captured") or ()),
        loser_army,
        tuple(sorted((Army.parse(k).value, int(v)) for k, v in prisoners.items())),
    )


def honors_from_dict(item: dict) -> HonorsDecision:
    if not isinstance(item, dict) or "city" not in item:
        raise OrderError(
            'an honors decision is {"city": "Torgau", "besieger": "grant" | "deny"} '
            'or {"city": "Torgau", "garrison": "surrender" | "fight"}'
        )
    besieger, garrison = item.get("besieger"), item.get("garrison")
    if besieger is not None and besieger not in ("grant", "deny"):
        raise OrderError("'besieger' is 'grant' or 'deny'")
    if garrison is not None and garrison not in ("surrender", "fight"):
        raise OrderError("'garrison' is 'surrender' or 'fight'")
    return HonorsDecision(str(item["city"]), besieger, garrison)


def merge_honors(items: Iterable[HonorsDecision]) -> tuple[HonorsDecision, ...]:
    """One decision per city: the besieger's and the garrison's answers come separately."""
    merged: dict[str, HonorsDecision] = {}
    for d in items:
        old = merged.get(d.city, HonorsDecision(d.city))
        merged[d.city] = HonorsDecision(
            d.city, d.besieger or old.besieger, d.garrison or old.garrison
        )
    return tuple(merged.values())


def part2_orders_to_dict(orders: Orders) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if orders.battle:
        out["battle"] = [
            {"hex": d.hex, "army": d.army.value, "choice": d.choice.value} for d in orders.battle
        ]
    if orders.battle_results:
        out["battle_results"] = [
            {
                "battle": r.battle,
                "loser": r.loser.value,
                "outcome": r.outcome.value,
                "losses": dict(r.losses),
                "killed": list(r.killed),
                "captured": list(r.captured),
            }
            for r in orders.battle_results
        ]
    if orders.honors:
        out["honors"] = [
            {
                k: v
                for k, v in (("city", d.city), ("besieger", d.besieger), ("garrison", d.garrison))
                if v is not None
            }
            for d in orders.honors
        ]
    return out
