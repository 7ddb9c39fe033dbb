import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerJudges } from "../../src/cli/commands/judges.js";
import { captureIo } from "../../src/cli/io.js";
import { startViewServer, type ViewServer } from "../../src/report/index.js";
import type { TempIteration } from "../bench/iteration-fixture.js";
import { BETA, judgedIteration, script } from "../judges/judges-fixture.js";
import { launchBrowser, openPage, saveScreenshot, waitReady } from "./browser.js";

let iteration: TempIteration;
let server: ViewServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  iteration = await judgedIteration();
  const scriptFile = join(iteration.dir, "..", "judges-script.json");
  await writeFile(scriptFile, JSON.stringify(script));
  const program = new Command("skillgym").exitOverride();
  registerJudges(program, captureIo());
  await program.parseAsync(
    ["judges", iteration.dir, "--judge", "sim:strict,sim:lenient", "--sim-script", scriptFile],
    {
      from: "user",
    },
  );
  server = await startViewServer({ folder: iteration.dir });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await iteration?.cleanup();
});

describe("the viewer and the judges", () => {
  it("shows the Judges tab and writes a 'grade wrong' click into feedback.json", async () => {
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await waitReady(page);
    expect(await page.isVisible("#tab-judges")).toBe(true);
    await page.click("#tab-judges");
    const pair = await page
      .locator("#panel-judges table.judges-table tbody tr")
      .first()
      .locator("td")
      .allTextContents();
    expect(pair.slice(0, 2)).toEqual(["sim:strict vs sim:lenient", "41%"]);
    expect(await page.locator("#panel-judges ul.ambiguous li").count()).toBe(2);
    expect(await page.textContent("#panel-judges ul.ambiguous")).toContain(`Suggested: ${BETA}`);
    await saveScreenshot(page, "judges-tab");

    await page.click("#tab-outputs");
    await page.waitForSelector("#run-view[data-run]:not([aria-busy])");
    const beta = page.locator("#run-view ul.expectations li", { hasText: BETA }).first();
    await beta.locator("button.mark-wrong").click();
    await expect
      .poll(async () =>
        JSON.parse(await readFile(join(iteration.dir, "feedback.json"), "utf8").catch(() => "{}")),
      )
      .toMatchObject({
        reviews: [{ run_id: "eval-1-with_skill-run-1", grades: [{ text: BETA, verdict: "wrong" }] }],
      });
    expect(await beta.locator("button.mark-wrong").getAttribute("aria-pressed")).toBe("true");
    expect(errors).toEqual([]);
  });
});
