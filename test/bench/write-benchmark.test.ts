import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { readIteration, writeBenchmark } from "../../src/bench/index.js";
import { registerBench } from "../../src/cli/commands/bench.js";
import { captureIo } from "../../src/cli/io.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { SkillgymError } from "../../src/errors.js";
import { type FixtureRun, iterationRecord, makeIteration } from "./iteration-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skillgym-bench-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function iteration(simulated = false) {
  const runs: FixtureRun[] = [1, 2].flatMap((run): FixtureRun[] => [
    {
      eval: 1,
      configuration: "with_skill",
      run,
      results: { a: true, b: true },
      model: "claude-haiku-4-5",
      simulated,
    },
    {
      eval: 1,
      configuration: "without_skill",
      run,
      results: { a: true, b: false },
      model: "claude-haiku-4-5",
      simulated,
    },
  ]);
  const made = await makeIteration({
    record: iterationRecord({
      simulated,
      plan: { evals: [1], configurations: ["with_skill", "without_skill"], runs_per_configuration: 2 },
    }),
    evals: [{ id: 1, name: "Ocean" }],
    runs,
  });
  cleanups.push(made.cleanup);
  return made.dir;
}

async function expectBadInput(promise: Promise<unknown>, mentions: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  expect((error as SkillgymError).code).toBe("BAD_INPUT");
  expect((error as SkillgymError).message).toContain(mentions);
}

describe("writeBenchmark", () => {
  it("writes benchmark.json that parses with Benchmark and benchmark.md beside the evals, atomically", async () => {
    const dir = await iteration();
    const written = await writeBenchmark(dir);
    expect(written.jsonPath).toBe(join(dir, "benchmark.json"));
    const json = JSON.parse(await readFile(written.jsonPath, "utf8"));
    expect(Benchmark.parse(json)).toEqual(written.benchmark);
    expect(json.run_summary.delta.pass_rate).toBe("+0.50");
    expect(json.metadata.executor_model).toBe("claude-haiku-4-5");
    expect(await readFile(written.mdPath, "utf8")).toBe(written.markdown);
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("gives the same interval on a second run with the same seed", async () => {
    const runs: FixtureRun[] = [1, 2, 3, 4].flatMap((run): FixtureRun[] => [
      { eval: 1, configuration: "with_skill", run, results: { a: run !== 4, b: run % 2 === 0 } },
      { eval: 1, configuration: "without_skill", run, results: { a: run === 1, b: false } },
    ]);
    const made = await makeIteration({ record: null, evals: [{ id: 1 }], runs });
    cleanups.push(made.cleanup);
    const first = await writeBenchmark(made.dir);
    const again = await writeBenchmark(made.dir);
    expect(again.benchmark.statistics).toEqual(first.benchmark.statistics);
    expect(first.benchmark.statistics?.seed).toBe(1);
  });

  it("refuses a folder that is not an iteration, naming it", async () => {
    const empty = await tempDir();
    await expectBadInput(writeBenchmark(empty), `${empty} is not an iteration folder`);
    await expectBadInput(readIteration(join(empty, "nope")), `${join(empty, "nope")} does not exist`);
    await writeFile(join(empty, "file.txt"), "x");
    await expectBadInput(readIteration(join(empty, "file.txt")), "is not a folder");
  });

  it("reads a broken iteration.json as a note and the runs from the folders", async () => {
    const dir = await iteration();
    await writeFile(join(dir, "iteration.json"), '{"skill_name": 3}');
    const { benchmark } = await writeBenchmark(dir);
    expect(benchmark.runs).toHaveLength(4);
    expect(benchmark.notes?.some((n) => n.startsWith("iteration.json at skill_name:"))).toBe(true);
  });

  it("notes an unknown configuration folder instead of crashing on it", async () => {
    const dir = await iteration();
    await mkdir(join(dir, "eval-1", "new_skill", "run-1"), { recursive: true });
    const { benchmark } = await writeBenchmark(dir);
    expect(benchmark.runs).toHaveLength(4);
    expect(benchmark.notes?.some((n) => n.startsWith("eval-1/new_skill/ is not a configuration"))).toBe(true);
  });
});

describe("skillgym bench", () => {
  function program(io: ReturnType<typeof captureIo>): Command {
    const p = new Command("skillgym").exitOverride();
    registerBench(p, io);
    return p;
  }

  it("prints the markdown and the paths", async () => {
    const dir = await iteration(true);
    const io = captureIo();
    await program(io).parseAsync(["bench", dir], { from: "user" });
    expect(io.stdout()).toContain("# Benchmark: demo");
    expect(io.stdout()).toContain("**SIMULATED**");
    expect(io.stdout()).toContain(`wrote ${join(dir, "benchmark.json")}`);
    expect(io.stdout()).toContain(`wrote ${join(dir, "benchmark.md")}`);
  });

  it("prints benchmark.json with --json, the paths on stderr", async () => {
    const dir = await iteration();
    const io = captureIo();
    await program(io).parseAsync(["bench", dir, "--json", "--seed", "7"], { from: "user" });
    const printed = Benchmark.parse(JSON.parse(io.stdout()));
    expect(printed.statistics?.seed).toBe(7);
    expect(io.stderr()).toContain(`wrote ${join(dir, "benchmark.json")}`);
  });

  it("fails with BAD_INPUT on a folder that is not an iteration", async () => {
    const empty = await tempDir();
    await expectBadInput(program(captureIo()).parseAsync(["bench", empty], { from: "user" }), empty);
  });
});

describe("readIteration", () => {
  it("keeps two eval folders apart when their metadata claim the same id", async () => {
    const made = await makeIteration({
      record: null,
      evals: [{ id: 1 }, { id: 2 }],
      runs: [
        { eval: 1, configuration: "with_skill", run: 1, results: { a: true } },
        { eval: 2, configuration: "with_skill", run: 1, results: { a: false } },
      ],
    });
    cleanups.push(made.cleanup);
    await writeFile(
      join(made.dir, "eval-2", "eval_metadata.json"),
      JSON.stringify({ eval_id: 1, eval_name: "copy", prompt: "p", assertions: [] }),
    );
    const { benchmark } = await writeBenchmark(made.dir);
    expect(benchmark.metadata.evals_run).toEqual([1, "eval-2"]);
    expect(benchmark.notes?.some((n) => n.includes("repeats eval id 1"))).toBe(true);
  });

  it("lists an eval the plan names but that has no folder, with its runs not run", async () => {
    const made = await makeIteration({
      record: iterationRecord({
        plan: { evals: [1, 2], configurations: ["with_skill"], runs_per_configuration: 1 },
      }),
      evals: [{ id: 1 }],
      runs: [{ eval: 1, configuration: "with_skill", run: 1, results: { a: true } }],
    });
    cleanups.push(made.cleanup);
    const data = await readIteration(made.dir);
    expect(data.evals.map((e) => e.id)).toEqual([1, 2]);
    expect(data.runs.map((r) => [r.evalId, r.exclusion?.kind])).toEqual([
      [1, undefined],
      [2, "not_run"],
    ]);
  });
});
