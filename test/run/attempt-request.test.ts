import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest } from "../../src/agents/agent.js";
import { type Attempt, type AttemptPlan, runAttempt } from "../../src/run/attempt.js";
import { fastRetry, tempDir } from "../e2e/helpers.js";
import { fakeAgent } from "../tune/fake-agent.js";

// What one attempt hands its agent and records, on an agent in this process.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function attempt(agent: Agent, plan: Partial<AttemptPlan> = {}): Promise<Attempt> {
  return runAttempt(
    {
      name: "card",
      runNumber: 1,
      runDir: join(dir, "run"),
      workspace: (work) => ({ dir: work, skills: [], skillsFolder: agent.skillsFolder, fixtures: [] }),
      prompt: "Make a card",
      timeoutMs: 60_000,
      heading: "card run",
      ...plan,
    },
    { agent, tempRoot: join(dir, "tmp"), retry: fastRetry },
    async (done) => done,
  );
}

describe("one attempt's request to its agent", () => {
  it("passes the usage stream, the prior conversation and the event listener only when the plan has them", async () => {
    const { agent, requests } = fakeAgent([{}]);
    const history: AgentRunRequest["history"] = [{ role: "user", content: "earlier" }];
    const onEvent: AgentRunRequest["onEvent"] = () => undefined;
    await attempt(agent, { streamUsage: true, history, onEvent });
    expect(requests[0]).toMatchObject({ streamUsage: true, history, onEvent, prompt: "Make a card" });
    await attempt(agent);
    expect(requests[1]).not.toHaveProperty("streamUsage");
    expect(requests[1]).not.toHaveProperty("history");
    expect(requests[1]).not.toHaveProperty("onEvent");
  });
});
