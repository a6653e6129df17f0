"""Bench: the seats' map pictures of a campaign on the bundled map of Central Europe.

    .venv/bin/python bench/map_picture_bench.py [--repeat 3]

Makes the demo campaign (``manage.py loaddemo``: five seats, every army deployed by the engine's
sample deployment, turn 1 open for march orders) in a scratch SQLite database, then, for each
seat and the umpire, times what the worker does for one picture (``maps.pictures.draw_picture``:
read the seat's view, draw, make the palette PNG, write it), split into reading the view and
drawing, and prints the bytes and the size of each picture against the 250 KB bound. The best of
``--repeat`` runs is printed (the machine is shared). Nothing is left behind.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(folder: Path) -> None:
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
            "MAP_PICTURES_DIR": str(folder / "pictures"),
            "DEBUG": "1",  # loaddemo makes accounts with a known password only in DEBUG
            "CELERY_BROKER_URL": "",
            "REDIS_URL": "",
            "LOG_LEVEL": "WARNING",  # not a line per eager task
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def best(repeat: int, run) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - started)
    return min(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        setup_django(folder)
        from django.core.management import call_command
        from PIL import Image

        from campaign.models import Campaign
        from campaign.services import knowledge
        from campaign.services.gameplay import load_campaign_map
        from dgk import files
        from maps.core.picture import MAX_BYTES
        from maps.pictures import KIND, draw_picture, picture_key
        from maps.seat_picture import picture_title, seat_picture_png

        call_command("migrate", verbosity=0)
        call_command("loaddemo", stdout=io.StringIO())
        campaign = Campaign.objects.get(name="Demo 1757")
        version = campaign.latest_version()
        hexmap = load_campaign_map(campaign.map_name)
        print(f"{campaign.name}, version {version.number} (turn {version.turn}, "
              f"{version.phase}), map {hexmap.name} {hexmap.columns}x{hexmap.rows}")  # fmt: skip
        print(f"{'seat':<18} {'view':>7} {'draw+png':>9} {'task':>7} {'bytes':>9} {'size':>11}")
        seats = [*campaign.seats.filter(reserve=False).order_by("power"), None]
        for seat in seats:
            label = seat.label if seat else "umpire"
            read = (lambda s=seat: knowledge.seat_view(s, version)) if seat else (
                lambda: knowledge.umpire_view(version)
            )  # fmt: skip
            t_view, view = best(args.repeat, read)
            title = picture_title(view, campaign.name, version.number)

            def drawing(v=view, t=title):
                return seat_picture_png(v, hexmap, title=t)

            t_draw, png = best(args.repeat, drawing)

            def task(s=seat):
                files.storage(KIND).delete(picture_key(version, s))
                return draw_picture(version.id, s.id if s else None)

            t_task, key = best(args.repeat, task)
            size = Image.open(files.storage(KIND).open(key)).size
            mark = "" if len(png) <= MAX_BYTES else "  OVER THE BOUND"
            print(f"{label:<18} {t_view * 1000:>5.0f}ms {t_draw:>8.2f}s {t_task:>6.2f}s "
                  f"{len(png) / 1024:>6.0f} KB {size[0]:>5}x{size[1]:<5}{mark}")  # fmt: skip
        print(f"bound: {MAX_BYTES // 1024} KB a picture")


if __name__ == "__main__":
    main()
