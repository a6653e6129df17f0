"""Provably fair dice: the seed is committed at the start, revealed at the end, and every roll
recorded can then be recomputed by anyone (docs/dice.md).

The campaign seed never leaves the server while the campaign runs: pages show only its
commitment (SHA-256). What needs randomness of its own (battle tables, the quick resolution, the
leader draw) uses a seed derived by HMAC (``Campaign.derived_seed``), from which no campaign die
can be computed. An organiser whose seed was exposed re-seeds: later phases roll with the new
seed, and the old one is kept to check the rolls it made.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from campaign.models import Campaign, CampaignStatus, OrganiserActionKind, Seat
from campaign.services import gameplay, outgoing
from campaign.services.actionlog import OrganiserError, log
from campaign.services.plaintext import without_bidi
from rules.dice import (
    SCHEME,
    SEED_BYTES,
    Mismatch,
    check_rolls,
    commitment,
    derive_seed,
    seed_scheme,
)


@dataclass(frozen=True)
class SeedRecord:
    epoch: int
    commitment: str
    seed: str  # empty while the campaign runs
    scheme: str = ""  # the scheme's version and the seed's strength (public: not the seed)


@dataclass
class DiceCheck:
    """What ``verify`` found: rolls checked, and where a recorded roll differs from the seed."""

    checked: int = 0
    fixed: int = 0
    mismatches: list[tuple[str, Mismatch]] = field(default_factory=list)
    unknown_epochs: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.unknown_epochs


def seed_records(campaign: Campaign, *, reveal: bool) -> list[SeedRecord]:
    """Every seed the campaign has used, oldest first; the seeds themselves only if ``reveal``."""
    seeds = [(p["epoch"], p["seed"]) for p in campaign.past_seeds]
    seeds.append((campaign.seed_epoch, campaign.seed))
    return [
        SeedRecord(epoch, commitment(seed), seed if reveal else "", seed_scheme(seed))
        for epoch, seed in seeds
    ]


def public_seeds(campaign: Campaign) -> list[SeedRecord]:
    """What any member may read: commitments always, the seeds once the campaign has ended."""
    return seed_records(campaign, reveal=campaign.seeds_revealed)


def verify(campaign: Campaign) -> DiceCheck:
    """Recompute every roll recorded in every state version and every quick resolution."""
    sides = gameplay.rule_settings(campaign).die_sides
    result = DiceCheck()

    def check(where: str, seed: str | None, rolls: list[dict]) -> None:
        result.fixed += sum(1 for r in rolls if r.get("fixed"))
        if seed is None:
            if any(not r.get("fixed") for r in rolls):
                result.unknown_epochs.append(where)
            return
        checked, bad = check_rolls(seed, rolls, sides)
        result.checked += checked
        result.mismatches += [(where, m) for m in bad]

    for number, epoch, rolls in campaign.versions.order_by("number").values_list(
        "number", "seed_epoch", "rolls"
    ):
        check(f"state version {number}", campaign.seed_of_epoch(epoch), rolls or [])
    for battle_id, record in campaign.battles.filter(quick=True).values_list(
        "battle_id", "quick_record"
    ):
        record = record or {}
        seed = campaign.seed_of_epoch(int(record.get("seed_epoch", 0)))
        check(
            f"quick resolution of {battle_id}",
            seed and derive_seed(seed, "quick"),
            record.get("rolls", []),
        )
    return result


def new_seed(campaign: Campaign) -> None:
    """Retire the current seed (kept, to check the rolls it made) and draw a new one."""
    retired = {"epoch": campaign.seed_epoch, "seed": campaign.seed}
    campaign.past_seeds = [*campaign.past_seeds, retired]
    campaign.seed = secrets.token_hex(SEED_BYTES)
    campaign.seed_epoch += 1
    campaign.save(update_fields=["past_seeds", "seed", "seed_epoch"])


@transaction.atomic
def reseed(campaign: Campaign, actor, reason: str, *, now: datetime) -> str:
    """A new seed from the next phase on (the old one was exposed): the rolls already made
    stay, checkable with the old seed; a new commitment is logged and every player told."""
    campaign = Campaign.objects.select_for_update().get(id=campaign.id)
    if campaign.status == CampaignStatus.ENDED:
        raise OrganiserError("The campaign has ended: its seeds are revealed, none is secret.")
    reason = without_bidi(reason).strip()
    if not reason:
        raise OrganiserError("Say why the seed is changed: the players read it in the log.")
    new_seed(campaign)
    log(
        campaign,
        actor,
        OrganiserActionKind.RESEEDED,
        f"Changed the dice seed from the next phase on ({reason}). New commitment "
        f"{campaign.seed_commitment} ({SCHEME}).",
        now=now,
        epoch=campaign.seed_epoch,
        commitment=campaign.seed_commitment,
        reason=reason,
    )
    for seat_id in Seat.objects.filter(campaign=campaign, user__isnull=False).values_list(
        "id", flat=True
    ):
        outgoing.queue_reseeded(seat_id)
    return campaign.seed_commitment
