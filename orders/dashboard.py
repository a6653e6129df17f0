"""The dashboard's kept parts: what it shows of the seat's view alone (its forces, the reports,
every army's strength, the dice, the map picture), drawn once per (version, seat) and kept
beside the view (``{% seatcache %}``, ``viewcache.derived``).

The page draws a part the first time it is asked for it; the worker that resolved the phase
draws them first (``orders.warmup``), from the same templates and the same context as the page
(``part_context``), so the first player to open his dashboard after a resolution finds them
made. A part's context holds the view, its version, the seat and its campaign, nothing of the
request, the session, the draft or the window.
"""

from __future__ import annotations

import functools

from django.template.loader import render_to_string

from campaign.models import Campaign, Seat, StateVersion
from campaign.projection import Relation, ReportLine, View, report_items
from campaign.services import gameplay, viewcache

# The name each part is kept under (``part:<name>``) and its template.
PARTS = {
    "dashboard-forces": "play/_dashboard_forces.html",
    "dashboard-reports": "play/_dashboard_reports.html",
    "dashboard-totals": "play/_dashboard_totals.html",
}


def reports(view: View) -> list[tuple[int, list[ReportLine]]]:
    """The dashboard's reports: this turn's so far and the last turn's, a turn's routine
    supply in one line (``campaign.projection.report_items``)."""
    return [
        (turn, report_items(view, turn))
        for turn in (view.turn, view.turn - 1)
        if turn >= 1 and (turn < view.turn or any(e.turn == turn for e in view.events))
    ]


def allied_forces(view: View | None) -> list:
    """The allies' forces the seat is shown (their strengths shared: ``allies_share``)."""
    return [
        f
        for f in (view.forces if view else ())
        if f.relation is Relation.ALLY and f.points is not None
    ]


def places(hexmap) -> dict[str, str]:
    """The names of the map's cities by hex id (the map is public: a hex the seat is shown,
    named, tells it nothing more); empty without a map."""
    return _places(hexmap) if hexmap is not None else {}


@functools.lru_cache(maxsize=8)
def _places(hexmap) -> dict[str, str]:
    """Each city's name by its hex id, for one map (a map never changes once loaded)."""
    return {city.hex_id: city.name for city in hexmap.cities}


def part_context(seat: Seat, campaign: Campaign, version: StateVersion, view: View) -> dict:
    """What the parts are drawn from (the page adds them to its own context)."""
    return {
        "seat": seat,
        "campaign": campaign,
        "version": version,
        "view": view,
        "places": places(gameplay.load_campaign_map(campaign.map_name)),
        "allied_forces": allied_forces(view),
        # Called by a part only when it is drawn (not when it is found kept).
        "reports": functools.partial(reports, view),
    }


def draw_parts(seat: Seat, version: StateVersion, view: View) -> int:
    """Draw and keep the seat's parts of ``version`` (the worker's warm-up); how many it drew
    (0: all were kept already)."""
    context = part_context(seat, seat.campaign, version, view)
    drawn = 0

    def draw(template: str) -> str:
        nonlocal drawn
        drawn += 1
        return render_to_string(template, context)

    for name, template in PARTS.items():
        viewcache.derived(seat, version, f"part:{name}", functools.partial(draw, template))
    return drawn
