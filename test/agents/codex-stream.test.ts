import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codexArgs } from "../../src/agents/codex/args.js";
import { classifyCodexEnd } from "../../src/agents/codex/classify.js";
import { findCodexCredentials } from "../../src/agents/codex/credentials.js";
import { codexEnvironment } from "../../src/agents/codex/environment.js";
import { commandKind, parseCodexTranscript } from "../../src/agents/codex/parse-stream.js";
import { innerCommand, skillReadBy } from "../../src/agents/codex/skill-load.js";
import { costOf } from "../../src/agents/pricing.js";
import type { ProcessResult } from "../../src/agents/process/run-process.js";
import { detectTrigger, stolenBy } from "../../src/triggers/detect.js";
import { tempDir } from "../e2e/helpers.js";

const line = (value: unknown) => JSON.stringify(value);
const cmd = (id: string, command: string, done?: { output: string; exit: number }) => ({
  type: done ? "item.completed" : "item.started",
  item: {
    id,
    type: "command_execution",
    command,
    aggregated_output: done?.output ?? "",
    exit_code: done ? done.exit : null,
    status: done ? "completed" : "in_progress",
  },
});

// Lines as `codex exec --json` 0.169 wrote them against the simulator.
const transcript = [
  { type: "thread.started", thread_id: "01a2-thread" },
  {
    type: "item.completed",
    item: { id: "item_0", type: "error", message: "Model metadata for `skillgym-sim` not found." },
  },
  { type: "turn.started" },
  cmd("item_1", "/bin/bash -lc 'cat notes.txt'"),
  cmd("item_1", "/bin/bash -lc 'cat notes.txt'", { output: "Meeting notes.\n", exit: 0 }),
  { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "Writing it." } },
  {
    type: "item.started",
    item: {
      id: "item_3",
      type: "file_change",
      changes: [{ path: "/w/out/hello.txt", kind: "add" }],
      status: "in_progress",
    },
  },
  {
    type: "item.completed",
    item: {
      id: "item_3",
      type: "file_change",
      changes: [{ path: "/w/out/hello.txt", kind: "add" }],
      status: "completed",
    },
  },
  cmd("item_4", "/bin/bash -lc \"cat '/w/.agents/skills/haiku-sg-1/SKILL.md'\""),
  cmd("item_4", "/bin/bash -lc \"cat '/w/.agents/skills/haiku-sg-1/SKILL.md'\"", {
    output: "# haiku",
    exit: 0,
  }),
  { type: "item.completed", item: { id: "item_5", type: "agent_message", text: "Done." } },
  {
    type: "turn.completed",
    usage: {
      input_tokens: 200,
      cached_input_tokens: 20,
      cache_write_input_tokens: 0,
      output_tokens: 10,
      reasoning_output_tokens: 0,
    },
  },
]
  .map(line)
  .join("\n");

describe("Codex's event stream", () => {
  const events = parseCodexTranscript(transcript);

  it("turns command and file-change items into tool calls with a kind, announced when they start", () => {
    const calls = events.flatMap((e) => (e.kind === "tool_use" ? [[e.name, e.tool, e.id]] : []));
    expect(calls).toEqual([
      ["exec_command", "read", "item_1"],
      ["apply_patch", "write", "item_3"],
      ["exec_command", "read", "item_4"],
    ]);
    const results = events.flatMap((e) =>
      e.kind === "tool_result" ? [[e.toolUseId, e.isError, e.content]] : [],
    );
    expect(results[0]).toEqual(["item_1", false, "Meeting notes.\n"]);
  });

  it("follows a command that reads a staged SKILL.md with a skill_load, before the command runs", () => {
    const at = events.findIndex((e) => e.kind === "skill_load");
    expect(events[at]).toEqual({ kind: "skill_load", skill: "haiku-sg-1", via: "read", toolUseId: "item_4" });
    expect(events[at - 1]).toMatchObject({ kind: "tool_use", id: "item_4" });
    expect(detectTrigger(events, "haiku-sg-1", "haiku").triggered).toBe(true);
  });

  it("counts model responses: an item after a finished tool call starts the next one", () => {
    const ids = events.flatMap((e) =>
      (e.kind === "tool_use" || e.kind === "text") && e.messageId ? [e.messageId] : [],
    );
    expect(ids).toEqual(["response_1", "response_2", "response_2", "response_3", "response_4"]);
    const result = events.find((e) => e.kind === "result");
    expect(result).toMatchObject({
      isError: false,
      text: "Done.",
      numTurns: 4,
      usage: {
        inputTokens: 180,
        cacheReadTokens: 20,
        outputTokens: 10,
        cacheWriteTokens: 0,
      },
    });
  });

  it("reads a failed turn's HTTP status from Codex's message", () => {
    const failed = parseCodexTranscript(
      line({
        type: "turn.failed",
        error: { message: "exceeded retry limit, last status: 429 Too Many Requests" },
      }),
    );
    expect(failed).toEqual([expect.objectContaining({ kind: "result", isError: true, apiErrorStatus: 429 })]);
  });
});

