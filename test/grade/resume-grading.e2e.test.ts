import { spawn } from "node:child_process";
import { access, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { Grading } from "../../src/contracts/grading.js";
import { onDouble } from "../agent-double/index.js";
import { skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

// The built CLI in this process (test/cli/cli-in-process.ts).
const skillgym = (args: string[]) => skillgymHereOnDouble(args);

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

// A card skill whose eval has a command check that is slow the first time it runs: it marks that grading began,
// then waits. Returns the marker's path.
async function writeSlowCheckSuite(): Promise<string> {
  const marker = join(dir, "grading-began");
  await writeTree(dir, {
    "slow-check.cjs": `const fs = require("node:fs");
if (fs.existsSync(${JSON.stringify(marker)})) process.exit(0);
fs.writeFileSync(${JSON.stringify(marker)}, "");
setTimeout(() => {}, 60_000);
`,
    "card/SKILL.md": skillMd(
      "card",
      "Writes a card file. Use when the user asks for a card.",
      "Write card.txt.",
    ),
    "card/evals/evals.json": JSON.stringify({
      evals: [
        {
          id: 1,
          prompt: "Make a card",
          expectations: ["a card was made"],
          checks: [{ type: "command", run: `node ${JSON.stringify(join(dir, "slow-check.cjs"))}` }],
        },
      ],
    }),
  });
  return marker;
}

async function waitFor(path: string): Promise<void> {
  while (!(await exists(path))) await new Promise((r) => setTimeout(r, 100));
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("resume grades finished runs left without a grading", () => {
  it("grades a run whose grading.json is missing, in its rebuilt workspace, and the benchmark counts it", async () => {
    const ws = join(dir, "ws");
    const args = ["eval", "examples/csv-summary", "--simulate", "--runs", "1", "--workspace", ws];
    const first = await skillgym(args);
    expect(first.code, first.stderr).toBe(0);
    const iteration = join(ws, "iteration-1");
    // Eval 2 is graded by checks that need its workspace (file_unchanged, a command over its output).
    const runDir = join(iteration, "eval-2", "with_skill", "run-1");
    const original = Grading.parse(await readJson(join(runDir, "grading.json")));
    expect(original.summary.total).toBeGreaterThan(0);
    // The state a Ctrl-C mid-grade leaves: the run succeeded, its grading.json was never written.
    await rm(join(runDir, "grading.json"));
    expect((await readJson(join(runDir, "timing.json"))).outcome).toBe("success");
    const graded = (stdout: string) => Benchmark.parse(JSON.parse(stdout)).runs.filter((r) => !r.error);
    expect(graded((await skillgym(["bench", iteration, "--json"])).stdout)).toHaveLength(5);

    const resumed = await skillgym([...args, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("6/6 runs finished, 0 errors");
    expect(resumed.stderr).toContain(`graded ${runDir}`);
    expect(resumed.stderr).not.toContain("grading failed");
    const regraded = Grading.parse(await readJson(join(runDir, "grading.json")));
    expect(regraded.expectations.map((e) => [e.text, e.passed])).toEqual(
      original.expectations.map((e) => [e.text, e.passed]),
    );
    expect(regraded.summary).toEqual(original.summary);
    expect(regraded.summary.pass_rate).toBe(1);

    const after = graded((await skillgym(["bench", iteration, "--json"])).stdout);
    expect(after).toHaveLength(6);
    expect(after).toContainEqual(
      expect.objectContaining({ eval_id: 2, configuration: "with_skill", run_number: 1 }),
    );
  });

  it("leaves runs of evals with nothing to grade ungraded on resume", async () => {
    await writeTree(dir, {
      "card/SKILL.md": skillMd(
        "card",
        "Writes a card file. Use when the user asks for a card.",
        "Write card.txt.",
      ),
      "card/evals/evals.json": JSON.stringify({
        evals: [{ id: 1, prompt: "Make a card", expectations: [] }],
      }),
    });
    const args = ["eval", join(dir, "card"), "--simulate", "--baseline", "none"];
    expect((await skillgym(args)).code).toBe(0);
    const runDir = join(dir, "card-workspace", "iteration-1", "eval-1", "with_skill", "run-1");
    await rm(join(runDir, "grading.json"), { force: true });
    const resumed = await skillgym([...args, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toContain("its grading had not finished");
    expect(await exists(join(runDir, "grading.json"))).toBe(false);
  });
});

describe.skipIf(process.platform === "win32")("Ctrl-C while a finished run is graded", () => {
  it("leaves the run ungraded, and the next eval of the interrupted iteration grades it", async () => {
    const marker = await writeSlowCheckSuite();
    const args = [bin, ...onDouble(["eval", join(dir, "card"), "--simulate", "--baseline", "none"])];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const closed = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    await waitFor(marker);
    child.kill("SIGINT");
    expect(await closed).toBe(130);
    expect(stdout).toContain("cancelled: 1/1 runs finished, 0 errors");

    const iteration = join(dir, "card-workspace", "iteration-1");
    const runDir = join(iteration, "eval-1", "with_skill", "run-1");
    expect((await readJson(join(runDir, "timing.json"))).outcome).toBe("success");
    expect(await exists(join(runDir, "grading.json"))).toBe(false);
    expect((await readJson(join(iteration, "iteration.json"))).status).toBe("interrupted");

    const resumed = await skillgym(args.slice(1));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming ${iteration}`);
    expect(resumed.stderr).toContain(`graded ${runDir}`);
    expect(resumed.stdout).toContain("done: 1/1 runs finished, 0 errors");
    const grading = Grading.parse(await readJson(join(runDir, "grading.json")));
    expect(grading.expectations.map((e) => [e.source, e.passed])).toEqual([
      ["judge", true],
      ["check", true],
    ]);
    expect((await readJson(join(iteration, "iteration.json"))).status).toBe("complete");
  }, 90_000);
});

describe.skipIf(process.platform === "win32")("Ctrl-C while `skillgym grade` grades", () => {
  it("exits 130, reports the run as not graded rather than failed, and the next grade finishes it", async () => {
    const marker = await writeSlowCheckSuite();
    const ran = await skillgym(["eval", join(dir, "card"), "--simulate", "--baseline", "none", "--no-grade"]);
    expect(ran.code, ran.stderr).toBe(0);
    const iteration = join(dir, "card-workspace", "iteration-1");
    const runDir = join(iteration, "eval-1", "with_skill", "run-1");
    const child = spawn(process.execPath, [bin, ...onDouble(["grade", iteration, "--simulate"])], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    const closed = new Promise<number | null>((r) => child.on("close", (c) => r(c)));
    await waitFor(marker);
    child.kill("SIGINT");
    expect(await closed).toBe(130);
    expect(stdout).toContain("cancelled: graded 0 runs");
    expect(stdout).toContain("0 failed");
    expect(stderr).not.toContain("grading failed");
    expect(await exists(join(runDir, "grading.json"))).toBe(false);

    const again = await skillgym(["grade", iteration, "--simulate"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("graded 1 runs");
    expect(Grading.parse(await readJson(join(runDir, "grading.json"))).summary.pass_rate).toBe(1);
  }, 90_000);
});
