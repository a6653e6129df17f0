"""The contingents each army's points buy on the tabletop (9): the one list, read by the
battle set-up (what a side may buy) and by the tabletop budget and purchase check
(``tabletop.forces``).

Rule 9: points buy units of the same country, with two exceptions: Hanoverian points buy
British, Hessian or any other units allied to Hanover (Brunswick's, the largest of those, named
on its own), and Empire points buy Saxon, Bavarian, Wurttemburger or any other Reichsarmee
units.
"""

from __future__ import annotations

from enum import Enum

from rules.armies import Army


class Nationality(Enum):
    """The contingents a side may field on the tabletop (9)."""

    AUSTRIAN = "austrian"
    FRENCH = "french"
    PRUSSIAN = "prussian"
    RUSSIAN = "russian"
    SWEDISH = "swedish"
    HANOVERIAN = "hanoverian"
    BRITISH = "british"
    HESSIAN = "hessian"
    BRUNSWICKER = "brunswicker"
    HANOVER_ALLIED = "hanover-allied"
    IMPERIAL = "imperial"
    SAXON = "saxon"
    BAVARIAN = "bavarian"
    WURTTEMBURGER = "wurttemburger"
    REICHSARMEE = "reichsarmee"

    @property
    def label(self) -> str:
        return _LABELS.get(self, self.value.capitalize())

    @classmethod
    def parse(cls, text: str) -> Nationality:
        key = str(text).strip().lower().replace("ü", "u").replace("_", "-")
        key = _ALIASES.get(key, key)
        for n in cls:
            if key in (n.value, n.label.lower()):
                return n
        names = ", ".join(n.label for n in cls)
        raise ValueError(f"{text!r} is not a contingent; the contingents are: {names}")


_LABELS = {
    Nationality.HANOVER_ALLIED: "other units allied to Hanover",
    Nationality.REICHSARMEE: "other Reichsarmee units",
}
_ALIASES = {
    "imperials": "imperial",
    "empire": "imperial",
    "reichsarmee units": "reichsarmee",
    "other reichsarmee": "reichsarmee",
    "wurttemberger": "wurttemburger",
    "wurttemberg": "wurttemburger",
    "wurttemburg": "wurttemburger",
    "brunswick": "brunswicker",
    "hanover allied": "hanover-allied",
    "allied": "hanover-allied",
    "other allied": "hanover-allied",
    "austria": "austrian",
    "france": "french",
    "prussia": "prussian",
    "russia": "russian",
    "sweden": "swedish",
    "hanover": "hanoverian",
    "britain": "british",
    "hesse": "hessian",
    "hesse-kassel": "hessian",
    "saxony": "saxon",
    "bavaria": "bavarian",
}

# 9: what each army's points may buy, its own country first.
BUYS: dict[Army, tuple[Nationality, ...]] = {
    Army.AUSTRIA: (Nationality.AUSTRIAN,),
    Army.EMPIRE: (
        Nationality.IMPERIAL,
        Nationality.SAXON,
        Nationality.BAVARIAN,
        Nationality.WURTTEMBURGER,
        Nationality.REICHSARMEE,
    ),
    Army.FRANCE: (Nationality.FRENCH,),
    Army.HANOVER: (
        Nationality.HANOVERIAN,
        Nationality.BRITISH,
        Nationality.HESSIAN,
        Nationality.BRUNSWICKER,
        Nationality.HANOVER_ALLIED,
    ),
    Army.PRUSSIA: (Nationality.PRUSSIAN,),
    Army.RUSSIA: (Nationality.RUSSIAN,),
    Army.SWEDEN: (Nationality.SWEDISH,),
}
