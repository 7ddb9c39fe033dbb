import { cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogResults, CatalogRun } from "../../src/contracts/catalog.js";
import { skillgymHere, skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { root } from "../cli/cli-process.js";
import { tempDir } from "../e2e/helpers.js";

// `skillgym catalog --screen replay` as a user runs it (the built CLI in this process, the agent the double).
let dir: string;
let cleanup: () => Promise<void>;
let copy: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  copy = join(dir, "library");
  await cp(join(root, "test", "catalog", "fixtures", "library"), copy, { recursive: true });
});
afterAll(() => cleanup?.());

const catalog = (workspace: string, ...extra: string[]) => catalogRuns("2", workspace, ...extra);
const catalogRuns = (runs: string, workspace: string, ...extra: string[]) => [
  "catalog",
  copy,
  "--simulate",
  "--runs",
  runs,
  "--concurrency",
  "4",
  "--workspace",
  join(dir, workspace),
  ...extra,
];

async function runRecords(catalogDir: string): Promise<CatalogRun[]> {
  const found: CatalogRun[] = [];
  for (const owner of await readdir(catalogDir, { withFileTypes: true })) {
    if (!owner.isDirectory()) continue;
    for (const query of await readdir(join(catalogDir, owner.name)))
      for (const run of await readdir(join(catalogDir, owner.name, query))) {
        const raw = JSON.parse(
          await readFile(join(catalogDir, owner.name, query, run, "catalog-run.json"), "utf8"),
        );
        const { install_names: _, ...record } = raw;
        found.push(CatalogRun.parse(record));
      }
  }
  return found;
}

describe("skillgym catalog --screen replay", () => {
  // One run per query (9 runs): the matrices compared are the same in every run of the sim.
  it("gives the same matrix as the agents, with most runs decided by replay, and says how many", async () => {
    const agents = await skillgymHereOnDouble(catalogRuns("1", "agents", "--json"));
    expect(agents.code, agents.stderr).toBe(0);
    const plain = CatalogResults.parse(JSON.parse(agents.stdout));
    const screened = await skillgymHereOnDouble(catalogRuns("1", "replay", "--screen", "replay"));
    expect(screened.code, screened.stderr).toBe(0);
    expect(screened.stdout).toMatch(
      /replay decided 9 of 9 catalog runs, the agent 0; first request captured/,
    );
    const written = CatalogResults.parse(
      JSON.parse(await readFile(join(dir, "replay", "catalog-1", "catalog.json"), "utf8")),
    );
    expect(written.confusion).toEqual(plain.confusion);
    expect(written.pairs).toEqual(plain.pairs);
    expect(written.screen).toMatchObject({ kind: "replay", decided_by_replay: 9, decided_by_agent: 0 });
    const records = await runRecords(join(dir, "replay", "catalog-1"));
    expect(records).toHaveLength(9);
    expect(records.every((r) => r.decided_by === "replay")).toBe(true);
    expect(plain.screen).toBeUndefined();
  });

  it("checks replayed runs against the agent with --screen-verify, the capture served by the store", async () => {
    // The first test's store: its capture is found there, and read with the names it was made with.
    const cache = join(dir, "replay", ".skillgym-cache");
    const result = await skillgymHereOnDouble(
      catalog("verify", "--screen", "replay", "--screen-verify", "50", "--cache", cache, "--json"),
    );
    expect(result.code, result.stderr).toBe(0);
    const written = CatalogResults.parse(JSON.parse(result.stdout));
    expect(written.screen?.verified).toMatchObject({ runs: 9, agreed: 9, agreement: 1, fell_back: false });
    expect(written.screen).toMatchObject({ decided_by_replay: 9, decided_by_agent: 9, captured: false });
    const agreed = written.runs.filter((r) => r.replay_agreed === true);
    expect(agreed).toHaveLength(9);
    expect(agreed.every((r) => r.decided_by === "agent")).toBe(true);
  });

  it("forecasts one capture and a replay per run in --dry-run", async () => {
    const result = await skillgymHereOnDouble(catalog("dry", "--screen", "replay", "--dry-run"));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /with --screen replay: 1 capture run \(one per key, unless stored\), 18 replay requests, up to 18 agent runs \(those replay leaves undecided\)/,
    );
    const plain = await skillgymHereOnDouble(catalog("dry", "--dry-run"));
    expect(plain.stdout).not.toMatch(/--screen replay/);
  });

  it("refuses an agent without replay with exit 2 before any run", async () => {
    const result = await skillgymHere(catalog("opencode", "--agent", "opencode", "--screen", "replay"));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--screen replay is not available with opencode yet/);
    // Nothing was written: no catalog folder, no run.
    await expect(readdir(join(dir, "opencode"))).rejects.toThrow(/ENOENT/);
  });
});
