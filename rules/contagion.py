"""10.2.3: "If a demoralized force enters the same hex as another friendly force, the other force
is also demoralized."

One reading for marches, forced marches and retreats (docs/rules-interpretations.md, 10.2.3):
every hex the demoralized group *enters* counts, whether it passes through or stops there; the hex
it starts from does not (it entered none). A retreat "is not considered movement" (10) only for
the marches it spends: the routed force still enters each hex of its route. Friendly means of
the same alliance now (1.2, 13.8), inside or outside the fortress of the hex; the group's own
leaders are not demoralized by one another (10.2: a force is demoralized if any part is).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.armies import ADJECTIVES, Army
from rules.events import Event, EventKind, private
from rules.leaders import leader
from rules.state import State


def demoralize_entered(
    state: State,
    commander: str,
    army: Army,
    group: Iterable[str],
    entered: Sequence[str],
    how: str,
) -> tuple[State, list[Event]]:
    """Demoralize the friendly forces in the hexes ``entered`` (in order) by the demoralized
    group of ``commander`` (leader keys ``group``, of ``army``), which ``how`` ("marches",
    "retreats") there. One event per leader record, for his army and the group's."""
    own = set(group)
    events: list[Event] = []
    last = entered[-1] if entered else None
    for hex_id in dict.fromkeys(entered):
        for x in state.leaders_at(hex_id):
            if x.key in own or x.demoralized or state.is_enemy(x.army, army):
                continue
            state = state.with_leader(x.key, demoralized=True)
            verb = f"{how} {'into' if hex_id == last else 'through'}"
            events.append(
                Event(
                    "10.2.3",
                    EventKind.DEMORALIZED,
                    f"The demoralized force under {leader(commander).name} {verb} {hex_id}, "
                    f"where the {ADJECTIVES[x.army]} force of {x.table.name} stands: it is "
                    "demoralized too (10.2.3).",
                    {"leader": x.key, "hex": hex_id, "by": commander, "how": how},
                    private(x.army, army),
                )
            )
    return state, events
