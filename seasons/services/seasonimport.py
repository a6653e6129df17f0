"""Importing a season file (``seasons.services.seasonfile``, docs/export-format.md).

``import_season(body, organiser=..., now=...)`` writes the campaign of a checked file body in one
transaction: a refusal (``SeasonFileError``) writes nothing. The body is checked whole first
(``seasonschema.check``: types, ranges, names, the map) before a row is written. What it does:

- the campaign keeps its code, and its seats and battles theirs, so every address of its pages
  is the same on the new site; ``new_code=True`` gives all three new codes instead (the
  codes written inside the organiser's log and the windows are changed to match), and the
  campaign a name that says it is a copy (two campaigns of one name would be listed);
- the organiser is the one given (the command names and confirms him), else the site's user
  with the file's organiser's email;
- ``previous`` (the year before) is linked only to a campaign on this site that the same
  organiser runs; any other is dropped and ``Imported.previous_dropped`` says so;
- the public link of *The war* is never imported: the campaign starts with it off;
- a seat's player is the site's user with the file's email; a player not on the site gets an
  invitation to the seat (emailed when the transaction commits);
- without the dice seed in the file (exported without secrets) the campaign draws a new one,
  from the epoch after the file's, and its log says so: the rolls already made stay, and stay
  checkable by whoever holds the old seed;
- ``archive=True`` keeps a finished season to read: it must have ended, and it stays ended
  (``Campaign.archived``: it cannot be reopened, no phase opens, no next year starts from it).
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction

from battles.models import Battle, ResultEntry
from campaign.models import (
    Campaign,
    CampaignStatus,
    Event,
    OrganiserAction,
    OrganiserActionKind,
    PhaseWindow,
    Reminder,
    Seat,
    StateVersion,
)
from campaign.services import setup
from campaign.services.actionlog import log
from letters.models import Letter
from orders.models import OrderSheet
from rules import dice
from seasons.services import seasonphotos, seasonschema
from seasons.services.seasonfile import (
    RELATIONS,
    SECRET_FIELDS,
    SITE_ONLY,
    SeasonFileError,
    from_plain,
    own_columns,
    travelling_options,
)


@dataclass
class Imported:
    """What an import did, for the command to say."""

    campaign: Campaign
    matched: list[str] = field(default_factory=list)  # emails found on the site
    invited: list[str] = field(default_factory=list)  # emails invited
    new_seed: bool = False
    previous_dropped: str = ""  # the code of a year before not linked, and why


def _columns(model: type[models.Model], row: dict, *, skip: tuple[str, ...] = ()) -> dict:
    """The model's own columns from a row of the file; a column the model does not have
    (a file of a newer site) is refused, one the file lacks keeps the model's default."""
    known = {f.name: f for f in own_columns(model)}
    links = set(RELATIONS[model])
    out = {}
    for name, value in row.items():
        if name in skip or name in links or name in SITE_ONLY:
            continue
        f = known.get(name)
        if f is None:
            raise SeasonFileError(
                f"The file has a column {model.__name__}.{name} this site does not know: "
                "it was made by a newer version. Upgrade this site first."
            )
        out[f.attname] = from_plain(f, value)
    return out


def _user_by_email(email: str | None):
    if not email:
        return None
    return (
        get_user_model().objects.filter(email__iexact=email, is_active=True).order_by("id").first()
    )


def organiser_of(body: dict):
    """The site's user with the file's organiser's email (None: no such account)."""
    return _user_by_email(((body.get("campaign") or {}).get("organiser") or {}).get("email"))


def players_of(body: dict, user) -> list[str]:
    """The labels of the file's seats that ``user`` (by email) plays."""
    email = (user.email or "").lower()
    return [
        row.get("label", "")
        for row in body.get("seats", [])
        if email and ((row.get("user") or {}).get("email") or "").lower() == email
    ]


def copy_name(name: str, now: datetime) -> str:
    """The name of a copy imported under new codes, within the column's 100 characters."""
    tail = f" (copy imported {now:%Y-%m-%d})"
    return name[: Campaign._meta.get_field("name").max_length - len(tail)].rstrip() + tail


def code_taken(code: str) -> bool:
    return Campaign.objects.filter(code=code).exists()


def _recode(value, codes: dict[str, str]):
    """``value`` with every string that is an old code replaced by its new one."""
    if isinstance(value, str):
        return codes.get(value, value)
    if isinstance(value, list):
        return [_recode(v, codes) for v in value]
    if isinstance(value, dict):
        return {k: _recode(v, codes) for k, v in value.items()}
    return value


