"""Reconnaissance (8, 8.1, 8.2): enemy forces in the same or adjacent hexes learn each other's
total points and commander, never siege trains or the other leaders.

Austrian forces see two hexes away without being seen there (8.1). A garrison with no leader sees
only its own hex (8.2), but is seen like any force. Each observation is a ``Report`` addressed to
the observing army (its seat reads it), and a private event of the same words whose data is that
report (the stored events keep it for later turns): one fact, told to the seat once
(``campaign.projection``).
"""

from __future__ import annotations

from dataclasses import dataclass

from maps.core.hexgrid import Hex, distance, hex_id, parse_hex_id
from maps.core.model import HexMap
from rules.armies import ADJECTIVES, Army
from rules.dice import Dice
from rules.events import Event, EventKind, Report, private
from rules.leaders import leader
from rules.orders import Orders
from rules.resolution import Resolution
from rules.rulesettings import RuleSettings
from rules.state import State


@dataclass(frozen=True)
class Sighting:
    """A force, a fortress garrison with any leaders inside it, or points left without a leader
    (9.5), as reconnaissance sees it."""

    army: Army
    hex: str
    at: Hex
    inside: bool
    garrison: bool
    commander: str | None
    points: int

    def range(self, settings: RuleSettings) -> int:
        if self.commander is None:
            return settings.garrison_recon_range
        if self.army is Army.AUSTRIA:
            return settings.austrian_recon_range
        return settings.recon_range

    def describe(self) -> str:
        adjective = ADJECTIVES[self.army]
        if self.garrison:
            who = f"the {adjective} garrison"
            if self.commander:
                who += f" under {leader(self.commander).name}"
            return f"{who} at {self.hex}"
        if self.commander is None:
            return f"the {adjective} troops without a leader at {self.hex}"
        return f"the {adjective} force under {leader(self.commander).name} at {self.hex}"


def sightings(state: State, hexmap: HexMap) -> list[Sighting]:
    out = []
    inside: dict[tuple[Army, str], list] = {}
    for force in state.forces():
        if force.inside:
            inside[(force.army, force.hex)] = list(force.leaders)
            continue
        out.append(
            Sighting(
                force.army,
                force.hex,
                parse_hex_id(force.hex),
                False,
                False,
                force.commander.key,
                force.points,
            )
        )
    garrison_points: dict[tuple[Army, str], int] = {}
    for g in state.garrisons:
        key = (g.army, hex_id(hexmap.city(g.city).hex))
        garrison_points[key] = garrison_points.get(key, 0) + g.points
    for key in sorted(set(inside) | set(garrison_points), key=lambda k: (k[1], k[0].value)):
        army, hex_id_ = key
        leaders = inside.get(key, [])
        points = garrison_points.get(key, 0) + sum(x.points for x in leaders)
        commander = leaders[0].key if leaders else None
        out.append(Sighting(army, hex_id_, parse_hex_id(hex_id_), True, True, commander, points))
    # 9.5: points left without a leader see only their own hex, like a garrison without one (8.2).
    for p in state.leaderless:
        out.append(Sighting(p.army, p.hex, parse_hex_id(p.hex), False, False, None, p.points))
    return out


def reconnaissance_phase(
    state: State, orders: Orders, dice: Dice, hexmap: HexMap, settings: RuleSettings
) -> Resolution:
    """Phase 6 (8): every observation, addressed to the army that makes it."""
    seen = sightings(state, hexmap)
    reports: list[Report] = []
    events: list[Event] = []
    done: set[tuple[Army, Army, str, bool]] = set()
    # What each army's enemies show, in the order seen: the pairs of friends are never looked at.
    enemies = {
        army: [t for t in seen if state.is_enemy(army, t.army)] for army in {s.army for s in seen}
    }
    for observer in seen:
        reach = observer.range(settings)
        for target in enemies[observer.army]:
            d = distance(observer.at, target.at)
            if d > reach:
                continue
            key = (observer.army, target.army, target.hex, target.inside)
            if key in done:
                continue
            done.add(key)
            rule = "8.1" if d == 2 else "8.2" if target.garrison or observer.garrison else "8"
            text = (
                f"Reconnaissance by {observer.describe()}: {target.describe()} has "
                f"{target.points} points."
            )
            reports.append(
                Report(
                    observer.army,
                    target.hex,
                    target.army,
                    target.commander,
                    target.points,
                    target.inside,
                    target.garrison,
                    text,
                    rule,
                )
            )
            events.append(
                Event(
                    rule,
                    EventKind.RECONNAISSANCE,
                    text,
                    {
                        "hex": target.hex,
                        "army": target.army.value,
                        "commander": target.commander,
                        "points": target.points,
                        # the Report above, whole: a seat reads one or the other, once
                        "inside": target.inside,
                        "garrison": target.garrison,
                        "distance": d,
                        "observer_hex": observer.hex,
                    },
                    private(observer.army),
                )
            )
    return Resolution(state, tuple(events), tuple(reports))
