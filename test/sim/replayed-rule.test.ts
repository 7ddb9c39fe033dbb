import { afterEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../src/sim/server.js";
import { claudeRequest, type MessageBody, toolUses } from "./sim-client.js";

const prompt = "Convert this PDF document to plain text";
let sim: SimServer | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

// A request as skillgym's replay sends it: the agent's body, a session of its own, the replay header naming the run.
async function ask(url: string, session: string, replayHeader?: string, cwd?: string): Promise<string[]> {
  const response = await fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-claude-code-session-id": session,
      ...(replayHeader ? { "x-skillgym-replay": replayHeader } : {}),
    },
    body: JSON.stringify(claudeRequest({ prompt, ...(cwd ? { cwd } : {}) })),
  });
  return toolUses((await response.json()) as MessageBody).map((t) => String(t.input.skill ?? t.name));
}

describe("the sim and replayed requests", () => {
  it("fits a `replayed: true` rule only to a replay and a `replayed: false` rule only to the agent", async () => {
    sim = await startSim({
      script: SimScript.parse({
        rules: [
          { match: "pdf", replayed: true, skill: "none", without_skill: [{ bash: "ls" }] },
          { match: "pdf", replayed: false, skill: "pdf-tools" },
        ],
      }),
    });
    expect(await ask(sim.url, "agent")).toEqual(["pdf-tools"]);
    expect(await ask(sim.url, "replay", "run-1")).toEqual(["Bash"]);
  });

  it("takes a replay's run number from its header, not from the capture run's folder", async () => {
    sim = await startSim({
      script: SimScript.parse({
        rules: [{ match: "pdf", skill: "pdf-tools", trigger_pattern: [true, false] }],
      }),
    });
    // The captured request names the capture run's folder (run 1); the header names the run it stands for.
    const captureCwd = "/tmp/t/q1-r1.run-1.a1/work";
    expect(await ask(sim.url, "r1", "run-1", captureCwd)).toEqual(["pdf-tools"]);
    expect(await ask(sim.url, "r2", "run-2", captureCwd)).toEqual([]);
    expect(await ask(sim.url, "r3", "run-3", captureCwd)).toEqual(["pdf-tools"]);
    expect(await ask(sim.url, "a2", undefined, captureCwd)).toEqual(["pdf-tools"]);
  });
});
