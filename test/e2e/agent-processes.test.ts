import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RUN_MARKER } from "../../src/agents/process/marked-processes.js";
import { type ProcessSpec, runProcess } from "../../src/agents/process/run-process.js";
import { agentProcesses, expectNoAgentProcesses } from "./agent-processes.js";
import { tempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let tmp: string;
let home: string;
const left: ChildProcess[] = [];
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  tmp = join(await realpath(dir), "tmp");
  // Where a run's agent gets its HOME: inside the run's temp root under TMPDIR.
  home = join(tmp, "skillgym-run.1234.5678-abcdef", "eval-1-with_skill-1.a1", "home");
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  for (const child of left.splice(0)) child.kill("SIGKILL");
  for (const { pid } of agentProcesses(tmp)) process.kill(pid, "SIGKILL");
  await cleanup();
});

// An agent's background process, left running in a session of its own, as a run that failed to end it would leave it.
function orphan(env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    env,
    detached: true,
    stdio: "ignore",
  });
  left.push(child);
  return child;
}

async function seen(pid: number | undefined): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (agentProcesses(tmp).some((p) => p.pid === pid)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe.skipIf(process.platform !== "linux")("the orphan check of the e2e tests", () => {
  it("finds a process left with the run marker and a HOME under the temp folder, and fails naming it", async () => {
    const child = orphan({ ...process.env, HOME: home, [RUN_MARKER]: "a-marker" });
    expect(await seen(child.pid)).toBe(true);
    await expect(expectNoAgentProcesses(tmp, 200)).rejects.toThrow(`${child.pid} ${process.execPath} -e`);
    child.kill("SIGKILL");
    await expectNoAgentProcesses(tmp);
  });

  it("leaves out processes without the marker, and marked ones whose HOME is elsewhere", async () => {
    const unmarked = orphan({ ...process.env, HOME: home });
    const elsewhere = orphan({ ...process.env, HOME: join(dir, "home"), [RUN_MARKER]: "a-marker" });
    const marked = orphan({ ...process.env, HOME: home, [RUN_MARKER]: "a-marker" });
    expect(await seen(marked.pid)).toBe(true);
    expect(agentProcesses(tmp).map((p) => p.pid)).toEqual([marked.pid]);
    expect([unmarked.pid, elsewhere.pid]).not.toContain(undefined);
  });

  it("finds nothing once runProcess has ended a run whose agent started a background process of its own", async () => {
    // The agent starts a grandchild in a new session (out of the process group the run ends) and exits.
    const grandchild = `require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" }).unref();`;
    const spec: ProcessSpec = {
      command: process.execPath,
      args: ["-e", grandchild],
      cwd: dir,
      env: { ...process.env, HOME: home },
      timeoutMs: 30_000,
    };
    const result = await runProcess(spec);
    expect(result.exitCode).toBe(0);
    await expectNoAgentProcesses(tmp);
  });
});
