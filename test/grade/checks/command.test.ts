import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../../../src/contracts/checks.js";
import { checkEnvironment } from "../../../src/grade/checks/command.js";
import type { CheckContext } from "../../../src/grade/checks/context.js";
import { alive, waitFor } from "../../agents/process-alive.js";
import { contextFor, gradeOneIn, makeWorkspace, removeWorkspace } from "./workspace.js";

const node = `"${process.execPath}"`;
let dir: string;

beforeAll(async () => {
  dir = await makeWorkspace({ "marker.txt": "here" });
});
afterAll(async () => {
  await removeWorkspace(dir);
});

const gradeOne = (check: Check, extra: Partial<CheckContext> = {}) =>
  gradeOneIn(contextFor(dir, extra), check);

describe("command", () => {
  it("passes when the command exits with 0, in the workspace", async () => {
    const graded = await gradeOne({
      type: "command",
      run: `${node} -e "process.exit(require('fs').existsSync('marker.txt') ? 0 : 7)"`,
    });
    expect(graded).toMatchObject({
      passed: true,
      evidence: "Exit code 0",
      source: "check",
      check_type: "command",
    });
  });

  it("fails on another exit code, quoting the tails of stdout and stderr", async () => {
    const graded = await gradeOne({
      type: "command",
      run: `${node} -e "console.log('tests: 3 failed'); console.error('boom at line 9'); process.exitCode = 3"`,
    });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toBe(
      "Exit code 3 (expected 0)\nstdout:\ntests: 3 failed\nstderr:\nboom at line 9",
    );
  });

  it("passes when the exit code is the one expected, and runs through the shell", async () => {
    expect(await gradeOne({ type: "command", run: "exit 4", expect_exit: 4 })).toMatchObject({
      passed: true,
      evidence: "Exit code 4",
    });
    const chained = await gradeOne({ type: "command", run: `${node} -e "" && exit 5`, expect_exit: 5 });
    expect(chained.passed).toBe(true);
    expect((await gradeOne({ type: "command", run: "exit 0", expect_exit: 1 })).passed).toBe(false);
  });

  it("keeps only the last ~500 characters of output, most of them for the longer stream", async () => {
    const graded = await gradeOne({
      type: "command",
      run: `${node} -e "for (let i = 0; i < 300; i++) console.log('row ' + i); console.log('THE END'); console.error('short'); process.exitCode = 1"`,
    });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toContain("THE END");
    expect(graded.evidence).toContain("row 250\n");
    expect(graded.evidence).not.toContain("row 200\n");
    expect(graded.evidence.endsWith("stderr:\nshort")).toBe(true);
    expect(graded.evidence.length).toBeLessThan(600);
  });

  it("fails on timeout and kills the whole process tree", async () => {
    const started = Date.now();
    const graded = await gradeOne({
      type: "command",
      // The shell names its child at once (a node child could still be starting when the limit ends it on a busy
      // machine), and waits: the child is the grandchild the limit must also end.
      run: "sleep 60 & echo $! > sleeper.pid; wait",
      timeout: 0.5,
    });
    // Far short of the child's 60 s: the limit ended the wait.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toContain("Timed out after 0.5 s");
    const pidFile = path.join(dir, "sleeper.pid");
    expect(existsSync(pidFile)).toBe(true);
    expect(await waitFor(() => !alive(Number(readFileSync(pidFile, "utf8"))), 10_000)).toBe(true);
  });

  it("uses the context's limit when the check gives none", async () => {
    const graded = await gradeOne(
      { type: "command", run: `${node} -e "setTimeout(() => {}, 60000)"` },
      { commandTimeoutMs: 500 },
    );
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toContain("Timed out after 0.5 s");
  });

  it("fails when cancelled", async () => {
    const graded = await gradeOne(
      { type: "command", run: `${node} -e "setTimeout(() => {}, 60000)"` },
      { signal: AbortSignal.abort() },
    );
    expect(graded).toMatchObject({ passed: false, evidence: "Cancelled before the command finished" });
  });

  it("passes the allowed base and the suite's names, no agent's credentials nor anything else", async () => {
    const names = ["ANTHROPIC_API_KEY_SKILLGYM_TEST", "SKILLGYM_UNLISTED_TEST", "SKILLGYM_KEPT_TEST"];
    for (const name of names) process.env[name] = "set";
    try {
      const graded = await gradeOne(
        {
          type: "command",
          run: `${node} -e "console.log(${JSON.stringify([...names, "PATH"]).replaceAll('"', "'")}.map((n) => n + '=' + (process.env[n] ? 'set' : 'unset')).join(' '))"`,
        },
        { passEnv: ["SKILLGYM_KEPT_TEST"] },
      );
      expect(graded.evidence).toContain(
        "ANTHROPIC_API_KEY_SKILLGYM_TEST=unset SKILLGYM_UNLISTED_TEST=unset SKILLGYM_KEPT_TEST=set PATH=set",
      );
    } finally {
      for (const name of names) delete process.env[name];
    }
  });
});

describe("checkEnvironment", () => {
  it("keeps the allowed base and the suite's names; drops credentials of every kind", () => {
    const env = checkEnvironment(
      {
        PATH: "/bin",
        LANG: "C.UTF-8",
        HTTPS_PROXY: "http://proxy:3128",
        ANTHROPIC_API_KEY: "k",
        anthropic_base_url: "u",
        OPENAI_API_KEY: "o",
        GITHUB_TOKEN: "g",
        CLAUDECODE: "1",
        MY_SETTING: "mine",
        MY_CLAUDE: "dropped",
      },
      ["MY_SETTING"],
    );
    expect(env).toEqual({
      PATH: "/bin",
      LANG: "C.UTF-8",
      HTTPS_PROXY: "http://proxy:3128",
      MY_SETTING: "mine",
    });
  });
});

describe("command checks of a sandboxed run", () => {
  // A bubblewrap that cannot start shows which checks went through it; the real one is tested in test/sandbox.
  const sandbox = { bwrap: "/nonexistent/bwrap" };

  it("go through the sandbox's bubblewrap", async () => {
    const graded = await gradeOne({ type: "command", run: "true" }, { sandbox });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toMatch(/^The command could not be started/);
  });

  it('run outside with "sandbox": false, and say so', async () => {
    const graded = await gradeOne({ type: "command", run: "true", sandbox: false }, { sandbox });
    expect(graded.passed).toBe(true);
    expect(graded.evidence).toMatch(
      /^Ran outside the sandbox \("sandbox": false\), as the user, with the network\nExit code 0/,
    );
  });

  it('say nothing of the sandbox in a plain run, "sandbox": false or not', async () => {
    const graded = await gradeOne({ type: "command", run: "true", sandbox: false });
    expect(graded.evidence).toBe("Exit code 0");
  });
});
