import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, isAbsolute, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Agent } from "../../src/agents/agent.js";
import { createRedactor } from "../../src/redact.js";
import { type Attempt, type AttemptEnv, type AttemptPlan, runAttempt } from "../../src/run/attempt.js";
import { fastRetry, tempDir } from "../e2e/helpers.js";
import { fakeAgent } from "../tune/fake-agent.js";
import { exists } from "./eval-fixtures.js";

// What one attempt leaves behind (its folders, outputs, transcript and event log) and how it ends, on an in-process agent.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

const runDir = () => join(dir, "run");
const tempRoot = () => join(dir, "tmp");

async function attempt(
  agent: Agent,
  plan: Partial<AttemptPlan> = {},
  env: Partial<AttemptEnv> = {},
): Promise<Attempt> {
  return runAttempt(
    {
      name: "card",
      runNumber: 1,
      runDir: runDir(),
      workspace: (work) => ({ dir: work, skills: [], skillsFolder: agent.skillsFolder, fixtures: [] }),
      prompt: "Make a card",
      timeoutMs: 60_000,
      heading: "card run",
      ...plan,
    },
    { agent, tempRoot: tempRoot(), retry: fastRetry, ...env },
    async (done) => done,
  );
}

describe("one attempt", () => {
  it("gives the agent a home of its own outside its workspace, and the user's signal", async () => {
    const { agent, requests } = fakeAgent([{}]);
    const controller = new AbortController();
    await attempt(agent, {}, { signal: controller.signal });
    const request = requests[0]!;
    expect(relative(request.home, request.cwd).startsWith("..")).toBe(true);
    expect(request.signal).toBe(controller.signal);
  });

  it("tries no more once the user cancels, though the service was busy", async () => {
    const controller = new AbortController();
    const { agent, requests } = fakeAgent([{ outcome: "overloaded", onStart: () => controller.abort() }]);
    const done = await attempt(
      agent,
      {},
      { signal: controller.signal, retry: { ...fastRetry, attempts: 3 } },
    );
    expect([done.outcome, done.attempts, requests.length]).toEqual(["overloaded", 1, 1]);
  });

  it("keeps only the last attempt's folder with --keep-workspaces, the busy ones removed", async () => {
    const { agent } = fakeAgent([{ outcome: "overloaded" }, { write: { "card.txt": "hi" } }]);
    const done = await attempt(agent, {}, { keepWorkspace: true });
    expect(done.attempts).toBe(2);
    expect(await readdir(tempRoot())).toEqual(["card.run-1.a2"]);
    expect(done.workspaceDir).toBe(join(tempRoot(), "card.run-1.a2", "work"));
  });

  it("masks the agent's secrets in the outputs it collects", async () => {
    const { agent } = fakeAgent([{ write: { "card.txt": "key sk-abcdefghijkl\n" } }]);
    const masked: Agent = {
      ...agent,
      redactor: createRedactor([{ name: "API_KEY", value: "sk-abcdefghijkl" }]),
    };
    const done = await attempt(masked, { collectOutputs: true });
    expect(done.outcome).toBe("success");
    expect(await readFile(join(runDir(), "outputs", "card.txt"), "utf8")).toBe("key [redacted:API_KEY]\n");
  });

  it("keeps a failed run's own outcome when its outputs are also over a limit, telling both", async () => {
    const { agent } = fakeAgent([
      { outcome: "agent_error", message: "the agent gave up", write: { "big.txt": "x".repeat(100) } },
    ]);
    const done = await attempt(agent, {
      collectOutputs: true,
      outputLimits: { totalBytes: 10, fileBytes: 10, files: 10 },
    });
    expect(done.outcome).toBe("agent_error");
    expect(done.collectError).toMatch(/big\.txt/);
    expect(await readdir(join(runDir(), "outputs"))).toEqual([]);
  });

  it("writes the event log only when the plan asks for one, and notes a simulated agent's cost in the transcript", async () => {
    const { agent } = fakeAgent([{}], true);
    // A simulated agent that reports a cost for its session.
    const simulated: Agent = {
      ...agent,
      run: async (request) => {
        const result = await agent.run(request);
        const end = {
          kind: "result",
          isError: false,
          subtype: "success",
          text: "done",
          costUsd: 0.5,
        } as const;
        return { ...result, events: [...result.events, end] };
      },
    };
    await attempt(simulated);
    expect(await exists(join(runDir(), "events.jsonl"))).toBe(false);
    expect(await readFile(join(runDir(), "transcript.md"), "utf8")).toContain("cost $0 (simulated)");

    await attempt(simulated, { eventLog: true });
    expect(await exists(join(runDir(), "events.jsonl"))).toBe(true);
  });

  it("ends a run whose workspace could not be staged as a crash, with no result and no workspace to look at", async () => {
    const { agent, requests } = fakeAgent([{}]);
    const missing = join(dir, "no-such-fixture.txt");
    const done = await attempt(agent, {
      workspace: (work) => ({
        dir: work,
        skills: [],
        skillsFolder: agent.skillsFolder,
        fixtures: [{ source: missing, target: "data.txt" }],
      }),
    });
    expect(requests).toHaveLength(0);
    expect(done.outcome).toBe("crash");
    expect(done.setupError).toBe(`workspace setup failed: Fixture for data.txt not found: ${missing}`);
    expect(done).not.toHaveProperty("result");
    expect(done).not.toHaveProperty("workspaceDir");
    expect(await readdir(tempRoot())).toEqual([]);
  });

  it("ends a successful run as a time-out when collecting its outputs runs past the run's time", async () => {
    const { agent } = fakeAgent([{ write: { "card.txt": "hi" } }]);
    const late: Agent = {
      ...agent,
      run: async (request) => {
        const result = await agent.run(request);
        // The clock jumps an hour once the collection's deadline is set.
        const now = Date.now();
        vi.spyOn(Date, "now")
          .mockReturnValueOnce(now)
          .mockReturnValue(now + 3_600_000);
        return result;
      },
    };
    const done = await attempt(late, { collectOutputs: true });
    vi.restoreAllMocks();
    expect(done.outcome).toBe("timeout");
    expect(done.collectError).toMatch(/^collecting the outputs ran past the run's time limit of 60 s/);
    expect(await readdir(join(runDir(), "outputs"))).toEqual([]);
  });

  it("ends a run as a crash when its outputs cannot be collected, even though the agent removed its whole folder", async () => {
    const { agent } = fakeAgent([{ write: { "card.txt": "hi" } }]);
    const wiping: Agent = {
      ...agent,
      run: async (request) => {
        const result = await agent.run(request);
        const folder = dirname(request.cwd);
        // Only a folder inside this test's temporary root: a bug that starts the agent elsewhere removes nothing else.
        if (relative(tempRoot(), folder).startsWith("..") || !isAbsolute(folder))
          throw new Error(`the agent started outside the test's folder: ${request.cwd}`);
        await rm(folder, { recursive: true, force: true });
        return result;
      },
    };
    const done = await attempt(wiping, { collectOutputs: true });
    expect(done.outcome).toBe("crash");
    expect(done.collectError).toMatch(/^could not collect the outputs: Could not list the workspace /);
    expect(await readdir(tempRoot())).toEqual([]);
    expect(await readFile(join(runDir(), "transcript.md"), "utf8")).toContain("Make a card");
  });
});
