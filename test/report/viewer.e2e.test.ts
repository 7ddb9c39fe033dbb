import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";
import { generateWorkspace } from "./generated-workspace.js";

let ws: Awaited<ReturnType<typeof generateWorkspace>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;

beforeAll(async () => {
  ws = await generateWorkspace(2);
  server = await startViewServer({ folder: ws.dir });
  browser = await launchBrowser();
  context = browser.context;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
});

const iteration2 = () => join(ws.dir, "iteration-2");
const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8"));
const position = (page: Page) => page.textContent("#run-position");
const shownRun = (page: Page) => page.getAttribute("#run-view", "data-run");

// The run's own transcript.md, as written by skillgym run, shown step by step and collapsed.
async function checkTranscript(page: Page, runId: string): Promise<void> {
  const text = await readFile(join(iteration2(), runId, "transcript.md"), "utf8");
  const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  const tools = [...text.matchAll(/^\*\*Tool call: (.+)\*\*$/gm)].map((m) => m[1]);
  expect(tools.length).toBeGreaterThan(0);
  const steps = page.locator("#run-view details.transcript-step");
  expect(await steps.locator(".step-title").allTextContents()).toEqual(headings);
  const digests = await steps.locator(".step-digest").allTextContents();
  expect(digests.flatMap((d) => (tools.includes(d.split(", ")[0]!) ? d.split(", ") : []))).toEqual(tools);
  expect(await steps.locator("summary").first().isVisible()).toBe(true);
  expect(await page.locator("#run-view details.transcript-step:not([open]) pre").first().isVisible()).toBe(
    false,
  );
}

async function runIds(): Promise<string[]> {
  const answer = await fetch(`${server.url}api/iteration/2`);
  return ((await answer.json()) as { runs: { id: string }[] }).runs.map((r) => r.id);
}

