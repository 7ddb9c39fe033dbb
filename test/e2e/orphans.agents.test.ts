import { spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { waitFor } from "../agents/process-alive.js";
import { agentProcesses, expectNoAgentProcesses } from "./agent-processes.js";
import { tempDir } from "./helpers.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
const strays: number[] = [];
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  sim = await startSim({ script: { rules: [{ fault: { hang: true } }] } });
});
afterEach(async () => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  await sim.close();
  await cleanup();
});

describe.skipIf(process.platform !== "linux")("kill -9 of a real-mode run", () => {
  it("leaves no agent process behind, and the next start removes its temp folders", async () => {
    const tmp = join(dir, "tmp");
    await mkdir(tmp);
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    for (const key of ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDECODE"]) delete env[key];
    const args = ["eval", "examples/csv-summary", "--only", "1", "--runs", "1", "--no-grade"];
    const skillgym = spawn(
      process.execPath,
      [bin, ...args, "--workspace", join(dir, "ws"), "--concurrency", "2"],
      {
        cwd: root,
        env: { ...env, ANTHROPIC_BASE_URL: sim.url, ANTHROPIC_API_KEY: "sk-skillgym-orphans-test" },
        stdio: "ignore",
      },
    );
    const exited = new Promise((r) => skillgym.once("exit", r));

    // Both configurations (with and without the skill) are waiting on the hanging model.
    const hanging = await waitFor(
      () => new Set(sim.log.filter((e) => e.action === "hang").map((e) => e.session)).size >= 2,
      60_000,
    );
    // Found by what every agent carries: the run marker, and a HOME in a temp root under this test's TMPDIR.
    const agents = agentProcesses(tmp).map((p) => p.pid);
    strays.push(...agents);
    expect(hanging).toBe(true);
    expect(agents.length).toBeGreaterThanOrEqual(2);

    skillgym.kill("SIGKILL");
    await exited;
    await expectNoAgentProcesses(tmp);
    const stale = readdirSync(tmp).filter((name) => name.startsWith(`skillgym-run.${skillgym.pid}.`));
    expect(stale).toHaveLength(1);

    const next = spawnSync(
      process.execPath,
      [bin, ...args, "--workspace", join(dir, "ws-next"), "--simulate"],
      { cwd: root, env, encoding: "utf8", timeout: 120_000 },
    );
    expect(next.status, next.stderr).toBe(0);
    expect(readdirSync(tmp).filter((name) => name.startsWith("skillgym-"))).toEqual([]);
  }, 120_000);
});
