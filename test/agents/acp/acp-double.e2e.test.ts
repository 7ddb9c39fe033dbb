import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest } from "../../../src/agents/agent.js";
import type { AgentEvent } from "../../../src/agents/events.js";
import { createAgent } from "../../../src/agents/registry.js";
import { detectTrigger } from "../../../src/triggers/detect.js";
import { skillMd, tempDir, writeTree } from "../../e2e/helpers.js";
import { leftWith, processesWith } from "../process-alive.js";

// The acp adapter against a scripted ACP agent of our own (test/acp-double/agent.mjs, a test double): what the real
// agents cannot be made to do on purpose (ask for a file outside the workspace) is checked here.
const DOUBLE = join(import.meta.dirname, "..", "..", "acp-double", "agent.mjs");

const refusals = (events: AgentEvent[]) => events.filter((e) => e.kind === "refused");

describe("the acp adapter against a scripted ACP agent", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let runs = 0;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  async function agentWith(env: Record<string, string> = {}, models?: string[]): Promise<Agent> {
    return createAgent(`acp:node ${DOUBLE}`, {
      env: { ...process.env, ...env },
      passEnv: Object.keys(env),
      ...(models ? { models } : {}),
    });
  }

  async function request(prompt: string, extra: Partial<AgentRunRequest> = {}): Promise<AgentRunRequest> {
    const run = join(dir, `run-${++runs}`);
    await writeTree(join(run, "work"), {
      "notes.txt": "Meeting notes.\n",
      ".agents/skills/haiku/SKILL.md": skillMd("haiku", "Writes haiku poems.", "# haiku\n"),
    });
    await mkdir(join(run, "home"), { recursive: true });
    return {
      prompt,
      cwd: join(run, "work"),
      home: join(run, "home"),
      timeoutMs: 60_000,
      transcriptPath: join(run, "transcript.jsonl"),
      ...extra,
    };
  }

  it("answers a prompt, with the agent's usage and no price for an unknown model", async () => {
    const agent = await agentWith();
    expect(agent.name).toBe("acp-node");
    const result = await agent.run(await request("hello"));
    expect(result.outcome).toBe("success");
    expect(result.result).toMatchObject({ text: "Hello.", usage: { inputTokens: 12, outputTokens: 3 } });
    expect(result.result).not.toHaveProperty("costUsd");
    expect(result.init).toMatchObject({ version: "1.0.0", skills: ["haiku"] });
  });

  it("refuses a permission request outside the workspace and records it", async () => {
    const agent = await agentWith();
    const result = await agent.run(await request("permission-outside"));
    expect(result.outcome).toBe("success");
    expect(result.result?.text).toBe("outcome: no");
    expect(refusals(result.events)).toEqual([
      {
        kind: "refused",
        what: "permission",
        target: "Write /etc/skillgym-outside.txt",
        reason: "/etc/skillgym-outside.txt is outside the workspace",
        toolUseId: "edit-1",
      },
    ]);
    // Recorded in the transcript too, as skillgym's own line.
    const transcript = await readFile(join(dir, `run-${runs}`, "transcript.jsonl"), "utf8");
    expect(transcript).toContain('"from":"skillgym","refused"');
  });

  it("allows a permission request inside the workspace, once", async () => {
    const agent = await agentWith();
    const result = await agent.run(await request("permission-inside"));
    expect(result.result?.text).toBe("outcome: yes");
    expect(refusals(result.events)).toEqual([]);
    expect(result.events.filter((e) => e.kind === "tool_use")).toHaveLength(1);
  });

  it("refuses a client file read outside the workspace, and serves one inside it", async () => {
    const agent = await agentWith();
    const outside = await agent.run(await request("read-outside"));
    expect(outside.result?.text).toMatch(
      /^refused: skillgym refused to read \/etc\/hostname: outside the workspace/,
    );
    expect(refusals(outside.events)).toEqual([
      { kind: "refused", what: "read", target: "/etc/hostname", reason: "outside the workspace" },
    ]);
    const inside = await agent.run(await request("read-inside"));
    expect(inside.result?.text).toBe("read: Meeting notes.");
  });

  it("offers no terminal, and records the agent's asking for one", async () => {
    const agent = await agentWith();
    const result = await agent.run(await request("terminal"));
    expect(result.result?.text).toMatch(/^terminal: /);
    expect(result.result?.text).not.toBe("terminal: given");
    expect(refusals(result.events)).toMatchObject([{ what: "request", target: "terminal/create" }]);
  });

  it("takes a read of the skill's SKILL.md for its load", async () => {
    const agent = await agentWith();
    const result = await agent.run(await request("skill"));
    expect(result.events.filter((e) => e.kind === "skill_load")).toEqual([
      { kind: "skill_load", skill: "haiku", via: "read", toolUseId: "read-1" },
    ]);
    expect(detectTrigger(result.events, "haiku", "haiku").triggered).toBe(true);
  });

  it.skipIf(process.platform !== "linux")(
    "on cancel sends session/cancel, then ends the process tree, leaving no process",
    async () => {
      const marker = `SKILLGYM_ACP_DOUBLE_${process.pid}_${Date.now()}`;
      const log = join(dir, "double.log");
      await writeFile(log, "");
      const agent = await agentWith({ [marker]: "1", ACP_DOUBLE_LOG: log });
      const controller = new AbortController();
      const running = agent.run(await request("hang", { signal: controller.signal }));
      const sleeping = () => processesWith(marker).length >= 2;
      const until = Date.now() + 30_000;
      while (Date.now() < until && !sleeping()) await new Promise((r) => setTimeout(r, 100));
      expect(sleeping()).toBe(true);
      controller.abort();
      const result = await running;
      expect(result.outcome).toBe("cancelled");
      expect(result.result).toBeUndefined();
      expect(await readFile(log, "utf8")).toBe("cancelled\n");
      expect(await leftWith(marker, 5000)).toEqual([]);
    },
  );

  it("ends a hanging turn at its time limit with a timeout, not a verdict", async () => {
    const agent = await agentWith();
    const result = await agent.run(await request("hang", { timeoutMs: 3000 }));
    expect(result.outcome).toBe("timeout");
    expect(result.result).toBeUndefined();
  });

  it("is refused under --simulate, since an unknown agent cannot be pointed at the simulator", async () => {
    await expect(createAgent(`acp:node ${DOUBLE}`, { simulatorUrl: "http://127.0.0.1:1" })).rejects.toThrow(
      /cannot run under --simulate/,
    );
    await expect(createAgent("acp:no-such-agent-anywhere --acp", {})).rejects.toThrow(
      /was not found on PATH/,
    );
  });

  describe("--model", () => {
    it("chooses the model through the agent's session config option", async () => {
      const log = join(dir, "double.log");
      await writeFile(log, "");
      const env = { ACP_DOUBLE_MODELS: "model-a,model-b", ACP_DOUBLE_LOG: log };
      const agent = await agentWith(env, ["model-b"]);
      const result = await agent.run(await request("model", { model: "model-b" }));
      expect(result.result?.text).toBe("model: model-b");
      expect(result.init?.model).toBe("model-b");
      expect(await readFile(log, "utf8")).toBe("model model-b\n");
    });

    it("chooses it with session/set_model from an agent that offers the older models state", async () => {
      const env = { ACP_DOUBLE_MODELS: "model-a,model-b", ACP_DOUBLE_MODEL_STATE: "1" };
      const agent = await agentWith(env, ["model-a"]);
      const result = await agent.run(await request("model", { model: "model-a" }));
      expect(result.result?.text).toBe("model: model-a");
    });

    it("leaves the agent's own model alone when none is asked for", async () => {
      const agent = await agentWith({ ACP_DOUBLE_MODELS: "model-a,model-b" });
      const result = await agent.run(await request("model"));
      expect(result.result?.text).toBe("model: none");
    });

    it("refuses, before any run, a model the agent does not offer, naming the ones it does", async () => {
      await expect(agentWith({ ACP_DOUBLE_MODELS: "model-a,model-b" }, ["model-c"])).rejects.toThrow(
        "--model model-c: node " + DOUBLE + " does not offer this model (it offers: model-a, model-b)",
      );
    });

    it("refuses any model, before any run, for an agent that offers no model selection", async () => {
      const refused = agentWith({}, ["model-a"]);
      await expect(refused).rejects.toMatchObject({ code: "USAGE" });
      await expect(refused).rejects.toThrow(/^--model model-a: node \S+ offers no model selection over ACP$/);
    });
  });
});
