import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogResults } from "../../src/contracts/catalog.js";
import { renderStaticViewer, startViewServer, type ViewServer } from "../../src/report/index.js";
import { doubleFlags } from "../agent-double/index.js";
import { launchBrowser, openPage, saveScreenshot } from "./browser.js";
import { repoRoot, skillgymFixture } from "./generated-workspace.js";
import { tempDir } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const catalogWorkspace = () => join(ws.dir, "catalog-ws");
const evalWorkspace = () => join(ws.dir, "eval-ws");

// The real thing: `skillgym catalog` on the test library and `skillgym eval` of a skill whose baseline reads its
// SKILL.md from the user's folder, both offline against the sim.
beforeAll(async () => {
  ws = await tempDir("skillgym-catalog-view-");
  const library = join(ws.dir, "library");
  await cp(join(repoRoot, "test", "catalog", "fixtures", "library"), library, { recursive: true });
  await skillgymFixture([
    "catalog",
    ...doubleFlags,
    library,
    "--simulate",
    "--runs",
    "2",
    "--concurrency",
    "6",
    "--workspace",
    catalogWorkspace(),
  ]);
  const skill = join(ws.dir, "leaky");
  const script = {
    rules: [
      {
        match: "note",
        skill: "leaky",
        steps: [
          { read: ".claude/skills/leaky/references/guide.md" },
          { write: { path: "note.txt", content: "n" } },
        ],
        without_skill: [{ read: join(skill, "SKILL.md") }, { write: { path: "note.txt", content: "n" } }],
      },
    ],
  };
  const files: Record<string, string> = {
    "SKILL.md":
      "---\nname: leaky\ndescription: Write a note file. Use when the user asks for a note.\n---\n\nSee references/guide.md.\n",
    "references/guide.md": "# Guide\n",
    "evals/evals.json": JSON.stringify({
      skill_name: "leaky",
      evals: [
        { id: 1, prompt: "Write a note in note.txt", checks: [{ type: "file_exists", path: "note.txt" }] },
      ],
    }),
    "evals/sim-script.json": JSON.stringify(script),
  };
  const { mkdir } = await import("node:fs/promises");
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(skill, path, ".."), { recursive: true });
    await writeFile(join(skill, path), content);
  }
  await skillgymFixture([
    "eval",
    ...doubleFlags,
    skill,
    "--simulate",
    "--runs",
    "1",
    "--workspace",
    evalWorkspace(),
  ]);
  await skillgymFixture(["bench", join(evalWorkspace(), "iteration-1")]);
  server = await startViewServer({ folder: catalogWorkspace() });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await ws?.cleanup();
});

// The heat map's cells are catalog.json's confusion counts; a cell click lists that cell's queries and runs.
async function checkHeatMap(page: Page): Promise<void> {
  const results = CatalogResults.parse(
    JSON.parse(await readFile(join(catalogWorkspace(), "catalog-1", "catalog.json"), "utf8")),
  );
  await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
  expect(await page.getAttribute("#tab-catalog", "aria-selected")).toBe("true");
  expect(await page.isHidden("#tab-outputs")).toBe(true);
  const cells = await page
    .locator("#panel-catalog table.catalog-matrix td.heat")
    .evaluateAll((tds) =>
      tds
        .filter((td) => td.textContent !== "")
        .map((td) => [td.getAttribute("data-row"), td.getAttribute("data-column"), Number(td.textContent)]),
    );
  const expected = Object.entries(results.confusion).flatMap(([row, columns]) =>
    Object.entries(columns).map(([column, n]) => [row, column, n]),
  );
  expect(cells.sort()).toEqual(expected.sort());
  expect(
    await page.getAttribute('td.heat[data-row="csv-stats"][data-column="chart-maker"]', "class"),
  ).toContain("wrong");
  expect(
    await page.getAttribute('td.heat[data-row="not:csv-stats"][data-column="chart-maker"]', "class"),
  ).toContain("right");
  await page.click('td.heat[data-row="csv-stats"][data-column="chart-maker"]');
  const detail = page.locator("#panel-catalog .catalog-detail");
  await expect.poll(() => detail.locator("h3").textContent()).toBe("csv-stats → chart-maker: 2 run(s)");
  expect(await detail.locator("li q").allTextContents()).toEqual([
    "Give me min, max and mean for every column of sales.csv",
    "Give me min, max and mean for every column of sales.csv",
  ]);
  expect(await detail.locator("li").first().textContent()).toContain("csv-stats/query-2/run-1");
}

