import { describe, expect, it } from "vitest";
import type { ContextCondition } from "../../src/triggers/context.js";
import { checkContextFits, contextRefused, droppedTurn } from "../../src/triggers/context-support.js";

const context = (...users: string[]): ContextCondition => ({
  file: "/p/context.json",
  turns: users.flatMap((content) => [
    { role: "user" as const, content },
    { role: "assistant" as const, content: "/ok: an answer may start with anything" },
  ]),
  hash: "h",
});

describe("which agents take --context, and which turns they can take", () => {
  it("refuses the agents that cannot continue a conversation headless, naming their own way and why not", () => {
    const reasons = {
      codex: "`codex exec resume <id>`",
      opencode: "`opencode run --session <id>`",
      copilot: "`--resume <id>`",
      acp: "acp has no headless way to continue a prior conversation",
    };
    for (const [agent, why] of Object.entries(reasons)) {
      const refused = contextRefused(agent);
      expect(refused).toMatchObject({
        code: "USAGE",
        hint: expect.stringContaining("claude-code or gemini"),
      });
      expect(refused.message).toContain(`--context is not available with ${agent}: `);
      expect(refused.message).toContain(why);
      expect(() => checkContextFits({ name: agent }, context("hi"))).toThrow(refused.message);
    }
  });

  it("lets Claude Code and Gemini CLI continue one", () => {
    for (const name of ["claude-code", "gemini"])
      expect(() => checkContextFits({ name, continuesConversations: true }, context("hi"))).not.toThrow();
  });

  it("stops Gemini CLI on a user turn it would drop from the session, naming the file and the turn", () => {
    for (const dropped of ["/review the parser", "  ?help", "<session_context>x", "<hook_context>y"]) {
      const error = droppedTurn("gemini", context("hi", dropped));
      expect(error).toMatchObject({
        code: "USAGE",
        file: "/p/context.json",
        hint: "reword the turn, or run --context with --agent claude-code",
      });
      expect(error?.message).toContain("--context: /p/context.json[2].content: Gemini CLI drops a user turn");
      expect(() =>
        checkContextFits({ name: "gemini", continuesConversations: true }, context(dropped)),
      ).toThrow("/p/context.json[0].content");
    }
    expect(droppedTurn("gemini", context("hi", "a/b? fine"))).toBeUndefined();
    expect(droppedTurn("claude-code", context("/review the parser"))).toBeUndefined();
  });
});
