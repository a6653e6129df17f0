"""Bench: what a hostile season file costs before it is refused (issue 36).

    .venv/bin/python bench/season_file_limits_bench.py [--bomb-gib 2] [--big-mib 155]

Each case is read by ``seasonfile.read`` in a child process of its own, which prints the time
to the refusal and its peak memory (``ru_maxrss``), beside a child that only starts Django:

- a gzip bomb: JSON whose body is ``--bomb-gib`` GiB of spaces, about 1 MiB gzip'd per GiB;
- a large file: ``--big-mib`` MiB of random bytes (refused by its size);
- JSON nested 100,000 deep.

The limit is the default ``SEASON_FILE_MAX_BYTES`` (64 MiB) unless the environment sets it.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
    import django

    django.setup()
    from django.conf import settings

    from seasons.services import seasonfile

    said = "(nothing read)"
    t = time.perf_counter()
    if path != "-":
        try:
            seasonfile.read(path)
            said = "read"
        except seasonfile.SeasonFileError as e:
            said = str(e)
    took = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{took:.3f} s, peak {peak:,.0f} MiB "
        f"(limit {settings.SEASON_FILE_MAX_BYTES:,}): {said[:90]}"
    )


def gzip_of(chunks, path: Path) -> None:
    """A gzip file written from ``chunks`` without holding them."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    with open(path, "wb") as f:
        for chunk in chunks:
            f.write(packer.compress(chunk))
        f.write(packer.flush())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bomb-gib", type=int, default=2)
    parser.add_argument("--big-mib", type=int, default=155)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        bomb, big, deep = Path(tmp, "bomb.gz"), Path(tmp, "big.gz"), Path(tmp, "deep.gz")
        spaces = b" " * (1 << 20)
        gzip_of(
            [b'{"format":"dgk-season","body":', *([spaces] * (args.bomb_gib << 10)), b"{}}"], bomb
        )
        with open(big, "wb") as f:
            for _ in range(args.big_mib):
                f.write(os.urandom(1 << 20))
        gzip_of([b"[" * 100_000, b"]" * 100_000], deep)
        cases = [
            ("Django only", "-"),
            (f"gzip bomb, {bomb.stat().st_size / 2**20:.1f} MiB -> {args.bomb_gib} GiB", bomb),
            (f"large file, {args.big_mib} MiB", big),
            ("JSON 100,000 deep", deep),
        ]
        for label, path in cases:
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(path)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
            print(f"{label}: {out}")


if __name__ == "__main__":
    main()
