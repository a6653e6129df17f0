"""Every number of the rulebook as a setting, with the book's value as default (rule 1.4).

Rule 1.4 lets the players change any numerical value by mutual consent, "so long as the change is
applied throughout the campaign". A campaign stores its ``RuleSettings``; the engine reads every
number from it. ``settings_from_dict`` takes a partial dict (only the changed numbers) and refuses
unknown names, so a typo in a scenario file fails loudly.

Per-army numbers are dicts keyed by the army's value ("austria", ...).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

from rules.armies import Army


def _per_army(**values: Any) -> Any:
    return field(default_factory=lambda: dict(values))


@dataclass(frozen=True)
class RuleSettings:
    # 4: sequence of play
    turns: int = 18
    winter_turns: int = 3  # the last three turns (November II to December II)

    # 3.4 Deployment Chart
    point_ratio: dict[str, float] = _per_army(
        austria=16, empire=4, france=15, hanover=7.5, prussia=16, sweden=1, russia=7.5
    )
    leaders: dict[str, int] = _per_army(
        austria=8, empire=2, france=6, hanover=4, prussia=10, sweden=1, russia=4
    )
    siege_trains: dict[str, int] = _per_army(
        austria=2, empire=0, france=2, hanover=1, prussia=2, sweden=0, russia=1
    )
    # 3.2
    min_leader_points: int = 50  # 3.2.1, 6.4.2, 6.4.3
    min_garrison_points: int = 50  # 3.2.3, 6.4.3
    garrison_points_per_bastion: int = 100  # 2.3.4, 11.2

    # dice
    die_sides: int = 6

    # 5 supply
    supply_land_mp: int = 10
    croat_screen_range: int = 1  # 5.3: the six hexes surrounding an Austrian force
    unsupplied_mp_loss: int = 1  # 5.1.1: 4 MPs per march instead of 5 (6.4.6)

    # 6.1 March Allocation Table: dice and modifier per army that rolls
    march_dice: dict[str, int] = _per_army(austria=2, france=1, hanover=1, prussia=2, russia=1)
    march_modifier: dict[str, int] = _per_army(
        austria=-2, france=0, hanover=1, prussia=0, russia=-1
    )
    # 6.2
    march_mp: int = 5
    marches_per_leader: int = 1  # strategic IR 0-2 (6.2.2)
    marches_per_leader_asterisk: int = 2  # strategic IR with "*" (6.2.2, 14)
    marches_per_siege_train: int = 1  # 6.2.5
    # 6.3
    forced_march_mp: int = 5
    # 6.4
    enemy_hex_extra_mp: int = 2  # 6.4.4 (and the Terrain Effects Chart)
    winter_mp_loss: int = 1  # 6.4.6

    # 7.1 Attrition Effects Chart, percent
    second_march_pct_per_mp: int = 1
    forced_march_pct_per_mp: int = 1
    siege_pct: int = 5  # also 11.5
    unsupplied_pct: int = 10
    winter_outside_pct: int = 10

    # 8 reconnaissance, in hexes
    recon_range: int = 1
    austrian_recon_range: int = 2  # 8.1
    garrison_recon_range: int = 0  # 8.2: leaderless garrisons, their own hex only

    # 9 battle, 10 retreat and rally (part 2 reads these)
    no_battle_ratio: int = 4  # 9, 10.1.1: 4:1
    field_works_inches: int = 12  # 9.4.1, 9.4.2
    retire_mp: int = 5  # 10.1.2
    rout_mp: int = 10  # 10.1.3
    morale_penalty_demoralized: int = 1  # 10.2

    # 11 siege
    siege_dice: int = 2
    siege_breach: int = 12
    siege_outnumber_besieger: dict[str, int] = field(default_factory=lambda: {"3": 1, "4": 2})
    siege_outnumber_garrison: dict[str, int] = field(
        default_factory=lambda: {"2": -1, "3": -2, "4": -4}
    )
    siege_train_factor: int = 1
    siege_turn_factor: int = 1

    # 12 victory
    vp_size_bands: tuple[int, int] = (500, 1000)  # A: 1-500, B: 501-1000, C: 1001+
    vp_enemy_retires: tuple[int, int, int] = (1, 2, 3)
    vp_enemy_demoralized: tuple[int, int, int] = (1, 2, 4)
    vp_friendly_retires: tuple[int, int, int] = (0, -1, -2)
    vp_friendly_demoralized: tuple[int, int, int] = (-1, -3, -6)
    vp_prussian_key_city: int = 2  # 12.5.1
    vp_hanoverian_key_city: int = 3  # 12.5.2

    # 13 optional rules between campaigns
    siege_train_cost: int = 300  # 13.5
    britain_aid_cutoff: int = 7  # 13.6
    # 13: each optional rule between campaigns is a switch (part 2, rules/linked.py)
    winter_quarters: bool = True  # 13.1
    prisoner_exchange: bool = True  # 13.2
    new_leaders: bool = True  # 13.3
    new_points: bool = True  # 13.4
    new_points_per_star_city: int = 0  # 13.4: "determined by mutual consent of all players"
    new_siege_trains: bool = True  # 13.5
    lending_points: bool = True  # 13.6 (with the British aid roll)
    peace: bool = True  # 13.7
    changing_sides: bool = True  # 13.8

    def army_number(self, name: str, army: Army) -> Any:
        return getattr(self, name)[army.value]

    def is_winter(self, turn: int) -> bool:
        """Turns 16-18 with the book's values (4)."""
        return turn > self.turns - self.winter_turns


