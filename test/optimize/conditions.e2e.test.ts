import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { conditionsTree, type Listing, listing } from "../triggers/conditions-fixture.js";

// The fixture's queries: "what changed" fires in the clean room and is stolen by the library's changelog; "prepare
// the release" fires only where the project's package.json is visible; the monad query never fires.
const simScript = {
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog" },
    { match: "what changed", skill: "~release-notes-sg-" },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    { match: "monad|prepare the release", skill: "none", without_skill: [{ text: "Sure." }] },
  ],
};

let dir: string;
let cleanup: () => Promise<void>;
let before: Listing;
const project = () => join(dir, "project");
const ws = (name: string) => join(dir, name);

// The original description alone is evaluated (no improver call): what its trigger runs gave, per query.
async function optimize(workspace: string, ...extra: string[]) {
  const result = await skillgymHereOnDouble([
    "optimize",
    join(dir, "release-notes"),
    "--simulate",
    "--sim-script",
    join(dir, "sim.json"),
    "--runs",
    "1",
    "--max-iterations",
    "0",
    "--workspace",
    ws(workspace),
    "--json",
    // The agent's runs: the sim's `files` rule reads the run's folder on disk, which a replayed request (naming the
    // capture run's folder, gone by then) cannot show it; a model sees only the request.
    "--screen",
    "none",
    ...extra,
  ]);
  return result;
}

async function triggersOf(workspace: string) {
  const folder = (await readdir(ws(workspace))).find((n) => n.startsWith("optimize-"))!;
  const results = JSON.parse(
    await readFile(join(ws(workspace), folder, "iteration-0", "triggers", "trigger-results.json"), "utf8"),
  ) as { results: { triggers: number; stolen_by?: Record<string, number> }[]; conditions?: unknown };
  return { fired: results.results.map((r) => r.triggers), results };
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    ...conditionsTree(),
    "sim.json": JSON.stringify(simScript),
    "project/.gitignore": "secret.txt\n",
    "project/secret.txt": "do not copy\n",
  });
  before = await listing(project());
}, 60_000);
afterAll(() => cleanup());

describe("optimize under trigger conditions: each evaluation's runs are made where the user works", () => {
  it("the clean room, the project and an installed library each change the original's result", async () => {
    const clean = await optimize("ws-clean");
    expect(clean.code, clean.stderr).toBe(0);
    expect((await triggersOf("ws-clean")).fired).toEqual([1, 0, 0]);
    expect(OptimizeResults.parse(JSON.parse(clean.stdout)).settings.conditions).toBeUndefined();

    const inProject = await optimize("ws-project", "--project-root", project());
    expect(inProject.code, inProject.stderr).toBe(0);
    const projectRun = await triggersOf("ws-project");
    expect(projectRun.fired).toEqual([1, 1, 0]);
    expect(projectRun.results.conditions).toMatchObject({ project_root: project() });
    expect(OptimizeResults.parse(JSON.parse(inProject.stdout)).settings.conditions).toEqual({
      project_root: project(),
    });

    const withLibrary = await optimize("ws-library", "--installed", join(dir, "library"));
    expect(withLibrary.code, withLibrary.stderr).toBe(0);
    const libraryRun = await triggersOf("ws-library");
    expect(libraryRun.fired).toEqual([0, 0, 0]);
    expect(libraryRun.results.results[0]?.stolen_by).toEqual({ changelog: 1 });
  });

  it("the suite's conditions apply; its side_by_side does not double the evaluations", async () => {
    await writeTree(dir, {
      "release-notes/evals/evals.json": JSON.stringify({
        conditions: { project_root: "../../project", side_by_side: true },
        evals: [],
      }),
    });
    try {
      const result = await optimize("ws-suite");
      expect(result.code, result.stderr).toBe(0);
      expect((await triggersOf("ws-suite")).fired).toEqual([1, 1, 0]);
      const folder = (await readdir(ws("ws-suite"))).find((n) => n.startsWith("optimize-"))!;
      const triggers = await readdir(join(ws("ws-suite"), folder, "iteration-0", "triggers"));
      expect(triggers).not.toContain("clean");
    } finally {
      await writeTree(dir, { "release-notes/evals/evals.json": JSON.stringify({ evals: [] }) });
    }
  });

  it("bad input exits 2 naming the path, before any agent starts", async () => {
    const cases: [string[], string][] = [
      [
        ["--project-root", join(dir, "no-such-project")],
        `Project root not found: ${join(dir, "no-such-project")}`,
      ],
      [
        ["--installed", join(dir, "no-such-library")],
        `--installed: ${join(dir, "no-such-library")} does not exist`,
      ],
      [["--installed", project()], `--installed: ${project()} holds no skill`],
      [["--context", join(dir, "missing.json")], `--context: ${join(dir, "missing.json")} cannot be read`],
    ];
    for (const [flags, message] of cases) {
      for (const dry of [[], ["--dry-run"]]) {
        const bad = await optimize("ws-bad", ...flags, ...dry);
        expect(bad.code, [...flags, ...dry].join(" ")).toBe(2);
        expect(bad.stderr).toContain(message);
      }
    }
    const made = await readdir(ws("ws-bad")).catch(() => [] as string[]);
    expect(made.filter((n) => n.startsWith("optimize-"))).toEqual([]);
  });

  it("leaves the user's project byte for byte as it was: same entries, sizes, mtimes and inodes", async () => {
    expect(await listing(project())).toEqual(before);
  });
});
