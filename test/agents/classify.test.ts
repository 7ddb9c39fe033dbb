import { describe, expect, it } from "vitest";
import type { ResultEvent } from "../../src/agents/agent.js";
import { type ErrorWords, resultByWords } from "../../src/agents/classify-end.js";
import { classifyEnd } from "../../src/agents/claude-code/classify.js";
import { parseStreamLine } from "../../src/agents/claude-code/parse-stream.js";
import type { ProcessResult } from "../../src/agents/process/run-process.js";

function proc(overrides: Partial<ProcessResult> = {}): ProcessResult {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    cancelled: false,
    stopped: false,
    durationMs: 1500,
    startedAt: "2025-01-01T00:00:00.000Z",
    endedAt: "2025-01-01T00:00:01.500Z",
    stderrTail: "",
    ...overrides,
  };
}

function failed(text: string, apiErrorStatus?: number): ResultEvent {
  return {
    kind: "result",
    isError: true,
    subtype: "success",
    text,
    ...(apiErrorStatus !== undefined ? { apiErrorStatus } : {}),
  };
}

const ok: ResultEvent = { kind: "result", isError: false, subtype: "success", text: "All done." };

describe("classifyEnd", () => {
  it("is success for a result without error", () => {
    expect(classifyEnd(proc(), ok)).toEqual({ outcome: "success" });
  });

  it("reads the API status of a failed result", () => {
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 529 Overloaded", 529))).toEqual({
      outcome: "overloaded",
      message: "API Error: 529 Overloaded",
    });
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 429", 429)).outcome).toBe("rate_limited");
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 401", 401)).outcome).toBe("auth_error");
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 403", 403)).outcome).toBe("auth_error");
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 500 Internal", 500)).outcome).toBe(
      "server_error",
    );
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 503", 503)).outcome).toBe("server_error");
  });

  // A 5xx is the service's fault and worth a retry, whatever words its body happens to contain.
  it("lets a 5xx status win over auth words in the error text", () => {
    const text =
      'API Error: 500 {"type":"error","error":{"type":"api_error","message":"authentication backend unavailable"}}';
    expect(classifyEnd(proc({ exitCode: 1 }), failed(text, 500)).outcome).toBe("server_error");
  });

  it("reads the result text when there is no status", () => {
    const outcome = (text: string) => classifyEnd(proc({ exitCode: 1 }), failed(text)).outcome;
    expect(outcome("Invalid API key · Please run /login")).toBe("auth_error");
    expect(outcome("OAuth token has expired")).toBe("auth_error");
    expect(outcome('API Error: {"type":"overloaded_error","message":"Overloaded"}')).toBe("overloaded");
    expect(outcome("API Error: Rate limit reached")).toBe("rate_limited");
    expect(outcome("API Error: Connection error. fetch failed: ECONNREFUSED")).toBe("server_error");
    expect(outcome("Something else went wrong")).toBe("agent_error");
  });

  it("trusts a status that is not an auth failure over login words in the text", () => {
    expect(
      classifyEnd(proc({ exitCode: 1 }), failed("API Error: 400 Invalid API key · Please run /login", 400)),
    ).toEqual({
      outcome: "agent_error",
      message: "API Error: 400 Invalid API key · Please run /login",
    });
  });

  it("is agent_error for any other failed result, with the subtype when there is no text", () => {
    expect(classifyEnd(proc({ exitCode: 1 }), failed("API Error: 400 bad request", 400))).toEqual({
      outcome: "agent_error",
      message: "API Error: 400 bad request",
    });
    expect(classifyEnd(proc({ exitCode: 1 }), { ...failed(""), subtype: "error_during_execution" })).toEqual({
      outcome: "agent_error",
      message: "error_during_execution",
    });
  });

  // Claude Code's error results carry `errors: string[]` and no `result` (e.g. subtype error_max_turns).
  it("keeps the reason of an error result that lists `errors`", () => {
    const [event] = parseStreamLine(
      JSON.stringify({
        type: "result",
        subtype: "error_max_turns",
        is_error: true,
        errors: ["Reached maximum number of turns (3)"],
        num_turns: 4,
      }),
    );
    expect(event?.kind).toBe("result");
    const verdict = classifyEnd(proc({ exitCode: 1 }), event as ResultEvent);
    expect(verdict.outcome).toBe("agent_error");
    expect(verdict.message).toContain("Reached maximum number of turns (3)");
  });

  it("puts the process's own end before any result", () => {
    expect(classifyEnd(proc({ cancelled: true, timedOut: true, signal: "SIGTERM" }), ok)).toEqual({
      outcome: "cancelled",
      message: "cancelled by the user",
    });
    expect(classifyEnd(proc({ stopped: true, signal: "SIGTERM" }), ok)).toEqual({ outcome: "stopped" });
    expect(classifyEnd(proc({ timedOut: true, signal: "SIGTERM", durationMs: 30_400 }), undefined)).toEqual({
      outcome: "timeout",
      message: "timed out after 30 s",
    });
  });

  it("is a crash when the agent could not start", () => {
    expect(classifyEnd(proc({ exitCode: null, spawnError: "spawn /nope/claude ENOENT" }), undefined)).toEqual(
      { outcome: "crash", message: "could not start the agent: spawn /nope/claude ENOENT" },
    );
  });

  it("is a crash with the end of stderr when the process ends without a result", () => {
    const stderr = "line 1\nline 2\nline 3\nTypeError: boom\n    at main (cli.js:1:1)\n";
    const verdict = classifyEnd(proc({ exitCode: 1, stderrTail: stderr }), undefined);
    expect(verdict.outcome).toBe("crash");
    expect(verdict.message).toBe(
      "the agent exited with code 1 without a result: line 3 | TypeError: boom |     at main (cli.js:1:1)",
    );
    const killed = classifyEnd(proc({ exitCode: null, signal: "SIGSEGV" }), undefined);
    expect(killed.outcome).toBe("crash");
    expect(killed.message).toMatch(/killed by SIGSEGV without a result$/);
  });

  it("is auth_error when stderr says so and there is no result", () => {
    const verdict = classifyEnd(
      proc({ exitCode: 1, stderrTail: "Invalid API key · Please run /login\n" }),
      undefined,
    );
    expect(verdict).toEqual({ outcome: "auth_error", message: "Invalid API key · Please run /login" });
  });
});

