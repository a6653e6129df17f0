"""A player's photo made safe to keep (issue 45, ``battles.services.imaging``): every bad file
refused with its own message naming it, and nothing of a phone's metadata left in what is
kept, while the orientation the phone meant is."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from battles.services import imaging
from tests.battles import photo_files as files

pytestmark = pytest.mark.pure


LIMITS = imaging.Limits()  # 15 MB, 40 megapixels


def refusal(data: bytes, name: str, limits: imaging.Limits = LIMITS) -> str:
    with pytest.raises(imaging.PhotoRefused) as caught:
        imaging.process(data, name, limits)
    return str(caught.value)


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        (
            "bomb.png",
            files.png_bomb,
            "“bomb.png” declares far more pixels than any photo (a decompression bomb?); a photo"
            " may be at most 40 megapixels.",
        ),
        (
            "table.jpg",
            lambda: files.jpeg() + files.zip_bytes(),
            "has {n} bytes of something else joined after the end of its picture",
        ),
        (
            "table.jpg",
            lambda: files.jpeg() + b"<script>alert(1)</script>",
            "“table.jpg” has 25 bytes of something else joined after the end of its picture"
            " (another file hidden in it), so it is not kept. Add the photo as the camera made"
            " it.",
        ),
        (
            "map.svg",
            lambda: files.SVG,
            "“map.svg” is an SVG drawing, not a photo: only JPEG, PNG and WebP photos are kept.",
        ),
        (
            "photo.jpg",
            lambda: files.HTML,
            "“photo.jpg” is a web page (HTML), not a photo, whatever its name says: only JPEG,"
            " PNG and WebP photos are kept.",
        ),
        (
            "huge.jpg",
            files.sixty_megapixels,
            "“huge.jpg” is 61 megapixels (7800×7800); a photo may be at most 40 megapixels."
            " Share it at a smaller size.",
        ),
        (
            "notes.jpg",
            lambda: b"just some text, no picture",
            "“notes.jpg” is not a JPEG, PNG or WebP photo (read from its content, not its name).",
        ),
        (
            "IMG_0001.HEIC",
            lambda: b"\0\0\0\x18ftypheic\0\0\0\0mif1heic" + b"\0" * 64,
            "“IMG_0001.HEIC” is a HEIC photo, which the site does not read. Share it as a JPEG",
        ),
        (
            "empty.jpg",
            lambda: b"",
            "“empty.jpg” is empty.",
        ),
    ],
)
def test_it_refuses_each_bad_file_with_its_own_message(name, make, message):
    data = make()
    got = refusal(data, name)
    if "{n}" in message:
        message = message.format(n=len(files.zip_bytes()))
    assert message in got
    assert f"“{name}”" in got


def test_it_refuses_a_png_with_data_after_its_iend():
    got = refusal(files.png() + files.zip_bytes(), "board.png")
    assert "joined after the end of its picture" in got


def test_it_refuses_a_webp_with_data_after_its_container():
    got = refusal(files.webp() + b"<script>x</script>", "board.webp")
    assert "joined after the end of its picture" in got


def test_it_names_a_motion_photo_for_what_it_is():
    video = b"\0\0\0\x18ftypmp42" + b"\0" * 40
    assert "is a motion photo" in refusal(files.jpeg() + video, "PXL_MP.jpg")


def test_it_refuses_a_file_above_the_size_limit_unread():
    got = refusal(files.jpeg(), "big.jpg", imaging.Limits(max_bytes=100))
    assert got.startswith("“big.jpg” is ") and got.endswith(
        "bytes; a photo may be at most 100 bytes. Share it at a smaller size (phones offer it)."
    )
    assert imaging.too_large("big.jpg", 16 * 1024 * 1024, imaging.Limits()) == (
        "“big.jpg” is 16 MB; a photo may be at most 15 MB. Share it at a smaller size (phones"
        " offer it)."
    )


def test_a_cut_short_photo_is_refused_not_half_kept():
    data = files.phone_jpeg()
    got = refusal(data[: len(data) // 2], "cut.jpg")
    assert got.startswith("“cut.jpg” could not be read as a JPEG photo")


@pytest.mark.parametrize("make", [files.jpeg, files.png, files.webp])
def test_it_keeps_jpeg_png_and_webp(make):
    done = imaging.process(make(), "ok")
    assert done.display.data[:3] == b"\xff\xd8\xff"
    assert Image.open(io.BytesIO(done.display.data)).format == "JPEG"


def test_an_mpf_photo_with_a_second_whole_jpeg_is_kept():
    """Phones' HDR photos carry a gain map as a second JPEG after the first (MPF)."""
    done = imaging.process(files.jpeg() + files.jpeg((8, 8)), "hdr.jpg")
    assert (done.display.width, done.display.height) == (64, 32)


def test_the_phones_metadata_is_gone_from_both_sizes():
    data = files.phone_jpeg()
    source = Image.open(io.BytesIO(data))
    assert source.getexif().get_ifd(0x8825)  # the GPS position is there before
    assert files.SERIAL.encode() in data and b"<x:xmpmeta" in data
    done = imaging.process(data, "IMG_2041.jpg")
    for kept in (done.display.data, done.thumbnail.data):
        image = Image.open(io.BytesIO(kept))
        assert not image.getexif()
        assert "exif" not in image.info and "xmp" not in image.info
        assert "icc_profile" not in image.info and "comment" not in image.info
        assert b"Exif\0\0" not in kept
        assert b"<x:xmpmeta" not in kept and b"http://ns.adobe.com/xap" not in kept
        assert b"GPS" not in kept and files.SERIAL.encode() not in kept
        assert b"Phonemaker" not in kept and b"Linden" not in kept
        assert kept.count(b"\xff\xd8") == 1  # no embedded thumbnail: one image only


