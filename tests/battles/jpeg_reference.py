"""The JPEG end-of-image scan as it was before 30 November 2026 (``imaging._jpeg_end``, a loop
over every byte in Python: about 1 s for a refused 15 MB file), kept unchanged as the reference
the fast scan must agree with (``tests/battles/test_jpeg_scan.py``) and the figure it is
measured against (``bench/photo_bench.py``)."""

from __future__ import annotations

import struct


def jpeg_end(data: bytes, start: int = 0) -> int:
    """The offset just after the EOI marker of the JPEG starting at ``start``; ValueError if it
    never ends."""
    if data[start : start + 2] != b"\xff\xd8":
        raise ValueError("no SOI")
    i = start + 2
    n = len(data)
    while i < n:
        if data[i] != 0xFF:
            raise ValueError("not a marker")
        while i < n and data[i] == 0xFF:  # fill bytes
            i += 1
        if i >= n:
            break
        marker = data[i]
        i += 1
        if marker == 0xD9:  # EOI
            return i
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # no length
            continue
        if i + 2 > n:
            break
        (length,) = struct.unpack(">H", data[i : i + 2])
        i += length
        if marker == 0xDA:  # SOS: entropy-coded data up to the next marker that is not RST
            while i < n - 1:
                if data[i] == 0xFF and data[i + 1] != 0x00 and not 0xD0 <= data[i + 1] <= 0xD7:
                    if data[i + 1] == 0xFF:
                        i += 1
                        continue
                    break
                i += 1
    raise ValueError("no EOI")
