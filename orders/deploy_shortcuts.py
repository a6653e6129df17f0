"""The deployment page's shortcuts (3): one tap for every fortress's minimum garrison
(3.2.3, 3.2.4), one tap for a suggested legal deployment of the whole seat (3.2.1-3.2.6), which
the player then adjusts. The arithmetic is the engine's (``rules.suggestion``); this only reads
and writes the seat's draft, army by army, leaving alone an army a historical opening placed.
"""

from __future__ import annotations

from maps.core.model import HexMap
from rules.armies import Army
from rules.deployment import placed_by_opening
from rules.rulesettings import RuleSettings
from rules.state import State
from rules.suggestion import (
    deployment_spec,
    empire_leaves_west,
    minimum_garrisons,
    suggest_deployment,
)

SHORTCUTS = ("garrisons", "suggest")


def apply_shortcut(
    kind: str,
    armies: list[str],
    chosen: dict[str, list[str]],
    draft: dict,
    state: State,
    hexmap: HexMap,
    settings: RuleSettings,
) -> list[str]:
    """Change ``draft`` by the shortcut ``kind`` for every army of the seat; what could not be
    done, one sentence per army (the other armies' changes are made all the same)."""
    dep = dict(draft.get("deployment")) if isinstance(draft.get("deployment"), dict) else {}
    west = empire_leaves_west(hexmap, settings, state.army_points)
    notes = []
    for value in armies:
        army = Army.parse(value)
        if placed_by_opening(army, dep, state):
            continue
        spec = dep.get(value) if isinstance(dep.get(value), dict) else {}
        if kind == "garrisons":
            current = spec.get("garrisons") if isinstance(spec.get("garrisons"), dict) else {}
            current = {str(c): p for c, p in current.items() if isinstance(p, int)}
            garrisons = minimum_garrisons(army, hexmap, settings, current, west_to_france=west)
            dep[value] = {**spec, "garrisons": garrisons}
            continue
        suggestion = suggest_deployment(
            army,
            hexmap,
            settings,
            state.army_points.get(value, 0),
            chosen.get(value, []),
            west_to_france=west,
        )
        if suggestion.deployment is None:
            notes.append(suggestion.reason)
            continue
        dep[value] = deployment_spec(suggestion.deployment)
    draft["deployment"] = dep
    return notes
