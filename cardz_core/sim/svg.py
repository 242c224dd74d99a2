"""Small SVG charts written by hand, so the report needs no plotting library and works offline.

Every function returns one ``<svg>`` element as text; every text it places is escaped.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from cardz_core.safe_text import markup

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7")
MAX_BINS = 30
FONT = 'font-family="sans-serif"'
CHAR_W = 6.0  # about how wide one character of 11-pixel sans-serif text is, for room to fit it


def text_width(text: str) -> float:
    return CHAR_W * len(text)


def _legend(names: Sequence[str], x: float = 8) -> list[str]:
    """A colour key on one line at the top, each entry as wide as its name needs."""
    body = []
    for j, name in enumerate(names):
        body.append(f'<rect x="{x:.1f}" y="6" width="10" height="10" fill="{colour(j)}"/>')
        body.append(_text(x + 14, 15, name, "start"))
        x += 14 + text_width(name) + 16
    return body


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _svg(width: int, height: int, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{markup(title)}">'
            f'<title>{markup(title)}</title>{"".join(body)}</svg>')


def _text(x: float, y: float, text: str, anchor: str = "middle", extra: str = "",
          size: int = 11) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" {FONT} font-size="{size}" '
            f'{extra}>'
            f'{markup(text)}</text>')


def win_rate_chart(names: Sequence[str], rates: Sequence[float | None],
                   intervals: Sequence[Sequence[float] | None], title: str) -> str:
    """Vertical bars of win rate per planner, each with its 95% interval as a whisker."""
    left, top, gap, plot_h = 48, 20, 28, 200
    bar_w = max(56, round(max((text_width(n) for n in names), default=0)))
    width = left + len(names) * (bar_w + gap) + gap
    height = top + plot_h + 44
    body = []
    for tick in range(0, 101, 20):
        y = top + plot_h * (1 - tick / 100)
        body.append(f'<line x1="{left}" x2="{width - 8}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        body.append(_text(left - 6, y + 4, f"{tick}%", "end"))
    for i, (name, rate, iv) in enumerate(zip(names, rates, intervals)):
        x = left + gap + i * (bar_w + gap)
        if rate is not None:
            h = plot_h * rate
            body.append(f'<rect x="{x}" y="{top + plot_h - h:.1f}" width="{bar_w}" '
                        f'height="{h:.1f}" fill="{colour(i)}"/>')
        if iv is not None:
            cx = x + bar_w / 2
            y_lo, y_hi = top + plot_h * (1 - iv[0]), top + plot_h * (1 - iv[1])
            body.append(f'<g stroke="#222" stroke-width="1.5" class="interval">'
                        f'<line x1="{cx}" x2="{cx}" y1="{y_lo:.1f}" y2="{y_hi:.1f}"/>'
                        f'<line x1="{cx - 8}" x2="{cx + 8}" y1="{y_lo:.1f}" y2="{y_lo:.1f}"/>'
                        f'<line x1="{cx - 8}" x2="{cx + 8}" y1="{y_hi:.1f}" y2="{y_hi:.1f}"/></g>')
        body.append(_text(x + bar_w / 2, top + plot_h + 16, name))
        if rate is not None:
            body.append(_text(x + bar_w / 2, top + plot_h + 30, f"{100 * rate:.1f}%"))
    return _svg(width, height, body, title)


def nice_step(raw: float) -> float:
    """The smallest 1, 2 or 5 times a power of ten that is at least ``raw`` (at least 1)."""
    raw = max(1.0, raw)
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def histogram_bins(values: Sequence[float]) -> tuple[float, float, int]:
    """(low, bin width, bin count) shared by all series: about MAX_BINS bins whose width is a
    whole 1, 2 or 5 times a power of ten, starting at a multiple of the width."""
    lo, hi = min(values), max(values)
    width = nice_step((hi - lo + 1) / MAX_BINS)
    lo = math.floor(lo / width) * width
    return lo, width, int((hi - lo) // width) + 1


def histogram_chart(series: Mapping[str, Sequence[float]], title: str, xlabel: str) -> str:
    """Side-by-side bars per bin, one colour per series, on shared bins."""
    everything = [v for vals in series.values() for v in vals]
    left, top, plot_w, plot_h = 48, 24, 560, 180
    width, height = left + plot_w + 16, top + plot_h + 48
    body = []
    if not everything:
        body.append(_text(width / 2, height / 2, "no games"))
        return _svg(width, height, body, title)
    lo, bw, nbins = histogram_bins(everything)
    counts = {}
    for name, vals in series.items():
        c = [0] * nbins
        for v in vals:
            c[int((v - lo) // bw)] += 1
        counts[name] = c
    tick = nice_step(max(max(c) for c in counts.values()) / 4)  # four round gridlines or so
    peak = tick * math.ceil(max(max(c) for c in counts.values()) / tick)
    slot = plot_w / nbins
    bar = slot * 0.9 / max(1, len(series))
    for k in range(int(peak // tick) + 1):
        y = top + plot_h * (1 - k * tick / peak)
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                    f'stroke="#eee"/>')
        body.append(_text(left - 6, y + 4, f"{k * tick:g}", "end"))
    for j, (name, c) in enumerate(counts.items()):
        for k, n in enumerate(c):
            if n:
                h = plot_h * n / peak
                x = left + k * slot + slot * 0.05 + j * bar
                body.append(f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar:.1f}" '
                            f'height="{h:.1f}" fill="{colour(j)}"><title>{markup(name)}: {n} in '
                            f'[{lo + k * bw:g}, {lo + (k + 1) * bw:g})</title></rect>')
    step = max(1, nbins // 6)
    for k in range(0, nbins + 1, step):
        body.append(_text(left + k * slot, top + plot_h + 14, f"{lo + k * bw:g}"))
    body.append(_text(left + plot_w / 2, top + plot_h + 32, xlabel))
    body += _legend(list(series), left + 8)
    return _svg(width, height, body, title)


def _heat(v: float | None) -> tuple[str, str]:
    if v is None:
        return "#e0e0e0", "#555"
    shade = round(255 * (1 - v))
    return f"rgb(255,{shade},{shade})", "#fff" if v > 0.6 else "#222"


def heat_map(labels: Sequence[str], values: Sequence[float | None], title: str,
             columns: int = 13) -> str:
    """A grid of cards in deck order (a 52-card deck is a suit per row), shaded by rate."""
    cell_w, cell_h = 46, 30
    rows = max(1, math.ceil(len(labels) / columns))
    width, height = columns * cell_w + 2, rows * cell_h + 2
    body = []
    for i, (label, v) in enumerate(zip(labels, values)):
        x, y = 1 + (i % columns) * cell_w, 1 + (i // columns) * cell_h
        fill, ink = _heat(v)
        shown = "-" if v is None else f"{100 * v:.0f}%"
        body.append(f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" '
                    f'fill="{fill}" stroke="#ccc"><title>{markup(label)}: {shown}</title></rect>')
        body.append(_text(x + cell_w / 2 - 1, y + 12, label, extra=f'fill="{ink}"'))
        body.append(_text(x + cell_w / 2 - 1, y + 24, shown, extra=f'fill="{ink}"', size=9))
    return _svg(width, height, body, title)


def stacked_bars(names: Sequence[str], parts: Sequence[str],
                 counts: Sequence[Sequence[int]], title: str) -> str:
    """A horizontal bar per name, split into ``parts`` by share of its total (one colour per
    part, a legend above), each segment titled with its count."""
    top, plot_w, bar_h, gap = 30, 460, 22, 10
    left = 16 + round(max((text_width(n) for n in names), default=0))
    width = max(left + plot_w + 16, round(8 + sum(30 + text_width(p) for p in parts)))
    height = top + len(names) * (bar_h + gap) + 4
    body = _legend(parts)
    for i, (name, row) in enumerate(zip(names, counts)):
        y = top + i * (bar_h + gap)
        body.append(_text(left - 6, y + bar_h / 2 + 4, name, "end"))
        total = sum(row)
        x = float(left)
        for j, n in enumerate(row):
            if not n:
                continue
            w = plot_w * n / total
            body.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar_h}" '
                        f'fill="{colour(j)}"><title>{markup(name)}: {markup(parts[j])} {n} '
                        f'({100 * n / total:.1f}%)</title></rect>')
            x += w
    return _svg(width, height, body, title)
