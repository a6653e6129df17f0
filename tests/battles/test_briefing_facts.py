"""What the printed briefing reads from the state at the battle phase (issue 14): the siege
trains outside the walls in the hex, by side (9.1), and the garrison of the hex's fortress."""

from battles.services.sheet import facts_of
from rules.armies import Army
from rules.state import Garrison, LeaderState, Phase, SiegeTrain, State


def test_siege_trains_outside_the_walls_and_the_garrison_of_the_hex():
    state = State(
        turn=4,
        phase=Phase.BATTLE,
        leaders=(LeaderState("frederick", Army.PRUSSIA, "5742", 1600),),
        garrisons=(Garrison("Prague", Army.AUSTRIA, 400), Garrison("Berlin", Army.PRUSSIA, 900)),
        siege_trains=(
            SiegeTrain("prussia-1", Army.PRUSSIA, "5742"),
            SiegeTrain("austria-1", Army.AUSTRIA, "5742", inside=True),  # behind the walls
            SiegeTrain("prussia-2", Army.PRUSSIA, "0101"),  # elsewhere
            SiegeTrain("hanover-1", Army.HANOVER, "5742"),  # an ally's: the same side
        ),
    )
    facts = facts_of(state, {"hex": "5742", "fortress": "Prague"})
    assert dict(facts.siege_trains) == {"prussian": ["prussia-1", "hanover-1"]}
    assert (facts.garrison_city, facts.garrison_army, facts.garrison_points) == (
        "Prague",
        "austria",
        400,
    )
    assert facts.garrison_side == "austrian"
    none = facts_of(state, {"hex": "5743", "fortress": None})
    assert not none.siege_trains and not none.garrison_city
    assert facts_of(None, {"hex": "5742"}).garrison_city == ""
