import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeBenchmark } from "../../src/bench/write-benchmark.js";
import { SkillgymError } from "../../src/errors.js";
import { type FixtureRun, makeIteration } from "./iteration-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

// Two pairs that differ by +1 and +0: an interval from 0 to 1.
async function iteration(): Promise<string> {
  const runs: FixtureRun[] = [1, 2].flatMap((run): FixtureRun[] => [
    { eval: 1, configuration: "with_skill", run, results: { a: true } },
    { eval: 1, configuration: "without_skill", run, results: { a: run === 2 } },
  ]);
  const made = await makeIteration({ record: null, evals: [{ id: 1 }], runs });
  cleanups.push(made.cleanup);
  return made.dir;
}

const noise = (spread: number) => ({
  measured_at: "2026-11-26T00:00:00Z",
  iteration_dir: "noise/iteration-1",
  runs_per_arm: 2,
  effect_floor: 0.05,
  evals: [],
  spread,
  false_calls: 0,
  false_call_rate: null,
});

describe("writeBenchmark at its edges", () => {
  it("holds the verdict against the workspace's noise.json, unless a spread is given", async () => {
    const dir = await iteration();
    await writeFile(join(dirname(dir), "noise.json"), JSON.stringify(noise(0.4)));
    const measured = await writeBenchmark(dir, { resamples: 200 });
    expect(measured.benchmark.statistics?.verdict).toMatchObject({ floor: 0.4, noise_spread: 0.4 });
    const given = await writeBenchmark(dir, { resamples: 200, noiseSpread: 0.2 });
    expect(given.benchmark.statistics?.verdict).toMatchObject({ floor: 0.2, noise_spread: 0.2 });
    const quiet = await writeBenchmark(dir, { resamples: 200, noiseSpread: 0 });
    expect(quiet.benchmark.statistics?.verdict).toMatchObject({ verdict: "inconclusive", floor: 0.05 });
    expect(quiet.benchmark.statistics?.verdict?.noise_spread).toBeUndefined();
  });

  it("stamps the benchmark with the time it was written when nothing else gives one", async () => {
    const dir = await iteration();
    const before = Date.now();
    const { benchmark } = await writeBenchmark(dir, { resamples: 200 });
    const stamped = Date.parse(benchmark.metadata.timestamp);
    expect(stamped).toBeGreaterThanOrEqual(before - 1000);
    expect(stamped).toBeLessThanOrEqual(Date.now() + 1000);
    const given = await writeBenchmark(dir, { resamples: 200, timestamp: "2026-03-01T00:00:00Z" });
    expect(given.benchmark.metadata.timestamp).toBe("2026-03-01T00:00:00Z");
    expect(JSON.parse(await readFile(given.jsonPath, "utf8")).metadata.timestamp).toBe(
      "2026-03-01T00:00:00Z",
    );
  });

  it("fails with a WORKSPACE error naming the folder when it cannot write there", async () => {
    const dir = await iteration();
    // A folder where benchmark.json should go: the rename onto it fails.
    await mkdir(join(dir, "benchmark.json"));
    const error = (await writeBenchmark(dir, { resamples: 200 }).catch((e: unknown) => e)) as SkillgymError;
    expect(error).toBeInstanceOf(SkillgymError);
    expect(error.code).toBe("WORKSPACE");
    expect(error.message).toMatch(new RegExp(`^cannot write the benchmark into ${dir}: .+`));
    expect(error.hint).toContain("make the iteration folder writable");
  });
});
