import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CatalogResults } from "../../src/contracts/catalog.js";
import { executableDouble } from "../agent-double/index.js";
import { tempDir } from "../e2e/helpers.js";
import { root } from "./cli-process.js";
import { cli } from "./command-fixture.js";
import { interrupted } from "./interrupted.js";

// `skillgym catalog` run in this process through the CLI's own `main`, on a copy of test/catalog/fixtures/library
// (four skills; its sim-script routes release-notes' three queries to release-notes, to none and to greeting-card)
// with the test double as the agent; only release-notes' queries are asked, once each.

let dir: string;
let cleanup: () => Promise<void>;
let library: string;
let binary: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  library = join(dir, "library");
  await cp(join(root, "test/catalog/fixtures/library"), library, { recursive: true });
  binary = await executableDouble(dir);
});
afterAll(() => cleanup());

const catalog = (workspace: string, ...flags: string[]) =>
  cli([
    "catalog",
    library,
    "--simulate",
    "--agent-bin",
    binary,
    "--workspace",
    join(dir, workspace),
    "--only",
    "release-notes",
    "--runs",
    "1",
    ...flags,
  ]);

describe("skillgym catalog --dry-run", () => {
  it("prints the plan and starts nothing", async () => {
    const ws = join(dir, "planned");
    expect(await catalog("planned", "--dry-run")).toEqual({
      code: 0,
      stdout:
        `plan for the catalog of ${library}: 4 skills installed together in every run: chart-maker (3 queries), csv-stats (3 queries), greeting-card (competitor only), release-notes (3 queries)\n` +
        "3 queries × 1 run(s) = 3 runs\n" +
        "estimated cost: about $0.00 (rough: simulated runs cost nothing)\n" +
        `would write ${ws}/catalog-1\n` +
        `result store: ${ws}/.skillgym-cache\n` +
        "  catalog runs: 0 of 3 served by the store, 3 to run\n" +
        "the rest costs about $0.00 (the store saves about $0.00)\n" +
        "estimated wall time: about 3s for 3 run(s) to make at --concurrency 8 (3s per catalog run: defaults)\n" +
        "credentials: none needed (simulated)\n" +
        "nothing was started\n",
      stderr: "",
    });
  });

  it("prints the plan as JSON with --json, with the runs, the concurrency and the screen asked for", async () => {
    const result = await catalog(
      "planned",
      "--dry-run",
      "--json",
      "--concurrency",
      "2",
      "--screen",
      "replay",
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({
      dir: library,
      catalogDir: join(dir, "planned/catalog-1"),
      resumes: false,
      queries: 3,
      runsPerQuery: 1,
      runs: 3,
      finished: 0,
      concurrency: 2,
      simulated: true,
      screen: { kind: "replay", capture_runs: 1, replay_requests: 3, agent_runs_up_to: 3 },
    });
  });

  it("asks every skill's queries without --only", async () => {
    const result = await cli([
      "catalog",
      library,
      "--simulate",
      "--agent-bin",
      binary,
      "--workspace",
      join(dir, "planned"),
      "--dry-run",
      "--json",
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({
      queries: 9,
      runsPerQuery: 3,
      runs: 27,
      concurrency: 8,
    });
  });

  it("refuses both conditions at once", async () => {
    expect(await catalog("planned", "--dry-run", "--conditions", "real,clean")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "skillgym: --conditions: catalog does not run the clean room and the real conditions side by side\n" +
        "  fix: a catalog writes one matrix: run it once with --conditions clean and once under the conditions, each into its own catalog-<N>\n",
    });
  });

  it("plans this shard's part under the project, the rivals and the conversation given", async () => {
    const project = join(dir, "project");
    await mkdir(project, { recursive: true });
    await writeFile(join(project, "README.md"), "# app\n");
    const rivals = join(dir, "rivals");
    await mkdir(join(rivals, "changelog"), { recursive: true });
    await writeFile(
      join(rivals, "changelog", "SKILL.md"),
      "---\nname: changelog\ndescription: Keeps CHANGELOG.md up to date.\n---\n\nEdit it.\n",
    );
    const context = join(dir, "context.json");
    await writeFile(
      context,
      JSON.stringify([
        { role: "user", content: "we ship on Fridays" },
        { role: "assistant", content: "Noted." },
      ]),
    );
    const result = await catalog(
      ...["planned", "--dry-run", "--json", "--shard", "1/2", "--project-root", project],
      ...["--installed", rivals, "--context", context],
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({
      shard: { index: 1, count: 2, runs: 3 },
      conditions: {
        project_root: project,
        installed: ["changelog"],
        context,
        context_turns: 2,
      },
    });
  });

  it("warns of a folder without a SKILL.md, left out of the catalog", async () => {
    const messy = join(dir, "messy");
    await cp(library, messy, { recursive: true });
    await mkdir(join(messy, "notes"));
    const result = await cli([
      ...["catalog", messy, "--simulate", "--agent-bin", binary, "--workspace", join(dir, "planned")],
      ...["--only", "release-notes", "--runs", "1", "--dry-run"],
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `warning: ${join(messy, "notes")} has no SKILL.md: not a skill, left out of the catalog (a skill's folder sits directly inside the catalog folder)\n`,
    );
  });

  it("plans a real catalog's cost and checks its login", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-test-not-a-key");
    try {
      const result = await cli([
        ...["catalog", library, "--agent-bin", binary, "--workspace", join(dir, "planned")],
        ...["--only", "release-notes", "--runs", "1", "--dry-run"],
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        "credentials: Claude Code logs in with ANTHROPIC_API_KEY\nnothing was started\n",
      );
      expect(result.stdout).not.toContain("simulated");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("plans with the result store --cache names", async () => {
    const cache = join(dir, "shared-cache");
    const result = await catalog("planned", "--dry-run", "--cache", cache);
    expect(result.stdout.split("\n")[4]).toBe(`result store: ${cache}`);
  });
});

describe("skillgym catalog", () => {
  it("runs the queries, prints each skill's scores and the files, and serves a second catalog from the store", async () => {
    const ws = join(dir, "ran");
    const first = await catalog("ran");
    const scores =
      "  chart-maker: precision –, recall –, F1 –\n" +
      "  csv-stats: precision –, recall –, F1 –\n" +
      "  greeting-card: no queries of its own (competitor only)\n" +
      "  release-notes: precision 100%, recall 50%, F1 67%\n" +
      "  note: greeting-card has no trigger queries of its own: it took part only as a competitor\n";
    const files = (n: number) =>
      `  catalog.md: ${ws}/catalog-${n}/catalog.md\n` +
      `  catalog.json: ${ws}/catalog-${n}/catalog.json\n` +
      `  view it: skillgym view ${ws}\n`;
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${scores}  0 run(s) served by the result store\n${files(1)}`);
    // Runs end in any order: each progress line without its count.
    expect(
      first.stderr
        .replace(/^\[\d\/3\] /gm, "")
        .split("\n")
        .sort(),
    ).toEqual([
      "",
      "release-notes/query-1/run-1: fired release-notes",
      "release-notes/query-2/run-1: fired none",
      "release-notes/query-3/run-1: fired greeting-card",
      `writing ${ws}/catalog-1: 4 skills installed together, 3 runs [SIMULATED: skillgym sim answers, not a model]`,
    ]);
    expect(first.stderr.match(/^\[\d\/3\]/gm)).toEqual(["[1/3]", "[2/3]", "[3/3]"]);
    const second = await catalog("ran", "--json");
    expect(second.code).toBe(0);
    const printed = CatalogResults.parse(JSON.parse(second.stdout));
    const written = CatalogResults.parse(
      JSON.parse(await readFile(join(ws, "catalog-2/catalog.json"), "utf8")),
    );
    expect(printed).toEqual(written);
    expect(written.confusion).toEqual({
      "release-notes": { "release-notes": 1, none: 1 },
      "not:release-notes": { "greeting-card": 1 },
    });
    expect(second.stderr).toContain("fired none (reused)\n");
    const fresh = await catalog("ran", "--fresh");
    expect(fresh.stdout).toBe(`${scores}  0 run(s) served by the result store\n${files(3)}`);
  });

  it("says it is cancelling on Ctrl-C, exit 130, and stops listening for Ctrl-C once it returns", async () => {
    const listening = () => [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    const before = listening();
    const result = await interrupted(() => catalog("cancelled"));
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("\ncancelling: finished runs are kept; Ctrl-C again to quit now\n");
    expect(result.stderr).not.toContain("--max-cost");
    expect(listening()).toEqual(before);
  });

  it("stops scheduling runs at --max-cost and says how to resume, exit 130, recording the --model asked for", async () => {
    const result = await catalog("capped", "--max-cost", "0.0001", "--model", "m1", "--json");
    expect(result.code).toBe(130);
    expect(result.stderr).toContain("stopped scheduling runs: --max-cost reached; run it again to resume\n");
    expect(JSON.parse(result.stdout)).toMatchObject({ model: "m1", runs: [] });
  });

  it("says what replay decided with --screen replay", async () => {
    const result = await catalog("screened", "--screen", "replay");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "  0 run(s) served by the result store\nreplay decided 3 of 3 catalog runs, the agent 0; first request captured\n  catalog.md: ",
    );
  });
});

describe("skillgym help catalog", () => {
  it("describes the catalog folder and what --shard does to a catalog", async () => {
    const help = await cli(["help", "catalog"]);
    expect(help.code).toBe(0);
    // Commander wraps a long description onto indented lines: compare the words.
    const words = help.stdout.replace(/\s+/g, " ");
    expect(words).toContain(" dir a folder holding one folder per skill, each with its SKILL.md ");
    expect(words).toContain(
      " --shard <i/n> make only the i-th of n parts of the catalog's (skill, query, run) units, in a catalog-<N> folder of its own; ",
    );
  });
});
