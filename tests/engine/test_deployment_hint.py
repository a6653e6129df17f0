"""The Empire is told how 3.2.4 relaxes 3.2.3: its fortresses West of the Rhine may be held by
French points instead (issue 12)."""

from maps.core.loader import load_map
from rules.armies import Army
from rules.deployment import check_deployment
from rules.orders import Deployment
from rules.rulesettings import RuleSettings


def test_an_empty_empire_deployment_names_the_french_exception_west_of_the_rhine():
    hexmap = load_map()
    problems = {
        v.text.split(" must ")[0]: v.text
        for v in check_deployment(Deployment(Army.EMPIRE), hexmap, RuleSettings(), 800)
        if v.rule == "3.2.3"
    }
    assert "French points may garrison it instead (3.2.4)" in problems["Mainz"]
    assert "French points may garrison it instead (3.2.4)" in problems["Koblenz"]
    assert "3.2.4" not in problems["Frankfurt"]  # East of the Rhine: no exception
    assert "3.2.4" not in problems["Nuremburg"]


def test_the_empire_is_told_but_not_blocked_by_what_the_french_may_garrison():
    """The seat cannot see the French deployment: the 3.2.3 problem West of the Rhine does not
    keep the Empire from submitting (orders.deploy_checks), one East of it does."""
    found = check_deployment(Deployment(Army.EMPIRE), load_map(), RuleSettings(), 800)
    mainz = next(v for v in found if v.text.startswith("Mainz must"))
    frankfurt = next(v for v in found if v.text.startswith("Frankfurt must"))
    assert mainz.others_may_cover and not frankfurt.others_may_cover
    french = Deployment(Army.FRANCE)  # once the French deployment is known (at resolution)
    known = check_deployment(
        Deployment(Army.EMPIRE), load_map(), RuleSettings(), 800, {Army.FRANCE: french}
    )
    assert not next(v for v in known if v.text.startswith("Mainz must")).others_may_cover