def test_the_orientation_the_phone_meant_is_kept():
    """Orientation 6: the camera held upright; the stored picture is turned to stand upright,
    the red half (the left of the sensor) now at the top."""
    done = imaging.process(files.phone_jpeg((640, 320), orientation=6), "upright.jpg")
    assert (done.display.width, done.display.height) == (320, 640)
    image = Image.open(io.BytesIO(done.display.data)).convert("RGB")
    top = image.getpixel((160, 100))
    bottom = image.getpixel((160, 540))
    assert top[0] > 150 and top[2] < 100  # red
    assert bottom[2] > 150 and bottom[0] < 100  # blue


def test_the_sizes_are_the_display_and_the_thumbnail():
    done = imaging.process(files.jpeg((4000, 3000)), "big.jpg")
    assert (done.display.width, done.display.height) == (1600, 1200)
    assert (done.thumbnail.width, done.thumbnail.height) == (400, 300)


def _png(image: Image.Image, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", **options)
    return out.getvalue()


def _middle_and_corner(rendition) -> tuple:
    image = Image.open(io.BytesIO(rendition.data)).convert("RGB")
    return image.getpixel((image.width // 2, image.height // 2)), image.getpixel((2, 2))


def _near(pixel, colour, by: int = 40) -> bool:
    return all(abs(a - b) <= by for a, b in zip(pixel, colour, strict=True))


def test_a_large_transparent_png_is_made_small_and_laid_on_white():
    """The display size is made before the transparency is laid on white (a full-size copy of
    each step cost some 720 MB for 40 megapixels): the same picture comes out."""
    image = Image.new("RGBA", (4000, 3000), (0, 0, 0, 0))
    image.paste((200, 20, 20, 255), (1000, 750, 3000, 2250))
    done = imaging.process(_png(image), "clear.png")
    assert (done.display.width, done.display.height) == (1600, 1200)
    assert (done.thumbnail.width, done.thumbnail.height) == (400, 300)
    for rendition in (done.display, done.thumbnail):
        middle, corner = _middle_and_corner(rendition)
        assert _near(middle, (200, 20, 20)) and _near(corner, (255, 255, 255)), (middle, corner)


def test_a_large_palette_png_keeps_its_colours_and_its_clear_index():
    image = Image.new("P", (2400, 1200), 0)
    image.putpalette([0, 0, 0, 20, 40, 210] + [0] * 762)
    image.paste(1, (600, 300, 1800, 900))
    done = imaging.process(_png(image, transparency=0), "palette.png")
    assert (done.display.width, done.display.height) == (1600, 800)
    middle, corner = _middle_and_corner(done.display)
    assert _near(middle, (20, 40, 210)) and _near(corner, (255, 255, 255)), (middle, corner)


@pytest.mark.parametrize("mode", ["1", "L", "LA", "I;16", "RGB", "CMYK"])
def test_a_large_image_of_any_mode_is_made_small(mode):
    image = Image.new(mode, (3200, 2000))
    if mode == "CMYK":
        out = io.BytesIO()
        image.save(out, "JPEG")
        data, name = out.getvalue(), "print.jpg"
    else:
        data, name = _png(image), "scan.png"
    done = imaging.process(data, name)
    assert (done.display.width, done.display.height) == (1600, 1000)


def _png_with_chunks(count: int) -> bytes:
    """A small PNG with ``count`` empty ancillary chunks after its header."""
    plain = files.png()
    return plain[:33] + files._chunk(b"abCd", b"") * count + plain[33:]


def _jpeg_with_fill(count: int) -> bytes:
    plain = files.jpeg()
    return plain[:2] + b"\xff" * count + plain[2:]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: _jpeg_with_fill(70_000),
            "markers and filler bytes before its picture (a camera's photo holds a few dozen)",
        ),
        (
            lambda: files.jpeg()[:2] + b"\xff\xe0\x00\x02" * 70_000 + files.jpeg()[2:],
            "markers and filler bytes before its picture (a camera's photo holds a few dozen)",
        ),
        (lambda: _png_with_chunks(70_000), "chunks (a photo holds a few thousand at most)"),
    ],
    ids=["fill bytes", "empty segments", "empty chunks"],
)
def test_a_file_pillow_would_read_step_by_step_is_refused_before_it_is(make, message):
    """Pillow reads a JPEG's markers before its picture, and a PNG's chunks, in Python: 15 MB
    of fill bytes or 4-byte segments held it 3.5-6 s (and 440 MB), and the photo was kept."""
    assert refusal(make(), "steps.jpg") == (
        f"“steps.jpg” holds more than 65,536 {message}, so it is not read. Add the photo as"
        " the camera made it."
    )


@pytest.mark.parametrize(
    "make", [lambda: _jpeg_with_fill(60_000), lambda: _png_with_chunks(60_000)], ids=["jpeg", "png"]
)
def test_a_file_within_the_steps_is_read_as_before(make):
    done = imaging.process(make(), "steps.jpg")
    assert done.display.width in (64, 40)


def test_a_cameras_photo_takes_a_few_dozen_steps():
    assert imaging._jpeg_steps(files.phone_jpeg((4032, 3024)), imaging.MOST_STEPS) < 20
    assert imaging._png_steps(files.png((2000, 1500)), imaging.MOST_STEPS) < 20
