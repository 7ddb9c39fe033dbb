import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { mainOnDouble } from "../agent-double/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";

// Block-scalar description, a comment, CRLF line endings: --apply must keep all of it but the description's text.
const SKILL_MD = [
  "---",
  "name: scribe",
  "# the description below is tuned by skillgym optimize",
  "description: >-",
  "  Tidies the layout",
  "  of documents.",
  "license: MIT",
  "---",
  "",
  "Write RELEASE_NOTES.md from the git log.",
  "",
].join("\r\n");

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
    "scribe/SKILL.md": SKILL_MD,
    "scribe/evals/triggers.json": JSON.stringify(queries),
  });
});
afterEach(() => cleanup());

async function optimize(...extra: string[]) {
  const io = captureIo();
  const args = ["optimize", join(dir, "scribe"), "--simulate", "--runs", "1", "--workspace", join(dir, "ws")];
  const code = await mainOnDouble([...args, ...extra], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe("skillgym optimize (CLI)", () => {
  it("prints the estimate first, leaves SKILL.md alone without --apply, and with --apply changes only the description", async () => {
    const plain = await optimize();
    expect(plain.code).toBe(0);
    const estimate = plain.stderr.indexOf(
      "up to 6 evaluations (the original + 5 proposals) × 6 queries × 1 runs = 36 trigger runs",
    );
    expect(estimate).toBeGreaterThanOrEqual(0);
    expect(plain.stderr).toContain("cost $0 (simulated)");
    expect(estimate).toBeLessThan(plain.stderr.indexOf("iteration 0:"));
    expect(plain.stdout).toContain("stopped: every train query passes after 2 iterations");
    expect(plain.stdout).toContain("SKILL.md unchanged");
    expect(await readFile(join(dir, "scribe", "SKILL.md"), "utf8")).toBe(SKILL_MD);

    const applied = await optimize("--apply", "--json");
    expect(applied.code).toBe(0);
    const results = OptimizeResults.parse(JSON.parse(applied.stdout));
    expect(results).toMatchObject({ applied: true, best_iteration: 1 });
    const after = await readFile(join(dir, "scribe", "SKILL.md"), "utf8");
    const lines = after.split("\r\n");
    expect(after.split("\n").every((line, i, all) => i === all.length - 1 || line.endsWith("\r"))).toBe(true);
    expect(lines.slice(0, 4)).toEqual(SKILL_MD.split("\r\n").slice(0, 4));
    expect(lines.slice(-5)).toEqual(SKILL_MD.split("\r\n").slice(-5));
    expect(lines.slice(4, -5).join(" ").replace(/\s+/g, " ").trim()).toBe(results.best_description);
    expect(results.best_description).toMatch(
      /^Tidies the layout of documents\. Use when the user asks about /,
    );

    const folders = (await readdir(join(dir, "ws"))).filter((n) => n.startsWith("optimize-"));
    expect(folders).toHaveLength(2);
  });

  it("prints the plan with --dry-run and starts nothing", async () => {
    const dry = await optimize("--dry-run", "--max-iterations", "2");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("plan for scribe: 4 train queries, 2 test queries (held out)");
    expect(dry.stdout).toContain("up to 3 evaluations");
    expect(dry.stdout).toContain("nothing was started");
  });

  it("rejects bad input with a message naming the file, and a bad flag as usage", async () => {
    await writeTree(dir, { "scribe/evals/triggers.json": '[{"query": "x"}]' });
    const bad = await optimize();
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("triggers.json");
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const usage = await optimize("--holdout", "1.5");
    expect(usage.code).toBe(2);
  });
});
