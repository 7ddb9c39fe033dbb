import { describe, expect, it } from "vitest";
import { RunOutcome } from "../../src/contracts/run-record.js";
import { isFinishedOutcome } from "../../src/run/run-record.js";

describe("isFinishedOutcome", () => {
  it("takes a run as finished, not to be run again on resume, only when it ended by itself", () => {
    const finished = RunOutcome.options.filter((outcome) => isFinishedOutcome(outcome));
    expect(finished).toEqual(["success", "agent_error", "timeout", "stopped", "output_limit"]);
  });
});
