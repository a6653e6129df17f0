"""A battle is named after the town in its hex or near it, else by its hex (``rules.battlenames``),
the same on every page, email, sheet and picture."""

from __future__ import annotations

import pytest

from rules import battlenames


def _setup(hex_id: str, city: str | None = None, away: int | None = None) -> dict:
    setup: dict = {"hex": hex_id}
    if city is not None:
        setup["city"] = {"name": city, "hexes_away": away}
    return setup


@pytest.mark.parametrize(
    ("setup", "title", "short", "named"),
    [
        (
            _setup("6933", "Breslau", 0),
            "The battle of Breslau",
            "the battle of Breslau",
            "the battle of Breslau (hex 6933)",
        ),
        (
            _setup("5639", "Lobositz", 1),
            "Battle near Lobositz",
            "the battle near Lobositz",
            "the battle near Lobositz (hex 5639)",
        ),
        (
            _setup("5640", "Lobositz", battlenames.NEAR_HEXES),
            "Battle near Lobositz",
            "the battle near Lobositz",
            "the battle near Lobositz (hex 5640)",
        ),
        # A town three hexes off (about 50 km) is not "near": the hex names the battle.
        (
            _setup("4127", "Kassel", battlenames.NEAR_HEXES + 1),
            "Battle in hex 4127",
            "the battle in hex 4127",
            "the battle in hex 4127",
        ),
        (_setup("0101"), "Battle in hex 0101", "the battle in hex 0101", "the battle in hex 0101"),
    ],
)
def test_a_battle_is_named_after_its_town(setup, title, short, named):
    assert battlenames.title(setup) == title
    assert battlenames.short(setup) == short
    assert battlenames.named(setup) == named
