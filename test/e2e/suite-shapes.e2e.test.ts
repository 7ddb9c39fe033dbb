import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymHere } from "../cli/cli-in-process.js";
import { skillMd, tempDir, writeTree } from "./helpers.js";

const root = resolve(import.meta.dirname, "../..");
const _bin = join(root, "bin", "skillgym.js");

// The built CLI in this process (test/cli/cli-in-process.ts).
const skillgym = (args: string[]) => skillgymHere(args);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "notes/SKILL.md": skillMd(
      "notes",
      "Writes meeting notes. Use when the user asks for meeting notes.",
      "Write notes.md. The suite is in [evals](evals/evals.json).",
    ),
    "notes/evals/trigger-eval.json": JSON.stringify(
      [true, true, true, false, false, false].map((should_trigger, i) => ({
        query: `q${i}`,
        should_trigger,
      })),
    ),
  });
});
afterEach(() => cleanup());

describe("skillgym validate reads the suites people write", () => {
  it("accepts prompts without expectations, object assertions and sentences under checks, with warnings", async () => {
    await writeTree(dir, {
      "notes/evals/evals.json": JSON.stringify({
        evals: [
          { id: "draft", prompt: "Notes for the standup" },
          {
            id: "graded",
            prompt: "Notes for the retro",
            assertions: [{ text: "lists actions", passed: true }],
          },
          { id: "checked", prompt: "Notes for the demo", checks: ["mentions the demo"], owner: "me" },
        ],
      }),
    });
    const result = await skillgym(["validate", join(dir, "notes"), "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ valid: true, errors: [] });
    expect(report.warnings.map((w: { code: string; location?: string }) => [w.code, w.location])).toEqual([
      ["eval-ungraded", "evals[0]"],
      ["checks-as-expectations", "evals[2].checks[0]"],
      ["unknown-fields", undefined],
    ]);
  });

  it("refuses misspelled keys with the file, the JSON path, what was meant and a fix line", async () => {
    const file = join(dir, "notes", "evals", "evals.json");
    await writeTree(dir, {
      "notes/evals/evals.json": JSON.stringify({
        evals: [
          { id: 1, prompt: "Notes", expectation: ["lists actions"], checks: [{ type: "skill_invoked" }] },
          { id: 2, promt: "Notes again", expectations: ["x"] },
        ],
      }),
    });
    const result = await skillgym(["validate", join(dir, "notes")]);
    expect(result.code).toBe(2);
    const output = result.stdout + result.stderr;
    expect(output).toContain(
      `${file}: evals[0].expectation: \`expectation\` is not a field of an eval; did you mean \`expectations\`?`,
    );
    expect(output).toContain("fix: rename `expectation` to `expectations`");
    expect(output).toContain(`${file}: evals[1].promt:`);
    expect(output).not.toContain("evals[1].prompt: required");
  });
});
