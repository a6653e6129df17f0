"""Forms of the set-up and organiser pages (the player's order forms are in orders.forms)."""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo, available_timezones

from django import forms
from django.contrib.auth.forms import UserCreationForm

from campaign.forms import NameField
from campaign.models import LeaderSelection
from campaign.services import caretaker, deadlines, gameplay, openings, setup
from mail.forms import EmailChoiceForm
from rules.armies import LABELS, SEAT_MAPS, Army, Seat, armies_of, seat_map, seats_in_play
from rules.rulesettings import settings_from_dict

PHASE_KINDS = ("deployment", "march", "forced-march", "battle", "siege")
OPTIONAL_RULES = [
    ("13.1", "13.1 Winter quarters"),
    ("13.2", "13.2 Prisoners of war"),
    ("13.3", "13.3 New leaders"),
    ("13.4", "13.4 New points"),
    ("13.5", "13.5 New siege trains"),
    ("13.6", "13.6 Lending points"),
    ("13.7", "13.7 Peace"),
    ("13.8", "13.8 Changing sides"),
]
# (field, the field whose choice it depends on, the value that shows it: "" any but empty,
# "on" a ticked box)
SHOWN_BY = (
    ("courier_phases", "press", "courier"),
    ("organiser_seat", "umpire_plays", "on"),
    ("fate_from_year", "fate", ""),
    ("fate_less_extreme", "fate", ""),
)

PRESS_CHOICES = [
    ("open", "Open: delivered at once"),
    ("courier", "By courier: delivered some phases later"),
    ("off", "Off: no letters"),
]


def _no_constant(name: str):
    """``json.loads``'s ``parse_constant``: NaN and Infinity are no numbers of the book."""
    raise ValueError(f"{name} is not a number")


# The zones most tables play in, first (Europe's first), then every other zone by region.
COMMON_ZONES = (
    "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Brussels",
    "Europe/Amsterdam", "Europe/Berlin", "Europe/Vienna", "Europe/Zurich", "Europe/Rome",
    "Europe/Madrid", "Europe/Prague", "Europe/Warsaw", "Europe/Stockholm", "Europe/Copenhagen",
    "Europe/Oslo", "Europe/Helsinki", "Europe/Athens", "Europe/Moscow", "America/New_York",
    "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Toronto",
    "Australia/Sydney", "Pacific/Auckland", "UTC",
)  # fmt: skip
REGIONS = ("Europe", "America", "Africa", "Asia", "Atlantic", "Australia", "Indian", "Pacific")


def time_zone_choices() -> list:
    """The time zones, grouped: the common ones first (Europe's first), then each region's."""
    zones = available_timezones()
    groups = [("Common", [(z, z) for z in COMMON_ZONES if z in zones])]
    for region in REGIONS:
        names = sorted(z for z in zones if z.startswith(region + "/") and z not in COMMON_ZONES)
        groups.append((region, [(z, z) for z in names]))
    return groups


def seats_by_players() -> dict[str, list[str]]:
    """The seats that exist with each number of players (1.2), for the form's script."""
    return {str(n): [s.value for s in seats_in_play(n)] for n in SEAT_MAPS}


def seat_texts_by_players() -> dict[str, dict[str, str]]:
    """Each invitation's help text with each number of players (1.2), for the form's script:
    ``{"3": {"prussia": "Commands Prussia, Hanover."}}``."""
    return {str(n): {s.value: seat_text(n, s) for s in seats_in_play(n)} for n in SEAT_MAPS}


def seat_text(players: int, seat: Seat) -> str:
    """The help text under a seat's invitation: the armies it commands with ``players``
    players, or "" when the seat does not exist with that many."""
    if seat not in seat_map(players).values():
        return ""
    return f"Commands {seat_armies(players, seat)}."


def seat_armies(players: int, seat: Seat) -> str:
    """The armies a seat commands with ``players`` players (1.2), in words."""
    return ", ".join(LABELS[a] for a in armies_of(seat, players))


