import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TriggerRun } from "../../src/contracts/run-record.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { SkillgymError } from "../../src/errors.js";
import { createBudget } from "../../src/run/budget.js";
import { loadInputs } from "../../src/run/load-inputs.js";
import { runTriggers, type TriggerOptions } from "../../src/triggers/index.js";
import { projectCondition } from "../../src/triggers/run-triggers.js";
import { useSimDouble } from "../agent-double/use-sim-double.js";
import { fastRetry, readJson, skillMd, writeTree } from "../e2e/helpers.js";
import { priorConversation } from "./conditions-fixture.js";

// Trigger runs under real conditions (--project-root, --installed), a shard's plan and bad input, with runTriggers in
// this process and the claude-code adapter on the test double. "What changed" goes to changelog once the library is
// installed; "prepare the release" fires only where the working folder holds a package.json; any other query lists
// the files of its working folder (the project's copy), leaving out the installed skills.
const script = SimScript.parse({
  rules: [
    { match: "what changed", skills: "^changelog$", skill: "changelog", steps: [{ text: "Changelog." }] },
    { match: "what changed", skill: "~release-notes-sg-", steps: [{ text: "Notes." }] },
    { match: "prepare the release", files: "^package\\.json$", skill: "~release-notes-sg-" },
    { match: "prepare the release", skill: "none", without_skill: [{ text: "Which release?" }] },
    // The agent removes skillgym's temp folder, the one its working folder lies in.
    {
      match: "clean up the temp",
      skill: "none",
      without_skill: [
        {
          bash: 'd=$PWD; while [ "$d" != / ]; do case $(basename "$d") in skillgym-triggers.*) rm -rf "$d"; break;; esac; d=$(dirname "$d"); done',
        },
        { text: "Cleaned." },
      ],
    },
    {
      skill: "none",
      without_skill: [
        { bash: "echo BEGIN; find . -not -path './.claude*' | sort; echo END" },
        { text: "Sure." },
      ],
    },
  ],
});

const fx = useSimDouble(script, async (dir) => {
  // The skill, its suite, the workspace and the store all sit inside the project: its copy leaves each of them out.
  await writeTree(dir, {
    "proj/package.json": '{ "name": "app" }\n',
    "proj/src/index.ts": "export const answer = 42;\n",
    "proj/.claude/skills/helper/SKILL.md": skillMd("helper", "Helps with the app.", "Help."),
    "proj/skills/release-notes/SKILL.md": skillMd(
      "release-notes",
      "Drafts release notes from the commits since the last tag.",
      "Write RELEASE_NOTES.md.",
    ),
    "proj/suite/triggers.json": JSON.stringify([
      { query: "Tell me what changed since v1.2", should_trigger: true },
      { query: "Please prepare the release", should_trigger: true },
      { query: "Explain what a monad is", should_trigger: false },
    ]),
    "empty-suite/triggers.json": "[]",
    "library/changelog/SKILL.md": skillMd("changelog", "Keeps CHANGELOG.md.", "Edit CHANGELOG.md."),
    "library/formatter/SKILL.md": skillMd("formatter", "Formats code.", "Run the formatter."),
    "not-a-skill/readme.txt": "nothing here",
    "context.json": JSON.stringify(priorConversation),
    // A skill named like the folder the project's copy is made in.
    "named/project/SKILL.md": skillMd("project", "Plans projects.", "Plan."),
    "named/project/evals/triggers.json": JSON.stringify([
      { query: "Explain what a monad is", should_trigger: false },
    ]),
    "named/tidy/SKILL.md": skillMd("tidy", "Tidies up.", "Tidy."),
    "named/tidy/evals/triggers.json": JSON.stringify([
      { query: "Please clean up the temp folders", should_trigger: false },
    ]),
    // A suite at the project's root, and a store that already holds runs, inside the project.
    "flat/package.json": '{ "name": "flat" }\n',
    "flat/triggers.json": JSON.stringify([{ query: "Tell me what changed", should_trigger: true }]),
    "flat/cache/entry.json": "{}\n",
    "flat/skills/notes/SKILL.md": skillMd("notes", "Drafts notes.", "Notes."),
  });
});
// What the fallback rule's agent listed of its working folder, from a run's transcript.
async function listing(runDir: string): Promise<string[] | undefined> {
  const transcript = await readFile(join(runDir, "transcript.jsonl"), "utf8");
  return /BEGIN\\n(.*?)\\nEND/.exec(transcript)?.[1]?.split("\\n");
}
// The claude-code adapter on the test double, against this file's sim.
const double = () => fx.agent();
const proj = () => join(fx.dir, "proj");
const library = () => join(fx.dir, "library");

