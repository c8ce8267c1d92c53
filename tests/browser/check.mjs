// Loads every page of the site in headless Chromium (no network) and
// checks what a reader would see: every image loaded, every same-page
// anchor exists, nothing requested from another host; and what a
// screen reader and a keyboard meet: a skip link, one <h1> first and no
// heading level skipped, every table captioned, every image with alt
// text, text contrast in both colour schemes; and tables that read at
// 1280 and at 390 px (no cell squeezed tall, no card table wider than
// the page, every table caption wrapped inside the visible part of its
// box); numbers that never break across lines at 390 px; formulas
// typeset in the math font the site ships (fonts/math.otf), each root's
// radical drawn over its whole radicand; and the figures of index.html:
// dark in dark mode (no white panel), their text at least 11 px on
// screen at 1280 and at 390 px (the narrow rendering on a phone); and
// the layout of index.html: the contents beside the text at 1280 px,
// the text on a phone's first screen. Saves screenshots of index.html
// in light and dark mode, at 1280 and 390 px.
// Usage: node check.mjs SITE_DIR SHOT_DIR
import { chromium } from "playwright-core";
import { readdirSync, mkdirSync, readFileSync } from "node:fs";
import { resolve, join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const site = resolve(process.argv[2] || "out");
const shots = resolve(process.argv[3] || "build/browser");
mkdirSync(shots, { recursive: true });
let passed = 0, failed = 0;
// The tallest a table cell may stand, in lines of its text: above it, a
// column has been squeezed to a word's width (the data page's sources
// once stood 56 lines tall beside numbers that would not wrap).
const MAX_LINES = 30;
// A number as the report prints it: digits, grouping and point, a
// power of ten ("3.60 × 10⁹", whatever the spaces), and what the
// formatter joined to it with no-break spaces (its unit: "250 GB");
// not the digits inside a word or a date's ("macbook_2008", "2005-06").
const NUMBER = "(?<![\\w.,\u2212-])[\u2212-]?\\d[\\d,.]*(?:[ \u00a0]\u00d7[ \u00a0]10[\u207b\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+)?(?:\u00a0[^ \\t\\n\\r\u00a0]+)*";
// The family of the shipped math font (style.css's @font-face).
const MATH_FONT = "Ultimate Math";
const ok = () => passed++;
const no = (msg) => { console.log("FAIL: " + msg); failed++; };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const outside = [];
await context.route("**/*", (route) => {
  const url = route.request().url();
  if (url.startsWith("file://")) return route.continue();
  outside.push(url);
  return route.abort();
});
// Every page, those of editions/YEAR/ included.
const pages = readdirSync(site, { recursive: true })
  .filter((f) => f.endsWith(".html")).sort();
for (const file of pages) {
  const page = await context.newPage();
  const url = pathToFileURL(join(site, file)).href;
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const resp = await page.goto(url, { waitUntil: "load" });
  if (resp === null || resp.ok() || url.startsWith("file:")) ok();
  else no(`${file}: did not load`);
  const report = await page.evaluate(() => {
    const imgs = [...document.images].map((i) => ({
      src: i.getAttribute("src"), ok: i.complete && i.naturalWidth > 0 }));
    const missing = [...document.querySelectorAll('a[href^="#"]')]
      .map((a) => decodeURIComponent(a.getAttribute("href").slice(1)))
      .filter((id) => id && !document.getElementById(id));
    const css = [...document.styleSheets].length;
    // Every formula is laid out as MathML: a box of its own, not nothing.
    const maths = [...document.querySelectorAll("math")].map((m) => {
      const r = m.getBoundingClientRect();
      return { ok: m instanceof MathMLElement && r.width > 0 && r.height > 0,
               text: m.getAttribute("alttext") || m.textContent };
    });
    return { imgs, missing, css, maths, title: document.title };
  });
  // What a screen reader and a keyboard meet: a skip link first, one
  // <h1> as the first heading and no level skipped, every table named
  // (its <caption>, or the heading above it), every image described.
  const a11y = await page.evaluate(() => {
    const problems = [];
    const first = document.querySelector("a[href], button, input, select, textarea, summary");
    if (!first || first.getAttribute("href") !== "#main" || !document.getElementById("main"))
      problems.push("no skip link to #main first");
    const hs = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
      .map((h) => +h.tagName[1]);
    if (hs[0] !== 1) problems.push(`first heading is h${hs[0]}, not h1`);
    if (hs.filter((l) => l === 1).length !== 1)
      problems.push(`${hs.filter((l) => l === 1).length} h1`);
    for (let i = 1; i < hs.length; i++)
      if (hs[i] > hs[i - 1] + 1) {
        problems.push(`heading h${hs[i]} after h${hs[i - 1]}`);
        break;
      }
    [...document.querySelectorAll("table")].forEach((t, i) => {
      const cap = t.querySelector(":scope > caption");
      const by = t.getAttribute("aria-labelledby");
      const name = cap ? cap.textContent : by ?
        (document.getElementById(by) || {}).textContent : t.getAttribute("aria-label");
      if (!name || !name.trim()) problems.push(`table ${i + 1} has no caption`);
    });
    for (const img of document.images)
      if (!img.alt || !img.alt.trim()) problems.push(`image ${img.getAttribute("src")} has no alt text`);
    return problems;
  });
  a11y.length ? no(`${file}: ${a11y.join("; ")}`) : ok();
  // Text contrast (WCAG AA: 4.5, 3 for large text) in both colour
  // schemes, on the site's own pages (the editions share their shell).
  if (!/^editions\/\d/.test(file)) {
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      const low = await page.evaluate(() => {
        const parse = (c) => {
          let m = c.match(/^rgba?\(([^)]*)\)/);
          if (m) {
            const v = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
            return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
          }
          m = c.match(/^color\(srgb ([^)]*)\)/);
          if (m) {
            const v = m[1].split(/[ /]+/).filter(Boolean).map(Number);
            return [v[0] * 255, v[1] * 255, v[2] * 255, v.length > 3 ? v[3] : 1];
          }
          return null;
        };
        const over = (a, b) => [0, 1, 2].map((i) => a[i] * a[3] + b[i] * (1 - a[3])).concat(1);
        const lum = (c) => {
          const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
          return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
        };
        const bg = (el) => {
          const layers = [];
          for (let e = el; e; e = e.parentElement) {
            const c = parse(getComputedStyle(e).backgroundColor);
            if (c && c[3] > 0) { layers.push(c); if (c[3] === 1) break; }
          }
          let acc = [255, 255, 255, 1];
          for (const l of layers.reverse()) acc = over(l, acc);
          return acc;
        };
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const seen = new Set();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          if (!n.data.trim() || seen.has(el) || el.closest("svg, .skip")) continue;
          seen.add(el);
          const st = getComputedStyle(el);
          if (st.visibility === "hidden" || !el.getClientRects().length) continue;
          const fg = parse(st.color);
          if (!fg) continue;
          const b = bg(el), f = over(fg, b);
          const l1 = lum(f), l2 = lum(b);
          const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
          const size = parseFloat(st.fontSize), bold = +st.fontWeight >= 700;
          const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
          if (ratio < need)
            out.push(`${el.tagName.toLowerCase()} "${n.data.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
        }
        return out;
      });
      low.length ? no(`${file} (${scheme}): low contrast: ${low.slice(0, 5).join("; ")}`) : ok();
    }
    await page.emulateMedia({ colorScheme: "light" });
  }
  // Tables a reader can read, on a desktop and on a phone: no column
  // squeezed until its cells stand MAX_LINES lines tall, and the card
  // tables (quantities, changes, editions) never wider than the page.
  if (!/^editions\/\d/.test(file)) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const bad = await page.evaluate((maxLines) => {
        const out = [];
        for (const td of document.querySelectorAll("td")) {
          const st = getComputedStyle(td);
          const lines = td.getBoundingClientRect().height /
            (parseFloat(st.lineHeight) || 1.2 * parseFloat(st.fontSize));
          if (lines > maxLines) {
            out.push(`a cell ${Math.round(lines)} lines tall ("${td.textContent.trim().slice(0, 30)}")`);
            break;
          }
        }
        // A caption stays inside the visible part of a box that scrolls
        // sideways, wrapped, not as wide as the table and cut off.
        for (const cap of document.querySelectorAll("caption")) {
          const box = cap.closest(".wide") || cap.parentElement;
          const b = box.getBoundingClientRect(), c = cap.getBoundingClientRect();
          if (c.width && (c.left < b.left - 1 || c.right > b.left + box.clientWidth + 1 ||
                          cap.scrollWidth > cap.clientWidth + 1)) {
            out.push(`caption "${cap.textContent.trim().slice(0, 30)}" is cut off (${Math.round(c.left - b.left)} to ${Math.round(c.right - b.left)} px of a ${box.clientWidth} px box)`);
            break;
          }
        }
        for (const t of document.querySelectorAll("table.quantities, table.changes, table.editions")) {
          const box = t.parentElement;
          if (box.scrollWidth > box.clientWidth + 1)
            out.push(`table "${((t.caption || {}).textContent || "").slice(0, 30)}" scrolls sideways (${box.scrollWidth} > ${box.clientWidth} px)`);
        }
        return out;
      }, MAX_LINES);
      bad.length ? no(`${file} at ${width} px: ${bad.slice(0, 3).join("; ")}`) : ok();
      // No number on two lines: the text of each block (a paragraph, a
      // cell, a caption), numbers found in it, each one's boxes on one
      // line. Code (names), formulas and figures are left out.
      const broken = await page.evaluate((src) => {
        const re = new RegExp(src, "g");
        const groups = new Map();
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          if (el.closest("svg, math, code, script, style")) continue;
          const block = el.closest("p, li, td, th, caption, figcaption, h1, h2, h3, h4, dt, dd, summary, div, main, body");
          if (!groups.has(block)) groups.set(block, []);
          groups.get(block).push(n);
        }
        const out = [];
        for (const nodes of groups.values()) {
          let text = "";
          const starts = nodes.map((n) => { const at = text.length; text += n.data; return at; });
          const where = (pos) => {
            let i = starts.length - 1;
            while (i > 0 && starts[i] > pos) i--;
            return [nodes[i], pos - starts[i]];
          };
          for (const m of text.matchAll(re)) {
            const range = document.createRange();
            range.setStart(...where(m.index));
            const end = where(m.index + m[0].length - 1);
            range.setEnd(end[0], end[1] + 1);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
            if (rects.length < 2) continue;
            const top = Math.max(...rects.map((r) => r.top));
            const bottom = Math.min(...rects.map((r) => r.bottom));
            if (top >= bottom - 1) out.push(m[0].replace(/\u00a0/g, "~"));
          }
        }
        return out;
      }, NUMBER);
      broken.length ? no(`${file} at ${width} px: numbers broken across lines: ${broken.slice(0, 5).join(" | ")}`) : ok();
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  for (const m of report.maths)
    m.ok ? ok() : no(`${file}: formula not rendered: ${m.text}`);
  // The formulas are set in the math font the site ships, loaded from
  // fonts/math.otf (not a font of this machine's of the same name).
  if (report.maths.length && !/^editions\/\d/.test(file)) {
    const font = await page.evaluate(async (family) => {
      await document.fonts.ready;
      const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, "") === family);
      const m = document.querySelector("math");
      return { faces: faces.map((f) => f.status),
               first: getComputedStyle(m).fontFamily.split(",")[0].replace(/"/g, "").trim() };
    }, MATH_FONT);
    font.first === MATH_FONT && font.faces.length === 1 && font.faces[0] === "loaded" ? ok() :
      no(`${file}: math font '${MATH_FONT}' not used (font-family starts with '${font.first}', faces: ${font.faces.join(", ") || "none"})`);
  }
  // Each root's radical spans its whole radicand, as drawn: in a picture
  // of the root, the sign left of the radicand stands most of its height
  // down to its bottom (a sign of one line's height beside a fraction
  // does not), and a bar above it runs its whole width.
  if (!/^editions\/\d/.test(file)) {
    for (const el of await page.$$("msqrt, mroot")) {
      await el.scrollIntoViewIfNeeded();
      const inner = await el.evaluate((e) => {
        const box = e.getBoundingClientRect();
        const kids = e.localName === "mroot" ? [e.firstElementChild] : [...e.children];
        const rs = kids.map((k) => k.getBoundingClientRect());
        return { l: Math.min(...rs.map((r) => r.left)) - box.left, r: Math.max(...rs.map((r) => r.right)) - box.left,
                 t: Math.min(...rs.map((r) => r.top)) - box.top, b: Math.max(...rs.map((r) => r.bottom)) - box.top,
                 text: e.textContent.slice(0, 40) };
      });
      const png = (await el.screenshot()).toString("base64");
      const seen = await page.evaluate(async ({ png, inner }) => {
        const img = new Image();
        img.src = "data:image/png;base64," + png;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width; c.height = img.height;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        // Ink: clearly darker than the page (thin strokes are grey).
        const ink = (x, y) => { const i = 4 * (y * c.width + x); return d[i] + d[i + 1] + d[i + 2] < 3 * 200; };
        // The sign: the rows with ink left of the radicand.
        let top = Infinity, bottom = -Infinity;
        for (let y = 0; y < c.height; y++)
          for (let x = 0; x < Math.floor(inner.l); x++)
            if (ink(x, y)) { top = Math.min(top, y); bottom = Math.max(bottom, y); }
        // The bar: a row above the radicand inked across its width (less
        // a pixel each side: an italic V's box reaches past its ink), or
        // in the row of its top: the picture starts where the box's top
        // is rounded to, up to a pixel off (a bar 0.4 px above a
        // radicand's top at y = 1.9 fell in row 2 when the box stood at
        // y = 757.56 on the page).
        let bar = 0;
        const l = Math.ceil(inner.l) + 1, r = Math.min(Math.floor(inner.r) - 1, c.width);
        for (let y = 0; y < Math.floor(inner.t) + 2 && y < c.height; y++) {
          let n = 0;
          for (let x = l; x < r; x++) n += ink(x, y);
          bar = Math.max(bar, n / Math.max(1, r - l));
        }
        return { top, bottom, bar };
      }, { png, inner });
      // The sign's stroke leaves the bar a little right of where it
      // starts: its ink left of the radicand need not reach the top.
      const h = inner.b - inner.t;
      seen.bottom - seen.top >= 0.75 * h && seen.bottom >= inner.b - 0.15 * h && seen.bar >= 0.95 ? ok() :
        no(`${file}: the radical of '${inner.text}' does not span its radicand (sign rows ${seen.top}-${seen.bottom}, radicand ${Math.round(inner.t)}-${Math.round(inner.b)}, bar over ${Math.round(seen.bar * 100)}%)`);
    }
  }
  for (const img of report.imgs)
    img.ok ? ok() : no(`${file}: image ${img.src} did not load`);
  report.missing.length ? no(`${file}: anchors missing: ${report.missing.slice(0, 5).join(", ")}`) : ok();
  report.css > 0 ? ok() : no(`${file}: stylesheet not loaded`);
  report.title ? ok() : no(`${file}: no title`);
  errors.length ? no(`${file}: script errors: ${errors.join("; ")}`) : ok();
  if (file === "index.html") {
    // The figures follow the colour scheme: sampled from a screenshot of
    // each, its background (the pixels near its top-left corner) is light
    // in light mode and dark in dark mode, and in dark mode hardly a
    // pixel of it is white.
    const shade = (png) => page.evaluate(async (b64) => {
      const im = new Image();
      im.src = "data:image/png;base64," + b64;
      await im.decode();
      const c = document.createElement("canvas");
      c.width = im.width; c.height = im.height;
      const x = c.getContext("2d");
      x.drawImage(im, 0, 0);
      const d = x.getImageData(0, 0, c.width, c.height).data;
      const lum = (i) => (0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]) / 255;
      let white = 0;
      for (let i = 0; i < d.length; i += 4) if (lum(i) > 0.9) white++;
      let corner = 0;
      for (let y = 4; y < 8; y++) for (let xx = 4; xx < 8; xx++) corner += lum((y * c.width + xx) * 4) / 16;
      return { corner, white: white / (d.length / 4) };
    }, png.toString("base64"));
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const scheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const fig of await page.$$("figure img")) {
          await fig.scrollIntoViewIfNeeded();
          const src = await fig.evaluate((i) => i.currentSrc.split("/").pop());
          const s = await shade(await fig.screenshot());
          if (scheme === "dark" ? s.corner < 0.15 && s.white < 0.02 : s.corner > 0.85)
            ok();
          else
            no(`${src} at ${width} px in ${scheme} mode: background ${s.corner.toFixed(2)} light, ${(100 * s.white).toFixed(1)}% of it white`);
        }
      }
      // The smallest text of each figure shown, in CSS pixels: its SVG's
      // smallest font-size, scaled as the image is.
      await page.emulateMedia({ colorScheme: "light" });
      const shown = await page.$$eval("figure img", (imgs) => imgs.map((i) => ({
        src: i.currentSrc, width: i.getBoundingClientRect().width -
          parseFloat(getComputedStyle(i).borderLeftWidth) - parseFloat(getComputedStyle(i).borderRightWidth) })));
      for (const f of shown) {
        const svg = readFileSync(fileURLToPath(f.src), "utf8");
        const sizes = [...svg.matchAll(/font-size[=:]\s*["']?([0-9.]+)/g)].map((m) => +m[1]);
        const px = Math.min(...sizes) * f.width / +svg.match(/<svg[^>]*\swidth="([0-9.]+)"/)[1];
        const name = f.src.split("/").pop();
        if (width === 390 && !name.includes("-narrow"))
          no(`${name} shown at 390 px, not its narrow rendering`);
        else if (sizes.length && px >= 11)
          ok();
        else
          no(`${name} at ${width} px: text ${px.toFixed(1)} px high, under 11`);
      }
    }
    // The layout: at 1280 px the contents stand beside the text, not a
    // column's width away from it (265 px once, the contents right of
    // the width the wide tables use); on a phone (390 x 844) the text
    // starts on the first screen: a title of three lines at most, and
    // the first paragraph in the upper 60% (the masthead, a title of
    // five lines, the contents and the edition's note filled 68%).
    await page.setViewportSize({ width: 1280, height: 900 });
    const gap = await page.evaluate(() => {
      const text = document.querySelector("main > p:not([class])").getBoundingClientRect();
      const toc = document.querySelector("nav.toc");
      const t = toc && toc.getBoundingClientRect();
      return t && t.width ? Math.max(t.left - text.right, text.left - t.right) : null;
    });
    gap !== null && gap <= 48 ? ok() :
      no(`index.html at 1280 px: the contents ${gap} px from the text (at most 48)`);
    await page.setViewportSize({ width: 390, height: 844 });
    const phone = await page.evaluate(() => {
      scrollTo(0, 0);
      const range = document.createRange();
      range.selectNodeContents(document.querySelector("h1"));
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom))).size;
      return { lines, top: document.querySelector("main > p:not([class])").getBoundingClientRect().top,
               height: innerHeight };
    });
    phone.lines <= 3 && phone.top <= 0.6 * phone.height ? ok() :
      no(`index.html at 390 px: a title of ${phone.lines} lines, the text from ${Math.round(phone.top)} px of ${phone.height} (${Math.round(100 * phone.top / phone.height)}%; at most 3 lines and 60%)`);
    console.log(`browser: layout: contents ${gap} px from the text at 1280 px; at 390 px a title of ${phone.lines} lines, the text from ${Math.round(100 * phone.top / phone.height)}% of the screen`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => scrollTo(0, 0));
      await page.screenshot({ path: join(shots, `index-${scheme}.png`), fullPage: false });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => scrollTo(0, 0));
      await page.screenshot({ path: join(shots, `index-390-${scheme}.png`), fullPage: false });
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 900 });
    console.log(`browser: ${report.imgs.length} images and ${report.maths.length} formulas on index.html; screenshots in ${shots}`);
  }
  await page.close();
}
outside.length ? no(`requests to other hosts: ${[...new Set(outside)].join(", ")}`) : ok();
await browser.close();
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
