import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { mainOnDouble } from "../agent-double/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "../tune/tune-helpers.js";

// One short tune of a skill without evals (a --scenario), the double as the agent and skillgym sim as the judge: what
// `skillgym tune` prints and sets as exit code when the tune ends.

const GREETER = skillMd(
  "greeter",
  "Writes greeting cards. Use when asked for a greeting card.",
  "Write card.txt.",
);

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, { "greeter/SKILL.md": GREETER });
  await writeFile(
    join(dir, "sim-script.json"),
    JSON.stringify({
      rules: [{ match: "greeting card", steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }] }],
      judge: { rubric: { default: 70 } },
    }),
  );
});
afterEach(() => cleanup());

async function tune(...flags: string[]) {
  const io = captureIo();
  const code = await mainOnDouble(
    [
      "tune",
      join(dir, "greeter"),
      "--scenario",
      "Please make a greeting card for Ada",
      "-y",
      "--max-iterations",
      "1",
      "--runs",
      "1",
      "--simulate",
      "--sim-script",
      join(dir, "sim-script.json"),
      "--workspace",
      join(dir, "ws"),
      ...flags,
    ],
    io,
  );
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe("skillgym tune, at the end of a tune", () => {
  it("prints the summary, and with --apply says a v0 best leaves nothing to apply", async () => {
    const { code, stdout, stderr } = await tune("--apply");
    expect(code, stderr).toBe(0);
    // No diff of an unchanged skill comes before the summary.
    expect(stdout).toMatch(/^SIMULATED: skillgym sim stood in for the model; [^\n]*\ntune \S+: completed/);
    expect(stdout).toContain("scores: v0 85 (baseline)\nbest: v0, 85/100\n");
    expect(stdout).toMatch(/\nnothing to apply\n$/);
    expect(stdout).not.toContain("not applied");
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(GREETER);
  });

  it("prints one JSON object with --json, scored by the --evaluator", async () => {
    const { code, stdout, stderr } = await tune("--json", "--evaluator", "sim");
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      status: "completed",
      simulated: true,
      best_version: "v0",
      best_score: 85,
      applied: null,
    });
  });
});
