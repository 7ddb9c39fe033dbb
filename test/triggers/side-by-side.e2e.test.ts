import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { conditionsTree, type Listing, listing, priorConversation } from "./conditions-fixture.js";

// The fixture's three queries: "what changed" fires in the clean room and is stolen by the library's changelog;
// "prepare the release" fires only where the project's package.json is visible; the monad query never fires.
const simScript = {
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog" },
    { match: "what changed", skill: "~release-notes-sg-" },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
};

let dir: string;
let cleanup: () => Promise<void>;
let before: Listing;
const project = () => join(dir, "project");
const ws = (name: string) => join(dir, name);

async function triggers(workspace: string, ...extra: string[]) {
  return await skillgymHereOnDouble([
    "triggers",
    join(dir, "release-notes"),
    "--simulate",
    "--sim-script",
    join(dir, "sim.json"),
    "--runs",
    "1",
    "--workspace",
    ws(workspace),
    ...extra,
  ]);
}

interface SideQuery {
  query: string;
  triggers: number;
  pass: boolean;
  side_by_side: {
    clean: { trigger_rate: number; pass: boolean };
    real: { trigger_rate: number; pass: boolean };
    difference: number;
    flag?: string;
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, { ...conditionsTree(), "sim.json": JSON.stringify(simScript) });
  before = await listing(project());
}, 60_000);
afterAll(() => cleanup());

