import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { mainOnDouble } from "../agent-double/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// The description already names what every should-trigger query asks for; the sim picks skills by word overlap.
const DESCRIPTION = "Drafts release notes from the commits. Use when the user asks for release notes.";
const queries = [
  { query: "draft release notes from the recent commits", should_trigger: true },
  { query: "summarize the commits into release notes", should_trigger: true },
  { query: "prepare release notes listing the commits", should_trigger: true },
  { query: "fix the failing unit test in the parser", should_trigger: false },
  { query: "rename this variable across the codebase", should_trigger: false },
  { query: "speed up the slow database query", should_trigger: false },
];

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", DESCRIPTION, "Write RELEASE_NOTES.md from the git log."),
    "scribe/evals/triggers.json": JSON.stringify(queries),
  });
});
afterEach(() => cleanup());

describe("skillgym optimize records where it started", () => {
  it("writes a one-entry history with train and test scores when the train split is already perfect", async () => {
    const io = captureIo();
    const args = [
      "optimize",
      join(dir, "scribe"),
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      join(dir, "ws"),
    ];
    expect(await mainOnDouble([...args, "--json"], io)).toBe(0);
    const printed = OptimizeResults.parse(JSON.parse(io.stdout()));
    const [folder] = (await readdir(join(dir, "ws"))).filter((n) => n.startsWith("optimize-"));
    const results = OptimizeResults.parse(
      JSON.parse(await readFile(join(dir, "ws", folder!, "results.json"), "utf8")),
    );
    expect(results).toEqual(printed);
    expect(results.exit_reason).toBe("train_perfect");
    expect(results.iterations).toHaveLength(1);
    const [original] = results.iterations;
    expect(original).toMatchObject({
      iteration: 0,
      description: DESCRIPTION,
      status: "complete",
      trigger_runs: 6,
    });
    expect(original!.train).toMatchObject({ score: 1, summary: { total: 4, passed: 4 } });
    expect(original!.test).toMatchObject({ summary: { total: 2 } });
    expect(original!.test!.score).toEqual(expect.any(Number));
    expect(results).toMatchObject({ best_iteration: 0, best_description: DESCRIPTION });
    expect(io.stdout()).not.toContain("continue with");
  });
});
