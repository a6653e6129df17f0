"""Orders written as a person writes them, one order a line (issue 29): the grammar of orders
by email, read into the engine's order format (``rules.orders``) exactly as the page's forms
write them, so that the same checks (``orders.checks``) then weigh them.

Pure: no Django, no database. What a seat may name (its units, where they stand, the places of
the map, the battles and sieges awaiting its word) and how a march to a place is routed come in
as a :class:`Vocabulary`; the service that reads a mail builds it from the seat's own view.

The grammar (docs/email-orders.md has it with examples), case and accents ignored:

- ``Frederick 2 2 3``: direction codes (1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW), spaces, hyphens or
  commas between them, or packed (``223``);
- ``Frederick to 6830 via 6832``, ``Frederick march to Schweidnitz``: a hex or a place, through
  waypoints; the least-cost way under the rules' costs, said back in the confirmation;
- ``Seydlitz 4 4 drop Ziethen`` (6.2.6): Ziethen stays in the hex reached where ``drop`` stands
  in the codes (at the end here); ``drop Ziethen at 0405`` names the hex;
- ``Frederick 2 marches 1 1 1 1 4 4`` (6.2.2), ``enter fortress``, ``leave fortress``,
  ``works`` (9.4.2), ``advance`` (6.4.4: into the enemy's hex rather than hold);
- ``Frederick stands`` (or ``stays``, ``halts``, ``holds``, ``no march``): his order removed;
- ``transfer 100 from Frederick to Seydlitz`` (6.4.2, 6.4.3; ``garrison`` for the garrison);
- ``fight at Kolin``, ``decline at 0802``, ``retire at Kolin`` (9, 10.1), for every army of
  the seat there, or ``Austria fight at Kolin`` for one;
- ``grant honors at Breslau``, ``deny honors at Breslau``, ``surrender Breslau``,
  ``fight on at Breslau`` (11.6);
- ``READY`` or ``NOT READY`` on a line of its own;
- a remark in brackets is left out: ``Frederick 1 (to Berlin)``.

A line that is none of these, or that names what the seat does not command, is returned with the
reason, never guessed at.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from maps.core.hexgrid import DIRECTIONS, Hex, format_path, hex_id, neighbour, parse_hex_id
from maps.core.model import HexMap
from maps.core.paths import enemy_aware_cost, least_cost_path
from maps.core.wording import hex_in_words, march_in_words

MARCH = "march"
FORCED_MARCH = "forced_march"
TRANSFERS = "transfers"
BATTLE = "battle"
HONORS = "honors"

# Words a writer puts in without meaning anything the grammar needs.
_NOISE = frozenset(
    {
        "march",
        "marches",
        "marching",
        "moves",
        "move",
        "go",
        "goes",
        "forced",
        "force",
        "forces",
        "please",
        "then",
        "and",
        "with",
        "his",
        "her",
        "the",
        "order",
        "orders",
        "army",
        "should",
    }
)
_STAND = frozenset(
    {
        "stands",
        "stand",
        "stays",
        "stay",
        "halts",
        "halt",
        "holds",
        "hold",
        "rests",
        "rest",
        "cancel",
        "none",
    }
)
_CHOICES = {
    "fight": "fight",
    "decline": "decline",
    "retire": "retire",
    "retires": "retire",
    "fights": "fight",
    "declines": "decline",
}
_HONORS = {
    "grant": ("besieger", "grant"),
    "deny": ("besieger", "deny"),
    "surrender": ("garrison", "surrender"),
    "surrenders": ("garrison", "surrender"),
}
_HEX = re.compile(r"^\d{4}$")
_ASIDE = re.compile(r"\([^)]*\)")  # a remark in brackets is the writer's, not an order
_CODES = re.compile(r"^[1-6]+$")

# Limits on what one mail may ask of the reader (issue 36, docs/email-orders.md).
MAX_BODY_LINES = 100  # lines of the new text read; the rest is cut and the answer says so
MAX_LINE_CHARS = 500  # a longer line is refused unread
MAX_WAYPOINTS = 12  # 'via' hexes in one march: each costs a least-cost path search
MAX_ROUTE_LEGS = 24  # least-cost path searches for one mail (~30 ms each across the map)


def norm(text: str) -> str:
    """Lower case, accents gone, every run of other characters one space: ``"D'Estrées"`` reads
    ``"d estrees"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", " ", plain).strip()


