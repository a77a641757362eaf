// The evaluation graphs of `thoat annotate --svg` in a real browser: annotates a short game
// of every variant, opens each SVG in headless Debian Chromium, checks what it draws (a
// point per position, the marked moves, the legend) and saves a screenshot of each to
// target/screenshots/annotate-<game>.png.
//
// Run: `make test-browser` (builds the binary first), or `node --test annotate.test.mjs`
// here with THOAT_BIN and CHROMIUM set when they are not target/debug/thoat and
// /usr/bin/chromium.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const binary = process.env.THOAT_BIN || path.join(root, "target/debug/thoat");
const shots = path.join(root, "target/screenshots");

// The chess game has a blunder (3. Qxf7+); the others are short games of `thoat match`.
const CHESS = "[White \"w\"]\n[Black \"b\"]\n\n1. e2e4 e7e5 2. d1h5 b8c6 3. h5f7 e8f7 4. g1f3 d7d5 *\n";
const VARIANTS = ["chess", "duck", "chaturanga", "skak", "jetan"];

/** A PGN file of one game of `variant`: the chess one above, or a quick self-play game. */
function gamePgn(variant) {
  const pgn = path.join(dir, `${variant}.pgn`);
  if (variant === "chess") {
    writeFileSync(pgn, CHESS);
  } else {
    execFileSync(binary, ["match", "--variant", variant, "--engine", `cmd=${binary}`, "name=a",
      "--engine", `cmd=${binary}`, "name=b", "--games", "1", "--tc", "nodes=200",
      "--maxmoves", "12", "--openings", path.join(root, `positions/openings/${variant}.epd`),
      "--pgn", pgn], { stdio: "ignore" });
  }
  return pgn;
}

let browser, page, dir;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "thoat-annotate-svg-"));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await browser.newPage({ viewport: { width: 760, height: 300 } });
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  if (browser) await browser.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const variant of VARIANTS) {
  test(`the ${variant} graph renders with a point per position`, async () => {
    const pgn = gamePgn(variant);
    const svgDir = path.join(dir, variant);
    execFileSync(binary, ["annotate", "--variant", variant, "--input", pgn, "--depth", "5",
      "--svg", svgDir, "--output", path.join(dir, `${variant}-annotated.pgn`)]);
    const file = path.join(svgDir, "game-001.svg");
    assert.match(readFileSync(file, "utf8"), /^<svg xmlns/);
    const errors = [];
    page.removeAllListeners("pageerror");
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(pathToFileURL(file).href);
    // The plies of the game as annotated: the moves after the tags, without numbers,
    // comments, variations and the result.
    const annotated = readFileSync(path.join(dir, `${variant}-annotated.pgn`), "utf8");
    const movetext = annotated.split("\n\n")[1].replace(/\{[^}]*\}/g, " ").replace(/\([^)]*\)/g, " ");
    const plies = movetext.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t)
      && !["1-0", "0-1", "1/2-1/2", "*"].includes(t)).length;
    assert.ok(plies >= 4, `${variant}: ${plies} plies`);
    const drawn = await page.evaluate(() => {
      const polygon = document.querySelector("polygon.white-share");
      const box = document.querySelector("svg").getBoundingClientRect();
      return {
        points: polygon ? polygon.points.numberOfItems : 0,
        area: polygon ? polygon.getBBox().width * polygon.getBBox().height : 0,
        marked: document.querySelectorAll("circle[class]").length,
        legend: [...document.querySelectorAll("text")].map((t) => t.textContent).join(" "),
        width: box.width,
      };
    });
    assert.equal(drawn.points, plies + 3, "one point per position and two on the base line");
    assert.ok(drawn.area > 0, "the white share has an area");
    assert.ok(drawn.width >= 700, `rendered at full width (${drawn.width})`);
    assert.match(drawn.legend, /\?\? blunder/);
    if (variant === "chess") assert.ok(drawn.marked >= 1, "3. h5f7 is marked");
    assert.deepEqual(errors, []);
    await page.screenshot({ path: path.join(shots, `annotate-${variant}.png`) });
  });
}
