// The board in a real browser: starts `thoat serve` on a free port, loads the page in
// headless Debian Chromium (playwright-core with the system browser; no browser download),
// saves a screenshot of every game's start position to target/screenshots/<game>.png, and
// plays jetan and duck chess by clicking, checking the board and the engine's replies.
//
// Run: `make test-browser` (builds the binary first), or `node --test` here with THOAT_BIN
// and CHROMIUM set when they are not target/debug/thoat and /usr/bin/chromium.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const binary = process.env.THOAT_BIN || path.join(root, "target/debug/thoat");
const shots = path.join(root, "target/screenshots");
const SIZES = { chess: [8, 8], duck: [8, 8], chaturanga: [8, 8], skak: [7, 7], jetan: [10, 10] };

let server, browser, page, base;
const pageErrors = [];

function startServer() {
  return new Promise((resolve, reject) => {
    server = spawn(binary, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no address from ${binary}: ${out}`)), 10000);
    server.on("error", reject);
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/[\d.]+:\d+\//);
      if (match) { clearTimeout(timer); resolve(match[0]); }
    });
  });
}

before(async () => {
  base = await startServer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    // The flags this machine needs (its network is closed): see docs/serve.md.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    // (playwright gives the browser a new empty profile of its own)
  });
  page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  await page.goto(base);
  mkdirSync(shots, { recursive: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill();
});

/** Chooses a game (the page starts a new game), waits for its board and the human's turn. */
async function newGame(variant, { human = "w", depth = 2 } = {}) {
  await page.selectOption("#strength-kind", "depth");
  await page.fill("#strength", String(depth));
  await page.selectOption("#human", human);
  await page.selectOption("#variant", variant);
  const [w, h] = SIZES[variant];
  const ready = () => page.waitForFunction(([n]) => document.querySelectorAll("#board .sq").length === n
      && /your turn/.test(document.getElementById("status").textContent), [w * h]);
  await ready();
  // The select starts a game only when it changes: start a fresh one in any case.
  const id = await page.getAttribute("body", "data-game");
  await page.click("#new-game");
  await page.waitForFunction((id) => document.body.dataset.game !== id
      && document.body.dataset.busy === "false", id);
  await ready();
}

const pieceAt = (sq) => page.$eval(`[data-square="${sq}"]`,
  (el) => el.querySelector("[data-piece]")?.dataset.piece ?? null);
const moveList = () => page.$$eval("#moves .mv", (els) => els.map((e) => e.textContent));
async function waitForPlies(n) {
  await page.waitForFunction((n) => document.querySelectorAll("#moves .mv").length >= n
      && /your turn|wins|Draw/.test(document.getElementById("status").textContent), n);
}

test("every game's start position is drawn with coordinates, pieces and a legend", async () => {
  for (const [variant, [w, h]] of Object.entries(SIZES)) {
    await newGame(variant);
    assert.equal(await page.$$eval("#files .coord", (e) => e.length), w, variant);
    assert.equal(await page.$$eval("#ranks .coord", (e) => e.length), h, variant);
    const lastFile = String.fromCharCode(96 + w);
    assert.equal(await page.$eval("#files .coord:last-child", (e) => e.textContent), lastFile);
    const pieces = await page.$$eval("#board [data-piece]", (e) => e.length);
    assert.equal(pieces, { chess: 32, duck: 32, chaturanga: 32, skak: 28, jetan: 40 }[variant], variant);
    // Every piece is drawn (an SVG with shapes inside), and the legend lists the game's pieces.
    const empty = await page.$$eval("#board svg.piece", (e) => e.filter((s) => !s.children.length).length);
    assert.equal(empty, 0, `${variant}: a piece without an image`);
    const legend = await page.$$eval("#legend svg", (e) => e.length);
    assert.equal(legend, { chess: 6, duck: 7, chaturanga: 6, skak: 5, jetan: 8 }[variant], variant);
    await page.screenshot({ path: path.join(shots, `${variant}.png`) });
  }
});

test("jetan: the Princess's escape is marked; a Panthan move by clicks gets an engine reply", async () => {
  await newGame("jetan");
  // White's Princess on f1: f3 is a normal move, a3 only by the escape.
  await page.click('[data-square="f1"]');
  await page.waitForSelector('[data-square="a3"].target');
  assert.ok(await page.$('[data-square="a3"].target.escape'), "a3 offered as the escape");
  assert.ok(await page.$('[data-square="f3"].target:not(.escape)'), "f3 a normal move");
  assert.match(await page.textContent("#marks"), /escape/);
  await page.screenshot({ path: path.join(shots, "jetan-princess-moves.png") });
  // A Panthan: b2 to b3.
  await page.click('[data-square="b2"]');
  // b3 was already marked as a Princess escape: wait for it as the Panthan's normal target.
  await page.waitForSelector('[data-square="b3"].target:not(.escape)');
  assert.equal(await page.$('[data-square="f3"].target'), null, "the Princess's targets are gone");
  await page.click('[data-square="b3"]');
  await waitForPlies(2);
  const moves = await moveList();
  assert.equal(moves[0], "b2b3");
  assert.equal(await pieceAt("b3"), "P");
  assert.equal(await pieceAt("b2"), null);
  // The engine's reply: a Black piece now stands on its destination, and eval/depth/PV shown.
  const reply = await page.textContent("#engine-info .reply-move");
  assert.equal(reply, moves[1]);
  const [, from, to] = reply.match(/^([a-j]\d+)([a-j]\d+)$/);
  assert.equal(await pieceAt(from), null);
  assert.match(await pieceAt(to), /^[a-z]$/);
  assert.match(await page.textContent("#engine-info .eval"), /^([+-]\d+\.\d\d|#-?\d+)$/);
  assert.equal(await page.textContent("#engine-info .depth"), "2");
  assert.match(await page.textContent("#engine-info .pv"), new RegExp(`^PV: ${reply}`));
  // Undo takes back both plies.
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#moves .mv").length === 0);
  assert.equal(await pieceAt("b2"), "P");
});

test("duck chess: the piece move, then the duck's square by a second click", async () => {
  await newGame("duck");
  await page.click('[data-square="e2"]');
  await page.waitForSelector('[data-square="e4"].target');
  assert.ok(await page.$('[data-square="e3"].target'));
  await page.click('[data-square="e4"]');
  // Now the duck: every empty square (e2 included, the square just left) is offered.
  await page.waitForSelector('[data-square="d5"].target.duckspot');
  assert.equal(await page.$$eval(".sq.duckspot", (e) => e.length), 32);
  assert.match(await page.textContent("#status"), /place the duck/);
  await page.screenshot({ path: path.join(shots, "duck-second-click.png") });
  await page.click('[data-square="d5"]');
  await waitForPlies(2);
  const moves = await moveList();
  assert.equal(moves[0], "e2e4,e4d5");
  assert.equal(await pieceAt("e4"), "P");
  // The engine's turn moved one black piece and the duck to a new square.
  const reply = await page.textContent("#engine-info .reply-move");
  assert.equal(reply, moves[1]);
  const [, from, to, duck] = reply.match(/^([a-h]\d)([a-h]\d)[qrbn]?,[a-h]\d([a-h]\d)$/);
  assert.notEqual(duck, "d5");
  assert.equal(await pieceAt(duck), "*");
  assert.equal(await page.$$eval('#board [data-piece="*"]', (e) => e.length), 1);
  // The square the piece left is empty, or the duck's: it may close the line it opened.
  assert.equal(await pieceAt(from), from === duck ? "*" : null);
  assert.match(await pieceAt(to), /^[a-z]$/);
  // The human's second turn: the knight dragged from g1 to f3, then the duck by a click.
  const centre = async (sq) => {
    const box = await page.locator(`[data-square="${sq}"]`).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const [g1, f3] = [await centre("g1"), await centre("f3")];
  await page.mouse.move(...g1);
  await page.mouse.down();
  await page.mouse.move(...f3, { steps: 8 });
  assert.ok(await page.$(".ghost svg"), "the dragged piece follows the pointer");
  await page.mouse.up();
  await page.waitForSelector(".sq.duckspot");
  assert.equal(await page.$(`[data-square="${duck}"].duckspot`), null, "the duck must move");
  const spot = await page.$eval(".sq.duckspot", (e) => e.dataset.square);
  await page.click(`[data-square="${spot}"]`);
  await waitForPlies(4);
  assert.equal((await moveList())[2], `g1f3,f3${spot}`);
  await page.screenshot({ path: path.join(shots, "duck-after-two-turns.png") });
});

test("a pasted FEN where Black begins: the engine moves first when the person plays White", async () => {
  await newGame("skak");
  await page.fill("#fen-input", "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - 0 1");
  await page.click("#new-game");
  await waitForPlies(1);
  const moves = await moveList();
  assert.equal(moves.length, 1);
  assert.match(await page.textContent("#moves"), /^1…/);
  await page.fill("#fen-input", "");
});

/** Starts a game of `variant` from `fen`, the person playing `human`. */
async function fromFen(variant, fen, human = "w") {
  await newGame(variant, { human });
  await page.fill("#fen-input", fen);
  const id = await page.getAttribute("body", "data-game");
  await page.click("#new-game");
  await page.waitForFunction((id) => document.body.dataset.game !== id
      && document.body.dataset.busy === "false", id);
  await page.fill("#fen-input", "");
}

test("chess promotion asks for the piece; a capture of the Jarkhan ends skak with its reason", async () => {
  // (a rook too, so that king and knight against king is not a draw at once)
  await fromFen("chess", "7R/P7/8/8/8/8/8/k6K w - - 0 1");
  // The second click waits for the first one's moves (a request) to be drawn, as a person
  // does; clicked at once, it may come before them and be taken for a new first click.
  await page.click('[data-square="a7"]');
  await page.waitForSelector('[data-square="a8"].target');
  await page.click('[data-square="a8"]');
  await page.waitForSelector("#promo.show");
  assert.equal(await page.$$eval("#promo button", (e) => e.length), 4);
  await page.click('#promo button[title="n"]');
  await waitForPlies(2);
  assert.equal((await moveList())[0], "a7a8n");
  assert.equal(await pieceAt("a8"), "N");

  await fromFen("skak", "3k3/7/7/7/7/7/3QK2 w - - 0 1");
  await page.click('[data-square="d1"]');
  await page.waitForSelector('[data-square="d7"].target');
  await page.click('[data-square="d7"]');
  await page.waitForSelector("#status.over");
  assert.equal(await page.textContent("#status"), "White wins — jarkhan captured (1-0)");
  await page.screenshot({ path: path.join(shots, "skak-result.png") });
  // Download PGN: the match runner's PGN, with the result and its reason.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#pgn")]);
  const pgn = readFileSync(await download.path(), "utf8");
  assert.match(pgn, /\[Termination "jarkhan captured"\]/);
  assert.match(pgn, /1\. d1d7 1-0/);
  // Flip: files run g..a, ranks 1..7 from the top.
  await page.click("#flip");
  assert.equal(await page.$eval("#files .coord", (e) => e.textContent), "g");
  assert.equal(await page.$eval("#ranks .coord", (e) => e.textContent), "1");
  assert.equal(await page.$eval("#board .sq", (e) => e.dataset.square), "g1");
});

/** Plays `from`-`to` by two clicks and waits for the engine's reply. */
async function playByClicks(from, to) {
  const plies = (await moveList()).length;
  await page.click(`[data-square="${from}"]`);
  await page.waitForSelector(`[data-square="${to}"].target`);
  await page.click(`[data-square="${to}"]`);
  await waitForPlies(plies + 2);
}

const analysisDepth = async () =>
  Number((await page.textContent("#analysis-status")).match(/depth (\d+)/)?.[1] ?? 0);

test("the graph has a point per position; Analyse draws live lines and arrows until it is off", async () => {
  await newGame("chess", { depth: 1 });
  await playByClicks("e2", "e4");
  await playByClicks("b1", "c3");
  // Every position of the game gets its evaluation: the start and four plies.
  await page.waitForFunction(() => document.querySelectorAll("#graph .point").length === 5);
  assert.equal(await page.$$eval("#graph .point", (e) => e.map((p) => p.dataset.ply).join()), "0,1,2,3,4");
  // The last point is the engine's reply, with its evaluation (White's view) as the title.
  const reply = await page.textContent("#engine-info .eval");
  assert.match(await page.textContent('#graph .point[data-ply="4"] title'), new RegExp(`^2… .*: \\${reply}$`));
  assert.equal(await page.$$eval("#graph polyline", (e) => e.length), 1);

  await page.check("#analyse");
  await page.waitForFunction(() => document.querySelectorAll("#analysis-lines .line").length === 3
      && document.querySelectorAll("#board .arrow").length === 3);
  // The arrows are the lines' first moves; the lines are of the position on the board.
  const firsts = await page.$$eval("#analysis-lines .pv", (e) => e.map((p) => p.textContent.split(" ")[0]));
  const arrows = await page.$$eval("#board .arrow", (e) => e.map((a) => a.dataset.move));
  assert.deepEqual([...arrows].reverse(), firsts);
  assert.equal(new Set(firsts).size, 3);
  assert.equal(await page.getAttribute("body", "data-analysis-fen"), await page.inputValue("#fen-out"));
  // Live: deeper lines arrive while it thinks.
  const depth = await analysisDepth();
  await page.waitForFunction((d) => Number(document.getElementById("analysis-status").textContent
      .match(/depth (\d+)/)?.[1] ?? 0) > d, depth);
  await page.screenshot({ path: path.join(shots, "chess-analysis.png"), fullPage: true });

  // A change of position (undo) analyses the new one.
  const before = await page.inputValue("#fen-out");
  await page.click("#undo");
  await page.waitForFunction((fen) => document.getElementById("fen-out").value !== fen
      && document.body.dataset.analysisFen === document.getElementById("fen-out").value
      && document.querySelectorAll("#board .arrow").length === 3, before);
  await page.waitForFunction(() => document.querySelectorAll("#graph .point").length === 3);

  // Off: the lines and arrows go, and the server thinks no more.
  await page.selectOption("#multipv", "1");
  await page.waitForFunction(() => document.querySelectorAll("#board .arrow").length === 1);
  await page.uncheck("#analyse");
  await page.waitForFunction(() => document.body.dataset.analysis === "off"
      && !document.querySelector("#board .arrow, #analysis-lines .line"));
  const id = await page.getAttribute("body", "data-game");
  const server = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/analysis`)).json(), id);
  assert.equal(server.running, false);
  assert.deepEqual(server.lines, []);
});