describe("resultByWords", () => {
  const words: ErrorWords = {
    rateLimited: /rate limit/i,
    overloaded: /overloaded/i,
    auth: /unauthori[sz]ed/i,
    unreachable: /ECONNREFUSED/,
  };
  const read = (text: string, apiErrorStatus?: number) => resultByWords(failed(text, apiErrorStatus), words);

  it("is success for a result without error", () => {
    expect(resultByWords(ok, words)).toEqual({ outcome: "success" });
  });

  it("reads the status first: 429 rate limited, 529 and 503 overloaded, other 5xx a server error, 401 and 403 auth", () => {
    expect(read("boom", 429)).toEqual({ outcome: "rate_limited", message: "boom" });
    expect(read("boom", 529)).toEqual({ outcome: "overloaded", message: "boom" });
    expect(read("boom", 503)).toEqual({ outcome: "overloaded", message: "boom" });
    expect(read("boom", 500)).toEqual({ outcome: "server_error", message: "boom" });
    expect(read("boom", 401)).toEqual({ outcome: "auth_error", message: "boom" });
    expect(read("boom", 403)).toEqual({ outcome: "auth_error", message: "boom" });
    expect(read("boom", 400)).toEqual({ outcome: "agent_error", message: "boom" });
  });

  it("then the agent's words; an error it has no words for is the agent's", () => {
    expect(read("Rate limit hit")).toEqual({ outcome: "rate_limited", message: "Rate limit hit" });
    expect(read("Overloaded")).toEqual({ outcome: "overloaded", message: "Overloaded" });
    expect(read("Unauthorized")).toEqual({ outcome: "auth_error", message: "Unauthorized" });
    expect(read("connect ECONNREFUSED")).toEqual({
      outcome: "server_error",
      message: "connect ECONNREFUSED",
    });
    expect(read("boom")).toEqual({ outcome: "agent_error", message: "boom" });
  });

  it("names an error result without text by its subtype; looks for auth words where it is told", () => {
    expect(resultByWords({ ...failed(""), subtype: "error_during_execution" }, words)).toEqual({
      outcome: "agent_error",
      message: "error_during_execution",
    });
    expect(resultByWords(failed("boom"), words, "401 Unauthorized")).toEqual({
      outcome: "auth_error",
      message: "boom",
    });
  });
});
