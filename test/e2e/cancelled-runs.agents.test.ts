import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillMd, tempDir, writeTree } from "./helpers.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  // One quick eval, one whose agent hangs until Ctrl-C cancels it.
  await writeTree(dir, {
    "card/SKILL.md": skillMd(
      "card",
      "Writes a card file. Use when the user asks for a card.",
      "Write card.txt.",
    ),
    "card/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "Make a quick card",
          expectations: [],
          checks: [{ type: "file_exists", path: "x" }],
        },
        { id: 2, prompt: "Make a slow card", expectations: [], checks: [{ type: "file_exists", path: "x" }] },
      ],
    }),
    "card/evals/sim-script.json": JSON.stringify({
      rules: [
        { match: "slow", fault: { hang: true } },
        { match: "quick", steps: [{ write: { path: "card.txt", content: "card" } }] },
      ],
    }),
  });
});
afterEach(() => cleanup());

// Starts a command, presses Ctrl-C once the quick run is done, and collects what it printed.
async function interruptAfterFirstRun(
  command: string,
  extra: string[] = ["--baseline", "none"],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [bin, command, join(dir, "card"), "--simulate", ...extra, "--runs", "1", "--concurrency", "2"],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    stdout += chunk;
  });
  const firstDone = new Promise<void>((r) => {
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.includes("[1/2]")) r();
    });
  });
  const closed = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
  await firstDone;
  child.kill("SIGINT");
  const code = await closed;
  return { code, stdout, stderr };
}

describe.skipIf(process.platform === "win32")(
  "runs cancelled by Ctrl-C are reported as cancelled, not errors",
  () => {
    it("run: the summary says cancelled and counts no errored run", async () => {
      const { code, stdout, stderr } = await interruptAfterFirstRun("run");
      expect(code).toBe(130);
      expect(stdout).toContain("1 eval runs cancelled");
      expect(stdout).not.toContain("errored");
      expect(stderr).toMatch(/\[2\/2\] eval-2 with_skill run-1: cancelled.*errors 0;/);
    }, 90_000);

    it("eval: the summary counts the cancelled run apart from the errors", async () => {
      const { code, stdout, stderr } = await interruptAfterFirstRun("eval");
      expect(code).toBe(130);
      expect(stdout).toContain("cancelled: 1/2 runs finished, 0 errors, 1 cancelled");
      expect(stderr).toMatch(/\[2\/2\] eval-2 with_skill run-1: cancelled.*errors 0;/);
    }, 90_000);

    it("triggers: the progress line says cancelled and counts no error", async () => {
      await writeTree(dir, {
        "card/evals/triggers.json": JSON.stringify([
          { query: "Make a quick card", should_trigger: true },
          { query: "Make a slow card", should_trigger: true },
        ]),
      });
      const { code, stderr } = await interruptAfterFirstRun("triggers", []);
      expect(code).toBe(130);
      expect(stderr).toMatch(/\[2\/2\] query 2 run-1: cancelled \(triggered \d, errors 0\)/);
    }, 90_000);
  },
);
