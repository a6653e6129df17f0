"""The organiser's form for the next campaign year (13): the between-campaign choices the
players agreed, read into ``between_campaigns_from_dict``'s plain data. Only the inputs
of rules switched on for the campaign are asked; each says which rule it answers."""

from __future__ import annotations

from django import forms

from rules.armies import LABELS, Army
from rules.betweencampaigns import between_campaigns_from_dict
from rules.leaders import leader_key
from rules.rulesettings import RuleSettings

ARMIES = [(a.value, LABELS[a]) for a in Army]
SMALL = [(Army.EMPIRE.value, LABELS[Army.EMPIRE]), (Army.SWEDEN.value, LABELS[Army.SWEDEN])]
DONORS = [*ARMIES, ("britain", "Britain (the Hanoverian player)")]


def _armies(label: str, help_text: str, choices=ARMIES) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        choices=choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=label,
        help_text=help_text,
    )


def _pairs(label: str, help_text: str, placeholder: str) -> forms.CharField:
    return forms.CharField(
        required=False,
        label=label,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": placeholder}),
    )


def _lines(text: str) -> list[list[str]]:
    return [
        [part.strip() for part in line.split(",")] for line in text.splitlines() if line.strip()
    ]


# field -> the rule switch that asks it
SWITCHES = {
    "redeploy": "winter_quarters",
    "no_exchange": "prisoner_exchange",
    "replace": "new_leaders",
    "new_leader_city": "new_leaders",
    "new_points": "new_points",
    "siege_trains": "new_siege_trains",
    "loans": "lending_points",
    "peace": "peace",
    "change_sides": "changing_sides",
    "own_course": "changing_sides",
}


class NextYearForm(forms.Form):
    redeploy = _pairs(
        "Leaders redeployed (13.1)",
        "13.1: one a line, leader, friendly fortress or star city; the others winter where "
        "they are or at the nearest one.",
        "Keith, Breslau",
    )
    no_exchange = _armies(
        "Declining to exchange prisoners (13.2)",
        "13.2: prisoners are exchanged one for one between players (all the armies of each "
        "seat together) unless an army declines.",
    )
    replace = _pairs(
        "Leaders replaced (13.3)",
        "13.3: one a line, leader removed, leader from the unused pool; each player may "
        "replace one.",
        "Lehwaldt, Winterfeldt",
    )
    new_leader_city = _pairs(
        "Where new leaders arrive (13.3)",
        "13.3: one a line, seat, fortress garrisoned by its points (blank: the first by name).",
        "prussia, Magdeburg",
    )
    new_points = forms.IntegerField(
        min_value=0,
        max_value=2000,
        label="New points per star city (13.4)",
        help_text="13.4: the figure all players agreed; each circled star and star city "
        "raises it for the army controlling it.",
    )
    siege_trains = _armies(
        "Armies building a siege train (13.5)",
        "13.5: 300 of the year's new points buy one train, in a home fortress; one a "
        "player a year (a second army of the same seat builds none).",
    )
    loans = _pairs(
        "Points lent (13.6)",
        "13.6: one a line, donor, recipient, points, from city, to city; by the chart "
        "(France to any, Britain to France's enemies...). Loans are public.",
        "france, austria, 200, Strasbourg, Prague",
    )
    peace = _armies(
        "Armies making peace (13.7)",
        "13.7: a player at peace with all his opponents leaves the war; his home country "
        "closes like the United Provinces.",
    )
    change_sides = _armies(
        "Armies changing sides (13.8)",
        "13.8: to the other alliance; the Empire follows Austria and Sweden Russia unless "
        "named below.",
    )
    own_course = _armies(
        "Following their own course (13.8)",
        "13.8: the Empire or Sweden not following its player's change.",
        SMALL,
    )
    fate_retire = forms.CharField(
        required=False,
        max_length=40,
        label="Prussian general to retire (Clock of Fate)",
        help_text="If the Tsarina or Sweden card strikes, the Prussian player's choice "
        "(blank: the lowest-ranking; never Frederick).",
    )

    def __init__(self, *args, rules: RuleSettings, fate_on: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_points"].initial = rules.new_points_per_star_city
        for name, switch in SWITCHES.items():
            if not getattr(rules, switch):
                del self.fields[name]
        if not fate_on:
            del self.fields["fate_retire"]

    def clean(self):
        data = super().clean()
        try:
            self.inputs = self._inputs(data)
            between_campaigns_from_dict(self.inputs)
        except (ValueError, KeyError, IndexError) as exc:
            raise forms.ValidationError(f"These choices cannot be read: {exc}") from None
        return data

    def _inputs(self, data: dict) -> dict:
        out: dict = {}
        for name in ("no_exchange", "siege_trains", "peace", "change_sides", "own_course"):
            if data.get(name):
                out[name] = list(data[name])
        for name in ("redeploy", "replace", "new_leader_city"):
            pairs = _lines(data.get(name) or "")
            if any(len(p) != 2 for p in pairs):
                raise ValueError(f"{self.fields[name].label}: two names a line, with a comma")
            if pairs:
                out[name] = dict(pairs)
        loans = []
        for parts in _lines(data.get("loans") or ""):
            if not 3 <= len(parts) <= 5 or not parts[2].isdigit():
                raise ValueError("a loan is donor, recipient, points[, from city, to city]")
            if parts[0].lower() not in {v for v, _ in DONORS}:
                raise ValueError(f"{parts[0]!r} may not lend points (13.6)")
            loan = {"from": parts[0], "to": parts[1], "points": int(parts[2])}
            if len(parts) > 3:
                loan["from_city"] = parts[3]
            if len(parts) > 4:
                loan["to_city"] = parts[4]
            loans.append(loan)
        if loans:
            out["loans"] = loans
        return out

    @property
    def agreed_points(self) -> int | None:
        return self.cleaned_data.get("new_points")

    @property
    def fate_choices(self) -> dict:
        key = leader_key(self.cleaned_data.get("fate_retire") or "")
        return {"retire": key} if key else {}
