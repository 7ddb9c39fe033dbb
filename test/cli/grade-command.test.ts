import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { chatReply, scriptedEndpoint } from "../judge/scripted-endpoint.js";
import { cli, useReleaseNotes } from "./command-fixture.js";

// `skillgym grade` in this process on an iteration of two models' eval runs the test double wrote.
const fixture = useReleaseNotes("eval");

let iteration: string;
beforeAll(async () => {
  const workspace = fixture.workspace("models");
  const written = await fixture.command("--workspace", workspace, "--only", "1", "--model", "m1,m2");
  expect(written.code, written.stderr).toBe(0);
  iteration = join(workspace, "iteration-1");
});

const grade = (...flags: string[]) => cli(["grade", iteration, ...flags]);
const TOTALS = "graded 2 runs, skipped 0 (already graded or errored), 0 failed; judge cost $0.0000";

describe("skillgym grade of several models' iteration", () => {
  it("prints each model's totals, and with --json the sum and each model's part", async () => {
    const text = await grade("--simulate", "--force");
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`m1: ${TOTALS}\nm2: ${TOTALS}\n`);
    const json = await grade("--simulate", "--force", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({
      graded: 4,
      skipped: 0,
      errors: [],
      agents: [
        { iteration_dir: join(iteration, "m1"), graded: 2 },
        { iteration_dir: join(iteration, "m2"), graded: 2 },
      ],
    });
  });

  it("adds up each model's judge cost in --json", async () => {
    const expectations = JSON.parse(await readFile(join(fixture.at.skill, "evals", "evals.json"), "utf8"))
      .evals[0].expectations as string[];
    const verdict = { expectations: expectations.map((text) => ({ text, passed: true, evidence: "seen" })) };
    // gpt-4.1's price: 1,000 tokens in and 200 out cost $0.0036 a call, one call a run.
    const endpoint = await scriptedEndpoint([chatReply(JSON.stringify(verdict))]);
    try {
      const judged = [
        "--force",
        "--judge",
        "openai",
        "--judge-model",
        "gpt-4.1",
        "--judge-base-url",
        endpoint.url,
      ];
      const json = await grade(...judged, "--json");
      expect(json.code, json.stderr).toBe(0);
      const result = JSON.parse(json.stdout);
      expect(result.judgeCostUsd).toBeCloseTo(4 * 0.0036, 10);
      expect(result.agents.map((a: { judgeCostUsd: number }) => a.judgeCostUsd)).toEqual([
        expect.closeTo(2 * 0.0036, 10),
        expect.closeTo(2 * 0.0036, 10),
      ]);
    } finally {
      await endpoint.close();
    }
  });

  it("says it is cancelling on Ctrl-C and marks the totals cancelled, exit 130", async () => {
    type Listener = (...args: unknown[]) => void;
    const before = process.listeners("SIGINT") as Listener[];
    const io = captureIo();
    let pressed = false;
    // Ctrl-C once the first run is graded: m1's grading has started, and stops there.
    const err = (text: string) => {
      io.err(text);
      if (pressed || !text.endsWith("%\n")) return;
      pressed = true;
      (process.listeners("SIGINT") as Listener[]).find((l) => !before.includes(l))?.("SIGINT");
    };
    const code = await main(["grade", iteration, "--simulate", "--force"], { ...io, err });
    expect(code).toBe(130);
    expect(io.stderr()).toContain("\ncancelling grading\n");
    expect(io.stdout()).toMatch(/^cancelled: m1: graded /);
  });

  it("exits 3 when no run could be graded, naming each run's failure", async () => {
    // Nothing listens on the discard port: every request of the judge fails at once.
    const result = await grade(
      ...["--force", "--judge", "openai", "--judge-model", "gpt-x"],
      ...["--judge-base-url", "http://127.0.0.1:9"],
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `  ${join(iteration, "m1", "eval-basic", "with_skill", "run-1")}: grading failed: `,
    );
  });
});

