import { describe, expect, it } from "vitest";
import { activationOf } from "../../src/activation/index.js";
import type { AgentEvent } from "../../src/agents/events.js";

const base = {
  skill: "pdf",
  agent: "claude-code",
  bundledFiles: ["SKILL.md", "references/forms.md", "scripts/fill.py"],
  skillFolders: ["/home/u/skills/pdf"],
  builtins: ["debug"],
};

const events: AgentEvent[] = [
  { kind: "init", model: "m", tools: [], skills: ["pdf-sg-1a2b", "debug", "leaked"] },
  { kind: "text", text: "looking", messageId: "m1" },
  {
    kind: "tool_use",
    id: "t1",
    name: "Skill",
    input: { skill: "pdf-sg-1a2b" },
    messageId: "m1",
    tool: "skill",
  },
  { kind: "skill_load", skill: "pdf-sg-1a2b", via: "tool", toolUseId: "t1" },
  { kind: "tool_result", toolUseId: "t1", isError: false, content: "" },
  {
    kind: "tool_use",
    id: "t2",
    name: "Read",
    input: { file_path: "/w/.claude/skills/pdf-sg-1a2b/references/forms.md" },
    messageId: "m2",
    tool: "read",
  },
  {
    kind: "tool_use",
    id: "t3",
    name: "Read",
    input: { file_path: "/w/references/forms.md" },
    messageId: "m2",
    tool: "read",
  },
];

describe("activationOf", () => {
  it("maps a synthetic name back, counts turns by message and names the bundled files opened", () => {
    const a = activationOf(events, { ...base, configuration: "trigger", staged: { "pdf-sg-1a2b": "pdf" } });
    expect(a.fired).toEqual([{ skill: "pdf", via: "tool", turn: 1, tool_use_id: "t1" }]);
    // A project file of the same relative path is not the skill's.
    expect(a.files_opened).toEqual([
      { path: "references/forms.md", kind: "reference", how: "read", turn: 2, tool_use_id: "t2" },
    ]);
    expect(a.tools_instead).toBeUndefined();
    expect(a.unexpected_skills).toEqual(["leaked"]);
    expect(a.contaminated).toBe(true);
  });

  it("flags a run without the skill that read its SKILL.md from the user's folder, and lists the tools used instead", () => {
    const leak: AgentEvent[] = [
      { kind: "init", model: "m", tools: [], skills: ["debug"] },
      {
        kind: "tool_use",
        id: "a",
        name: "Read",
        input: { file_path: "/home/u/skills/pdf/SKILL.md" },
        tool: "read",
      },
      { kind: "tool_result", toolUseId: "a", isError: false, content: "" },
      { kind: "tool_use", id: "b", name: "Bash", input: { command: "ls" }, tool: "shell" },
    ];
    const a = activationOf(leak, { ...base, configuration: "without_skill", staged: {} });
    expect(a.files_opened.map((f) => [f.path, f.turn])).toEqual([["SKILL.md", 1]]);
    expect(a.contamination).toEqual(["the run without the skill opened its files: SKILL.md"]);
    expect(a.tools_instead).toEqual([
      { tool: "Read", kind: "read", calls: 1 },
      { tool: "Bash", kind: "shell", calls: 1 },
    ]);
    const clean = activationOf(leak.slice(0, 1), { ...base, configuration: "without_skill", staged: {} });
    expect(clean.contaminated).toBe(false);
  });
});
