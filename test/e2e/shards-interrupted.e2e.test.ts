import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { IterationRecord, TriggerPlan } from "../../src/contracts/run-record.js";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { onDouble } from "../agent-double/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { bin, root } from "../cli/cli-process.js";
import { launchBrowser, openPage } from "../report/browser.js";
import { readJson, skillMd, tempDir, writeTree } from "./helpers.js";

// A shard cut short by Ctrl-C in its trigger phase (the Claude Code test double against the sim), its sibling finished.
let dir: string;
let cleanup: () => Promise<void>;
const QUERIES = 6;
const TRIGGER_RUNS = 2;
const common = (script: string) => [
  "--simulate",
  "--sim-script",
  join(dir, script),
  "--baseline",
  "none",
  "--runs",
  "1",
  "--trigger-runs",
  String(TRIGGER_RUNS),
  "--concurrency",
  "2",
];
const shardDir = (i: number) => join(dir, `shard-${i}`);
const iterationOf = (i: number) => join(shardDir(i), "iteration-1");

// Presses Ctrl-C once the first trigger run of the shard has finished, while the others are in flight.
async function interruptInTriggers(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...onDouble(args)], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stdout.resume();
  child.stderr.setEncoding("utf8");
  const firstTriggerRun = new Promise<void>((resolve) => {
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      if (/\[\d+\/\d+\] query \d+ run-\d+: (not )?triggered/.test(stderr)) resolve();
    });
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await Promise.race([firstTriggerRun, closed]);
  child.kill("SIGINT");
  return { code: await closed, stderr };
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  const please = (what: string) => `Please ${what}`;
  await writeTree(dir, {
    "card/SKILL.md": skillMd(
      "card",
      "Writes a greeting card file. Use when the user asks for a birthday or greeting card.",
      "Write card.txt with the greeting.",
    ),
    "card/evals/evals.json": JSON.stringify({
      evals: [1, 2].map((id) => ({
        id,
        prompt: `Make a quick card number ${id}`,
        expectations: [],
        checks: [{ type: "file_exists", path: "card.txt" }],
      })),
    }),
    "card/evals/triggers.json": JSON.stringify([
      { query: please("make a birthday card for Ann"), should_trigger: true },
      { query: please("write a greeting card for my team"), should_trigger: true },
      { query: please("draft a birthday card for grandma"), should_trigger: true },
      { query: please("convert report.csv to JSON"), should_trigger: false },
      { query: please("explain what a monad is"), should_trigger: false },
      { query: please("list the files in this folder"), should_trigger: false },
    ]),
    // The same answers, the trigger queries slow in the first: they are still running when Ctrl-C comes.
    "slow.json": JSON.stringify({
      rules: [
        { match: "please", latency_ms: 1500 },
        { match: "quick", steps: [{ write: { path: "card.txt", content: "card" } }] },
      ],
    }),
    "fast.json": JSON.stringify({
      rules: [{ match: "quick", steps: [{ write: { path: "card.txt", content: "card" } }] }],
    }),
  });
  const skill = join(dir, "card");
  const cut = await interruptInTriggers([
    "run",
    skill,
    ...common("slow.json"),
    "--workspace",
    shardDir(1),
    "--shard",
    "1/2",
  ]);
  if (cut.code !== 130) throw new Error(`the interrupted shard exited ${cut.code}: ${cut.stderr}`);
  const two = await skillgymHereOnDouble([
    "run",
    skill,
    ...common("fast.json"),
    "--workspace",
    shardDir(2),
    "--shard",
    "2/2",
  ]);
  if (two.code !== 0) throw new Error(`shard 2/2 exited ${two.code}: ${two.stderr}`);
}, 300_000);
afterAll(() => cleanup());

describe.skipIf(process.platform === "win32")("merge never hides a shard cut short by Ctrl-C", () => {
  it("the interrupted shard records itself interrupted, in iteration.json as in triggers/plan.json", async () => {
    const record = IterationRecord.parse(await readJson(join(iterationOf(1), "iteration.json")));
    const plan = TriggerPlan.parse(await readJson(join(iterationOf(1), "triggers", "plan.json")));
    expect(record.status).toBe("interrupted");
    expect(plan.status).toBe("interrupted");
    const finished = IterationRecord.parse(await readJson(join(iterationOf(2), "iteration.json")));
    expect(finished.status).toBe("complete");
  });

  it("merge refuses it, naming the shard folder and the trigger runs it lacks, and writes nothing", async () => {
    const into = join(dir, "refused");
    const result = await skillgymHereOnDouble(["merge", shardDir(1), shardDir(2), "--into", into]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`shard 1/2 \\(${shardDir(1)}\\) was interrupted: [1-5] of 6 trigger runs missing`),
    );
    expect(result.stderr).toContain("--partial");
    expect(result.stdout).not.toContain("merged shards");
    await expect(readdir(into)).rejects.toThrow();
  });

  it("merge --partial says so in its summary, iteration.json, benchmark notes, trigger counts and report", async () => {
    const into = join(dir, "partial");
    const result = await skillgymHereOnDouble([
      "merge",
      shardDir(2),
      shardDir(1),
      "--into",
      into,
      "--partial",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /partial merge: [1-5] of 12 trigger runs missing \(shard 1\/2 interrupted: [1-5] of 6 trigger runs missing\)/,
    );
    const iteration = join(into, "iteration-1");
    const record = IterationRecord.parse(await readJson(join(iteration, "iteration.json")));
    expect(record.status).toBe("interrupted");
    const missing = record.partial?.missing_runs.trigger ?? 0;
    expect(record.partial).toMatchObject({
      count: 2,
      planned_runs: { eval: 2, trigger: QUERIES * TRIGGER_RUNS },
      missing_runs: { eval: 0 },
      shards: [{ index: 1, source: shardDir(1), state: "interrupted" }],
    });
    expect(missing).toBeGreaterThan(0);
    const plan = TriggerPlan.parse(await readJson(join(iteration, "triggers", "plan.json")));
    expect(plan.status).toBe("interrupted");
    expect(plan.partial).toEqual(record.partial);

    // The interrupted shard's finished runs are counted, and only those: no query has all its runs.
    const triggers = TriggerResults.parse(
      await readJson(join(iteration, "triggers", "trigger-results.json")),
    );
    const counted = triggers.results.reduce((n, r) => n + r.runs, 0);
    expect(counted).toBe(QUERIES * TRIGGER_RUNS - missing);

    const benchmark = Benchmark.parse(await readJson(join(iteration, "benchmark.json")));
    expect(benchmark.notes?.some((n) => n.startsWith("Partial merge:"))).toBe(true);
    expect(await readFile(join(iteration, "benchmark.md"), "utf8")).toContain("Partial merge:");

    const browser = await launchBrowser();
    try {
      const { page, errors } = await openPage(browser.context);
      await page.goto(pathToFileURL(join(iteration, "report.html")).href);
      await page.waitForSelector("body[data-ready=true]", { timeout: 15_000 });
      const banner = await page.textContent("#banner");
      expect(banner).toMatch(/^PARTIAL: partial merge: [1-5] of 12 trigger runs missing/);
      expect(banner).toContain("SIMULATED");
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
