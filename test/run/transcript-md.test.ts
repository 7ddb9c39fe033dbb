import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agents/events.js";
import { transcriptMarkdown } from "../../src/run/transcript-md.js";

/** The text between each opening fence and its matching closing fence, in order. */
function fencedBlocks(markdown: string): string[] {
  const lines = markdown.split("\n");
  const blocks: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})$/.exec(lines[i]!);
    if (!open) continue;
    const close = lines.indexOf(open[1]!, i + 1);
    expect(close).toBeGreaterThan(i);
    blocks.push(lines.slice(i + 1, close).join("\n"));
    i = close;
  }
  return blocks;
}

const events: AgentEvent[] = [
  { kind: "init", model: "claude-sonnet-4-5", tools: ["Bash"], skills: ["a", "b"], sessionId: "s" },
  { kind: "text", text: "Let me look.", messageId: "m1" },
  { kind: "tool_use", id: "t1", name: "Bash", input: { command: "ls" }, messageId: "m1" },
  { kind: "tool_result", toolUseId: "t1", isError: false, content: "a.txt\nb.txt" },
  { kind: "tool_use", id: "t2", name: "Read", input: { file_path: "/x" }, messageId: "m2" },
  { kind: "tool_result", toolUseId: "t2", isError: true, content: "ENOENT" },
  { kind: "unknown", type: "stream_event" },
  { kind: "result", isError: false, subtype: "success", text: "All done.", numTurns: 3, costUsd: 0.01234 },
];

describe("transcriptMarkdown", () => {
  it("shows the prompt, each step, each tool call with input and result, and the end", () => {
    const md = transcriptMarkdown("Make a report", events, "eval-1 with_skill run-1");
    expect(md.startsWith("# eval-1 with_skill run-1\n")).toBe(true);
    expect(md).toContain("## Prompt");
    expect(md).toContain("_Agent model: claude-sonnet-4-5; skills available: 2_");
    expect(md.match(/^## Step \d+$/gm)).toEqual(["## Step 1", "## Step 2"]);
    expect(md).toContain("**Tool call: Bash**");
    expect(md).toContain("**Result:**");
    expect(md).toContain("**Result (error):**");
    expect(md).toContain("Finished (success) after 3 turns, cost $0.0123.");
    expect(fencedBlocks(md)).toEqual([
      "Make a report",
      JSON.stringify({ command: "ls" }, null, 2),
      "a.txt\nb.txt",
      JSON.stringify({ file_path: "/x" }, null, 2),
      "ENOENT",
      "All done.",
    ]);
    expect(md.indexOf("Let me look.")).toBeLessThan(md.indexOf("**Tool call: Bash**"));
  });

  it("keeps fences whole around text that contains fences itself", () => {
    const prompt = "Fix this:\n```ts\nconst a = 1;\n```\nand ````this````";
    const result = "Here:\n```\ncode\n```";
    const md = transcriptMarkdown(
      prompt,
      [
        { kind: "tool_result", toolUseId: "t", isError: false, content: "```\n``````\n" },
        { kind: "result", isError: true, subtype: "error_during_execution", text: result },
      ],
      "h",
    );
    expect(fencedBlocks(md)).toEqual([prompt, "```\n``````\n", result]);
    expect(md).toContain("`````\nFix this:");
    expect(md).toContain("Error (error_during_execution) after ? turns.");
  });

  it("shows what skillgym refused an agent, and why", () => {
    const md = transcriptMarkdown(
      "p",
      [{ kind: "refused", what: "read", target: "/etc/hostname", reason: "outside the workspace" }],
      "h",
    );
    expect(md).toContain("**Refused by skillgym (read /etc/hostname):** outside the workspace");
  });

  it("starts a new step for each event without a message id", () => {
    const md = transcriptMarkdown(
      "p",
      [
        { kind: "text", text: "one" },
        { kind: "text", text: "two" },
      ],
      "h",
    );
    expect(md.match(/^## Step \d+$/gm)).toEqual(["## Step 1", "## Step 2"]);
  });

  it("clips very long tool output", () => {
    const md = transcriptMarkdown(
      "p",
      [{ kind: "tool_result", toolUseId: "t", isError: false, content: "y".repeat(5000) }],
      "h",
    );
    expect(md).toContain("… (1000 more characters)");
    expect(md).not.toContain("y".repeat(4001));
  });
});
