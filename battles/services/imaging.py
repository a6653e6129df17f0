"""A player's photo of the table made safe to keep (issue 45): read by its content, refused
with a message naming the file when it is not a plain JPEG, PNG or WebP photo, and re-encoded
from its pixels alone into a display size and a thumbnail, so no metadata survives (EXIF with
the GPS position of the player's house, XMP, IPTC, the camera's serial number, embedded
thumbnails, comments, colour profiles: the colours are turned into sRGB first).

Pure Pillow, no Django: the limits come in as ``Limits``. The original upload is never kept;
the caller stores the two renditions (``battles.services.photos``).

Why each refusal (docs/security.md, "Uploads"): the type is read from the bytes, never the
name, so an HTML page or an SVG (which can carry script) named ``.jpg`` is refused; a file with
bytes after its image's end (a JPEG with a ZIP or a ``<script>`` joined to it: a polyglot) is
refused, though nothing of it would be kept, so the site never holds or answers with such a
file; a file declaring more pixels than ``max_pixels`` is refused from its header, before a
pixel is decoded (a decompression bomb: a few kilobytes that would take gigabytes). HEIC is
refused with a word on how to share it as a JPEG (docs/tabletop.md says why).
"""

from __future__ import annotations

import io
import re
import struct
import threading
from dataclasses import dataclass

from PIL import Image, ImageCms, ImageOps

DISPLAY_SIDE = 1600  # the longest side of the display size, in pixels
THUMB_SIDE = 400  # the longest side of the thumbnail
DISPLAY_QUALITY = 85
THUMB_QUALITY = 80

# The formats kept, by their magic bytes, and the name Pillow gives each.
FORMATS = {"JPEG": "JPEG", "PNG": "PNG", "WEBP": "WEBP"}
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs",
                b"mif1", b"msf1", b"avif", b"avis"}  # fmt: skip


class PhotoRefused(ValueError):
    """An upload the site will not keep; the message names the file and says why."""


@dataclass(frozen=True)
class Limits:
    """The limits of one file (settings PHOTO_MAX_BYTES and PHOTO_MAX_PIXELS)."""

    max_bytes: int = 15 * 1024 * 1024
    max_pixels: int = 40_000_000


@dataclass(frozen=True)
class Rendition:
    """A JPEG made from pixels only: its bytes and its size."""

    data: bytes
    width: int
    height: int


@dataclass(frozen=True)
class Processed:
    """What is kept of one upload: the display size and the thumbnail; ``kind`` is the format
    it came in."""

    display: Rendition
    thumbnail: Rendition
    kind: str


