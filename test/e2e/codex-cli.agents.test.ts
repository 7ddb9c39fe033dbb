import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TriggerResults } from "../../src/contracts/trigger-results.js";
import { skillgym } from "../cli/cli-process.js";
import { readJson, tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// What examples/csv-summary/evals/sim-script.json dictates for its 20 queries (its skill choice picks the skill for
// these, and only these): the rates Claude Code gets on the same script.
const SCRIPTED_RATES = [1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];

describe("skillgym triggers --agent codex", () => {
  it("gives exactly the example's scripted rates with the real Codex CLI against the sim", async () => {
    const workspace = join(dir, "tw");
    const result = skillgym([
      "triggers",
      "examples/csv-summary",
      "--agent",
      "codex",
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      workspace,
      "--json",
    ]);
    expect(result.stderr).toContain("[20/20]");
    expect(result.code).toBe(0);
    const results = TriggerResults.parse(JSON.parse(result.stdout));
    expect(results.results.map((r) => r.trigger_rate)).toEqual(SCRIPTED_RATES);
    expect(results.results.every((r) => r.runs === 1 && r.errors === 0)).toBe(true);
    expect(results.summary).toMatchObject({ total: 20, passed: 18, failed: 2, errors: 0 });
    expect(results.agent).toMatchObject({ name: "codex", mode: "sandbox workspace-write, approval never" });
    expect(results.agent?.version).toMatch(/^\d+\.\d+\.\d+/);
    // Early stop: a triggered run cost exactly one model request.
    const run = await readJson(
      join(workspace, "iteration-1", "triggers", "query-1", "run-1", "trigger.json"),
    );
    expect(run).toMatchObject({ triggered: true, outcome: "stopped", model_requests: 1 });
  }, 240_000);

  it("runs the example's evals with Codex: files written through apply_patch, checks by tool kind, the agent recorded", async () => {
    const workspace = join(dir, "ew");
    const result = skillgym([
      "eval",
      "examples/csv-summary",
      "--agent",
      "codex",
      "--simulate",
      "--runs",
      "1",
      "--workspace",
      workspace,
    ]);
    expect(result.code).toBe(0);
    // The same figures as Claude Code's on the same script.
    expect(result.stdout + result.stderr).toContain("evals: with_skill 100%, without_skill 41%");
    const iteration = await readJson(join(workspace, "iteration-1", "iteration.json"));
    expect(iteration.agent).toMatchObject({ name: "codex", mode: "sandbox workspace-write, approval never" });
  }, 240_000);

  it("refuses an unknown agent with exit 2, naming the known ones", () => {
    const result = skillgym(["triggers", "examples/csv-summary", "--agent", "cursor", "--simulate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown agent "cursor"');
    expect(result.stderr).toContain("claude-code, codex");
  });

  it("stops with exit 3 before any run when Codex has no credentials", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, CODEX_HOME: join(dir, "no-codex-home") };
    delete env.OPENAI_API_KEY;
    delete env.CODEX_API_KEY;
    const result = skillgym(
      ["triggers", "examples/csv-summary", "--agent", "codex", "--workspace", join(dir, "tw")],
      env,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no credentials for Codex CLI");
    expect(result.stderr).toContain("OPENAI_API_KEY");
  });

  it("stops with exit 3 when the given Codex binary does not exist", () => {
    const result = skillgym([
      "triggers",
      "examples/csv-summary",
      "--agent",
      "codex",
      "--simulate",
      "--agent-bin",
      join(dir, "no-such-codex"),
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("does not exist");
  });
});
