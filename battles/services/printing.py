"""Printing a battle's briefings (issue 7): HTML to PDF with the system's chromium."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


class PrintError(RuntimeError):
    """The browser could not print the page."""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def html_to_pdf(html: str, *, timeout: int = 90) -> bytes:
    """Print an HTML page (self-contained: images inline) to PDF with Debian's chromium."""
    browser = chromium()
    if browser is None:
        raise PrintError("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="dgk-print-") as folder:
        page = Path(folder) / "briefing.html"
        pdf = Path(folder) / "briefing.pdf"
        page.write_text(html, encoding="utf-8")
        command = [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--user-data-dir={folder}/profile",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
            page.as_uri(),
        ]
        try:
            subprocess.run(command, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise PrintError("chromium took too long to print") from exc
        if not pdf.exists() or pdf.stat().st_size == 0:
            raise PrintError("chromium printed nothing")
        return pdf.read_bytes()
