"""Writing a seat's order sheet: the open sheet of the phase, locked for update
(``writable_sheet``), saving a draft (marked when the organiser enters it on the player's behalf),
and ``writes_orders``, which turns a closed sheet into a message instead of an error. Shared by
the orders and the deployment views. A player who opens or writes his orders is back: the
caretaker's hold of his seat ends (``player_is_back``, issue 43).
"""

from __future__ import annotations

import functools
import json

from django.contrib import messages
from django.http import HttpRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django_htmx.http import HttpResponseClientRedirect

from campaign.models import PhaseWindow, Seat, WindowStatus
from campaign.services import caretaker
from campaign.services.organiser import mark_entered
from dgk.prepared import Prepared, example_id
from orders.access import Access, SeatContext
from orders.models import OrderSheet
from orders.pages import ORDER_PHASES


class Closed(Exception):
    """No sheet can be written now (the phase resolved, or none is owed)."""


NO_PHASE = (
    "Nothing was changed: the form did not say which phase it was written for. "
    "Your orders are as they were; reload the page and send it again."
)


def check_phase(window, phase: str) -> None:
    """``Closed`` unless ``phase`` (the phase the form was written for, from its hidden
    ``phase`` field) is the open window's: a page left open while its phase resolved, or a form
    that does not say its phase, must never write into (or ready) another phase's orders."""
    if not phase:
        raise Closed(NO_PHASE)
    if phase != window.phase:
        raise Closed(
            f"The {phase} phase has resolved: your orders for it are locked. "
            f"Now: the {window.phase} phase."
        )


def posted_phase(request: HttpRequest) -> str:
    return request.POST.get("phase", "")[:20]


def writable_sheet(ctx: SeatContext, kinds: tuple[str, ...], phase: str) -> OrderSheet:
    """The seat's open sheet for this phase (the request's window), locked for update;
    ``Closed`` otherwise (``sheet_locked`` then tells whether the window is still open as the
    statement that locked the row read it).

    ``phase`` is the phase the form was written for (``check_phase``).

    One statement when the sheet exists (the orders page made it): the sheet and its window
    locked together, the window's row read with it. The window's lock (``FOR SHARE``,
    ``_share_the_window``) waits for a resolution that has claimed the window
    (``resolution._resolve`` locks it ``FOR UPDATE`` and marks it resolved in its transaction),
    and PostgreSQL then reads the row again: a draft saved while the phase resolves is told the
    sheet is locked, never that it was saved after the resolution read the sheets. Saves of one
    campaign's seats do not wait for each other."""
    window, access = ctx.window, ctx.access
    if window is None or not window.owes(access.seat):
        raise Closed("No orders are owed now: the phase has resolved or waits for others.")
    check_phase(window, phase)
    wanted = ORDER_PHASES.get(window.phase, ("deployment",))
    if not set(kinds) & set(wanted):
        raise Closed(f"These orders are not given in the {window.phase} phase.")
    found = _LOCKED_SHEET(window.id, access.seat.id)
    if not found:  # (a first save with no page opened before it)
        OrderSheet.objects.get_or_create(
            window=window, seat=access.seat, defaults={"campaign": access.campaign}
        )
        found = _LOCKED_SHEET(window.id, access.seat.id)
    return found[0]


def _locked_sheet(window_id: int, seat_id: int):
    """The seat's sheet of the window with the window, both locked (``writable_sheet``)."""
    locked = OrderSheet.objects.select_for_update(of=("self", "window"), no_key=True)
    return locked.select_related("window").filter(window_id=window_id, seat_id=seat_id)[:1]


def _share_the_window(sql: str, connection) -> str:
    """The window locked ``FOR SHARE``, the sheet ``FOR NO KEY UPDATE`` (PostgreSQL: one clause
    per table, which Django cannot write). A resolution's claim (``FOR UPDATE``) and an
    organiser's change of the window still wait for the save, and the save for them; the saves
    of one campaign's seats no longer wait for each other (five players of a campaign arriving
    together queued their saves one behind another on the window)."""
    sheet, window = (
        connection.ops.quote_name(model._meta.db_table) for model in (OrderSheet, PhaseWindow)
    )
    return sql.replace(
        f"FOR NO KEY UPDATE OF {sheet}, {window}",
        f"FOR NO KEY UPDATE OF {sheet} FOR SHARE OF {window}",
    )


# Compiled once (``dgk.prepared``): every save of every seat runs it.
_LOCKED_SHEET = Prepared(_locked_sheet, example_id(), example_id(), rewrite=_share_the_window)


def writes_orders(view):
    """A view that writes the draft: when the sheet is closed, say so and go to the dashboard
    (never a server error, never a changed draft)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, code, *args, **kwargs):
        try:
            return view(request, code, *args, **kwargs)
        except Closed as exc:
            messages.error(request, str(exc))
            target = reverse("orders:dashboard", args=[code])
            if request.htmx:
                return HttpResponseClientRedirect(target)
            return redirect(target)

    return wrapper


def player_is_back(access: Access) -> bool:
    """The seat's own player (not the organiser on his behalf) opened his orders page or saved
    something: if the caretaker held his seat, the hold ends and the phases wait for him again
    (``caretaker.player_back``). Whether it ended."""
    if not access.own or access.behalf:
        return False
    return caretaker.player_back(access.seat, access.user, now=timezone.now())


def save_draft(sheet: OrderSheet, draft: dict, access: Access) -> None:
    """Write ``draft`` as the sheet's (marked when the organiser writes it on the player's
    behalf). A draft that is the sheet's already (an order saved again as it was) is not
    written again: nothing reads the sheet's ``updated``, and the draft is the same."""
    now = timezone.now()
    if not same_draft(sheet.draft, draft):
        sheet.draft = draft
        sheet.updated = now
        sheet.save(update_fields=["draft", "updated"])
    if access.behalf:
        mark_entered(sheet, access.user, now=now)
    player_is_back(access)


def same_draft(old, new) -> bool:
    """Whether two drafts hold the same orders as the database keeps them (JSON: the order of
    an object's keys is not kept, a list's is; ``True`` is not ``1``)."""
    return json.dumps(old, sort_keys=True) == json.dumps(new, sort_keys=True)


def sheet_locked(request: HttpRequest, sheet: OrderSheet) -> bool:
    if sheet.ready or sheet.window.status != WindowStatus.OPEN:
        messages.error(request, "Your orders are submitted and locked for this phase.")
        return True
    return False


def decline_forced_march(access: Access, window, decline: bool) -> None:
    """ "No forced march this turn" (6.3), answered while the march orders are open: the
    forced march phase of this turn then does not wait for the seat (``gameplay.seats_owing``).
    ``decline`` False takes the answer back."""
    if window is None or window.phase != "march" or not window.owes(access.seat):
        raise Closed(
            "A forced march can be declined in advance only while your march orders are open."
        )
    turn = window.turn if decline else 0
    Seat.objects.filter(id=access.seat.id).update(declined_forced_march_turn=turn)
    access.seat.declined_forced_march_turn = turn
