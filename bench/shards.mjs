// Issue 19's figures: (a) the same trigger work as 2 shard processes at concurrency 3 each against 1 process at
// concurrency 6 (real Claude Code against the simulator); (b) `merge` of 2 shards holding 2,000 synthetic runs.
// Usage: npm run build && node bench/shards.mjs   (BENCH_RUNS: trigger runs per query, default 3)
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { mergeShards } from "../dist/index.js";

const root = await mkdtemp(join(tmpdir(), "skillgym-bench-shards-"));
const repo = resolve(import.meta.dirname, "..");
const bin = join(repo, "bin", "skillgym.js");
const runs = process.env.BENCH_RUNS ?? "3";

function skillgym(args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repo, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`exit ${code}: ${stderr.slice(-400)}`)),
    );
  });
}

const triggers = (workspace, extra) => [
  "triggers",
  "examples/csv-summary",
  "--simulate",
  "--runs",
  runs,
  "--all-runs",
  "--workspace",
  join(root, workspace),
  ...extra,
];

async function timed(work) {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

async function splitFigure() {
  const one = await timed(() => skillgym(triggers("one", ["--concurrency", "6"])));
  const two = await timed(() =>
    Promise.all([
      skillgym(triggers("shard-1", ["--concurrency", "3", "--shard", "1/2"])),
      skillgym(triggers("shard-2", ["--concurrency", "3", "--shard", "2/2"])),
    ]),
  );
  return { work: `20 queries × ${runs} trigger runs`, oneProcessC6Seconds: one, twoShardsC3Seconds: two };
}

// 2 shards of 50 evals × 2 configurations × 10 runs each: 2,000 run folders with skill-creator's files.
async function syntheticShards() {
  const evals = 50;
  const perShard = 10;
  const dirs = [];
  for (const index of [1, 2]) {
    const dir = join(root, `synthetic-${index}`, "iteration-1");
    dirs.push(dir);
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, "iteration.json"),
      JSON.stringify({
        skill_name: "synthetic",
        skill_path: "/synthetic",
        skill_hash: "s".repeat(64),
        status: "complete",
        started_at: new Date().toISOString(),
        agent: { name: "claude-code" },
        plan: {
          evals: Array.from({ length: evals }, (_, i) => i + 1),
          configurations: ["with_skill", "without_skill"],
          runs_per_configuration: 2 * perShard,
        },
        shard: { index, count: 2, plan_hash: "bench-plan" },
      }),
    );
    const writes = [];
    for (let e = 1; e <= evals; e++) {
      const evalDir = join(dir, `eval-${e}`);
      writes.push(
        mkdir(evalDir, { recursive: true }).then(() =>
          writeFile(
            join(evalDir, "eval_metadata.json"),
            JSON.stringify({ eval_id: e, eval_name: `eval-${e}`, prompt: "p", assertions: ["a"] }),
          ),
        ),
      );
      for (const configuration of ["with_skill", "without_skill"]) {
        for (let k = 1; k <= perShard; k++) {
          const run = join(evalDir, configuration, `run-${(index - 1) * perShard + k}`);
          const passed = (e + k) % 3 !== 0;
          writes.push(
            mkdir(join(run, "outputs"), { recursive: true }).then(() =>
              Promise.all([
                writeFile(
                  join(run, "timing.json"),
                  JSON.stringify({
                    total_tokens: 1000,
                    duration_ms: 2000,
                    total_duration_seconds: 2,
                    outcome: "success",
                    attempts: 1,
                  }),
                ),
                writeFile(
                  join(run, "grading.json"),
                  JSON.stringify({
                    expectations: [{ text: "a", passed, evidence: "e" }],
                    summary: {
                      passed: passed ? 1 : 0,
                      failed: passed ? 0 : 1,
                      total: 1,
                      pass_rate: passed ? 1 : 0,
                    },
                  }),
                ),
                writeFile(
                  join(run, "outputs", "metrics.json"),
                  JSON.stringify({
                    tool_calls: {},
                    total_tool_calls: 0,
                    total_steps: 1,
                    files_created: [],
                    errors_encountered: 0,
                    output_chars: 10,
                    transcript_chars: 100,
                  }),
                ),
                writeFile(join(run, "transcript.jsonl"), `${JSON.stringify({ type: "result" })}\n`),
              ]),
            ),
          );
        }
      }
    }
    await Promise.all(writes);
  }
  return dirs;
}

async function mergeFigure() {
  const dirs = await syntheticShards();
  let result;
  const seconds = await timed(async () => {
    result = await mergeShards({ shardDirs: dirs, into: join(root, "merged") });
  });
  return { runs: result.evalRuns, mergeSeconds: seconds, benchmarkRuns: result.benchmark?.runs.length };
}

try {
  const split = await splitFigure();
  const merge = await mergeFigure();
  console.log(JSON.stringify({ split, merge }, null, 2));
} finally {
  await rm(root, { recursive: true, force: true });
}
