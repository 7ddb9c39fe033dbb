import { readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest, AgentRunResult } from "../../src/agents/agent.js";
import { type AgentEvent, totalTokens } from "../../src/agents/events.js";
import type { AgentFactoryOptions } from "../../src/agents/registry.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { withRetries } from "../../src/run/retry.js";
import type { SimServer } from "../../src/sim/index.js";
import { detectTrigger, stolenBy } from "../../src/triggers/detect.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { leftWith, processesWith } from "./process-alive.js";

/** One agent under test: how to make its adapter and how to start the simulator that stands in for its model. */
export interface ConformanceTarget {
  name: string;
  createAgent(options: AgentFactoryOptions): Promise<Agent>;
  startSim(script: SimScript): Promise<SimServer>;
  /**
   * How the agent loads a skill: by its skill tool (Claude Code's Skill: kind "skill", via "tool"; the default) or by
   * reading the SKILL.md (Codex's shell command: kind "read", via "read").
   */
  skillLoad?: "tool" | "read";
  /** A run's time limit (default 90 s): an agent that takes many CPU-seconds to start needs more on a loaded machine. */
  runTimeoutMs?: number;
  /** How long to wait for the agent's first model request or command (default 30 s). */
  startMs?: number;
}

const QUICK_MS = 90_000;

function readCmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

function toolKinds(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.kind === "tool_use" ? [e.tool ?? "none"] : []));
}

