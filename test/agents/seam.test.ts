import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseTranscript } from "../../src/agents/claude-code/normalise.js";
import { readEventLog, writeEventLog } from "../../src/agents/event-log.js";
import type { AgentEvent } from "../../src/agents/events.js";
import {
  agentNames,
  builtinSkillsOf,
  createAgent,
  isToolNamed,
  parseStoredTranscript,
  skillLoadOf,
} from "../../src/agents/registry.js";
import { gradeChecks } from "../../src/grade/checks/grade-checks.js";
import { readEvents } from "../../src/grade/grade-iteration.js";
import { createRedactor } from "../../src/redact.js";
import { detectTrigger } from "../../src/triggers/detect.js";
import { tempDir } from "../e2e/helpers.js";
import { contextFor } from "../grade/checks/workspace.js";

const line = (value: unknown) => JSON.stringify(value);
const assistant = (content: unknown[]) => line({ type: "assistant", message: { id: "msg_1", content } });
const transcript = [
  line({ type: "system", subtype: "init", model: "m", tools: [], skills: ["pdf"] }),
  assistant([
    { type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } },
    { type: "tool_use", id: "t2", name: "Read", input: { file_path: "/w/.claude/skills/pdf/SKILL.md" } },
    { type: "tool_use", id: "t3", name: "Skill", input: { skill: "docx" } },
    { type: "tool_use", id: "t4", name: "TodoWrite", input: {} },
  ]),
].join("\n");

describe("Claude Code's events, normalised", () => {
  it("gives every tool call its kind and follows a skill load with a skill_load event", () => {
    const events = parseTranscript(transcript);
    expect(events.flatMap((e) => (e.kind === "tool_use" ? [[e.name, e.tool]] : []))).toEqual([
      ["Bash", "shell"],
      ["Read", "read"],
      ["Skill", "skill"],
      ["TodoWrite", "other"],
    ]);
    expect(events.filter((e) => e.kind === "skill_load")).toEqual([
      { kind: "skill_load", skill: "pdf", via: "read", toolUseId: "t2" },
      { kind: "skill_load", skill: "docx", via: "tool", toolUseId: "t3" },
    ]);
    expect(detectTrigger(events, "docx", "docx")).toEqual({ triggered: true, loaded: ["pdf", "docx"] });
  });

  it("is what the registry reads a stored transcript with", async () => {
    expect(agentNames).toContain("claude-code");
    expect(parseStoredTranscript("claude-code", transcript)).toEqual(parseTranscript(transcript));
    expect(() => parseStoredTranscript("no-such-agent", "")).toThrow(/unknown agent "no-such-agent"/);
    await expect(createAgent("no-such-agent")).rejects.toThrow(/known: claude-code/);
  });

  it("lets checks name a tool by its kind or by the agent's own name", async () => {
    const ctx = contextFor("/nonexistent", { events: parseTranscript(transcript) });
    const graded = await gradeChecks(
      [
        { type: "tool_called", name: "shell" },
        { type: "tool_called", name: "Bash", max: 1 },
        { type: "tool_called", name: "edit" },
        { type: "skill_invoked", skill: "docx" },
      ],
      ctx,
    );
    expect(graded.map((g) => g.passed)).toEqual([true, true, false, true]);
  });
});

describe("the registry's agent-neutral rules", () => {
  it("reads a tool call recorded before adapters gave kinds by Claude Code's rule, and a kinded one not at all", () => {
    const legacy: AgentEvent = { kind: "tool_use", id: "t1", name: "Skill", input: { skill: "docx" } };
    expect(skillLoadOf(legacy)).toBe("docx");
    expect(skillLoadOf({ ...legacy, tool: "skill" })).toBeUndefined();
    expect(skillLoadOf({ kind: "skill_load", skill: "pdf", via: "read" })).toBe("pdf");
  });

  it("matches a suite's Claude Code tool name against another agent's call of that kind only", () => {
    const shell = { kind: "tool_use", id: "t1", name: "exec_command", input: {}, tool: "shell" } as const;
    expect([isToolNamed(shell, "Bash"), isToolNamed(shell, "Read"), isToolNamed(shell, "shell")]).toEqual([
      true,
      false,
      true,
    ]);
    expect(isToolNamed({ ...shell, name: "BashOutput" }, "Bash")).toBe(false);
  });

  it("lists each agent's own skills, and none for an agent it does not know", () => {
    for (const name of agentNames) expect(builtinSkillsOf(name).length).toBeGreaterThan(0);
    expect(builtinSkillsOf("no-such-agent")).toEqual([]);
    expect(builtinSkillsOf(undefined)).toEqual([]);
  });
});

describe("a run's event log", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it("stores normalised events with credentials masked, and re-grading reads it before the transcript", async () => {
    const secret = "sk-ant-secret-value-123";
    const events: AgentEvent[] = [
      { kind: "text", text: `the key is ${secret}` },
      { kind: "skill_load", skill: "pdf", via: "tool" },
    ];
    await writeEventLog(join(dir, "events.jsonl"), events, createRedactor([{ name: "KEY", value: secret }]));
    expect(await readFile(join(dir, "events.jsonl"), "utf8")).not.toContain(secret);
    await writeFile(join(dir, "transcript.jsonl"), transcript);
    expect(await readEvents(dir)).toEqual([
      { kind: "text", text: "the key is [redacted:KEY]" },
      { kind: "skill_load", skill: "pdf", via: "tool" },
    ]);
    expect(await readEventLog(join(dir, "missing.jsonl"))).toBeUndefined();
  });

  it("falls back to the raw transcript, read by the recorded agent, in a run folder without one", async () => {
    const old = join(dir, "old-run");
    await mkdir(old);
    await writeFile(join(old, "transcript.jsonl"), transcript);
    expect(await readEvents(old, "claude-code")).toEqual(parseTranscript(transcript));
    expect(await readEvents(join(dir, "nothing"))).toEqual([]);
  });

  it("writes usage in the neutral shape, and reads an older log's Anthropic-named usage into it", async () => {
    const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 300, cacheWriteTokens: 20 };
    await writeEventLog(
      join(dir, "events.jsonl"),
      [{ kind: "usage", phase: "start", usage }],
      createRedactor([]),
    );
    expect(JSON.parse(await readFile(join(dir, "events.jsonl"), "utf8"))).toEqual({
      kind: "usage",
      phase: "start",
      usage,
    });

    // As runs wrote it before usage had one shape.
    const old = join(dir, "old-run");
    await mkdir(old);
    const anthropicNamed = {
      input_tokens: 10,
      output_tokens: 5,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 300,
    };
    const lines = [
      { kind: "text", text: "hi", messageId: "m1" },
      { kind: "usage", phase: "delta", usage: { ...anthropicNamed, input_tokens: 0 } },
      {
        kind: "result",
        isError: false,
        subtype: "success",
        text: "hi",
        costUsd: 0.01,
        usage: anthropicNamed,
      },
    ];
    await writeFile(join(old, "events.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    expect(await readEvents(old)).toEqual([
      { kind: "text", text: "hi", messageId: "m1" },
      { kind: "usage", phase: "delta", usage: { ...usage, inputTokens: 0 } },
      { kind: "result", isError: false, subtype: "success", text: "hi", costUsd: 0.01, usage },
    ]);
  });
});
