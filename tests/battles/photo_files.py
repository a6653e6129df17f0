"""Files for the photos' tests (issue 45), made in the test: a phone's JPEG with every kind of
metadata a phone writes (GPS position, camera serial number, XMP, an embedded thumbnail, the
orientation), and the bad files an attacker sends (a decompression bomb, polyglots, an SVG, an
HTML page named ``.jpg``, a 60-megapixel photo)."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

from PIL import Image, ImageDraw

SERIAL = "SN-7Y3K-55012"
XMP = (
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-'
    b'syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude='
    b'"52,31.2N"/></rdf:RDF></x:xmpmeta>'
)
# Where the player lives: 52°31'12" N, 13°24'0" E.
LATITUDE = ((52, 1), (31, 1), (12, 1))
LONGITUDE = ((13, 1), (24, 1), (0, 1))

_ASCII, _SHORT, _LONG, _RATIONAL = 2, 3, 4, 5
_SIZES = {_ASCII: 1, _SHORT: 2, _LONG: 4, _RATIONAL: 8}


def _pack(kind: int, value) -> tuple[int, bytes]:
    if kind == _ASCII:
        data = value.encode() + b"\0"
        return len(data), data
    if kind == _SHORT:
        return 1, struct.pack("<H", value)
    if kind == _LONG:
        return 1, struct.pack("<I", value)
    return len(value), b"".join(struct.pack("<II", n, d) for n, d in value)


def _ifd(entries: list[tuple[int, int, object]], offset: int, next_ifd: int = 0) -> bytes:
    """One little-endian TIFF IFD at ``offset``, its long values right after it."""
    head = struct.pack("<H", len(entries))
    data_at = offset + 2 + 12 * len(entries) + 4
    body, extra = b"", b""
    for tag, kind, value in sorted(entries, key=lambda e: e[0]):
        count, packed = _pack(kind, value)
        if len(packed) <= 4:
            body += struct.pack("<HHI", tag, kind, count) + packed.ljust(4, b"\0")
        else:
            body += struct.pack("<HHII", tag, kind, count, data_at + len(extra))
            extra += packed + (b"\0" if len(packed) % 2 else b"")
    return head + body + struct.pack("<I", next_ifd) + extra


def _ifd_size(entries) -> int:
    return len(_ifd(entries, 0))


def exif_block(orientation: int, thumbnail: bytes) -> bytes:
    """The APP1 ``Exif`` payload a phone writes: make, model, orientation, the camera's serial
    number, the GPS position, and a JPEG thumbnail in IFD1."""
    gps = [(1, _ASCII, "N"), (2, _RATIONAL, LATITUDE), (3, _ASCII, "E"), (4, _RATIONAL, LONGITUDE)]
    exif = [(0xA431, _ASCII, SERIAL)]
    ifd0 = [(0x010F, _ASCII, "Phonemaker"), (0x0110, _ASCII, "Pocket 15 Pro"),
            (0x0112, _SHORT, orientation), (0x8769, _LONG, 0), (0x8825, _LONG, 0)]  # fmt: skip
    ifd1 = [(0x0201, _LONG, 0), (0x0202, _LONG, len(thumbnail))]
    at_ifd0 = 8
    at_exif = at_ifd0 + _ifd_size(ifd0)
    at_gps = at_exif + _ifd_size(exif)
    at_ifd1 = at_gps + _ifd_size(gps)
    at_thumb = at_ifd1 + _ifd_size(ifd1)
    ifd0 = [e for e in ifd0 if e[0] not in (0x8769, 0x8825)]
    ifd0 += [(0x8769, _LONG, at_exif), (0x8825, _LONG, at_gps)]
    ifd1 = [(0x0201, _LONG, at_thumb), (0x0202, _LONG, len(thumbnail))]
    tiff = (
        b"II*\0"
        + struct.pack("<I", at_ifd0)
        + _ifd(ifd0, at_ifd0, next_ifd=at_ifd1)
        + _ifd(exif, at_exif)
        + _ifd(gps, at_gps)
        + _ifd(ifd1, at_ifd1)
        + thumbnail
    )
    return b"Exif\0\0" + tiff


def _segment(marker: int, payload: bytes) -> bytes:
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def jpeg(size=(64, 32), colour=(200, 30, 30), **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", **save)
    return out.getvalue()


def table(size=(1600, 1200), seed: int = 0) -> Image.Image:
    """A miniatures table seen from above: green cloth, a road, a hill, a wood, and two lines of
    units (blue on the left, white on the right), so a screenshot shows a photo of a battle.
    ``seed`` shifts the units, to tell two photos apart."""
    width, height = size
    image = Image.new("RGB", size, (86, 120, 62))
    draw = ImageDraw.Draw(image)
    draw.ellipse((width * 0.55, height * 0.1, width * 0.95, height * 0.45), fill=(120, 140, 70))
    draw.ellipse((width * 0.05, height * 0.6, width * 0.3, height * 0.95), fill=(40, 80, 40))
    draw.line((0, height * 0.52, width, height * 0.4), fill=(160, 130, 90), width=height // 25)
    block = (width // 16, height // 24)
    for i in range(6):
        for colour, x in (((40, 60, 150), 0.25), ((235, 235, 225), 0.68)):
            left = int(width * x + (seed * 17 + i * 7) % 40)
            top = int(height * (0.15 + i * 0.12))
            draw.rectangle((left, top, left + block[0], top + block[1]), fill=colour,
                           outline=(20, 20, 20), width=3)  # fmt: skip
    return image


def phone_jpeg(size=(640, 320), orientation: int = 1, picture: Image.Image | None = None) -> bytes:
    """A phone's photo: the left half red, the right half blue (to see a rotation), or
    ``picture``; with EXIF (GPS, serial, orientation, thumbnail), XMP and a comment."""
    if picture is not None:
        image = picture.convert("RGB")
    else:
        image = Image.new("RGB", size, (220, 20, 20))
        image.paste((20, 20, 220), (size[0] // 2, 0, size[0], size[1]))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    plain = out.getvalue()
    thumb = jpeg((32, 16), (250, 250, 0))
    inserted = (
        _segment(0xE1, exif_block(orientation, thumb))
        + _segment(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + XMP)
        + _segment(0xFE, b"Taken at home, 12 Linden Street")
    )
    return plain[:2] + inserted + plain[2:]


def png(size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, (0, 128, 0, 128)).save(out, "PNG")
    return out.getvalue()


def webp(size=(40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (0, 0, 128)).save(out, "WEBP")
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png_bomb(side: int = 100_000) -> bytes:
    """A PNG that declares ``side``×``side`` pixels (10 gigapixels) of one grey, compressed to
    a few kilobytes: what a decompression bomb looks like."""
    ihdr = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    rows = zlib.compressobj(9)
    data = b""
    line = b"\0" + b"\0" * side
    for _ in range(50):  # the first rows are enough to show the trick
        data += rows.compress(line)
    data += rows.flush()
    chunks = _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def zip_bytes() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("payload.html", "<script>alert(1)</script>")
    return out.getvalue()


SVG = (
    b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(document.cookie)</script></svg>"
)
HTML = b"<!DOCTYPE html>\n<html><body><script>fetch('/steal')</script></body></html>"


def sixty_megapixels() -> bytes:
    """A 7800×7800 photo (60.8 megapixels): one colour, so it is small to make and to send."""
    return jpeg((7800, 7800), (90, 90, 90), quality=50)