describe("which shell commands load a skill", () => {
  it.each([
    ["/bin/bash -lc 'cat /w/.agents/skills/pdf/SKILL.md'", "pdf"],
    ["/bin/bash -lc \"sed -n '1,200p' .agents/skills/pdf/SKILL.md\"", "pdf"],
    ["/bin/bash -lc 'head -50 ~/.codex/skills/pdf/SKILL.md | cat'", "pdf"],
    ["cat r1/pdf/SKILL.md", "pdf"],
    // One reader among the programs is enough.
    ["/bin/bash -lc 'cat .agents/skills/pdf/SKILL.md | wc -l'", "pdf"],
  ])("%s loads %s", (command, skill) => {
    expect(skillReadBy(command)).toBe(skill);
  });

  it.each([
    ["/bin/bash -lc 'cat a'", "cat a"],
    ["bash  -lc  'cat a'", "cat a"],
    ['zsh -c "cat a"', "cat a"],
    // Not one whole wrapper: left as it came.
    ["echo /bin/bash -lc 'cat a'", "echo /bin/bash -lc 'cat a'"],
    ["/bin/bash -lc 'cat a' && rm b", "/bin/bash -lc 'cat a' && rm b"],
    ["/bin/bash -lc 'cat a'b", "/bin/bash -lc 'cat a'b"],
  ])("the command inside %j is %j", (command, inner) => {
    expect(innerCommand(command)).toBe(inner);
  });

  it.each([
    "/bin/bash -lc 'ls .agents/skills/pdf/SKILL.md'",
    "/bin/bash -lc 'cat .agents/skills/pdf/README.md'",
    "/bin/bash -lc 'cat /home/run/.codex/skills/.system/imagegen/SKILL.md'",
    "/bin/bash -lc 'cat notes.txt'",
  ])("%s loads none of ours", (command) => {
    expect(skillReadBy(command)).toBeUndefined();
  });

  it("records a competing skill read the same way as stolen_by", () => {
    const events = parseCodexTranscript(
      line(cmd("i", "/bin/bash -lc 'cat /w/.agents/skills/limerick/SKILL.md'")),
    );
    expect(stolenBy(detectTrigger(events, "haiku-sg-1", "haiku"), "haiku")).toEqual(["limerick"]);
  });

  it("gives plain reads and searches their kind, anything else shell", () => {
    expect(commandKind("/bin/bash -lc 'sed -n 1,10p a.txt'")).toBe("read");
    expect(commandKind("/bin/bash -lc 'rg foo src | head'")).toBe("search");
    expect(commandKind("/bin/bash -lc 'python3 x.py > out.txt'")).toBe("shell");
  });
});

describe("Codex's command line and environment", () => {
  it("sends a run's requests to its own base URL when given one: the sim provider's base_url, else openai_base_url", () => {
    const proxy = "http://127.0.0.1:7/";
    const simulated = codexArgs({ prompt: "p", simulatorUrl: "http://127.0.0.1:9", apiBaseUrl: proxy });
    expect(simulated.find((a) => a.startsWith("model_providers.skillgym-sim="))).toContain(
      `base_url="${proxy}"`,
    );
    expect(simulated.some((a) => a.startsWith("openai_base_url="))).toBe(false);
    const real = codexArgs({ prompt: "p", apiBaseUrl: proxy });
    expect(real).toContain(`openai_base_url="${proxy}"`);
    expect(real.some((a) => a.startsWith("model_provider"))).toBe(false);
    expect(codexArgs({ prompt: "p" }).some((a) => a.startsWith("openai_base_url="))).toBe(false);
  });

  it("gives each run its own HOME and CODEX_HOME and, under the sim, no real key nor base URL", () => {
    const env = codexEnvironment({
      base: {
        OPENAI_API_KEY: "sk-real",
        OPENAI_BASE_URL: "https://x",
        CODEX_HOME: "/me/.codex",
        PATH: "/bin",
      },
      home: "/runs/1/home",
      credentials: { kind: "simulator" },
      simulatorUrl: "http://127.0.0.1:9",
    });
    expect(env).toMatchObject({ HOME: "/runs/1/home", CODEX_HOME: "/runs/1/home/.codex", PATH: "/bin" });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.OPENAI_BASE_URL).toBeUndefined();
  });

  it("hands an OPENAI_API_KEY to `codex exec` as CODEX_API_KEY, the one it reads, and keeps a CODEX_API_KEY given", () => {
    const real = (base: NodeJS.ProcessEnv) =>
      codexEnvironment({
        base,
        home: "/runs/1/home",
        credentials: { kind: "env", variable: "OPENAI_API_KEY" },
      });
    expect(real({ OPENAI_API_KEY: "sk-openai" })).toMatchObject({
      OPENAI_API_KEY: "sk-openai",
      CODEX_API_KEY: "sk-openai",
    });
    expect(real({ OPENAI_API_KEY: "sk-openai", CODEX_API_KEY: "sk-codex" }).CODEX_API_KEY).toBe("sk-codex");
    const login = codexEnvironment({
      base: {},
      home: "/runs/1/home",
      credentials: { kind: "auth-file", file: "/me/.codex/auth.json" },
    });
    expect(login.CODEX_API_KEY).toBeUndefined();
  });
});

