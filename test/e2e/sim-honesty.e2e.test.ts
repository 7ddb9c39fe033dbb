import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, runWithSim, skillMd, tempDir, writeTree } from "./helpers.js";

const root = resolve(import.meta.dirname, "../..");
const _bin = join(root, "bin", "skillgym.js");

// The built CLI in this process (test/cli/cli-in-process.ts).
const skillgym = (args: string[]) => skillgymHereOnDouble(args);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const greeter = {
  "greeter/SKILL.md": skillMd(
    "greeter",
    "Writes greeting.txt for a person. Use when the user asks for a greeting.",
    "Write greeting.txt.",
  ),
  "greeter/evals/evals.json": JSON.stringify({
    evals: [
      {
        id: 1,
        prompt: "Greet Ada",
        expectations: ["greeting.txt greets Ada by name", "The answer is friendly"],
        checks: [{ type: "file_exists", path: "greeting.txt" }],
      },
    ],
  }),
};

describe("--simulate without a sim script", () => {
  it("says plainly that no script was found, in the summary, iteration.json and the report", async () => {
    await writeTree(dir, greeter);
    const ws = join(dir, "ws");
    const result = await skillgym([
      "run",
      join(dir, "greeter"),
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      ws,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("NO SIM SCRIPT");
    expect(result.stdout).toContain("skillgym sim --help");
    expect(result.stdout).toContain("examples/*/evals/sim-script.json");
    const iteration = join(ws, "iteration-1");
    expect(await readJson(join(iteration, "iteration.json"))).toMatchObject({
      simulated: true,
      sim_script: null,
    });
    expect(await readFile(join(iteration, "report.html"), "utf8")).toContain('"no_sim_script":true');

    // The sim judge decides from evidence: the named file was never written, so that expectation fails.
    const grading = await readJson(join(iteration, "eval-1", "with_skill", "run-1", "grading.json"));
    const verdicts = (grading.expectations as { text: string; passed: boolean; evidence: string }[]).map(
      (e) => [e.text, e.passed],
    );
    expect(verdicts).toEqual([
      ["greeting.txt greets Ada by name", false],
      ["The answer is friendly", true],
      ["greeting.txt exists", false],
    ]);

    const eval_ = await skillgym(["eval", join(dir, "greeter"), "--simulate", "--workspace", ws, "--json"]);
    expect(eval_.code).toBe(0);
    expect(JSON.parse(eval_.stdout)).toMatchObject({ simulated: true, sim_script: null });
  }, 240_000);

  it("does not warn when the suite has a sim script, and records which", async () => {
    await writeTree(dir, {
      ...greeter,
      "greeter/evals/sim-script.json": JSON.stringify({
        rules: [{ steps: [{ write: { path: "greeting.txt", content: "Hello Ada" } }] }],
      }),
    });
    const result = await skillgym([
      "eval",
      join(dir, "greeter"),
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      join(dir, "ws"),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("NO SIM SCRIPT");
    const record = await readJson(join(dir, "ws", "iteration-1", "iteration.json"));
    expect(record.sim_script).toBe(join(dir, "greeter", "evals", "sim-script.json"));
  }, 240_000);
});

describe("a plain skill name in a sim rule", () => {
  it("loads the skill only where it is installed: a without_skill run follows without_skill steps", async () => {
    await writeTree(dir, greeter);
    const script = SimScript.parse({
      rules: [
        {
          skill: "greeter",
          steps: [{ write: { path: "with.txt", content: "with the skill" } }],
          without_skill: [{ write: { path: "without.txt", content: "without the skill" } }],
        },
      ],
    });
    const { summary } = await runWithSim(script, {
      skillPath: join(dir, "greeter"),
      workspace: join(dir, "ws"),
      runs: 1,
      baseline: "without_skill",
      concurrency: 2,
      timeoutSeconds: 60,
    });
    expect(summary.records.map((r) => r.outcome)).toEqual(["success", "success"]);
    const outputs = (configuration: string) =>
      readdir(join(summary.iterationDir, "eval-1", configuration, "run-1", "outputs"));
    expect(await outputs("with_skill")).toContain("with.txt");
    expect(await outputs("with_skill")).not.toContain("without.txt");
    expect(await outputs("without_skill")).toContain("without.txt");
    expect(await outputs("without_skill")).not.toContain("with.txt");
  });
});

describe("the cost of a simulated run", () => {
  it("is $0 in every transcript.md, eval runs and trigger runs alike", async () => {
    await writeTree(dir, {
      ...greeter,
      "greeter/evals/triggers.json": JSON.stringify([{ query: "Greet Ada, please", should_trigger: true }]),
    });
    const ws = join(dir, "ws");
    const result = await skillgym([
      "run",
      join(dir, "greeter"),
      "--simulate",
      "--runs",
      "1",
      "--trigger-runs",
      "1",
      "--workspace",
      ws,
    ]);
    expect(result.code).toBe(0);
    const iteration = join(ws, "iteration-1");
    const files = (await readdir(iteration, { recursive: true })).filter((f) => f.endsWith("transcript.md"));
    expect(files.length).toBe(3);
    for (const file of files) {
      const text = await readFile(join(iteration, file), "utf8");
      expect(text).toContain("cost $0 (simulated)");
      expect(text).not.toMatch(/cost \$0\.\d*[1-9]/);
    }
  }, 240_000);
});

describe("skillgym init, then run --simulate", () => {
  it("passes its own suite and gates out of the box", async () => {
    const skill = join(dir, "meeting-notes");
    expect((await skillgym(["init", skill])).code).toBe(0);
    const result = await skillgym([
      "run",
      skill,
      "--simulate",
      "--min-pass-rate",
      "1",
      "--min-trigger-accuracy",
      "1",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      simulated: true,
      sim_script: join(skill, "evals", "sim-script.json"),
      cost_usd: 0,
      triggers: { accuracy: 1 },
      gates: [
        { name: "min-pass-rate", passed: true },
        { name: "min-trigger-accuracy", passed: true },
      ],
    });
    expect(summary.pass_rate.with_skill.pass_rate.mean).toBe(1);
    expect(summary.pass_rate.without_skill.pass_rate.mean).toBeLessThan(1);
  }, 240_000);
});

describe("skillgym sim --explain", () => {
  it("prints each skill's shared words, score, the cutoff and the choice, and serves nothing", async () => {
    await writeTree(dir, {
      "internal-comms/SKILL.md": skillMd(
        "internal-comms",
        '"A set of resources to help me write all kinds of internal communications, using the formats that my company likes to use. Claude should use this skill whenever asked to write some sort of internal communications (status reports, leadership updates, 3P updates, company newsletters, FAQs, incident reports, project updates, etc.)."',
        "Write it.",
      ),
    });
    const result = await skillgym([
      "sim",
      "--explain",
      "Draft the 3P update for the platform team",
      join(dir, "internal-comms"),
      "examples/csv-summary",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("content words (5): draft, 3p, update, platform, team");
    expect(result.stdout).toContain("score of 25% or more with at least 2 shared words");
    expect(result.stdout).toContain("CHOSEN  internal-comms: score 40% (2/5), shared: 3p, update");
    expect(result.stdout).toContain("not     csv-summary: score 0% (0/5)");
    expect(result.stdout).toContain("fewer than the 2 needed");
    expect(result.stdout).toContain("chosen: internal-comms");
    expect(result.stdout).not.toContain("ANTHROPIC_BASE_URL");
  });

  it("asks for a skill folder", async () => {
    const result = await skillgym(["sim", "--explain", "anything"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("at least one skill folder");
  });
});
