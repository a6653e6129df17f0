"""What is wrong with a seat's orders, found when they are saved rather than at resolution
(issue 12): each problem is shown next to its order and keeps the seat from pressing Ready.

Two sources, one truth each:
- the line of march, step by step from what the seat knows (``forms.march_preview``: the
  Terrain Effects Chart, 6.4.4, 6.4.5);
- the engine's own checks of the orders (``rules.movers.build_movers``: 6.2, 6.2.2-6.2.6,
  6.3.3, 6.4.2, 10.2.1, 11.6.1; ``transfers.check_transfer``: 6.4.2, 6.4.3), run on the state the
  phase will be resolved from. They weigh only the seat's own forces and orders.
"""

from __future__ import annotations

from collections.abc import Callable

from campaign.projection import View
from maps.core.model import HexMap
from orders.forms import march_preview
from rules.events import EventKind
from rules.movers import build_movers
from rules.orders import OrderError, orders_from_dict
from rules.rulesettings import RuleSettings
from rules.state import State
from rules.transfers import check_transfer

TRANSFERS = "transfers"


def order_problems(
    state: State,
    view: View,
    hexmap: HexMap | None,
    settings: RuleSettings,
    draft: dict,
    kind: str,
    position: Callable[[View, str], tuple[str, bool, bool] | None],
) -> dict[str, list[str]]:
    """Problems of the ``kind`` orders ("march" or "forced_march") of ``draft``, by unit key
    (transfers under ``"transfers"``, by their number from 1). Empty when all is well."""
    problems: dict[str, list[str]] = {}
    forced = kind == "forced_march"
    items = [o for o in draft.get(kind, []) if isinstance(o, dict)]
    if hexmap is not None:
        for o in items:
            unit = str(o.get("unit", ""))
            where = position(view, unit)
            if where is None or not o.get("path"):
                continue
            start, supplied, _inside = where
            marches = o.get("marches") if isinstance(o.get("marches"), int) else 1
            preview = march_preview(
                view, hexmap, settings, start, str(o["path"]), marches=marches,
                supplied=supplied, forced=forced,
            )  # fmt: skip
            if not preview.valid:
                problems.setdefault(unit, []).append(preview.message)
    try:
        orders = orders_from_dict({kind: items, TRANSFERS: draft.get(TRANSFERS, [])})
    except OrderError as exc:
        problems.setdefault("", []).append(str(exc))
        return problems
    if not forced:
        for number, t in enumerate(orders.transfers, 1):
            why = check_transfer(state, t, hexmap, settings) if hexmap is not None else None
            if why:
                problems.setdefault(TRANSFERS, []).append(f"Transfer {number}: {why}.")
    if hexmap is not None:
        orders_of_kind = list(orders.forced_march if forced else orders.march)
        _movers, rejected = build_movers(state, orders_of_kind, hexmap, settings, forced=forced)
        for event in rejected:
            if event.kind is EventKind.ORDER_REJECTED:
                unit = str(event.data.get("unit", ""))
                problems.setdefault(unit, []).append(refusal(event.text, unit, event.rule))
    return problems


def refusal(text: str, unit: str, rule: str) -> str:
    """The engine's refusal as the orders page says it beside the unit's name: without
    "Order rejected:" and the unit's key, the rule once.

    >>> refusal("Order rejected: apraxin: needs 1 march(es) but only 0 remain (6.2)", "apraxin",
    ...         "6.2")
    'needs 1 march(es) but only 0 remain (6.2).'
    """
    text = text.removeprefix("Order rejected: ")
    if unit:
        text = text.removeprefix(f"{unit}: ")
    text = text.rstrip(".")
    return text + "." if text.endswith(f"({rule})") else f"{text} ({rule})."


def problem_lines(problems: dict[str, list[str]], names: dict[str, str]) -> list[str]:
    """The problems as sentences for the list above Ready."""
    lines = []
    for unit, texts in problems.items():
        who = names.get(unit, "Transfers" if unit == TRANSFERS else unit or "Orders")
        lines += [f"{who}: {t}" for t in texts]
    return lines