/** Registers the behaviours every agent adapter must have, run against the real agent and the simulator. */
export function describeAgentConformance(target: ConformanceTarget): void {
  describe(`agent conformance: ${target.name}`, () => {
    let dir: string;
    let cleanup: () => Promise<void>;
    let sim: SimServer | undefined;
    let runs = 0;

    beforeEach(async () => {
      ({ dir, cleanup } = await tempDir());
    });
    afterEach(async () => {
      await sim?.close();
      sim = undefined;
      await cleanup();
    });

    // A marker variable, passed on as a suite's `env` would name it, tells the run's processes apart.
    async function simAgent(script: unknown, marker?: string): Promise<Agent> {
      sim = await target.startSim(SimScript.parse(script));
      const env = marker ? { env: { ...process.env, [marker]: "1" }, passEnv: [marker] } : {};
      return target.createAgent({ simulatorUrl: sim.url, ...env });
    }

    // A fresh workspace (with the given skills installed where the agent looks) and a fresh home.
    async function request(
      agent: Agent,
      prompt: string,
      skills: Record<string, string> = {},
      extra: Partial<AgentRunRequest> = {},
      folder = dir,
    ): Promise<AgentRunRequest> {
      const run = join(folder, `run-${++runs}`);
      const tree: Record<string, string> = { "notes.txt": "Meeting notes.\n" };
      for (const [name, description] of Object.entries(skills))
        tree[join(agent.skillsFolder, name, "SKILL.md")] = skillMd(name, description, `# ${name}\n`);
      await writeTree(join(run, "work"), tree);
      await mkdir(join(run, "home"), { recursive: true });
      return {
        prompt,
        cwd: join(run, "work"),
        home: join(run, "home"),
        timeoutMs: target.runTimeoutMs ?? QUICK_MS,
        transcriptPath: join(run, "transcript.jsonl"),
        ...extra,
      };
    }

    // An overloaded run waits out the agent's own retries before it ends (Qwen Code asks seven times over some 75 s),
    // so it starts with the file, beside the other tests, on a simulator and in a folder of its own; the last test
    // checks what it gave.
    let overload: Promise<{
      outcomes: string[];
      result?: AgentRunResult;
      attempts?: number;
      error?: unknown;
    }>;
    beforeAll(() => {
      overload = (async () => {
        const own = await tempDir();
        const overloaded = await target.startSim(
          SimScript.parse({
            rules: [
              { skill: "none", fault: { status: 529, sessions: 1 }, without_skill: [{ text: "Done." }] },
            ],
          }),
        );
        try {
          const agent = await target.createAgent({ simulatorUrl: overloaded.url });
          const outcomes: string[] = [];
          const { result, attempts } = await withRetries(
            async () => {
              const run = await agent.run(await request(agent, "Hello", {}, {}, own.dir));
              outcomes.push(run.outcome);
              return run;
            },
            { policy: fastRetry },
          );
          return { outcomes, result, attempts };
        } finally {
          await overloaded.close();
          await own.cleanup();
        }
      })().catch((error: unknown) => ({ outcomes: [], error }));
    });
    afterAll(async () => {
      await overload;
    });

    it("loads a skill after other tools, and stops at once when told to", async () => {
      const agent = await simAgent({
        rules: [{ skill: "haiku", before: [{ read: "notes.txt" }], steps: [{ text: "Written." }] }],
      });
      let stoppedAt = -1;
      const seen: AgentEvent[] = [];
      const result = await agent.run(
        await request(
          agent,
          "Write a haiku",
          { haiku: "Writes haiku poems." },
          {
            streamUsage: true,
            onEvent: (event) => {
              seen.push(event);
              if (event.kind !== "skill_load" || event.skill !== "haiku") return undefined;
              stoppedAt = sim?.log.length ?? 0;
              return "stop";
            },
          },
        ),
      );
      const via = target.skillLoad ?? "tool";
      expect(result.outcome).toBe("stopped");
      expect(toolKinds(result.events)).toEqual(["read", via === "tool" ? "skill" : "read"]);
      expect(result.events.filter((e) => e.kind === "skill_load")).toEqual([
        expect.objectContaining({ kind: "skill_load", skill: "haiku", via }),
      ]);
      expect(detectTrigger(result.events, "haiku", "haiku").triggered).toBe(true);
      // At most one further model request after the skill loaded.
      expect(stoppedAt).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 300));
      expect((sim?.log.length ?? 0) - stoppedAt).toBeLessThanOrEqual(1);
      expect(seen).toEqual(result.events);
    });

    it("records a competing skill that took the query as stolen_by", async () => {
      const agent = await simAgent({ rules: [{ skill: "limerick", steps: [{ text: "A limerick." }] }] });
      const result = await agent.run(
        await request(agent, "Write a short poem", {
          "haiku-sg-1": "Writes haiku poems.",
          limerick: "Writes limericks.",
        }),
      );
      expect(result.outcome).toBe("success");
      const detection = detectTrigger(result.events, "haiku-sg-1", "haiku");
      expect(detection.triggered).toBe(false);
      expect(stolenBy(detection, "haiku")).toEqual(["limerick"]);
    });

    it("ends a hanging run with a timeout, not a verdict", async () => {
      const agent = await simAgent({ rules: [{ fault: { hang: true } }] });
      const result = await agent.run(await request(agent, "Hello", {}, { timeoutMs: 4000 }));
      expect(result.outcome).toBe("timeout");
      expect(result.result).toBeUndefined();
      expect(result.message).toMatch(/timed out/);
    });

    it("reports a crashed agent as an error", async () => {
      const binary = join(dir, "dying-agent");
      await writeFile(binary, "#!/bin/sh\necho 'segmentation fault' >&2\nexit 139\n");
      await chmod(binary, 0o755);
      sim = await target.startSim(SimScript.parse({}));
      const agent = await target.createAgent({ binary, simulatorUrl: sim.url });
      const result: AgentRunResult = await agent.run(await request(agent, "Hello"));
      expect(result.outcome).toBe("crash");
      expect(result.message).toMatch(/segmentation fault/);
    });

    it.skipIf(process.platform !== "linux")(
      "is cancelled by its abort signal and leaves no process behind",
      async () => {
        const marker = `SKILLGYM_CONFORMANCE_${process.pid}_${Date.now()}`;
        const agent = await simAgent({ rules: [{ fault: { hang: true } }] }, marker);
        const controller = new AbortController();
        const running = agent.run(await request(agent, "Hello", {}, { signal: controller.signal }));
        const until = Date.now() + (target.startMs ?? 30_000);
        while (Date.now() < until && (sim?.log.length ?? 0) === 0)
          await new Promise((r) => setTimeout(r, 100));
        expect(processesWith(marker).length).toBeGreaterThan(0);
        controller.abort();
        const result = await running;
        expect(result.outcome).toBe("cancelled");
        expect(await leftWith(marker, 5000)).toEqual([]);
      },
    );

    it.skipIf(process.platform !== "linux")(
      "leaves no command behind when a run is cancelled while its shell command runs",
      async () => {
        const marker = `SKILLGYM_CONFORMANCE_CMD_${process.pid}_${Date.now()}`;
        const agent = await simAgent(
          { rules: [{ skill: "none", without_skill: [{ bash: "sleep 45" }, { text: "Slept." }] }] },
          marker,
        );
        const controller = new AbortController();
        const running = agent.run(await request(agent, "Wait", {}, { signal: controller.signal }));
        const until = Date.now() + (target.startMs ?? 30_000);
        const sleeping = () => processesWith(marker).some((pid) => readCmdline(pid).startsWith("sleep"));
        while (Date.now() < until && !sleeping()) await new Promise((r) => setTimeout(r, 100));
        expect(sleeping()).toBe(true);
        controller.abort();
        const result = await running;
        expect(result.outcome).toBe("cancelled");
        expect(await leftWith(marker, 5000)).toEqual([]);
      },
    );

    // One run shows three behaviours (each agent start costs seconds of CPU): a plain answer with no tool call, a skill
    // the model does not pick left unloaded, and none of the user's own skills and settings shown to the run.
    it("answers a plain question without loading a skill it was not asked for, and never shows the user's own skills", async () => {
      const userHome = join(dir, "user-home");
      await writeTree(userHome, {
        ".claude/skills/users-own-skill/SKILL.md": skillMd(
          "users-own-skill",
          "The user's private skill.",
          "x",
        ),
        ".claude/settings.json": JSON.stringify({ env: { SKILLGYM_USER_SETTING: "leaked" } }),
        ".codex/skills/users-own-skill/SKILL.md": skillMd(
          "users-own-skill",
          "The user's private skill.",
          "x",
        ),
        ".agents/skills/users-own-skill/SKILL.md": skillMd(
          "users-own-skill",
          "The user's private skill.",
          "x",
        ),
        ".gemini/skills/users-own-skill/SKILL.md": skillMd(
          "users-own-skill",
          "The user's private skill.",
          "x",
        ),
      });
      const saved = process.env.HOME;
      process.env.HOME = userHome;
      try {
        // process.env.HOME is the user's stand-in home while the agent is made.
        const agent = await simAgent({ rules: [{ skill: "none", without_skill: [{ text: "Paris." }] }] });
        const result = await agent.run(
          await request(agent, "What is the capital of France?", {
            haiku: "Writes haiku poems.",
            "project-skill": "A project skill.",
          }),
        );
        expect(result.outcome).toBe("success");
        expect(result.result?.text).toContain("Paris.");
        expect(result.events.filter((e) => e.kind === "tool_use")).toEqual([]);
        expect(result.events.some((e) => e.kind === "skill_load")).toBe(false);
        expect(detectTrigger(result.events, "haiku", "haiku").triggered).toBe(false);
        expect(result.init?.skills).toContain("project-skill");
        expect(result.init?.skills).not.toContain("users-own-skill");
        expect(sim?.log.some((e) => e.prompt.includes("users-own-skill"))).toBe(false);
        // What the model was shown, not only what the agent reports.
        expect(sim?.log.some((e) => e.listed?.includes("project-skill"))).toBe(true);
        expect(sim?.log.some((e) => e.listed?.includes("users-own-skill"))).toBe(false);
      } finally {
        process.env.HOME = saved;
      }
    });

    it("writes a file inside its workspace as a write tool call, and records tokens, cost and turns", async () => {
      const agent = await simAgent({
        rules: [
          {
            skill: "none",
            without_skill: [
              { read: "notes.txt" },
              { write: { path: "out/hello.txt", content: "hi\n" } },
              { text: "Wrote it." },
            ],
          },
        ],
      });
      const req = await request(agent, "Read the notes and write hello");
      const result = await agent.run(req);
      expect(result.outcome).toBe("success");
      expect(await readFile(join(req.cwd, "out", "hello.txt"), "utf8")).toBe("hi\n");
      expect(toolKinds(result.events)).toContain("write");
      expect(totalTokens(result.result?.usage)).toBeGreaterThan(0);
      expect(result.result?.usage?.inputTokens).toBeGreaterThan(0);
      expect(result.result?.usage?.outputTokens).toBeGreaterThan(0);
      expect(result.result?.costUsd).toBeTypeOf("number");
      expect(result.result?.numTurns).toBeGreaterThanOrEqual(2);
      expect(result.init?.model).not.toBe("");
    });

    it("is retried after a 529 overload and then succeeds", async () => {
      const { outcomes, result, attempts, error } = await overload;
      if (error) throw error;
      expect(outcomes).toEqual(["overloaded", "success"]);
      expect([result?.outcome, attempts]).toEqual(["success", 2]);
    });
  });
}