// A script standing in for the judge agent's binary.
async function judgeScript(name: string, body: string): Promise<string> {
  const path = join(fixture.at.dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

describe("skillgym grade with an agent judge", () => {
  // Evals 1 and 2 once each with the skill, ungraded, from a suite that passes GRADE_TOKEN on to its agents.
  let suiteIteration: string;
  beforeAll(async () => {
    const parsed = JSON.parse(await readFile(join(fixture.at.skill, "evals", "evals.json"), "utf8"));
    const suite = join(fixture.at.skill, "evals", "with-token.json");
    await writeFile(
      suite,
      JSON.stringify({ ...parsed, env: ["GRADE_TOKEN"], evals: parsed.evals.slice(0, 2) }),
    );
    const workspace = fixture.workspace("agent-judged");
    const written = await fixture.command(
      ...["--workspace", workspace, "--evals", suite, "--baseline", "none", "--no-grade"],
    );
    expect(written.code, written.stderr).toBe(0);
    suiteIteration = join(workspace, "iteration-1");
  });

  it("passes the suite's variables on to the judge, and exits 0 when some run was graded", async () => {
    vi.stubEnv("GRADE_TOKEN", "token");
    // The judge needs GRADE_TOKEN, and fails on the run of eval 2 (its expectations name package.json).
    const judge = await judgeScript(
      "token-judge.sh",
      `[ -n "$GRADE_TOKEN" ] || { echo 'no GRADE_TOKEN' >&2; exit 1; }\n` +
        `case "$*" in *package.json*) echo 'the judge broke down' >&2; exit 1;; esac\n` +
        `exec "${fixture.at.binary}" "$@"`,
    );
    const listening = process.listenerCount("SIGINT");
    try {
      const result = await cli([
        "grade",
        suiteIteration,
        "--simulate",
        "--judge",
        "claude-code",
        "--agent-bin",
        judge,
      ]);
      expect(result.stdout).toBe(
        "graded 1 runs, skipped 0 (already graded or errored), 1 failed; judge cost $0.0000\n",
      );
      expect(result.stderr).toContain(
        `  ${join(suiteIteration, "eval-version-from-package", "with_skill", "run-1")}: grading failed: ` +
          "Claude Code (the judge) failed: the agent exited with code 1 without a result: the judge broke down\n",
      );
      expect(result.code).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    // The command leaves no Ctrl-C handler behind.
    expect(process.listenerCount("SIGINT")).toBe(listening);
  });

  it("sandboxes the judge of a sandboxed iteration", async () => {
    const record = join(suiteIteration, "iteration.json");
    const saved = await readFile(record, "utf8");
    await writeFile(record, JSON.stringify({ ...JSON.parse(saved), sandbox: true }));
    // A stand-in for bubblewrap on PATH that says it was asked and runs nothing.
    const bin = join(fixture.at.dir, "bwrap-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "bwrap"), "#!/bin/sh\necho 'inside the sandbox' >&2\nexit 1\n");
    await chmod(join(bin, "bwrap"), 0o755);
    vi.stubEnv("PATH", `${bin}${delimiter}${process.env.PATH ?? ""}`);
    try {
      const result = await cli([
        "grade",
        suiteIteration,
        "--force",
        "--simulate",
        "--judge",
        "claude-code",
        "--agent-bin",
        fixture.at.binary,
      ]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(
        `  ${join(suiteIteration, "eval-basic", "with_skill", "run-1")}: grading failed: ` +
          "Claude Code (the judge) failed: the agent exited with code 1 without a result: inside the sandbox\n",
      );
    } finally {
      vi.unstubAllEnvs();
      await writeFile(record, saved);
    }
  });

  it("needs an iteration folder, which its help describes", async () => {
    const missing = await cli(["grade"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'iteration-dir'");
    const help = await cli(["help", "grade"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      " iteration-dir an iteration folder written by `skillgym eval` or `run` (of several agents: each agent's is graded) ",
    );
  });
});