@transaction.atomic
def import_season(
    body: dict,
    *,
    organiser=None,
    now: datetime,
    new_code: bool = False,
    archive: bool = False,
) -> Imported:
    """Write the season of ``body`` (from ``seasonfile.loads``); SeasonFileError says why not,
    with nothing written."""
    seasonschema.check(body)
    stored = seasonphotos.Stored()
    try:
        return _import(
            body, organiser=organiser, now=now, new_code=new_code, archive=archive, stored=stored
        )
    except BaseException:
        stored.remove()  # the photos stored before the failure: the rows are rolled back
        raise


def _import(body: dict, **kwargs) -> Imported:
    """``_write`` with every refusal told as a SeasonFileError."""
    try:
        return _write(body, **kwargs)
    except SeasonFileError:
        raise
    except seasonphotos.PhotoRowError as e:
        raise SeasonFileError(str(e)) from None
    except (IntegrityError, DataError) as e:
        raise SeasonFileError(
            f"The file's rows clash with rows of this site or with each other ({e})."
        ) from e
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError, ValidationError) as e:
        raise SeasonFileError(
            f"The file's content is not a season this site can read (missing or wrong: {e})."
        ) from e


def _previous(code: str | None, own: str, organiser) -> tuple[Campaign | None, str]:
    """The campaign of the year before, if it is on this site and ``organiser`` runs it: a file
    cannot attach a campaign to someone else's season (its next-year pages would link them)."""
    if not code:
        return None, ""
    found = Campaign.objects.filter(code=code).first() if code != own else None
    if found is not None and found.organiser_id == organiser.id:
        return found, ""
    why = "is not on this site" if found is None else "is another organiser's"
    return None, f"{code} {why}"


