import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import { writeStaticViewer } from "../../src/report/static-viewer.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";
import { finalReport, writeTuneFolder } from "./tune-fixture.js";
import { tempDir, writeFakeIteration } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
const workspace = () => join(ws.dir, "workspace");

beforeAll(async () => {
  ws = await tempDir();
  await writeFakeIteration(join(workspace(), "iteration-1"), { evals: 1, runsPerConfiguration: 1 });
  await writeTuneFolder(workspace(), "tune-20260102-030405");
  server = await startViewServer({ folder: workspace() });
  browser = await launchBrowser();
  context = browser.context;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
});

async function checkTuneTab(page: Page): Promise<void> {
  await page.click("#tab-tune");
  await page.waitForSelector('#panel-tune section.tune[data-tune="tune-20260102-030405"]');
  const scores = await page.locator("#panel-tune .tune-table tbody td.score").allTextContents();
  expect(scores).toEqual(["52.5", "78.3", "64.5"]);
  const results = await page.locator("#panel-tune .tune-table tbody tr td:last-child").allTextContents();
  expect(results).toEqual(["baseline", "won", "lost"]);
  expect(await page.locator("#panel-tune .tune-bar").count()).toBe(3);
  expect(await page.textContent("#panel-tune dl.facts")).toContain("quality_threshold_met");
  expect(await page.textContent("#panel-tune pre.final-report")).toBe(finalReport);
  expect(await page.locator("#panel-tune script").count()).toBe(0);
}

describe("the Tune tab", () => {
  it("shows each tune's rounds, scores and final report from the server", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await waitReady(page);
    await checkTuneTab(page);
    await saveScreenshot(page, "tune");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the same in a static file", async () => {
    const file = await writeStaticViewer(workspace(), join(ws.dir, "view.html"));
    const { page, errors } = await openPage(context);
    await page.goto(pathToFileURL(file).href);
    await waitReady(page);
    await checkTuneTab(page);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("says so when the workspace holds no tune run", async () => {
    const bare = await tempDir();
    await writeFakeIteration(join(bare.dir, "iteration-1"), { evals: 1, runsPerConfiguration: 1 });
    const other = await startViewServer({ folder: bare.dir });
    try {
      const { page, errors } = await openPage(context);
      await page.goto(other.url);
      await waitReady(page);
      await page.click("#tab-tune");
      await page.waitForSelector("#panel-tune p.empty:text('No tune runs in this workspace')");
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await other.close();
      await bare.cleanup();
    }
  });
});
