"""What a player's photo costs the server, and what is left of its metadata (issue 45): a
phone's 12-megapixel JPEG (noise, the worst case for JPEG) read, turned upright, re-encoded to
the display size and the thumbnail; and the metadata of a phone-like photo before and after
(``battles.services.imaging``, read back with Pillow).

    .venv/bin/python bench/photo_bench.py

Then the memory one photo costs: each upload processed in a fresh process, the growth of its
peak resident size (``ru_maxrss``) printed: a phone's 12-megapixel JPEG, and a 40-megapixel
PNG with transparency (a small file: 8000x5000 of two colours), the largest the limits let
through.

Then what a refused photo costs to read (``--refused`` alone runs only this part): the scan for
bytes joined after a JPEG's end (``imaging._jpeg_end``) on files of just under the 15 MB limit
made to be slow to scan, against the byte loop it replaced (``tests/battles/jpeg_reference.py``),
the median of 3 each; then the whole ``imaging.process`` of each (refused, or decoded by Pillow).
"""

from __future__ import annotations

import contextlib
import io
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import ExifTags, Image  # noqa: E402

from battles.services import imaging  # noqa: E402
from tests.battles import jpeg_reference, photo_files  # noqa: E402

SOI = b"\xff\xd8\xff"
NOISE = {"jfif", "jfif_version", "jfif_unit", "jfif_density", "dpi", "progressive",
         "progression"}  # fmt: skip


def listing(data: bytes) -> list[str]:
    """The metadata Pillow reads in ``data``, one line each."""
    image = Image.open(io.BytesIO(data))
    lines = [
        f"{image.width}x{image.height}, {len(data)} bytes;"
        f" metadata blocks: {sorted(k for k in image.info if k not in NOISE) or 'none'}"
    ]
    exif = image.getexif()
    for tag, value in exif.items():
        if tag not in (0x8769, 0x8825):
            lines.append(f"  EXIF {ExifTags.TAGS.get(tag, tag)}: {value}")
    for tag, value in exif.get_ifd(0x8769).items():
        lines.append(f"  EXIF {ExifTags.TAGS.get(tag, tag)}: {value}")
    for tag, value in exif.get_ifd(0x8825).items():
        lines.append(f"  GPS {ExifTags.GPSTAGS.get(tag, tag)}: {value}")
    if "xmp" in image.info:
        lines.append(f"  XMP: {bytes(image.info['xmp'])[:48]!r}...")
    if "comment" in image.info:
        lines.append(f"  Comment: {image.info['comment']!r}")
    lines.append(
        f"  images in the file: {data.count(SOI)};"
        f" b'Exif\\0\\0' {b'Exif' + bytes(2) in data}, b'GPS' {b'GPS' in data},"
        f" b'<x:xmpmeta' {b'<x:xmpmeta' in data}"
    )
    return lines


def main() -> None:
    phone = photo_files.phone_jpeg((4032, 3024), orientation=6)
    done = imaging.process(phone, "IMG_2041.jpg")
    print("A phone's photo, before:")
    print("\n".join(listing(phone)))
    print("Kept, the display size:")
    print("\n".join(listing(done.display.data)))
    print("Kept, the thumbnail:")
    print("\n".join(listing(done.thumbnail.data)))

    noise = Image.effect_noise((4032, 3024), 40).convert("RGB")
    out = io.BytesIO()
    noise.save(out, "JPEG", quality=90)
    data = out.getvalue()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        kept = imaging.process(data, "noise.jpg")
        times.append(time.perf_counter() - start)
    print(
        f"\n12 MP JPEG of noise, {len(data) / 1e6:.1f} MB: processed in"
        f" {statistics.median(times) * 1000:.0f} ms (median of 5, min"
        f" {min(times) * 1000:.0f} ms); kept {len(kept.display.data) / 1e3:.0f} kB display +"
        f" {len(kept.thumbnail.data) / 1e3:.0f} kB thumbnail"
    )
    bomb = photo_files.png_bomb()
    start = time.perf_counter()
    with contextlib.suppress(imaging.PhotoRefused):
        imaging.process(bomb, "bomb.png")
    print(
        f"Decompression bomb ({len(bomb)} bytes declaring 10 gigapixels): refused in"
        f" {(time.perf_counter() - start) * 1000:.1f} ms"
    )


def transparent_png() -> bytes:
    image = Image.new("RGBA", (8000, 5000), (0, 0, 0, 0))
    image.paste((200, 20, 20, 255), (2000, 1250, 6000, 3750))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def phone_jpeg() -> bytes:
    return photo_files.phone_jpeg((4032, 3024), orientation=6)


