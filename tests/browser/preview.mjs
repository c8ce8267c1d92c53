// The preview of `ultimate watch --serve` in headless Chromium: after
// each build a page open reloads when the build changed it or a file
// it shows, and only then. A sentence added to the report's prose
// reloads index.html once (the newest edition, not again when the other
// editions follow) and leaves methods.html as it is; a change to the
// figures' house style reloads index.html (its figures changed, not its
// text); a build that fails shows its errors, and the fix clears them.
// Usage: node preview.mjs ULTIMATE PROJECT_DIR (data/ and templates/,
// a copy: it is edited)
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";

const [ult, dir] = process.argv.slice(2);
let passed = 0, failed = 0;
const ok = () => passed++;
const no = (msg) => { console.log("FAIL: preview: " + msg); failed++; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const w = spawn(ult, ["-d", "data", "-t", "templates", "-o", "out",
  "watch", "--serve", "0"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
let log = "";
w.stdout.on("data", (d) => { log += d; });
w.stderr.on("data", (d) => { log += d; });
const lines = (re) => log.split("\n").filter((l) => re.test(l)).length;
async function until(what, test, ms) {
  for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(50))
    if (test()) return true;
  no(what + "\n" + log);
  return false;
}
// Each edit: wait until both builds are done and the pages have had
// time to ask again and reload.
async function built(re, n) {
  const ret = await until("no build line " + re, () => lines(re) > n, 60000);
  await sleep(1500);
  return ret;
}

const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
try {
  if (!await until("first build", () => /built out\/ in/.test(log), 60000))
    throw new Error("no site");
  const url = log.match(/serving 'out' at (http:\S+)/)[1];
  const loads = {};
  const open = async (page) => {
    const p = await b.newPage();
    loads[page] = 0;
    p.on("load", () => loads[page]++);
    await p.goto(url + page);
    await sleep(300);
    return p;
  };
  const index = await open("index.html");
  const methods = await open("methods.html");
  const rest = /rebuilt the other editions/;

  // Prose: the report's page once, the Methods page not at all.
  const report = join(dir, "templates", "report.md");
  const orig = readFileSync(report, "utf8");
  let n = lines(rest);
  appendFileSync(report, "\nPreview mark one.\n");
  if (await built(rest, n)) {
    if (loads["index.html"] === 2) ok();
    else no(`a prose edit: index.html loaded ${loads["index.html"] - 1} times, want 1`);
    if (loads["methods.html"] === 1) ok();
    else no(`a prose edit: methods.html loaded ${loads["methods.html"] - 1} times, want 0`);
    if ((await index.content()).includes("Preview mark one.")) ok();
    else no("a prose edit: not on the page");
  }

  // The figures alone changed: the page that shows them reloads.
  const style = join(dir, "templates", "figures", "style.gp");
  n = lines(rest);
  const before = loads["index.html"];
  const colours = readFileSync(style, "utf8");
  if (!colours.includes('blue = "#0072B2"')) no("style.gp: no blue to change");
  writeFileSync(style, colours.replace('blue = "#0072B2"', 'blue = "#0072B3"'));
  if (await built(rest, n)) {
    if (loads["index.html"] > before) ok();
    else no("the figures changed: index.html not reloaded");
  }

  // A failed build shows its errors; the fix, nothing.
  n = lines(/build failed/);
  writeFileSync(report, orig + "\n{{ laptop.ops_mx }}\n");
  if (await built(/build failed/, n)) {
    if (await index.locator("#ultimate-errors").count() === 1) ok();
    else no("a failed build: no errors on the page");
  }
  n = lines(rest);
  writeFileSync(report, orig);
  if (await built(rest, n)) {
    if (await index.locator("#ultimate-errors").count() === 0) ok();
    else no("the fix: the errors still shown");
  }
} catch (e) {
  no(String(e));
} finally {
  await b.close();
  w.kill("SIGINT");
}
console.log(`preview: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
