"""The table of leaders of section 14: rank, tactical and strategic Initiative Ratings (IR).

An asterisk next to a leader's strategic IR means he may receive two march orders per turn (6.2.2).
Leaders are named in the engine by a key: the lower-case name with spaces and apostrophes turned
into hyphens ("st-germain", "o-donnell", "d-estrees", "karl-wilhelm").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.armies import Army


@dataclass(frozen=True)
class Leader:
    """One line of the table of section 14."""

    name: str
    army: Army
    rank: int
    tactical_ir: int
    strategic_ir: int
    two_marches: bool

    @property
    def key(self) -> str:
        return leader_key(self.name)

    @property
    def combined_ir(self) -> int:
        """Tactical plus strategic IR, used to rally (10.3)."""
        return self.tactical_ir + self.strategic_ir


def leader_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# Name, rank, tactical IR, strategic IR; a "*" after the strategic IR as in the book.
_TABLE = """
PRUSSIA
Frederick 1 3 4*
Schwerin 2 2 3*
Henry 3 2 2
Bevern 4 1 1
Kieth 5 1 1
Maurice 6 0 0
Lehwaldt 7 0 0
Dohna 8 0 0
Ziethen 9 2 1
Wedel 10 1 0
Fouque 11 1 0
Finck 12 0 0
Kliest 13 0 0
Seydlitz 14 2 1
Tresckow 15 0 0
Hulsen 16 0 0
Eugene 17 1 0
Hautcharmoy 18 0 0
Winterfeldt 19 1 0
Retzow 20 0 0
Goltz 21 0 0
Werner 22 0 1
Platen 23 0 1
AUSTRIA
Charles 1 1 0
Daun 2 2 1
Browne 3 2 2
Picolomini 4 0 0
Serbelloni 5 0 0
Lacy 6 1 1
Laudon 7 3 3*
Nadasy 8 1 1
Arenburg 9 0 0
Koenigsegg 10 0 0
Harsch 11 0 0
DeVille 12 0 0
Hadik 13 0 0
Gemigen 14 0 0
Buccow 15 0 0
O'Donnell 16 1 0
Luchesi 17 1 0
Brentano 18 0 0
O'Kelley 19 0 0
EMPIRE
Saxe 1 0 0
Zweibrucken 2 0 0
Xavier 3 0 0
Wurttemburg 4 0 0
Stolberg 5 0 1
FRANCE
D'Estrees 1 0 1
Richelieu 2 0 0
Clermont 3 0 0
Soubise 4 0 0
Contades 5 1 1
Broglie 6 1 2
Chevert 7 1 2
St. Germain 8 1 0
Armentieres 9 1 1
Conde 10 1 1
de Muy 11 0 0
Castries 12 0 0
Rochambeau 13 1 0
HANOVER
Cumberland 1 0 0
Ferdinand 2 2 3*
Zastrow 3 1 1
Karl Wilhelm 4 1 2
Sackville 5 0 1
Sporcken 6 1 0
Imhoff 7 1 2
Isenburg 8 1 0
Oberg 9 0 0
RUSSIA
Apraxin 1 1 1
Saltykov 2 1 0
Fermor 3 1 1
Rumyantsev 4 0 0
Lieven 5 1 0
Gallitsyn 6 0 0
Czernichev 7 0 1
Tottleben 8 0 0
Butterlin 9 0 0
Demidov 10 0 0
SWEDEN
Hamilton 1 0 0
Lattinghausen 2 0 0
"""


def _parse_table(text: str) -> tuple[Leader, ...]:
    leaders = []
    army = None
    for line in text.strip().splitlines():
        parts = line.split()
        if len(parts) == 1:
            army = Army.parse(parts[0])
            continue
        *name, rank, tactical, strategic = parts
        assert army is not None
        leaders.append(
            Leader(
                name=" ".join(name),
                army=army,
                rank=int(rank),
                tactical_ir=int(tactical),
                strategic_ir=int(strategic.rstrip("*")),
                two_marches=strategic.endswith("*"),
            )
        )
    return tuple(leaders)


LEADERS: tuple[Leader, ...] = _parse_table(_TABLE)
_BY_KEY = {leader.key: leader for leader in LEADERS}


class UnknownLeader(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def leader(key_or_name: str) -> Leader:
    """A leader by key or name (``"frederick"``, ``"St. Germain"``)."""
    found = _BY_KEY.get(key_or_name) or _BY_KEY.get(leader_key(str(key_or_name)))
    if found is None:
        raise UnknownLeader(f"{key_or_name!r} is not a leader of section 14")
    return found


def leaders_of(army: Army) -> tuple[Leader, ...]:
    return tuple(x for x in LEADERS if x.army is army)