MADE = {"transparent-png": transparent_png, "phone-jpeg": phone_jpeg}


def one(kind: str, path: str) -> None:
    """In a fresh process: the growth of the peak resident size while one upload (made by the
    parent: making it costs memory too) is processed."""
    data = Path(path).read_bytes()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    imaging.process(data, kind)
    took = time.perf_counter() - start
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(f"{kind}: {len(data) / 1e3:.0f} kB, peak memory +{grown / 1024:.0f} MB, {took:.2f} s")


def memory() -> None:
    print("\nThe memory one photo costs (each in a fresh process):")
    for kind, make in MADE.items():
        with tempfile.NamedTemporaryFile(suffix=".upload") as upload:
            upload.write(make())
            upload.flush()
            done = subprocess.run(
                [sys.executable, __file__, "--one", kind, upload.name],
                capture_output=True,
                text=True,
                check=True,
            )
        print("  " + done.stdout.strip())


def _filled(head: bytes, unit: bytes, tail: bytes = b"") -> bytes:
    """``head``, then ``unit`` as often as fits under the 15 MB limit, then ``tail``."""
    room = imaging.Limits().max_bytes - len(head) - len(tail)
    return head + unit * (room // len(unit)) + tail


def _slow_files() -> dict[str, bytes]:
    noise = Image.effect_noise((4032, 3024), 40).convert("RGB")
    out = io.BytesIO()
    noise.save(out, "JPEG", quality=95)
    small = photo_files.jpeg()
    png = photo_files.png()
    scan = b"\xff\xd8\xff\xda\x00\x02"
    return {
        "a phone's 12 MP JPEG of noise": out.getvalue(),
        "entropy-coded data, never ending": _filled(scan, bytes(range(255))),
        "0xFF 0x00 pairs in a scan": _filled(scan, b"\xff\x00"),
        "0xFF in a scan": _filled(scan, b"\xff"),
        "RST markers in a scan": _filled(scan, b"\xff\xd0"),
        "scans of 5 bytes, then EOI and a ZIP": _filled(
            b"\xff\xd8", b"\xff\xda\x00\x02\x01", b"\xff\xd9" + photo_files.zip_bytes()
        ),
        "segments of 258 bytes, no EOI": _filled(b"\xff\xd8", b"\xff\xe1\x01\x00" + b"a" * 254),
        "0xFF fill bytes, then a JPEG": _filled(small[:2], b"\xff", small[2:]),
        "RST markers, then a JPEG": _filled(small[:2], b"\xff\xd0", small[2:]),
        "segments of 4 bytes, then a JPEG": _filled(small[:2], b"\xff\xe0\x00\x02", small[2:]),
        "chunks of 12 bytes, then a PNG": _filled(
            png[:33], photo_files._chunk(b"abCd", b""), png[33:]
        ),
    }


@contextlib.contextmanager
def _before():
    """``imaging`` as it was before 30 November 2026: the byte loop, no count of steps."""
    with (
        mock.patch.object(imaging, "_jpeg_end", jpeg_reference.jpeg_end),
        mock.patch.object(imaging, "_refuse_many_steps", lambda *args: None),
    ):
        yield


def _timed(work, *args) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        work(*args)
        outcome = "kept"
    except imaging.PhotoRefused as exc:
        reason = str(exc).split("” ", 1)[1]
        outcome = "refused (" + reason.split(" (")[0].split(", so")[0].removeprefix("is ") + ")"
    except ValueError:
        outcome = "no end"
    return time.perf_counter() - start, outcome


def refused() -> None:
    print(
        "\nWhat a file just under 15 MB costs: the scan for bytes after a JPEG's end"
        " (imaging._jpeg_end),\nthen the whole imaging.process, before and after (one run each):"
    )
    print(f"  {'file':38} {'scan before':>11} {'after':>8} {'process before':>15} {'after':>8}")
    for name, data in _slow_files().items():
        is_jpeg = data[:2] == b"\xff\xd8"
        scan_before, _ = _timed(jpeg_reference.jpeg_end, data) if is_jpeg else (0, "")
        scan_after, _ = _timed(imaging._jpeg_end, data) if is_jpeg else (0, "")
        with _before():
            before, was = _timed(imaging.process, data, "table.jpg")
        after, now = _timed(imaging.process, data, "table.jpg")
        print(
            f"  {name:38} {scan_before * 1000:9.0f}ms {scan_after * 1000:6.1f}ms"
            f" {before * 1000:13.0f}ms {after * 1000:6.0f}ms\n"
            f"  {'':38} before {was}; after {now}"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        one(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["--refused"]:
        refused()
    else:
        main()
        memory()
        refused()