class OrderTextError(ValueError):
    """A line that cannot be read as an order: its message says why, for the player."""


Route = Callable[[str, list[str]], tuple[str, int]]
"""``route(start hex, [waypoint hexes..., destination hex])`` -> (direction codes, MP cost);
raises :class:`OrderTextError` when there is no way."""


@dataclass(frozen=True)
class Vocabulary:
    """What one seat may name in one phase."""

    phase: str  # "march", "forced-march", "battle", "honors" (PhaseWindow.phase values)
    units: Mapping[str, str]  # the seat's leaders and siege trains: key -> name
    positions: Mapping[str, str]  # key -> hex where it stands
    places: Mapping[str, str]  # place name (as printed) -> hex id
    hexes: frozenset[str]  # every hex id of the map
    route: Route
    leaders_only: bool = False  # the forced march: siege trains cannot (6.3.3)
    battles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # hex -> seat's armies
    honors: Mapping[str, str] = field(default_factory=dict)  # city -> "besieger" / "garrison"
    # The map, to say a march back in words (``march_said``); without it, in its codes.
    hexmap: HexMap | None = None

    def _names(self) -> list[tuple[str, str]]:
        """(normalised name, key), the longest first, keys as names too."""
        names = {norm(name): key for key, name in self.units.items()}
        names.update({norm(key): key for key in self.units})
        return sorted(names.items(), key=lambda nk: -len(nk[0]))

    def _places(self) -> list[tuple[str, str]]:
        return sorted(((norm(p), h) for p, h in self.places.items()), key=lambda ph: -len(ph[0]))


@dataclass(frozen=True)
class Line:
    """One line of the mail and what became of it."""

    number: int
    text: str
    kind: str = ""  # MARCH, FORCED_MARCH, TRANSFERS, BATTLE, HONORS, "ready", or "" if none
    order: dict | None = None
    problem: str = ""
    said: str = ""  # how it was understood, for the confirmation


@dataclass(frozen=True)
class Reading:
    lines: tuple[Line, ...]
    ready: bool | None  # READY: True, NOT READY: False, neither: None
    cut: int = 0  # lines past MAX_BODY_LINES, not read

    @property
    def orders(self) -> list[Line]:
        return [x for x in self.lines if x.order is not None]

    @property
    def problems(self) -> list[Line]:
        return [x for x in self.lines if x.problem]


def read_orders(text: str, vocab: Vocabulary) -> Reading:
    """Every non-empty line of ``text`` read as one order, a problem, or READY / NOT READY."""
    lines: list[Line] = []
    ready: bool | None = None
    vocab = replace(vocab, route=_budgeted(vocab.route))
    every = text.splitlines()
    for number, raw in enumerate(every[:MAX_BODY_LINES], 1):
        if len(raw) > MAX_LINE_CHARS:
            lines.append(
                Line(
                    number,
                    raw.strip()[:80] + "…",
                    problem=f"The line is longer than {MAX_LINE_CHARS} characters: not read.",
                )
            )
            continue
        words = norm(_ASIDE.sub(" ", raw))
        if not words:
            continue
        if words in ("ready", "i am ready", "ready ready"):
            ready = True
            lines.append(Line(number, raw.strip(), "ready", said="Ready"))
            continue
        if words in ("not ready", "unready", "not yet ready"):
            ready = False
            lines.append(Line(number, raw.strip(), "ready", said="Not ready"))
            continue
        try:
            kind, order, said = _read_line(words.split(), vocab)
        except OrderTextError as exc:
            lines.append(Line(number, raw.strip(), problem=str(exc)))
            continue
        lines.append(Line(number, raw.strip(), kind, order, said=said))
    return Reading(tuple(lines), ready, cut=max(0, len(every) - MAX_BODY_LINES))


def _budgeted(route: Route) -> Route:
    """``route`` that refuses once MAX_ROUTE_LEGS legs have been searched for one mail."""
    spent = 0

    def budgeted(start: str, ways: list[str]) -> tuple[str, int]:
        nonlocal spent
        if spent + len(ways) > MAX_ROUTE_LEGS:
            raise OrderTextError(
                f"One mail may ask for at most {MAX_ROUTE_LEGS} ways by 'to' and 'via': "
                "write this march in direction codes, or send it in another mail."
            )
        spent += len(ways)
        return route(start, ways)

    return budgeted


