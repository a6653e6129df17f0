"""Sharing a loss among the leaders of a force (7, 9.5, 11.5): in proportion to their points,
largest remainders first, ties to the higher-ranking leader. Used by attrition, battles and
sieges alike.
"""

from __future__ import annotations

from rules.state import LeaderState


def share_loss(records: list[LeaderState], loss: int) -> dict[str, int]:
    """Split ``loss`` among leader records in proportion to their points (largest remainder)."""
    total = sum(x.points for x in records)
    if total == 0 or loss == 0:
        return {x.key: 0 for x in records}
    loss = min(loss, total)
    shares = {x.key: x.points * loss // total for x in records}
    remainders = sorted(records, key=lambda x: (-(x.points * loss % total), x.rank))
    left = loss - sum(shares.values())
    for x in remainders[:left]:
        shares[x.key] += 1
    return shares
