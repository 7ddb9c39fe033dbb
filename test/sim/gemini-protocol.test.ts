import { afterEach, describe, expect, it } from "vitest";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../src/sim/server.js";

let sim: SimServer | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(script: unknown): Promise<string> {
  sim = await startSim({ script: SimScript.parse(script) });
  return sim.url;
}

const skillXml = (name: string, description: string, location: string) =>
  `  <skill>\n    <name>${name}</name>\n    <description>${description}</description>\n    <location>${location}</location>\n  </skill>`;

// The shape Gemini CLI 0.61.0 sends: skills in the system instruction, folders in a context block before the prompt.
function geminiRequest(options: { prompt: string; home: string; history?: object[]; tools?: boolean }) {
  const system = [
    "You are an interactive CLI agent.",
    "<available_skills>",
    skillXml(
      "skill-creator",
      "Guide for creating effective skills.",
      "/x/gemini-cli/bundle/builtin/skill-creator/SKILL.md",
    ),
    skillXml(
      "csv-summary-sg-1a2b",
      "Summarize a CSV file: rows &amp; columns.",
      "/w/.gemini/skills/csv-summary-sg-1a2b/SKILL.md",
    ),
    skillXml("limerick", "Writes limericks.", "/w/.gemini/skills/limerick/SKILL.md"),
    "</available_skills>",
  ].join("\n");
  const context = `<session_context>\nThis is the Gemini CLI.\nThe project's temporary directory is: ${options.home}/.gemini/tmp/w\n- **Workspace Directories:**\n  - /w\n</session_context>`;
  return {
    contents: [
      { role: "user", parts: [{ text: context }, { text: options.prompt }] },
      ...(options.history ?? []),
    ],
    systemInstruction: { role: "user", parts: [{ text: system }] },
    tools:
      options.tools === false
        ? []
        : [{ functionDeclarations: [{ name: "activate_skill" }, { name: "read_file" }] }],
  };
}

