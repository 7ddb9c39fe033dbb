import { afterEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../src/sim/server.js";

const prompt = "Convert this PDF document to plain text";
let sim: SimServer | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

// Gemini CLI's request: a context block naming the run's home and workspace (its only session mark), then the prompt.
const captured = JSON.stringify({
  contents: [
    {
      role: "user",
      parts: [
        {
          text: "<session_context>\nThe project's temporary directory is: /tmp/t/q1-r1.run-1.a1/h/.gemini/tmp/w\n- **Workspace Directories:**\n  - /tmp/t/q1-r1.run-1.a1/work\n</session_context>",
        },
        { text: prompt },
      ],
    },
  ],
  systemInstruction: {
    role: "user",
    parts: [
      {
        text: "You are an interactive CLI agent.\n<available_skills>\n  <skill>\n    <name>pdf-tools</name>\n    <description>Extract text from PDF documents.</description>\n    <location>/w/.gemini/skills/pdf-tools/SKILL.md</location>\n  </skill>\n</available_skills>",
      },
    ],
  },
  tools: [{ functionDeclarations: [{ name: "activate_skill" }, { name: "run_shell_command" }] }],
});

// The same body each time, as a replay sends it: Gemini CLI has no session header, only the replay header differs.
async function ask(url: string, replayHeader?: string): Promise<string[]> {
  const response = await fetch(`${url}/v1beta/models/skillgym-sim:generateContent`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(replayHeader ? { "x-skillgym-replay": replayHeader } : {}),
    },
    body: captured,
  });
  const json = (await response.json()) as {
    candidates: { content: { parts: { functionCall?: { name: string; args: { name?: string } } }[] } }[];
  };
  return json.candidates[0]!.content.parts.flatMap((p) =>
    p.functionCall ? [p.functionCall.args.name ?? p.functionCall.name] : [],
  );
}

describe("the sim and replayed requests on the Gemini API wire", () => {
  it("fits a `replayed: true` rule only to a replay and a `replayed: false` rule only to the agent", async () => {
    sim = await startSim({
      script: SimScript.parse({
        rules: [
          { match: "pdf", replayed: true, skill: "none", without_skill: [{ bash: "ls" }] },
          { match: "pdf", replayed: false, skill: "pdf-tools" },
        ],
      }),
    });
    expect(await ask(sim.url, "run-1")).toEqual(["run_shell_command"]);
    expect(await ask(sim.url)).toEqual(["pdf-tools"]);
  });

  it("plays each replayed run of one captured request as the run its header names, not the capture run", async () => {
    sim = await startSim({
      script: SimScript.parse({
        rules: [{ match: "pdf", skill: "pdf-tools", trigger_pattern: [true, false] }],
      }),
    });
    // The body names the capture run's folder (run 1) and is the same for every replay of this query.
    expect(await ask(sim.url, "run-1")).toEqual(["pdf-tools"]);
    expect(await ask(sim.url, "run-2")).toEqual([]);
    expect(await ask(sim.url, "run-3")).toEqual(["pdf-tools"]);
    expect(await ask(sim.url, "run-4")).toEqual([]);
    // The agent's own request names its folder's run.
    expect(await ask(sim.url)).toEqual(["pdf-tools"]);
    expect(sim.log.map((e) => e.session)).toEqual([...new Set(sim.log.map((e) => e.session))]);
  });
});
