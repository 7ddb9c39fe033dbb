import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { skillgymHere } from "../cli/cli-in-process.js";
import { type FixtureRun, makeIteration } from "./iteration-fixture.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const check = "Does the job";

// Differences 1, 1, 1, 0 between the configurations: the interval runs from +0.25 to +1.00.
async function iteration() {
  const runs = [..."yyyy"].flatMap((_, i): FixtureRun[] => [
    { eval: 1, configuration: "with_skill", run: i + 1, results: { [check]: true } },
    { eval: 1, configuration: "without_skill", run: i + 1, results: { [check]: i === 3 } },
  ]);
  const made = await makeIteration({ evals: [{ id: 1, assertions: [check] }], runs });
  cleanups.push(made.cleanup);
  return made.dir;
}

describe("skillgym bench --effect-floor", () => {
  it("holds the lift against the floor it is given, in benchmark.json and the markdown", async () => {
    const dir = await iteration();
    const plain = await skillgymHere(["bench", dir, "--json"]);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).statistics.verdict).toEqual({ verdict: "helps", floor: 0.05 });
    const strict = await skillgymHere(["bench", dir, "--effect-floor", "0.3"]);
    expect(strict.code).toBe(0);
    expect(strict.stdout).toContain("**Verdict for the skill:** inconclusive (the interval straddles ±0.30");
  });

  it("refuses a floor outside 0..1, naming the flag, and writes nothing", async () => {
    const dir = await iteration();
    const bad = await skillgymHere(["bench", dir, "--effect-floor", "2"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--effect-floor");
    expect(existsSync(join(dir, "benchmark.json"))).toBe(false);
  });
});
