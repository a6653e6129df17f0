"""`python -m maps.tools.mapgen [resolve|build]`: the map generator (a development tool)."""

from __future__ import annotations

import argparse
import sys

from maps.tools.mapgen import generator, resolve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m maps.tools.mapgen", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser(
        "resolve", help="look the facts' place names up in GeoNames -> facts/places.toml"
    )
    build = sub.add_parser("build", help="build maps/data/central_europe_1756.json (the default)")
    build.add_argument(
        "--sources", default=None, help="folder with node_modules of the npm sources"
    )
    build.add_argument("--out", default=None, help="output file")
    build.add_argument("--report", action="store_true", help="print what was placed where")
    args = parser.parse_args(argv)
    if args.command == "resolve":
        return resolve.main()
    return generator.main(
        sources=getattr(args, "sources", None),
        out=getattr(args, "out", None),
        report=getattr(args, "report", False),
    )


if __name__ == "__main__":
    sys.exit(main())
