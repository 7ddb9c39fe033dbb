import { rm } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import {
  cardEval,
  greeterRunArgs,
  noteEval,
  writeGreeter,
  writeGreeterSuite,
} from "../bench/greeter-models.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { tempDir } from "../e2e/helpers.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";

let dir: string;
let cleanup: () => Promise<void>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
const workspace = () => join(dir, "ws");

// A poem no rule of the sim script answers: it fails with and without the skill, so the old model's lift differs
// from eval to eval and its interval is wide enough to see.
const poemEval = { id: 3, prompt: "Write a birthday poem for Ada", file: "poem.txt" };

// Two iterations of the greeter through the CLI: the old model (the skill lifts two evals of three), then the new one
// (the thank-you note breaks with the skill), so history.json holds a baseline row and a row with one eval regressed.
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeGreeter(dir);
  await writeGreeterSuite(dir, [cardEval, noteEval, poemEval]);
  for (const model of ["old", "new"]) {
    const result = await skillgymHereOnDouble(greeterRunArgs(dir, model, workspace()));
    expect(result.code, result.stderr).toBe(0);
  }
  server = await startViewServer({ folder: workspace() });
  browser = await launchBrowser();
  context = browser.context;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await cleanup?.();
});

const column = (page: Page, cell: string) =>
  page.locator(`#panel-over-time table.over-time tbody td.${cell}`).allTextContents();

async function openOverTime(url: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await openPage(context);
  await opened.page.goto(url);
  await waitReady(opened.page);
  await opened.page.click("#tab-over-time");
  return opened;
}

async function checkLift(page: Page): Promise<void> {
  expect(await column(page, "verdict")).toEqual(["inconclusive", "no effect"]);
  expect(await column(page, "vs-previous")).toEqual(["—", "inconclusive (1 eval regressed)"]);
  expect(await page.locator("#panel-over-time svg.lift-chart .lift-band").count()).toBeGreaterThan(0);
  expect(await page.locator("#panel-over-time svg.lift-chart .lift-floor").count()).toBe(2);
  expect(await page.locator("#panel-over-time svg.lift-chart .lift-zero").count()).toBe(1);
  expect(await page.locator(".lift-point").count()).toBe(2);
  const ring = page.locator('.regressed-mark[data-iteration="2"]');
  expect(await ring.count()).toBe(1);
  expect(await ring.locator("title").textContent()).toBe("iteration-2: 1 eval regressed against iteration-1");
  expect(await page.getAttribute('.lift-point[data-iteration="2"]', "class")).toBe("lift-point regressed");
  expect(await page.locator('.regressed-mark[data-iteration="1"]').count()).toBe(0);
}

describe("Over time with history.json", () => {
  it("draws the lift with its interval band, the verdicts, and the regressed iteration ringed", async () => {
    const { page, errors } = await openOverTime(server.url);
    await checkLift(page);
    // One band through both iterations: at the first, from its interval's top (+1) down to its bottom (0).
    const corners = (await page.getAttribute(".lift-band", "points"))!
      .split(" ")
      .map((p) => p.split(",").map(Number));
    expect(corners).toHaveLength(4);
    const [top, , , bottom] = corners as [[number, number], unknown, unknown, [number, number]];
    expect(top[0]).toBe(bottom[0]);
    expect(bottom[1] - top[1]).toBeGreaterThan(50);
    await saveScreenshot(page, "over-time-history");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the same in the report.html run leaves in the latest iteration", async () => {
    const { page, errors } = await openOverTime(
      pathToFileURL(join(workspace(), "iteration-2", "report.html")).href,
    );
    await checkLift(page);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("keeps working on a workspace without history.json: no lift, dashes in the table", async () => {
    await rm(join(workspace(), "history.json"));
    const { page, errors } = await openOverTime(server.url);
    expect(await column(page, "verdict")).toEqual(["—", "—"]);
    expect(await column(page, "vs-previous")).toEqual(["—", "—"]);
    expect(await page.locator("#panel-over-time .lift-band").count()).toBe(0);
    expect(await page.locator("#panel-over-time table.over-time tbody tr").count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
