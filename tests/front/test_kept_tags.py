"""``{% kept_url %}`` and ``{% kept_static %}`` (``front.templatetags.kept``) write what
``{% url %}`` and ``{% static %}`` write, for every one of them in the templates that use them
(issue 44: the dashboard's and the base template's addresses kept per process)."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import override_settings

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
TAG = re.compile(r"{% kept_(url|static) ([^%]*?) %}")


def _kept_tags() -> list[tuple[str, str, str]]:
    """(template, kind, arguments) of every kept tag in the project's templates."""
    found = []
    for path in sorted(ROOT.glob("*/templates/**/*.html")) + sorted(ROOT.glob("templates/*.html")):
        if ".venv" in path.parts:
            continue
        for kind, args in TAG.findall(path.read_text()):
            found.append((str(path.relative_to(ROOT)), kind, args))
    return found


def test_the_dashboard_and_the_base_template_use_them():
    used = {t for t, _, _ in _kept_tags()}
    assert {"templates/base.html", "orders/templates/play/dashboard.html"} <= used


@pytest.mark.parametrize(("template", "kind", "args"), _kept_tags())
def test_it_writes_what_django_writes(template, kind, args, prussia):
    battle = SimpleNamespace(code=uuid.uuid4())  # (the dashboard's list of battles)
    context = {"seat": prussia, "campaign": prussia.campaign, "b": battle}
    builtin = "{% load static %}" + f"{{% {kind} {args} %}}"
    kept = "{% load kept %}" + f"{{% kept_{kind} {args} %}}"
    for _ in range(2):  # (the second from what was kept)
        assert Template(kept).render(Context(context)) == Template(builtin).render(
            Context(context)
        ), template


def test_a_changed_setting_is_not_answered_from_what_was_kept():
    page = Template("{% load kept %}{% kept_static 'css/site.css' %}")
    before = page.render(Context())
    with override_settings(STATIC_URL="/elsewhere/"):
        assert page.render(Context()) == "/elsewhere/css/site.css" != before
    assert page.render(Context()) == before
