import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agents/events.js";
import { transcriptMarkdown } from "../../src/run/transcript-md.js";

// The whole of transcript.md, line by line: blank lines between blocks, fences of three backticks.
describe("transcript.md's layout", () => {
  it("writes the heading, prompt, model line, steps, calls, results and the end, each block after a blank line", () => {
    const events: AgentEvent[] = [
      { kind: "init", model: "", tools: [], skills: ["a"], sessionId: "s" },
      { kind: "text", text: "Looking.", messageId: "m1" },
      { kind: "tool_use", id: "t1", name: "Bash", input: { command: "ls" }, messageId: "m1" },
      { kind: "tool_result", toolUseId: "t1", isError: true, content: "no such file" },
      { kind: "refused", what: "read", target: "/etc/passwd", reason: "outside the workspace" },
      { kind: "result", isError: true, subtype: "error_during_execution", text: "" },
    ] as AgentEvent[];
    expect(transcriptMarkdown("Do it", events, "eval-1 — with_skill — run 1", { simulated: true })).toBe(
      [
        "# eval-1 — with_skill — run 1",
        "",
        "## Prompt",
        "",
        "```",
        "Do it",
        "```",
        "",
        "_Agent model: unknown; skills available: 1_",
        "",
        "## Step 1",
        "",
        "Looking.",
        "",
        "**Tool call: Bash**",
        "",
        "```",
        '{\n  "command": "ls"\n}',
        "```",
        "",
        "**Result (error):**",
        "",
        "```",
        "no such file",
        "```",
        "",
        "**Refused by skillgym (read /etc/passwd):** outside the workspace",
        "",
        "## Result",
        "",
        "Error (error_during_execution) after ? turns, cost $0 (simulated).",
        "",
        "",
        "",
      ].join("\n"),
    );
  });

  it("clips a text only past 4000 characters", () => {
    const at = "x".repeat(4000);
    const past = "x".repeat(4001);
    const end = (text: string) =>
      transcriptMarkdown(
        "p",
        [{ kind: "result", isError: false, subtype: "success", text, numTurns: 1 }] as AgentEvent[],
        "h",
      );
    expect(end(at)).toBe(
      `# h\n\n## Prompt\n\n\`\`\`\np\n\`\`\`\n\n## Result\n\nFinished (success) after 1 turns.\n\n\`\`\`\n${at}\n\`\`\`\n`,
    );
    expect(end(past)).toContain(`\`\`\`\n${at}\n… (1 more characters)\n\`\`\``);
  });
});
