import { describe, expect, it } from "vitest";
import { costLine } from "../../../src/cli/reporters/cost-line.js";
import {
  evalRecord,
  evalSummary,
  pipelineResult,
  triggerRecord,
  triggerResults,
  triggerSpec,
  triggerSummary,
} from "./records.js";

describe("costLine", () => {
  it("gives the spend alone when the store served nothing", () => {
    expect(costLine(pipelineResult({ costUsd: 0.12345, savings: { reused: 0, ran: 4, savedUsd: 0 } }))).toBe(
      "cost: $0.1235",
    );
  });

  it("says what the runs reused from the store saved, under the agent's label", () => {
    const result = pipelineResult({ costUsd: 0.5, savings: { reused: 3, ran: 5, savedUsd: 0.25 } });
    expect(costLine(result)).toBe(
      "cost: $0.5000 spent on 5 runs; 3 runs reused from the result store saved $0.2500",
    );
    expect(costLine(result, {}, "cost [codex]")).toBe(
      "cost [codex]: $0.5000 spent on 5 runs; 3 runs reused from the result store saved $0.2500",
    );
  });

  it("says the store was not read under --fresh", () => {
    expect(
      costLine(pipelineResult({ costUsd: 0.5, savings: { reused: 0, ran: 5, savedUsd: 0 } }), {
        fresh: true,
      }),
    ).toBe(
      "cost: $0.5000 spent on 5 runs; the result store was not read (--fresh): every run was made again and stored",
    );
  });

  it("counts the eval and trigger runs whose price is not known", () => {
    const result = pipelineResult({
      costUsd: 0.2,
      evals: evalSummary([
        evalRecord({ costUnknown: true, costUsd: 0 }),
        evalRecord({ runNumber: 2 }),
        evalRecord({ runNumber: 3, costUnknown: false }),
      ]),
      triggers: triggerSummary(triggerResults(), [
        triggerRecord(triggerSpec(0, 1), { costSource: "unknown" }),
        triggerRecord(triggerSpec(0, 2), { costSource: "stream" }),
        triggerRecord(triggerSpec(1, 1)),
      ]),
    });
    expect(costLine(result)).toBe("cost: $0.2000 + 2 runs of unknown cost (no price known for the model)");
    const one = pipelineResult({
      costUsd: 0.2,
      triggers: triggerSummary(triggerResults(), [
        triggerRecord(triggerSpec(0, 1), { costSource: "unknown" }),
      ]),
    });
    expect(costLine(one)).toBe("cost: $0.2000 + 1 run of unknown cost (no price known for the model)");
  });
});
