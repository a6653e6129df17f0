"""A season on the bundled map of 1756, played through the services by the engine's automatic
players (``seasons.services.autoseason``), its seats' players made as the tests make users."""

from __future__ import annotations

import functools

from campaign.services.caretaker import own_orders
from seasons.services import autoseason
from tests.standing import make_user

__all__ = ["own_orders", "play_real_season"]

play_real_season = functools.partial(autoseason.play_season, make_user=make_user)
