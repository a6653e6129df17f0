"""The tile pyramid of the map widget: the whole map drawn once per zoom level by ``render_map``
and cut into 256 px squares (docs/map-widget.md).

Pure Python (no Django). Coordinates are those of Leaflet's ``L.CRS.Simple``: at zoom 0 one map
unit is one pixel of the map drawn with hexes of corner radius ``BASE_HEX``; each zoom level
doubles it. Every length of ``render_map`` scales with the hex size (margins included), so a hex
centre at zoom ``z`` is its zoom-0 position times ``2 ** z`` and the levels line up exactly.

>>> from maps.core.compact import compact_map
>>> m = compact_map({"terrain": ["c c c", "c r c"]})
>>> g = grid_of(m)
>>> [round(v, 1) for v in g.centre(Hex(0, 0))]
[9.6, 9.6]
>>> sorted(tiles_of_zoom(m, 0))[:1][0][:2]
(0, 0)
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from maps.core.hexgrid import Hex, hex_to_pixel
from maps.core.loader import map_to_dict
from maps.core.model import HexMap
from maps.core.render import NEUTRAL, render_map

TILE = 256
BASE_HEX = 8.0
ZOOMS = (-1, 0, 1, 2)  # hexes of corner radius 4, 8, 16 and 32 px
HEX_IDS_FROM = 2  # hex ids are printed from this zoom on (13 px type)
LABELS_FROM = 0  # city names from this zoom on
RENDER_VERSION = "2"  # bump when the drawing changes: new tile URLs, old caches ignored
PALETTE = 96  # colours per tile (palette PNGs are a third of the size of RGB ones)


@dataclass(frozen=True)
class Grid:
    """Where the hexes are at zoom 0 and how big the map is there."""

    hex_size: float
    dx: float
    dy: float
    width: float
    height: float

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = hex_to_pixel(h, self.hex_size)
        return x + self.dx, y + self.dy

    def as_dict(self) -> dict:
        return {
            "hex": self.hex_size,
            "dx": round(self.dx, 3),
            "dy": round(self.dy, 3),
            "width": round(self.width, 1),
            "height": round(self.height, 1),
            "minZoom": ZOOMS[0],
            "maxNativeZoom": ZOOMS[-1],
        }


# A HexMap is immutable and hashed by identity (``maps.core.loader`` hands out one per file and
# modification time), so its geometry and stamp are computed once per process: every page with
# the map widget needs both (docs/performance.md, "Page cost").
@functools.lru_cache(maxsize=16)
def grid_of(hexmap: HexMap) -> Grid:
    """The zoom-0 geometry, computed as ``render_map`` lays the whole map out."""
    s = BASE_HEX
    xs, ys = zip(*(hex_to_pixel(h, s) for h in hexmap.hexes), strict=True)
    margin = s * 1.2
    return Grid(
        s,
        -min(xs) + margin,
        -min(ys) + margin,
        max(xs) - min(xs) + 2 * margin,
        max(ys) - min(ys) + 2 * margin,
    )


@functools.lru_cache(maxsize=16)
def map_stamp(hexmap: HexMap) -> str:
    """A short key of the map file's contents and of the drawing: it names the tile folder, so
    a changed map or renderer gets new URLs and browsers may cache tiles for ever."""
    digest = hashlib.sha256(RENDER_VERSION.encode())
    source = Path(hexmap.source) if hexmap.source else None
    if source is not None and source.is_file():
        digest.update(source.read_bytes())
    else:
        digest.update(json.dumps(map_to_dict(hexmap), sort_keys=True).encode())
    return digest.hexdigest()[:12]


def render_zoom(hexmap: HexMap, z: int) -> Image.Image:
    """The whole map at zoom ``z``, outside the map neutral grey."""
    return render_map(
        hexmap,
        hex_size=BASE_HEX * 2.0**z,
        hex_ids=z >= HEX_IDS_FROM,
        labels=z >= LABELS_FROM,
        background=NEUTRAL,
    )


def tiles_of_zoom(hexmap: HexMap, z: int) -> Iterator[tuple[int, int, bytes]]:
    """Every tile (x, y, PNG bytes) of zoom ``z``; the last row and column padded neutral."""
    image = render_zoom(hexmap, z)
    columns = math.ceil(image.width / TILE)
    rows = math.ceil(image.height / TILE)
    for ty in range(rows):
        for tx in range(columns):
            tile = Image.new("RGB", (TILE, TILE), NEUTRAL)
            x1 = min((tx + 1) * TILE, image.width)
            y1 = min((ty + 1) * TILE, image.height)
            tile.paste(image.crop((tx * TILE, ty * TILE, x1, y1)))
            buffer = io.BytesIO()
            tile.quantize(PALETTE, method=Image.Quantize.MEDIANCUT).save(
                buffer, format="PNG", optimize=True
            )
            yield tx, ty, buffer.getvalue()


def write_tiles(hexmap: HexMap, folder: Path, zooms: Iterable[int] = ZOOMS) -> int:
    """Write ``folder/{z}/{x}/{y}.png`` for each zoom level; returns the number of tiles.

    Each file is written under a temporary name and renamed, so a reader never sees half a tile.
    ``grid.json`` (the geometry) is written last: its presence says the pyramid is complete."""
    count = 0
    for z in zooms:
        if z not in ZOOMS:
            raise ValueError(f"zoom {z} is not one of {ZOOMS}")
        for tx, ty, data in tiles_of_zoom(hexmap, z):
            path = folder / str(z) / str(tx) / f"{ty}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
            count += 1
    meta = folder / "grid.json"
    meta.write_text(json.dumps({**grid_of(hexmap).as_dict(), "zooms": sorted(zooms)}))
    return count


__all__ = [
    "BASE_HEX",
    "Grid",
    "TILE",
    "ZOOMS",
    "grid_of",
    "map_stamp",
    "render_zoom",
    "tiles_of_zoom",
    "write_tiles",
]
