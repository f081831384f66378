"""What a station's users measure, read from the DOM of a page in a real browser.

- Text boxes: every visible element with a direct, non-blank text node; its box is the
  bounding box of those text nodes (a Range), cut to the element's own box and to every
  overflow-hidden ancestor: what is actually drawn.
- Overlaps: two text boxes that intersect by more than a pixel each way; and text whose
  centre another element covers (``document.elementFromPoint``).
- Clipped: an element whose text is wider or taller than its box (``scrollWidth >
  clientWidth``: an ellipsis counts) or whose text reaches outside an overflow-hidden
  ancestor or the viewport. Text inside a scrolling list is checked against the list.
- Touch targets: visible buttons, inputs, selects, ``[role=button]``, links and
  ``[tabindex]`` (not ``-1``): the smallest side of each.
- Fonts: the computed font size of every visible text.

``measure(page)`` returns all of these at once as plain data; ``layout_report`` words the
figures for a test's output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.service.conftest import ROOT

SCREENSHOTS = ROOT / "screenshots"
"""Where the layout, contrast and display tests put their screenshots (git-ignored)."""

MEASURE_JS = r"""() => {
  const PX = 1;
  const style = (e) => getComputedStyle(e);
  const describe = (e) => {
    let name = e.tagName.toLowerCase();
    if (e.id) name += '#' + e.id;
    for (const c of e.classList) name += '.' + c;
    const seat = e.closest('[data-seat]');
    if (seat && seat !== e) name = `[data-seat=${seat.dataset.seat}] ` + name;
    return name;
  };
  const hiddenBy = (e) => {
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const s = style(a);
      if (s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0) return true;
      if (s.clip && s.clip !== 'auto') return true;
      if (a.hidden) return true;
    }
    return false;
  };
  const cut = (r, c) => {
    const left = Math.max(r.left, c.left), top = Math.max(r.top, c.top);
    const right = Math.min(r.right, c.right), bottom = Math.min(r.bottom, c.bottom);
    return { left, top, right, bottom, width: right - left, height: bottom - top };
  };
  const plain = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom,
                          width: r.right - r.left, height: r.bottom - r.top });
  const scroller = (s) => /(auto|scroll)/.test(s.overflowX + s.overflowY);
  const clipper = (s) => /(hidden|clip)/.test(s.overflowX + s.overflowY);
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };

  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let e = walker.currentNode; e; e = walker.nextNode()) {
    const nodes = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!nodes.length || hiddenBy(e)) continue;
    const range = document.createRange();
    range.setStartBefore(nodes[0]);
    range.setEndAfter(nodes[nodes.length - 1]);
    const ink = range.getBoundingClientRect();
    if (ink.width < PX || ink.height < PX) continue;
    const s = style(e);
    const own = e.getBoundingClientRect();
    // What is drawn: the text cut to every ancestor that hides its overflow.
    let drawn = s.display === 'inline' ? plain(ink) : cut(ink, own);
    let container = view, inScroller = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const as = style(a);
      if (scroller(as)) { container = a.getBoundingClientRect(); inScroller = true; break; }
      if (clipper(as)) drawn = cut(drawn, a.getBoundingClientRect());
    }
    if (inScroller) drawn = cut(drawn, container);
    if (drawn.width < PX || drawn.height < PX) {
      if (!inScroller) texts.push({ el: describe(e), text: e.textContent.trim().slice(0, 60),
        box: drawn, font: parseFloat(s.fontSize), clipped: 'not drawn at all', node: e });
      continue;
    }
    let clipped = '';
    if (s.display !== 'inline' && (e.scrollWidth > e.clientWidth + PX ||
        (clipper(s) && e.scrollHeight > e.clientHeight + PX))) {
      clipped = `text ${e.scrollWidth}x${e.scrollHeight}`
        + ` in a box ${e.clientWidth}x${e.clientHeight}`;
    } else if (ink.left < drawn.left - PX || ink.right > drawn.right + PX ||
               ink.top < drawn.top - PX || ink.bottom > drawn.bottom + PX) {
      clipped = 'text cut by an overflow-hidden ancestor';
    } else if (!inScroller && (drawn.left < -PX || drawn.top < -PX ||
               drawn.right > innerWidth + PX || drawn.bottom > innerHeight + PX)) {
      clipped = 'outside the viewport';
    }
    texts.push({ el: describe(e), text: e.textContent.trim().slice(0, 60), box: drawn,
                 font: parseFloat(s.fontSize), clipped, node: e });
  }

  const overlaps = [];
  for (let i = 0; i < texts.length; i += 1) {
    for (let j = i + 1; j < texts.length; j += 1) {
      const a = texts[i], b = texts[j];
      const x = cut(a.box, b.box);
      if (x.width > PX && x.height > PX) {
        overlaps.push({ a: a.el, b: b.el, aText: a.text, bText: b.text,
                        width: Math.round(x.width), height: Math.round(x.height) });
      }
    }
  }
  const covered = [];
  for (const t of texts) {
    if (t.clipped === 'not drawn at all') continue;
    const x = (t.box.left + t.box.right) / 2, y = (t.box.top + t.box.bottom) / 2;
    const top = document.elementFromPoint(x, y);
    const label = t.node.closest('label');
    // A control laid over its own label (a styled radio button) does not hide the label.
    if (top && top !== t.node && !t.node.contains(top) && !top.contains(t.node)
        && !(label && label.contains(top)) && !hiddenBy(top)) {
      covered.push({ el: t.el, text: t.text, by: describe(top) });
    }
  }

  const targets = [];
  const selector = 'button, input, select, textarea, [role=button], a[href],'
    + ' [tabindex]:not([tabindex="-1"])';
  for (const e of document.querySelectorAll(selector)) {
    if (hiddenBy(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < PX || r.height < PX) continue;
    const label = e.getAttribute('aria-label') || e.textContent || e.value || '';
    targets.push({ el: describe(e), text: label.trim().slice(0, 40),
                   width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 });
  }

  const fonts = texts.filter((t) => t.clipped !== 'not drawn at all')
    .map((t) => ({ el: t.el, text: t.text, px: t.font }))
    .sort((a, b) => a.px - b.px);
  return {
    texts: texts.map(({ node, ...t }) => t),
    overlaps,
    covered,
    clipped: texts.filter((t) => t.clipped)
      .map((t) => ({ el: t.el, text: t.text, why: t.clipped })),
    targets: targets.sort((a, b) => Math.min(a.width, a.height) - Math.min(b.width, b.height)),
    fonts,
    viewport: [innerWidth, innerHeight],
    scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
  };
}"""


def measure(page: Any) -> dict[str, Any]:
    """Every figure of the module docstring, for the page as it is drawn now."""
    return dict(page.evaluate(MEASURE_JS))


def smallest_target(figures: dict[str, Any]) -> dict[str, Any] | None:
    targets = figures["targets"]
    return dict(targets[0]) if targets else None


def smallest_font(figures: dict[str, Any]) -> dict[str, Any] | None:
    fonts = figures["fonts"]
    return dict(fonts[0]) if fonts else None


def small_targets(figures: dict[str, Any], least: float = 44) -> list[dict[str, Any]]:
    return [t for t in figures["targets"] if min(t["width"], t["height"]) < least]


def layout_report(name: str, figures: dict[str, Any]) -> str:
    """One paragraph of figures: what the test prints and the report quotes."""
    font = smallest_font(figures)
    target = smallest_target(figures)
    lines = [
        f"{name} at {figures['viewport'][0]}x{figures['viewport'][1]}:",
        f"  text boxes {len(figures['texts'])}, overlapping pairs {len(figures['overlaps'])},"
        f" covered {len(figures['covered'])}, clipped {len(figures['clipped'])}",
        f"  smallest font {font['px']:g} px ({font['el']} {font['text']!r})"
        if font
        else "  no text",
        (
            f"  smallest touch target {min(target['width'], target['height']):g} px"
            f" ({target['el']} {target['text']!r}), under 44 px: {len(small_targets(figures))}"
            if target
            else "  no touch targets"
        ),
    ]
    for o in figures["overlaps"][:8]:
        lines.append(f"  overlap {o['a']} {o['aText']!r} / {o['b']} {o['bText']!r}")
    for c in figures["covered"][:8]:
        lines.append(f"  covered {c['el']} {c['text']!r} by {c['by']}")
    for c in figures["clipped"][:8]:
        lines.append(f"  clipped {c['el']} {c['text']!r}: {c['why']}")
    for t in small_targets(figures)[:8]:
        lines.append(f"  small target {t['el']} {t['text']!r} {t['width']}x{t['height']}")
    return "\n".join(lines)


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
