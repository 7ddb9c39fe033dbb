import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { startSim } from "../../src/sim/index.js";
import { alive } from "../agents/process-alive.js";
import { tempDir } from "../e2e/helpers.js";
import { type ResidentDouble, startResidentDouble } from "./resident.js";

let resident: ResidentDouble;
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  resident = await startResidentDouble();
  ({ dir, cleanup } = await tempDir());
});
afterAll(async () => {
  await resident.close();
  await cleanup();
});

function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(resident.binary, args, {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, closed, output: () => ({ stdout, stderr }) };
}

// Waits for a condition; a timeout names what the run printed.
async function until(check: () => boolean, printed: () => object, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out; the run printed ${JSON.stringify(printed())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(process.platform === "linux")("the resident test double", () => {
  it("answers as the double's own process would: its stdout, its stderr and its exit code", async () => {
    const version = start(["--version"]);
    expect(await version.closed).toEqual({ code: 0, signal: null });
    expect(version.output().stdout).toBe("0.0.0-agent-double (Claude Code test double)\n");

    const resumed = start(["-p", "hello", "--output-format", "stream-json", "--resume", "no-such-session"]);
    expect(await resumed.closed).toEqual({ code: 1, signal: null });
    expect(resumed.output()).toEqual({
      stdout: "",
      stderr: "No conversation found with session ID: no-such-session\n",
    });
  });

  it("runs in the script's working directory with its environment, and ends when the script's group is killed", async () => {
    const sim = await startSim({
      script: SimScript.parse({
        rules: [
          { match: "sleepy", without_skill: [{ bash: 'echo "$$ $SLEEPY_MARK" > started; exec sleep 60' }] },
        ],
      }),
    });
    try {
      const run = start(["-p", "be sleepy", "--output-format", "stream-json", "--allowedTools", "Bash"], {
        ANTHROPIC_BASE_URL: sim.url,
        SLEEPY_MARK: "from-the-script",
      });
      const started = join(dir, "started");
      // The command's file can land before the run's first line reaches this process through its pipe: wait for both.
      await until(
        () =>
          existsSync(started) &&
          readFileSync(started, "utf8").endsWith("\n") &&
          run.output().stdout.includes('"type":"system"'),
        run.output,
      );
      expect(resident.running()).toBe(1);
      const [pid, mark] = (await readFile(started, "utf8")).trim().split(" ");
      expect(mark).toBe("from-the-script");
      expect(alive(Number(pid))).toBe(true);

      process.kill(-(run.child.pid as number), "SIGTERM");
      expect((await run.closed).signal).toBe("SIGTERM");
      await until(() => resident.running() === 0 && !alive(Number(pid)), run.output, 15_000);
    } finally {
      await sim.close();
    }
  });
});
