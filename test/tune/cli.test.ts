import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { buildImprovePrompt } from "../../src/tune/improve-prompt.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("skillgym tune: bad input stops before anything runs", () => {
  it("needs a skill or --resume", async () => {
    const io = captureIo();
    expect(await main(["tune"], io)).toBe(2);
    expect(io.stderr()).toContain("tune needs a skill folder, or --resume DIR");
  });

  it("rejects an unknown preset and a threshold outside 0-100", async () => {
    expect(await main(["tune", "x", "--preset", "fast"], captureIo())).toBe(2);
    expect(await main(["tune", "x", "--threshold", "120"], captureIo())).toBe(2);
  });

  it("names the missing evals, and a chain of one skill is refused", async () => {
    await writeTree(dir, { "greeter/SKILL.md": skillMd("greeter", "Writes greeting cards.", "Body.") });
    const io = captureIo();
    expect(await main(["tune", join(dir, "greeter"), "-y", "--simulate"], io)).toBe(2);
    expect(io.stderr()).toContain('no evals.json found for skill "greeter"');
    const chain = captureIo();
    expect(
      await main(
        ["tune", join(dir, "greeter"), "--chain", "-y", "--simulate", "--scenario", "Greet Ada"],
        chain,
      ),
    ).toBe(2);
    expect(chain.stderr()).toContain("a chain needs at least two skills");
  });

  it("names the file and the place of a broken iteration-state.json on --resume", async () => {
    await writeTree(dir, { "tune-1/iteration-state.json": JSON.stringify({ status: "running" }) });
    const io = captureIo();
    expect(await main(["tune", "--resume", join(dir, "tune-1"), "--simulate"], io)).toBe(2);
    expect(io.stderr()).toContain(
      `${join(dir, "tune-1", "iteration-state.json")} at execution_mode: expected one of "single", "chain", got nothing`,
    );
  });
});

describe("the improver's prompt", () => {
  it("is distinct from eval prompts, lists the suggestions, rejected edits and the chain interface", () => {
    const prompt = buildImprovePrompt({
      skillName: "drafter",
      round: 2,
      version: "v0",
      score: 61.5,
      passRate: 0.5,
      dimensions: { clarity: 60, completeness: 60, correctness: 60, effectiveness: 60, efficiency: 60 },
      suggestions: ["[high] Read outline.md first"],
      strengths: [],
      weaknesses: ["Ignores the outline"],
      failed: [{ text: "draft.md follows the outline", evidence: "draft.md has no headings" }],
      rejected: [{ version: "v1", score: 40, changes: "- Removed\n- the steps" }],
      chain: { upstream: "outliner", reads: ["outline.md"], writes: ["draft.md"] },
      changesFile: "iteration-2-changes.md",
    });
    expect(prompt).toMatch(
      /^skillgym tune iteration 2: improve the Agent Skill in \.\/drafter\/ \(version v0\)\./,
    );
    expect(prompt).toContain("- [high] Read outline.md first");
    expect(prompt).toContain("- draft.md follows the outline (evidence: draft.md has no headings)");
    expect(prompt).toContain("- v1 (score 40): - Removed - the steps");
    expect(prompt).toContain('- it reads what "outliner" produces: outline.md');
    expect(prompt).not.toContain("reads what it writes");
    expect(prompt).toContain("write ./iteration-2-changes.md");
    expect(prompt).not.toMatch(/\n\n\n/);
  });
});