function options(overrides: Partial<TriggerOptions> = {}): TriggerOptions {
  return {
    skillPath: join(proj(), "skills", "release-notes"),
    evalsPath: join(proj(), "suite", "triggers.json"),
    workspace: join(proj(), "ws"),
    runs: 1,
    threshold: 0.5,
    concurrency: 3,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 1 },
    createAgent: () => double(),
    ...overrides,
  };
}

describe("trigger runs in a copy of the project, with a library installed", () => {
  it("a query stolen by an installed skill, one firing only in the project; the copy leaves skillgym's files out", async () => {
    const summary = await runTriggers(
      options({ project: proj(), installed: [library()], store: { dir: join(proj(), "cache") } }),
    );
    const { results } = summary;
    expect(results.results.map((r) => r.triggers)).toEqual([0, 1, 0]);
    expect(results.results[0]?.stolen_by).toEqual({ changelog: 1 });
    const plan = await readJson(join(summary.iterationDir, "triggers", "plan.json"));
    expect(plan).toMatchObject({
      installed: [library()],
      project_root: proj(),
      project_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      with_skills: [],
    });
    expect(results.conditions).toEqual({
      project_root: proj(),
      project_hash: plan.project_hash,
      installed: ["changelog", "formatter"],
    });

    const monad = summary.records.find((r) => r.queryIndex === 2)!;
    expect(await listing(monad.spec.runDir)).toEqual([
      ".",
      "./package.json",
      "./skills",
      "./src",
      "./src/index.ts",
    ]);

    // The project's own skill was listed beside the staged ones: every run says so.
    for (const run of summary.records) {
      const record = TriggerRun.parse(await readJson(join(run.spec.runDir, "trigger.json")));
      expect(record.contaminated).toBe(true);
      const activation = await readJson(join(run.spec.runDir, "activation.json"));
      expect(activation.unexpected_skills).toEqual(["helper"]);
    }
  }, 60_000);
});

describe("the copy of the project", () => {
  it("leaves out a trigger file at the project's root and a store that already holds runs", async () => {
    const root = join(fx.dir, "flat");
    const inputs = await loadInputs({
      skillPath: join(root, "skills", "notes"),
      evalsPath: join(root, "triggers.json"),
      need: "triggers",
    });
    const project = await projectCondition(
      { project: root, store: { dir: join(root, "cache") } },
      { ...inputs, workspace: join(root, "ws") },
      join(fx.dir, "flat-temp"),
    );
    expect((await readdir(project!.snapshot)).sort()).toEqual(["package.json", "skills"]);
    expect(await readdir(join(project!.snapshot, "skills"))).toEqual([]);
  });

  it("stays apart from a skill named project tested with a description of its own", async () => {
    const summary = await runTriggers(
      options({
        skillPath: join(fx.dir, "named", "project"),
        evalsPath: join(fx.dir, "named", "project", "evals", "triggers.json"),
        project: proj(),
        description: "Plans software projects.",
      }),
    );
    const listed = await listing(summary.records[0]!.spec.runDir);
    expect(listed).toContain("./package.json");
    expect(listed).not.toContain("./SKILL.md");
  }, 60_000);

  it("ends the runs when the agent removed skillgym's temp folder", async () => {
    const summary = await runTriggers(
      options({
        skillPath: join(fx.dir, "named", "tidy"),
        evalsPath: join(fx.dir, "named", "tidy", "evals", "triggers.json"),
        project: proj(),
      }),
    );
    expect(summary.cancelled).toBe(false);
    expect(summary.records).toHaveLength(1);
    expect(await readJson(summary.resultsFile)).toMatchObject({ summary: { total: 1 } });
  }, 60_000);
});

