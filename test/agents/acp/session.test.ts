import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acpMode, createAcpAgent } from "../../../src/agents/acp/agent.js";
import { classifyAcpEnd } from "../../../src/agents/acp/classify.js";
import { createAcpCommandAgent } from "../../../src/agents/acp/entry.js";
import { genericProfile } from "../../../src/agents/acp/generic-profile.js";
import { runAcpSession } from "../../../src/agents/acp/session.js";
import type { Agent, AgentRunRequest } from "../../../src/agents/agent.js";
import type { AgentEvent } from "../../../src/agents/events.js";
import { SIM_MODEL } from "../../../src/contracts/sim-model.js";
import { createRedactor } from "../../../src/redact.js";
import { skillMd, tempDir, writeTree } from "../../e2e/helpers.js";

// skillgym's ACP client in process against the scripted ACP agent (test/acp-double/agent.mjs, a test double): each
// run starts one node process, so the runs are few and each checks its whole result.
const DOUBLE = join(import.meta.dirname, "..", "..", "acp-double", "agent.mjs");
const FAKE_KEY = "fake-openai-key-0123456789";

let dir: string;
let cleanup: () => Promise<void>;
let runs = 0;
let agent: Agent;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  agent = await createAcpCommandAgent(`acp:node ${DOUBLE}`, {
    // The double offers its models as a session config option: a run that names none records the current one.
    env: { PATH: process.env.PATH, OPENAI_API_KEY: FAKE_KEY, ACP_DOUBLE_MODELS: "model-a,model-b" },
    passEnv: ["OPENAI_API_KEY", "ACP_DOUBLE_MODELS"],
  });
});
afterAll(() => cleanup());

async function request(prompt: string, extra: Partial<AgentRunRequest> = {}): Promise<AgentRunRequest> {
  const run = join(dir, `run-${++runs}`);
  await writeTree(join(run, "work"), {
    "notes.txt": "Meeting notes.\n",
    ".agents/skills/haiku/SKILL.md": skillMd("haiku", "Writes haiku poems.", "# haiku\n"),
  });
  await mkdir(join(run, "home"), { recursive: true });
  return { prompt, cwd: join(run, "work"), home: join(run, "home"), timeoutMs: 60_000, ...extra };
}

