import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GradedExpectation } from "../../src/contracts/grading.js";
import { startViewServer, type ViewServer, writeStaticViewer } from "../../src/report/index.js";
import { doubleFlags } from "../agent-double/index.js";
import { smallExample } from "../e2e/small-example.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";
import { skillgymFixture } from "./generated-workspace.js";
import { tempDir, writeFakeIteration } from "./workspace-fixture.js";

// iteration-1: eval runs whose with and without pass rates are equal, where the judge passed an expectation about
// a file a check found missing; iteration-2: what `skillgym triggers` leaves, triggers and no runs.
const expectations: GradedExpectation[] = [
  {
    text: "invoice.txt contains INV-1042",
    passed: true,
    evidence: "The invoice shows INV-1042",
    source: "judge",
  },
  { text: "The reply names the customer", passed: true, evidence: "It says ACME", source: "judge" },
  {
    text: "invoice.txt exists",
    passed: false,
    evidence: "invoice.txt does not exist",
    source: "check",
    check_type: "file_exists",
  },
  {
    text: "the invoice number is written down",
    passed: false,
    evidence: "invoice.txt does not exist",
    source: "check",
    check_type: "file_contains",
  },
];

const longResult = Array.from({ length: 400 }, (_, i) => `line ${i + 1} of the file`).join("\n");
const transcript = [
  "# eval-e1 — with_skill — run 1",
  "",
  "## Prompt",
  "",
  "```",
  "Write the invoice",
  "```",
  "",
  "_Agent model: sonnet; skills available: 3_",
  "",
  "## Step 1",
  "",
  "**Tool call: Read**",
  "",
  "```",
  '{ "file_path": "orders.csv" }',
  "```",
  "",
  "**Result:**",
  "",
  "```",
  "## not a step: a heading inside a tool result",
  longResult,
  "```",
  "",
  "## Step 2",
  "",
  "I will write the invoice now.",
  "",
  "**Tool call: Write**",
  "",
  "```",
  '{ "file_path": "invoce.txt", "content": "INV-1042" }',
  "```",
  "",
  "## Result",
  "",
  "Finished (success) after 3 turns.",
  "",
].join("\n");

let ws: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  ws = await tempDir();
  await writeFakeIteration(join(ws.dir, "iteration-1"), {
    evals: 1,
    runsPerConfiguration: 1,
    expectations: () => expectations,
    transcript: () => transcript,
  });
  // Four of the example's 20 trigger queries: the Triggers tab shows what the command left, whatever the number.
  const skills = await tempDir();
  await skillgymFixture([
    "triggers",
    ...doubleFlags,
    await smallExample(skills.dir, "release-notes", [0, 1, 10, 12]),
    "--simulate",
    "--runs",
    "1",
    "--workspace",
    ws.dir,
  ]);
  await skills.cleanup();
  server = await startViewServer({ folder: ws.dir });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
});

async function openRuns(page: Page): Promise<void> {
  await page.selectOption("#iteration-select", "1");
  await page.click("#tab-outputs");
  await waitReady(page);
  await page.waitForSelector("#run-view[data-run]");
}

async function checkContradiction(page: Page): Promise<void> {
  const items = page.locator("#run-view .expectations li");
  expect(await items.count()).toBe(4);
  expect(await items.nth(0).locator(".contradiction-badge").textContent()).toBe(
    "contradicts check: invoice.txt does not exist",
  );
  expect(await items.nth(0).locator(".badge.pass-badge").count()).toBe(1);
  expect(await page.locator("#run-view .contradiction-badge").count()).toBe(1);
  expect(await items.nth(0).getAttribute("class")).toContain("contradicted");
}

async function checkTranscript(page: Page): Promise<void> {
  const steps = page.locator("#run-view details.transcript-step");
  expect(await steps.locator(".step-title").allTextContents()).toEqual([
    "Prompt",
    "Step 1",
    "Step 2",
    "Result",
  ]);
  expect(await steps.locator(".step-digest").allTextContents()).toEqual([
    "Write the invoice",
    "Read",
    "Write",
    "Finished (success) after 3 turns.",
  ]);
  // Collapsed but for the result; the heading inside the tool result stays inside step 1.
  expect(await steps.evaluateAll((all) => all.map((d) => (d as unknown as { open: boolean }).open))).toEqual([
    false,
    false,
    false,
    true,
  ]);
  expect(await steps.nth(1).isVisible()).toBe(true);
  expect(await page.locator("#run-view details.transcript-step pre").nth(2).isVisible()).toBe(false);
  await steps.nth(1).locator("summary").click();
  const result = steps.nth(1).locator("pre").nth(1);
  expect(await result.isVisible()).toBe(true);
  expect(await result.textContent()).toContain(
    "## not a step: a heading inside a tool result\nline 1 of the file",
  );
  // A long result scrolls inside its box instead of stretching the page.
  const box = await result.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight }));
  expect(box.scroll).toBeGreaterThan(box.client);
  await page.click("#run-view .transcript-toggle");
  expect(await steps.evaluateAll((all) => all.every((d) => (d as unknown as { open: boolean }).open))).toBe(
    true,
  );
  expect(await steps.nth(2).textContent()).toContain("Tool call: Write");
}

