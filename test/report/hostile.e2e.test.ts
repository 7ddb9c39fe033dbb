import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TriggerResults } from "../../src/contracts/trigger-results.js";
import { startViewServer, type ViewServer, writeStaticViewer } from "../../src/report/index.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";
import { tempDir, writeFakeIteration } from "./workspace-fixture.js";

const breakout = `</script><img src=x onerror="window.__pwned=1">`;
const scriptTag = "<script>window.__pwned=2</script>";

const triggers: TriggerResults = {
  skill_name: "demo-skill",
  description: `Use it </script><script>window.__pwned=10</script>`,
  results: [
    {
      query: `<img src=x onerror="window.__pwned=9"> write notes`,
      should_trigger: true,
      trigger_rate: 0.5,
      triggers: 1,
      runs: 2,
      errors: 0,
      pass: true,
      stolen_by: { "<b onmouseover=window.__pwned=11>x</b>": 1 },
    },
  ],
  summary: { total: 1, passed: 1, failed: 0, errors: 0, precision: 1, recall: 1, f1: 1, accuracy: 1 },
  threshold: 0.5,
};

const missing = "<img src=x onerror=window.__pwned=19>.md";
const hostileTranscript = [
  "# run </script><script>window.__pwned=13</script>",
  "",
  `## Step 1 <img src=x onerror="window.__pwned=14">`,
  "",
  `<b onmouseover="window.__pwned=15">hi</b> [x](javascript:window.__pwned=16)`,
  "",
  `**Tool call: <img src=x onerror="window.__pwned=17">**`,
  "",
  "```",
  `{"content": "</script><script>window.__pwned=18</script>"}`,
  "```",
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
    prompt: () => `Say </script><script>window.__pwned=8</script> please`,
    expectations: () => [
      { text: "first", passed: true, evidence: scriptTag },
      { text: "second", passed: false, evidence: `quoted: ${breakout}` },
      { text: `${missing} is complete`, passed: true, evidence: "looks complete", source: "judge" },
      {
        text: `${missing} exists`,
        passed: false,
        evidence: `${missing} does not exist`,
        source: "check",
        check_type: "file_exists",
      },
    ],
    transcript: () => hostileTranscript,
    notes: [`note ${breakout}`],
    triggers,
    outputs: () => ({
      "evil.md": `# Title ${breakout}\n\n**bold ${scriptTag}** and [a link](javascript:window.__pwned=3)\n\n\`\`\`\n${breakout}\n\`\`\`\n`,
      "evil.html": `<!doctype html><body onload="window.__pwned=4">${breakout}</body>`,
      "evil.txt": breakout,
      "data.json": JSON.stringify({ a: `</script><script>window.__pwned=5</script>` }),
      "pic.svg": `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=6"><script>window.__pwned=7</script></svg>`,
      '<img src=x onerror="window.__pwned=12">.txt': "a hostile file name",
      "blob.bin": Buffer.from([0, 1, 2, 0, 255]),
    }),
  });
  server = await startViewServer({ folder: ws.dir });
  // The page's Content-Security-Policy is switched off: escaping alone must keep everything inert.
  browser = await launchBrowser({ bypassCSP: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
});

async function expectInert(page: Page): Promise<void> {
  for (const tab of ["outputs", "benchmark", "triggers", "over-time", "outputs"]) {
    await page.click(`#tab-${tab}`);
    await page.waitForTimeout(50);
  }
  await page.hover("#panel-outputs");
  expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator("body script").count()).toBeLessThanOrEqual(2);
  expect(await page.locator("[onerror], [onload], [onmouseover]").count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
}

async function checkShownAsText(page: Page): Promise<void> {
  expect(await page.textContent('#run-view .file[data-kind="markdown"] h1')).toBe(`Title ${breakout}`);
  expect(await page.textContent('#run-view .file[data-kind="markdown"] strong')).toBe(`bold ${scriptTag}`);
  expect(await page.textContent('#run-view .file[data-kind="markdown"] pre')).toBe(breakout);
  expect(await page.textContent('#run-view .file[data-kind="code"] pre')).toContain(breakout);
  expect(await page.textContent('#run-view .file[data-kind="json"] pre')).toContain("</script><script>");
  expect(await page.locator("#run-view .file-name").allTextContents()).toContain(
    `<img src=x onerror="window.__pwned=12">.txt`,
  );
  const evidence = await page
    .locator("#run-view .outputs ~ * .evidence, #run-view .evidence")
    .allTextContents();
  expect(evidence).toContain(scriptTag);
  expect(evidence).toContain(`quoted: ${breakout}`);
  expect(await page.textContent("#run-view .prompt-text")).toBe(
    "Say </script><script>window.__pwned=8</script> please",
  );
  expect(await page.textContent("#run-view .contradiction-badge")).toBe(
    `contradicts check: ${missing} does not exist`,
  );
  await page.click("#run-view .transcript-toggle");
  expect(await page.locator("#run-view .transcript-step .step-title").allTextContents()).toEqual([
    `Step 1 <img src=x onerror="window.__pwned=14">`,
  ]);
  expect(await page.textContent("#run-view .transcript-step .step-digest")).toBe(
    `<img src=x onerror="window.__pwned=17">`,
  );
  // Markdown reads "__pwned=15 … __" as emphasis; the tags and the link stay text.
  const message = await page.textContent("#run-view .transcript-step .md");
  expect(message).toContain(`<b onmouseover="window.`);
  expect(message).toContain(`">hi</b> [x](javascript:window.`);
  expect(await page.textContent("#run-view .transcript-step pre")).toBe(
    `{"content": "</script><script>window.__pwned=18</script>"}`,
  );
  await page.click("#tab-triggers");
  expect(await page.textContent("#panel-triggers .query")).toBe(triggers.results[0]!.query);
  expect(await page.textContent("#panel-triggers .triggers-table")).toContain(
    "<b onmouseover=window.__pwned=11>x</b> × 1",
  );
  await page.click("#tab-benchmark");
  expect(await page.textContent("#panel-benchmark .notes")).toContain(`note ${breakout}`);
  await page.click("#tab-outputs");
}

describe("hostile outputs", () => {
  it("are shown as text and run nothing in the served viewer", async () => {
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await waitReady(page);
    await checkShownAsText(page);
    await expectInert(page);
    await saveScreenshot(page, "hostile-outputs");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("cannot break out of the static file's data block, and run nothing there either", async () => {
    const file = await writeStaticViewer(ws.dir, join(ws.dir, "static.html"));
    const html = await readFile(file, "utf8");
    const block =
      /<script type="application\/json" id="skillgym-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(block).not.toContain("<");
    const embedded = JSON.parse(block);
    expect(embedded.runs["1:eval-e1/with_skill/run-1"].prompt).toBe(
      "Say </script><script>window.__pwned=8</script> please",
    );
    const { page, errors } = await openPage(browser.context);
    await page.goto(pathToFileURL(file).href);
    await waitReady(page);
    await checkShownAsText(page);
    await expectInert(page);
    expect(await page.locator('#run-view .file[data-kind="image"] img').getAttribute("src")).toMatch(
      /^data:image\/svg\+xml;base64,/,
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
