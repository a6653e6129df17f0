"""Orders as a person writes them in a mail (orders.textorders): each shape of the grammar read
into the engine's order format, and each line that cannot be read returned with its reason."""

import random

import pytest

from maps.core.compact import compact_map
from maps.core.hexgrid import parse_hex_id
from orders.textorders import (
    BATTLE,
    FORCED_MARCH,
    MARCH,
    MAX_BODY_LINES,
    MAX_LINE_CHARS,
    MAX_ROUTE_LEGS,
    MAX_WAYPOINTS,
    TRANSFERS,
    Vocabulary,
    map_route,
    norm,
    read_orders,
    walk_to,
)

pytestmark = pytest.mark.pure

# Four rows of clear ground with a marsh in the middle of the second; Schweidnitz at 0503.
MAP = compact_map(
    {
        "terrain": ["c c c c c c", "c c m c c c", "c c c c c c", "c c c c c c"],
        "cities": [
            {"name": "Schweidnitz", "hex": "0503", "fortress": True},
            {"name": "Kolín", "hex": "0201"},
            {"name": "Breslau", "hex": "0604", "fortress": True},
        ],
    }
)
UNITS = {
    "frederick": "Frederick",
    "seydlitz": "Seydlitz",
    "ziethen": "Ziethen",
    "d-estrees": "D'Estrées",
    "prussia-1": "Prussian siege train 1",
}
POSITIONS = dict.fromkeys(UNITS, "0101") | {"seydlitz": "0102", "ziethen": "0102"}


def vocab(phase="march", **extra) -> Vocabulary:
    enemies = extra.pop("enemies", frozenset())
    return Vocabulary(
        phase=phase,
        units=UNITS,
        positions=POSITIONS,
        places={c.name: c.hex_id for c in MAP.cities},
        hexes=frozenset(MAP.hex_id(h) for h in MAP.hexes),
        route=map_route(MAP, frozenset(parse_hex_id(h) for h in enemies)),
        leaders_only=phase == "forced-march",
        **extra,
    )


def one(text, v=None):
    reading = read_orders(text, v or vocab())
    assert len(reading.lines) == 1, reading
    return reading.lines[0]


def test_it_reads_direction_codes_in_every_spacing():
    for text in ("Frederick 4 4 5", "frederick 4-4-5", "FREDERICK 445", "Frederick 4, 4, 5"):
        line = one(text)
        assert (line.kind, line.order, line.problem) == (
            MARCH,
            {"unit": "frederick", "path": "4-4-5"},
            "",
        ), text


def test_it_ignores_case_accents_and_apostrophes():
    line = one("d'estrees marches 4 4")
    assert line.order == {"unit": "d-estrees", "path": "4-4"}
    assert one("D’ESTRÉES 4").order["unit"] == "d-estrees"
    assert norm("Kolín") == "kolin"


def test_a_drop_off_stands_where_it_is_written():
    line = one("Seydlitz 4 4 drop Ziethen")
    assert line.order == {"unit": "seydlitz", "path": "4-4", "drop": {"ziethen": "0302"}}
    early = one("Seydlitz 4 drop Ziethen 4")
    assert early.order["drop"] == {"ziethen": "0202"} and early.order["path"] == "4-4"
    named = one("Seydlitz 4 4 drop Ziethen at 0202")
    assert named.order["drop"] == {"ziethen": "0202"}
    assert "drops Ziethen at hex 0302" in line.said


def hexes_of(start, path):
    codes = path.split("-") if path else []
    return [walk_to(start, codes[:i]) for i in range(1, len(codes) + 1)]


def test_a_march_to_a_place_takes_the_least_cost_way_and_says_it():
    line = one("Frederick march to Schweidnitz")
    assert line.kind == MARCH and line.problem == ""
    hexes = hexes_of("0101", line.order["path"])
    assert hexes[-1] == "0503"
    # the marsh at 0302 costs 3 against clear's 2: the way goes round it, every step 2 MP
    assert "0302" not in hexes
    assert f"{2 * len(hexes)} MP by the least-cost way" in line.said


def test_a_march_to_a_hex_through_waypoints():
    line = one("Frederick to 0104 via 0401")
    hexes = hexes_of("0101", line.order["path"])
    assert hexes[-1] == "0104" and "0401" in hexes


