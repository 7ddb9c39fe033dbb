import { describe, expect, it } from "vitest";
import { copilotArgs } from "../../src/agents/copilot/args.js";
import { classifyCopilotEnd } from "../../src/agents/copilot/classify.js";
import { findCopilotCredentials } from "../../src/agents/copilot/credentials.js";
import { parseCopilotTranscript } from "../../src/agents/copilot/parse-stream.js";
import { withUsage } from "../../src/agents/copilot/usage.js";
import { modelIdOf, openCodeArgs } from "../../src/agents/opencode/args.js";
import { classifyOpenCodeEnd } from "../../src/agents/opencode/classify.js";
import { runConfig } from "../../src/agents/opencode/environment.js";
import { parseOpenCodeTranscript } from "../../src/agents/opencode/parse-stream.js";
import { costOf } from "../../src/agents/pricing.js";
import type { ProcessResult } from "../../src/agents/process/run-process.js";
import { detectTrigger, stolenBy } from "../../src/triggers/detect.js";

const line = (value: unknown) => JSON.stringify(value);
const ended: ProcessResult = {
  exitCode: 1,
  signal: null,
  timedOut: false,
  cancelled: false,
  stopped: false,
  durationMs: 1000,
  startedAt: "2026-11-26T00:00:00.000Z",
  endedAt: "2026-11-26T00:00:01.000Z",
  stderrTail: "",
};

// Lines as `opencode run --format json` 1.18.33 wrote them against a local server.
const step = (n: number) => ({
  type: "step_start",
  sessionID: "ses_1",
  part: { messageID: `msg_${n}`, type: "step-start" },
});
const finish = (n: number, reason: string) => ({
  type: "step_finish",
  sessionID: "ses_1",
  part: {
    messageID: `msg_${n}`,
    type: "step-finish",
    reason,
    tokens: { total: 110, input: 100, output: 8, reasoning: 2, cache: { write: 0, read: 40 } },
    cost: 0,
  },
});
const tool = (n: number, name: string, input: object, state = "completed") => ({
  type: "tool_use",
  sessionID: "ses_1",
  part: {
    type: "tool",
    tool: name,
    callID: `call_${n}`,
    messageID: `msg_${n}`,
    state:
      state === "completed"
        ? { status: "completed", input, output: "done" }
        : { status: "error", input, error: "ripgrep execution failed" },
  },
});

