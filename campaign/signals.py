"""What the campaign announces to the apps above it, which it never imports
(docs/architecture.md, "The apps"): they connect their receivers in ``AppConfig.ready``.

- ``version_stored``: a phase resolved, or the campaign started, and ``latest`` is the newest
  state version (``seats``: every seat of the campaign, as the caller read them, or None).
  The maps ask the worker for the seats' map pictures.
- ``campaign_ended``: the season is over (12.7, or the organiser ended it). The seasons ask
  the worker for the book of the season.
- ``told``: the campaign told its people something (``campaign.services.outgoing``):
  ``notices`` is a list of ``(kind, ids)``, the email kinds and the ids each is built from
  (``"call-for-orders"``/``"phase-resolved"``… with ``seat_id``, ``"battle"`` with
  ``battle_id`` and ``battle_kind``, ``"reminder"`` with ``seat_id``, ``window_id`` and
  ``hours``…), and ``campaign_id`` is the campaign's id when the sender knows it (else None).
  Other channels than email (push, the club's channel) listen here.

Both are sent inside the transaction that made the change; receivers queue their work on
commit (``campaign.services.queue``), so nothing runs for a change that rolls back.
"""

from __future__ import annotations

import django.dispatch

version_stored = django.dispatch.Signal()
campaign_ended = django.dispatch.Signal()
told = django.dispatch.Signal()
