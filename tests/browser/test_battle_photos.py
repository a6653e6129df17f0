# ruff: noqa: F811 (pytest fixtures imported from other test modules)
"""The photos of the table and the sides' accounts on a phone (issue 45, docs/tabletop.md
"Photos and accounts of the battle"): Debian's chromium at 390x844 against the live server.

The battle is the engine's (``tests.battles.test_battles``: Frederick marches on the Austrians
and fights): ``player`` leads the Prussian side, ``other`` the Austrian, ``ally`` (Hanover) is
not in it. The Prussian picks three files at once (a phone's JPEG with the GPS position of his
house among them), sees them go up with the progress bar, captions, orders, removes one of his
own, writes his side's account and agrees to the gazette; the Austrian adds a photo and his
account. Before the result Hanover sees none of it, and its addresses answer 404; the result is
entered and confirmed on the page; then Hanover reads it all in the chronicle. The stored files
hold no metadata; the book of the season, printed by chromium, carries the best photo on the
battles' page, in A4 and in Letter.

Screenshots go to ``artifacts/``; with ``DGK_SCREENSHOTS=1`` also to ``docs/screenshots/``
(battle-photos.png, chronicle-photos.png, book-photo-a4.png, book-photo-letter.png).
"""

import io
import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.files.storage import storages
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from battles.models import BattlePhoto, BattleStatus
from battles.services.printing import chromium
from campaign.services import organiser as organiser_service
from tests.battles import photo_files as files
from tests.battles.test_battles import battle, battle_map, campaign  # noqa: F401
from tests.browser.test_pages_fit import CUT_OFF
from tests.browser.test_play_phone import ARTIFACTS, browser, sign_in  # noqa: F401
from tests.standing import ally, organiser, other, player  # noqa: F401
from tests.storage.folders import with_folders

pdfium = pytest.importorskip("pypdfium2")
pdfium_raw = pytest.importorskip("pypdfium2.raw")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = 390
THUMB = 44  # px: the least a thumb taps

# Before the upload: note in the tab's sessionStorage (it outlives the reload the script does
# once the photos are in) that the script sent them, and the progress bar's largest value.
WATCH_UPLOAD = """
const bar = document.querySelector('[data-photo-progress]');
sessionStorage.removeItem('photo-xhr'); sessionStorage.removeItem('photo-progress');
new MutationObserver(() => {
  if (bar.hidden) return;
  const seen = Number(sessionStorage.getItem('photo-progress') || -1);
  sessionStorage.setItem('photo-progress', String(Math.max(seen, Number(bar.value))));
}).observe(bar, {attributes: true});
const header = XMLHttpRequest.prototype.setRequestHeader;
XMLHttpRequest.prototype.setRequestHeader = function (name, value) {
  if (name === 'X-Photo-Upload') sessionStorage.setItem('photo-xhr', '1');
  return header.call(this, name, value);
};
"""
STATUS = """
const done = arguments[arguments.length - 1];
Promise.all(arguments[0].map(u => fetch(u, {credentials: 'same-origin'}).then(r => r.status)))
  .then(done);
"""
LOADED = "return Array.from(arguments[0]).every(i => i.complete && i.naturalWidth > 0);"


@pytest.fixture(autouse=True)
def photo_folder(settings, tmp_path):
    """The photos' storage in a folder of the test's own (the live server reads the same)."""
    settings.STORAGES = with_folders(photos=tmp_path / "photos")
    return tmp_path / "photos"


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))
    if os.environ.get("DGK_SCREENSHOTS") == "1":
        shutil.copy(ARTIFACTS / f"{name}.png", DOCS / f"{name}.png")


def fits(driver, where: str) -> None:
    """Nothing runs past the 390 px screen: no sideways scroll, nothing cut off at its edge."""
    width = driver.execute_script("return document.documentElement.scrollWidth;")
    assert width <= PHONE, f"{where}: {width} px wide"
    cut = driver.execute_script(CUT_OFF)
    assert not cut, f"{where}: cut off at the right edge: {cut[:3]}"


def big_enough(element, what: str) -> None:
    size = element.size
    assert size["height"] >= THUMB and size["width"] >= THUMB, (what, size)


def said(driver) -> str:
    found = driver.find_elements(By.CSS_SELECTOR, ".messages")
    return " ".join(m.text for m in found)


def open_page(driver, live_server, target: str) -> None:
    driver.get(live_server.url + target)