test("annotate marks the blunder, coloured, in the move list and on the graph", async () => {
  // White's queen walks into the rook's file; the engine takes it.
  await fromFen("chess", "3rk3/8/8/8/8/8/8/4KQ2 w - - 0 1");
  await playByClicks("f1", "d3");
  assert.deepEqual(await moveList(), ["f1d3", "d8d3"]);
  assert.equal(await page.$("#moves .nag"), null, "no marks before annotating");
  await page.click("#annotate");
  await page.waitForSelector("#moves .nag");
  const nags = await page.$$eval("#moves .ply", (e) => e.map((p) => p.querySelector(".nag")?.textContent ?? ""));
  assert.deepEqual(nags, ["??", ""]);
  assert.equal(await page.$eval("#moves .nag", (e) => getComputedStyle(e).color), "rgb(208, 32, 32)");
  assert.deepEqual(await page.$$eval("#graph .mark", (e) => e.map((m) => `${m.dataset.ply} ${m.classList}`)),
    ["1 mark blunder"]);
  assert.match(await page.textContent("#annotate-status"),
    /^Accuracy: White \d+ · Black \d+ — 0 inaccuracies, 0 mistakes, 1 blunder$/);
  // The graph shows the annotator's evaluations: White was winning, then lost.
  const heights = await page.$$eval("#graph .point", (e) => e.map((p) => Number(p.getAttribute("cy"))));
  assert.equal(heights.length, 3);
  assert.ok(heights[0] < 60 && heights[2] > 60, `${heights}`);
  await page.screenshot({ path: path.join(shots, "chess-annotated.png"), fullPage: true });
});

test("the page raised no script errors", () => {
  assert.deepEqual(pageErrors, []);
});
