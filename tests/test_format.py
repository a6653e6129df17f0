"""Numbers people read (issue 13): time left to the minute, in words."""

from datetime import timedelta

import pytest

from campaign.templatetags.campaign_format import duration_left, order_lines, roll_words

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("left", "shown"),
    [
        (timedelta(days=1, hours=23, minutes=59, seconds=57.415031), "1 day 23 h 59 min"),
        (timedelta(minutes=5, seconds=59), "5 min"),
        (timedelta(days=2), "2 days"),
        (timedelta(seconds=20), "0 min"),
        (None, ""),
    ],
)
def test_time_left_reads_in_words_to_the_minute(left, shown):
    assert duration_left(left) == shown


def test_the_board_reads_orders_in_words_not_python():
    draft = {
        "march": [{"unit": "frederick", "path": "4-4", "marches": 2, "enter_fortress": True}],
        "transfers": [{"from": "garrison", "to": "schwerin", "points": 150}],
        "deployment": {"prussia": {"leaders": {"frederick": {"hex": "0302", "points": 900}}}},
    }
    assert order_lines(draft) == [
        "Frederick: march 4-4 (2 marches), enters the fortress",
        "Transfer: 150 points from the garrison to Schwerin",
        "Frederick deploys at 0302 with 900 points",
    ]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("march-allocation:austria:t3", "march allocation, Austria, turn 3"),
        ("forced-march:frederick:t3", "forced march, Frederick, turn 3"),
        ("siege:Torgau:t4", "siege, Torgau, turn 4"),
        ("new-leader:prussia:y2", "new leader, Prussia, year 2"),
    ],
)
def test_dice_read_in_words(name, words):
    assert roll_words(name) == words
