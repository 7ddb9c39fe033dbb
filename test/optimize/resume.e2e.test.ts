import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, readlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OptimizeResults } from "../../src/contracts/optimize-results.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { doubleFlags } from "../agent-double/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

const ORIGINAL = "Tidies the layout of documents.";
const queries = [
  { query: "draft release notes from the recent commits", should_trigger: true },
  { query: "summarize the commits into release notes", should_trigger: true },
  { query: "prepare release notes listing the commits", should_trigger: true },
  { query: "fix the failing unit test in the parser", should_trigger: false },
  { query: "rename this variable across the codebase", should_trigger: false },
  { query: "speed up the slow database query", should_trigger: false },
];

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "scribe/SKILL.md": skillMd("scribe", ORIGINAL, "Write RELEASE_NOTES.md from the git log."),
    "scribe/evals/triggers.json": JSON.stringify(queries),
  });
  await mkdir(join(dir, "tmp"));
  sim = await startSim();
});
afterEach(async () => {
  await sim.close();
  await cleanup();
});

// Real mode against the sim (not --simulate): the sim stays in this process, so its request log is ours to count.
function optimize(...extra: string[]): ChildProcess {
  return spawn(
    process.execPath,
    [
      bin,
      "optimize",
      ...doubleFlags,
      join(dir, "scribe"),
      "--runs",
      "1",
      "--concurrency",
      "1",
      // The agent makes every run, one at a time, so the interruption lands inside an evaluation: replay (on by
      // default with a key) would finish an evaluation's runs several at once, before the signal arrives.
      "--screen",
      "none",
      "--model",
      "claude-sonnet-4-5",
      "--improver",
      "anthropic",
      "--workspace",
      join(dir, "ws"),
      ...extra,
    ],
    {
      cwd: root,
      // Runs' temporary folders inside the test folder, so a run orphaned by SIGKILL can be waited for.
      env: {
        ...process.env,
        ANTHROPIC_BASE_URL: sim.url,
        ANTHROPIC_API_KEY: "sk-test",
        TMPDIR: join(dir, "tmp"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}

async function finished(child: ChildProcess) {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c) => {
    stdout += c;
  });
  child.stderr!.on("data", (c) => {
    stderr += c;
  });
  const code = await new Promise<number | null>((done) => child.on("close", (c) => done(c)));
  return { code, stdout, stderr };
}

async function triggerRecords(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const names = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith("trigger.json")).sort())
    files.set(name, await readFile(join(folder, name), "utf8"));
  return files;
}

async function until(check: () => Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Processes working inside the test folder: Claude Code runs left behind when their parent was killed.
async function strays(): Promise<number> {
  let count = 0;
  for (const pid of (await readdir("/proc")).filter((n) => /^\d+$/.test(n)))
    if ((await readlink(`/proc/${pid}/cwd`).catch(() => "")).startsWith(dir)) count++;
  return count;
}

const agentSessions = (from: number) => {
  const seen = new Set(sim.log.slice(0, from).map((e) => e.session));
  return new Set(
    sim.log
      .slice(from)
      .filter((e) => !e.action.startsWith("judge") && e.action !== "side-request" && !seen.has(e.session))
      .map((e) => e.session),
  ).size;
};

describe("skillgym optimize --resume", () => {
  it.each(["SIGKILL", "SIGINT"] as const)(
    "continues an optimization stopped by %s without repeating finished evaluations",
    async (signal) => {
      const first = optimize();
      const done = finished(first);
      const ws = join(dir, "ws");
      let folder = "";
      // Wait until iteration 0 is recorded and iteration 1 has finished two of its six runs.
      await until(async () => {
        folder = (await readdir(ws).catch(() => [] as string[])).find((n) => n.startsWith("optimize-")) ?? "";
        return folder !== "" && (await triggerRecords(join(ws, folder, "iteration-1"))).size >= 2;
      });
      first.kill(signal);
      const killed = await done;
      expect(killed.code).toBe(signal === "SIGINT" ? 130 : null);
      await until(async () => (await strays()) === 0, 30_000);
      const optimizeDir = join(ws, folder);
      const before = OptimizeResults.parse(
        JSON.parse(await readFile(join(optimizeDir, "results.json"), "utf8")),
      );
      expect(before.status).toBe(signal === "SIGINT" ? "interrupted" : "running");
      expect(before.iterations[0]).toMatchObject({ iteration: 0, status: "complete", trigger_runs: 6 });
      if (signal === "SIGINT") expect(killed.stdout).toContain(`--resume ${optimizeDir}`);
      const kept = {
        zero: await triggerRecords(join(optimizeDir, "iteration-0")),
        one: await triggerRecords(join(optimizeDir, "iteration-1")),
      };
      expect(kept.zero.size).toBe(6);
      const reusable = [...kept.one.values()].filter((t) => JSON.parse(t).outcome !== "cancelled").length;
      expect(reusable).toBeGreaterThanOrEqual(2);
      expect(reusable).toBeLessThan(6);

      // Inputs that would change the evaluations are refused before any agent starts.
      const logged = sim.log.length;
      const otherRuns = await finished(optimize("--resume", optimizeDir, "--runs", "2"));
      expect(otherRuns.code).toBe(2);
      expect(otherRuns.stderr).toContain(join(optimizeDir, "results.json"));
      expect(otherRuns.stderr).toContain("--runs: 1 in results.json, 2 now");
      expect(sim.log.length).toBe(logged);

      const fromLog = sim.log.length;
      const resumed = await finished(optimize("--resume", optimizeDir, "--json"));
      expect(resumed.stderr).toContain(`resuming ${optimizeDir}: 1 finished iterations kept`);
      expect(resumed.code).toBe(0);
      const results = OptimizeResults.parse(JSON.parse(resumed.stdout));
      expect(results).toMatchObject({ status: "complete", exit_reason: "train_perfect", best_iteration: 1 });
      expect(results.resumed_at).toHaveLength(1);
      expect(results.iterations.map((it) => it.iteration)).toEqual([0, 1]);
      expect(results.iterations[0]).toEqual(before.iterations[0]);
      expect(results.iterations[1]).toMatchObject({ reused_runs: reusable, trigger_runs: 6 - reusable });

      // Every finished run is byte-identical on disk, and the sim saw one new session per run that was missing.
      const after = {
        zero: await triggerRecords(join(optimizeDir, "iteration-0")),
        one: await triggerRecords(join(optimizeDir, "iteration-1")),
      };
      expect(after.zero).toEqual(kept.zero);
      for (const [name, text] of kept.one)
        if (JSON.parse(text).outcome !== "cancelled") expect(after.one.get(name)).toBe(text);
      expect(after.one.size).toBe(6);
      expect(agentSessions(fromLog)).toBe(6 - reusable);
      // The proposal iteration 1 evaluates was already paid for: the improver is not asked again.
      expect(sim.log.slice(fromLog).filter((e) => e.action.startsWith("judge"))).toHaveLength(0);
      expect(results.iterations[1]!.cost_usd).toBeGreaterThan(0);

      const again = await finished(optimize("--resume", optimizeDir));
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("already complete (train_perfect); nothing to resume");
    },
    240_000,
  );
});
