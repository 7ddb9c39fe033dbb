import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unitCostsFromHistory } from "../../src/pipeline/cost-history.js";
import { defaultUnitCosts } from "../../src/pipeline/estimate.js";
import { tempDir } from "../e2e/helpers.js";
import { timedIteration } from "./timed-iteration.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// An iteration of one eval run with and without the skill, twice; `costs` are the four runs' timing.json cost_usd.
const iteration = (n: number, simulated: boolean, costs: number[]) =>
  timedIteration(
    dir,
    n,
    simulated,
    costs.map((cost) => ({ outcome: "success", cost_usd: cost, total_tokens: 10 })),
  );

describe("unit costs from earlier iterations", () => {
  it("takes the mean agent run cost of the latest real iteration, leaving out runs that cost nothing", async () => {
    await iteration(1, false, [0.2, 0.2, 0.4, 0.4]);
    // Two runs of iteration 3 were reused from the store: they cost 0 now, not what a run costs.
    await iteration(3, false, [0.6, 0, 0.8, 0]);
    // The latest is simulated: the simulator's runs say nothing about prices.
    await iteration(4, true, [0.01, 0.01, 0.01, 0.01]);
    const costs = await unitCostsFromHistory(join(dir, "ws"));
    expect(costs.agentRunUsd).toBeCloseTo(0.7, 12);
    expect(costs.triggerRunUsd).toBe(defaultUnitCosts.triggerRunUsd);
    expect(costs.judgeCallUsd).toBe(defaultUnitCosts.judgeCallUsd);
  });

  it("falls back to the defaults without a priced real iteration", async () => {
    expect(await unitCostsFromHistory(join(dir, "ws"))).toEqual(defaultUnitCosts);
    await iteration(1, true, [0.5, 0.5, 0.5, 0.5]);
    await iteration(2, false, [0, 0, 0, 0]);
    expect(await unitCostsFromHistory(join(dir, "ws"))).toEqual(defaultUnitCosts);
  });
});
