"""What a station's users measure, read from the DOM of a page in a real browser.

- Text boxes: every visible element with a direct, non-blank text node; its box is the
  bounding box of those text nodes (a Range), cut to the element's own box when it hides its
  overflow and to every overflow-hidden ancestor: what is actually drawn.
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
    let drawn = clipper(s) ? cut(ink, own) : plain(ink);
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


# --- contrast ---------------------------------------------------------------------------

COLOURS_JS = r"""
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, under) => {
    const a = top.a + under.a * (1 - top.a);
    const mix = (x, y) => (x * top.a + y * under.a * (1 - top.a)) / (a || 1);
    return { r: mix(top.r, under.r), g: mix(top.g, under.g), b: mix(top.b, under.b), a };
  };
  const lum = (c) => {
    const ch = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
  };
  const ratio = (x, y) => {
    const [hi, lo] = [lum(x), lum(y)].sort((p, q) => q - p);
    return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
  };
  const hex = (c) => '#' + [c.r, c.g, c.b]
    .map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
"""
"""Colour arithmetic shared by the contrast scripts: WCAG 2 relative luminance and ratio."""

CONTRAST_JS = (
    "() => {"
    + COLOURS_JS
    + r"""
  const opacity = (e) => {
    let o = 1;
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      o *= Number(getComputedStyle(a).opacity);
    }
    return o;
  };
  // What an element paints behind the text: its background colour (alpha times the opacity
  // of it and its ancestors) and, for a gradient, its colour stops (tried one at a time).
  const paints = (e) => {
    const s = getComputedStyle(e);
    const o = opacity(e);
    const colour = parse(s.backgroundColor);
    const stops = [...s.backgroundImage.matchAll(/rgba?\([^)]+\)/g)]
      .map((m) => parse(m[0])).map((c) => ({ ...c, a: c.a * o }));
    return { colour: colour && colour.a > 0 ? { ...colour, a: colour.a * o } : null, stops };
  };
  const results = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let e = walker.currentNode; e; e = walker.nextNode()) {
    const nodes = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!nodes.length) continue;
    const s = getComputedStyle(e);
    if (e.closest('[hidden], :disabled') || e.closest('.sr-only')) continue;
    let shown = true;
    for (let a = e; a; a = a.parentElement) {
      const as = getComputedStyle(a);
      if (as.display === 'none' || as.visibility === 'hidden') shown = false;
    }
    if (!shown || opacity(e) === 0) continue;
    const range = document.createRange();
    range.selectNodeContents(e);
    const r = range.getBoundingClientRect();
    const x = Math.min(Math.max((r.left + r.right) / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max((r.top + r.bottom) / 2, 0), innerHeight - 1);
    if (r.width < 1 || r.height < 1) continue;
    // Everything painted under the text's centre, topmost first, from the text element down.
    const stack = document.elementsFromPoint(x, y);
    const start = stack.indexOf(e);
    const layers = (start >= 0 ? stack.slice(start) : [e, ...stack])
      .concat([document.documentElement]);
    const under = [];
    for (const layer of layers) {
      const p = paints(layer);
      under.push(p);
      if (p.colour?.a >= 1 || p.stops.some((c) => c.a >= 1)) break;
    }
    // Composite bottom-up from a white canvas; with gradients, once per colour stop.
    const most = Math.max(1, ...under.map((p) => p.stops.length));
    const backs = [];
    for (let i = 0; i < most; i += 1) {
      let bg = { r: 255, g: 255, b: 255, a: 1 };
      for (const p of [...under].reverse()) {
        if (p.stops.length) bg = over(p.stops[Math.min(i, p.stops.length - 1)], bg);
        if (p.colour) bg = over(p.colour, bg);
      }
      backs.push(bg);
    }
    const fg0 = parse(s.color);
    const fg = { ...fg0, a: fg0.a * opacity(e) };
    let worst = null;
    for (const bg of backs) {
      const seen = over(fg, bg);
      const value = ratio(seen, bg);
      if (!worst || value < worst.ratio) worst = { ratio: value, fg: hex(seen), bg: hex(bg) };
    }
    let name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
      + [...e.classList].map((c) => '.' + c).join('');
    const seat = e.closest('[data-seat]');
    if (seat && seat !== e) name = `[data-seat=${seat.dataset.seat}] ` + name;
    results.push({ el: name, text: e.textContent.trim().slice(0, 50), ratio: worst.ratio,
                   fg: worst.fg, bg: worst.bg, px: parseFloat(s.fontSize) });
  }
  return results.sort((p, q) => p.ratio - q.ratio);
}"""
)

STATIC_CONTRAST_JS = (
    "() => {"
    + COLOURS_JS
    + r"""
  // Every rule of the page's own stylesheets that sets both a text colour and a background
  // colour: the pair, resolved (custom properties too) by a probe element.
  const probe = document.createElement('span');
  document.body.append(probe);
  const resolve = (value, prop) => {
    probe.style.setProperty(prop, '');
    probe.style.setProperty(prop, value);
    return getComputedStyle(probe).getPropertyValue(prop);
  };
  const plainColour = /^(#[0-9a-f]+|rgba?\([^)]+\)|var\([^)]+\))$/i;
  const pairs = [];
  for (const sheet of document.styleSheets) {
    let rules;
    try { rules = sheet.cssRules; } catch { continue; }
    const walk = (list) => {
      for (const rule of list) {
        if (rule.cssRules && !rule.style) { walk(rule.cssRules); continue; }
        if (!rule.style) continue;
        const color = rule.style.getPropertyValue('color');
        const back = rule.style.getPropertyValue('background-color')
          || (rule.style.getPropertyValue('background').match(plainColour) || [])[0];
        if (!color || !back || color === 'inherit' || color === 'currentcolor') continue;
        const fg = parse(resolve(color, 'color'));
        const bg = parse(resolve(back, 'background-color'));
        if (!fg || !bg || bg.a < 1) continue;
        pairs.push({ sheet: (sheet.href || '').split('/').pop(), selector: rule.selectorText,
                     color, background: back, ratio: ratio(fg, bg) });
      }
    };
    walk(rules);
  }
  probe.remove();
  return pairs.sort((p, q) => p.ratio - q.ratio);
}"""
)


def contrast(page: Any) -> list[dict[str, Any]]:
    """Every visible text's colour against what is painted under it, lowest ratio first."""
    return list(page.evaluate(CONTRAST_JS))


def static_contrast(page: Any) -> list[dict[str, Any]]:
    """The colour pairs the page's stylesheets declare together in one rule, lowest first."""
    return list(page.evaluate(STATIC_CONTRAST_JS))
