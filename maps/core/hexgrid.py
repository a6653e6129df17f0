"""Hex geometry of the campaign map (rule 2, rule 6).

Hexes are pointy-topped and laid out in rows, so every hex has a West neighbour. Code uses axial
coordinates ``Hex(q, r)``; people read hex ids ``"CCRR"``: the 1-based column and row of an "odd-r"
offset layout, where odd rows (counting from 0) are shoved half a hex to the right.

Direction codes are the rulebook's (rule 6): the hex to the West is 1, then clockwise:

    1 W, 2 NW, 3 NE, 4 E, 5 SE, 6 SW

>>> h = parse_hex_id("0503")
>>> hex_id(neighbour(h, 4))
'0603'
>>> format_path(parse_path("1 - 2-2-1-6"))
'1-2-2-1-6'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    """Axial coordinates of a hex: q grows to the East, r grows to the South."""

    q: int
    r: int


class PathError(ValueError):
    """A march order written in direction codes could not be read."""


class HexIdError(ValueError):
    """A hex id ("CCRR") could not be read."""


DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (-1, 0),  # W
    2: (0, -1),  # NW
    3: (1, -1),  # NE
    4: (1, 0),  # E
    5: (0, 1),  # SE
    6: (-1, 1),  # SW
}
DIRECTION_NAMES: dict[int, str] = {1: "W", 2: "NW", 3: "NE", 4: "E", 5: "SE", 6: "SW"}

# Corners are numbered clockwise from the upper right (-30 degrees, y pointing down).
# Each direction's hexside runs between two corners.
EDGE_CORNERS: dict[int, tuple[int, int]] = {
    4: (0, 1),
    5: (1, 2),
    6: (2, 3),
    1: (3, 4),
    2: (4, 5),
    3: (5, 0),
}
# Corner offsets on the integer vertex lattice
# (x in units of sqrt(3)/2 * size, y in units of size/2).
_CORNER_LATTICE: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2))

Side = tuple[Hex, int]
"""A hexside in canonical form: a hex and a direction code 1, 2 or 3 (W, NW, NE)."""

Vertex = tuple[int, int]


def opposite(d: int) -> int:
    """The direction code pointing back: 1 <-> 4, 2 <-> 5, 3 <-> 6."""
    return (d + 2) % 6 + 1


def neighbour(h: Hex, d: int) -> Hex:
    dq, dr = DIRECTIONS[d]
    return Hex(h.q + dq, h.r + dr)


def neighbours(h: Hex) -> Iterator[tuple[int, Hex]]:
    """Every (direction code, neighbour) pair, in direction-code order."""
    for d, (dq, dr) in DIRECTIONS.items():
        yield d, Hex(h.q + dq, h.r + dr)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction code from ``a`` to its neighbour ``b``; None when they are not adjacent."""
    delta = (b.q - a.q, b.r - a.r)
    for d, step in DIRECTIONS.items():
        if step == delta:
            return d
    return None


