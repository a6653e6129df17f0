"""The seven armies, the two alliances and the seats (players) that command them (rule 1.2)."""

from __future__ import annotations

from enum import Enum


class Army(Enum):
    """The seven armies of the campaign (1.2, 3.4)."""

    AUSTRIA = "austria"
    EMPIRE = "empire"
    FRANCE = "france"
    HANOVER = "hanover"
    PRUSSIA = "prussia"
    RUSSIA = "russia"
    SWEDEN = "sweden"

    @property
    def label(self) -> str:
        return LABELS[self]

    @property
    def alliance(self) -> Alliance:
        """The alliance the army starts the war in (1.2). Rules ask the state instead
        (``state.alliance_of(army)``), which honours changes of sides (13.8)."""
        return ALLIANCE_OF[self]

    def is_enemy_of(self, other: Army) -> bool:
        """Enemies as the war begins (1.2); rules ask ``state.is_enemy(a, b)`` (13.8)."""
        # Looked up by value: hashing a str is much cheaper than hashing an Enum member.
        return _ALLIANCE_BY_VALUE[self._value_] is not _ALLIANCE_BY_VALUE[other._value_]

    @property
    def march_pool(self) -> Army:
        """Whose marches this army's forces use (6.2.1): Imperial forces use Austrian marches,
        Swedish forces Russian marches."""
        return MARCH_POOL.get(self, self)

    @classmethod
    def parse(cls, text: str) -> Army:
        if isinstance(text, cls):
            return text
        found = cls._value2member_map_.get(text)
        if found is not None:
            return found  # type: ignore[return-value]
        key = str(text).strip().lower()
        for army in cls:
            if key in (army.value, army.label.lower()):
                return army
        names = ", ".join(a.value for a in cls)
        raise ValueError(f"{text!r} is not an army; the armies are: {names}")


class Alliance(Enum):
    """1.2: the Prussian alliance (Prussian and Hanoverian players) against the Austrian
    alliance (Austrian/Imperial, French and Russian/Swedish players)."""

    PRUSSIAN = "prussian"
    AUSTRIAN = "austrian"

    def armies(self) -> tuple[Army, ...]:
        """The armies of this alliance as the war begins (1.2); after a change of sides (13.8)
        ask the state: ``state.armies_of(alliance)``."""
        return tuple(a for a in Army if ALLIANCE_OF[a] is self)

    @property
    def opponent(self) -> Alliance:
        return Alliance.AUSTRIAN if self is Alliance.PRUSSIAN else Alliance.PRUSSIAN


class Seat(Enum):
    """A player. With five players each commands one of these (1.2); with fewer players some
    seats command the armies of others (see ``seat_map``)."""

    AUSTRIA = "austria"
    FRANCE = "france"
    HANOVER = "hanover"
    PRUSSIA = "prussia"
    RUSSIA = "russia"

    @property
    def label(self) -> str:
        return f"{SEAT_LABELS[self]} player"


LABELS = {
    Army.AUSTRIA: "Austria",
    Army.EMPIRE: "Empire",
    Army.FRANCE: "France",
    Army.HANOVER: "Hanover",
    Army.PRUSSIA: "Prussia",
    Army.RUSSIA: "Russia",
    Army.SWEDEN: "Sweden",
}
ADJECTIVES = {
    Army.AUSTRIA: "Austrian",
    Army.EMPIRE: "Imperial",
    Army.FRANCE: "French",
    Army.HANOVER: "Hanoverian",
    Army.PRUSSIA: "Prussian",
    Army.RUSSIA: "Russian",
    Army.SWEDEN: "Swedish",
}
SEAT_LABELS = {
    Seat.AUSTRIA: "Austrian",
    Seat.FRANCE: "French",
    Seat.HANOVER: "Hanoverian",
    Seat.PRUSSIA: "Prussian",
    Seat.RUSSIA: "Russian",
}

ALLIANCE_OF = {
    Army.AUSTRIA: Alliance.AUSTRIAN,
    Army.EMPIRE: Alliance.AUSTRIAN,
    Army.FRANCE: Alliance.AUSTRIAN,
    Army.RUSSIA: Alliance.AUSTRIAN,
    Army.SWEDEN: Alliance.AUSTRIAN,
    Army.HANOVER: Alliance.PRUSSIAN,
    Army.PRUSSIA: Alliance.PRUSSIAN,
}

