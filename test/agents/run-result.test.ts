import { describe, expect, it } from "vitest";
import type { ResultEvent } from "../../src/agents/agent.js";
import type { ProcessResult } from "../../src/agents/process/run-process.js";
import { runResultOf } from "../../src/agents/run-result.js";
import { createRedactor } from "../../src/redact.js";

const proc: ProcessResult = {
  exitCode: 0,
  signal: null,
  timedOut: false,
  cancelled: false,
  stopped: false,
  durationMs: 10,
  startedAt: "2025-01-01T00:00:00.000Z",
  endedAt: "2025-01-01T00:00:00.010Z",
  stderrTail: "",
};
const result: ResultEvent = { kind: "result", isError: false, subtype: "success", text: "Done." };
const finished = {
  proc,
  events: [result],
  init: undefined,
  result,
  redactor: createRedactor([]),
  classify: () => ({ outcome: "success" as const }),
};

describe("runResultOf", () => {
  it("keeps what a sandboxed run's network filter refused", () => {
    const run = runResultOf({ ...finished, sandbox: { refusedHosts: ["evil.example"] } });
    expect(run.sandbox).toEqual({ refusedHosts: ["evil.example"] });
  });

  it("has no sandbox part for a run outside one", () => {
    expect("sandbox" in runResultOf(finished)).toBe(false);
    expect("sandbox" in runResultOf({ ...finished, sandbox: undefined })).toBe(false);
  });
});
