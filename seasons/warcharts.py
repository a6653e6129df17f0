"""The charts of *The war* (issue 28), drawn as SVG text on the server: no script, no library.
Pure Python (no Django); the series come from ``seasons.warseries``.

Each chart is an ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` (what a screen reader
says); the page puts the same numbers in a table beside it. The drawing is 360 units wide and
scales to its box (``width="100%"``), so it reads at 390 px; the lines differ by dash as well as
by colour, and each is named at its end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from seasons.warseries import CAUSES, Chart, Happening, Losses

W = 360
# Colours that read on white (the counters' own colours include white and yellow).
LINE_COLOURS = {
    "austria": "#6b6b6b",
    "empire": "#a08400",
    "france": "#3b5bb5",
    "hanover": "#c0392b",
    "prussia": "#1c2f5a",
    "russia": "#2e7d32",
    "sweden": "#d18f00",
}
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2", "10 4")
CAUSE_COLOURS = {
    "battle": "#b00020",
    "attrition": "#8d6e63",
    "siege": "#5d2a7a",
    "surrender": "#1565c0",
}


def _svg(title: str, desc: str, height: int, body: list[str], ident: str) -> str:
    return (
        f'<svg class="war-chart" role="img" aria-labelledby="{ident}-t {ident}-d" '
        f'viewBox="0 0 {W} {height}" width="100%" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-t">{escape(title)}</title><desc id="{ident}-d">{escape(desc)}</desc>'
        + "".join(body)
        + "</svg>"
    )


def _text(x: float, y: float, words: str, *, size: int = 10, anchor: str = "start", **more) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in more.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
        f"{escape(words)}</text>"
    )


def line_chart(chart: Chart, title: str, ident: str, *, unit: str = "points") -> str:
    """Lines by turn, one per series, each named at its last value.

    >>> from seasons.warseries import Chart, Series
    >>> svg = line_chart(Chart((1, 2), (Series("prussia", "Prussian", (900, 700)),)), "P", "c")
    >>> "<title id=\\"c-t\\">P</title>" in svg, "Prussian 700" in svg
    (True, True)
    """
    left, right, top, bottom = 34, 86, 12, 26
    height = 230
    values = [v for s in chart.series for v in s.values if v is not None]
    desc = "; ".join(
        f"{s.label}: "
        + ", ".join(
            f"turn {t} {v}" for t, v in zip(chart.turns, s.values, strict=True) if v is not None
        )
        for s in chart.series
    )
    if not chart.turns or not values:
        return _svg(title, "No figures.", 40, [_text(4, 24, "No figures yet.")], ident)
    low, high = min(0, *values), max(1, *values)
    span_x = max(1, len(chart.turns) - 1)
    plot_w, plot_h = W - left - right, height - top - bottom

    def x(i: int) -> float:
        return left + plot_w * i / span_x

    def y(v: int) -> float:
        return top + plot_h * (high - v) / (high - low)

    body = [f'<rect x="0" y="0" width="{W}" height="{height}" fill="#fff"/>']
    for tick in _ticks(low, high):
        body.append(f'<line x1="{left}" x2="{W - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                    f'stroke="#ddd" stroke-width="0.6"/>')  # fmt: skip
        body.append(_text(left - 3, y(tick) + 3, f"{tick}", size=8, anchor="end"))
    step = max(1, len(chart.turns) // 9)
    for i, t in enumerate(chart.turns):
        if i % step == 0 or i == len(chart.turns) - 1:
            body.append(_text(x(i), height - bottom + 11, str(t), size=8, anchor="middle"))
    body.append(_text(left + plot_w / 2, height - 4, "turn", size=8, anchor="middle"))
    ends: list[tuple[float, str, str]] = []
    for n, s in enumerate(chart.series):
        colour = LINE_COLOURS.get(s.key, "#333")
        pts = [(x(i), y(v)) for i, v in enumerate(s.values) if v is not None]
        if not pts:
            continue
        dash = DASHES[n % len(DASHES)]
        body.append(
            '<polyline fill="none" stroke-width="2" stroke="' + colour + '"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + ' points="' + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + '">'
            + f"<title>{escape(s.label)}</title></polyline>"
        )  # fmt: skip
        ends.append((pts[-1][1], f"{s.label} {s.last}", colour))
    # the names at the lines' ends, pushed apart so that they never overlap
    ends.sort()
    placed: list[float] = []
    for want, words, colour in ends:
        at = max(want, placed[-1] + 10) if placed else want
        placed.append(at)
        body.append(_text(W - right + 4, at + 3, words, size=9, fill=colour))
    return _svg(title, f"{title} ({unit}). {desc}.", max(height, int(placed[-1]) + 8), body, ident)


def _ticks(low: int, high: int) -> list[int]:
    span = high - low
    raw = span / 4 or 1
    mag = 10 ** (len(str(int(raw))) - 1)
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = (low // step) * step
    return [v for v in range(first, high + step, step) if low <= v <= high]


def losses_chart(losses: Mapping[str, Losses], labels: Mapping[str, str], ident: str) -> str:
    """A bar per army, its parts the causes of 9.5, 7, 11.6.3 and 11.6.2."""
    rows = sorted(losses.values(), key=lambda row: (-row.total, row.army))
    title = "Losses by cause"
    desc = "; ".join(
        f"{labels.get(row.army, row.army)}: "
        + ", ".join(f"{c} {row.by_cause[c]}" for c in CAUSES if row.by_cause[c])
        for row in rows
    )
    if not rows:
        return _svg(title, "No losses.", 40, [_text(4, 24, "No points were lost.")], ident)
    left, bar, gap, top = 74, 16, 8, 26
    most = max(row.total for row in rows) or 1
    width = W - left - 44
    height = top + len(rows) * (bar + gap) + 4
    body = [f'<rect x="0" y="0" width="{W}" height="{height}" fill="#fff"/>']
    x = 4.0
    for c in CAUSES:  # the key
        body.append(f'<rect x="{x:.1f}" y="4" width="10" height="10" fill="{CAUSE_COLOURS[c]}"/>')
        body.append(_text(x + 13, 13, c, size=9))
        x += 22 + 6 * len(c)
    for i, row in enumerate(rows):
        y = top + i * (bar + gap)
        body.append(
            _text(left - 4, y + bar - 4, labels.get(row.army, row.army), size=9, anchor="end")
        )
        at = float(left)
        for c in CAUSES:
            w = width * row.by_cause[c] / most
            if w > 0:
                body.append(
                    f'<rect x="{at:.1f}" y="{y}" width="{w:.1f}" height="{bar}" '
                    f'fill="{CAUSE_COLOURS[c]}"><title>{escape(labels.get(row.army, row.army))}: '
                    f"{row.by_cause[c]} to {c}</title></rect>"
                )
                at += w
        body.append(_text(at + 3, y + bar - 4, str(row.total), size=9))
    return _svg(title, f"Points lost by each army, by cause. {desc}.", height, body, ident)


def timeline_chart(happenings: Sequence[Happening], turns: int, ident: str) -> str:
    """The battles (a red diamond) and sieges (a purple ring) on a line of the turns; each
    named beside its mark, one row a happening."""
    title = "Battles and sieges"
    desc = "; ".join(f"turn {h.turn}: {h.kind} at {h.place}" for h in happenings)
    if not happenings:
        return _svg(title, "No battle and no siege.", 40, [_text(4, 24, "No battle, no siege.")],
                    ident)  # fmt: skip
    left, right, top, row = 12, 12, 22, 14
    turns = max(turns, max(h.turn for h in happenings), 1)
    height = top + row * len(happenings) + 8

    def x(t: int) -> float:
        return left + (W - left - right) * (t - 1) / max(1, turns - 1)

    body = [f'<rect x="0" y="0" width="{W}" height="{height}" fill="#fff"/>']
    for t in range(1, turns + 1):
        body.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="14" y2="{height - 4}" '
                    'stroke="#eee" stroke-width="0.6"/>')  # fmt: skip
        if t == 1 or t % 3 == 0 or t == turns:
            body.append(_text(x(t), 10, str(t), size=8, anchor="middle"))
    for i, h in enumerate(happenings):
        cx, cy = x(h.turn), top + i * row + 4
        if h.kind == "battle":
            body.append(f'<path d="M{cx:.1f} {cy - 5:.1f}l5 5-5 5-5-5z" fill="#b00020">'
                        f"<title>{escape(h.text)}</title></path>")  # fmt: skip
        else:
            body.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4.5" fill="none" stroke="#5d2a7a" '
                        f'stroke-width="2"><title>{escape(h.text)}</title></circle>')  # fmt: skip
        words = f"{h.kind} at {h.place} (turn {h.turn})"
        anchor = "end" if cx > W / 2 else "start"
        body.append(
            _text(cx + (-8 if anchor == "end" else 8), cy + 3, words, size=9, anchor=anchor)
        )
    return _svg(title, f"Battles and sieges by turn: {desc}.", height, body, ident)
