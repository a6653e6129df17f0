"""Forms for the orders a player writes, and the step-by-step preview of a march.

Every form reads one order in the engine's own words and writes it into the seat's draft in the
engine's order format (``rules.orders``), so the draft is exactly what resolution
reads. Forms check only what can be checked by reading (a path in direction codes, a whole
number, a leader of the seat's own armies); the rules themselves are the engine's and the map
core's: the preview asks ``HexMap.enter_cost`` for every step and the rule settings for the MPs
of a march (6.2, 6.4.4, 6.4.5, 6.4.6).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from campaign.projection import Relation, View
from maps.core.hexgrid import (
    DIRECTIONS,
    HexIdError,
    PathError,
    format_path,
    parse_hex_id,
    parse_path,
)
from maps.core.hexgrid import hex_id as format_hex
from maps.core.hexgrid import neighbour as step_to
from maps.core.model import HexMap
from rules.armies import ADJECTIVES, CLOSED_NEUTRALS, Army
from rules.leaders import leader, leader_key
from rules.movers import march_mp
from rules.orders import unit_army
from rules.rulesettings import RuleSettings

DIRECTION_NAMES = {1: "W", 2: "NW", 3: "NE", 4: "E", 5: "SE", 6: "SW"}


def _clean_path(text: str) -> str:
    try:
        return format_path(parse_path(text or ""))
    except PathError as exc:
        raise forms.ValidationError(str(exc)) from None


class MarchForm(forms.Form):
    """A march order (6.2) for a leader's force or a siege train."""

    unit = forms.CharField(max_length=40)
    path = forms.CharField(
        max_length=200,
        required=False,
        label="Line of march",  # (the orders page's label: an error names the field so)
        help_text="Direction codes: 1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW, e.g. 1-2-2-1-6.",
    )
    marches = forms.TypedChoiceField(choices=[(1, "1"), (2, "2")], coerce=int, initial=1)
    leave_fortress = forms.BooleanField(required=False)
    enter_fortress = forms.BooleanField(required=False)
    works = forms.BooleanField(required=False, label="Build field works (9.4.2, Frederick)")
    meeting = forms.ChoiceField(
        choices=[("hold", "hold: meet in my own hex"), ("advance", "advance into the enemy's")],
        initial="hold",
        required=False,
    )
    drop = forms.CharField(
        max_length=300,
        required=False,
        help_text="Subordinates dropped off (6.2.6), as 'leader hex': a leader marching with the "
        "force and the hex of its line of march where he stays (four digits, e.g. 0405); several "
        "separated by commas.",
    )

    def __init__(self, *args, units: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.units = units

    def clean_unit(self) -> str:
        unit = leader_key(self.cleaned_data["unit"])
        if unit not in self.units:
            raise forms.ValidationError(f"{unit!r} is not one of your leaders or siege trains.")
        return unit

    def clean_path(self) -> str:
        return _clean_path(self.cleaned_data.get("path", ""))

    def clean_meeting(self) -> str:
        return self.cleaned_data.get("meeting") or "hold"

    def clean(self) -> dict:
        d = super().clean()
        if (
            "path" in d
            and not d["path"]
            and not any(d.get(f) for f in ("leave_fortress", "enter_fortress", "works"))
        ):
            # The engine refuses it ("gives no line of march"): a force with no order stands.
            raise forms.ValidationError(
                "An order needs at least one step (a line of march), or entering or leaving a "
                "fortress: nothing was saved. A force with no order stands still."
            )
        return d

    def clean_drop(self) -> dict[str, str]:
        out: dict[str, str] = {}
        text = self.cleaned_data.get("drop", "").strip()
        for part in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
            words = part.split()
            if len(words) != 2:
                raise forms.ValidationError(f"{part!r}: write a drop-off as 'leader hex'.")
            key, where = leader_key(words[0]), words[1]
            try:
                leader(key)
                parse_hex_id(where)
            except (KeyError, HexIdError) as exc:
                raise forms.ValidationError(f"{part!r}: {exc}") from None
            out[key] = where
        return out

    def order(self) -> dict:
        """The order in the engine's format (``rules.orders.march_order_from_dict``)."""
        d = self.cleaned_data
        order: dict = {"unit": d["unit"], "path": d["path"]}
        if "marches" in self.fields:
            order["marches"] = d["marches"]
        for flag in ("leave_fortress", "enter_fortress", "works"):
            if flag in self.fields and d.get(flag):
                order[flag] = True
        if d.get("meeting", "hold") != "hold":
            order["meeting"] = d["meeting"]
        if d.get("drop"):
            order["drop"] = d["drop"]
        return order


class ForcedMarchForm(MarchForm):
    """A forced march order (6.3): one march of 5 MPs if the die allows; never a siege train."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["marches"]
        del self.fields["works"]


class TransferForm(forms.Form):
    """Points handed over at the start of the turn (6.4.2, 6.4.3)."""

    source = forms.CharField(max_length=40, label="From (leader or 'garrison')")
    target = forms.CharField(max_length=40, label="To (leader or 'garrison')")
    points = forms.IntegerField(min_value=1, max_value=1_000_000)

    def __init__(self, *args, units: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.units = units

    def _side(self, name: str) -> str:
        key = leader_key(self.cleaned_data[name])
        if key != "garrison" and key not in self.units:
            raise forms.ValidationError(f"{key!r} is not one of your leaders (or 'garrison').")
        return key

    def clean_source(self) -> str:
        return self._side("source")

    def clean_target(self) -> str:
        return self._side("target")

    def order(self) -> dict:
        d = self.cleaned_data
        return {"from": d["source"], "to": d["target"], "points": d["points"]}


class BattleDecisionForm(forms.Form):
    """Fight, do not fight, or retire (9, 10.1) for one army in one battle hex."""

    hex = forms.CharField(max_length=8)
    army = forms.CharField(max_length=20)
    choice = forms.ChoiceField(
        choices=[
            ("fight", "Fight: I wish a battle (9)"),
            ("decline", "Do not fight"),
            ("retire", "Retire before the battle (10.1)"),
        ]
    )

    def __init__(self, *args, allowed: set[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.allowed = allowed

    def clean(self):
        d = super().clean()
        if "hex" in d and "army" in d and (d["hex"], d["army"]) not in self.allowed:
            raise forms.ValidationError(
                f"No battle awaits a decision of {d['army']!r} in {d['hex']!r}."
            )
        return d

    def order(self) -> dict:
        d = self.cleaned_data
        return {"hex": d["hex"], "army": d["army"], "choice": d["choice"]}


class HonorsForm(forms.Form):
    """Honors of war at a breached fortress (11.6): the besieger grants or denies them, the
    garrison then surrenders or fights."""

    city = forms.CharField(max_length=60)
    answer = forms.ChoiceField(
        choices=[
            ("grant", "Grant the honors of war"),
            ("deny", "Deny them"),
            ("surrender", "Surrender"),
            ("fight", "Fight on"),
        ]
    )

    def __init__(self, *args, roles: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.roles = roles  # city -> "besieger" or "garrison"

    def clean(self):
        d = super().clean()
        role = self.roles.get(d.get("city", ""))
        if role is None:
            raise forms.ValidationError("No honors of war await your answer there.")
        wanted = ("grant", "deny") if role == "besieger" else ("surrender", "fight")
        if d.get("answer") not in wanted:
            raise forms.ValidationError(f"As the {role} you answer {' or '.join(wanted)}.")
        d["role"] = role
        return d

    def order(self) -> dict:
        d = self.cleaned_data
        return {"city": d["city"], d["role"]: d["answer"]}


class DeployLeaderForm(forms.Form):
    """Where one leader starts and how many points he commands (3, 3.2.1)."""

    unit = forms.CharField(max_length=40)
    hex = forms.CharField(max_length=8)
    points = forms.IntegerField(min_value=0, max_value=1_000_000, initial=0)
    inside = forms.BooleanField(required=False, label="Inside the fortress")

    def clean_hex(self) -> str:
        try:
            return format_hex(parse_hex_id(self.cleaned_data["hex"]))
        except HexIdError as exc:
            raise forms.ValidationError(str(exc)) from None


class DeployGarrisonForm(forms.Form):
    """A fortress garrison (3.2.2, 3.2.3)."""

    city = forms.CharField(max_length=60)
    points = forms.IntegerField(min_value=0, max_value=1_000_000)


class DeploySiegeTrainForm(forms.Form):
    """Where a siege train starts (3.1.3, 3.2.2)."""

    unit = forms.CharField(max_length=40)
    hex = forms.CharField(max_length=8)
    inside = forms.BooleanField(required=False, label="Inside the fortress")

    clean_hex = DeployLeaderForm.clean_hex


# --- the march preview -----------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of a line of march as the player sees it while writing it."""

    number: int
    code: int
    hex: str
    cost: int | None  # None: impassable (2.2)
    spent: int  # MPs spent up to and including this step
    ok: bool
    note: str = ""


@dataclass(frozen=True)
class Preview:
    start: str
    steps: tuple[Step, ...]
    allowance: int
    valid: bool
    message: str

    @property
    def end(self) -> str:
        return self.steps[-1].hex if self.steps else self.start

    @property
    def spent(self) -> int:
        return self.steps[-1].spent if self.steps else 0


def march_allowance(
    settings: RuleSettings, turn: int, marches: int, supplied: bool, forced: bool = False
) -> int:
    """MPs for ``marches`` marches, by the engine's ``march_mp`` (6.2, 6.3, 5.1.1, 6.4.6)."""
    base = settings.forced_march_mp if forced else settings.march_mp
    return march_mp(supplied, turn, settings, base) * marches


def enemy_hexes(view: View, hexmap: HexMap) -> tuple[frozenset, frozenset]:
    """Hexes the viewer knows hold an enemy force or garrison, and enemy fortresses (from the
    view: leader positions and garrison chits are public, 3.1.1, 3.1.2)."""
    occupied = set()
    forts = set()
    for f in view.forces:
        if f.relation is Relation.ENEMY:  # the projection's friend or enemy (1.2, 13.8)
            occupied.add(parse_hex_id(f.hex))
    for g in view.garrisons:
        if g.relation is Relation.ENEMY:
            try:
                h = hexmap.city(g.city).hex
            except KeyError:
                continue
            occupied.add(h)
            forts.add(h)
    return frozenset(occupied), frozenset(forts)


def march_preview(
    view: View,
    hexmap: HexMap,
    settings: RuleSettings,
    start: str,
    path: str,
    *,
    marches: int = 1,
    supplied: bool = True,
    forced: bool = False,
) -> Preview:
    """Each step of ``path`` from ``start``: its MP cost by the Terrain Effects Chart (2.2) and
    6.4.4, the MPs spent so far, and whether the force can still make it (6.4.5)."""
    allowance = march_allowance(settings, view.turn, marches, supplied, forced)
    try:
        codes = parse_path(path)
        here = parse_hex_id(start)
    except (PathError, HexIdError) as exc:
        return Preview(start, (), allowance, False, str(exc))
    enemies, forts = enemy_hexes(view, hexmap)
    closed = hexmap.hexes_of_areas(CLOSED_NEUTRALS)
    if here not in hexmap:
        return Preview(start, (), allowance, False, f"{start} is not a hex of the map.")
    steps: list[Step] = []
    spent = 0
    valid = True
    message = ""
    for i, code in enumerate(codes, start=1):
        there = step_to(here, code)
        if there not in hexmap:
            steps.append(Step(i, code, "off the map", None, spent, False, "off the map"))
            if valid:
                valid, message = False, f"Step {i} ({code}) leaves the map."
            break
        if not valid:
            steps.append(Step(i, code, format_hex(there), None, spent, False, "after a stop"))
            here = there
            continue
        cost = hexmap.enter_cost(here, code, enemy_occupied=enemies, enemy_fortresses=forts)
        if there in closed:
            note = f"{hexmap.area(there)}, a closed neutral country (3.3)"
            steps.append(Step(i, code, format_hex(there), None, spent, False, note))
            valid, message = False, f"Step {i} ({code}) into {format_hex(there)}: {note}."
        elif cost is None:
            note = "impassable (2.2)"
            steps.append(Step(i, code, format_hex(there), None, spent, False, note))
            valid, message = False, f"Step {i} ({code}) into {format_hex(there)} is {note}."
        elif spent + cost > allowance:
            steps.append(Step(i, code, format_hex(there), cost, spent + cost, False, "too far"))
            valid = False
            message = (
                f"Step {i} into {format_hex(there)} costs {cost} MP; only "
                f"{allowance - spent} of {allowance} MP are left (6.4.5)."
            )
        else:
            spent += cost
            note = "enemy: the force stops here (6.4.4)" if there in enemies else ""
            steps.append(Step(i, code, format_hex(there), cost, spent, True, note))
            if there in enemies and i < len(codes):
                valid = False
                message = f"The force must stop in {format_hex(there)}: enemy-occupied (6.4.4)."
        here = there
    if valid:
        message = f"{spent} of {allowance} MP."
    return Preview(start, tuple(steps), allowance, valid, message)


def next_steps(
    hexmap: HexMap, at: str, preview: Preview | None = None, view: View | None = None
) -> list[tuple[int, str, str]]:
    """The neighbours of ``at`` the force can enter as (direction code, compass name, hex id):
    on the map, not impassable (2.2), not a closed neutral country (3.3) and, with the line of
    march's ``preview``, within the MPs it has left (6.4.5), none after a stop (6.4.4). Only
    these are numbered on the tap map."""
    try:
        here = parse_hex_id(at)
    except HexIdError:
        return []
    if preview is not None and not preview.valid:
        return []  # the line cannot be made as written: nothing to add to it
    if preview is not None and preview.steps and preview.steps[-1].note.startswith("enemy"):
        return []  # the force must stop in the enemy's hex (6.4.4)
    enemies, forts = enemy_hexes(view, hexmap) if view is not None else (frozenset(), frozenset())
    closed = hexmap.hexes_of_areas(CLOSED_NEUTRALS)
    left = preview.allowance - preview.spent if preview is not None else None
    out = []
    for code in sorted(DIRECTIONS):
        there = step_to(here, code)
        if there not in hexmap or there in closed:
            continue
        cost = hexmap.enter_cost(here, code, enemy_occupied=enemies, enemy_fortresses=forts)
        if cost is None or (left is not None and cost > left):
            continue
        out.append((code, DIRECTION_NAMES[code], format_hex(there)))
    return out


def pool_problem(view: View, orders: list[dict], order: dict) -> str:
    """Why ``order`` cannot be saved beside the draft's other march ``orders``: its army's march
    pool (6.2.1: the Swedes march on Russian marches, the Empire on Austrian) has no march left
    for it this turn (6.2, the marches rolled in 6.1). "" when it has."""
    army = unit_army(str(order.get("unit", "")))
    if army is None:
        return ""
    pool = army.march_pool
    have = view.marches.get(pool.value)
    if have is None:
        return ""
    given = 0
    for o in orders:
        other = unit_army(str(o.get("unit", "")))
        if o.get("unit") != order.get("unit") and other is not None and other.march_pool is pool:
            given += o["marches"] if isinstance(o.get("marches"), int) else 1
    wanted = order["marches"] if isinstance(order.get("marches"), int) else 1
    if given + wanted <= have:
        return ""
    users = " and ".join(ADJECTIVES[a] for a in Army if a.march_pool is pool)
    share = "share" if " and " in users else "have"
    told = f"{given} given to other orders" if given else "none given yet"
    return (
        f"Not saved: the {users} forces {share} {have} march{'es' if have != 1 else ''} this "
        f"turn (6.2, 6.2.1; {told}), and this order needs {wanted}. Remove another order "
        "first, or leave this force standing."
    )