ALLIES_SHARE_HELP = (
    "Allies see each other's forces, garrisons, siege trains and reports as their owner does "
    "(never to order them). Off: an ally sees only what an enemy sees."
)


class CampaignForm(forms.Form):
    name = NameField(max_length=100, what="The campaign's name")
    players = forms.TypedChoiceField(
        choices=[(n, f"{n} players") for n in (5, 4, 3, 2)],
        coerce=int,
        initial=5,
        help_text="Who commands which army (1.2); the invitations below follow it.",
    )
    army_size = forms.ChoiceField(
        choices=[("base", "From one army's points, by the ratios of 3.4"), ("total", "A total")],
        initial="base",
    )
    base_army = forms.ChoiceField(choices=[(a.value, a.label) for a in Army], initial="sweden")
    # Sweden 300 (the Empire 1,200): the least round size at which every army can deploy on
    # its own (251), docs/rules-interpretations.md "3.2 army size".
    base_points = forms.IntegerField(min_value=1, max_value=100_000, initial=300, required=False)
    total_points = forms.IntegerField(min_value=67, max_value=1_000_000, required=False)
    leader_selection = forms.ChoiceField(choices=LeaderSelection.choices)
    time_zone = forms.ChoiceField(choices=time_zone_choices, initial="Europe/London")
    deadline_at = forms.TimeField(
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="Optional: close every phase at this time of day, in the campaign's time "
        "zone (at least 12 hours after it opens) instead of after a number of hours.",
    )
    reminder_hours = forms.CharField(initial="24, 2", help_text="Hours before each deadline.")
    flag_after_missed = forms.IntegerField(
        min_value=1,
        max_value=18,
        initial=2,
        label="Flag a seat after missed deadlines",
        help_text="After this many missed deadlines in a row, the board flags the seat and "
        "you get an email, so you can find a reserve or talk to the player.",
    )
    missed_policy = forms.ChoiceField(
        choices=list(caretaker.POLICIES.items()),
        initial="stand-still",
        required=False,
        widget=forms.RadioSelect,
        label="When a seat has no orders at a deadline",
        help_text="Changeable later on the board. The caretaker is the site's automatic player.",
    )
    grace_hours = forms.IntegerField(
        min_value=1,
        max_value=168,
        initial=12,
        required=False,
        label="Grace, hours (the grace policy)",
    )
    excused_misses = forms.IntegerField(
        min_value=0,
        max_value=18,
        initial=1,
        required=False,
        label="Excused misses a season, per seat",
        help_text="Missed deadlines a seat may have before the policy applies to it: until "
        "then its forces stand still.",
    )
    caretaker_style = forms.ChoiceField(
        choices=list(caretaker.STYLES.items()),
        initial="defensive",
        required=False,
        label="The caretaker plays",
    )
    caretaker_absent = forms.BooleanField(
        required=False, label="The caretaker also plays seats whose player is away"
    )
    allies_share = forms.BooleanField(
        required=False, label="Allies share what they know", help_text=ALLIES_SHARE_HELP
    )
    press = forms.ChoiceField(
        choices=PRESS_CHOICES,
        initial="open",
        required=False,
        label="Letters between seats",
        help_text="By courier, a letter arrives some phases after it is written, as the "
        "letters of the period travelled.",
    )
    courier_phases = forms.IntegerField(
        min_value=1, max_value=12, initial=2, required=False, label="Phases a courier takes"
    )
    press_moderated = forms.BooleanField(
        required=False,
        label="The organiser may read every letter",
        help_text="Chosen now, for the whole campaign; every player is told.",
    )
    optional_rules = forms.MultipleChoiceField(
        choices=OPTIONAL_RULES, required=False, widget=forms.CheckboxSelectMultiple
    )
    fate = forms.ChoiceField(
        choices=[
            ("", "Off"),
            ("season", "A card at each season's end"),
            ("turn", "A card at each turn's end from turn 6"),
        ],
        required=False,
        initial="",
        label="Clock of Fate (linked campaigns)",
        help_text="Friedrich's Cards of Fate: the Tsarina's death, peace, lost subsidies "
        "can end a power's war.",
    )
    fate_from_year = forms.IntegerField(
        min_value=1, max_value=20, initial=1, required=False, label="Clock of Fate from year"
    )
    fate_less_extreme = forms.BooleanField(
        required=False,
        label="Less extreme Clock of Fate",
        help_text="The Tsarina, Poems and America are kept out of the first four cards.",
    )
    linked = forms.BooleanField(
        required=False,
        label="Linked campaigns (13): the war goes on next year",
        help_text="The fog stays at the season's end: The war, its book and the dice seeds are "
        "shown only when you end the war, since the next year starts where this one ends "
        "(13.1). On whenever the Clock of Fate is.",
    )
    opening = forms.ChoiceField(
        choices=openings.CHOICES,
        required=False,
        initial="",
        label="Historical opening",
        help_text="The armies start where SPI's Frederick the Great puts them in that year, "
        "public to all; armies it leaves out deploy by rule 3.",
    )
    rule_settings = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text='Numbers changed by consent (1.4), as JSON, e.g. {"march_mp": 6}.',
    )
    umpire_plays = forms.BooleanField(required=False, label="I also play a seat")
    organiser_seat = forms.ChoiceField(
        choices=[("", "—")] + [(s.value, s.label) for s in Seat],
        required=False,
        widget=forms.Select(attrs={"data-seat-choice": ""}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in PHASE_KINDS:
            self.fields[f"hours_{kind}"] = forms.IntegerField(
                min_value=1,
                max_value=deadlines.MAX_HOURS,
                initial=deadlines.DEFAULT_POLICY[kind]["hours"],
                label=f"Hours for {kind} orders",
            )
        attrs = self.fields["players"].widget.attrs
        attrs["data-seats"] = json.dumps(seats_by_players())
        attrs["data-seat-texts"] = json.dumps(seat_texts_by_players())
        players = self._players()
        for s in Seat:
            self.fields[f"email_{s.value}"] = forms.EmailField(
                required=False,
                label=f"Invite the {s.label}",
                widget=forms.EmailInput(attrs={"data-seat": s.value}),
                help_text=seat_text(players, s),
            )
        # Fields that say something only with another's choice: the page's script shows them
        # then (static/js/setupform.js); without it every field shows.
        for name, by, when in SHOWN_BY:
            self.fields[name].widget.attrs.update({"data-shown-by": by, "data-shown-when": when})
        self.size = None  # the armies' points against 3.2, once the size is read (``clean``)

    def _players(self) -> int:
        """The number of players chosen (or the initial five), for the seats' help texts."""
        value = self.data.get("players") if self.is_bound else None
        try:
            return int(value) if int(value) in SEAT_MAPS else 5
        except (TypeError, ValueError):
            return 5

    def clean_rule_settings(self) -> dict:
        text = self.cleaned_data["rule_settings"].strip()
        if not text:
            return {}
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                f"Not readable as settings (line {exc.lineno}, character {exc.colno}): write "
                'them as {"name": number, ...}, e.g. {"march_mp": 6}, or leave the box empty.'
            ) from None
        except (ValueError, RecursionError):  # NaN, a number of thousands of digits, [[[[...
            raise forms.ValidationError(
                'Not readable as settings: write them as {"name": number, ...} with numbers as '
                'the book has them, e.g. {"march_mp": 6}, or leave the box empty.'
            ) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(
                'Write the settings between braces, as {"name": number, ...}, e.g. '
                '{"march_mp": 6}, or leave the box empty.'
            )
        try:
            settings_from_dict(data)
        except (ValueError, TypeError) as exc:
            raise forms.ValidationError(str(exc)) from None
        return data

    def clean_reminder_hours(self) -> list[int]:
        try:
            hours = [int(h) for h in self.cleaned_data["reminder_hours"].split(",") if h.strip()]
        except ValueError:
            raise forms.ValidationError("Hours as whole numbers, e.g. 24, 2.") from None
        if any(not 0 < h <= deadlines.MAX_HOURS for h in hours):
            raise forms.ValidationError("Each reminder is 1 hour or more before the deadline.")
        return hours

    def clean(self):
        data = super().clean()
        if data.get("army_size") == "base" and not data.get("base_points"):
            self.add_error("base_points", "Give the points of the chosen army.")
        if data.get("army_size") == "total" and not data.get("total_points"):
            self.add_error("total_points", "Give the total points.")
        if data.get("umpire_plays") and not data.get("organiser_seat"):
            self.add_error("organiser_seat", "Choose the seat you play.")
        if data.get("players") in SEAT_MAPS:
            self._check_seats(data)
        self._check_size(data)
        return data

    def _check_seats(self, data: dict) -> None:
        """Only the seats that exist with the chosen number of players (1.2) take an invitation
        or the organiser; anything else is refused, so no address is silently dropped."""
        players = data["players"]
        in_play = seats_in_play(players)
        for s in Seat:
            if s in in_play or not data.get(f"email_{s.value}"):
                continue
            commander = seat_map(players)[Army(s.value)]
            self.add_error(
                f"email_{s.value}",
                f"With {players} players there is no {s.label} (1.2): the {commander.label} "
                f"commands {seat_armies(players, commander)}. Clear this box, or choose more "
                "players.",
            )
        chosen = data.get("organiser_seat")
        if data.get("umpire_plays") and chosen and Seat(chosen) not in in_play:
            self.add_error(
                "organiser_seat",
                f"With {players} players there is no {Seat(chosen).label} (1.2): choose one of "
                + ", ".join(x.label for x in in_play)
                + ".",
            )

    def army_points(self) -> dict[str, int] | None:
        """Every army's points from the size chosen (3, by the ratios of 3.4); None until the
        size and the rule settings are valid."""
        data = self.cleaned_data
        if "rule_settings" not in data:
            return None
        rules = settings_from_dict(data["rule_settings"])
        if data.get("army_size") == "base" and data.get("base_points"):
            return gameplay.army_points_from_base(data["base_army"], data["base_points"], rules)
        if data.get("army_size") == "total" and data.get("total_points"):
            return gameplay.army_points_from_total(data["total_points"], rules)
        return None

    def _check_size(self, data: dict) -> None:
        """3.2: refuse a size at which some army cannot deploy (``setup.size_check``)."""
        points = self.army_points()
        if points is None:
            return
        self.size = setup.size_check(
            points,
            data["rule_settings"],
            opening=data.get("opening") or "",
            base_army=data["base_army"] if data.get("army_size") == "base" else "",
        )
        if self.size is not None and not self.size.check.can_deploy:
            field = "base_points" if data.get("army_size") == "base" else "total_points"
            self.add_error(field, self.size.refusal())

    def deadline_policy(self) -> dict:
        data = self.cleaned_data
        if data.get("deadline_at"):
            at = data["deadline_at"].strftime("%H:%M")
            return {kind: {"at": at, "min_hours": 12} for kind in PHASE_KINDS}
        return {kind: {"hours": data[f"hours_{kind}"]} for kind in PHASE_KINDS}

    def emails(self) -> dict[str, str]:
        return {s.value: self.cleaned_data.get(f"email_{s.value}") or "" for s in Seat}


class ArmiesForm(forms.Form):
    """Which seat commands each army (the 1.2 presets, editable before the start)."""

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(s.power, s.label) for s in seats]
        current = {a: s.power for s in seats for a in s.armies}
        for army in Army:
            self.fields[army.value] = forms.ChoiceField(
                choices=choices, initial=current.get(army.value), label=LABELS[army]
            )