def test_a_march_names_at_most_max_waypoints():
    within = "Frederick to 0104" + " via 0401 via 0104" * (MAX_WAYPOINTS // 2)
    assert one(within).order is not None
    over = one("Frederick to 0104" + " via 0401" * (MAX_WAYPOINTS + 1))
    assert over.order is None and f"at most {MAX_WAYPOINTS} hexes" in over.problem


def test_a_line_of_2000_waypoints_is_refused_unread():
    line = one("Frederick to 0104" + " via 0401 via 0104" * 1000)
    assert line.order is None and f"longer than {MAX_LINE_CHARS} characters" in line.problem
    assert len(line.text) < 100


def test_one_mail_asks_for_at_most_max_route_legs():
    line = "Frederick to 0104" + " via 0401" * (MAX_WAYPOINTS - 1)  # MAX_WAYPOINTS legs
    reading = read_orders("\n".join([line] * 4), vocab())
    read = [x for x in reading.lines if x.order is not None]
    assert len(read) == MAX_ROUTE_LEGS // MAX_WAYPOINTS
    assert f"at most {MAX_ROUTE_LEGS} ways" in reading.lines[-1].problem


def test_only_the_first_max_body_lines_are_read():
    reading = read_orders("Frederick 4\n" + "junk\n" * 10_000, vocab())
    assert len(reading.lines) == MAX_BODY_LINES and reading.cut == 10_001 - MAX_BODY_LINES
    assert reading.lines[0].order == {"unit": "frederick", "path": "4"}


def test_the_way_goes_round_a_known_enemy_rather_than_through_it():
    line = one("Frederick to 0401", vocab(enemies={"0201"}))
    hexes = hexes_of("0101", line.order["path"])
    assert hexes[-1] == "0401" and "0201" not in hexes[:-1]
    plain = hexes_of("0101", one("Frederick to 0401").order["path"])
    assert plain == ["0201", "0301", "0401"]


def test_two_marches_fortresses_works_and_advance():
    line = one("Frederick 2 marches 4 4 4 4 enter fortress works advance")
    assert line.order == {
        "unit": "frederick",
        "path": "4-4-4-4",
        "marches": 2,
        "enter_fortress": True,
        "works": True,
        "meeting": "advance",
    }
    assert one("Frederick leaves fortress 1").order["leave_fortress"] is True


def test_standing_still_clears_the_order():
    for text in ("Frederick stands", "Frederick stays", "Frederick: no march", "frederick"):
        assert one(text).order == {"unit": "frederick", "path": ""}, text


def test_in_the_forced_march_phase_the_same_lines_are_forced_marches():
    v = vocab("forced-march")
    line = one("Frederick 4 4", v)
    assert line.kind == FORCED_MARCH and line.order == {"unit": "frederick", "path": "4-4"}
    train = one("Prussian siege train 1 4", v)
    assert "cannot force march (6.3.3)" in train.problem and train.order is None
    assert "not a forced march (9.4.2)" in one("Frederick 4 works", v).problem


def test_transfers_both_ways_of_writing():
    a = one("transfer 100 from Frederick to Seydlitz")
    b = one("Frederick gives 100 points to Seydlitz")
    c = one("Transfer 50 from garrison to Frederick")
    assert a.kind == b.kind == TRANSFERS
    assert a.order == b.order == {"from": "frederick", "to": "seydlitz", "points": 100}
    assert c.order == {"from": "garrison", "to": "frederick", "points": 50}
    assert (
        "Transfers are given with the march orders"
        in one("transfer 5 from Frederick to Seydlitz", vocab("forced-march")).problem
    )


def test_battle_decisions_for_every_army_there_or_one():
    v = vocab("battle", battles={"0201": ("prussia", "hanover")})
    line = one("fight at Kolin", v)
    assert line.kind == BATTLE
    assert line.order == {
        "decisions": [
            {"hex": "0201", "army": "prussia", "choice": "fight"},
            {"hex": "0201", "army": "hanover", "choice": "fight"},
        ]
    }
    assert one("Hanoverian retire at 0201", v).order == {
        "decisions": [{"hex": "0201", "army": "hanover", "choice": "retire"}]
    }
    assert (
        "No battle awaits a decision of yours at 0503" in one("decline at Schweidnitz", v).problem
    )
    assert "No battle awaits your decision now" in one("fight at Kolin").problem


def test_honors_of_war_by_role():
    besieger = vocab("honors", honors={"Breslau": "besieger"})
    garrison = vocab("honors", honors={"Breslau": "garrison"})
    assert one("grant honors at Breslau", besieger).order == {
        "city": "Breslau",
        "besieger": "grant",
    }
    assert one("Deny the honours of war at Breslau", besieger).order["besieger"] == "deny"
    assert one("surrender Breslau", garrison).order == {"city": "Breslau", "garrison": "surrender"}
    assert one("fight on at Breslau", garrison).order == {"city": "Breslau", "garrison": "fight"}
    assert "as the besieger, you answer grant or deny" in one("surrender Breslau", besieger).problem


def test_a_remark_in_brackets_is_left_out():
    assert one("Frederick 4 4   (one step E, then another)").order["path"] == "4-4"


def test_ready_and_not_ready_on_lines_of_their_own():
    assert read_orders("Frederick 4\nREADY", vocab()).ready is True
    assert read_orders("Frederick 4\n  not ready  ", vocab()).ready is False
    assert read_orders("Frederick 4", vocab()).ready is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Daun 4 4", "'daun' is not one of your leaders or siege trains"),
        ("Frederick 4 7 4", "'7' is not a direction code"),
        ("Frederick to Vienna", "'vienna' is neither a hex number"),
        ("Frederick to 9999", "There is no hex 9999 on the map"),
        ("Frederick 4 to Breslau", "either direction codes or 'to' a place"),
        ("Frederick via 0401", "'via' needs a destination"),
        ("Seydlitz 4 drop Seydlitz", "cannot drop himself off"),
        ("transfer from Frederick to Seydlitz", "A transfer needs its points"),
        ("transfer 10 from Frederick to Frederick", "from one leader to another"),
    ],
)
def test_a_line_not_understood_says_why_and_makes_no_order(text, reason):
    line = one(text)
    assert reason in line.problem and line.order is None, line


