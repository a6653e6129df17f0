"""The book of the season (issue 28, docs/season-end.md): one PDF, printed by Chromium as the
briefings are, once the campaign is over.

A cover with the result and the final victory points; one page per turn with the map at the
turn's end, that turn's moves drawn, and its chronicle; each battle with its place, the forces,
the table code and the entered result; the charts of *The war*; the dice and their check
against the revealed seeds. Everything is read as the umpire sees it (the fog has lifted:
``war.war_shown``); nothing is printed before the end.

Printed by the worker (``seasons.tasks.print_season_book``) or by ``manage.py printseason``,
never in a web request; stored by ``seasons.services.bookfiles``.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from battles.models import BattleStatus
from battles.services import news as battle_news
from battles.services import photo_pages
from battles.services import printing as battle_print
from battles.services.briefing import turn_label
from campaign.models import Campaign, Event, StateVersion
from campaign.projection import View
from campaign.services import fairdice, gameplay, viewcache
from dgk import files
from maps.war_picture import season_region, turn_picture_png
from rules.dice import short_code
from seasons.services import bookfiles, war

logger = logging.getLogger(__name__)

# The engine's routine reports, dozens a turn: left out of a turn's chronicle (the map shows
# where everyone went; the orders and dice are on *The war*). Their count is printed instead.
ROUTINE = frozenset(
    {"reconnaissance", "supplied", "marches-allocated", "blockade", "stopped", "turn",
     "order-rejected", "deployed"}
)  # fmt: skip

PrintError = battle_print.PrintError


class NotOver(RuntimeError):
    """The campaign is still running: its book would tell the secrets of the war."""


@dataclass
class TurnPage:
    turn: int
    date: str
    picture: str  # a data: URI
    chronicle: list[tuple[str, str]] = field(default_factory=list)  # text, rule
    routine: int = 0
    vps: list[tuple[str, int]] = field(default_factory=list)


def _versions(campaign: Campaign) -> list[StateVersion]:
    return list(
        StateVersion.objects.filter(campaign=campaign).defer("state", "orders").order_by("number")
    )


def turn_pages(campaign: Campaign) -> list[TurnPage]:
    """One page per turn that was played: the umpire's view at its end, every force's move over
    its phases as arrows, its events but the routine ones, the victory points at its end."""
    hexmap = gameplay.load_campaign_map(campaign.map_name)
    versions = _versions(campaign)
    if hexmap is None or not versions:
        return []
    views: dict[int, View] = {v.number: viewcache.umpire_view(v) for v in versions}
    region = season_region(list(views.values()), hexmap)
    events: dict[int, list[Event]] = {}
    for e in Event.objects.filter(campaign=campaign).only(
        "kind", "text", "rule", "version_id", "seq"
    ):
        events.setdefault(e.version_id, []).append(e)
    seats = {s.power: s.label for s in campaign.seats.filter(reserve=False)}
    pages = []
    turns = sorted({v.turn for v in versions if v.number > 0})
    for turn in turns:
        of_turn = [v for v in versions if v.turn == turn and v.number > 0]
        before = [v for v in versions if v.number < of_turn[0].number]
        chain = ([before[-1]] if before else []) + of_turn
        phases = [
            (views[a.number], views[b.number], b.resolved_phase)
            for a, b in zip(chain, chain[1:], strict=False)
        ]
        end = views[of_turn[-1].number]
        date = turn_label(turn)
        png = turn_picture_png(
            end, phases, hexmap, title=f"{campaign.name}: turn {turn}, {date}", region=region
        )
        page = TurnPage(turn, date, "data:image/png;base64," + base64.b64encode(png).decode())
        seen: set[str] = set()
        for v in of_turn:
            for e in events.get(v.id, []):
                if e.kind in ROUTINE:
                    page.routine += 1
                elif e.text not in seen:
                    seen.add(e.text)
                    # (the rule once: most texts end with it already)
                    rule = "" if not e.rule or f"({e.rule}" in e.text else e.rule
                    page.chronicle.append((e.text, rule))
        page.vps = [(seats.get(k, k), n) for k, n in sorted(end.victory_points.items())]
        pages.append(page)
    return pages


def battle_pages(campaign: Campaign) -> list[dict[str, Any]]:
    """Each battle as the umpire reads it in the chronicle (exact forces and result), with its
    table code (the short code printed on its table, never its seed), its best photo (the one
    its sides put first) with its caption, and the sides' accounts (issue 45)."""
    out = []
    for row in battle_news.chronicle(campaign):
        if row["kind"] != "battle":
            continue
        b = row["battle"]
        out.append(
            {
                **row,
                "turn": b.turn,
                "hex": b.hex,
                "table_code": short_code(b.table_seed) if b.table_seed else "",
                "applied": b.status == BattleStatus.APPLIED,
                **photo_pages.for_book(b),
            }
        )
    return sorted(out, key=lambda r: (r["turn"], r["hex"]))


