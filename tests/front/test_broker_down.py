# ruff: noqa: F811 (pytest fixtures imported from test_play_fixtures)
"""The broker down (issue 11): pressing Ready saves the orders and says so, no server error;
the periodic sweep resolves the phase once the worker is back."""

import pytest
from django.utils import timezone

from campaign.services.resolution import due_window_ids, resolve_due_phase
from orders.models import OrderSheet
from tests.orders.test_play_fixtures import (  # noqa: F401 (fixtures)
    client_for,
    deploy_seat,
    in_phase,
    play_map,
    rules_campaign,
    seat,
    url,
)

# Callbacks queued with transaction.on_commit run inside the request only outside a test
# transaction: these tests commit for real.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down(settings):
    """A broker nobody listens on (port 9 of the loopback address), tasks not eager."""
    from dgk.celery import app

    app.set_current()  # the site's tasks are shared_task: they follow the current app
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    old = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:9/0"
    _new_connections(app)

    def back() -> None:
        """The worker and its broker are back (tasks run here again, as in the other tests)."""
        app.conf.broker_url = old
        app.conf.task_always_eager = True
        _new_connections(app)

    yield back
    back()


def _new_connections(app) -> None:
    """Celery keeps its producer connections in pools made from the first broker URL it saw;
    drop them so that the next task is sent to the broker configured now."""
    app._pool = None
    app.amqp._producer_pool = None


def test_ready_with_the_broker_down_saves_and_explains(rules_campaign, broker_down):
    everyone = list(rules_campaign.seats.filter(reserve=False))
    for s in everyone:
        deploy_seat(s, client_for(s.user))
    last = everyone[-1]
    for s in everyone[:-1]:
        OrderSheet.objects.filter(seat=s).update(ready=True)
    c = client_for(last.user)
    dashboard = url("dashboard", last)
    r = c.post(url("ready", last), in_phase(last), HTTP_REFERER="http://testserver" + dashboard)
    assert r.status_code == 302 and r.url.endswith(dashboard)
    assert "background worker cannot be reached" in c.get(r.url).content.decode()
    assert OrderSheet.objects.get(seat=last).ready
    window = rules_campaign.open_window()
    assert window.phase == "deployment"  # nothing resolved yet


def test_the_sweep_resolves_it_when_the_worker_is_back(rules_campaign, broker_down, settings):
    everyone = list(rules_campaign.seats.filter(reserve=False))
    for s in everyone:
        deploy_seat(s, client_for(s.user))
        client_for(s.user).post(url("ready", s), in_phase(s))
    window = rules_campaign.open_window()
    assert window.phase == "deployment"
    broker_down()  # the worker is back: its sweep runs
    now = timezone.now()
    assert window.id in due_window_ids(now)  # what the sweep finds, from the database alone
    assert resolve_due_phase(window.id, now=now) is not None
    assert rules_campaign.open_window().phase != "deployment"


def test_an_htmx_ready_with_the_broker_down_redirects_the_page(rules_campaign, broker_down):
    everyone = list(rules_campaign.seats.filter(reserve=False))
    for s in everyone:
        deploy_seat(s, client_for(s.user))
    for s in everyone[:-1]:
        OrderSheet.objects.filter(seat=s).update(ready=True)
    last = everyone[-1]
    r = client_for(last.user).post(
        url("ready", last),
        in_phase(last),
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver" + url("orders", last),
    )
    assert r.status_code == 200 and r["HX-Redirect"].endswith(url("orders", last))
