import { describe, expect, it } from "vitest";
import { shardSummaryLine } from "../../../src/cli/reporters/shard-line.js";

describe("shardSummaryLine", () => {
  it("says the figures are this shard's part only, and how to get the whole result", () => {
    expect(shardSummaryLine({ index: 2, count: 4 })).toBe(
      "shard 2/4: partial figures, this shard's part of the plan only; `skillgym merge` every shard's folder for the whole result",
    );
  });
});
