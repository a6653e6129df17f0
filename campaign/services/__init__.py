"""Domain operations on campaigns: views and tasks stay thin and call one of these.

- ``setup``: create a campaign, its seats, invitations, start it.
- ``gameplay``: the engine adapter (state in and out of JSON, orders per seat, who owes input).
- ``deadlines``: deadline policies and reminder steps (pure).
- ``resolution``: resolve a due phase exactly once, open the next window.
- ``organiser``: the organiser's tools, each logged for the players to see.
- ``drifting``: reminders, missed deadlines, absences.
- ``email``: every email, built for one seat from that seat's projection.
"""