const mode = `ACP client: node ${DOUBLE}; permissions allowed inside the workspace, refused outside it and for the web`;
const init = (extra: Partial<Extract<AgentEvent, { kind: "init" }>> = {}) => ({
  kind: "init",
  model: "model-a",
  tools: [],
  skills: ["haiku"],
  sessionId: "session-1",
  version: "1.0.0",
  mode,
  ...extra,
});
const usage = { inputTokens: 12, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };
const linesOf = async (path: string) =>
  (await readFile(path, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const result = (text: string, numTurns: number) => ({
  kind: "result",
  isError: false,
  subtype: "end_turn",
  text,
  numTurns,
  usage,
});

describe("an ACP agent of its command (acp:node <double>)", () => {
  it("is named by its program and records how it approves", () => {
    expect(agent).toMatchObject({ name: "acp-node", mode, skillsFolder: ".agents/skills", simulated: false });
    expect(agent.binary).toBe(DOUBLE);
    expect(acpMode({ label: "x" } as never)).toBe(
      "ACP client: x; permissions allowed inside the workspace, refused outside it and for the web",
    );
    expect(agent.redactor.names).toEqual(["OPENAI_API_KEY"]);
  });

  it("chooses the model a run asks for over the protocol, and records it", async () => {
    const ran = await agent.run(await request("model", { model: "model-b" }));
    expect(ran.init?.model).toBe("model-b");
    expect(ran.result?.text).toBe("model: model-b");
  });

  it("a profile that chooses no model over the protocol, offers no file methods and warns", async () => {
    const initLog = join(dir, "initialize-own.jsonl");
    const profile = await genericProfile(["node", DOUBLE], {
      env: { PATH: process.env.PATH, ACP_DOUBLE_MODELS: "model-a,model-b", ACP_DOUBLE_INIT_LOG: initLog },
      passEnv: ["ACP_DOUBLE_MODELS", "ACP_DOUBLE_INIT_LOG"],
    });
    const own = createAcpAgent({
      name: "acp-own",
      profile: { ...profile, modelOverAcp: false, clientFs: false, warnings: ["mind the gap"] },
      simulated: false,
    });
    expect(own.warnings).toEqual(["mind the gap"]);
    const ran = await own.run(await request("model", { model: "model-b" }));
    expect(ran.init?.model).toBe("model-b");
    expect(ran.result?.text).toBe("model: none");
    expect(JSON.parse(await readFile(initLog, "utf8")).clientCapabilities.fs).toEqual({
      readTextFile: false,
      writeTextFile: false,
    });
  });

  it("answers a prompt led by the system prompt, and writes the conversation, masked, to the transcript", async () => {
    const req = await request(`hello ${FAKE_KEY}`, {
      systemPrompt: "Be brief.",
      transcriptPath: join(dir, "transcript-1.jsonl"),
    });
    const ran = await agent.run(req);
    expect(ran.outcome).toBe("success");
    expect(ran.events).toEqual([
      init(),
      { kind: "text", text: "Hello.", messageId: "turn-1" },
      result("Hello.", 1),
    ]);
    const lines = (await readFile(join(dir, "transcript-1.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      from: "client",
      message: {
        jsonrpc: "2.0",
        id: expect.anything(),
        method: "initialize",
        params: {
          protocolVersion: expect.any(Number),
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
          clientInfo: { name: "skillgym", title: "skillgym", version: "0" },
        },
      },
    });
    expect(lines.filter((l) => l.from === "skillgym")).toEqual([
      { from: "skillgym", init: init() },
      {
        from: "skillgym",
        end: {
          response: { stopReason: "end_turn", usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } },
        },
      },
    ]);
    const prompt = lines.find((l) => l.message?.method === "session/prompt");
    expect(prompt.message.params).toEqual({
      sessionId: "session-1",
      prompt: [{ type: "text", text: "Be brief.\n\nhello [redacted:OPENAI_API_KEY]" }],
    });
    expect(lines.find((l) => l.message?.method === "session/new").message.params).toEqual({
      cwd: req.cwd,
      mcpServers: [],
    });
  });

  it("refuses a permission outside the workspace: the call, the refusal, its failure, the answer", async () => {
    const ran = await agent.run(await request("permission-outside"));
    expect(ran.events).toEqual([
      init(),
      {
        kind: "tool_use",
        id: "edit-1",
        name: "edit",
        input: {
          title: "Write /etc/skillgym-outside.txt",
          file_path: "/etc/skillgym-outside.txt",
          paths: ["/etc/skillgym-outside.txt"],
        },
        messageId: "turn-1",
        tool: "edit",
      },
      {
        kind: "refused",
        what: "permission",
        target: "Write /etc/skillgym-outside.txt",
        reason: "/etc/skillgym-outside.txt is outside the workspace",
        toolUseId: "edit-1",
      },
      { kind: "tool_result", toolUseId: "edit-1", isError: true, content: "" },
      { kind: "text", text: "outcome: no", messageId: "turn-2" },
      result("outcome: no", 2),
    ]);
  });

  it("allows a permission inside the workspace once, recording it as skillgym's line", async () => {
    const transcriptPath = join(dir, "transcript-allowed.jsonl");
    const req = await request("permission-inside", { transcriptPath });
    const ran = await agent.run(req);
    const target = join(req.cwd, "a.txt");
    const call = {
      toolCallId: "edit-1",
      title: `Write ${target}`,
      kind: "edit",
      locations: [{ path: target }],
    };
    expect(ran.events).toEqual([
      init(),
      {
        kind: "tool_use",
        id: "edit-1",
        name: "edit",
        input: { title: `Write ${target}`, file_path: target, paths: [target] },
        messageId: "turn-1",
        tool: "edit",
      },
      { kind: "tool_result", toolUseId: "edit-1", isError: false, content: "" },
      { kind: "text", text: "outcome: yes", messageId: "turn-2" },
      result("outcome: yes", 2),
    ]);
    const lines = (await readFile(transcriptPath, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.from === "skillgym" && "allowed" in l)).toEqual([
      { from: "skillgym", allowed: call },
    ]);
  });

  it("refuses a method it does not offer (a terminal), and records the asking", async () => {
    const ran = await agent.run(await request("terminal"));
    expect(ran.events.filter((e) => e.kind === "refused")).toEqual([
      { kind: "refused", what: "request", target: "terminal/create", reason: "skillgym does not offer it" },
    ]);
    expect(ran.result?.text).toMatch(/^terminal: .*[Mm]ethod not found/);
  });

  it("a missing file is 'not found' to the agent; an error it answers with ends the turn, its data's details named", async () => {
    const req = await request("read-missing");
    const ran = await agent.run(req);
    const missing = join(req.cwd, "missing.txt");
    expect(ran.events.slice(1)).toEqual([
      { kind: "text", text: `refused: Resource not found: ${missing}`, messageId: "turn-1" },
      {
        kind: "result",
        isError: true,
        subtype: "error",
        text: "Internal error: 429 Too Many Requests",
        numTurns: 1,
        apiErrorStatus: 429,
      },
    ]);
    expect(ran.outcome).toBe("rate_limited");
  });

  it("a read-only run: a write through the client is refused and recorded", async () => {
    const transcriptPath = join(dir, "transcript-read-only.jsonl");
    const ran = await agent.run(await request("write-inside", { tools: "read-only", transcriptPath }));
    const target = join(dir, `run-${runs}`, "work", "a.txt");
    const answer = (await linesOf(transcriptPath)).find((l) => l.from === "client" && l.message.error);
    expect(answer.message.error).toMatchObject({
      code: -32000,
      message: `skillgym refused to write ${target}: a read-only run may not write`,
    });
    expect(ran.init).toEqual(init({ mode: `${mode}; read-only` }));
    expect(ran.events.slice(1)).toEqual([
      { kind: "refused", what: "write", target, reason: "a read-only run may not write" },
      {
        kind: "text",
        text: `write: skillgym refused to write ${target}: a read-only run may not write`,
        messageId: "turn-1",
      },
      result(`write: skillgym refused to write ${target}: a read-only run may not write`, 1),
    ]);
  });
});

describe("runAcpSession", () => {
  const base = (req: AgentRunRequest, extra: Partial<Parameters<typeof runAcpSession>[0]> = {}) =>
    runAcpSession({
      command: process.execPath,
      args: [DOUBLE],
      env: { PATH: process.env.PATH, ...extra.env },
      request: req,
      redactor: createRedactor([]),
      skills: [],
      mode: "m",
      classify: classifyAcpEnd,
      ...extra,
    });

  it("chooses a model the session offers", async () => {
    const log = join(dir, "double.log");
    await writeFile(log, "");
    const chosen = await base(await request("model"), {
      env: { ACP_DOUBLE_MODELS: "model-a,model-b", ACP_DOUBLE_LOG: log },
      chooseModel: "model-b",
      model: "model-b",
      clientFs: false,
      sessionMode: "plan",
    });
    expect(chosen.events).toEqual([
      {
        kind: "init",
        model: "model-b",
        tools: [],
        skills: [],
        sessionId: "session-1",
        version: "1.0.0",
        mode: "m",
      },
      { kind: "text", text: "model: model-b", messageId: "turn-1" },
      result("model: model-b", 1),
    ]);
    expect(await readFile(log, "utf8")).toBe("model model-b\n");
  });

  it("a run told to stop at its init sends no prompt; the session's model from the older models state", async () => {
    const ran = await base(
      await request("hello", { onEvent: (e) => (e.kind === "init" ? "stop" : undefined) }),
      {
        env: { ACP_DOUBLE_MODELS: "model-b,model-a", ACP_DOUBLE_MODEL_STATE: "1" },
      },
    );
    expect(ran.events).toEqual([
      {
        kind: "init",
        model: "model-b",
        tools: [],
        skills: [],
        sessionId: "session-1",
        version: "1.0.0",
        mode: "m",
      },
    ]);
    expect(ran.result).toBeUndefined();
    expect(ran.outcome).toBe("stopped");
  });

  it("an agent that offers no model selection: the turn ends in an error result, offering no file methods", async () => {
    const transcriptPath = join(dir, "transcript-fs.jsonl");
    const ran = await base(await request("hello", { transcriptPath }), {
      chooseModel: "model-x",
      clientFs: false,
    });
    expect(ran.events).toEqual([
      {
        kind: "result",
        isError: true,
        subtype: "error",
        text: "the agent offers no model selection",
        numTurns: 0,
      },
    ]);
    expect(ran.outcome).not.toBe("success");
    const first = JSON.parse((await readFile(transcriptPath, "utf8")).split("\n")[0] ?? "");
    expect(first.message.params.clientCapabilities).toEqual({
      fs: { readTextFile: false, writeTextFile: false },
      terminal: false,
    });
    await rm(transcriptPath);
  });

  it("switches to the session mode asked for when offered; the session's model is its model option's", async () => {
    const log = join(dir, "double-modes.log");
    await writeFile(log, "");
    const transcriptPath = join(dir, "transcript-modes.jsonl");
    const ran = await base(await request("hello", { transcriptPath }), {
      env: { ACP_DOUBLE_MODELS: "model-a,model-b", ACP_DOUBLE_MODES: "default,plan", ACP_DOUBLE_LOG: log },
      sessionMode: "plan",
    });
    expect(ran.init?.model).toBe("model-a");
    expect(ran.result?.text).toBe("Hello.");
    expect(await readFile(log, "utf8")).toBe("mode plan\n");
    const lines = await linesOf(transcriptPath);
    expect(lines.find((l) => l.message?.method === "session/prompt").message.params.prompt).toEqual([
      { type: "text", text: "hello" },
    ]);
    expect(lines.find((l) => l.from === "agent")).toEqual({
      from: "agent",
      message: expect.objectContaining({ result: expect.objectContaining({ agentInfo: expect.anything() }) }),
    });
  });

  it("asks for no mode the agent does not offer; a session that names no model records it as unknown", async () => {
    const log = join(dir, "double-no-mode.log");
    await writeFile(log, "");
    const ran = await base(await request("hello"), {
      env: { ACP_DOUBLE_MODES: "default,plan", ACP_DOUBLE_LOG: log },
      sessionMode: "yolo",
    });
    expect(ran.init?.model).toBe("unknown");
    expect(ran.result?.text).toBe("Hello.");
    expect(await readFile(log, "utf8")).toBe("");
  });

  it("records a call first seen in a permission request before it runs, and prices the run's model", async () => {
    const req = await request("permission-unannounced");
    const ran = await base(req, { model: SIM_MODEL });
    const target = join(req.cwd, "a.txt");
    expect(ran.events.slice(1)).toEqual([
      {
        kind: "tool_use",
        id: "edit-1",
        name: "edit",
        input: { title: `Write ${target}`, file_path: target, paths: [target] },
        messageId: "turn-1",
        tool: "edit",
      },
      { kind: "tool_result", toolUseId: "edit-1", isError: false, content: "" },
      { kind: "text", text: "outcome: yes", messageId: "turn-2" },
      { ...result("outcome: yes", 2), costUsd: 0 },
    ]);
  });

  it("a refused call with no title is named by its id, and the refusal is skillgym's line", async () => {
    const transcriptPath = join(dir, "transcript-untitled.jsonl");
    const ran = await base(await request("permission-untitled", { transcriptPath }));
    const refused = {
      kind: "refused",
      what: "permission",
      target: "edit-1",
      reason: "/etc/skillgym-outside.txt is outside the workspace",
      toolUseId: "edit-1",
    };
    expect(ran.events.filter((e) => e.kind === "refused")).toEqual([refused]);
    expect(ran.result?.text).toBe("outcome: no");
    expect((await linesOf(transcriptPath)).filter((l) => l.from === "skillgym" && "refused" in l)).toEqual([
      { from: "skillgym", refused },
    ]);
  });

  it("a run whose signal is aborted is cancelled: the agent is told, then ended", async () => {
    const log = join(dir, "double-abort.log");
    await writeFile(log, "");
    const controller = new AbortController();
    const onEvent = (e: AgentEvent) => void (e.kind === "init" && controller.abort());
    const ran = await base(await request("hang", { signal: controller.signal, onEvent, timeoutMs: 30_000 }), {
      env: { ACP_DOUBLE_LOG: log },
    });
    expect(ran.events.map((e) => e.kind)).toEqual(["init"]);
    expect(ran.outcome).toBe("cancelled");
    expect(await readFile(log, "utf8")).toBe("cancelled\n");
  });

  it("a finished turn ends the agent's input, so an agent that outlives a terminate signal still ends by itself", async () => {
    const stubborn = `process.on("SIGTERM", () => {}); import(${JSON.stringify(pathToFileURL(DOUBLE).href)});`;
    const ran = await base(await request("hello"), { args: ["-e", stubborn] });
    expect(ran.result?.text).toBe("Hello.");
    expect(ran.outcome).toBe("success");
    expect(ran.process).toMatchObject({ exitCode: 0, signal: null });
  });
});
