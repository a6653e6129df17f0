"""A seat's map picture of one state version, for email and print (docs/map-pictures.md).

No Django. The counters on it come only from ``map_counters(view, hexmap)``, the one input of
every map a seat sees (the widget's layer, the tap map, this picture), so the picture holds
nothing the seat's view does not: an enemy's points are not known to the view, so they are not
on the counter; an enemy siege train is not in the view, so it is not drawn.
"""

from __future__ import annotations

from campaign.projection import Counter, View, map_counters
from maps.core import picture
from maps.core.hexgrid import HexIdError, parse_hex_id
from maps.core.model import HexMap
from maps.overlay import ARMY_COLOURS, short_label

UNKNOWN_COLOURS = ("#888888", "#ffffff")


def picture_parts(
    counters: tuple[Counter, ...],
) -> tuple[list[picture.Piece], list[picture.Remark]]:
    """The counters of a view as the picture's pieces (forces, garrisons, leaderless points,
    siege trains) and remarks (reconnaissance reports, 8)."""
    pieces, remarks = [], []
    for c in counters:
        try:
            h = parse_hex_id(c.hex)
        except HexIdError:
            continue
        if c.kind == "report":
            remarks.append(picture.Remark(h, c.label))
            continue
        fill, text = ARMY_COLOURS.get(c.army.value, UNKNOWN_COLOURS)
        points = "" if c.points is None else str(c.points)
        pieces.append(
            picture.Piece(
                h, short_label(c), fill, text, c.army.label, points, "".join(c.flags),
                garrison=c.kind == "garrison",
            )
        )  # fmt: skip
    return pieces, remarks


def picture_title(view: View, campaign_name: str, version_number: int) -> str:
    phase = view.phase.value.replace("-", " ")
    who = "everything, for the umpire" if view.umpire else f"as the {view.viewer_label} knows it"
    return f"{campaign_name}: turn {view.turn}, {phase} phase (version {version_number}), {who}"


def seat_picture_png(view: View, hexmap: HexMap, *, title: str) -> bytes:
    """Draw the view's counters on the map: the picture as a palette PNG of at most
    ``picture.MAX_BYTES``."""
    pieces, remarks = picture_parts(map_counters(view, hexmap))
    return picture.picture_png(picture.draw_picture(hexmap, pieces, remarks, title=title))
