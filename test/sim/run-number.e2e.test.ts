import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogMatrix } from "../../src/catalog/index.js";
import { CatalogResults, type CatalogRun } from "../../src/contracts/catalog.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The sim plays a query's runs by their run number: run n takes entry n-1 of the pattern. A plain command, its
// shards, and a command the result store partly serves must therefore see the very same runs, in any order. The
// patterns are chosen so that entries handed out in arrival order (the old way) could not pass.
let dir: string;
let cleanup: () => Promise<void>;
const script = () => join(dir, "sim-script.json");
const library = () => join(dir, "library");

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "sim-script.json": JSON.stringify({
      rules: [
        {
          match: "poem\\.txt",
          skill: "haiku",
          trigger_pattern: [false, true, false],
          steps: [{ write: { path: "poem.txt", content: "rain\n" } }],
        },
        { match: "haiku", skill: "~haiku-sg-", trigger_pattern: [true, false, false] },
        { match: "limerick", skill: "~limerick-sg-", trigger_pattern: [false, true, true] },
        { skill: "none" },
      ],
    }),
    "library/haiku/SKILL.md": skillMd(
      "haiku",
      "Writes haiku poems. Use when the user asks for a haiku.",
      "Write one.",
    ),
    // One query a skill: each has a pattern, so every run checked is one the run number decides.
    "library/haiku/evals/triggers.json": JSON.stringify([
      { query: "Write a haiku about rain", should_trigger: true },
    ]),
    "library/haiku/evals/evals.json": JSON.stringify({
      skill_name: "haiku",
      evals: [
        { id: 1, prompt: "Write a haiku into poem.txt", checks: [{ type: "file_exists", path: "poem.txt" }] },
      ],
    }),
    "library/limerick/SKILL.md": skillMd(
      "limerick",
      "Writes limericks. Use when the user asks for a limerick.",
      "Write one.",
    ),
    "library/limerick/evals/triggers.json": JSON.stringify([
      { query: "Write a limerick about a cat", should_trigger: true },
    ]),
  });
}, 60_000);
afterAll(() => cleanup());

