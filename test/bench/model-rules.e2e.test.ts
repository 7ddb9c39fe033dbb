import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymOnDouble } from "../agent-double/index.js";
import { skillgym } from "../cli/cli-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// One sim script, two models: on `old` the skill writes the card and the bare agent does not; on `new` the bare
// agent writes it too (the skill is needless), and eval 2's skill breaks on `new`.
const script = {
  rules: [
    {
      match: "greeting card",
      model: "^old$",
      steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }],
      without_skill: [{ text: "Hello Ada." }],
    },
    {
      match: "greeting card",
      model: "^new$",
      skill: "none",
      without_skill: [{ write: { path: "card.txt", content: "Hi Ada\n" } }],
    },
    {
      match: "thank-you note",
      model: "^old$",
      steps: [{ write: { path: "note.txt", content: "Thank you!\n" } }],
      without_skill: [{ text: "Thanks." }],
    },
    {
      match: "thank-you note",
      model: "^new$",
      steps: [{ text: "No note today." }],
      without_skill: [{ text: "Thanks." }],
    },
  ],
};

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd(
      "greeter",
      "Writes a greeting card or a thank-you note file. Use when the user asks for a greeting card or a note.",
      "Write card.txt (a card) or note.txt (a thank-you note).",
    ),
    "greeter/evals/.keep": "",
  });
  await writeFile(join(dir, "sim.json"), JSON.stringify(script));
});
afterEach(() => cleanup());

async function suite(evals: { id: number; prompt: string; file: string }[]) {
  await writeFile(
    join(dir, "greeter", "evals", "evals.json"),
    JSON.stringify({
      skill_name: "greeter",
      evals: evals.map((e) => ({
        id: e.id,
        prompt: e.prompt,
        expected_output: e.file,
        expectations: [{ text: `${e.file} exists`, command: `test -f ${e.file}` }],
      })),
    }),
  );
}

function runOn(model: string) {
  const result = skillgymOnDouble([
    "run",
    join(dir, "greeter"),
    "--simulate",
    "--sim-script",
    join(dir, "sim.json"),
    "--model",
    model,
    "--runs",
    "2",
    "--workspace",
    join(dir, `ws-${model}`),
  ]);
  expect(result.code, result.stderr).toBe(0);
  return { ...result, iteration: join(dir, `ws-${model}`, "iteration-1") };
}

describe("sim rules per model, through the agent test double", () => {
  it("the same skill helps on the old model and is redundant on the new one", async () => {
    await suite([{ id: 1, prompt: "Please make a greeting card for Ada", file: "card.txt" }]);
    const old = runOn("old");
    expect(old.stdout).toContain("verdict: the skill helps (beyond ±0.05)");
    expect(old.stdout).not.toContain("redundant");
    const fresh = runOn("new");
    expect(fresh.stdout).toContain("verdict: the skill has no effect (within ±0.05)");
    expect(fresh.stdout).toContain("redundant on this model");
  });

  it("diff calls the eval that breaks on the new model regressed, and the same model twice unchanged", async () => {
    await suite([
      { id: 1, prompt: "Please make a greeting card for Ada", file: "card.txt" },
      { id: 2, prompt: "Write a thank-you note for Ada", file: "note.txt" },
    ]);
    const old = runOn("old");
    const fresh = runOn("new");
    const regressed = skillgym(["diff", old.iteration, fresh.iteration, "--fail-on-regression", "--json"]);
    expect(regressed.code).toBe(1);
    const report = JSON.parse(regressed.stdout);
    expect(report.parts[0].evals.map((e: { change: string }) => e.change)).toEqual([
      "unchanged",
      "regressed",
    ]);

    const same = skillgym(["diff", old.iteration, old.iteration, "--fail-on-regression", "--json"]);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).regressions).toBe(0);
  });
});
