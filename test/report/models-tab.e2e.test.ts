import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import { cardEval, greeterRunArgs, writeGreeter, writeGreeterSuite } from "../bench/greeter-models.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { launchBrowser, openPage } from "./browser.js";
import { tempDir } from "./workspace-fixture.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;

// `run --model old,new` through the agent test double: the skill helps on old and is redundant on new.
beforeAll(async () => {
  dir = await tempDir("skillgym-models-view-");
  await writeGreeter(dir.dir);
  await writeGreeterSuite(dir.dir, [cardEval]);
  const run = await skillgymHereOnDouble(greeterRunArgs(dir.dir, "old,new", join(dir.dir, "ws")));
  expect(run.code, run.stderr).toBe(0);
  server = await startViewServer({ folder: join(dir.dir, "ws") });
  browser = await launchBrowser();
  context = browser.context;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await dir?.cleanup();
});

async function ready(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
  await page.waitForSelector("#run-view[data-run]:not([aria-busy])", { state: "attached", timeout: 15_000 });
}

describe("the viewer on an iteration of two models", () => {
  it("shows a row a model with its verdict, opens each model's own folder, and gives each its verdicts in Benchmark", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await ready(page);
    expect(await page.getAttribute("#tab-agents", "aria-selected")).toBe("true");
    const rows = page.locator("#panel-agents table.agents-matrix tbody tr");
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-agent")))).toEqual([
      "old",
      "new",
    ]);
    const cells = async (i: number) => rows.nth(i).locator("td").allTextContents();
    expect((await cells(0))[0]).toMatch(/^claude-code.* · old$/);
    expect((await cells(0))[4]).toBe("helps");
    expect((await cells(1))[0]).toMatch(/ · new$/);
    expect((await cells(1))[4]).toBe("redundant");
    // The picker offers the models' folders.
    expect(await page.locator("#agent-select option").allTextContents()).toEqual(["old", "new"]);

    await page.click('#panel-agents button.open-agent[data-agent="new"]');
    await expect.poll(() => page.url()).toContain("agent=new");
    await page.waitForSelector("#run-view[data-run]:not([aria-busy])");
    expect(await page.inputValue("#agent-select")).toBe("new");
    await page.click("#tab-benchmark");
    expect(await page.textContent("#panel-benchmark h2")).toBe("Benchmark — iteration-1/new");
    // The skill's verdict under the delta, the redundancy with its cost, and the verdict column per eval.
    expect(await page.locator("#panel-benchmark .verdict").allTextContents()).toEqual([
      "Verdict: no effect (within ±0.05)",
      expect.stringMatching(
        /^Redundant on this model: the baseline already passes 100% and the skill has no effect on any eval; it costs [-+][\d.]+ tokens and [-+][\d.]+ s a run\.$/,
      ),
    ]);
    expect(await page.locator("#panel-benchmark td.verdict-cell").allTextContents()).toEqual(["no effect"]);

    await page.selectOption("#agent-select", "old");
    await expect.poll(() => page.url()).toContain("agent=old");
    await expect.poll(() => page.textContent("#panel-benchmark h2")).toBe("Benchmark — iteration-1/old");
    expect(await page.locator("#panel-benchmark .verdict").allTextContents()).toEqual([
      "Verdict: helps (beyond ±0.05)",
    ]);
    expect(await page.locator("#panel-benchmark td.verdict-cell").allTextContents()).toEqual(["helps"]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