def _read_line(words: list[str], vocab: Vocabulary) -> tuple[str, dict, str]:
    head = words[0]
    if head in ("transfer", "transfers"):
        return _transfer(words[1:], vocab)
    if head in _HONORS or (
        head in ("fight", "fights") and (words[1:2] == ["on"] or vocab.phase == "honors")
    ):
        return _honors(head, words[1:], vocab)
    if head in _CHOICES:
        return _battle(head, words[1:], vocab, army="")
    army = _army_word(head, vocab)
    if army and words[1:2] and words[1] in _CHOICES:
        return _battle(words[1], words[2:], vocab, army=army)
    key, rest = _unit(words, vocab)
    if rest[:1] and rest[0] in ("gives", "give", "transfers", "transfer"):
        return _transfer(["from", key, *rest[1:]], vocab)
    return _march(key, rest, vocab)


def _army_word(word: str, vocab: Vocabulary) -> str:
    armies = {a for armies in vocab.battles.values() for a in armies}
    adjectives = {
        "prussian": "prussia",
        "austrian": "austria",
        "imperial": "empire",
        "french": "france",
        "hanoverian": "hanover",
        "russian": "russia",
        "swedish": "sweden",
    }
    army = adjectives.get(word, word)
    return army if army in armies else ""


def _unit(words: list[str], vocab: Vocabulary) -> tuple[str, list[str]]:
    if not words:
        raise OrderTextError("A leader's name is missing.")
    joined = " ".join(words)
    for name, key in vocab._names():
        if joined == name or joined.startswith(name + " "):
            if vocab.leaders_only and key not in _leaders(vocab):
                raise OrderTextError(
                    f"{vocab.units[key]} is a siege train: siege trains cannot force march (6.3.3)."
                )
            return key, joined[len(name) :].split()
    raise OrderTextError(
        f"'{words[0]}' is not one of your leaders or siege trains, nor an order word "
        "(transfer, fight, decline, retire, grant, deny, surrender, READY)."
    )


def _leaders(vocab: Vocabulary) -> set[str]:
    return {k for k in vocab.units if not k[-1:].isdigit()}


def _place(words: list[str], vocab: Vocabulary) -> tuple[str, list[str]]:
    """A hex id or a place name at the start of ``words``: (hex, the words after it)."""
    if words and _HEX.match(words[0]):
        if words[0] not in vocab.hexes:
            raise OrderTextError(f"There is no hex {words[0]} on the map.")
        return words[0], words[1:]
    joined = " ".join(words)
    for name, hexid in vocab._places():
        if joined == name or joined.startswith(name + " "):
            return hexid, joined[len(name) :].split()
    said = " ".join(words[:3])
    raise OrderTextError(f"'{said}' is neither a hex number (four digits) nor a place on the map.")


def _march(key: str, words: list[str], vocab: Vocabulary) -> tuple[str, dict, str]:
    forced = vocab.phase == "forced-march"
    if vocab.phase not in ("march", "forced-march"):
        raise OrderTextError(f"No march orders are taken now: the {vocab.phase} phase is open.")
    kind = FORCED_MARCH if forced else MARCH
    name = vocab.units[key]
    start = vocab.positions.get(key)
    if start is None:
        raise OrderTextError(f"{name} is not on the map.")
    words = [w for w in words if w not in _NOISE or w in ("march", "marches")]
    if not words or words[0] in _STAND or words[:2] == ["no", "march"]:
        return kind, {"unit": key, "path": ""}, f"{name} stands."
    order, codes, dest, vias, drops = _march_words(key, words, vocab, forced=forced)
    route_note = ""
    if dest or vias:
        if codes:
            raise OrderTextError("Write either direction codes or 'to' a place, not both.")
        if not dest:
            raise OrderTextError("'via' needs a destination: 'to' a hex or a place.")
        path, cost = vocab.route(start, [*vias, dest])
        codes = [c for c in path.split("-") if c]
        route_note = f", {cost} MP by the least-cost way"
    order["path"] = "-".join(codes)
    drop = {who: at or walk_to(start, codes[:step]) for who, (at, step) in drops.items()}
    if drop:
        order["drop"] = drop
    said = march_said(order, name, start, vocab.units, vocab.hexmap, note=route_note)
    return kind, order, said + "."


