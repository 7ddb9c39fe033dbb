import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// Two evals of one skill. The card's rule hands its pattern out in arrival order, so at concurrency 1 the arms of
// run 1 get true then false and those of run 2 false then true: the A/A differences are +1 and −1, a spread of 1.
// The note's rule loads the skill every time: differences 0 and 0, a spread of 0.
const script = {
  rules: [
    {
      match: "greeting card",
      trigger_pattern: [true, false, false, true],
      pattern_by: "arrival",
      steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }],
      without_skill: [{ text: "Hello Ada." }],
    },
    {
      match: "thank-you note",
      steps: [{ write: { path: "note.txt", content: "Thank you!\n" } }],
      without_skill: [{ text: "Thanks." }],
    },
  ],
};

const evals = [
  { id: 1, prompt: "Please make a greeting card for Ada", file: "card.txt" },
  { id: 2, prompt: "Write a thank-you note for Ada", file: "note.txt" },
];

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd(
      "greeter",
      "Writes a greeting card or a thank-you note file.",
      "Write the file.",
    ),
    "greeter/evals/evals.json": JSON.stringify({
      skill_name: "greeter",
      evals: evals.map((e) => ({
        id: e.id,
        prompt: e.prompt,
        expected_output: e.file,
        expectations: [{ text: `${e.file} exists`, command: `test -f ${e.file}` }],
      })),
    }),
    "sim.json": JSON.stringify(script),
  });
});
afterEach(() => cleanup());

const simArgs = () => [
  "--simulate",
  "--sim-script",
  join(dir, "sim.json"),
  "--runs",
  "2",
  "--concurrency",
  "1",
];

describe("skillgym noise through an agent, on a script with run-to-run variation", () => {
  it("measures the spread the script makes, per eval, and later verdicts in the workspace hold it as their floor", async () => {
    const ws = join(dir, "ws");
    const noise = await skillgymHereOnDouble([
      "noise",
      join(dir, "greeter"),
      ...simArgs(),
      "--workspace",
      ws,
    ]);
    expect(noise.code, noise.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(ws, "noise.json"), "utf8"));
    expect(report.runs_per_arm).toBe(2);
    expect(
      report.evals.map(
        (e: { eval_id: number; ci_low: number; ci_high: number; spread: number; verdict: string }) => [
          e.eval_id,
          e.ci_low,
          e.ci_high,
          e.spread,
          e.verdict,
        ],
      ),
    ).toEqual([
      [1, -1, 1, 1, "inconclusive"],
      [2, 0, 0, 0, "no effect"],
    ]);
    // Neither identical arm was called helps or hurts; the whole interval reaches past the effect floor.
    expect(report.false_calls).toBe(0);
    expect(report.spread).toBeGreaterThan(0.05);
    expect(report.spread).toBeLessThanOrEqual(1);
    expect(noise.stdout).toContain(
      `A/A spread: ${report.spread.toFixed(2)} (two identical arms, 2 runs each)`,
    );

    // A real comparison in the same workspace: the skill against no skill, held against the measured spread.
    const run = await skillgymHereOnDouble(["run", join(dir, "greeter"), ...simArgs(), "--workspace", ws]);
    expect(run.code, run.stderr).toBe(0);
    const benchmark = JSON.parse(await readFile(join(ws, "iteration-1", "benchmark.json"), "utf8"));
    expect(benchmark.statistics.verdict.floor).toBe(report.spread);
    expect(benchmark.statistics.verdict.noise_spread).toBe(report.spread);
  });

  it("finds no spread when the same script hands its pattern out by run number", async () => {
    script.rules[0]!.pattern_by = "run";
    await writeTree(dir, { "sim.json": JSON.stringify(script) });
    script.rules[0]!.pattern_by = "arrival";
    const ws = join(dir, "ws");
    const noise = await skillgymHereOnDouble([
      "noise",
      join(dir, "greeter"),
      ...simArgs(),
      "--workspace",
      ws,
    ]);
    expect(noise.code, noise.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(ws, "noise.json"), "utf8"));
    expect(report.evals.map((e: { spread: number }) => e.spread)).toEqual([0, 0]);
    expect(report.spread).toBe(0);
  });
});