describe("Codex's credentials", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it("takes OPENAI_API_KEY, else the login in $CODEX_HOME/auth.json, else fails with NO_CREDENTIALS", async () => {
    expect(await findCodexCredentials({ OPENAI_API_KEY: "sk-1", HOME: dir })).toEqual({
      kind: "env",
      variable: "OPENAI_API_KEY",
    });
    await expect(findCodexCredentials({ HOME: dir })).rejects.toMatchObject({ code: "NO_CREDENTIALS" });
    await mkdir(join(dir, ".codex"), { recursive: true });
    await writeFile(join(dir, ".codex", "auth.json"), "{}");
    expect(await findCodexCredentials({ HOME: dir })).toEqual({
      kind: "auth-file",
      file: join(dir, ".codex", "auth.json"),
    });
  });
});

describe("how a Codex run ended", () => {
  const proc: ProcessResult = {
    exitCode: 1,
    signal: null,
    timedOut: false,
    cancelled: false,
    stopped: false,
    durationMs: 10,
    startedAt: "",
    endedAt: "",
    stderrTail: "",
  };
  const failed = (text: string, status?: number) => ({
    kind: "result" as const,
    isError: true,
    subtype: "error",
    text,
    ...(status ? { apiErrorStatus: status } : {}),
  });

  it.each([
    [failed("exceeded retry limit, last status: 429 Too Many Requests", 429), "rate_limited"],
    [failed("unexpected status 529 <unknown status code>", 529), "overloaded"],
    [failed("We're currently experiencing high demand, which may cause temporary errors."), "server_error"],
    [failed("unexpected status 401 Unauthorized", 401), "auth_error"],
    // The status decides before the words: each of these says nothing the patterns know.
    [failed("boom", 429), "rate_limited"],
    [failed("boom", 500), "server_error"],
    [failed("boom", 403), "auth_error"],
    [failed("boom", 400), "agent_error"],
    // Without a status, the words.
    [failed("Invalid API key given"), "auth_error"],
    [failed("invalid api key", 400), "agent_error"],
    [failed("The model is overloaded"), "overloaded"],
    [failed("Too many requests, slow down"), "rate_limited"],
    [failed("boom"), "agent_error"],
  ])("%j is %s", (result, outcome) => {
    expect(classifyCodexEnd(proc, result).outcome).toBe(outcome);
  });

  it("gives the turn's text as the message, else its subtype", () => {
    expect(classifyCodexEnd(proc, failed("boom", 500)).message).toBe("boom");
    expect(classifyCodexEnd(proc, failed("", 500)).message).toBe("error");
  });

  it("is a crash when the process ends without a turn's end", () => {
    expect(
      classifyCodexEnd({ ...proc, exitCode: 139, stderrTail: "segmentation fault" }, undefined),
    ).toMatchObject({
      outcome: "crash",
      message: expect.stringContaining("segmentation fault"),
    });
  });

  it("prices known OpenAI models, not the simulator's", () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 0,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
    };
    expect(costOf("gpt-5.1-codex", usage)).toBeCloseTo(1.25, 6);
    expect(costOf("skillgym-sim", usage)).toBe(0);
    expect(costOf("some-future-model", usage)).toBeUndefined();
  });
});
