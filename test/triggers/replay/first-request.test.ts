import { describe, expect, it } from "vitest";
import { claudeCodeReplay } from "../../../src/triggers/replay/claude-code.js";
import type { RecordedRequest } from "../../../src/triggers/replay/recording-proxy.js";

const MARKER = "SKILLGYMREPLAYQUERY0123456789abcdef";
const post = (path: string, body: object): RecordedRequest => ({
  method: "POST",
  path,
  headers: {},
  body: JSON.stringify(body),
});
const user = (text: string) => [{ role: "user", content: [{ type: "text", text }] }];

describe("Claude Code's first real model request", () => {
  const side = [
    post("/v1/messages/count_tokens?beta=true", { messages: user(MARKER), tools: [{ name: "Bash" }] }),
    // The title of the session: the marker, and no tools.
    post("/v1/messages?beta=true", { max_tokens: 512, messages: user(`Title this: ${MARKER}`) }),
    post("/v1/messages?beta=true", { max_tokens: 1, messages: user("quota") }),
    { method: "GET", path: "/v1/models", headers: {}, body: "" },
  ];
  const real = post("/v1/messages?beta=true", {
    messages: user(MARKER),
    tools: [{ name: "Skill" }],
    stream: true,
  });

  it("is the one with tools and the marker, not a count, a title or a quota call", () => {
    const recorded = [
      ...side,
      real,
      post("/v1/messages?beta=true", { messages: user(MARKER), tools: [{ name: "Skill" }] }),
    ];
    expect(recorded.find((r) => claudeCodeReplay.isFirstRequest(r, MARKER))).toBe(real);
  });

  it("is none when no request with tools carries the marker", () => {
    expect(side.some((r) => claudeCodeReplay.isFirstRequest(r, MARKER))).toBe(false);
    expect(claudeCodeReplay.isFirstRequest(real, "SKILLGYMREPLAYQUERYffffffffffffffff")).toBe(false);
  });
});

describe("Claude Code's queries replay can send", () => {
  it("are all but a slash command, which the agent runs as one", () => {
    expect(
      ["write a haiku", "a path like /tmp/x", " not at the start /x"].map(claudeCodeReplay.sendsAsIs!),
    ).toEqual([true, true, true]);
    expect(["/review this file", "  /review"].map((q) => claudeCodeReplay.sendsAsIs?.(q))).toEqual([
      false,
      false,
    ]);
  });
});
