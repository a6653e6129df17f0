"""The JPEG end-of-image scan (``imaging._jpeg_end``, which finds bytes joined after a photo)
made fast (30 November 2026): it must find the same end, or refuse to find one, as the byte
loop it replaced (``tests/battles/jpeg_reference.py``) on every file: cameras' JPEGs, files
cut short at every byte, markers with lengths that lie, runs of fill bytes, and thousands of
seeded mutations. Its speed is measured by ``bench/photo_bench.py``, not here."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from battles.services import imaging
from tests.battles import jpeg_reference
from tests.battles import photo_files as files

pytestmark = pytest.mark.pure

SOI, EOI, SOS = b"\xff\xd8", b"\xff\xd9", b"\xff\xda"


def answer(scan, data: bytes, start: int = 0) -> int | str:
    """Where ``scan`` says the JPEG ends, or "no end"."""
    try:
        return scan(data, start)
    except ValueError:
        return "no end"


def same(data: bytes, start: int = 0) -> None:
    old = answer(jpeg_reference.jpeg_end, data, start)
    new = answer(imaging._jpeg_end, data, start)
    assert new == old, f"{data[:80]!r}... ({len(data)} bytes) from {start}"


def noise_jpeg(size=(96, 64), **save) -> bytes:
    """A JPEG of noise: its entropy-coded data holds many 0xFF 0x00 pairs."""
    out = io.BytesIO()
    Image.effect_noise(size, 60).convert("RGB").save(out, "JPEG", **save)
    return out.getvalue()


CAMERA_FILES = {
    "one colour": files.jpeg,
    "a phone's, EXIF thumbnail inside": files.phone_jpeg,
    "noise": noise_jpeg,
    "progressive": lambda: noise_jpeg(progressive=True),
    "restart markers": lambda: noise_jpeg(restart_marker_blocks=1),
    "optimized, with a comment": lambda: files.jpeg((50, 30), optimize=True, comment=b"\xff\xd9"),
    "MPF: two whole JPEGs": lambda: files.jpeg() + files.jpeg((8, 8)),
    "a ZIP joined": lambda: files.jpeg() + files.zip_bytes(),
    "a script joined": lambda: files.jpeg() + b"<script>alert(1)</script>",
    "zero padding": lambda: files.jpeg() + bytes(64),
}


@pytest.mark.parametrize("make", CAMERA_FILES.values(), ids=CAMERA_FILES.keys())
def test_a_cameras_file_ends_where_it_ended(make):
    data = make()
    same(data)
    assert imaging._trailer(data, "JPEG") == _old_trailer(data)


def _old_trailer(data: bytes) -> bytes:
    """``imaging._trailer`` for a JPEG, on the reference scan."""
    try:
        end = jpeg_reference.jpeg_end(data)
        while data[end : end + 2] == SOI:
            end = jpeg_reference.jpeg_end(data, end)
    except ValueError:
        return b""
    rest = data[end:]
    return rest if rest.strip(b"\x00") else b""


def test_the_second_jpeg_of_an_mpf_file_is_scanned_from_its_own_start():
    first, second = files.jpeg(), noise_jpeg((16, 16))
    data = first + second + b"tail"
    same(data, len(first))
    assert imaging._jpeg_end(data, len(first)) == len(first) + len(second)


@pytest.mark.parametrize(
    "make", [files.phone_jpeg, noise_jpeg, lambda: noise_jpeg(progressive=True)]
)
def test_a_file_cut_short_at_any_byte_is_read_the_same(make):
    data = make()
    step = max(1, len(data) // 1500)
    for cut in range(0, len(data) + 1, step):
        same(data[:cut])


def segment(marker: int, length: int, payload: bytes = b"") -> bytes:
    return bytes([0xFF, marker]) + length.to_bytes(2, "big") + payload


CRAFTED = {
    "empty": b"",
    "SOI alone": SOI,
    "SOI and EOI": SOI + EOI,
    "not SOI": b"\xff\xd9" + EOI,
    "a byte that is no marker": SOI + b"\x00" + EOI,
    "fill bytes before each marker": SOI
    + b"\xff" * 50
    + segment(0xE0, 4, b"ab")
    + b"\xff" * 9
    + EOI,
    "fill bytes to the end": SOI + b"\xff" * 5000,
    "ending on 0xFF": SOI + segment(0xE0, 2) + b"\xff",
    "a length of 0": SOI + segment(0xE0, 0) + EOI,
    "a length of 1": SOI + segment(0xE0, 1) + EOI,
    "a length of 2": SOI + segment(0xE0, 2) + EOI,
    "a length of 255": SOI + segment(0xE1, 255, b"a" * 253) + EOI,
    "a length of 256": SOI + segment(0xE1, 256, b"a" * 254) + EOI,
    "a length of 65535, past the end": SOI + segment(0xE1, 65535, b"a" * 100) + EOI,
    "a length that swallows the EOI": SOI + segment(0xE1, 8, b"ab") + EOI + b"xy" + EOI,
    "a length cut in two": SOI + b"\xff\xe0\x00",
    "a length ending exactly at the end": SOI + segment(0xE1, 6, b"abcd"),
    "marker 0x00 with a length": SOI + segment(0x00, 4, b"ab") + EOI,
    "marker 0x01 without one": SOI + b"\xff\x01" + EOI,
    "RST outside a scan": SOI + b"\xff\xd0\xff\xd7" + EOI,
    "an EOI inside an APP segment": SOI + segment(0xE1, 6, EOI + b"ab") + EOI,
    "scan: stuffed bytes": SOI + segment(0xDA, 2) + b"\x12\xff\x00\x34" + EOI,
    "scan: RST inside": SOI + segment(0xDA, 2) + b"\x12\xff\xd3\x34\xff\xd7" + EOI,
    "scan: 0xFF runs before a stuffed byte": SOI + segment(0xDA, 2) + b"\xff\xff\xff\x00" + EOI,
    "scan: 0xFF runs before the EOI": SOI + segment(0xDA, 2) + b"\x12" + b"\xff" * 300 + b"\xd9",
    "scan: 0xFF run to the end": SOI + segment(0xDA, 2) + b"\x12" + b"\xff" * 300,
    "scan: no EOI": SOI + segment(0xDA, 2) + bytes(range(255)) * 20,
    "scan: one byte left": SOI + segment(0xDA, 2) + b"\x12",
    "scan: length past the end": SOI + segment(0xDA, 400) + EOI,
    "scan: a long header": SOI + segment(0xDA, 300, b"\xff" * 298) + b"\xff\x00" + EOI,
    "scan: a long header ending on 0xFF": SOI
    + segment(0xDA, 300, b"\x00" * 297 + b"\xff")
    + b"\x00\xff\xd9",
    "scan: a header with an EOI in it": SOI + segment(0xDA, 6, EOI + b"ab") + b"\x00" + EOI,
    "two scans": SOI
    + segment(0xDA, 2)
    + b"\x01"
    + segment(0xC4, 4, b"ab")
    + segment(0xDA, 2)
    + b"\x02\xff\x00"
    + EOI,
    "tiny segments by the thousand": SOI + segment(0xE0, 2) * 20_000 + EOI,
    "tiny scans by the thousand": SOI + (segment(0xDA, 2) + b"\x01") * 20_000 + EOI,
    "markers without length by the thousand": SOI + b"\xff\xd0" * 20_000 + EOI,
    "long segments by the thousand": SOI + segment(0xE1, 300, b"\xff" * 298) * 1000 + EOI,
    "fill bytes by the hundred thousand": SOI + b"\xff" * 200_000 + b"\xd9",
    "scan: stuffed bytes by the hundred thousand": SOI + segment(0xDA, 2) + b"\xff\x00" * 100_000,
    "scan: RST by the hundred thousand": SOI + segment(0xDA, 2) + b"\xff\xd0" * 100_000 + EOI,
    "scan: 0xFF by the hundred thousand": SOI + segment(0xDA, 2) + b"\xff" * 200_000,
}


@pytest.mark.parametrize("data", CRAFTED.values(), ids=CRAFTED.keys())
def test_a_crafted_file_ends_where_it_ended(data):
    same(data)
    assert imaging._trailer(data, "JPEG") == _old_trailer(data)


def test_thousands_of_mutated_files_end_where_they_ended():
    """Seeded: bytes of real JPEGs set to the values the scan turns on (0xFF, 0x00, EOI, SOS,
    RST, lengths), inserted and deleted."""
    rng = random.Random(30_11_2026)
    seeds = [files.phone_jpeg(), noise_jpeg((32, 32)), noise_jpeg((32, 32), progressive=True),
             noise_jpeg((32, 32), restart_marker_blocks=1), CRAFTED["two scans"]]  # fmt: skip
    values = [0xFF, 0xFF, 0x00, 0xD9, 0xDA, 0xD0, 0xD7, 0x01, 0x02, 0x03, 0xC4, 0xE1]
    for _ in range(4000):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            if not data:
                break
            at = rng.randrange(len(data))
            roll = rng.random()
            if roll < 0.6:
                data[at] = rng.choice(values) if rng.random() < 0.8 else rng.randrange(256)
            elif roll < 0.8:
                data[at:at] = bytes([rng.choice(values)]) * rng.randint(1, 300)
            else:
                del data[at : at + rng.randint(1, 40)]
        same(bytes(data))


def test_a_refused_polyglot_is_still_refused_and_a_photo_still_kept():
    with pytest.raises(imaging.PhotoRefused, match="bytes of something else joined"):
        imaging.process(noise_jpeg() + files.zip_bytes(), "table.jpg")
    kept = imaging.process(noise_jpeg(restart_marker_blocks=1), "table.jpg")
    assert (kept.display.width, kept.display.height) == (96, 64)
