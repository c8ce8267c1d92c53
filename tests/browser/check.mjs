// Loads every page of the site in headless Chromium (no network) and
// checks what a reader would see: every image loaded, every same-page
// anchor exists, nothing requested from another host. Saves screenshots
// of index.html in light and dark mode.
// Usage: node check.mjs SITE_DIR SHOT_DIR
import { chromium } from "playwright-core";
import { readdirSync, mkdirSync } from "node:fs";
import { resolve, join } from "node:path";
import { pathToFileURL } from "node:url";

const site = resolve(process.argv[2] || "out");
const shots = resolve(process.argv[3] || "build/browser");
mkdirSync(shots, { recursive: true });
let passed = 0, failed = 0;
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
  for (const m of report.maths)
    m.ok ? ok() : no(`${file}: formula not rendered: ${m.text}`);
  for (const img of report.imgs)
    img.ok ? ok() : no(`${file}: image ${img.src} did not load`);
  report.missing.length ? no(`${file}: anchors missing: ${report.missing.slice(0, 5).join(", ")}`) : ok();
  report.css > 0 ? ok() : no(`${file}: stylesheet not loaded`);
  report.title ? ok() : no(`${file}: no title`);
  errors.length ? no(`${file}: script errors: ${errors.join("; ")}`) : ok();
  if (file === "index.html") {
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(shots, `index-${scheme}.png`), fullPage: false });
    }
    console.log(`browser: ${report.imgs.length} images and ${report.maths.length} formulas on index.html; screenshots in ${shots}`);
  }
  await page.close();
}
outside.length ? no(`requests to other hosts: ${[...new Set(outside)].join(", ")}`) : ok();
await browser.close();
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