def _cover(campaign: Campaign, figures: war.WarFigures) -> dict[str, Any]:
    final = (
        Event.objects.filter(campaign=campaign, kind="campaign-ends")
        .order_by("-version__number", "-seq")
        .first()
    )
    vps = sorted(((s.label, s.last) for s in figures.vps.series), key=lambda x: (-x[1], x[0]))
    players = [
        (s.label, s.user.get_username() if s.user else "")
        for s in campaign.seats.filter(reserve=False).select_related("user").order_by("id")
    ]
    return {
        "result": final.text if final is not None else "",
        "ended_by_organiser": final is None,
        "vps": vps,
        "players": players,
        "turns": figures.turns,
        "last_date": turn_label(figures.turns),
    }


def book_context(campaign: Campaign, paper: str) -> dict[str, Any]:
    if not war.war_shown(campaign):
        raise NotOver(f"{campaign.name} is not over: its book is printed at the end")
    figures = war.figures(campaign)
    records = war.phase_records(campaign)
    rolls = [(p.version, r) for p in records for r in p.rolls]
    return {
        "campaign": campaign,
        "paper": bookfiles.PAPERS[paper],
        "printed": timezone.now(),
        "cover": _cover(campaign, figures),
        "turns": turn_pages(campaign),
        "battles": battle_pages(campaign),
        "charts": war.charts(figures),
        "figures": figures,
        "losses": war.loss_rows(figures),
        "causes": war.warseries.CAUSES,
        "rolls": rolls,
        "rolls_ok": sum(1 for _, r in rolls if r["ok"]),
        "rolls_fixed": sum(1 for _, r in rolls if r.get("fixed")),
        "check": fairdice.verify(campaign),
        "seeds": fairdice.public_seeds(campaign),
    }


def book_html(campaign: Campaign, paper: str = "a4") -> str:
    return render_to_string("seasons/book.html", book_context(campaign, paper))


def book_pdf(campaign: Campaign, paper: str = "a4") -> bytes:
    return battle_print.html_to_pdf(book_html(campaign, paper), timeout=300)


def draw_book(campaign_id: int) -> list[str]:
    """Print the book of a campaign that is over in both papers, unless they are stored or
    another worker is printing them (``bookfiles.printing``); their names in the ``books``
    storage (none when the campaign is gone or still running). Safe to run twice, and by two
    workers at once: a book is printed and stored once."""
    campaign = Campaign.objects.filter(id=campaign_id).first()
    if campaign is None or not war.war_shown(campaign):
        return []
    stamp = bookfiles.book_stamp(campaign)
    out = []
    for paper in bookfiles.PAPERS:
        key = bookfiles.book_key(campaign, paper, stamp)
        if not bookfiles.book_stored(key):
            with bookfiles.printing(key) as mine:
                if mine and not bookfiles.book_stored(key):  # (stored while we asked?)
                    files.save_whole(bookfiles.KIND, key, book_pdf(campaign, paper))
        out.append(key)
    return out


def draw_wanted() -> int:
    """Print every book a note asks for, then remove the note; how many were printed. A book
    that fails is logged and its note removed: the next download asks again."""
    done = 0
    for campaign_id in bookfiles.wanted_ids():
        try:
            done += bool(draw_book(campaign_id))
        except Exception:  # one broken book must not stop the others
            logger.exception("printing the book of campaign %s failed", campaign_id)
        bookfiles.forget_wanted(campaign_id)
    return done