def tap(driver, wait, element) -> None:
    """Tap ``element`` (scrolled to the middle of the screen first: the sticky parts of the page
    must not take the tap) and wait for the page it brings."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    old = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait.until(lambda d: not _alive(old))
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def _alive(element) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        element.tag_name  # noqa: B018 (touches the element)
    except StaleElementReferenceException:
        return False
    return True


def in_photo(driver, photo: BattlePhoto, selector: str):
    return driver.find_element(By.CSS_SELECTOR, f"#photo-{photo.code} {selector}")


def result_text(driver) -> str:
    """The result's section as shown now (read in one step: htmx may be swapping it)."""
    return driver.execute_script(
        "const r = document.getElementById('result'); return r ? r.innerText : '';"
    )


def thumbnails(driver, selector: str = ".photo-grid img") -> list:
    images = driver.find_elements(By.CSS_SELECTOR, selector)
    for image in images:  # lazy: each is fetched once it comes near the screen
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", image)
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(LOADED, images))
    return images


def addresses(battle) -> list[str]:
    return [
        reverse("battles:photo_image", args=[battle.campaign.code, battle.code, p.code, kind])
        for p in battle.photos.all()
        for kind in ("thumb", "display")
    ]


def statuses(driver, urls: list[str]) -> list[int]:
    return driver.execute_async_script(STATUS, urls)


def phone_file(folder: Path, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)


def markers(data: bytes) -> list[int]:
    """The JPEG's segment markers up to the start of its picture data (SOS)."""
    found, at = [], 2
    while at < len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        found.append(marker)
        if marker == 0xDA:
            break
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return found


def gps_of(data: bytes) -> dict:
    return dict(Image.open(io.BytesIO(data)).getexif().get_ifd(0x8825))


def upload(driver, wait, paths: list[str]) -> None:
    """Pick ``paths`` at once in the file input, as the phone's gallery hands them, and send."""
    driver.execute_script(WATCH_UPLOAD)
    chooser = driver.find_element(By.ID, "id_photos")
    big_enough(chooser, "the file input")
    chooser.send_keys("\n".join(paths))
    button = driver.find_element(By.CSS_SELECTOR, "form[data-photo-upload] button[type=submit]")
    big_enough(button, "Add the photos")
    tap(driver, wait, button)
    assert driver.execute_script("return sessionStorage.getItem('photo-xhr');") == "1"
    progress = driver.execute_script("return sessionStorage.getItem('photo-progress');")
    assert progress is not None and 0 <= int(progress) <= 100, progress