class InviteForm(forms.Form):
    email = forms.EmailField()
    # The seat's public code; anything else is refused by the form, not by the database.
    seat = forms.UUIDField(required=False, widget=forms.HiddenInput)


class ExtendForm(forms.Form):
    """Extend the deadline by whole hours, or bring it to a time (in the campaign's time zone:
    before the deadline, to hurry a phase; ``organiser.bring_forward`` checks the time)."""

    hours = forms.IntegerField(
        min_value=1, max_value=deadlines.MAX_HOURS, initial=24, required=False
    )
    to = forms.CharField(required=False, max_length=30)

    def __init__(self, *args, time_zone: str = "UTC", **kwargs):
        super().__init__(*args, **kwargs)
        self.time_zone = time_zone

    def clean_to(self) -> datetime | None:
        raw = self.cleaned_data["to"].strip()
        if not raw:
            return None
        try:
            when = datetime.fromisoformat(raw.replace(" ", "T"))
        except ValueError:
            raise forms.ValidationError("A date and time, such as 2026-05-01T20:00.") from None
        return when if when.tzinfo else when.replace(tzinfo=ZoneInfo(self.time_zone))

    def clean(self):
        data = super().clean()
        if not self.errors and (data.get("hours") is None) == (data.get("to") is None):
            raise forms.ValidationError("Extend by whole hours, or bring the deadline to a time.")
        return data