_ALLIANCE_BY_VALUE = {army.value: alliance for army, alliance in ALLIANCE_OF.items()}

MARCH_POOL = {Army.EMPIRE: Army.AUSTRIA, Army.SWEDEN: Army.RUSSIA}

_FIVE = {
    Army.AUSTRIA: Seat.AUSTRIA,
    Army.EMPIRE: Seat.AUSTRIA,
    Army.FRANCE: Seat.FRANCE,
    Army.HANOVER: Seat.HANOVER,
    Army.PRUSSIA: Seat.PRUSSIA,
    Army.RUSSIA: Seat.RUSSIA,
    Army.SWEDEN: Seat.RUSSIA,
}
_FOUR = {**_FIVE, Army.RUSSIA: Seat.AUSTRIA, Army.SWEDEN: Seat.AUSTRIA}
_THREE = {**_FOUR, Army.HANOVER: Seat.PRUSSIA}
_TWO = {**_THREE, Army.FRANCE: Seat.AUSTRIA}
SEAT_MAPS: dict[int, dict[Army, Seat]] = {5: _FIVE, 4: _FOUR, 3: _THREE, 2: _TWO}


def seat_map(players: int) -> dict[Army, Seat]:
    """Which seat commands each army with 2 to 5 players (1.2).

    >>> seat_map(2)[Army.FRANCE], seat_map(3)[Army.HANOVER], seat_map(4)[Army.SWEDEN]
    (<Seat.AUSTRIA: 'austria'>, <Seat.PRUSSIA: 'prussia'>, <Seat.AUSTRIA: 'austria'>)
    """
    try:
        return dict(SEAT_MAPS[players])
    except KeyError:
        raise ValueError(f"Der Grosse König is for 2 to 5 players, not {players}") from None


def seats_in_play(players: int) -> tuple[Seat, ...]:
    used = set(seat_map(players).values())
    return tuple(s for s in Seat if s in used)


def armies_of(seat: Seat, players: int) -> tuple[Army, ...]:
    mapping = seat_map(players)
    return tuple(a for a in Army if mapping[a] is seat)


# The Deployment Chart (3.4): the areas each country controls at the start. "Britain" is not on
# the map. Russia and Sweden are "not shown on map" as countries, but occupy these areas (1.2).
CONTROLLED_AREAS: dict[Army, tuple[str, ...]] = {
    Army.AUSTRIA: ("Austria",),
    Army.EMPIRE: ("Bavaria", "Empire", "Wurttemburg"),
    Army.FRANCE: ("France", "Austrian Netherlands"),
    Army.HANOVER: ("Britain", "Brunswick", "Hanover", "Hesse-Kassel", "Lippe", "Minden"),
    Army.PRUSSIA: ("Prussia", "Saxony", "Silesia"),
    Army.SWEDEN: ("Swedish Pomerania",),
    Army.RUSSIA: ("East Prussia",),
}
# 3.3: forces may move through these freely and use their fortresses.
OPEN_NEUTRALS = ("Mecklinburg", "Poland")
# 3.3: no force may enter these, their fortresses may not be used, supply may not be traced through.
CLOSED_NEUTRALS = ("Denmark", "United Provinces")


def controller_of_area(area: str) -> Army | None:
    for army, areas in CONTROLLED_AREAS.items():
        if area in areas:
            return army
    return None


def siege_train_name(train_id: str) -> str:
    """The one name of a siege train, on every page, event and email: its army's adjective and
    its number ("prussia-1" is "Prussian siege train 1"); on the map counter, ``siege_train_short``.

    >>> siege_train_name("prussia-1"), siege_train_name("narnia-1")
    ('Prussian siege train 1', "siege train 'narnia-1'")
    """
    army, _, number = train_id.rpartition("-")
    try:
        adjective = ADJECTIVES[Army(army)]
    except ValueError:
        return f"siege train {train_id!r}"
    return f"{adjective} siege train {number}"


def siege_train_short(train_id: str) -> str:
    """The counter's short form of ``siege_train_name``: "T" and the number ("T1"); the
    counter's colour says whose.

    >>> siege_train_short("austria-2")
    'T2'
    """
    return "T" + train_id.rpartition("-")[2]
