import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import type { CatalogMember } from "../../src/catalog/discover.js";
import { planCatalogRuns } from "../../src/catalog/plan.js";
import { catalogRunKeys } from "../../src/catalog/reuse-catalog.js";
import { catalogCaptureKey } from "../../src/catalog/screen-catalog.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let agent: Agent;
beforeAll(async () => {
  agent = await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" });
});

const member = (name: string, description: string, queries: string[]): CatalogMember => ({
  name,
  dir: `/library/${name}`,
  description,
  queries: queries.map((query, i) => ({ query, should_trigger: i === 0 })),
});

const members = [
  member("chart-maker", "Draws charts from CSV files.", ["plot the sales by month", "fix the parser test"]),
  member("csv-stats", "Summarises CSV files.", ["summarise this CSV"]),
];

describe("planCatalogRuns", () => {
  it("plans every query of every skill, run 1 of all before run 2, in query-<i>/run-<k> folders from 1", () => {
    const specs = planCatalogRuns(members, 2, "/library/catalog-1");
    expect(specs.map((s) => `${s.owner} ${s.runDir}`)).toEqual([
      `chart-maker ${join("/library/catalog-1", "chart-maker", "query-1", "run-1")}`,
      `chart-maker ${join("/library/catalog-1", "chart-maker", "query-2", "run-1")}`,
      `csv-stats ${join("/library/catalog-1", "csv-stats", "query-1", "run-1")}`,
      `chart-maker ${join("/library/catalog-1", "chart-maker", "query-1", "run-2")}`,
      `chart-maker ${join("/library/catalog-1", "chart-maker", "query-2", "run-2")}`,
      `csv-stats ${join("/library/catalog-1", "csv-stats", "query-1", "run-2")}`,
    ]);
    expect(specs[1]).toMatchObject({ queryIndex: 1, query: "fix the parser test", shouldTrigger: false });
    expect(Object.keys(specs[0]!.installNames)).toEqual(["chart-maker", "csv-stats"]);
  });

  it("asks only the queries of the skills --only names, with every skill installed", () => {
    const specs = planCatalogRuns(members, 1, "/library/catalog-1", ["csv-stats"]);
    expect(specs.map((s) => s.owner)).toEqual(["csv-stats"]);
    expect(Object.keys(specs[0]!.installNames)).toEqual(["chart-maker", "csv-stats"]);
  });
});

describe("the store key of a catalog run", () => {
  const context = (library: CatalogMember[]) => ({ agent, members: library, timeoutMs: 60_000 });
  const [first, second] = planCatalogRuns(members, 2, "/library/catalog-1").filter(
    (s) => s.owner === "csv-stats",
  );

  it("is the same for the same run and library, and another for the next run of the query", async () => {
    const key = await catalogRunKeys(context(members))(first!);
    expect(await catalogRunKeys(context([...members].reverse()))(first!)).toBe(key);
    expect(await catalogRunKeys(context(members))(second!)).not.toBe(key);
  });

  it("changes when any skill's description changes, not only the owner's", async () => {
    const key = await catalogRunKeys(context(members))(first!);
    const edited = [member("chart-maker", "Draws charts and tables from CSV files.", []), members[1]!];
    expect(await catalogRunKeys(context(edited))(first!)).not.toBe(key);
  });

  it("holds each condition the run was made under: the rivals' content, the project's hash, the conversation's", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeTree(dir, {
        "rivals/changelog/SKILL.md": skillMd("changelog", "Keeps CHANGELOG.md.", "Edit it."),
        "edited/changelog/SKILL.md": skillMd("changelog", "Keeps CHANGELOG.md.", "Edit it carefully."),
      });
      const rival = (folder: string) => [
        { sourceDir: join(dir, folder, "changelog"), installName: "changelog" },
      ];
      const key = (conditions: object) => catalogRunKeys({ ...context(members), ...conditions })(first!);
      const clean = await key({});
      // No condition, or an empty library: the key of a catalog stored before conditions existed.
      expect(await key({ installed: [] })).toBe(clean);
      const keys = [
        clean,
        await key({ installed: rival("rivals") }),
        await key({ installed: rival("edited") }),
        await key({ project: { hash: "a".repeat(64) } }),
        await key({ project: { hash: "b".repeat(64) } }),
        await key({ context: { hash: "c".repeat(64) } }),
      ];
      expect(new Set(keys).size).toBe(keys.length);
      expect(await key({ project: { hash: "a".repeat(64) } })).toBe(keys[3]);
    } finally {
      await cleanup();
    }
  });
});

describe("the keys a store keeps catalog runs and captures under", () => {
  // The folders' order is not the names' (csv-stats' folder comes first): a run's key does not depend on it.
  const library = [...members].reverse();
  const ctx = (agentOf: Agent) => ({
    agent: agentOf,
    members: library,
    bundledFiles: new Map(),
    catalogDir: "/library/catalog-1",
    timeoutMs: 60_000,
    tempRoot: "/tmp",
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });

  // Fixed values: a changed key leaves every user's stored catalog runs (or captures) unserved.
  it("keeps a catalog run's key as the stores written before hold it", async () => {
    const [spec] = planCatalogRuns(library, 1, "/library/catalog-1");
    expect(spec!.owner).toBe("csv-stats");
    expect(await catalogRunKeys(ctx(agent))(spec!)).toBe(
      "1ee10b36ddec5eed721a03ff3451571bdef3ee661f7c5eb9cff4860cd6aca931",
    );
  });

  it("keys the library's capture by every skill's name and description and the skill it was captured as", async () => {
    const key = "1c0337ce5d01e7aade699ee5feabd7a44bf062fd9cb7f203db0a3a83a29d98e1";
    expect(await catalogCaptureKey(ctx(agent))).toBe(key);
    // The capture is a run of the first skill, read as that skill's: another first skill is another capture.
    expect(await catalogCaptureKey({ ...ctx(agent), members })).not.toBe(key);
    const edited = [member("csv-stats", "Summarises CSV and TSV files.", []), members[0]!];
    expect(await catalogCaptureKey({ ...ctx(agent), members: edited })).not.toBe(key);
  });
});