def megabytes(size: int) -> str:
    """``megabytes(15 * 1024 * 1024)`` is ``"15 MB"``; ``megabytes(1572864)`` is ``"1.5 MB"``;
    below a megabyte, kilobytes (``"600 kB"``) or bytes."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} kB"
    value = size / (1024 * 1024)
    return f"{value:.0f} MB" if value == int(value) else f"{value:.1f} MB"


def sniff(data: bytes) -> str:
    """The kind of file the bytes are, by their first bytes alone: "JPEG", "PNG", "WEBP",
    "HEIC", "SVG", "HTML", or "" for anything else.

    >>> sniff(b"\\xff\\xd8\\xff\\xe0...")
    'JPEG'
    >>> sniff(b"  <!DOCTYPE html><html>")
    'HTML'
    """
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "HEIC"
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"<"):
        if b"<svg" in head:
            return "SVG"
        if b"<html" in head or head.startswith(b"<!doctype html"):
            return "HTML"
        if head.startswith(b"<?xml"):
            return "SVG" if b"svg" in head else ""
        return "HTML"
    return ""


# ---- the end of the image ------------------------------------------------------------------


# The JPEG's markers are followed by regular expressions, so that the bytes are read by the
# regex engine in C, not one by one in Python (a refused 15 MB file took 1-2.5 s; now at most
# some 0.2 s, bench/photo_bench.py). The decisions are those of the byte loop this replaced
# (kept in tests/battles/jpeg_reference.py, and held to it by tests/battles/test_jpeg_scan.py):
# a marker is 0xFF, any number of 0xFF fill bytes more, and its code; the codes 0x01 and RST0-7
# (0xD0-0xD7) have no length; every other code but EOI (0xD9) is followed by a two-byte length
# counting itself; after SOS (0xDA) comes entropy-coded data, where 0xFF is followed by 0x00
# (a stuffed byte), an RST or more 0xFF, up to the next marker.
_ENTROPY = rb"[^\xff]*+(?:\xff++[\x00\xd0-\xd7][^\xff]*+)*+"
# A segment of a length below 256, written out length by length: a file of millions of tiny
# segments (4 bytes each) is walked in C too; a longer segment is one step of the loop in
# Python, and a 15 MB file holds at most some 60,000 of those.
_SHORT = (
    b"\\x00(?:"
    + b"|".join(
        b"\\x%02x" % length + (b".{%d}" % (length - 2) if length > 2 else b"")
        for length in range(2, 256)
    )
    + b")"
)
_UNIT = (
    rb"\xff++(?:[\x01\xd0-\xd7]|[^\x01\xd0-\xd7\xd9\xda\xff]" + _SHORT
    + rb"|\xda" + _SHORT + _ENTROPY + rb")"
)  # fmt: skip
_UNITS = re.compile(rb"(?:" + _UNIT + rb"){1,4096}+", re.DOTALL)  # at most 4096 a call
_FILL = re.compile(rb"\xff+")
_ENTROPY_DATA = re.compile(_ENTROPY)


def _jpeg_end(data: bytes, start: int = 0) -> int:
    """The offset just after the EOI marker of the JPEG starting at ``start``, following its
    segments by their lengths (so an embedded EXIF thumbnail's own EOI is skipped) and its
    entropy-coded data to the next marker. ValueError if it never ends.

    >>> jpeg = b"\\xff\\xd8\\xff\\xe0\\x00\\x04ab\\xff\\xda\\x00\\x02\\x12\\xff\\x00\\xff\\xd9"
    >>> _jpeg_end(jpeg + b"tail") == len(jpeg)
    True
    """
    if data[start : start + 2] != b"\xff\xd8":
        raise ValueError("no SOI")
    i = start + 2
    n = len(data)
    while i < n:
        run = _UNITS.match(data, i)  # whole short segments and markers, as many as follow
        if run is not None:
            i = run.end()
            continue
        if data[i] != 0xFF:
            raise ValueError("not a marker")
        i = _FILL.match(data, i).end()  # type: ignore[union-attr]
        if i >= n:
            break
        marker = data[i]
        i += 1
        if marker == 0xD9:  # EOI
            return i
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # no length (_UNITS takes these first)
            continue
        if i + 2 > n:
            break
        (length,) = struct.unpack(">H", data[i : i + 2])
        i += length
        if marker == 0xDA and i < n:  # SOS: entropy-coded data up to the next marker
            i = _ENTROPY_DATA.match(data, i).end()  # type: ignore[union-attr]
    raise ValueError("no EOI")


# ---- Pillow's steps in Python ---------------------------------------------------------------

# Pillow reads a JPEG's markers before its picture data, and every chunk of a PNG, in Python: a
# step for each skipped byte (0xFF fill bytes, junk), each marker and segment, each chunk. A
# camera's photo takes some dozens (a PNG's data chunks are 8-64 kB each); 15 MB of fill bytes
# or of 4-byte segments took 3.5-6 s and up to 440 MB (each APP segment kept in a list), and
# were kept. Refused beyond this, counted before Pillow is called.
MOST_STEPS = 65_536
_NO_LENGTH = frozenset([0xC8, *range(0xD0, 0xDA), *range(0xF0, 0xFE)])  # Pillow's MARKER table


def _jpeg_steps(data: bytes, most: int) -> int:
    """The steps Pillow's JPEG reader takes in Python before the picture data (its first SOS),
    as ``JpegImageFile._open`` takes them; counted up to ``most + 1``.

    >>> _jpeg_steps(b"\\xff\\xd8" + b"\\xff" * 5 + b"\\xe0\\x00\\x04ab\\xff\\xda\\x00\\x02", 100)
    6
    """
    i, n, steps = 2, len(data), 0
    while i + 1 < n and steps <= most:
        steps += 1
        code = data[i + 1]
        if data[i] != 0xFF or code == 0xFF:  # junk, or fill: one byte a step
            i += 1
        elif code == 0x00 or code in _NO_LENGTH:
            i += 2
        elif code < 0xC0 or code == 0xDA:  # Pillow stops: no marker, or the picture data
            break
        else:
            i += 2 + max(2, int.from_bytes(data[i + 2 : i + 4], "big"))
    return steps


def _png_steps(data: bytes, most: int) -> int:
    """The chunks of a PNG to its IEND (Pillow reads each in Python), counted up to
    ``most + 1``."""
    i, n, steps = 8, len(data), 0
    while i + 8 <= n and steps <= most:
        steps += 1
        if data[i + 4 : i + 8] == b"IEND":
            break
        i += 12 + int.from_bytes(data[i : i + 4], "big")
    return steps


def _refuse_many_steps(name: str, data: bytes, kind: str) -> None:
    count = {"JPEG": _jpeg_steps, "PNG": _png_steps}.get(kind)
    if count is not None and count(data, MOST_STEPS) > MOST_STEPS:
        what = (
            "markers and filler bytes before its picture (a camera's photo holds a few dozen)"
            if kind == "JPEG"
            else "chunks (a photo holds a few thousand at most)"
        )
        raise PhotoRefused(
            f"“{name}” holds more than {MOST_STEPS:,} {what}, so it is not read. Add the photo"
            " as the camera made it."
        )


def _png_end(data: bytes) -> int:
    """The offset just after the IEND chunk, walking the chunks by their lengths."""
    i = 8
    while i + 8 <= len(data):
        (length,) = struct.unpack(">I", data[i : i + 4])
        kind = data[i + 4 : i + 8]
        i += 12 + length
        if kind == b"IEND":
            return i
    raise ValueError("no IEND")


def _webp_end(data: bytes) -> int:
    """The offset just after the RIFF container, as its header declares (padded to even)."""
    (size,) = struct.unpack("<I", data[4:8])
    return 8 + size + (size & 1)


def _trailer(data: bytes, kind: str) -> bytes:
    """What follows the image's end. A JPEG may be followed by further whole JPEGs (the
    Multi-Picture Format of phones' HDR gain maps, each followed to its own end); zero bytes of
    padding are allowed."""
    try:
        if kind == "JPEG":
            end = _jpeg_end(data)
            while data[end : end + 2] == b"\xff\xd8":
                end = _jpeg_end(data, end)
        elif kind == "PNG":
            end = _png_end(data)
        else:
            end = _webp_end(data)
    except (ValueError, struct.error):
        return b""  # cut short: Pillow's reading says so, with its own message
    rest = data[end:]
    return rest if rest.strip(b"\x00") else b""


# ---- reading and re-encoding ---------------------------------------------------------------


def _refuse_by_kind(name: str, kind: str) -> None:
    if kind == "HEIC":
        raise PhotoRefused(
            f"“{name}” is a HEIC photo, which the site does not read. Share it as a JPEG: on an"
            " iPhone, choose it from the photo library in this form (the phone converts it), or"
            " set Settings › Camera › Formats to “Most Compatible”."
        )
    if kind == "SVG":
        raise PhotoRefused(
            f"“{name}” is an SVG drawing, not a photo: only JPEG, PNG and WebP photos are kept."
        )
    if kind == "HTML":
        raise PhotoRefused(
            f"“{name}” is a web page (HTML), not a photo, whatever its name says: only JPEG, PNG"
            " and WebP photos are kept."
        )
    if kind not in FORMATS:
        raise PhotoRefused(
            f"“{name}” is not a JPEG, PNG or WebP photo (read from its content, not its name)."
        )


def _at_most(image: Image.Image, side: int) -> Image.Image:
    """``image`` (loaded) at most ``side`` pixels on its longest side, made smaller in place
    (``thumbnail``: reduced by a whole factor first, then Lanczos), its ``info`` (the EXIF
    orientation, the ICC profile) kept. A palette or bilevel image is turned RGB(A) first:
    Pillow resizes those by the nearest pixel only."""
    if max(image.size) <= side:
        return image
    if image.mode in ("P", "PA", "1"):
        clear = image.mode == "PA" or "transparency" in image.info
        image = image.convert("RGBA" if clear else "RGB")
    image.thumbnail((side, side), Image.Resampling.LANCZOS)
    return image


def _to_srgb(image: Image.Image) -> Image.Image:
    """RGB pixels in sRGB: a phone's Display P3 or Adobe RGB profile is applied, not dropped
    (dropping it would dull the colours); transparency is laid on white."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        back = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(back, rgba)
    icc = image.info.get("icc_profile")
    if icc and image.mode in ("RGB", "RGBA", "CMYK"):
        try:
            converted = ImageCms.profileToProfile(
                image,
                ImageCms.ImageCmsProfile(io.BytesIO(icc)),
                ImageCms.createProfile("sRGB"),
                outputMode="RGB",
            )
            if converted is not None:
                return converted
        except (ImageCms.PyCMSError, OSError, ValueError):
            pass  # a broken profile: the pixels as they are
    return image.convert("RGB")


def _encode(image: Image.Image, side: int, quality: int) -> Rendition:
    """A JPEG of the pixels alone, its longest side at most ``side``: a new image is made from
    the raw pixels, so nothing of the source's ``info`` (EXIF, XMP, ICC, comments) can follow."""
    small = image.copy()
    small.thumbnail((side, side), Image.Resampling.LANCZOS)
    clean = Image.frombytes("RGB", small.size, small.tobytes())
    out = io.BytesIO()
    clean.save(out, "JPEG", quality=quality, optimize=True, progressive=True)
    return Rendition(data=out.getvalue(), width=clean.width, height=clean.height)


def process(data: bytes, name: str, limits: Limits = Limits()) -> Processed:
    """Read one upload and make its display size and thumbnail; PhotoRefused, with a message
    naming the file, for anything the site will not keep. The orientation the phone meant (its
    EXIF Orientation) is applied to the pixels before the metadata is dropped."""
    if not data:
        raise PhotoRefused(f"“{name}” is empty.")
    if len(data) > limits.max_bytes:
        raise PhotoRefused(too_large(name, len(data), limits))
    kind = sniff(data)
    _refuse_by_kind(name, kind)
    _refuse_many_steps(name, data, kind)
    extra = _trailer(data, kind)
    if extra:
        if extra[4:8] == b"ftyp":
            raise PhotoRefused(
                f"“{name}” is a motion photo (a video is joined after the picture). Share it as a"
                " still photo, or turn off motion for it, and add it again."
            )
        raise PhotoRefused(
            f"“{name}” has {len(extra)} bytes of something else joined after the end of its"
            " picture (another file hidden in it), so it is not kept. Add the photo as the"
            " camera made it."
        )
    with _DECODING:
        return _decoded(data, name, kind, limits)


# One photo decoded at a time in a process: a web process serves several requests at once
# (gunicorn's threads), and a photo's pixels are its largest memory (160 MB for a 40-megapixel
# PNG with transparency, decoded whole), where the uploads of a battle may come together.
_DECODING = threading.Lock()


def _decoded(data: bytes, name: str, kind: str, limits: Limits) -> Processed:
    try:
        image = Image.open(io.BytesIO(data), formats=[FORMATS[kind]])
    except Image.DecompressionBombError:
        raise PhotoRefused(_too_many_pixels(name, None, limits)) from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise PhotoRefused(f"“{name}” could not be read as a {kind} photo ({exc}).") from None
    with image:
        if image.width * image.height > limits.max_pixels:
            raise PhotoRefused(_too_many_pixels(name, image.size, limits))
        try:
            if kind == "JPEG":
                # Decode at the smallest scale (1/2, 1/4, 1/8) still larger than the display.
                ratio = DISPLAY_SIDE / max(image.size)
                image.draft("RGB", (int(image.width * ratio) + 1, int(image.height * ratio) + 1))
            image.load()
            # Made small first (in place), turned upright and to sRGB after: each full-size
            # copy those made cost the upload's pixels (a 40-megapixel PNG with transparency
            # took some 720 MB), where a display's are enough. Scaling to fit a square box
            # gives the same pixels before the turn as after it.
            upright = ImageOps.exif_transpose(_at_most(image, DISPLAY_SIDE))
            rgb = _to_srgb(upright)
        except Image.DecompressionBombError:
            raise PhotoRefused(_too_many_pixels(name, image.size, limits)) from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise PhotoRefused(
                f"“{name}” could not be read as a {kind} photo: it may be damaged or cut short"
                f" ({exc})."
            ) from None
    return Processed(
        display=_encode(rgb, DISPLAY_SIDE, DISPLAY_QUALITY),
        thumbnail=_encode(rgb, THUMB_SIDE, THUMB_QUALITY),
        kind=kind,
    )


def too_large(name: str, size: int, limits: Limits) -> str:
    """The message for a file above ``limits.max_bytes``, which is refused unread."""
    return (
        f"“{name}” is {megabytes(size)}; a photo may be at most {megabytes(limits.max_bytes)}."
        " Share it at a smaller size (phones offer it)."
    )


def _too_many_pixels(name: str, size: tuple[int, int] | None, limits: Limits) -> str:
    most = f"{limits.max_pixels / 1_000_000:g}"
    if size is None:
        return (
            f"“{name}” declares far more pixels than any photo (a decompression bomb?); a photo"
            f" may be at most {most} megapixels."
        )
    width, height = size
    return (
        f"“{name}” is {width * height / 1_000_000:.0f} megapixels ({width}×{height}); a photo"
        f" may be at most {most} megapixels. Share it at a smaller size."
    )