def test_the_photos_and_accounts_of_a_battle_on_a_phone(
    browser, live_server, battle, organiser, player, other, ally, photo_folder, tmp_path
):
    campaign = battle.campaign
    page = reverse("battles:battle", args=[campaign.code, battle.code])
    chronicle = reverse("battles:chronicle", args=[campaign.code])
    wait = WebDriverWait(browser, 60)
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    at_home = files.phone_jpeg(picture=files.table((1600, 1200), seed=0))
    assert gps_of(at_home) and files.SERIAL.encode() in at_home  # the phone wrote where
    out = io.BytesIO()
    files.table((1400, 1050), seed=1).save(out, "PNG")
    picked = [
        phone_file(gallery, "IMG_2041.jpg", at_home),
        phone_file(gallery, "Screenshot_2042.png", out.getvalue()),
        phone_file(gallery, "IMG_2043.jpg", files.jpeg((800, 600), (120, 90, 60))),
    ]

    # ---- the Prussian: three photos at once, with the progress bar ----------------------------
    sign_in(browser, live_server, player)
    open_page(browser, live_server, page)
    assert "No photos yet." in browser.find_element(By.ID, "photos").text
    upload(browser, wait, picked)
    assert "3 photos added." in said(browser)
    assert len(thumbnails(browser)) == 3
    gps, screen, spare = list(battle.photos.all())
    assert [(p.width, p.height) for p in (gps, screen, spare)] == [
        (1600, 1200),
        (1400, 1050),
        (800, 600),
    ]
    fits(browser, "the battle page with three photos")

    # the caption, as typed on the phone
    field = in_photo(browser, gps, "textarea[name=caption]")
    field.send_keys("The Prussian left holds the hill at dusk")
    button = in_photo(browser, gps, "form button[type=submit]")
    big_enough(button, "Save caption")
    tap(browser, wait, button)
    assert "Caption saved." in said(browser)
    gps.refresh_from_db()
    assert gps.caption == "The Prussian left holds the hill at dusk"

    # the order: the first one down, then up again (the first is the book's photo)
    down = in_photo(browser, gps, "button[aria-label='Move this photo down']")
    big_enough(down, "Down")
    tap(browser, wait, down)
    assert [p.id for p in battle.photos.all()] == [screen.id, gps.id, spare.id]
    up = in_photo(browser, gps, "button[aria-label='Move this photo up']")
    big_enough(up, "Up")
    tap(browser, wait, up)
    assert [p.id for p in battle.photos.all()] == [gps.id, screen.id, spare.id]

    # one of his own removed, its files with it
    remove = in_photo(browser, spare, "button[aria-label='Remove this photo']")
    big_enough(remove, "Remove")
    tap(browser, wait, remove)
    assert "Photo removed." in said(browser)
    assert not BattlePhoto.objects.filter(id=spare.id).exists()
    assert not storages["photos"].exists(spare.display)
    assert len(thumbnails(browser)) == 2

    # his side's account, in two paragraphs
    text = browser.find_element(By.ID, "account-prussian")
    text.send_keys("We held the hill until the evening.\n\nAt dusk the Austrians left the field.")
    save = browser.find_element(By.CSS_SELECTOR, "#accounts form button[type=submit]")
    big_enough(save, "Save the account")
    tap(browser, wait, save)
    assert "Account saved." in said(browser)

    # the gazette: agreed, withdrawn, agreed again
    for expected in ({"prussian": True}, {}, {"prussian": True}):
        toggle = browser.find_element(
            By.CSS_SELECTOR, "#photos form[action*='consent'] button[type=submit]"
        )
        big_enough(toggle, "the gazette's consent")
        tap(browser, wait, toggle)
        battle.refresh_from_db()
        assert battle.gazette_consent == expected
    assert "the other side has not agreed yet" in browser.find_element(By.ID, "photos").text

    # ---- the Austrian: a photo and his account; he may not remove the Prussian's ---------------
    browser.delete_all_cookies()
    sign_in(browser, live_server, other)
    open_page(browser, live_server, page)
    assert len(thumbnails(browser)) == 2
    assert not browser.find_elements(
        By.CSS_SELECTOR, f"#photo-{gps.code} button[aria-label='Remove this photo']"
    )
    austrian = phone_file(
        gallery, "PXL_0503.jpg", files.phone_jpeg(picture=files.table((1500, 1000), seed=2))
    )
    upload(browser, wait, [austrian])
    assert "1 photo added." in said(browser)
    grenadiers = battle.photos.get(added_by=other)
    field = in_photo(browser, grenadiers, "textarea[name=caption]")
    field.send_keys("Daun's grenadiers in the wood")
    tap(browser, wait, in_photo(browser, grenadiers, "form button[type=submit]"))
    text = browser.find_element(By.ID, "account-austrian")
    text.send_keys("A retreat in good order.")
    tap(browser, wait, browser.find_element(By.CSS_SELECTOR, "#accounts form button"))
    assert "Account saved." in said(browser)
    assert len(thumbnails(browser)) == 3
    fits(browser, "the battle page, the Austrian's")

    # ---- Hanover, not in the battle, before the result: nothing --------------------------------
    browser.delete_all_cookies()
    sign_in(browser, live_server, ally)
    open_page(browser, live_server, chronicle)
    source = browser.page_source
    assert not browser.find_elements(By.CSS_SELECTOR, ".chronicle-photos")
    assert "/photos/" not in source and "held the hill" not in source
    assert "good order" not in source and "grenadiers" not in source
    fits(browser, "the chronicle, Hanover's before the result")
    assert set(statuses(browser, addresses(battle))) == {404}
    assert statuses(browser, [page]) == [403]

    # ---- the result, entered by the Prussian and confirmed by the Austrian ---------------------
    browser.delete_all_cookies()
    sign_in(browser, live_server, player)
    open_page(browser, live_server, page)
    Select(browser.find_element(By.CSS_SELECTOR, "#result select[name=loser]")).select_by_value(
        "austrian"
    )
    # (nothing is chosen for the player: the outcome too)
    Select(browser.find_element(By.CSS_SELECTOR, "#result select[name=outcome]")).select_by_value(
        "defeated"
    )
    for army, lost in (("prussia", "150"), ("austria", "600")):
        field = browser.find_element(By.CSS_SELECTOR, f"#result input[name=loss_{army}]")
        field.clear()
        field.send_keys(lost)
    enter = browser.find_element(By.XPATH, "//section[@id='result']//button[.='Enter the result']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", enter)
    enter.click()  # htmx swaps the result's section
    wait.until(lambda d: "Every entry of the result (1)" in result_text(d))
    battle.refresh_from_db()
    assert battle.status == BattleStatus.ENTERED
    browser.delete_all_cookies()
    sign_in(browser, live_server, other)
    open_page(browser, live_server, page)
    confirm = browser.find_element(By.XPATH, "//section[@id='result']//button[.='Confirm entry 1']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", confirm)
    confirm.click()
    wait.until(lambda d: not d.find_elements(By.XPATH, "//button[.='Confirm entry 1']"))
    battle.refresh_from_db()
    assert battle.status in (*BattleStatus.final(), BattleStatus.APPLIED), battle.status

    # ---- Hanover after the result: every photo and account in the chronicle -------------------
    browser.delete_all_cookies()
    sign_in(browser, live_server, ally)
    open_page(browser, live_server, chronicle)
    row = browser.find_element(By.ID, f"photos-{battle.code}")
    assert "The Prussian left holds the hill at dusk" in row.text
    assert "Daun's grenadiers in the wood" in row.text
    for summary in row.find_elements(By.CSS_SELECTOR, "details.chronicle-account summary"):
        big_enough(summary, "an account's summary")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
        summary.click()  # each account folded under its side's name: opened by a tap
    assert "We held the hill until the evening." in row.text and "good order" in row.text
    paragraphs = [p.text for p in row.find_elements(By.TAG_NAME, "p")]
    assert "At dusk the Austrians left the field." in paragraphs  # its own paragraph
    assert len(thumbnails(browser, f"#photos-{battle.code} img")) == 3
    assert set(statuses(browser, addresses(battle))) == {200}
    fits(browser, "the chronicle, Hanover's after the result")
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'});", row)
    shot(browser, "chronicle-photos")

    # ---- the stored files: two JPEGs made from pixels, no metadata -----------------------------
    store = storages["photos"]
    for photo in battle.photos.all():
        for name in (photo.display, photo.thumbnail):
            assert name.startswith(f"{campaign.code}/{battle.code}/{photo.code}-")
            with store.open(name) as f:
                data = f.read()
            image = Image.open(io.BytesIO(data))
            assert image.format == "JPEG", name
            assert not image.getexif() and not gps_of(data), name
            assert not {"exif", "xmp", "comment", "icc_profile"} & set(image.info), image.info
            # no APP1 (EXIF, XMP), APP13 (IPTC) or comment segment; JFIF's APP0 at most
            assert not {0xE1, 0xED, 0xFE} & set(markers(data)), [hex(m) for m in markers(data)]
            assert b"Exif\0\0" not in data and files.SERIAL.encode() not in data

    # ---- the battle page as the Prussian sees it now ------------------------------------------
    browser.delete_all_cookies()
    sign_in(browser, live_server, player)
    open_page(browser, live_server, page)
    thumbnails(browser)
    fits(browser, "the battle page after the result")
    browser.execute_script("document.getElementById('photos').scrollIntoView({block: 'start'});")
    shot(browser, "battle-photos")
    browser.execute_script("document.getElementById('accounts').scrollIntoView({block: 'start'});")
    browser.save_screenshot(str(ARTIFACTS / "battle-accounts.png"))
    browser.execute_script(
        "document.querySelector('form[data-photo-upload]').scrollIntoView({block: 'center'});"
    )
    browser.save_screenshot(str(ARTIFACTS / "battle-upload.png"))

    # ---- the book of the season: the best photo on the battles' page ---------------------------
    if chromium() is None:
        pytest.skip("chromium is needed to print the book")
    organiser_service.end_campaign(campaign, organiser, now=timezone.now())
    best = battle.photos.first()
    assert best.id == gps.id
    for paper, size in (("a4", (595, 842)), ("letter", (612, 792))):
        target = tmp_path / f"book-{paper}.pdf"
        call_command("printseason", str(campaign.code), "-o", str(target), "--paper", paper)
        pdf = pdfium.PdfDocument(target.read_bytes())
        found = []
        for number, sheet in enumerate(pdf):
            text = re.sub(r"\s+", " ", sheet.get_textpage().get_text_range())
            if "The Prussian left holds the hill at dusk" not in text:
                continue
            images = list(sheet.get_objects(filter=(pdfium_raw.FPDF_PAGEOBJ_IMAGE,)))
            found.append((number, sheet, text, images))
        assert len(found) == 1, paper  # the caption on one page
        number, sheet, text, images = found[0]
        assert "The battles" in text or "table code" in text
        assert [round(x) for x in sheet.get_size()] == list(size)
        assert "Prussian army's account" in text
        photo = [i for i in images if tuple(i.get_px_size()) == (best.width, best.height)]
        assert len(photo) == 1, [i.get_px_size() for i in images]  # the best photo, whole
        left, bottom, right, top = photo[0].get_bounds()
        assert 0 <= left < right <= size[0] and 0 <= bottom < top <= size[1]
        assert right - left > size[0] / 2  # printed large, across the page
        ARTIFACTS.mkdir(exist_ok=True)
        picture = ARTIFACTS / f"book-photo-{paper}.png"
        sheet.render(scale=1.5).to_pil().save(picture)
        pdf.close()
        if os.environ.get("DGK_SCREENSHOTS") == "1":
            shutil.copy(picture, DOCS / picture.name)