describe("the viewer on a workspace made by skillgym run", () => {
  it("shows the latest iteration's first run: prompt, markdown output, previous iteration, grades with evidence", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await waitReady(page);
    const first = (await runIds())[0]!;
    expect(await shownRun(page)).toBe(first);
    expect(await page.inputValue("#iteration-select")).toBe("2");
    expect(await page.textContent("#run-view .run-head .badge")).toBe("with_skill");
    const metadata = await readJson(join(iteration2(), "eval-basic", "eval_metadata.json"));
    expect(await page.textContent("#run-view .prompt-text")).toBe(metadata.prompt);
    expect(await page.textContent("#run-view .outputs .file .md h1")).toBe("Release 1.4.0");
    expect(await page.textContent("#run-view .previous h3")).toContain("iteration-1");
    expect(await page.locator("#run-view .previous .file .md h1").count()).toBe(1);
    const grading = await readJson(join(iteration2(), first, "grading.json"));
    const evidence = await page.locator("#run-view .expectations .evidence").allTextContents();
    expect(evidence).toEqual(grading.expectations.map((x: { evidence: string }) => x.evidence));
    expect(await page.textContent("#banner")).toContain("SIMULATED");
    await checkTranscript(page, first);
    const download = await page.getAttribute("#run-view .transcript-bar a[download]", "href");
    expect(decodeURIComponent(download!)).toContain(`iteration-2/${first}/transcript.md`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("steps through runs with the buttons and the arrow keys", async () => {
    const ids = await runIds();
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await waitReady(page);
    expect(await position(page)).toBe(`Run 1 of ${ids.length}`);
    expect(await page.isDisabled("#prev-run")).toBe(true);
    await page.click("#next-run");
    await page.waitForSelector(`#run-view[data-run="${ids[1]}"]:not([aria-busy])`);
    expect(await position(page)).toBe(`Run 2 of ${ids.length}`);
    await page.locator("body").press("ArrowRight");
    await page.waitForSelector(`#run-view[data-run="${ids[2]}"]:not([aria-busy])`);
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector(`#run-view[data-run="${ids[3]}"]:not([aria-busy])`);
    await page.keyboard.press("ArrowLeft");
    await page.waitForSelector(`#run-view[data-run="${ids[2]}"]:not([aria-busy])`);
    await page.click("#prev-run");
    await page.waitForSelector(`#run-view[data-run="${ids[1]}"]:not([aria-busy])`);
    // Typing in the feedback box moves the caret, not the run.
    await page.click("#feedback-box");
    await page.keyboard.press("ArrowRight");
    expect(await shownRun(page)).toBe(ids[1]);
    await page.selectOption("#run-select", String(ids.length - 1));
    await page.waitForSelector(`#run-view[data-run="${ids.at(-1)}"]:not([aria-busy])`);
    expect(await page.isDisabled("#next-run")).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("saves typed feedback to feedback.json, keeps it over a reload, and submit-all marks it complete", async () => {
    const ids = await runIds();
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await waitReady(page);
    await page.click("#next-run");
    await page.waitForSelector(`#run-view[data-run="${ids[1]}"]:not([aria-busy])`);
    await page.fill("#feedback-box", "The hashes are right; the Fixes heading should be second.");
    await page.waitForSelector("#save-state:text-matches('^Saved at')");
    const saved = await readJson(join(iteration2(), "feedback.json"));
    expect(saved.status).toBe("in_progress");
    expect(saved.reviews).toEqual([
      {
        run_id: ids[1]!.replaceAll("/", "-"),
        feedback: "The hashes are right; the Fixes heading should be second.",
        timestamp: expect.any(String),
      },
    ]);

    await page.reload();
    await waitReady(page);
    expect(await shownRun(page)).toBe(ids[1]);
    expect(await page.inputValue("#feedback-box")).toBe(
      "The hashes are right; the Fixes heading should be second.",
    );

    await page.click("#submit-all");
    await page.waitForSelector(
      "#save-state:text-matches('^Submitted 1 review: iteration-2/feedback.json is complete')",
    );
    expect((await readJson(join(iteration2(), "feedback.json"))).status).toBe("complete");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("renders every tab; a screenshot of each is kept in test/report/__screenshots__", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await waitReady(page);
    await saveScreenshot(page, "outputs");

    await page.click("#tab-benchmark");
    const benchmark = await readJson(join(iteration2(), "benchmark.json"));
    const summaryRows = await page.locator("#panel-benchmark .summary-table tbody tr").allTextContents();
    expect(summaryRows[0]).toContain("with_skill");
    expect(summaryRows[2]).toContain(benchmark.run_summary.delta.pass_rate);
    expect(await page.locator("#panel-benchmark .per-eval tbody tr").count()).toBe(3);
    expect(await page.locator("#panel-benchmark details.eval-grid[open] .cell").count()).toBeGreaterThan(0);
    expect(await page.locator("#panel-benchmark .notes li").count()).toBe(benchmark.notes.length);
    await saveScreenshot(page, "benchmark");

    await page.click("#tab-triggers");
    const triggers = await readJson(join(iteration2(), "triggers", "trigger-results.json"));
    expect(await page.locator("#panel-triggers .triggers-table tbody tr").count()).toBe(
      triggers.results.length,
    );
    expect(await page.textContent("#panel-triggers .cards")).toContain(
      `${triggers.summary.passed} / ${triggers.summary.total}`,
    );
    await saveScreenshot(page, "triggers");

    await page.click("#tab-over-time");
    expect(await page.locator("#panel-over-time table.over-time tbody tr").count()).toBe(2);
    expect(await page.locator("#panel-over-time svg circle").count()).toBeGreaterThanOrEqual(4);
    await saveScreenshot(page, "over-time");

    await page.click("#panel-over-time button.open-iteration >> text=iteration-1");
    await waitReady(page);
    expect(await page.inputValue("#iteration-select")).toBe("1");
    expect(await page.textContent("#run-view .previous")).toContain("No earlier iteration");
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("the static file", () => {
  it("opens from disk with no server, shows the runs, and keeps feedback in the browser until downloaded", async () => {
    const file = join(ws.dir, "view.html");
    const io = captureIo();
    expect(await main(["view", ws.dir, "--static", file, "--no-open"], io)).toBe(0);
    expect(io.stdout()).toContain(file);
    const html = await readFile(file, "utf8");
    expect(html.match(/<\/script>/g)).toHaveLength(2);

    const { page, errors } = await openPage(context);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    await waitReady(page);
    const ids = await runIds();
    expect(await position(page)).toBe(`Run 1 of ${ids.length}`);
    expect(await page.textContent("#run-view .outputs .file .md h1")).toBe("Release 1.4.0");
    await checkTranscript(page, ids[0]!);
    expect(await page.locator("#run-view .transcript-bar a").count()).toBe(0);
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector(`#run-view[data-run="${ids[1]}"]:not([aria-busy])`);
    await page.fill("#feedback-box", "static feedback");
    await page.waitForSelector("#save-state:text('Saved in this browser')");
    await page.reload();
    await waitReady(page);
    expect(await page.inputValue("#feedback-box")).toBe("static feedback");

    const download = page.waitForEvent("download");
    await page.click("#download-feedback");
    const saved = JSON.parse(await readFile((await (await download).path())!, "utf8"));
    expect(saved.status).toBe("complete");
    expect(saved.reviews).toContainEqual({
      run_id: ids[1]!.replaceAll("/", "-"),
      feedback: "static feedback",
      timestamp: expect.any(String),
    });
    for (const tab of ["benchmark", "triggers", "over-time"]) {
      await page.click(`#tab-${tab}`);
      expect(await page.locator(`#panel-${tab} h2`).first().textContent()).not.toBe("");
    }
    expect(requests.filter((url) => !url.startsWith("file:") && !url.startsWith("data:"))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("is what skillgym run leaves as iteration-N/report.html: that one iteration", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(pathToFileURL(join(iteration2(), "report.html")).href);
    await waitReady(page);
    expect(await page.isDisabled("#iteration-select")).toBe(true);
    expect(await position(page)).toBe("Run 1 of 12");
    expect(await page.textContent("#run-view .previous h3")).toContain("iteration-1");
    expect(errors).toEqual([]);
    await page.close();
  });
});
