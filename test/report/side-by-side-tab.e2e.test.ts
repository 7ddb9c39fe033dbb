import { join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { writeTree } from "../e2e/helpers.js";
import { conditionsTree } from "../triggers/conditions-fixture.js";
import { launchBrowser, openPage } from "./browser.js";
import { tempDir } from "./workspace-fixture.js";

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;

// `triggers --conditions clean,real` through the agent test double: one query stolen by the library, one that needs
// the project, one never firing.
beforeAll(async () => {
  dir = await tempDir("skillgym-side-view-");
  await writeTree(dir.dir, {
    ...conditionsTree(),
    "sim.json": JSON.stringify({
      rules: [
        { match: "what changed", skills: "^changelog$", skill: "changelog" },
        { match: "what changed", skill: "~release-notes-sg-" },
        { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
        { skill: "none", without_skill: [{ text: "Sure." }] },
      ],
    }),
  });
  const run = await skillgymHereOnDouble([
    "triggers",
    join(dir.dir, "release-notes"),
    "--simulate",
    "--sim-script",
    join(dir.dir, "sim.json"),
    "--runs",
    "1",
    "--workspace",
    join(dir.dir, "ws"),
    "--conditions",
    "clean,real",
    "--installed",
    join(dir.dir, "library"),
    "--project-root",
    join(dir.dir, "project"),
  ]);
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

describe("the Triggers tab of a side-by-side iteration", () => {
  it("shows a column per condition, the difference and the flag of the queries that pass in only one", async () => {
    const { page, errors } = await openPage(context);
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
    await page.click("#tab-triggers");
    const headers = await page.locator("#panel-triggers .triggers-table thead th").allTextContents();
    expect(headers).toEqual(
      expect.arrayContaining(["clean room", "real conditions", "difference", "only in one"]),
    );
    const rows = page.locator("#panel-triggers .triggers-table tbody tr");
    expect(await rows.count()).toBe(3);
    const column = headers.indexOf("only in one");
    const flagOf = async (i: number) => (await rows.nth(i).locator("td").allTextContents())[column];
    expect(await flagOf(0)).toBe("fires in an empty folder, not in your repository");
    expect(await flagOf(1)).toBe("fires in your repository, not in an empty folder");
    expect(await flagOf(2)).toBe("");
    const difference = headers.indexOf("difference");
    expect((await rows.nth(0).locator("td").allTextContents())[difference]).toBe("−100 pts");
    expect(await page.textContent("#panel-triggers .side-by-side-note")).toContain(
      "1 pass only in the clean room, 1 only under the real conditions",
    );
    expect(errors).toEqual([]);
  });
});
