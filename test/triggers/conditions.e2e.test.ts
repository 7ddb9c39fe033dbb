import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { conditionsTree, type Listing, listing } from "./conditions-fixture.js";

// Three should-trigger queries and one that should not. "What changed" goes to the release-notes skill in the clean
// room, but to `changelog` once a library holding it is installed; "prepare the release" fires only where the working
// directory holds a package.json, i.e. in a copy of the user's project.
const simScript = {
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog", steps: [{ text: "Changelog." }] },
    { match: "what changed", skill: "~release-notes-sg-", steps: [{ text: "Notes." }] },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    { match: "prepare the release", skill: "none", without_skill: [{ text: "Which release?" }] },
    // Every other query looks around first: its transcript shows what the run's working directory held.
    { skill: "none", without_skill: [{ bash: "ls -A . .claude/skills" }, { text: "Sure." }] },
  ],
};

let dir: string;
let cleanup: () => Promise<void>;
const project = () => join(dir, "project");
const ws = (name: string) => join(dir, name);

async function triggers(workspace: string, ...extra: string[]) {
  const result = await skillgymHereOnDouble([
    "triggers",
    join(dir, "release-notes"),
    "--simulate",
    "--sim-script",
    join(dir, "sim.json"),
    "--runs",
    "1",
    "--workspace",
    ws(workspace),
    "--json",
    ...extra,
  ]);
  return result;
}

interface QueryResult {
  query: string;
  triggers: number;
  runs: number;
  stolen_by?: Record<string, number>;
}
const resultsOf = (stdout: string) => JSON.parse(stdout).results as QueryResult[];
const fired = (results: QueryResult[]) => results.map((r) => r.triggers);

async function triggerRecord(workspace: string, iteration: number, query: number) {
  return JSON.parse(
    await readFile(
      join(ws(workspace), `iteration-${iteration}`, "triggers", `query-${query}`, "run-1", "trigger.json"),
      "utf8",
    ),
  ) as { triggered: boolean; stolen_by: string[]; reused_from?: unknown };
}

let before: Listing;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    ...conditionsTree(),
    "sim.json": JSON.stringify(simScript),
    "project/.gitignore": "secret.txt\n",
    "project/secret.txt": "do not copy\n",
    "project/node_modules/dep/index.js": "module.exports = 1;\n",
  });
  before = await listing(project());
}, 60_000);
afterAll(() => cleanup());