describe("the viewer opens on the right thing", () => {
  it("opens on the Triggers tab when the newest iteration only measured triggers", async () => {
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.inputValue("#iteration-select")).toBe("2");
    expect(await page.getAttribute("#tab-triggers", "aria-selected")).toBe("true");
    expect(await page.isVisible("#panel-triggers .triggers-table")).toBe(true);
    expect(new URL(page.url()).hash).toContain("tab=triggers");
    await page.click("#tab-outputs");
    expect(await page.textContent("#panel-outputs")).toContain("This iteration has no runs.");
    await page.click("#show-triggers");
    expect(await page.isVisible("#panel-triggers")).toBe(true);
    // An iteration with runs still opens on its runs, and a reload keeps the place.
    await openRuns(page);
    expect(await page.getAttribute("#tab-outputs", "aria-selected")).toBe("true");
    await page.reload();
    await waitReady(page);
    expect(await page.inputValue("#iteration-select")).toBe("1");
    expect(await page.getAttribute("#tab-outputs", "aria-selected")).toBe("true");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("draws equal with and without pass rates as two markers, side by side, neither covering the other", async () => {
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#tab-over-time");
    const marker = (series: string) =>
      page.locator(`#panel-over-time svg circle[data-series="${series}"][data-iteration="1"]`);
    const withSkill = await marker("with_skill_pass_rate").boundingBox();
    const baseline = await marker("baseline_pass_rate").boundingBox();
    if (!withSkill || !baseline) throw new Error("a marker is missing");
    expect(withSkill.y).toBeCloseTo(baseline.y, 1);
    expect(Math.abs(withSkill.x - baseline.x)).toBeGreaterThanOrEqual(withSkill.width);
    // What a pointer at each marker's centre hits is that marker: both can be seen and hovered.
    for (const [series, box] of [
      ["with_skill_pass_rate", withSkill],
      ["baseline_pass_rate", baseline],
    ] as const) {
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      const hit = await page.evaluate(`document.elementFromPoint(${x}, ${y})?.getAttribute("data-series")`);
      expect(hit).toBe(series);
    }
    expect(await marker("with_skill_pass_rate").locator("title").textContent()).toBe(
      "iteration-1: with skill pass rate 50%",
    );
    await saveScreenshot(page, "over-time-equal");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("marks a judge PASS that a missing-file check contradicts, and shows the transcript, in the served viewer", async () => {
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]");
    await openRuns(page);
    await checkContradiction(page);
    await checkTranscript(page);
    expect(await page.getAttribute("#run-view .transcript-bar a[download]", "href")).toMatch(
      /transcript\.md/,
    );
    await saveScreenshot(page, "contradiction-and-transcript");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("does the same in a static file, which embeds the transcript and says when it cut one", async () => {
    const file = await writeStaticViewer(ws.dir, join(ws.dir, "static.html"));
    const { page, errors } = await openPage(browser.context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.getAttribute("#tab-triggers", "aria-selected")).toBe("true");
    await openRuns(page);
    await checkContradiction(page);
    await checkTranscript(page);
    expect(await page.locator("#run-view .transcript-bar a").count()).toBe(0);
    expect(await page.textContent("#run-view .transcript-note")).not.toContain("first part");

    const cut = await writeStaticViewer(ws.dir, join(ws.dir, "cut.html"), {
      limits: { maxTranscriptBytes: 400 },
    });
    await page.goto(pathToFileURL(cut).href);
    await page.waitForSelector("body[data-ready=true]");
    await openRuns(page);
    expect(await page.textContent("#run-view .transcript-note.truncated")).toContain(
      "first part shown; the rest is in transcript.md in the run folder",
    );
    expect(await page.locator("#run-view details.transcript-step .step-title").allTextContents()).toEqual([
      "Prompt",
      "Step 1",
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