async function generate(url: string, body: object, stream = true) {
  const method = stream ? "streamGenerateContent?alt=sse" : "generateContent";
  const response = await fetch(`${url}/v1beta/models/skillgym-sim:${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!stream || !response.ok) return { status: response.status, json: JSON.parse(text) };
  const data = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  return { status: response.status, json: data[0] };
}

const partsOf = (json: { candidates: { content: { parts: object[] } }[] }) =>
  json.candidates[0]!.content.parts;

describe("skillgym sim: the Gemini API wire", () => {
  it("reads Gemini CLI's skill list and workspace, picks a skill on its own (never a built-in), and activates it", async () => {
    const url = await start({
      rules: [
        {
          skill: "auto",
          steps: [{ write: { path: "out.md", content: "ok" } }, { bash: "ls" }, { text: "Done." }],
        },
      ],
    });
    const prompt = "Summarize the CSV file data.csv: rows and columns";
    const first = await generate(url, geminiRequest({ prompt, home: "/runs/1" }));
    expect(partsOf(first.json)).toEqual([
      { functionCall: { name: "activate_skill", args: { name: "csv-summary-sg-1a2b" } } },
    ]);
    expect(first.json.usageMetadata.promptTokenCount).toBeGreaterThan(0);
    expect(first.json.usageMetadata.candidatesTokenCount).toBeGreaterThan(0);
    const call = (name: string, args: object) => ({
      role: "model",
      parts: [{ functionCall: { name, args } }],
    });
    const answer = (name: string) => ({
      role: "user",
      parts: [{ functionResponse: { name, response: { output: "ok" } } }],
    });
    const history = [call("activate_skill", {}), answer("activate_skill")];
    const second = await generate(url, geminiRequest({ prompt, home: "/runs/1", history }));
    expect(partsOf(second.json)).toEqual([
      { functionCall: { name: "write_file", args: { file_path: "/w/out.md", content: "ok" } } },
    ]);
    history.push(call("write_file", {}), answer("write_file"));
    const third = await generate(url, geminiRequest({ prompt, home: "/runs/1", history }), false);
    expect(partsOf(third.json)).toEqual([
      { functionCall: { name: "run_shell_command", args: { command: "ls", description: "Scripted step" } } },
    ]);
    history.push(call("run_shell_command", {}), answer("run_shell_command"));
    const last = await generate(url, geminiRequest({ prompt, home: "/runs/1", history }));
    expect(partsOf(last.json)).toEqual([{ text: "Done." }]);
    expect(sim?.log.map((e) => [e.turn, e.skill, e.listed])).toEqual(
      Array.from({ length: 4 }, (_, turn) => [
        turn,
        "csv-summary-sg-1a2b",
        ["csv-summary-sg-1a2b", "limerick"],
      ]),
    );
    expect(sim?.log[0]?.prompt).toBe(prompt);
    // A fresh conversation has no history: the function responses after the prompt are no earlier turns.
    expect(sim?.log.filter((e) => e.history !== undefined)).toEqual([]);
  });

  it("matches plain and ~partial skill names, and leaves a built-in alone for auto", async () => {
    const url = await start({
      rules: [
        { match: "partial", skill: "~csv-summary", steps: [] },
        { match: "plain", skill: "limerick", before: [{ read: "notes.txt" }] },
        { skill: "auto" },
      ],
    });
    const nameOf = async (prompt: string) =>
      partsOf((await generate(url, geminiRequest({ prompt, home: `/runs/${prompt}` }))).json)[0];
    expect(await nameOf("partial")).toEqual({
      functionCall: { name: "activate_skill", args: { name: "csv-summary-sg-1a2b" } },
    });
    expect(await nameOf("plain")).toEqual({
      functionCall: { name: "read_file", args: { file_path: "/w/notes.txt" } },
    });
    expect(await nameOf("create effective skills guide")).toEqual({ text: "Done (simulated run)." });
  });

  it("tells runs apart by the home in their context block, so a trigger pattern advances per run", async () => {
    const url = await start({ rules: [{ skill: "limerick", trigger_pattern: [true, false] }] });
    const first = await generate(url, geminiRequest({ prompt: "poem", home: "/runs/a" }));
    const again = await generate(url, geminiRequest({ prompt: "poem", home: "/runs/a" }));
    const other = await generate(url, geminiRequest({ prompt: "poem", home: "/runs/b" }));
    expect(partsOf(first.json)[0]).toHaveProperty("functionCall.name", "activate_skill");
    expect(partsOf(again.json)[0]).toHaveProperty("functionCall.name", "activate_skill");
    expect(partsOf(other.json)[0]).toHaveProperty("text");
  });

  it("reads a resumed session's earlier turns as history, so a rule's `history` matches; tool answers are no prompt", async () => {
    const url = await start({
      rules: [
        { match: "draft the notes", history: "already written", skill: "none" },
        { match: "draft the notes", skill: "limerick", steps: [{ text: "Drafted." }] },
      ],
    });
    // As Gemini CLI 0.61 sends a session loaded with --session-file: the context block leads the first earlier turn.
    const prior = (home: string) => ({
      role: "user",
      parts: [
        {
          text: `<session_context>\nThe project's temporary directory is: ${home}/.gemini/tmp/w\n- **Workspace Directories:**\n  - /w\n</session_context>`,
        },
        { text: "Can you look at the parser tests?" },
      ],
    });
    const resumed = (home: string, said: string, after: object[] = []) => ({
      contents: [
        prior(home),
        { role: "model", parts: [{ text: said }] },
        { role: "user", parts: [{ text: "Draft the notes for v1.3" }] },
        ...after,
      ],
      systemInstruction: geminiRequest({ prompt: "", home }).systemInstruction,
      tools: [{ functionDeclarations: [{ name: "activate_skill" }] }],
    });
    const stopped = await generate(url, resumed("/runs/1", "The release notes are already written."));
    expect(partsOf(stopped.json)[0]).toHaveProperty("text");
    const fires = await generate(url, resumed("/runs/2", "They pass."));
    expect(partsOf(fires.json)).toEqual([
      { functionCall: { name: "activate_skill", args: { name: "limerick" } } },
    ]);
    // The skill's answer comes back as a function response: the query stays the prompt, the history stays the same.
    const answered = await generate(
      url,
      resumed("/runs/2", "They pass.", [
        { role: "model", parts: [{ functionCall: { name: "activate_skill", args: {} } }] },
        {
          role: "user",
          parts: [
            { functionResponse: { name: "activate_skill", response: { output: "ok" } } },
            { text: "The skill is active." },
          ],
        },
      ]),
    );
    expect(partsOf(answered.json)).toEqual([{ text: "Drafted." }]);
    expect(sim?.log[0]?.history).toEqual([
      "Can you look at the parser tests?",
      "The release notes are already written.",
    ]);
    expect(sim?.log.map((e) => [e.prompt, e.turn, e.skill])).toEqual([
      ["Draft the notes for v1.3", 0, undefined],
      ["Draft the notes for v1.3", 0, "limerick"],
      ["Draft the notes for v1.3", 1, "limerick"],
    ]);
  });

  it("answers faults in the Gemini API's error shape", async () => {
    const url = await start({
      rules: [
        { match: "busy", fault: { status: 529 } },
        { match: "quota", fault: { status: 429 } },
      ],
    });
    const busy = await generate(url, geminiRequest({ prompt: "busy", home: "/r" }));
    expect(busy).toEqual({
      status: 529,
      json: { error: { code: 529, message: expect.stringContaining("529"), status: "UNAVAILABLE" } },
    });
    const quota = await generate(url, geminiRequest({ prompt: "quota", home: "/r" }), false);
    expect(quota.json.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
  });

  it("gives a plain answer to a request without tools", async () => {
    const url = await start({ rules: [{ skill: "limerick" }] });
    const side = await generate(url, geminiRequest({ prompt: "x", home: "/r", tools: false }), false);
    expect(partsOf(side.json)).toEqual([{ text: "Simulated answer." }]);
    expect(sim?.log[0]?.action).toBe("generate-content");
  });
});