describe("trigger runs under real conditions (--installed, --project-root)", () => {
  it("one query fires in the clean room and is stolen once the library is installed", async () => {
    const clean = await triggers("ws-clean");
    expect(clean.code, clean.stderr).toBe(0);
    expect(fired(resultsOf(clean.stdout))).toEqual([1, 0, 0]);

    const installed = await triggers("ws-installed", "--installed", join(dir, "library"));
    expect(installed.code, installed.stderr).toBe(0);
    const results = resultsOf(installed.stdout);
    expect(fired(results)).toEqual([0, 0, 0]);
    expect(results[0]?.stolen_by).toEqual({ changelog: 1 });
    expect((await triggerRecord("ws-installed", 1, 1)).stolen_by).toEqual(["changelog"]);
    const plan = JSON.parse(
      await readFile(join(ws("ws-installed"), "iteration-1", "triggers", "plan.json"), "utf8"),
    );
    expect(plan.installed).toEqual([join(dir, "library")]);
    expect(JSON.parse(installed.stdout).conditions).toEqual({ installed: ["changelog", "formatter"] });
    expect(JSON.parse(clean.stdout).conditions).toBeUndefined();
  });

  it("another fires only in a copy of the project; the copy leaves out what .gitignore and the defaults do", async () => {
    const inProject = await triggers("ws-project", "--project-root", project());
    expect(inProject.code, inProject.stderr).toBe(0);
    expect(fired(resultsOf(inProject.stdout))).toEqual([1, 1, 0]);
    const plan = JSON.parse(
      await readFile(join(ws("ws-project"), "iteration-1", "triggers", "plan.json"), "utf8"),
    );
    expect(plan.project_root).toBe(project());
    expect(plan.project_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(inProject.stdout).conditions).toEqual({
      project_root: project(),
      project_hash: plan.project_hash,
    });
    // The monad query's `ls -A` shows the run's folder: the project's files, not the ignored ones nor node_modules.
    const transcript = await readFile(
      join(ws("ws-project"), "iteration-1", "triggers", "query-3", "run-1", "transcript.jsonl"),
      "utf8",
    );
    expect(transcript).toContain(String.raw`.claude\n.gitignore\npackage.json\nsrc`);
    expect(transcript).not.toContain("secret.txt");
    expect(transcript).not.toContain("node_modules");
  });

  it("a project's own skills compete too; its stale copy of the skill under test is not installed", async () => {
    const own = join(dir, "project-with-skills");
    await writeTree(own, {
      "package.json": "{}\n",
      ".claude/skills/changelog/SKILL.md": skillMd("changelog", "Keeps CHANGELOG.md.", "Edit it."),
      ".claude/skills/release-notes/SKILL.md": skillMd("release-notes", "An old copy.", "Old."),
    });
    const result = await triggers("ws-own", "--project-root", own);
    expect(result.code, result.stderr).toBe(0);
    const results = resultsOf(result.stdout);
    expect(fired(results)).toEqual([0, 1, 0]);
    expect(results[0]?.stolen_by).toEqual({ changelog: 1 });
    const transcript = await readFile(
      join(ws("ws-own"), "iteration-1", "triggers", "query-3", "run-1", "transcript.jsonl"),
      "utf8",
    );
    // `ls -A . .claude/skills`: the project's own skill and the synthetic copy, nothing under the real name.
    expect(/\.claude\/skills:[^"]*/.exec(transcript)?.[0]).toMatch(
      /^\.claude\/skills:\\nchangelog\\nrelease-notes-sg-[0-9a-f]{8}$/,
    );
  });

  it("the store serves an unchanged condition and not a changed one", async () => {
    const again = await triggers("ws-project", "--project-root", project());
    expect(again.code, again.stderr).toBe(0);
    for (const q of [1, 2, 3]) expect((await triggerRecord("ws-project", 2, q)).reused_from).toBeDefined();
    // The dry run keys the same conditions: all served in the project, none with the library beside it.
    const dry = async (...extra: string[]) => {
      const plan = await triggers("ws-project", "--project-root", project(), "--dry-run", ...extra);
      expect(plan.code, plan.stderr).toBe(0);
      return JSON.parse(plan.stdout) as { triggerRuns: { served: number } };
    };
    expect((await dry()).triggerRuns.served).toBe(3);
    expect((await dry("--installed", join(dir, "library"))).triggerRuns.served).toBe(0);

    // The clean room's runs are not served to the project's, nor the project's to the library's.
    const installedInProject = await triggers(
      "ws-project",
      "--project-root",
      project(),
      "--installed",
      join(dir, "library"),
    );
    expect(installedInProject.code, installedInProject.stderr).toBe(0);
    expect(fired(resultsOf(installedInProject.stdout))).toEqual([0, 1, 0]);
    for (const q of [1, 2, 3]) expect((await triggerRecord("ws-project", 3, q)).reused_from).toBeUndefined();

    // An edited library skill is a changed condition: not served.
    const changedLib = join(dir, "library-2");
    await writeTree(changedLib, {
      "changelog/SKILL.md": skillMd("changelog", "Keeps CHANGELOG.md up to date.", "Edit it."),
      "formatter/SKILL.md": skillMd("formatter", "Formats code.", "Run the formatter."),
    });
    const otherLib = await triggers("ws-project", "--project-root", project(), "--installed", changedLib);
    expect(otherLib.code, otherLib.stderr).toBe(0);
    for (const q of [1, 2, 3]) expect((await triggerRecord("ws-project", 4, q)).reused_from).toBeUndefined();
  });

  it("run's trigger part takes the same conditions", async () => {
    const run = await skillgymHereOnDouble([
      "run",
      join(dir, "release-notes"),
      "--simulate",
      "--sim-script",
      join(dir, "sim.json"),
      "--trigger-runs",
      "1",
      "--workspace",
      ws("ws-run"),
      "--project-root",
      project(),
      "--installed",
      join(dir, "library"),
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout).triggers;
    // "what changed" stolen, "prepare the release" fired in the project, the monad query rightly silent.
    expect(summary.passed).toBe(2);
    expect(summary.failed).toBe(1);
  });

  it("bad --installed input is a usage error naming the folder, before any agent starts", async () => {
    const cases: [string, string][] = [
      [join(dir, "no-such-library"), "does not exist"],
      [join(dir, "project"), "holds no skill"],
      [dir, "has the name of the skill under test (release-notes)"],
    ];
    for (const [library, message] of cases) {
      const bad = await triggers("ws-bad", "--installed", library);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(`--installed: ${library}`);
      expect(bad.stderr).toContain(message);
    }
    // `run` checks its trigger part's library before its evals start an agent.
    await writeTree(join(dir, "with-evals"), {
      "SKILL.md": skillMd(
        "with-evals",
        "Drafts release notes. Use when the user asks what changed.",
        "Body.",
      ),
      "evals/evals.json": JSON.stringify({
        evals: [{ id: 1, prompt: "Tell me what changed", expectations: [] }],
      }),
      "evals/triggers.json": JSON.stringify([{ query: "Tell me what changed", should_trigger: true }]),
    });
    const run = await skillgymHereOnDouble([
      "run",
      join(dir, "with-evals"),
      "--simulate",
      "--sim-script",
      join(dir, "sim.json"),
      "--workspace",
      ws("ws-bad"),
      "--installed",
      join(dir, "no-such-library"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--installed: ${join(dir, "no-such-library")} does not exist`);
    const workspace = await readdir(ws("ws-bad")).catch(() => []);
    expect(workspace.filter((n) => n.startsWith("iteration-"))).toEqual([]);
  });

  it("leaves the user's project byte for byte as it was: same entries, sizes, mtimes and inodes", async () => {
    const after = await listing(project());
    expect(after).toEqual(before);
    expect(await readFile(join(project(), "secret.txt"), "utf8")).toBe("do not copy\n");
  });
});