// A simulated catalog says so in the banner; the page is named after the library; a run's transcript opens from its cell.
async function checkHeaderAndTranscript(page: Page): Promise<string | null> {
  expect(await page.isVisible("#banner")).toBe(true);
  expect(await page.textContent("#banner")).toBe(
    "SIMULATED: these catalogs were answered by skillgym sim, a scripted stand-in, not a model. The matrix tests the queries and the sim script, not how a model routes them.",
  );
  expect(await page.title()).toBe("skillgym — catalog of library");
  expect(await page.textContent("#skill-name")).toBe("catalog of library");
  expect(await page.textContent('section[data-catalog="catalog-1"] h3 .catalog-simulated')).toBe("SIMULATED");

  const detail = page.locator("#panel-catalog .catalog-detail");
  const buttons = detail.locator("button.catalog-transcript-link");
  expect(await buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute("data-run")))).toEqual([
    "csv-stats/query-2/run-1",
    "csv-stats/query-2/run-2",
  ]);
  await buttons.nth(1).click();
  const view = detail.locator(".catalog-transcript");
  await page.waitForSelector(
    '#panel-catalog .catalog-transcript[data-run="csv-stats/query-2/run-2"]:not([aria-busy])',
  );
  const onDisk = await readFile(
    join(catalogWorkspace(), "catalog-1", "csv-stats", "query-2", "run-2", "transcript.md"),
    "utf8",
  );
  expect(onDisk).toContain("# Catalog: csv-stats query 2, run 2");
  expect(await view.locator("p.muted").first().textContent()).toBe(
    "catalog-1/csv-stats/query-2/run-2 · run 2 · fired chart-maker",
  );
  expect(await view.locator("details.transcript-step summary .step-title").allTextContents()).toContain(
    "Prompt",
  );
  expect(await view.textContent()).toContain("Give me min, max and mean for every column of sales.csv");
  const download = view.locator("a[download]");
  return (await download.count()) > 0 ? download.getAttribute("href") : null;
}

describe("the Catalog tab", () => {
  it("shows the routing matrix as a heat map, live, and a cell's queries on click", async () => {
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await checkHeatMap(page);
    const download = await checkHeaderAndTranscript(page);
    await saveScreenshot(page, "catalog-live");
    // The server hands out the transcript.md itself, of a run catalog.json lists and no other file.
    expect(download).toBe("/api/catalog-transcript?catalog=catalog-1&run=csv-stats%2Fquery-2%2Frun-2&raw=1");
    const raw = await fetch(new URL(download!, server.url));
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe(
      await readFile(
        join(catalogWorkspace(), "catalog-1", "csv-stats", "query-2", "run-2", "transcript.md"),
        "utf8",
      ),
    );
    const refused = async (query: string) =>
      (await fetch(new URL(`/api/catalog-transcript?${query}`, server.url))).status;
    expect(await refused("catalog=catalog-1&run=..%2F..%2Fcatalog-1%2Fcatalog.json")).toBe(404);
    expect(await refused("catalog=..%2Fcatalog-1&run=csv-stats%2Fquery-2%2Frun-2")).toBe(400);
    expect(await refused("catalog=catalog-9&run=csv-stats%2Fquery-2%2Frun-2")).toBe(404);
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows the same in the static file", async () => {
    const file = join(ws.dir, "catalog.html");
    await writeFile(file, await renderStaticViewer(catalogWorkspace()));
    const { page, errors } = await openPage(browser.context);
    await page.goto(pathToFileURL(file).href);
    await checkHeatMap(page);
    // The file embeds the transcripts: nothing to download from, nothing fetched.
    expect(await checkHeaderAndTranscript(page)).toBeNull();
    expect(errors).toEqual([]);
  }, 60_000);
});

describe("activation in a run's detail", () => {
  it("marks a contaminated baseline in red and gives the eval's disclosure coverage", async () => {
    const file = join(ws.dir, "eval.html");
    await writeFile(file, await renderStaticViewer(evalWorkspace()));
    const { page, errors } = await openPage(browser.context);
    await page.goto(`${pathToFileURL(file).href}#tab=outputs&iteration=1&run=eval-1/without_skill/run-1`);
    await page.waitForSelector("#run-view[data-run]:not([aria-busy])", { timeout: 15_000 });
    expect(await page.textContent("#run-view .contaminated-badge")).toBe("contaminated");
    const warning = page.locator("#run-view p.contaminated");
    expect(await warning.textContent()).toContain("the run without the skill opened its files: SKILL.md");
    expect(await warning.evaluate((p) => p.ownerDocument.defaultView!.getComputedStyle(p).color)).toBe(
      "rgb(207, 34, 46)",
    );
    expect(await page.locator("#run-select option:checked").textContent()).toContain("CONTAMINATED");

    await page.selectOption("#run-select", { label: await withSkillLabel(page) });
    await page.waitForSelector('#run-view[data-run="eval-1/with_skill/run-1"]:not([aria-busy])');
    expect(await page.textContent("#run-view .activation-fired")).toBe("Fired: leaky (turn 1, skill tool)");
    expect(await page.textContent("#run-view .disclosure")).toBe(
      "Disclosure: 1 runs of this eval (with_skill), the skill fired in 1: references/guide.md opened in 1; never opened: SKILL.md",
    );
    expect(await page.locator("#run-view .contaminated-badge").count()).toBe(0);
    await saveScreenshot(page, "activation-detail");
    expect(errors).toEqual([]);
  }, 60_000);
});

async function withSkillLabel(page: Page): Promise<string> {
  const labels = await page.locator("#run-select option").allTextContents();
  return labels.find((l) => l.includes("with_skill"))!;
}
