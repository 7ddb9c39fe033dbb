import { describe, expect, it } from "vitest";
import { claudeCodeReplay } from "../../../src/triggers/replay/claude-code.js";
import { codexReplay, commandOfCall } from "../../../src/triggers/replay/codex.js";
import { geminiReplay } from "../../../src/triggers/replay/gemini.js";
import type { RecordedRequest } from "../../../src/triggers/replay/recording-proxy.js";
import { screenForecast } from "../../../src/triggers/replay/screen-forecast.js";
import {
  agreementOf,
  belowAgreement,
  newVerifyTally,
  recordAgreement,
} from "../../../src/triggers/replay/verify.js";

const MARKER = "SKILLGYMREPLAYQUERY0123456789abcdef";
const request = (method: string, path: string, body: unknown): RecordedRequest => ({
  method,
  path,
  headers: {},
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("Codex's first request", () => {
  it("is not one whose tools list is empty, in the body or as an additional_tools item", () => {
    const first = (body: object) =>
      codexReplay.isFirstRequest(request("POST", "/v1/responses", body), MARKER);
    expect(first({ input: MARKER, tools: [] })).toBe(false);
    expect(first({ input: [{ type: "additional_tools", tools: [] }, { text: MARKER }] })).toBe(false);
    expect(first({ input: MARKER, tools: [{ name: "shell" }] })).toBe(true);
  });

  it("is a POST to the Responses API", () => {
    const body = { input: MARKER, tools: [{ name: "shell" }] };
    expect(codexReplay.isFirstRequest(request("POST", "/v1/responses?x=1", body), MARKER)).toBe(true);
    expect(codexReplay.isFirstRequest(request("GET", "/v1/responses", body), MARKER)).toBe(false);
    expect(codexReplay.isFirstRequest(request("POST", "/v1/responses/x", body), MARKER)).toBe(false);
  });
});

describe("the shell command of a Codex call", () => {
  const shell = (command: unknown) => commandOfCall({ name: "shell", input: { command } });

  it("is the script of a shell run with -c or -lc, and the words of any other argument list", () => {
    expect(shell(["bash", "-lc", "cat SKILL.md"])).toBe("cat SKILL.md");
    expect(shell(["/bin/zsh", "-c", "cat SKILL.md"])).toBe("cat SKILL.md");
    expect(shell(["sh", "-c", "cat SKILL.md"])).toBe("cat SKILL.md");
    expect(shell(["python", "-c", "print(1)"])).toBe("python -c print(1)");
    expect(shell(["bash", "run.sh", "x"])).toBe("bash run.sh x");
    expect(shell(["bashful", "-c", "x"])).toBe("bashful -c x");
    expect(shell(["bash", "x-c", "y"])).toBe("bash x-c y");
    expect(shell(["bash", "-lc", "a", "b"])).toBe("bash -lc a b");
  });

  it("takes only -c and -lc as the shell's script flag, and has none without a command", () => {
    expect(shell(["bash", "-lcx", "cat SKILL.md"])).toBe("bash -lcx cat SKILL.md");
    expect(shell(["bash", "-cl", "cat SKILL.md"])).toBe("bash -cl cat SKILL.md");
    expect(commandOfCall({ name: "shell", input: {} })).toBeUndefined();
    expect(shell(7)).toBeUndefined();
    expect(commandOfCall({ name: "exec_command", input: { cmd: "ls" } })).toBe("ls");
    expect(commandOfCall({ name: "shell_command", input: { command: "ls -a" } })).toBe("ls -a");
    expect(commandOfCall({ name: "read_file", input: { command: "ls" } })).toBeUndefined();
  });

  it("leaves out the words that are not strings", () => {
    expect(shell(["bash", "-lc", 5])).toBe("bash -lc");
    expect(shell(["cat", null, "SKILL.md"])).toBe("cat SKILL.md");
  });
});

describe("Gemini's first request", () => {
  const path = "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse";
  const tools = {
    contents: [{ parts: [{ text: MARKER }] }],
    tools: [{ functionDeclarations: [{ name: "x" }] }],
  };

  it("is a POST", () => {
    expect(geminiReplay.isFirstRequest(request("POST", path, tools), MARKER)).toBe(true);
    expect(geminiReplay.isFirstRequest(request("GET", path, tools), MARKER)).toBe(false);
  });

  it("declares tools in any entry of its tools list, a null one beside them", () => {
    const body = { ...tools, tools: [null, { functionDeclarations: [{ name: "x" }] }] };
    expect(geminiReplay.isFirstRequest(request("POST", path, body), MARKER)).toBe(true);
  });
});

describe("Claude Code's first request", () => {
  const first = (method: string, path: string, body: unknown) =>
    claudeCodeReplay.isFirstRequest(request(method, path, body), MARKER);
  const turn = { messages: [{ role: "user", content: MARKER }], tools: [{ name: "Skill" }] };

  it("is a POST to the Messages API, with or without a query string, that declares tools", () => {
    expect(first("POST", "/v1/messages", turn)).toBe(true);
    expect(first("POST", "/v1/messages?beta=true", turn)).toBe(true);
  });

  it("is not a side request without tools, a count of tokens, another path or method", () => {
    expect(first("POST", "/v1/messages", { ...turn, tools: [] })).toBe(false);
    expect(first("POST", "/v1/messages", { messages: turn.messages })).toBe(false);
    expect(first("POST", "/v1/messages/count_tokens", turn)).toBe(false);
    expect(first("POST", "/proxy/v1/messages", turn)).toBe(false);
    expect(first("GET", "/v1/messages", turn)).toBe(false);
  });

  it("is not one whose body is not JSON, though it holds the marker", () => {
    expect(
      claudeCodeReplay.isFirstRequest(request("POST", "/v1/messages", `{"tools":[1], ${MARKER}`), MARKER),
    ).toBe(false);
  });
});

describe("the agreement of --screen-verify", () => {
  it("is unknown before any run is checked, and not below the bar", () => {
    const tally = newVerifyTally(10);
    expect(agreementOf(tally)).toBeUndefined();
    expect(belowAgreement(tally)).toBe(false);
    recordAgreement(tally, true);
    recordAgreement(tally, false);
    expect(agreementOf(tally)).toBe(0.5);
    expect(belowAgreement(tally)).toBe(true);
  });
});

describe("the forecast of a screened command", () => {
  it("screens at most the runs there are, and needs captures only when it screens any", () => {
    expect(screenForecast({ runs: 5, screened: 8, keys: 2 })).toEqual({
      kind: "replay",
      capture_runs: 2,
      replay_requests: 5,
      agent_runs_up_to: 5,
    });
    expect(screenForecast({ runs: 5, screened: 0, keys: 2 })).toEqual({
      kind: "replay",
      capture_runs: 0,
      replay_requests: 0,
      agent_runs_up_to: 5,
    });
    expect(screenForecast({ runs: 4, keys: 3 })).toMatchObject({ capture_runs: 3, replay_requests: 4 });
  });
});
