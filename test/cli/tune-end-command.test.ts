import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { captureIo, type Io } from "../../src/cli/io.js";
import { mainOnDouble } from "../agent-double/index.js";
import { readJson, tempDir, writeTree } from "../e2e/helpers.js";
import { scenarioTuneFlags, skillMd } from "../tune/tune-helpers.js";

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
afterEach(async () => {
  vi.unstubAllEnvs();
  await cleanup();
});

async function tune(...flags: string[]) {
  return tuneTo(captureIo(), ...flags);
}

async function tuneTo(io: Io & { stdout: () => string; stderr: () => string }, ...flags: string[]) {
  const code = await mainOnDouble(
    [
      "tune",
      ...scenarioTuneFlags(
        join(dir, "greeter"),
        join(dir, "ws"),
        "--simulate",
        "--sim-script",
        join(dir, "sim-script.json"),
      ),
      ...flags,
    ],
    io,
  );
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe("skillgym tune, at the end of a tune", () => {
  it("prints the summary, and with --apply says a v0 best leaves nothing to apply", async () => {
    const { code, stdout, stderr } = await tune("--apply", "--threshold", "75");
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/\ntuning greeter in \S+: up to 1 iterations, threshold 75\n/);
    // No diff of an unchanged skill comes before the summary.
    expect(stdout).toMatch(/^SIMULATED: skillgym sim stood in for the model; [^\n]*\ntune \S+: completed/);
    expect(stdout).toContain("scores: v0 85 (baseline)\nbest: v0, 85/100\n");
    expect(stdout).toMatch(/\nnothing to apply\n$/);
    expect(stdout).not.toContain("not applied");
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(GREETER);
  });

  it("prints one JSON object with --json, scored by the --evaluator", async () => {
    const { code, stdout, stderr } = await tune(
      "--json",
      "--evaluator",
      "sim",
      "--judge",
      "openai",
      "--judge-model",
      "judge-x",
    );
    expect(code, stderr).toBe(0);
    const out = JSON.parse(stdout);
    expect(await readJson(join(out.tune_dir, "iteration-state.json"))).toMatchObject({ evaluator: "sim" });
    expect(out).toMatchObject({
      status: "completed",
      simulated: true,
      best_version: "v0",
      best_score: 85,
      applied: null,
    });
  });

  it("names each run whose grading failed, and stops with the judge's error", async () => {
    const { code, stderr } = await tune("--judge", "openai");
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /\n {2}grading failed for \S+\/iterations\/iteration-1\/execution\/greeter\/iteration-1\/eval-scenario\/with_skill\/run-1: the openai judge needs a model\n/,
    );
    expect(stderr).toMatch(/\nskillgym: the openai judge needs a model\n {2}fix: pass --judge-model, /);
  });

  it("stops before anything runs when the --evaluator cannot be had", async () => {
    const { code, stdout, stderr } = await tune("--evaluator", "openai");
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toMatch(
      /^skillgym: the openai judge needs a model\n {2}fix: pass --judge-model, [^\n]*\n$/,
    );
  });

  it("on Ctrl-C, says the tune can be resumed, clears the live status, applies nothing and exits 130", async () => {
    const before = process.listeners("SIGINT");
    // What the command printed and when it drew or cleared the live status, in order.
    const events: string[] = [];
    const io = captureIo();
    const { code, stdout, stderr } = await tuneTo(
      {
        ...io,
        out: (text) => {
          events.push("out");
          io.out(text);
        },
        err: (text) => {
          io.err(text);
          // Ctrl-C once the first runs are planned.
          if (text.startsWith("writing "))
            for (const listener of process.listeners("SIGINT").filter((l) => !before.includes(l)))
              listener("SIGINT");
        },
        status: (render) => events.push(render ? "status" : "status cleared"),
      },
      "--apply",
    );
    expect(code).toBe(130);
    expect(stderr).toContain("\ncancelling: the tune keeps what finished; resume it with --resume\n");
    expect(stdout).toMatch(/\ntune \S+: interrupted; continue with: skillgym tune --resume \S+\n/);
    expect(stdout).toMatch(/\nnot applied: the tune did not finish\n$/);
    expect(events.slice(events.indexOf("out") - 2, events.indexOf("out") + 1)).toEqual([
      "status",
      "status cleared",
      "out",
    ]);
    expect(await readFile(join(dir, "greeter", "SKILL.md"), "utf8")).toBe(GREETER);
  });

  it("with --max-cost below one run's estimate, starts no run and says the limit was reached", async () => {
    // A real (not simulated) tune: the double logs in with a key, its API nowhere to be reached.
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-test-not-a-key");
    vi.stubEnv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9");
    const io = captureIo();
    const code = await mainOnDouble(
      [
        "tune",
        ...scenarioTuneFlags(join(dir, "greeter"), join(dir, "ws"), "--timeout", "1", "--max-cost", "0.0001"),
      ],
      io,
    );
    expect(code, io.stderr()).toBe(0);
    expect(io.stdout()).toMatch(/^tune \S+: completed: --max-cost was reached\n/);
    expect(io.stderr()).toMatch(/: 1 runs\nstopped: --max-cost was reached\n$/);
  });
});
