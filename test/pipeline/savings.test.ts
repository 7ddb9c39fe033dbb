import { describe, expect, it } from "vitest";
import { savingsOf } from "../../src/pipeline/savings.js";

const from = (cost_usd: number) => ({
  iteration: "iteration-1",
  run: "eval-1/with_skill/run-1",
  workspace: "/ws",
  cost_usd,
});

describe("what a command spent and saved", () => {
  it("counts the runs copied from the store, the runs made now, and what the copies cost when they were made", () => {
    expect(
      savingsOf([
        { reusedFrom: from(0.25), skipped: true, outcome: "success" },
        { reusedFrom: from(0.5), skipped: true, outcome: "failure" },
        { skipped: false, outcome: "success" },
        { skipped: false, outcome: "failure" },
        { skipped: false, outcome: "cancelled" },
        { skipped: true, outcome: "success" },
      ]),
    ).toEqual({ reused: 2, ran: 2, savedUsd: 0.75 });
  });

  it("is nothing for no runs", () => {
    expect(savingsOf([])).toEqual({ reused: 0, ran: 0, savedUsd: 0 });
  });
});