describe("a shard's plan", () => {
  // An exhausted budget starts no run: the plan is written, and nothing else costs a process.
  async function planOf(workspace: string, overrides: Partial<TriggerOptions> = {}) {
    const totals: number[] = [];
    const summary = await runTriggers(
      options({
        workspace: join(fx.dir, "shards", workspace),
        runs: 2,
        shard: { index: 1, count: 2 },
        budget: createBudget(0, 1),
        reporter: { onPlan: (info) => totals.push(info.total) },
        ...overrides,
      }),
    );
    expect(summary.records).toEqual([]);
    expect(summary.cancelled).toBe(true);
    expect(summary.results.all_runs).toBe(true);
    const triggersDir = join(summary.iterationDir, "triggers");
    expect(await readdir(triggersDir)).toEqual(["plan.json"]);
    const plan = await readJson(join(triggersDir, "plan.json"));
    expect(plan).toMatchObject({ status: "interrupted", all_runs: true });
    const shard = plan.shard as { index: number; count: number; plan_hash: string };
    return { shard, total: totals[0]! };
  }

  it("records its place and the whole plan's hash, which every input of the plan changes", async () => {
    const first = await planOf("first");
    const second = await planOf("second", { shard: { index: 2, count: 2 } });
    // The hash is of the trigger plan alone: the same wherever, and by whichever release, it is made.
    expect(first.shard).toEqual({ index: 1, count: 2, plan_hash: "722eadce71951e20" });
    expect(second.shard).toEqual({ index: 2, count: 2, plan_hash: first.shard.plan_hash });
    expect(first.total + second.total).toBe(6);
    expect(first.total).toBeGreaterThan(0);
    expect(second.total).toBeGreaterThan(0);

    const changed: [string, Partial<TriggerOptions>][] = [
      ["description", { description: "Drafts notes." }],
      ["runs", { runs: 3 }],
      ["threshold", { threshold: 0.8 }],
      ["with-skills", { withSkills: [join(library(), "formatter")] }],
      ["installed", { installed: [library()] }],
      ["project", { project: proj() }],
      ["model", { model: "claude-sonnet-4-5" }],
      ["context", { context: join(fx.dir, "context.json") }],
    ];
    const hashes = new Set([first.shard.plan_hash]);
    for (const [name, change] of changed) hashes.add((await planOf(name, change)).shard.plan_hash);
    expect(hashes.size).toBe(changed.length + 1);
  }, 60_000);
});

describe("bad input", () => {
  it("is an error naming the file or the flag before any agent is made", async () => {
    let made = 0;
    const counting = (overrides: Partial<TriggerOptions>) =>
      options({
        workspace: join(fx.dir, "bad"),
        createAgent: () => {
          made++;
          return double();
        },
        ...overrides,
      });
    const failure = (overrides: Partial<TriggerOptions>) =>
      runTriggers(counting(overrides)).then(
        () => expect.unreachable(),
        (e: unknown) => {
          expect(e).toBeInstanceOf(SkillgymError);
          return e as SkillgymError;
        },
      );
    const empty = await failure({ evalsPath: join(fx.dir, "empty-suite", "triggers.json") });
    expect(empty.code).toBe("NO_EVALS");
    expect(empty.message).toBe(`${join(fx.dir, "empty-suite", "triggers.json")} has no queries`);
    const description = await failure({ description: "Use <this> skill" });
    expect(description.code).toBe("BAD_INPUT");
    expect(description.message).toContain("it contains < or >");
    const companion = await failure({ withSkills: [join(fx.dir, "not-a-skill")] });
    expect(companion.code).toBe("INVALID_SKILL");
    const installed = await failure({ installed: [join(fx.dir, "nowhere")] });
    expect(installed.code).toBe("USAGE");
    expect(made).toBe(0);
    await expect(readdir(join(fx.dir, "bad"))).rejects.toThrow();
  }, 60_000);
});
