"""What the seasons announce to the apps above them (the club's channel, docs/club.md):

- ``war_made_public``: the organiser switched on the public link of *The war* (``campaign``).
  Sent inside the transaction; receivers queue their work on commit.
"""

from __future__ import annotations

import django.dispatch

war_made_public = django.dispatch.Signal()