describe("OpenCode's stream", () => {
  const transcript = [
    step(1),
    tool(1, "read", { filePath: "/w/notes.txt" }),
    finish(1, "tool-calls"),
    step(2),
    tool(2, "skill", { name: "haiku" }),
    finish(2, "tool-calls"),
    step(3),
    { type: "text", sessionID: "ses_1", part: { messageID: "msg_3", type: "text", text: "Written." } },
    finish(3, "stop"),
  ]
    .map(line)
    .join("\n");

  it("reads calls, the skill load, each step's tokens and a result at the last step", () => {
    const events = parseOpenCodeTranscript(transcript);
    expect(events[0]).toMatchObject({ kind: "init", sessionId: "ses_1" });
    expect(events.filter((e) => e.kind === "tool_use").map((e) => [e.name, e.tool])).toEqual([
      ["read", "read"],
      ["skill", "skill"],
    ]);
    expect(events.filter((e) => e.kind === "skill_load")).toEqual([
      { kind: "skill_load", skill: "haiku", via: "tool", toolUseId: "call_2" },
    ]);
    expect(events.at(-1)).toMatchObject({
      kind: "result",
      isError: false,
      subtype: "stop",
      text: "Written.",
      numTurns: 3,
      usage: { inputTokens: 300, outputTokens: 30, cacheReadTokens: 120, cacheWriteTokens: 0 },
    });
    expect(detectTrigger(events, "haiku", "haiku").triggered).toBe(true);
  });

  it("counts a read of another skill's SKILL.md as that skill taking the query", () => {
    const events = parseOpenCodeTranscript(
      [step(1), tool(1, "read", { filePath: "/w/.agents/skills/limerick/SKILL.md" }), finish(1, "stop")]
        .map(line)
        .join("\n"),
    );
    const detection = detectTrigger(events, "haiku-sg-1", "haiku");
    expect(detection.triggered).toBe(false);
    expect(stolenBy(detection, "haiku")).toEqual(["limerick"]);
  });

  it("names a failed tool call's error, and an API error's status for the outcome", () => {
    const failed = parseOpenCodeTranscript(line(tool(1, "skill", { name: "haiku" }, "error")));
    expect(failed.find((e) => e.kind === "tool_result")).toMatchObject({
      isError: true,
      content: "ripgrep execution failed",
    });
    const error = {
      type: "error",
      sessionID: "ses_1",
      error: { name: "APIError", data: { message: "probe 529", statusCode: 529, isRetryable: true } },
    };
    const result = parseOpenCodeTranscript(line(error)).find((e) => e.kind === "result");
    expect(result).toMatchObject({ isError: true, subtype: "APIError", apiErrorStatus: 529 });
    if (result?.kind !== "result") throw new Error("no result");
    expect(classifyOpenCodeEnd(ended, result).outcome).toBe("overloaded");
    expect(classifyOpenCodeEnd(ended, { ...result, apiErrorStatus: 429 }).outcome).toBe("rate_limited");
    expect(classifyOpenCodeEnd(ended, { ...result, apiErrorStatus: 401 }).outcome).toBe("auth_error");
  });

  it("takes a refused login from the error's type or from its message", () => {
    const refused = {
      kind: "result" as const,
      isError: true,
      subtype: "ProviderAuthError",
      text: "Request failed",
      numTurns: 0,
    };
    expect(classifyOpenCodeEnd(ended, refused)).toEqual({ outcome: "auth_error", message: "Request failed" });
    expect(classifyOpenCodeEnd(ended, { ...refused, text: "" })).toEqual({
      outcome: "auth_error",
      message: "ProviderAuthError",
    });
    const byMessage = { ...refused, subtype: "APIError", text: "invalid api key" };
    expect(classifyOpenCodeEnd(ended, byMessage)).toEqual({
      outcome: "auth_error",
      message: "invalid api key",
    });
    expect(classifyOpenCodeEnd(ended, { ...byMessage, text: "model not found" }).outcome).toBe("agent_error");
  });

  it("names the workspace and leaves the prompt out of its arguments (it goes to stdin)", () => {
    const args = openCodeArgs({ cwd: "/w", model: "anthropic/claude-sonnet-4-5" });
    expect(args).toEqual([
      "run",
      "--format",
      "json",
      "--title",
      "skillgym",
      "--dir",
      "/w",
      "--model",
      "anthropic/claude-sonnet-4-5",
    ]);
  });

  it("denies every tool but reading and searching in a read-only run", () => {
    const config = runConfig({ tools: "read-only" }) as { permission: Record<string, string> };
    expect(config.permission).toMatchObject({ edit: "deny", bash: "deny", skill: "deny", webfetch: "deny" });
    expect(Object.values(config.permission)).not.toContain("allow");
    const evalConfig = runConfig({ tools: "eval" }) as { permission: Record<string, string> };
    expect(evalConfig.permission).toMatchObject({ edit: "allow", bash: "allow", skill: "allow" });
  });

  it("prices a provider/model name by its model id; an unknown model has no cost", () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(costOf(modelIdOf("anthropic/claude-sonnet-4-5"), usage)).toBeCloseTo(3, 6);
    expect(costOf(modelIdOf("someprovider/some-model"), usage)).toBeUndefined();
    expect(modelIdOf("anthropic/claude-sonnet-4-5")).toBe("claude-sonnet-4-5");
    expect(modelIdOf("openrouter/anthropic/claude-sonnet-4-5")).toBe("anthropic/claude-sonnet-4-5");
    expect(modelIdOf("claude-sonnet-4-5")).toBe("claude-sonnet-4-5");
    expect(modelIdOf("/gpt-5")).toBe("gpt-5");
  });
});

