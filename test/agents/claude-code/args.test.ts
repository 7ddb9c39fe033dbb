import { describe, expect, it } from "vitest";
import {
  claudeArgs,
  defaultAllowedTools,
  readOnlyArgs,
  readOnlyDisallowedTools,
} from "../../../src/agents/claude-code/args.js";

// The command line of a headless Claude Code run, flag by flag: the real binary reads nothing else.

// What every run starts with: the prompt, streamed JSON, every event.
const headless = (prompt: string) => ["-p", prompt, "--output-format", "stream-json", "--verbose"];

describe("the claude command line", () => {
  it("asks for a headless run streaming JSON, the eval's tools approved, nothing more", () => {
    expect(claudeArgs({ prompt: "fix the bug" })).toEqual([
      ...headless("fix the bug"),
      "--allowedTools",
      defaultAllowedTools.join(" "),
    ]);
    expect(defaultAllowedTools.join(" ")).toBe(
      "Bash Edit MultiEdit Write Read Glob Grep Skill NotebookEdit TodoWrite Task Agent",
    );
  });

  it("approves the tools it is given in place of the default set", () => {
    expect(claudeArgs({ prompt: "q", tools: "eval" }, ["Read", "Bash"])).toEqual([
      ...headless("q"),
      "--allowedTools",
      "Read Bash",
    ]);
  });

  it("names the model, streams usage, adds the system prompt and resumes a session when asked", () => {
    expect(
      claudeArgs({
        prompt: "q",
        model: "claude-haiku-4-5",
        streamUsage: true,
        systemPrompt: "be brief",
        resume: "0b1c",
      }),
    ).toEqual([
      ...headless("q"),
      "--allowedTools",
      defaultAllowedTools.join(" "),
      "--model",
      "claude-haiku-4-5",
      "--include-partial-messages",
      "--append-system-prompt",
      "be brief",
      "--resume",
      "0b1c",
    ]);
  });

  it("leaves out the model when none is named and partial messages when usage is not streamed", () => {
    const args = claudeArgs({ prompt: "q", model: "", streamUsage: false });
    expect(args).not.toContain("--model");
    expect(args).not.toContain("--include-partial-messages");
    expect(args).toHaveLength(7);
  });

  it("keeps a read-only run to the reading tools and forbids the writing ones", () => {
    const args = claudeArgs({ prompt: "q", tools: "read-only" }, ["Bash", "Write"]);
    expect(args).toEqual([
      ...headless("q"),
      "--allowedTools",
      "Read Glob Grep",
      "--disallowedTools",
      "Bash Edit Write NotebookEdit MultiEdit WebFetch WebSearch",
    ]);
    expect(readOnlyDisallowedTools.join(" ")).toBe(args[8]);
  });

  it("gives a judge a read-only run with its system prompt and model", () => {
    expect(readOnlyArgs({ prompt: "grade this", system: "you are a judge" }, "claude-sonnet-4-5")).toEqual([
      ...headless("grade this"),
      "--allowedTools",
      "Read Glob Grep",
      "--model",
      "claude-sonnet-4-5",
      "--disallowedTools",
      "Bash Edit Write NotebookEdit MultiEdit WebFetch WebSearch",
      "--append-system-prompt",
      "you are a judge",
    ]);
  });
});