def within(h: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance ``radius`` or less from ``h`` (``h`` included)."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(h.q + dq, h.r + dr)


# --- hex ids for people -------------------------------------------------------------------------

_HEX_ID = re.compile(r"^\s*(\d{2})(\d{2})\s*$")


def offset_to_axial(col: int, row: int) -> Hex:
    """0-based odd-r offset column and row to axial coordinates."""
    return Hex(col - (row - (row & 1)) // 2, row)


def axial_to_offset(h: Hex) -> tuple[int, int]:
    """Axial coordinates to the 0-based odd-r offset (column, row)."""
    return h.q + (h.r - (h.r & 1)) // 2, h.r


def hex_id(h: Hex) -> str:
    col, row = axial_to_offset(h)
    return f"{col + 1:02d}{row + 1:02d}"


def parse_hex_id(text: str) -> Hex:
    """Read a hex id such as ``"0503"`` (column 05, row 03)."""
    m = _HEX_ID.match(text) if isinstance(text, str) else None
    if not m:
        raise HexIdError(
            f"{text!r} is not a hex id: write four digits, the column then the row, e.g. '0503'"
        )
    col, row = int(m.group(1)), int(m.group(2))
    if col < 1 or row < 1:
        raise HexIdError(f"{text!r} is not a hex id: columns and rows start at 01")
    return offset_to_axial(col - 1, row - 1)


# --- hexsides and vertices ----------------------------------------------------------------------


def side_key(h: Hex, d: int) -> Side:
    """The canonical name of the hexside between ``h`` and its neighbour in direction ``d``."""
    if d in (1, 2, 3):
        return (h, d)
    return (neighbour(h, d), opposite(d))


def side_hexes(side: Side) -> tuple[Hex, Hex]:
    h, d = side
    return h, neighbour(h, d)


def parse_side(text: str) -> Side:
    """Read a hexside written ``"CCRR/d"``, e.g. ``"0201/4"``."""
    try:
        hex_text, d_text = text.split("/")
        d = int(d_text)
    except (ValueError, AttributeError):
        raise HexIdError(
            f"{text!r} is not a hexside: write a hex id, a slash and a direction code, "
            "e.g. '0201/4'"
        ) from None
    if d not in DIRECTIONS:
        raise HexIdError(f"{text!r}: direction codes are 1 (W) to 6 (SW)")
    return side_key(parse_hex_id(hex_text), d)


def format_side(side: Side) -> str:
    h, d = side
    return f"{hex_id(h)}/{d}"


def corner_vertex(h: Hex, corner: int) -> Vertex:
    """The integer lattice point of corner 0-5 of ``h``; shared corners give equal points."""
    dx, dy = _CORNER_LATTICE[corner]
    return (2 * h.q + h.r + dx, 3 * h.r + dy)


def side_vertices(side: Side) -> tuple[Vertex, Vertex]:
    h, d = side
    a, b = EDGE_CORNERS[d]
    return corner_vertex(h, a), corner_vertex(h, b)


def sides_of(h: Hex) -> Iterator[tuple[int, Side]]:
    for d in DIRECTIONS:
        yield d, side_key(h, d)


# --- march orders in direction codes (rule 6) ---------------------------------------------------

_SEPARATORS = re.compile(r"[\s,;-]+")


def parse_path(text: str) -> tuple[int, ...]:
    """Read a march order written in direction codes, e.g. ``"1-2-2-1-6"``.

    Hyphens, spaces and commas separate the codes; an empty order is an empty tuple.
    """
    if not isinstance(text, str):
        raise PathError("a march order is text such as '1-2-2-1-6'")
    stripped = text.strip().strip("-")
    if not stripped:
        return ()
    parts = _SEPARATORS.split(stripped)
    if len(parts) == 1 and len(parts[0]) > 1 and parts[0].isdigit():
        parts = list(parts[0])
    codes = []
    for i, part in enumerate(parts, start=1):
        if part not in ("1", "2", "3", "4", "5", "6"):
            raise PathError(
                f"march order {text.strip()!r}: step {i} is {part!r}; direction codes are "
                "1 (W), 2 (NW), 3 (NE), 4 (E), 5 (SE), 6 (SW)"
            )
        codes.append(int(part))
    return tuple(codes)


def format_path(codes: Iterable[int]) -> str:
    return "-".join(str(d) for d in codes)


def walk(start: Hex, codes: Iterable[int]) -> list[Hex]:
    """The hexes entered, in order, by following direction codes from ``start``."""
    hexes = []
    h = start
    for d in codes:
        h = neighbour(h, d)
        hexes.append(h)
    return hexes


# --- pixels, for pictures ------------------------------------------------------------------------

SQRT3 = math.sqrt(3.0)


def hex_to_pixel(h: Hex, size: float) -> tuple[float, float]:
    """Centre of ``h`` in pixels for hexes of circumradius ``size`` (axial origin at 0, 0)."""
    return size * SQRT3 * (h.q + h.r / 2), size * 1.5 * h.r


def hex_corners(h: Hex, size: float) -> list[tuple[float, float]]:
    cx, cy = hex_to_pixel(h, size)
    return [
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def side_endpoints(side: Side, size: float) -> tuple[tuple[float, float], tuple[float, float]]:
    h, d = side
    corners = hex_corners(h, size)
    a, b = EDGE_CORNERS[d]
    return corners[a], corners[b]
