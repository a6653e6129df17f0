"""Bench: writing and serving a map picture and a tile through the site's storages, in a folder
of this machine and in an S3 bucket (moto's server on the loopback, FILE_STORAGE=s3).

    .venv/bin/python bench/storage_bench.py [--repeat 30]

For each storage, the median of ``--repeat`` runs of: writing a seat's map picture (a real one:
the bundled map drawn as the worker draws it) and a tile (``dgk.files.save_whole``: a temporary
file renamed into place, or a PUT); "is it there?" (what a page asks before queueing a picture,
and the "is the pyramid complete?" marker); serving each as the views do after their access
checks (``dgk.files.file_response``, the body read to its end); and the tile through the tile
view itself (Django's test client). moto answers from memory in this process's threads, so the
S3 figures are the client's cost and a loopback round trip, a floor under a real bucket's (add
the network's latency to a real one, a few ms in one data centre). Nothing is left behind.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
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
            "FILE_STORAGE": "local",
            "MAP_PICTURES_DIR": str(folder / "pictures"),
            "MAP_TILES_DIR": str(folder / "tiles"),
            "CELERY_BROKER_URL": "",
            "REDIS_URL": "",
            "LOG_LEVEL": "WARNING",
            "AWS_ACCESS_KEY_ID": "bench",
            "AWS_SECRET_ACCESS_KEY": "bench",
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dgk.settings")
    import django

    django.setup()


def median_ms(repeat: int, run) -> float:
    times = []
    for i in range(repeat):
        started = time.perf_counter()
        run(i)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        setup_django(Path(scratch))
        import boto3
        from django.conf import settings
        from django.test import Client, override_settings
        from django.urls import reverse
        from moto.server import ThreadedMotoServer

        from dgk import files
        from maps.core.loader import load_map
        from maps.core.picture import draw_picture, picture_png
        from maps.core.tiles import map_stamp, tiles_of_zoom
        from maps.tiles import MARKER, tile_key
        from tests.servers import spare_port
        from tests.storage.folders import s3

        hexmap = load_map("central_europe_1756")
        picture = picture_png(draw_picture(hexmap, [], title="Bench, turn 1"))
        stamp = map_stamp(hexmap)
        tile = max((data for _, _, data in tiles_of_zoom(hexmap, 1)), key=len)  # a busy one
        port = spare_port()
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        server.start()
        endpoint = f"http://127.0.0.1:{port}"
        boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1").create_bucket(
            Bucket="bench"
        )
        kinds = ("pictures", "tiles")
        modes = {
            "local folder": settings.STORAGES,
            "S3 (moto, loopback)": {
                **settings.STORAGES,
                **{k: s3(k, "bench", endpoint) for k in kinds},
            },
        }
        print(f"picture {len(picture) // 1024} KB, tile {len(tile) / 1024:.1f} KB; "
              f"median of {args.repeat} runs, ms")  # fmt: skip
        rows = (
            "write picture", "write tile", "exists? (picture)", "exists? (pyramid marker)",
            "serve picture", "serve tile", "tile view (client)",
        )  # fmt: skip
        results: dict[str, list[float]] = {row: [] for row in rows}
        client = Client(HTTP_HOST="localhost")
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
        view = reverse("maps:tile", args=[stamp, "1", "0", "0"])

        def serve(kind: str, name: str) -> None:
            response = files.file_response(kind, name, content_type="image/png")
            assert response is not None
            b"".join(response.streaming_content)
            response.close()

        try:
            for storages in modes.values():
                with override_settings(STORAGES=storages):
                    files.save_whole("tiles", f"{stamp}/{MARKER}", b"{}")
                    files.save_whole("tiles", tile_key(stamp, 1, 0, 0), tile)
                    out = results.values().__iter__()
                    for run in (
                        lambda i: files.save_whole("pictures", f"c/{i}/seat.png", picture),
                        lambda i: files.save_whole("tiles", tile_key(stamp, 1, i, 1), tile),
                        lambda i: files.storage("pictures").exists(f"c/{i}/seat.png"),
                        lambda i: files.storage("tiles").exists(f"{stamp}/{MARKER}"),
                        lambda i: serve("pictures", f"c/{i}/seat.png"),
                        lambda i: serve("tiles", tile_key(stamp, 1, i, 1)),
                        lambda i: b"".join(client.get(view).streaming_content),
                    ):
                        next(out).append(median_ms(args.repeat, run))
        finally:
            server.stop()
        width = max(len(m) for m in modes) + 2
        print(f"{'':28}" + "".join(f"{m:>{width}}" for m in modes))
        for row, figures in results.items():
            print(f"{row:28}" + "".join(f"{f:>{width}.2f}" for f in figures))


if __name__ == "__main__":
    main()
