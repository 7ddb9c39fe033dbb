import { cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Activation } from "../../src/contracts/activation.js";
import { CatalogResults } from "../../src/contracts/catalog.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { root } from "../cli/cli-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const library = join(root, "test", "catalog", "fixtures", "library");

// What library/sim-script.json routes: each query to a named skill, or to none. csv-stats and chart-maker overlap.
const SCRIPTED = {
  "csv-stats": { "csv-stats": 2, "chart-maker": 2 },
  "not:csv-stats": { "chart-maker": 2 },
  "chart-maker": { "chart-maker": 2, "csv-stats": 2 },
  "not:chart-maker": { none: 2 },
  "release-notes": { "release-notes": 2, none: 2 },
  "not:release-notes": { "greeting-card": 2 },
};

describe("skillgym catalog", () => {
  it("reproduces the scripted routing matrix with every skill installed together, at concurrency 6", async () => {
    const copy = join(dir, "library");
    await cp(library, copy, { recursive: true });
    const workspace = join(dir, "ws");
    const result = await skillgymHereOnDouble([
      "catalog",
      copy,
      "--simulate",
      "--runs",
      "2",
      "--concurrency",
      "6",
      "--workspace",
      workspace,
      "--json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("[18/18]");
    const printed = CatalogResults.parse(JSON.parse(result.stdout));
    const written = CatalogResults.parse(
      JSON.parse(await readFile(join(workspace, "catalog-1", "catalog.json"), "utf8")),
    );
    expect(written).toEqual(printed);
    expect(written.confusion).toEqual(SCRIPTED);
    expect(written.errors).toBe(0);
    const score = Object.fromEntries(written.skills.map((s) => [s.name, s]));
    expect(score["csv-stats"]).toMatchObject({ queries: 3, runs: 6, precision: 1, recall: 0.5 });
    expect(score["csv-stats"]!.f1).toBeCloseTo(2 / 3);
    expect(score["release-notes"]).toMatchObject({ true_negatives: 2, false_negatives: 2 });
    expect(score["greeting-card"]).toMatchObject({ queries: 0, runs: 0, precision: null });
    expect(written.notes).toContain(
      "greeting-card has no trigger queries of its own: it took part only as a competitor",
    );
    expect(written.pairs).toEqual([
      {
        skills: ["chart-maker", "csv-stats"],
        runs: 4,
        taken: [
          {
            owner: "chart-maker",
            fired: "csv-stats",
            runs: 2,
            queries: ["Plot the trend in prices.csv"],
          },
          {
            owner: "csv-stats",
            fired: "chart-maker",
            runs: 2,
            queries: ["Give me min, max and mean for every column of sales.csv"],
          },
        ],
      },
    ]);
    // Every run installed all four skills under names of its own, and records it in its activation.json.
    const run = join(workspace, "catalog-1", "csv-stats", "query-2", "run-1");
    const record = JSON.parse(await readFile(join(run, "catalog-run.json"), "utf8"));
    expect(Object.keys(record.install_names).sort()).toEqual([
      "chart-maker",
      "csv-stats",
      "greeting-card",
      "release-notes",
    ]);
    expect(record.install_names["csv-stats"]).toMatch(/^csv-stats-sg-[0-9a-f]{8}$/);
    const activation = Activation.parse(JSON.parse(await readFile(join(run, "activation.json"), "utf8")));
    expect(activation).toMatchObject({ skill: "csv-stats", skill_fired: false, configuration: "catalog" });
    expect(activation.fired.map((f) => f.skill)).toEqual(["chart-maker"]);
    const markdown = await readFile(join(workspace, "catalog-1", "catalog.md"), "utf8");
    expect(markdown).toContain("| csv-stats | 3 | 6 | 100% | 50% | 67% |");
    expect(markdown).toContain("**chart-maker ↔ csv-stats**: 4 run(s)");
    // The user's folders are not changed.
    expect((await readdir(copy)).sort()).toEqual([
      "chart-maker",
      "csv-stats",
      "greeting-card",
      "release-notes",
      "sim-script.json",
    ]);
  }, 240_000);

  it("--max-cost holds every run back and the next catalog resumes its folder; a shard of it is served by the store", async () => {
    const copy = join(dir, "library");
    await cp(library, copy, { recursive: true });
    const workspace = join(dir, "ws");
    const args = ["catalog", copy, "--simulate", "--runs", "1", "--workspace", workspace];
    const before = await skillgymHereOnDouble([...args, "--dry-run", "--concurrency", "2"]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toContain(
      `plan for the catalog of ${copy}: 4 skills installed together in every run: chart-maker (3 queries), csv-stats (3 queries), greeting-card (competitor only), release-notes (3 queries)`,
    );
    expect(before.stdout).toContain("9 queries × 1 run(s) = 9 runs");
    expect(before.stdout).toContain(`would write ${join(workspace, "catalog-1")}`);
    expect(before.stdout).toContain("catalog runs: 0 of 9 served by the store, 9 to run");
    // 9 runs in 5 waves of 2 at the simulated pace of 3 s.
    expect(before.stdout).toContain(
      "estimated wall time: about 15s for 9 run(s) to make at --concurrency 2 (3s per catalog run: defaults)",
    );
    expect(before.stdout).toContain("credentials: none needed (simulated)\nnothing was started");
    await expect(readdir(workspace)).rejects.toThrow();

    const held = await skillgymHereOnDouble([...args, "--max-cost", "0.01"]);
    expect(held.code, held.stderr).toBe(130);
    expect(held.stderr).toContain("stopped scheduling runs: --max-cost reached");
    await expect(readFile(join(workspace, "catalog-1", "catalog.json"), "utf8")).rejects.toThrow();
    const resumable = await skillgymHereOnDouble([...args, "--dry-run"]);
    expect(resumable.stdout).toContain(
      `would resume ${join(workspace, "catalog-1")}: 0 of 9 runs already finished there are kept`,
    );

    const finished = await skillgymHereOnDouble(args);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toContain(`resuming ${join(workspace, "catalog-1")}`);
    expect(finished.stderr).toContain("[9/9]");
    expect(finished.stderr).not.toContain("(reused)");
    await readFile(join(workspace, "catalog-1", "catalog.json"), "utf8");
    // The summary names the files it wrote, catalog.md first: the matrix to read.
    expect(finished.stdout).toContain(`  catalog.md: ${join(workspace, "catalog-1", "catalog.md")}\n`);
    expect(finished.stdout).toContain(`  catalog.json: ${join(workspace, "catalog-1", "catalog.json")}\n`);
    expect(finished.stdout).toContain(`  view it: skillgym view ${workspace}\n`);
    await readFile(join(workspace, "catalog-1", "catalog.md"), "utf8");

    // A dry run of a shard counts the store's runs of its own share, and says what the whole plan is.
    const shardPlan = await skillgymHereOnDouble([...args, "--dry-run", "--shard", "2/2", "--json"]);
    expect(shardPlan.code, shardPlan.stderr).toBe(0);
    const planned = JSON.parse(shardPlan.stdout);
    expect(planned).toMatchObject({
      runs: 4,
      shard: { index: 2, count: 2, runs: 9 },
      store: { catalogRuns: { runs: 4, served: 4, toRun: 0 } },
      toRun: 0,
      catalogDir: join(workspace, "catalog-2"),
    });
    expect((await skillgymHereOnDouble([...args, "--dry-run"])).stdout).toContain(
      "catalog runs: 9 of 9 served by the store, 0 to run",
    );

    // --shard 1/1 is a plan of its own: a new folder, every run served by the store.
    const shard = await skillgymHereOnDouble([...args, "--shard", "1/1"]);
    expect(shard.code, shard.stderr).toBe(0);
    expect(shard.stderr).toContain(`writing ${join(workspace, "catalog-2")}`);
    expect(shard.stderr).toContain("(shard 1/1)");
    expect(shard.stdout).toContain("9 run(s) served by the result store");

    const fresh = await skillgymHereOnDouble([...args, "--fresh", "--json"]);
    expect(fresh.code, fresh.stderr).toBe(0);
    const results = CatalogResults.parse(JSON.parse(fresh.stdout));
    expect(results.runs.filter((r) => r.reused_from !== undefined)).toEqual([]);
    expect(results.runs).toHaveLength(9);
  }, 240_000);

  it("refuses two skills of one name, naming both folders, and an invalid skill with its findings; nothing runs", async () => {
    const workspace = join(dir, "ws");
    await writeTree(join(dir, "twins"), {
      "a/SKILL.md": skillMd("same", "Does one thing. Use when asked.", "Body."),
      "b/SKILL.md": skillMd("same", "Does another thing. Use when asked.", "Body."),
    });
    const twins = await skillgymHereOnDouble([
      "catalog",
      join(dir, "twins"),
      "--simulate",
      "--workspace",
      workspace,
    ]);
    expect(twins.code).toBe(2);
    expect(twins.stderr).toContain(
      `two skills are named same: ${join(dir, "twins", "a")} and ${join(dir, "twins", "b")}`,
    );

    await writeTree(join(dir, "broken"), {
      "good/SKILL.md": skillMd("good", "Does a thing. Use when asked.", "Body."),
      "bad/SKILL.md": "---\nname: Bad Name\n---\nno description\n",
    });
    const broken = await skillgymHereOnDouble([
      "catalog",
      join(dir, "broken"),
      "--simulate",
      "--workspace",
      workspace,
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${join(dir, "broken", "bad")} is not a valid skill`);
    expect(broken.stderr).toMatch(/description/);
    await expect(readdir(workspace)).rejects.toThrow();
  }, 60_000);

  it("refuses a skill given in place of its folder, with a hint; says which subfolders hold no SKILL.md", async () => {
    const workspace = join(dir, "ws");
    await writeTree(join(dir, "lib"), {
      "alpha/SKILL.md": skillMd("alpha", "Does alpha things. Use when asked for alpha.", "Body."),
      "alpha/evals/triggers.json": JSON.stringify([{ query: "do alpha", should_trigger: true }]),
      "beta/SKILL.md": skillMd("beta", "Does beta things. Use when asked for beta.", "Body."),
      "nested/gamma/SKILL.md": skillMd("gamma", "Does gamma things. Use when asked for gamma.", "Body."),
      ".git/HEAD": "ref: refs/heads/main\n",
    });
    const skill = await skillgymHereOnDouble([
      "catalog",
      join(dir, "lib", "alpha"),
      "--simulate",
      "--workspace",
      workspace,
    ]);
    expect(skill.code).toBe(2);
    expect(skill.stderr).toContain(
      `${join(dir, "lib", "alpha")} is itself a skill (it has a SKILL.md), not a folder of skills`,
    );
    expect(skill.stderr).toContain(`skillgym catalog ${join(dir, "lib")}`);
    expect(skill.stderr).toContain(`skillgym triggers ${join(dir, "lib", "alpha")}`);

    const plan = await skillgymHereOnDouble([
      "catalog",
      join(dir, "lib"),
      "--simulate",
      "--dry-run",
      "--workspace",
      workspace,
    ]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(
      `warning: ${join(dir, "lib", "nested")} has no SKILL.md: not a skill, left out of the catalog`,
    );
    expect(plan.stderr).not.toContain(".git");
    expect(plan.stdout).toContain(
      "2 skills installed together in every run: alpha (1 queries), beta (competitor only)",
    );

    await writeTree(join(dir, "one"), {
      "alpha/SKILL.md": skillMd("alpha", "Does alpha things. Use when asked for alpha.", "Body."),
      "docs/README.md": "notes\n",
    });
    const one = await skillgymHereOnDouble([
      "catalog",
      join(dir, "one"),
      "--simulate",
      "--workspace",
      workspace,
    ]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain(
      `${join(dir, "one")} holds 1 skill folder(s); without a SKILL.md: ${join(dir, "one", "docs")}; a catalog needs two or more`,
    );
    await expect(readdir(workspace)).rejects.toThrow();
  }, 60_000);

  it("--help says what --shard and --sim-script do for a catalog", async () => {
    const help = await skillgymHereOnDouble(["catalog", "--help"]);
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, " ");
    expect(flat).toContain(
      "--shard <i/n> make only the i-th of n parts of the catalog's (skill, query, run) units",
    );
    expect(flat).toContain("skillgym merge does not join catalogs");
    expect(flat).toContain(
      "--sim-script <file> with --simulate, the simulator script that routes the catalog's queries (default: sim-script.json in <dir>, the catalog folder;",
    );
    expect(flat).toContain("--dry-run print the plan");
  });
});
