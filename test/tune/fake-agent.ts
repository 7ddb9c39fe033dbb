import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Agent, AgentRunRequest, AgentRunResult, RunOutcome } from "../../src/agents/agent.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { createRedactor } from "../../src/redact.js";

/** What one scripted run does: files it writes in its working folder, how it ends, what it costs. */
export interface FakeRun {
  write?: Record<string, string>;
  outcome?: RunOutcome;
  message?: string;
  costUsd?: number;
  /** Called as the run starts (e.g. to abort a signal). */
  onStart?: (request: AgentRunRequest) => void;
  /** What it streams; one text event when not given. */
  events?: AgentEvent[];
}

/** An agent in this process that plays `runs` in order (the last one again when they run out) and records each request. */
export function fakeAgent(runs: FakeRun[], simulated = false) {
  const requests: AgentRunRequest[] = [];
  const agent: Agent = {
    name: "fake",
    skillsFolder: ".claude/skills",
    binary: "fake",
    simulated,
    redactor: createRedactor([]),
    async run(request) {
      requests.push(request);
      const run = runs[Math.min(requests.length - 1, runs.length - 1)] ?? {};
      run.onStart?.(request);
      for (const [path, content] of Object.entries(run.write ?? {})) {
        await mkdir(dirname(join(request.cwd, path)), { recursive: true });
        await writeFile(join(request.cwd, path), content, "utf8");
      }
      const result: AgentRunResult = {
        outcome: run.outcome ?? "success",
        ...(run.message ? { message: run.message } : {}),
        events: run.events ?? [{ kind: "text", text: `run ${requests.length}` }],
        ...(run.costUsd !== undefined
          ? {
              result: {
                kind: "result",
                isError: false,
                subtype: "success",
                text: "done",
                costUsd: run.costUsd,
              },
            }
          : {}),
        process: finishedProcess(),
      };
      return result;
    },
  };
  return { agent, requests };
}

/** The process record of a run that ended by itself, as an in-process agent reports it. */
export function finishedProcess(): AgentRunResult["process"] {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    cancelled: false,
    stopped: false,
    durationMs: 1,
    startedAt: "2026-01-15T10:30:00.000Z",
    endedAt: "2026-01-15T10:30:01.000Z",
    stderrTail: "",
  };
}