def march_said(
    order: Mapping, name: str, start: str | None, units: Mapping[str, str], hexmap, note=""
) -> str:
    """A march order said back to its writer in words (``maps.core.wording``), then its codes
    to copy: "Frederick: 4 hexes SE to Schweidnitz (hex 6934), 7 MP by the least-cost way, two
    marches; drops Ziethen at hex 7034 (1 hex E of Schweidnitz) (codes 4-4-5-5)". ``start``:
    where the unit stands (None: not on the map, the codes alone)."""
    path = str(order.get("path") or "")
    if not path:
        return f"{name}: stands"
    words = march_in_words(hexmap, start, path) if start else path
    said = f"{name}: {words}{note}"
    if order.get("marches") == 2:
        said += ", two marches"
    drop = order.get("drop")
    for who, at in (drop if isinstance(drop, dict) else {}).items():
        try:
            where = hex_in_words(hexmap, parse_hex_id(str(at)))
        except ValueError:
            where = str(at)
        said += f"; drops {units.get(who, who)} at {where}"
    return said + (f" (codes {path})" if words != path else "")


def _march_words(key: str, words: list[str], vocab: Vocabulary, *, forced: bool):
    """The words after the unit's name: (order flags, codes, destination, waypoints, drops by
    leader as (hex named or "", how many codes were written before 'drop'))."""
    if sum(w in ("via", "through") for w in words) > MAX_WAYPOINTS:
        raise OrderTextError(f"A march may name at most {MAX_WAYPOINTS} hexes after 'via'.")
    order: dict = {"unit": key}
    codes: list[str] = []
    dest, vias = "", []
    drops: dict[str, tuple[str, int]] = {}
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in ("1", "2", "one", "two") and nxt in ("march", "marches") and not forced:
            order["marches"] = 2 if w in ("2", "two") else 1
            i += 2
            continue
        if w in ("to", "towards", "via", "through"):
            hexid, rest = _place(words[i + 1 :], vocab)
            if w in ("to", "towards"):
                if dest:
                    raise OrderTextError(
                        "A march has one destination ('to'); put the others after 'via'."
                    )
                dest = hexid
            else:
                vias.append(hexid)
            words, i = words[: i + 1] + rest, i + 1
            continue
        if w == "drop":
            who, rest = _subordinate(words[i + 1 :], vocab, key)
            at = ""
            if rest[:1] == ["at"]:
                at, rest = _place(rest[1:], vocab)
            drops[who] = (at, len(codes))
            words, i = words[: i + 1] + rest, i + 1
            continue
        flag = _FLAGS.get(w)
        if flag and forced and flag[0] == "works":
            raise OrderTextError("Field works take march orders, not a forced march (9.4.2).")
        if _CODES.match(w):
            codes += list(w)
        elif flag:
            order[flag[0]] = flag[1]
        elif w not in ("march", "marches", "fortress", "field"):
            raise OrderTextError(
                f"'{w}' is not a direction code (1 to 6), 'to', 'via', 'drop', 'enter', "
                "'leave', 'works' or 'advance'."
            )
        i += 1
    return order, codes, dest, vias, drops


_FLAGS = {
    "enter": ("enter_fortress", True),
    "enters": ("enter_fortress", True),
    "into": ("enter_fortress", True),
    "leave": ("leave_fortress", True),
    "leaves": ("leave_fortress", True),
    "works": ("works", True),
    "entrench": ("works", True),
    "entrenches": ("works", True),
    "advance": ("meeting", "advance"),
    "advances": ("meeting", "advance"),
    "attack": ("meeting", "advance"),
    "attacks": ("meeting", "advance"),
}


def walk_to(start: str, codes: list[str]) -> str:
    """The hex reached from ``start`` by the direction ``codes``."""
    h = parse_hex_id(start)
    for c in codes:
        h = neighbour(h, int(c))
    return hex_id(h)


def _subordinate(words: list[str], vocab: Vocabulary, commander: str) -> tuple[str, list[str]]:
    key, rest = _unit(words, vocab) if words else ("", [])
    if not key:
        raise OrderTextError("'drop' needs the leader dropped off, e.g. 'drop Ziethen'.")
    if key == commander:
        raise OrderTextError("A commander cannot drop himself off.")
    return key, rest