def test_a_mail_of_several_lines_keeps_each_lines_number():
    reading = read_orders("Frederick 4 4\n\nDaun 1\nSeydlitz to Breslau\nREADY\n", vocab())
    assert [(x.number, x.kind) for x in reading.lines] == [
        (1, MARCH),
        (3, ""),
        (4, MARCH),
        (5, "ready"),
    ]
    assert [x.number for x in reading.problems] == [3]
    assert reading.ready is True and len(reading.orders) == 2


WORDS = ("Frederick", "Seydlitz", "Ziethen", "to", "via", "drop", "at", "2", "marches", "4",
         "16", "0104", "9999", "Schweidnitz", "Kolin", "transfer", "from", "garrison", "100",
         "fight", "retire", "grant", "honors", "surrender", "on", "READY", "NOT", "stands",
         "enter", "fortress", "works", "advance", "(", ")", "é", "-", ",", "")  # fmt: skip


@pytest.mark.parametrize("phase", ["march", "forced-march", "battle", "honors"])
def test_no_line_of_the_grammars_own_words_raises(phase):
    """Every line made of the grammar's words, in a fixed pseudo-random order, is read as an
    order or returned with a reason: the reader never fails."""
    rng = random.Random(29)
    v = vocab(phase, battles={"0201": ("prussia",)}, honors={"Breslau": "garrison"})
    for _ in range(3000):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))
        for line in read_orders(text, v).lines:
            assert (line.order is None) != (line.problem == "") or line.kind == "ready", line


def test_a_march_is_said_back_in_words_with_the_map_then_its_codes():
    """The confirmation says where a march goes, by the map's names, and the codes to copy."""
    line = one("Frederick to Schweidnitz", vocab(hexmap=MAP))
    assert line.said == (
        "Frederick: 5 hexes SE to Schweidnitz (hex 0503), via Kolín, 10 MP by the least-cost "
        "way (codes 4-4-4-5-5)."
    )
    dropped = one("Seydlitz 4 4 drop Ziethen", vocab(hexmap=MAP))
    assert dropped.said == (
        "Seydlitz: 2 hexes E to hex 0302 (2 hexes SE of Kolín); drops Ziethen at hex 0302 "
        "(2 hexes SE of Kolín) (codes 4-4)."
    )