async function cli(args: string[], concurrency = 4) {
  const result = await skillgymHereOnDouble([
    ...args,
    "--simulate",
    "--sim-script",
    script(),
    "--concurrency",
    String(concurrency),
  ]);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

async function catalogOf(workspace: string): Promise<CatalogResults> {
  const folders = (await readdir(workspace)).filter((n) => /^catalog-\d+$/.test(n)).sort();
  return CatalogResults.parse(
    JSON.parse(await readFile(join(workspace, folders.at(-1)!, "catalog.json"), "utf8")),
  );
}

const byRun = (runs: readonly CatalogRun[]) =>
  Object.fromEntries(runs.map((r) => [`${r.owner} | ${r.query} | ${r.run_number}`, r.fired]));

// What loaded in every trigger run of the latest iteration, by query and run.
async function triggerVerdicts(workspace: string): Promise<Record<string, boolean>> {
  const iteration = join(
    workspace,
    (await readdir(workspace))
      .filter((n) => n.startsWith("iteration-"))
      .sort()
      .at(-1)!,
  );
  const verdicts: Record<string, boolean> = {};
  for (const query of await readdir(join(iteration, "triggers"))) {
    if (!query.startsWith("query-")) continue;
    for (const run of await readdir(join(iteration, "triggers", query))) {
      const record = JSON.parse(
        await readFile(join(iteration, "triggers", query, run, "trigger.json"), "utf8"),
      );
      verdicts[`${query}/${run}`] = record.triggered;
    }
  }
  return verdicts;
}

async function evalVerdicts(workspace: string, configuration: string): Promise<Record<string, boolean>> {
  const folder = join(workspace, "iteration-1", "eval-1", configuration);
  const verdicts: Record<string, boolean> = {};
  for (const run of (await readdir(folder)).filter((n) => n.startsWith("run-"))) {
    const grading = JSON.parse(await readFile(join(folder, run, "grading.json"), "utf8"));
    verdicts[run] = grading.summary.pass_rate === 1;
  }
  return verdicts;
}

describe("the sim's trigger_pattern follows the run number", () => {
  it("catalog: two shards, and a catalog the store partly serves, give the plain catalog's matrix run for run", async () => {
    await cli(["catalog", library(), "--runs", "3", "--workspace", join(dir, "cat-plain")]);
    const plain = await catalogOf(join(dir, "cat-plain"));
    const fired = byRun(plain.runs);
    // The pattern decides each run by its number: the order the runs came in does not matter.
    expect([1, 2, 3].map((n) => fired[`haiku | Write a haiku about rain | ${n}`])).toEqual([
      "haiku",
      "none",
      "none",
    ]);
    expect([1, 2, 3].map((n) => fired[`limerick | Write a limerick about a cat | ${n}`])).toEqual([
      "none",
      "limerick",
      "limerick",
    ]);

    for (const index of [1, 2])
      await cli([
        "catalog",
        library(),
        "--runs",
        "3",
        "--shard",
        `${index}/2`,
        "--workspace",
        join(dir, `cat-shard-${index}`),
      ]);
    const shards = [await catalogOf(join(dir, "cat-shard-1")), await catalogOf(join(dir, "cat-shard-2"))];
    const joined = shards.flatMap((s) => s.runs);
    expect(shards.every((s) => s.runs.length > 0 && s.runs.length < plain.runs.length)).toBe(true);
    expect(byRun(joined)).toEqual(fired);
    expect(
      catalogMatrix(
        plain.skills.map((s) => ({ ...s, path: s.path })),
        joined,
      ).confusion,
    ).toEqual(plain.confusion);

    const stored = join(dir, "cat-store");
    await cli(["catalog", library(), "--runs", "1", "--workspace", stored]);
    const second = await cli(["catalog", library(), "--runs", "3", "--workspace", stored]);
    expect(second.stdout).toContain("2 run(s) served by the result store");
    const partly = await catalogOf(stored);
    expect(byRun(partly.runs)).toEqual(fired);
    expect(partly.confusion).toEqual(plain.confusion);
  }, 300_000);

  it("triggers: two shards, and a run the store partly serves, give the plain run's verdict in every run", async () => {
    const skill = join(library(), "haiku");
    const plainWs = join(dir, "trig-plain");
    await cli(["triggers", skill, "--runs", "3", "--all-runs", "--workspace", plainWs]);
    const plain = await triggerVerdicts(plainWs);
    expect(["run-1", "run-2", "run-3"].map((r) => plain[`query-1/${r}`])).toEqual([true, false, false]);

    const joined: Record<string, boolean> = {};
    for (const index of [1, 2]) {
      const ws = join(dir, `trig-shard-${index}`);
      const shard = await cli(["triggers", skill, "--runs", "3", "--shard", `${index}/2`, "--workspace", ws]);
      expect(shard.stdout).toContain(`shard ${index}/2: partial figures`);
      Object.assign(joined, await triggerVerdicts(ws));
    }
    expect(joined).toEqual(plain);

    const stored = join(dir, "trig-store");
    await cli(["triggers", skill, "--runs", "1", "--workspace", stored]);
    const second = await cli(["triggers", skill, "--runs", "3", "--all-runs", "--workspace", stored]);
    expect(second.stderr.match(/reused from/g)).toHaveLength(1);
    expect(await triggerVerdicts(stored)).toEqual(plain);
  }, 300_000);

  it("eval runs: a rule's pattern decides run n of each configuration, sharded or not", async () => {
    const skill = join(library(), "haiku");
    const plainWs = join(dir, "eval-plain");
    // One at a time: run n of with_skill is not the n-th session of its prompt (without_skill's come between).
    await cli(["eval", skill, "--runs", "3", "--workspace", plainWs], 1);
    expect(await evalVerdicts(plainWs, "with_skill")).toEqual({
      "run-1": false,
      "run-2": true,
      "run-3": false,
    });

    // The same eval again is served by the result store, and says so; --json counts it.
    const again = await cli(["eval", skill, "--runs", "3", "--workspace", plainWs]);
    expect(again.stdout).toMatch(
      /^cost: \$0\.0000 spent on 0 runs; 6 runs reused from the result store saved \$/m,
    );
    const json = await cli(["eval", skill, "--runs", "3", "--workspace", plainWs, "--json"]);
    expect(JSON.parse(json.stdout).savings).toMatchObject({ reused_runs: 6, ran_runs: 0 });

    const joined: Record<string, boolean> = {};
    for (const index of [1, 2]) {
      const ws = join(dir, `eval-shard-${index}`);
      const shard = await cli(["eval", skill, "--runs", "3", "--shard", `${index}/2`, "--workspace", ws]);
      expect(shard.stdout).toContain(`shard ${index}/2: partial figures`);
      Object.assign(joined, await evalVerdicts(ws, "with_skill").catch(() => ({})));
    }
    expect(joined).toEqual({ "run-1": false, "run-2": true, "run-3": false });
  }, 300_000);
});