DEFAULT_SETTINGS = RuleSettings()


def settings_to_dict(settings: RuleSettings) -> dict[str, Any]:
    out = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


# How far a setting may go from the book (1.4 lets players vary the numbers, not break the
# engine): a hundred times the book's value, and 10,000 either way whatever the book's (new
# points per star city are 0 in the book, 300 in a casebook case). A billion march dice would
# hold the worker for minutes on every march phase; NaN and infinity are no numbers.
SCALE, FLOOR = 100, 10_000


def _number(name: str, value: Any, default: Any, *, whole: bool) -> int | float:
    """``value`` checked as the setting ``name`` whose book value is ``default``: a finite
    number within ``SCALE`` times the book's (at least ``FLOOR``), whole where ``whole``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ValueError(f"rule setting {name!r} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"rule setting {name!r} must be a number, not {value!r}")
    bound = max(FLOOR, SCALE * abs(default))
    if abs(value) > bound:
        raise ValueError(
            f"rule setting {name!r}: {value!r} is too far from the book's {default!r} "
            f"(at most {bound} either way)"
        )
    if whole:
        if not float(value).is_integer():
            raise ValueError(f"rule setting {name!r} is a whole number, not {value!r}")
        return int(value)
    return value


def settings_from_dict(data: dict[str, Any] | None, *, stored: bool = False) -> RuleSettings:
    """Settings from a (possibly partial) dict; the missing numbers keep the book's values.

    Per-army dicts are merged with the defaults, so ``{"march_modifier": {"austria": -1}}``
    changes only Austria's modifier. ``stored``: a campaign's own settings, read back: a
    fraction where the book's number is whole, which the form took before it refused one, is
    kept as it was (a campaign of then still resolves); the other checks hold.
    """
    if not data:
        return DEFAULT_SETTINGS
    if not isinstance(data, dict):
        raise ValueError("rule settings must be an object of setting names and numbers")
    known = {f.name: f for f in dataclasses.fields(RuleSettings)}
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        if name not in known:
            raise ValueError(f"{name!r} is not a rule setting; see docs/rules-interpretations.md")
        default = getattr(DEFAULT_SETTINGS, name)
        if isinstance(default, dict):
            if not isinstance(value, dict):
                raise ValueError(f"rule setting {name!r} must be an object, e.g. {default}")
            whole = not stored and all(type(v) is int for v in default.values())  # (7.5 ratios)
            largest = max((abs(v) for v in default.values()), default=0)
            checked = {}
            for key, number in value.items():
                if not isinstance(number, int | float) or isinstance(number, bool):
                    raise ValueError(
                        f"rule setting {name!r}: {key!r} must be a number, not {number!r}"
                    )
                checked[key] = _number(
                    f"{name}.{key}", number, default.get(key, largest), whole=whole
                )
            kwargs[name] = {**default, **checked}
        elif isinstance(default, tuple):
            if not isinstance(value, list | tuple) or len(value) != len(default):
                raise ValueError(f"rule setting {name!r} must be a list of {len(default)} numbers")
            kwargs[name] = tuple(
                _number(name, v, d, whole=type(d) is int)
                for v, d in zip(value, default, strict=True)
            )
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"rule setting {name!r} is true or false, not {value!r}")
            kwargs[name] = value
        else:
            value = _number(name, value, default, whole=not stored and type(default) is int)
            if default > 0 and value < 0:  # a count, a cost or a share the book gives above 0
                raise ValueError(f"rule setting {name!r} cannot be below 0 (the book's: {default})")
            kwargs[name] = value
    return RuleSettings(**kwargs)
