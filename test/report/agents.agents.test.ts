import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { AgentMatrix } from "../../src/contracts/matrix.js";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import { smallExample } from "../e2e/small-example.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";
import { repoRoot } from "./generated-workspace.js";
import { tempDir } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
let skills: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
const iteration = () => join(ws.dir, "iteration-1");
const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8"));

// The real thing: `skillgym run --agent claude-code,codex` on the release-notes example (4 of its trigger queries),
// offline.
beforeAll(async () => {
  ws = await tempDir("skillgym-agents-view-");
  skills = await tempDir("skillgym-agents-skill-");
  const args = [
    join(repoRoot, "bin", "skillgym.js"),
    "run",
    await smallExample(skills.dir, "release-notes", [0, 1, 10, 12]),
    "--agent",
    "claude-code,codex",
    "--simulate",
    "--only",
    "basic",
    "--runs",
    "1",
    "--trigger-runs",
    "1",
    "--workspace",
    ws.dir,
  ];
  await promisify(execFile)(process.execPath, args, { cwd: repoRoot, timeout: 240_000 });
  server = await startViewServer({ folder: ws.dir });
  browser = await launchBrowser();
  context = browser.context;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
  await skills?.cleanup();
});

// The page is ready once its first run loaded, even while the Agents tab hides it.
async function ready(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
  await page.waitForSelector("#run-view[data-run]:not([aria-busy])", { state: "attached", timeout: 15_000 });
}

// The Agents tab: one row an agent, its cells what matrix.json says.
async function checkMatrix(page: Page): Promise<void> {
  const matrix = AgentMatrix.parse(await readJson(join(iteration(), "matrix.json")));
  expect(await page.getAttribute("#tab-agents", "aria-selected")).toBe("true");
  expect(await page.isVisible("#panel-agents")).toBe(true);
  const rows = page.locator("#panel-agents table.agents-matrix tbody tr");
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-agent")))).toEqual([
    "claude-code",
    "codex",
  ]);
  for (const [i, row] of matrix.agents.entries()) {
    const cells = await rows.nth(i).locator("td").allTextContents();
    expect(cells[1]).toBe(`${Math.round((row.with_skill_pass_rate ?? -1) * 100)}%`);
    expect(cells[4]).toBe(row.verdict ?? "—");
    expect(cells[7]).toBe(`${Math.round((row.triggers?.accuracy ?? -1) * 100)}%`);
  }
}

// Opens codex's runs from the matrix: the picker, the address and the run shown are codex's.
async function openCodex(page: Page): Promise<void> {
  await page.click('#panel-agents button.open-agent[data-agent="codex"]');
  await expect.poll(() => page.url()).toContain("agent=codex");
  await page.waitForSelector("#run-view[data-run]:not([aria-busy])");
  expect(await page.getAttribute("#tab-outputs", "aria-selected")).toBe("true");
  expect(await page.inputValue("#agent-select")).toBe("codex");
  // Codex reads files through its shell tool; Claude Code has a Read tool.
  expect(await page.locator("#run-view .step-digest").allTextContents()).toContainEqual(
    expect.stringContaining("exec_command"),
  );
}

describe("the viewer on an iteration of several agents", () => {
  it("opens on the Agents tab with the matrix, and shows each agent's runs, benchmark and triggers", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await ready(page);
    expect(await page.isVisible("#agent-picker")).toBe(true);
    expect(await page.inputValue("#agent-select")).toBe("claude-code");
    await checkMatrix(page);
    await saveScreenshot(page, "agents-tab");
    await openCodex(page);

    await page.click("#tab-benchmark");
    expect(await page.textContent("#panel-benchmark h2")).toBe("Benchmark — iteration-1/codex");
    await page.click("#tab-triggers");
    expect(await page.textContent("#panel-triggers h2")).toBe("Triggers — iteration-1/codex");
    // Over time plots the picked agent's figures, as its benchmark.json says.
    const codexBenchmark = await readJson(join(iteration(), "codex", "benchmark.json"));
    await page.click("#tab-over-time");
    expect(await page.textContent("#panel-over-time h2")).toBe("Over time: codex");
    const overTime = await page.locator("#panel-over-time table.over-time tbody tr td").allTextContents();
    expect(overTime[3]).toBe(`${Math.round(codexBenchmark.run_summary.with_skill.pass_rate.mean * 100)}%`);
    expect(
      await page.locator('#panel-over-time svg circle[data-series="with_skill_pass_rate"]').count(),
    ).toBe(1);

    // A review of codex's run lands in codex's folder.
    await page.click("#tab-outputs");
    const runId = await page.getAttribute("#run-view", "data-run");
    await page.fill("#feedback-box", "codex wrote it in one patch");
    await page.waitForSelector("#save-state:text-matches('^Saved at')");
    const saved = await readJson(join(iteration(), "codex", "feedback.json"));
    expect(saved.reviews).toEqual([
      {
        run_id: runId?.replaceAll("/", "-"),
        feedback: "codex wrote it in one patch",
        timestamp: expect.any(String),
      },
    ]);

    // A reload keeps the agent; the picker switches back.
    await page.reload();
    await waitReady(page);
    expect(await page.inputValue("#agent-select")).toBe("codex");
    expect(await page.inputValue("#feedback-box")).toBe("codex wrote it in one patch");
    await page.selectOption("#agent-select", "claude-code");
    await expect.poll(() => page.url()).toContain("agent=claude-code");
    await page.waitForSelector("#run-view[data-run]:not([aria-busy])");
    expect(await page.inputValue("#feedback-box")).toBe("");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("works the same from a static file, offline", async () => {
    const file = join(ws.dir, "view.html");
    const io = captureIo();
    expect(await main(["view", ws.dir, "--static", file, "--no-open"], io)).toBe(0);
    const { page, errors } = await openPage(context);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    await ready(page);
    await checkMatrix(page);
    await openCodex(page);
    expect(requests.filter((url) => !url.startsWith("file:") && !url.startsWith("data:"))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows no Agents tab for one agent's folder", async () => {
    const one = await startViewServer({ folder: join(iteration(), "codex") });
    try {
      const { page, errors } = await openPage(context);
      await page.goto(one.url);
      await waitReady(page);
      expect(await page.isHidden("#tab-agents")).toBe(true);
      expect(await page.isHidden("#agent-picker")).toBe(true);
      expect(await page.getAttribute("#tab-outputs", "aria-selected")).toBe("true");
      expect(await page.locator("#run-view .step-digest").allTextContents()).toContainEqual(
        expect.stringContaining("exec_command"),
      );
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await one.close();
    }
  });
});