describe("--conditions clean,real: the same queries in the clean room and under real conditions", () => {
  it("shows each query's rate in both, the difference, and flags the queries that pass in only one", async () => {
    const result = await triggers(
      "ws-side",
      "--conditions",
      "clean,real",
      "--installed",
      join(dir, "library"),
      "--project-root",
      project(),
      "--json",
    );
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const results = out.results as SideQuery[];
    expect(results.map((r) => [r.side_by_side.clean.trigger_rate, r.side_by_side.real.trigger_rate])).toEqual(
      [
        [1, 0],
        [0, 1],
        [0, 0],
      ],
    );
    expect(results.map((r) => r.side_by_side.difference)).toEqual([-1, 1, 0]);
    expect(results.map((r) => r.side_by_side.flag)).toEqual(["clean-only", "real-only", undefined]);
    // The query's own fields are the real conditions'.
    expect(results.map((r) => r.triggers)).toEqual([0, 1, 0]);
    expect(out.side_by_side).toMatchObject({ conditions: ["clean", "real"], clean_only: 1, real_only: 1 });
    expect(out.side_by_side.clean_summary.passed).toBe(2);
    expect(out.summary.passed).toBe(2);

    // One iteration: the clean room's runs in triggers/clean/, the real ones beside, each with its own results.
    const triggersDir = join(ws("ws-side"), "iteration-1", "triggers");
    expect((await readdir(ws("ws-side"))).filter((n) => n.startsWith("iteration-"))).toEqual(["iteration-1"]);
    const written = JSON.parse(await readFile(join(triggersDir, "trigger-results.json"), "utf8"));
    expect(written.side_by_side.clean_only).toBe(1);
    const clean = JSON.parse(await readFile(join(triggersDir, "clean", "trigger-results.json"), "utf8"));
    expect(clean.results.map((r: { triggers: number }) => r.triggers)).toEqual([1, 0, 0]);
    expect(clean.conditions).toBeUndefined();
    const cleanRun = JSON.parse(
      await readFile(join(triggersDir, "clean", "query-1", "run-1", "trigger.json"), "utf8"),
    );
    expect(cleanRun.stolen_by).toEqual([]);
    const plan = JSON.parse(await readFile(join(triggersDir, "plan.json"), "utf8"));
    expect(plan.side_by_side).toEqual(["clean", "real"]);
  });

  it("--dry-run counts the clean room's runs too, each under its own key", async () => {
    const side = [
      "--conditions",
      "clean,real",
      "--installed",
      join(dir, "library"),
      "--project-root",
      project(),
    ];
    const dry = async (workspace: string, ...extra: string[]) => {
      const plan = await triggers(workspace, "--dry-run", "--json", ...extra);
      expect(plan.code, plan.stderr).toBe(0);
      return JSON.parse(plan.stdout).triggerRuns as { runs: number; served: number; toRun: number };
    };
    // ws-side holds the first test's runs: the clean room's three and the real conditions' three, all stored.
    expect(await dry("ws-side", ...side)).toMatchObject({ runs: 6, served: 6, toRun: 0 });
    expect(await dry("ws-dry-empty", ...side)).toMatchObject({ runs: 6, served: 0, toRun: 6 });
    // Each side alone: its own three runs, served from its own keys.
    expect(await dry("ws-side", "--conditions", "clean", "--installed", join(dir, "library"))).toMatchObject({
      runs: 3,
      served: 3,
    });
    expect(await dry("ws-side", ...side.slice(2))).toMatchObject({ runs: 3, served: 3 });
  });

  it("the terminal summary shows both rates and says what each flag means", async () => {
    const result = await triggers(
      "ws-side-text",
      "--conditions",
      "clean,real",
      "--installed",
      join(dir, "library"),
      "--project-root",
      project(),
    );
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    const line = (query: string) => lines.find((l) => l.includes(query)) ?? "";
    expect(line("what changed")).toMatch(/clean 1\/1 +real +0\/1/);
    expect(line("what changed")).toContain("fires in an empty folder, not in your repository");
    expect(line("prepare the release")).toContain("fires in your repository, not in an empty folder");
    expect(line("monad")).not.toContain("<<");
    expect(result.stdout).toContain("1 pass only in the clean room, 1 only under the real conditions");
  });

  it("the store serves the clean room's runs to a later clean room and the real ones to the same conditions", async () => {
    const again = await triggers(
      "ws-side",
      "--conditions",
      "clean,real",
      "--installed",
      join(dir, "library"),
      "--project-root",
      project(),
      "--json",
    );
    expect(again.code, again.stderr).toBe(0);
    const plain = await triggers("ws-side", "--json");
    expect(plain.code, plain.stderr).toBe(0);
    const record = async (iteration: number, ...path: string[]) =>
      JSON.parse(
        await readFile(
          join(ws("ws-side"), `iteration-${iteration}`, "triggers", ...path, "trigger.json"),
          "utf8",
        ),
      ) as { reused_from?: unknown };
    for (const q of [1, 2, 3]) {
      expect((await record(2, "clean", `query-${q}`, "run-1")).reused_from).toBeDefined();
      expect((await record(2, `query-${q}`, "run-1")).reused_from).toBeDefined();
      // A plain clean-room run is served from the side-by-side's clean runs.
      expect((await record(3, `query-${q}`, "run-1")).reused_from).toBeDefined();
    }
  });

  it("bad --conditions input exits 2 with the reason before any agent starts", async () => {
    const cases: [string[], string][] = [
      [["--conditions", "clean,dirty"], 'unknown condition "dirty"'],
      [["--conditions", "real"], '"real" needs a condition to run under'],
      [
        ["--conditions", "clean,real", "--with-skills", join(dir, "library", "changelog")],
        '"real" needs a condition',
      ],
      [["--conditions", "clean,clean"], '"clean" is named twice'],
    ];
    for (const [extra, message] of cases) {
      const bad = await triggers("ws-bad", ...extra);
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stderr).toContain("--conditions");
      expect(bad.stderr).toContain(message);
    }
    expect(await readdir(ws("ws-bad")).catch(() => [])).toEqual([]);
  });

  it("run's trigger part takes --conditions too", async () => {
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
      "--conditions",
      "clean,real",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const written = JSON.parse(
      await readFile(join(ws("ws-run"), "iteration-1", "triggers", "trigger-results.json"), "utf8"),
    );
    expect(written.side_by_side).toMatchObject({ clean_only: 1, real_only: 1 });
  });

  it('the suite\'s "conditions" name them, so every run makes them; a flag wins over its field', async () => {
    const suiteOf = (conditions: unknown) => ({
      ...conditionsTree(),
      "release-notes/evals/evals.json": JSON.stringify({
        conditions,
        evals: [{ id: 1, prompt: "Tell me what changed", expectations: ["lists the changes"] }],
      }),
    });
    const suited = join(dir, "suited");
    // Paths are relative to the folder of evals.json.
    await writeTree(
      suited,
      suiteOf({ project_root: "../../project", installed: ["../../library"], side_by_side: true }),
    );
    const asked = (...extra: string[]) =>
      skillgymHereOnDouble([
        "triggers",
        join(suited, "release-notes"),
        "--simulate",
        "--sim-script",
        join(dir, "sim.json"),
        "--runs",
        "1",
        "--workspace",
        ws("ws-suited"),
        "--json",
        ...extra,
      ]);
    const result = await asked();
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.side_by_side).toMatchObject({ clean_only: 1, real_only: 1 });
    expect(out.conditions.project_root).toBe(join(suited, "project"));
    expect(out.conditions.installed).toEqual(["changelog", "formatter"]);
    // --conditions real on the command line: no clean room this time.
    const realOnly = await asked("--conditions", "real");
    expect(realOnly.code, realOnly.stderr).toBe(0);
    expect(JSON.parse(realOnly.stdout).side_by_side).toBeUndefined();

    const bad: [unknown, string][] = [
      [{ installed: "../../library" }, "conditions.installed"],
      [{ project_root: 3 }, "conditions.project_root"],
      [{ side_by_sde: true }, "side_by_sde"],
      [{ side_by_side: true }, 'conditions.side_by_side: "real" needs a condition'],
    ];
    for (const [conditions, message] of bad) {
      const broken = join(dir, "broken");
      await writeTree(broken, suiteOf(conditions));
      const failed = await skillgymHereOnDouble([
        "triggers",
        join(broken, "release-notes"),
        "--simulate",
        "--workspace",
        ws("ws-broken"),
      ]);
      expect(failed.code, failed.stderr).toBe(2);
      expect(failed.stderr).toContain(join(broken, "release-notes", "evals", "evals.json"));
      expect(failed.stderr).toContain(message);
    }
    expect(await readdir(ws("ws-broken")).catch(() => [])).toEqual([]);
  });

  it("leaves the user's project as it was", async () => {
    expect(await listing(project())).toEqual(before);
  });
});

