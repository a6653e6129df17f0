"""A season of three turns with five seats on the real map: one email per seat per phase,
battle emails only to the armies that fought, no link to localhost (issue 13)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core import mail

from battles.models import Battle
from tests.seasons.real_season import play_real_season

pytestmark = pytest.mark.django_db

PHASE_KINDS = {"phase-opened", "phase-resolved", "campaign-over", "battle-pending"}


def fought_by(subject, what: str) -> set[str]:
    return fought(subject) if what == "battle" else set()


def fought(battle) -> set[str]:
    return {a for side in battle.setup["sides"].values() for a in side.get("points_by_country", {})}


def test_one_email_per_seat_per_phase_and_battles_only_to_those_who_fought(
    settings, organiser, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://dgk.example.org"
    counts: Counter = Counter()
    seats_by_email: dict[str, object] = {}
    problems: list[str] = []

    def step(what, subject) -> None:
        sent = list(mail.outbox)
        mail.outbox.clear()
        if not seats_by_email:
            campaign = subject if what == "start" else subject.campaign
            for s in campaign.seats.select_related("user"):
                seats_by_email[s.user.email] = s
        per_seat = Counter()
        for m in sent:
            kind = m.extra_headers.get("X-DGK-Kind", "?")
            counts[kind] += 1
            assert "localhost:8000" not in m.body, (kind, m.body)
            for to in m.to:
                seat = seats_by_email.get(to)
                if kind in PHASE_KINDS and seat is not None:
                    per_seat[seat.power] += 1
                uninvolved = seat is not None and not fought_by(subject, what) & set(seat.armies)
                if kind.startswith("battle:") and what == "battle" and uninvolved:
                    problems.append(f"{kind} to the uninvolved {seat.label}")
                if kind == "battle-pending" and seat is not None:
                    # decide whether to fight: only a seat the battle window waits for, or
                    # one whose armies are in a battle that went to the table
                    window = seat.campaign.open_window()
                    deciding = window is not None and window.phase == "battle"
                    tabled = Battle.objects.filter(campaign=seat.campaign, status="pending")
                    if not (
                        (deciding and window.owes(seat))
                        or any(fought(b) & set(seat.armies) for b in tabled)
                    ):
                        problems.append(f"{kind} to the uninvolved {seat.label}")
        many = {p: n for p, n in per_seat.items() if n > 1}
        if many:
            problems.append(f"after {what} {subject}: {many} phase emails")
        counts[f"steps:{what}"] += 1

    campaign, battles = play_real_season(
        organiser,
        django_capture_on_commit_callbacks,
        name="Email season",
        prefix="mail",
        step=step,
    )
    print(f"season emails over {campaign.latest_version().number} phases, {battles} battles:")
    for kind, n in sorted(counts.items()):
        print(f"  {kind}: {n}")
    assert not problems, "\n".join(problems)
    assert counts["phase-opened"] >= 5 and counts["steps:phase"] >= 6
    assert battles == Battle.objects.filter(campaign=campaign).count()
    assert battles == 0 or counts["steps:battle"] == battles