// Lines as `copilot -p … --output-format json` 1.0.102 wrote them against a local server.
const skillsLoaded = {
  type: "session.skills_loaded",
  data: {
    skills: [
      { name: "haiku", source: "project", enabled: true, path: "/w/.github/skills/haiku/SKILL.md" },
      {
        name: "github-pr-media",
        source: "builtin",
        enabled: true,
        path: "/c/builtin/github-pr-media/SKILL.md",
      },
    ],
  },
};
const message = (n: number, content: string, requests: { name: string; arguments: object }[] = []) => ({
  type: "assistant.message",
  data: {
    messageId: `m${n}`,
    model: "skillgym-sim",
    content,
    toolRequests: requests.map((r, i) => ({ toolCallId: `call_${n}_${i}`, type: "function", ...r })),
  },
});
const complete = (id: string, success = true) => ({
  type: "tool.execution_complete",
  data: success
    ? { toolCallId: id, success, result: { content: "Meeting notes.\n" } }
    : { toolCallId: id, success, error: { message: "Tool 'create' does not exist.", code: "failure" } },
});
const result = (exitCode: number) => ({
  type: "result",
  sessionId: "s1",
  exitCode,
  usage: { premiumRequests: 0, totalApiDurationMs: 330, sessionDurationMs: 3382 },
});

describe("Copilot CLI's stream", () => {
  it("announces a skill call with the model's message, before it runs, and ends at the result", () => {
    const events = parseCopilotTranscript(
      [
        skillsLoaded,
        message(1, "", [{ name: "view", arguments: { path: "/w/notes.txt" } }]),
        complete("call_1_0"),
        message(2, "", [{ name: "skill", arguments: { skill: "haiku" } }]),
        { type: "tool.execution_start", data: { toolCallId: "call_2_0", toolName: "skill" } },
        message(3, "Written."),
        result(0),
      ]
        .map(line)
        .join("\n"),
    );
    expect(events[0]).toMatchObject({ kind: "init", skills: ["haiku", "github-pr-media"] });
    const kinds = events.map((e) => e.kind);
    expect(kinds.indexOf("skill_load")).toBeLessThan(kinds.lastIndexOf("unknown"));
    expect(events.filter((e) => e.kind === "tool_use").map((e) => [e.name, e.tool])).toEqual([
      ["view", "read"],
      ["skill", "skill"],
    ]);
    expect(events.find((e) => e.kind === "tool_result")).toMatchObject({
      isError: false,
      content: "Meeting notes.\n",
    });
    expect(events.at(-1)).toMatchObject({
      kind: "result",
      isError: false,
      text: "Written.",
      numTurns: 3,
      durationMs: 3382,
    });
    expect(detectTrigger(events, "haiku", "haiku").triggered).toBe(true);
  });

  it("turns a session error before the result into the run's error, with its status", () => {
    const events = parseCopilotTranscript(
      [
        skillsLoaded,
        {
          type: "session.error",
          data: { errorType: "query", message: "Failed … Last error: 529 probe 529", statusCode: 529 },
        },
        result(1),
      ]
        .map(line)
        .join("\n"),
    );
    const end = events.at(-1);
    expect(end).toMatchObject({ kind: "result", isError: true, subtype: "query", apiErrorStatus: 529 });
    if (end?.kind !== "result") throw new Error("no result");
    expect(classifyCopilotEnd(ended, end).outcome).toBe("overloaded");
  });

  it("takes tokens from the usage file and prices each model; an unknown model has no cost", () => {
    const base = { kind: "result" as const, isError: false, subtype: "success", text: "" };
    const tokens = { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(withUsage(base, new Map([["claude-sonnet-4.6", tokens]])).costUsd).toBeCloseTo(3, 6);
    const unknown = withUsage(base, new Map([["mai-code-1.1-flash", tokens]]));
    expect(unknown.usage?.inputTokens).toBe(1_000_000);
    expect(unknown.costUsd).toBeUndefined();
  });

  it("offers a read-only run only view, grep and glob", () => {
    const args = copilotArgs({ prompt: "p", tools: "read-only", usageFile: "/u.json" });
    expect(args).toContain("--available-tools=view,grep,glob");
    expect(copilotArgs({ prompt: "p", tools: "eval", usageFile: "/u.json" }).join(" ")).not.toContain(
      "--available-tools",
    );
  });

  it("needs a GitHub token or a provider of the user's own; a keychain login cannot be passed on (exit 3)", () => {
    expect(findCopilotCredentials({ GH_TOKEN: "ghp_x" })).toEqual({
      kind: "github-token",
      variable: "GH_TOKEN",
    });
    expect(findCopilotCredentials({ COPILOT_PROVIDER_BASE_URL: "http://x/v1" }).kind).toBe("provider");
    expect(() => findCopilotCredentials({})).toThrow(/no credentials for GitHub Copilot CLI/);
  });
});
