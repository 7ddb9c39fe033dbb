import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest } from "../../src/agents/agent.js";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import type { TriggerRun } from "../../src/contracts/run-record.js";
import { createRedactor } from "../../src/redact.js";
import { openStore } from "../../src/store/index.js";
import type { TriggerRunSpec } from "../../src/triggers/plan.js";
import { triggerHooksWithStore } from "../../src/triggers/reuse-trigger.js";
import {
  executeTriggerRun,
  finishedTriggerRun,
  resumeFinishedTriggerRun,
} from "../../src/triggers/run-trigger.js";
import { skillMd, tempDir } from "../e2e/helpers.js";
import { finishedProcess } from "../tune/fake-agent.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const QUERY = "write a haiku about rain";

// A run folder holding a trigger.json an earlier attempt wrote (or `text` as it is).
async function runWith(name: string, record: Partial<TriggerRun> | string): Promise<TriggerRunSpec> {
  const runDir = join(dir, name);
  await mkdir(runDir, { recursive: true });
  const full: TriggerRun = {
    query: QUERY,
    should_trigger: true,
    synthetic_name: "haiku-sg-feedbeef",
    triggered: true,
    skills_loaded: ["haiku"],
    stolen_by: [],
    outcome: "stopped",
    attempts: 2,
    duration_ms: 1234,
    ...(typeof record === "string" ? {} : record),
  };
  await writeFile(join(runDir, "trigger.json"), typeof record === "string" ? record : JSON.stringify(full));
  return {
    queryIndex: 1,
    query: QUERY,
    shouldTrigger: true,
    runNumber: 2,
    syntheticName: "haiku-sg-0000aaaa",
    runDir,
  };
}

describe("a trigger run finished in an earlier attempt", () => {
  it("is kept as it was, under the synthetic name it ran with", async () => {
    const spec = await runWith("kept", {});
    const kept = await resumeFinishedTriggerRun(spec);
    expect(kept).toEqual({
      spec: { ...spec, syntheticName: "haiku-sg-feedbeef" },
      queryIndex: 1,
      triggered: true,
      stolenBy: [],
      outcome: "stopped",
      attempts: 2,
      durationMs: 1234,
      skipped: true,
      record: await finishedTriggerRun(spec),
    });
    expect(kept).not.toHaveProperty("error");
  });

  it("keeps a failed run's error, and who took a query from ours", async () => {
    const failed = await resumeFinishedTriggerRun(
      await runWith("failed", { outcome: "timeout", error: "timed out", triggered: false }),
    );
    expect(failed).toMatchObject({ outcome: "timeout", error: "timed out", triggered: false });
    const stolen = await resumeFinishedTriggerRun(
      await runWith("stolen", { triggered: false, stolen_by: ["limerick"], outcome: "success" }),
    );
    expect(stolen).toMatchObject({ stolenBy: ["limerick"], triggered: false });
  });

  it("is not one when it was cancelled, ran another query, or its record is unreadable", async () => {
    expect(
      await resumeFinishedTriggerRun(await runWith("cancelled", { outcome: "cancelled" })),
    ).toBeUndefined();
    expect(await finishedTriggerRun(await runWith("other", { query: "another query" }))).toBeUndefined();
    expect(await finishedTriggerRun(await runWith("broken", "{ not json"))).toBeUndefined();
    expect(
      await finishedTriggerRun(await runWith("wrong-shape", '{"query": "write a haiku about rain"}')),
    ).toBeUndefined();
    expect(
      await resumeFinishedTriggerRun({ ...(await runWith("x", {})), runDir: join(dir, "none") }),
    ).toBeUndefined();
  });
});

describe("a run an earlier attempt copied from the result store", () => {
  it("keeps its mark when the iteration is resumed; a run made then has none", async () => {
    const hooks = triggerHooksWithStore(
      {
        agent: await createClaudeCodeAgent({ simulatorUrl: "http://127.0.0.1:9" }),
        skillName: "haiku",
        skillSourceDir: dir,
        companions: [],
        timeoutMs: 60_000,
        tempRoot: dir,
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      },
      {
        store: openStore({ dir: join(dir, "store") }),
        iterationDir: join(dir, "iteration-2"),
        description: "Haiku.",
      },
    );
    const from = {
      iteration: "iteration-1",
      run: "triggers/query-2/run-2",
      workspace: "/ws",
      cost_usd: 0.25,
    };
    const copied = await hooks.finishedEarlier(await runWith("copied", { reused_from: from, cost_usd: 0 }));
    expect(copied).toMatchObject({ reusedFrom: from, skipped: true, triggered: true });
    const made = await hooks.finishedEarlier(await runWith("made", {}));
    expect(made).toMatchObject({ skipped: true, triggered: true });
    expect(made).not.toHaveProperty("reusedFrom");
    const badMark = await hooks.finishedEarlier(await runWith("bad-mark", { reused_from: { iteration: 3 } }));
    expect(badMark).not.toHaveProperty("reusedFrom");
    // Neither on disk nor in the (empty) store: the run is to be made.
    expect(
      await hooks.finishedEarlier({ ...(await runWith("y", {})), runDir: join(dir, "nothing") }),
    ).toBeUndefined();
  });
});

describe("a trigger run made", () => {
  it("stages the skill under its synthetic name in a folder named for the query and run, and prices the tokens by --model", async () => {
    const skillDir = join(dir, "made-skill");
    await mkdir(skillDir, { recursive: true });
    await writeFile(join(skillDir, "SKILL.md"), skillMd("haiku", "Writes haiku.", "Write one."));
    const seen: { cwd: string; skill: string }[] = [];
    const agent = {
      name: "claude-code",
      skillsFolder: ".claude/skills",
      binary: "fake",
      simulated: false,
      redactor: createRedactor([]),
      async run(request: AgentRunRequest) {
        seen.push({
          cwd: request.cwd,
          skill: await readFile(join(request.cwd, ".claude/skills/haiku-sg-0000aaaa/SKILL.md"), "utf8"),
        });
        const usage = { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
        const result = { kind: "result", isError: false, subtype: "success", text: "Sure.", usage };
        return {
          outcome: "success",
          events: [result],
          result,
          process: finishedProcess(),
        };
      },
    } as unknown as Agent;
    const tempRoot = join(dir, "made-temp");
    const made = await executeTriggerRun(
      {
        queryIndex: 1,
        query: QUERY,
        shouldTrigger: true,
        runNumber: 2,
        syntheticName: "haiku-sg-0000aaaa",
        runDir: join(dir, "made-run"),
      },
      {
        agent,
        skillName: "haiku",
        skillSourceDir: skillDir,
        companions: [],
        model: "claude-sonnet-4-5",
        timeoutMs: 60_000,
        tempRoot,
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      },
    );
    expect(made).toMatchObject({ outcome: "success", triggered: false });
    // A run that ended well carries no error at all.
    expect(made.record).not.toHaveProperty("error");
    // The run's workspace is under the temp root, in a folder named for query 2, run 2.
    expect(seen[0]?.cwd.startsWith(join(tempRoot, "q2-r2"))).toBe(true);
    // The agent sees the skill under the name it is installed as, not its own.
    expect(seen[0]?.skill).toMatch(/^name: haiku-sg-0000aaaa$/m);
    expect(seen[0]?.skill).not.toMatch(/^name: haiku$/m);
    expect(made.record.cost_usd).toBeGreaterThan(0);
  });
});