class OptionsForm(forms.Form):
    """What the organiser may change while the campaign runs (the table's agreements)."""

    allies_share = forms.BooleanField(
        required=False, label="Allies share what they know", help_text=ALLIES_SHARE_HELP
    )
    press = forms.ChoiceField(choices=PRESS_CHOICES, label="Letters between seats", required=False)
    courier_phases = forms.IntegerField(
        min_value=1, max_value=12, label="Phases a courier takes", required=False
    )


class EnterOrdersForm(forms.Form):
    # The phase the organiser's page was opened in: orders pasted for one phase are refused
    # once another is open (``organiser.enter_orders``).
    phase = forms.CharField(
        widget=forms.HiddenInput,
        max_length=20,
        error_messages={
            "required": "The form did not say which phase it was written for: reload the page."
        },
    )
    how = forms.ChoiceField(choices=[("by email", "By email"), ("on paper", "On paper")])
    orders = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text='The orders as written, in the order format, e.g. {"march": [{"unit": '
        '"frederick", "path": "4-4-5", "marches": 2}]}.',
    )

    def clean_orders(self) -> dict:
        try:
            data = json.loads(self.cleaned_data["orders"], parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(f"Not valid JSON: {exc}") from None
        except (ValueError, RecursionError):  # NaN, a number of thousands of digits, [[[[...
            raise forms.ValidationError(
                "Not readable as orders: nested too deep, or a number no order has."
            ) from None
        if not isinstance(data, dict):
            raise forms.ValidationError('The orders are an object such as {"march": [...]}.')
        return data


class ReplaceForm(forms.Form):
    reserve = forms.ChoiceField(required=False)
    email = forms.EmailField(required=False)

    def __init__(self, *args, reserves=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reserve"].choices = [("", "—")] + [
            (str(s.code), f"{s.label}: {s.user.get_username()}") for s in reserves if s.user
        ]

    def clean(self):
        data = super().clean()
        if not data.get("reserve") and not data.get("email"):
            raise forms.ValidationError("Choose a reserve player or give an email address.")
        return data


class SeatSettingsForm(EmailChoiceForm):
    """A seat's settings: the emails it gets (``mail.forms``) and its absences."""

    absent_until = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        label="Away until",
        help_text="While you are away your forces stand still; it does not count as missed.",
    )


class JoinForm(UserCreationForm):
    """A new account for an invitee, on the invitation page."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            # Each box as wide as a phone, under its label (site.css, ``form.stack input.wide``).
            field.widget.attrs["class"] = "wide"
