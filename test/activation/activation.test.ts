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

const withSkill = { ...base, configuration: "with_skill", staged: { "pdf-sg-1a2b": "pdf" } };
const SKILL_DIR = "/w/.claude/skills/pdf-sg-1a2b";

function readOf(id: string, path: string, messageId?: string): AgentEvent {
  return {
    kind: "tool_use",
    id,
    name: "Read",
    input: { file_path: path },
    tool: "read",
    ...(messageId ? { messageId } : {}),
  };
}

function resultOf(id: string): AgentEvent {
  return { kind: "tool_result", toolUseId: id, isError: false, content: "" };
}

describe("activationOf: turns", () => {
  it("without message ids, keeps a text and the tool call after it in one turn and starts the next after a result", () => {
    const events: AgentEvent[] = [
      { kind: "text", text: "reading" },
      readOf("a", `${SKILL_DIR}/SKILL.md`),
      resultOf("a"),
      readOf("b", `${SKILL_DIR}/references/forms.md`),
    ];
    const a = activationOf(events, withSkill);
    expect(a.files_opened.map((f) => [f.path, f.turn])).toEqual([
      ["SKILL.md", 1],
      ["references/forms.md", 2],
    ]);
  });

  it("counts a text message of its own id as a turn of its own", () => {
    const events: AgentEvent[] = [
      { kind: "text", text: "let me look", messageId: "m1" },
      readOf("a", `${SKILL_DIR}/SKILL.md`, "m2"),
    ];
    expect(activationOf(events, withSkill).files_opened.map((f) => f.turn)).toEqual([2]);
  });

  it("gives a skill that loads in a later turn that turn", () => {
    const events: AgentEvent[] = [
      { kind: "tool_use", id: "a", name: "Bash", input: { command: "ls" }, messageId: "m1", tool: "shell" },
      resultOf("a"),
      {
        kind: "tool_use",
        id: "b",
        name: "Skill",
        input: { skill: "pdf-sg-1a2b" },
        messageId: "m2",
        tool: "skill",
      },
      { kind: "skill_load", skill: "pdf-sg-1a2b", via: "tool", toolUseId: "b" },
    ];
    expect(activationOf(events, withSkill).fired).toEqual([
      { skill: "pdf", via: "tool", turn: 2, tool_use_id: "b" },
    ]);
  });
});

describe("activationOf: files opened", () => {
  it("says how each file was opened: by a read tool, in a shell command, or by another tool", () => {
    const events: AgentEvent[] = [
      readOf("a", `${SKILL_DIR}/SKILL.md`),
      {
        kind: "tool_use",
        id: "b",
        name: "Bash",
        input: { command: `python ${SKILL_DIR}/scripts/fill.py` },
        tool: "shell",
      },
      {
        kind: "tool_use",
        id: "c",
        name: "Edit",
        input: { file_path: `${SKILL_DIR}/references/forms.md` },
        tool: "edit",
      },
    ];
    expect(activationOf(events, withSkill).files_opened.map((f) => [f.path, f.kind, f.how])).toEqual([
      ["SKILL.md", "skill_md", "read"],
      ["scripts/fill.py", "script", "shell"],
      ["references/forms.md", "reference", "other"],
    ]);
  });

  it("does not count a file under the install name of another staged skill", () => {
    const staged = { "pdf-sg-1a2b": "pdf", "docx-sg-9c8d": "docx" };
    const events = [readOf("a", "/w/.claude/skills/docx-sg-9c8d/SKILL.md")];
    expect(activationOf(events, { ...withSkill, staged }).files_opened).toEqual([]);
  });
});

describe("activationOf: tools used instead", () => {
  it("tallies calls by the tool's name and kind, so one tool used two ways is two entries", () => {
    const exec = (id: string, command: string, tool: "read" | "shell"): AgentEvent => ({
      kind: "tool_use",
      id,
      name: "exec_command",
      input: { command },
      tool,
    });
    const events = [
      exec("a", "cat README.md", "read"),
      exec("b", "npm test", "shell"),
      exec("c", "cat a.txt", "read"),
    ];
    expect(activationOf(events, withSkill).tools_instead).toEqual([
      { tool: "exec_command", kind: "read", calls: 2 },
      { tool: "exec_command", kind: "shell", calls: 1 },
    ]);
  });

  it("counts a call without a kind as kind other, with the same tool's calls of kind other", () => {
    const events: AgentEvent[] = [
      { kind: "tool_use", id: "a", name: "fetch", input: { url: "https://example.com" } },
      { kind: "tool_use", id: "b", name: "fetch", input: { url: "https://example.org" }, tool: "other" },
    ];
    expect(activationOf(events, withSkill).tools_instead).toEqual([
      { tool: "fetch", kind: "other", calls: 2 },
    ]);
  });

  it("counts only the skill under test as fired, not another skill that loaded", () => {
    const events: AgentEvent[] = [
      { kind: "tool_use", id: "a", name: "Skill", input: { skill: "docx" }, tool: "skill" },
      { kind: "skill_load", skill: "docx", via: "tool", toolUseId: "a" },
    ];
    const a = activationOf(events, withSkill);
    expect(a.fired.map((f) => f.skill)).toEqual(["docx"]);
    expect(a.skill_fired).toBe(false);
    expect(a.tools_instead).toEqual([{ tool: "Skill", kind: "skill", calls: 1 }]);
  });
});

describe("activationOf: contamination", () => {
  it("finds nothing wrong in a run with the skill that loads it and opens its files", () => {
    const events: AgentEvent[] = [
      { kind: "init", model: "m", tools: [], skills: ["pdf-sg-1a2b", "debug"] },
      readOf("a", `${SKILL_DIR}/SKILL.md`),
      { kind: "skill_load", skill: "pdf-sg-1a2b", via: "read", toolUseId: "a" },
    ];
    const a = activationOf(events, withSkill);
    expect(a.skill_fired).toBe(true);
    expect(a.contaminated).toBe(false);
    expect(a.contamination).toEqual([]);
  });

  it("says a run without the skill loaded it, and names each file it opened once", () => {
    const user = "/home/u/skills/pdf";
    const events: AgentEvent[] = [
      readOf("a", `${user}/SKILL.md`),
      { kind: "skill_load", skill: "pdf", via: "read", toolUseId: "a" },
      readOf("b", `${user}/scripts/fill.py`),
      readOf("c", `${user}/SKILL.md`),
    ];
    const a = activationOf(events, { ...base, configuration: "without_skill", staged: {} });
    expect(a.contamination).toEqual([
      "the skill pdf loaded in a run without it",
      "the run without the skill opened its files: SKILL.md, scripts/fill.py",
    ]);
  });

  it("names the skills the agent listed that the run did not stage, in name order", () => {
    const events: AgentEvent[] = [
      { kind: "init", model: "m", tools: [], skills: ["zeta", "pdf-sg-1a2b", "alpha", "debug"] },
    ];
    const a = activationOf(events, withSkill);
    expect(a.unexpected_skills).toEqual(["alpha", "zeta"]);
    expect(a.contamination).toEqual(["the agent listed skills that were not staged: alpha, zeta"]);
  });
});

describe("activationOf: the record", () => {
  it("records the agent and every file of the skill, opened or not", () => {
    const a = activationOf([], withSkill);
    expect(a.agent).toBe("claude-code");
    expect(a.bundled_files).toEqual(["SKILL.md", "references/forms.md", "scripts/fill.py"]);
  });

  it("leaves the agent out when none is named", () => {
    expect(activationOf([], { ...withSkill, agent: undefined })).not.toHaveProperty("agent");
  });
});
