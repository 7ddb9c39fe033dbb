import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../../../src/contracts/checks.js";
import { shellInvocation } from "../../../src/grade/checks/command.js";
import type { CheckContext } from "../../../src/grade/checks/context.js";
import { contextFor, gradeOneIn, makeWorkspace, removeWorkspace } from "./workspace.js";

const node = `"${process.execPath}"`;
let dir: string;

beforeAll(async () => {
  dir = await makeWorkspace({});
});
afterAll(async () => {
  await removeWorkspace(dir);
});

const gradeOne = (check: Check, extra: Partial<CheckContext> = {}) =>
  gradeOneIn(contextFor(dir, extra), check);

// A shell that answers the limit's SIGTERM by exiting 0, the exit code the check expects.
const exitsZeroOnTerm = "trap 'exit 0' TERM; sleep 60 & wait";

describe("command outcomes", () => {
  it("fails a command that timed out, even when it then exits with the expected code", async () => {
    const graded = await gradeOne({ type: "command", run: exitsZeroOnTerm, timeout: 0.5 });
    expect(graded.passed).toBe(false);
    expect(graded.evidence).toMatch(/^Timed out after 0\.5 s \(expected exit code 0\)/);
  });

  it("fails a command that was cancelled, even when it then exits with the expected code", async () => {
    const controller = new AbortController();
    const grading = gradeOne({ type: "command", run: exitsZeroOnTerm }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    const graded = await grading;
    expect(graded).toMatchObject({ passed: false, evidence: "Cancelled before the command finished" });
  });

  it("drops only the carriage return that ends a line of output", async () => {
    const graded = await gradeOne({
      type: "command",
      run: `${node} -e "process.stdout.write('50%\\r100%\\r\\n'); process.exitCode = 1"`,
    });
    expect(graded.evidence).toBe("Exit code 1 (expected 0)\nstdout:\n50%\r100%");
  });

  it("shares the quoted output evenly when both streams are long", async () => {
    const graded = await gradeOne({
      type: "command",
      run: `${node} -e "process.stdout.write('o'.repeat(2000)); process.stderr.write('e'.repeat(2000)); process.exitCode = 1"`,
    });
    expect(graded.evidence).toBe(
      `Exit code 1 (expected 0)\nstdout:\n…${"o".repeat(250)}\nstderr:\n…${"e".repeat(250)}`,
    );
  });
});

describe("shellInvocation", () => {
  it("runs the command with /bin/sh -c off Windows", () => {
    expect(shellInvocation("make test", "linux")).toEqual({
      command: "/bin/sh",
      args: ["-c", "make test"],
      env: {},
    });
  });

  it("hands the command to cmd.exe through a variable on Windows, since cmd.exe does not read quoted arguments", () => {
    expect(shellInvocation('npm test && echo "ok"', "win32", undefined)).toEqual({
      command: "cmd.exe",
      args: ["/d", "/s", "/c", "%SKILLGYM_CHECK_COMMAND%"],
      env: { SKILLGYM_CHECK_COMMAND: 'npm test && echo "ok"' },
    });
    expect(shellInvocation("dir", "win32", "C:\\Windows\\system32\\cmd.exe").command).toBe(
      "C:\\Windows\\system32\\cmd.exe",
    );
  });
});
