"""A turn of the whole war as one picture, for the book of the season (docs/season-end.md).

No Django. Made only from the umpire's views (``campaign.projection.View``) of the versions of a
turn: the counters of its last version (every force with its points, garrisons, siege trains)
and, as arrows, every force's move over each of its phases (``overlay.force_moves``, the moves
*The war*'s map draws), a retreat dashed. Only shown once the campaign is over: the caller asks
``war.war_shown``.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign.projection import View, map_counters
from maps.core import picture
from maps.core.hexgrid import HexIdError, parse_hex_id
from maps.core.model import HexMap
from maps.core.render import Region
from maps.overlay import ARMY_COLOURS, force_moves
from maps.seat_picture import UNKNOWN_COLOURS, picture_parts

BOOK_BYTES = 400 * 1024  # a turn's picture in the book: printed at A4, no email to fit


def turn_arrows(phases: Sequence[tuple[View, View, str]]) -> list[picture.Arrow]:
    """The arrows of a turn: for each phase (the view before, the view after, the phase's name)
    every force's move, a retreat dashed."""
    out = []
    for before, after, phase in phases:
        for force, start in force_moves(before, after):
            try:
                a, b = parse_hex_id(start), parse_hex_id(force.hex)
            except HexIdError:
                continue
            fill = ARMY_COLOURS.get(force.army.value, UNKNOWN_COLOURS)[0]
            out.append(picture.Arrow(a, b, fill, dashed="retreat" in phase))
    return out


def season_region(views: Sequence[View], hexmap: HexMap) -> Region:
    """One frame for every page of the book: round every hex a force stood in all season."""
    hexes = []
    for view in views:
        for f in view.forces:
            try:
                hexes.append(parse_hex_id(f.hex))
            except HexIdError:
                continue
    return picture.picture_region(hexmap, hexes)


def turn_picture_png(
    end: View,
    phases: Sequence[tuple[View, View, str]],
    hexmap: HexMap,
    *,
    title: str,
    region: Region | None = None,
) -> bytes:
    """The map at the turn's end (``end``, an all-seeing view) with the turn's moves drawn."""
    pieces, _ = picture_parts(map_counters(end, hexmap))  # (the umpire has no reports)
    image = picture.draw_picture(
        hexmap, pieces, title=title, region=region, arrows=turn_arrows(phases)
    )
    return picture.picture_png(image, max_bytes=BOOK_BYTES)