def _write(
    body: dict, *, organiser, now: datetime, new_code: bool, archive: bool,
    stored: seasonphotos.Stored,
) -> Imported:  # fmt: skip
    head = dict(body["campaign"])
    old_code = head["code"]
    if archive and head.get("status") != CampaignStatus.ENDED:
        raise SeasonFileError(
            "Only a finished season can be imported as an archive: this one has not ended "
            f"(it is {head.get('status')!r}). Import it without --archive to play it on."
        )
    codes: dict[str, str] = {}
    if new_code:
        codes[old_code] = str(uuid.uuid4())
        for row in body["seats"]:
            codes[row["code"]] = str(uuid.uuid4())
        for row in body["battles"]:
            codes[row["code"]] = str(uuid.uuid4())
    elif code_taken(old_code):
        raise SeasonFileError(
            f"A campaign with the code {old_code} is already on this site "
            f"({Campaign.objects.get(code=old_code).name!r}). Import it with --new-code to keep "
            "both (its pages get new addresses)."
        )
    else:
        taken = Seat.objects.filter(code__in=[r["code"] for r in body["seats"]]).exists() or (
            Battle.objects.filter(code__in=[r["code"] for r in body["battles"]]).exists()
        )
        if taken:
            raise SeasonFileError(
                "Seats or battles with this file's codes are already on this site. "
                "Import it with --new-code."
            )

    def code(old: str) -> str:
        return codes.get(old, old)

    organiser = organiser or organiser_of(body)
    if organiser is None:
        raise SeasonFileError(
            f"The organiser {head['organiser']['email']} has no account on this site: make one "
            "(manage.py createorganiser) or name another with --organiser."
        )
    has_seed = "seed" in head
    previous, dropped = _previous(head.get("previous"), old_code, organiser)
    campaign = Campaign(
        **_columns(
            Campaign, head, skip=("code", "seed_commitment", *([] if has_seed else SECRET_FIELDS))
        ),
        code=code(old_code),
        organiser=organiser,
        previous=previous,
    )
    campaign.options = travelling_options(campaign.options)  # (a file written before they were)
    if new_code:
        campaign.name = copy_name(campaign.name, now)
    if archive:
        campaign.archived = True
    last_epoch = seasonschema.int_range(Campaign._meta.get_field("seed_epoch"))[1]
    if not has_seed and campaign.seed_epoch >= last_epoch:
        raise SeasonFileError("The file's seed_epoch is the last there is: no new seed can follow.")
    if not has_seed:
        # Rolls already made keep their epoch; the next ones are made with a new seed.
        campaign.seed = secrets.token_hex(16)
        campaign.seed_epoch += 1
        campaign.past_seeds = []
    elif dice.commitment(campaign.seed) != head.get("seed_commitment"):
        raise SeasonFileError("The file's dice seed does not match its commitment.")
    campaign.save()
    result = Imported(campaign, new_seed=not has_seed, previous_dropped=dropped)

    seats = {}
    for row in body["seats"]:
        player = row.get("user") or None
        user = _user_by_email(player["email"]) if player else None
        seat = Seat.objects.create(
            **_columns(Seat, row, skip=("code",)), code=code(row["code"]), campaign=campaign,
            user=user,
        )  # fmt: skip
        seats[row["code"]] = seat
        if user is not None:
            result.matched.append(player["email"])
        elif player:
            setup.invite(seat, player["email"], now=now)
            result.invited.append(player["email"])

    def seat(old: str | None) -> Seat | None:
        return seats[old] if old is not None else None

    people = {}

    def person(who: dict | None):
        if not who:
            return None
        if who["email"] not in people:
            people[who["email"]] = _user_by_email(who["email"])
        return people[who["email"]]

    versions = {}
    events = []
    for row in body["versions"]:
        version = StateVersion.objects.create(
            **_columns(StateVersion, row, skip=("events",)), campaign=campaign
        )
        versions[version.number] = version
        events += [
            Event(**_columns(Event, e), campaign=campaign, version=version) for e in row["events"]
        ]
    Event.objects.bulk_create(events, batch_size=500)

    sheets, reminders = [], []
    for row in body["windows"]:
        window = PhaseWindow.objects.create(
            **_columns(PhaseWindow, row, skip=("sheets", "reminders")),
            campaign=campaign,
            version=versions[row["version"]],
        )
        if codes:
            window.owing = _recode(window.owing, codes)
            window.save(update_fields=["owing"])
        sheets += [
            OrderSheet(
                **_columns(OrderSheet, s), campaign=campaign, window=window, seat=seat(s["seat"]),
                entered_by=person(s.get("entered_by")),
            )
            for s in row["sheets"]
        ]  # fmt: skip
        reminders += [
            Reminder(**_columns(Reminder, r), window=window, seat=seat(r["seat"]))
            for r in row["reminders"]
        ]
    OrderSheet.objects.bulk_create(sheets)
    Reminder.objects.bulk_create(reminders)

    for i, row in enumerate(body["battles"]):
        battle = Battle.objects.create(
            **_columns(Battle, row, skip=("code", "entries", "photos", "accounts")),
            code=code(row["code"]),
            campaign=campaign,
            entered_by=seat(row.get("entered_by")),
            answered_by=seat(row.get("answered_by")),
            settled_by=person(row.get("settled_by")),
        )
        ResultEntry.objects.bulk_create(
            ResultEntry(
                **_columns(ResultEntry, e), battle=battle, seat=seat(e.get("seat")),
                user=person(e.get("user")), answered_by=seat(e.get("answered_by")),
            )
            for e in row["entries"]
        )  # fmt: skip
        seasonphotos.import_photos(
            battle, row.get("photos", []), person=person, columns=_columns, stored=stored,
            where=f"battles[{i}]", new_code=new_code,
        )  # fmt: skip
        seasonphotos.import_accounts(
            battle, row.get("accounts", []), person=person, columns=_columns,
            where=f"battles[{i}]",
        )  # fmt: skip

    for row in body["letters"]:
        letter = Letter.objects.create(
            **_columns(Letter, row), campaign=campaign, sender=seat(row["sender"])
        )
        letter.recipients.set([seat(r) for r in row["recipients"]])

    OrganiserAction.objects.bulk_create(
        OrganiserAction(
            **_columns(OrganiserAction, a, skip=("data",)),
            data=_recode(a.get("data", {}), codes),
            campaign=campaign,
            actor=person(a.get("actor")),
        )
        for a in body["log"]
    )
    if not has_seed:
        log(
            campaign,
            organiser,
            OrganiserActionKind.RESEEDED,
            "Imported from a season file without its dice seed: a new seed was drawn for the "
            f"phases to come. New commitment {campaign.seed_commitment}. The rolls already made "
            "were made with the old seed, which this site does not have.",
            now=now,
            epoch=campaign.seed_epoch,
            commitment=campaign.seed_commitment,
        )
    return result
