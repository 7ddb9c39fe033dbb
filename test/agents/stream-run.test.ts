import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { classifyAgentEnd } from "../../src/agents/classify-end.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { runAgentStream } from "../../src/agents/stream-run.js";
import { createRedactor } from "../../src/redact.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

// An agent that waits for its model forever and, told to stop, prints a closing "success" (as Copilot CLI can).
const agentThatClosesPolitely = `
process.on("SIGTERM", () => {
  process.stdout.write(JSON.stringify({ type: "result", ok: true }) + "\\n", () => process.exit(0));
});
setInterval(() => {}, 1000);
`;

function parse(line: string): AgentEvent[] {
  const value = JSON.parse(line) as { type?: string };
  return value.type === "result" ? [{ kind: "result", isError: false, subtype: "success", text: "" }] : [];
}

it.each([["timeout"], ["cancelled"]])(
  "a result the agent prints after a %s is no verdict of the run",
  async (how) => {
    const controller = new AbortController();
    const running = runAgentStream({
      command: process.execPath,
      args: ["-e", agentThatClosesPolitely],
      env: process.env,
      request: {
        prompt: "Hello",
        cwd: dir,
        home: dir,
        timeoutMs: how === "timeout" ? 1500 : 60_000,
        transcriptPath: join(dir, "transcript.jsonl"),
        signal: controller.signal,
      },
      redactor: createRedactor([]),
      parse,
      classify: (proc, result) =>
        classifyAgentEnd(proc, result, { fromResult: () => ({ outcome: "success" }), authPattern: /$^/ }),
    });
    if (how === "cancelled") setTimeout(() => controller.abort(), 1500);
    const result = await running;
    expect(result.outcome).toBe(how);
    // The closing line was read and kept in the events, but it is not the run's result.
    expect(result.events.map((e) => e.kind)).toEqual(["result"]);
    expect(result.result).toBeUndefined();
  },
  30_000,
);