def _transfer(words: list[str], vocab: Vocabulary) -> tuple[str, dict, str]:
    if vocab.phase != "march":
        raise OrderTextError("Transfers are given with the march orders (6.4.2).")
    words = [w for w in words if w not in ("points", "point", "pts")]
    points = next((int(w) for w in words if w.isdigit()), None)
    if points is None or points < 1:
        raise OrderTextError("A transfer needs its points, e.g. 'transfer 100 from X to Y'.")
    sides = {}
    for mark in ("from", "to"):
        if mark not in words:
            raise OrderTextError(f"A transfer needs '{mark}': 'transfer 100 from X to Y'.")
        after = words[words.index(mark) + 1 :]
        after = [w for w in after if not w.isdigit()]
        if after[:1] == ["garrison"] or after[:2] == ["the", "garrison"]:
            sides[mark] = "garrison"
        else:
            sides[mark] = _unit(after, vocab)[0]
    if sides["from"] == sides["to"]:
        raise OrderTextError("A transfer goes from one leader to another.")
    names = {k: vocab.units.get(k, "the garrison") for k in sides.values()}
    said = f"Transfer of {points} points from {names[sides['from']]} to {names[sides['to']]}."
    return TRANSFERS, {"from": sides["from"], "to": sides["to"], "points": points}, said


def _battle(verb: str, words: list[str], vocab: Vocabulary, *, army: str):
    if vocab.phase != "battle":
        raise OrderTextError(
            f"No battle awaits your decision now: the {vocab.phase} phase is open."
        )
    hexid, _rest = _place([w for w in words if w not in _FILLER], vocab)
    armies = vocab.battles.get(hexid)
    if not armies:
        raise OrderTextError(f"No battle awaits a decision of yours at {hexid}.")
    if army and army not in armies:
        raise OrderTextError(f"The {army} army has no force at the battle at {hexid}.")
    chosen = (army,) if army else tuple(armies)
    choice = _CHOICES[verb]
    orders = [{"hex": hexid, "army": a, "choice": choice} for a in chosen]
    said = f"{', '.join(a.capitalize() for a in chosen)}: {choice} at {hexid}."
    return BATTLE, {"decisions": orders}, said


_FILLER = frozenset({"at", "in", "the", "battle", "of", "on", "honors", "honours", "war", "to"})


def _honors(verb: str, words: list[str], vocab: Vocabulary) -> tuple[str, dict, str]:
    rest = [w for w in words if w not in _FILLER]
    if vocab.phase != "honors":
        raise OrderTextError(
            f"No honors of war await your answer now: the {vocab.phase} phase is open."
        )
    joined = " ".join(rest)
    city = next(
        (
            c
            for c in sorted(vocab.honors, key=len, reverse=True)
            if joined == norm(c) or joined.startswith(norm(c) + " ")
        ),
        None,
    )
    if city is None:
        raise OrderTextError("No honors of war await your answer there.")
    role = vocab.honors[city]
    answer = "fight" if verb in ("fight", "fights") else _HONORS[verb][1]
    wanted = ("grant", "deny") if role == "besieger" else ("surrender", "fight")
    if answer not in wanted:
        raise OrderTextError(f"At {city}, as the {role}, you answer {' or '.join(wanted)}.")
    return HONORS, {"city": city, role: answer}, f"{city}: {answer}."


def map_route(
    hexmap: HexMap, enemy_occupied: frozenset[Hex] = frozenset(), enemy_forts=frozenset()
) -> Route:
    """The least-cost way by the Terrain Effects Chart (2.2), through each waypoint in turn,
    never on past a hex the seat knows holds an enemy (6.4.4: a force entering one stops)."""
    cost = enemy_aware_cost(hexmap, enemy_occupied, enemy_forts)

    def route(start: str, ways: list[str]) -> tuple[str, int]:
        here = parse_hex_id(start)
        codes: list[int] = []
        spent = 0
        for way in ways:
            there = parse_hex_id(way)
            path = least_cost_path(
                hexmap,
                here,
                there,
                cost=cost,
                can_leave=lambda h, a=here: h == a or h not in enemy_occupied,
            )
            if path is None:
                raise OrderTextError(f"There is no way from {hex_id(here)} to {way} on the map.")
            for a, b in zip(path, path[1:], strict=False):
                d = next(d for d in DIRECTIONS if neighbour(a, d) == b)
                codes.append(d)
                spent += cost(a, d, b) or 0
            here = there
        return format_path(codes), spent

    return route
