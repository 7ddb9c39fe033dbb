import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldSkill } from "../../src/create/index.js";
import { locateTriggersFile } from "../../src/report/triggers-file.js";
import { startTriggersServer, type TriggersServer } from "../../src/report/triggers-server.js";
import { launchBrowser, openPage } from "../report/browser.js";

let root: string;
let file: string;
let server: TriggersServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const hostile = `</script><img src=x onerror="document.body.dataset.pwned='1'">`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-triggers-review-"));
  await mkdir(join(root, ".git"));
  const dir = join(root, "csv-tables");
  await scaffoldSkill({
    dir,
    description: "Converts CSV files to Markdown tables. Use when asked to tabulate CSV.",
  });
  file = await locateTriggersFile(dir);
  server = await startTriggersServer({ file });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const readTriggers = async () =>
  JSON.parse(await readFile(file, "utf8")) as { query: string; should_trigger: boolean }[];

describe("the trigger review page", () => {
  it("edits a query, flips a flag, deletes and adds rows, and saves triggers.json", async () => {
    expect(file).toBe(join(root, "csv-tables", "evals", "triggers.json"));
    const before = await readTriggers();
    const { page, errors } = await openPage(browser.context);
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.locator("#rows tr").count()).toBe(before.length);
    expect(await page.locator("#rows input.query").first().inputValue()).toBe(before[0]?.query);
    expect(await page.textContent("#file")).toBe(file);

    await page.locator("#rows input.query").nth(0).fill("turn sales.csv into a markdown table please");
    await page.locator("#rows input.should-trigger").nth(1).uncheck();
    await page.locator("#rows button.delete").nth(2).click();
    await page.click("#add");
    await page.locator("#rows input.query").last().fill(hostile);
    await page.locator("#rows input.should-trigger").last().uncheck();
    await page.click("#save");
    await page.waitForSelector("#status[data-kind=ok]");
    expect(await page.textContent("#status")).toBe(`saved ${before.length} queries`);

    const after = await readTriggers();
    expect(after).toEqual([
      { query: "turn sales.csv into a markdown table please", should_trigger: true },
      { ...before[1], should_trigger: false },
      ...before.slice(3),
      { query: hostile, should_trigger: false },
    ]);

    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.locator("#rows input.query").last().inputValue()).toBe(hostile);
    expect(await page.getAttribute("body", "data-pwned")).toBeNull();
    expect(await page.locator("#rows img").count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("refuses to save an empty query and leaves the file alone", async () => {
    const before = await readFile(file, "utf8");
    const { page } = await openPage(browser.context);
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#add");
    await page.click("#save");
    await page.waitForSelector("#status[data-kind=error]");
    expect(await page.textContent("#status")).toContain("query");
    expect(await readFile(file, "utf8")).toBe(before);
    await page.close();
  });
});

// fetch() sets Host itself, so a foreign Host needs node:http.
function statusWithHost(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, path: "/", headers: { Host: host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("the trigger review server", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}api/triggers`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
    });

  it("answers 400 on bodies that are not JSON or break the contract, naming the field", async () => {
    const before = await readFile(file, "utf8");
    const notJson = await post("{nope");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: "body: not valid JSON" });
    const wrong = await post(JSON.stringify([{ query: "x", should_trigger: "yes" }]));
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toContain("0.should_trigger");
    const object = await post(JSON.stringify({ query: "x", should_trigger: true }));
    expect(object.status).toBe(400);
    expect((await post("[]", { "Content-Type": "text/plain" })).status).toBe(415);
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("refuses other origins and hosts", async () => {
    const foreign = await post("[]", { Origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await statusWithHost("evil.example")).toBe(403);
    expect(await statusWithHost(`127.0.0.1:${server.port}`)).toBe(200);
  });

  it("serves the page with a strict Content-Security-Policy", async () => {
    const page = await fetch(server.url);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'; script-src 'sha256-/);
  });
});
