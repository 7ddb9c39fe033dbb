import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { root, skillgym } from "../cli/cli-process.js";
import { readJson, tempDir } from "./helpers.js";

// npm test's one run of the real Claude Code binary (the rest of its end-to-end tests drive the test double; the real
// agents' own tests are `npm run test:agents`): a fresh machine shows here that the binary npm installed works.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const bundled = createRequire(import.meta.url)("@anthropic-ai/claude-code/package.json") as {
  version: string;
};

describe("the real Claude Code binary through the built CLI", () => {
  it("runs one eval of an example offline: the skill loads, the file is written, the checks pass", async () => {
    const ws = join(dir, "ws");
    const args = ["eval", join(root, "examples", "csv-summary"), "--simulate", "--only", "1"];
    const result = skillgym([...args, "--baseline", "none", "--runs", "1", "--workspace", ws]);
    expect(result.code, result.stderr).toBe(0);
    const run = join(ws, "iteration-1", "eval-1", "with_skill", "run-1");
    const lines = (await readFile(join(run, "transcript.jsonl"), "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const init = lines.find((l) => l.type === "system" && l.subtype === "init");
    expect(init?.claude_code_version).toBe(bundled.version);
    expect(JSON.stringify(lines)).toContain('"name":"Skill","input":{"skill":"csv-summary"}');
    expect(lines.at(-1)).toMatchObject({ type: "result", is_error: false });
    const grading = await readJson(join(run, "grading.json"));
    expect(grading.summary).toMatchObject({ failed: 0 });
  });
});