// The three differences: a should-trigger query stolen by an installed skill, one that fires only with the
// project's files visible, and one that stops firing once the agent has a prior conversation behind it.
const threeWays = {
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog" },
    { match: "what changed", skill: "~release-notes-sg-" },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    { match: "prepare the release", skill: "none" },
    { match: "draft the notes", history: "notes are already written", skill: "none" },
    { match: "draft the notes", skill: "~release-notes-sg-" },
    { skill: "none", without_skill: [{ text: "Sure." }] },
  ],
};
const context = priorConversation;

describe("--context: a prior conversation the agent continues through Claude Code's --resume", () => {
  let root: string;
  let done: () => Promise<void>;
  let untouched: Listing;
  beforeAll(async () => {
    ({ dir: root, cleanup: done } = await tempDir());
    await writeTree(root, {
      ...conditionsTree(),
      "release-notes/evals/triggers.json": JSON.stringify([
        { query: "Tell me what changed since v1.2", should_trigger: true },
        { query: "Please prepare the release", should_trigger: true },
        { query: "Draft the notes for v1.3", should_trigger: true },
        { query: "Explain what a monad is", should_trigger: false },
      ]),
      "sim.json": JSON.stringify(threeWays),
      "context.json": JSON.stringify(context),
    });
    untouched = await listing(join(root, "project"));
  }, 60_000);
  afterAll(() => done());

  const run = (workspace: string, ...extra: string[]) =>
    skillgymHereOnDouble([
      "triggers",
      join(root, "release-notes"),
      "--simulate",
      "--sim-script",
      join(root, "sim.json"),
      "--runs",
      "1",
      "--workspace",
      join(root, workspace),
      "--json",
      ...extra,
    ]);

  it("side by side shows exactly the three differences: stolen, needs the project, stops mid-conversation", async () => {
    const result = await run(
      "ws-three",
      "--conditions",
      "clean,real",
      "--installed",
      join(root, "library"),
      "--project-root",
      join(root, "project"),
      "--context",
      join(root, "context.json"),
    );
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    const results = out.results as SideQuery[];
    expect(results.map((r) => r.side_by_side.flag)).toEqual([
      "clean-only",
      "real-only",
      "clean-only",
      undefined,
    ]);
    expect(results.map((r) => r.side_by_side.difference)).toEqual([-1, 1, -1, 0]);
    expect(out.side_by_side).toMatchObject({ clean_only: 2, real_only: 1 });
    expect(out.conditions).toMatchObject({ context: join(root, "context.json"), context_turns: 2 });
    expect(out.conditions.context_hash).toMatch(/^[0-9a-f]{64}$/);
    // The history went in as a session the agent resumed, never into the prompt.
    const transcript = await readFile(
      join(root, "ws-three", "iteration-1", "triggers", "query-3", "run-1", "transcript.jsonl"),
      "utf8",
    );
    expect(transcript).not.toContain("already written");
  });

  it("a changed prior conversation is a changed condition: not served from the store, and it can fire again", async () => {
    const plain = await run("ws-ctx", "--context", join(root, "context.json"));
    expect(plain.code, plain.stderr).toBe(0);
    expect((JSON.parse(plain.stdout).results as { triggers: number }[]).map((r) => r.triggers)).toEqual([
      1, 0, 0, 0,
    ]);
    await writeTree(root, {
      "context-2.json": JSON.stringify([
        { role: "user", content: "Can you look at the parser tests?" },
        { role: "assistant", content: "Yes, they pass." },
      ]),
    });
    const other = await run("ws-ctx", "--context", join(root, "context-2.json"));
    expect(other.code, other.stderr).toBe(0);
    expect((JSON.parse(other.stdout).results as { triggers: number }[]).map((r) => r.triggers)).toEqual([
      1, 0, 1, 0,
    ]);
  });

  it("bad --context input, or an agent that cannot continue a conversation, exits 2 with the reason", async () => {
    await writeTree(root, {
      "bad-role.json": JSON.stringify([{ role: "system", content: "x" }]),
      "ends-with-user.json": JSON.stringify([{ role: "user", content: "x" }]),
      "slash.json": JSON.stringify([
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello." },
        { role: "user", content: "/review the parser" },
        { role: "assistant", content: "Done." },
      ]),
    });
    const cases: [string[], string][] = [
      [["--context", join(root, "missing.json")], "cannot be read"],
      [["--context", join(root, "bad-role.json")], `${join(root, "bad-role.json")}[0].role`],
      [["--context", join(root, "ends-with-user.json")], "the last turn must be the assistant's"],
      [
        ["--context", join(root, "context.json"), "--agent", "codex"],
        "--context is not available with codex: Codex CLI continues a session with `codex exec resume <id>`",
      ],
      [
        ["--context", join(root, "context.json"), "--agent", "opencode"],
        "--context is not available with opencode: OpenCode continues a session with `opencode run --session <id>`",
      ],
      // Gemini CLI takes a prior conversation, but would leave a turn that reads as its command out of it.
      [
        ["--context", join(root, "slash.json"), "--agent", "gemini"],
        `--context: ${join(root, "slash.json")}[2].content: Gemini CLI drops a user turn that starts with "/"`,
      ],
    ];
    for (const [extra, message] of cases) {
      const bad = await run("ws-ctx-bad", ...extra);
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stderr).toContain(message);
    }
    // `run` checks its trigger part's --context before its evals start an agent.
    await writeTree(join(root, "with-evals"), {
      ...conditionsTree(),
      "release-notes/evals/evals.json": JSON.stringify({
        evals: [{ id: 1, prompt: "Tell me what changed", expectations: [] }],
      }),
    });
    for (const [extra, message] of cases.slice(3)) {
      const bad = await skillgymHereOnDouble([
        "run",
        join(root, "with-evals", "release-notes"),
        "--simulate",
        "--sim-script",
        join(root, "sim.json"),
        "--workspace",
        join(root, "ws-ctx-bad"),
        ...extra,
      ]);
      expect(bad.code, bad.stderr).toBe(2);
      expect(bad.stderr).toContain(message);
    }
    expect(await readdir(join(root, "ws-ctx-bad")).catch(() => [])).toEqual([]);
  });

  it("leaves the user's project as it was", async () => {
    expect(await listing(join(root, "project"))).toEqual(untouched);
  });
});
