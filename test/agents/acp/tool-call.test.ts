import { describe, expect, it } from "vitest";
import {
  type AcpToolCall,
  inputOf,
  isSkillTool,
  mergeToolCall,
  pathsOf,
  toolKindOf,
} from "../../../src/agents/acp/tool-call.js";

const call = (fields: Partial<AcpToolCall>): AcpToolCall => ({
  id: "t",
  paths: [],
  input: {},
  output: "",
  ...fields,
});

describe("mergeToolCall", () => {
  it("reads every field of a first tool_call", () => {
    expect(
      mergeToolCall(undefined, {
        toolCallId: "c1",
        name: "Read",
        _meta: { toolName: "read_file" },
        kind: "read",
        title: "notes.txt",
        status: "in_progress",
        locations: [{ path: "/w/a.txt" }, { path: "" }, { line: 3 }, "x", { path: "/w/b.txt" }],
        rawInput: { path: "/w/a.txt" },
        content: [
          { type: "content", content: { type: "text", text: "one" } },
          { type: "diff", path: "/w/a.txt", newText: "two" },
          { type: "content", content: { type: "text", text: "" } },
          { type: "terminal", terminalId: "x" },
          // Only a content block's text and a diff's new text are the output.
          { type: "terminal", content: { type: "text", text: "not output" }, newText: "nor this" },
          "bare",
          null,
          { type: "content", content: "not an object" },
          { type: "diff", newText: "" },
        ],
      }),
    ).toEqual({
      id: "c1",
      name: "Read",
      kind: "read",
      title: "notes.txt",
      status: "in_progress",
      paths: ["/w/a.txt", "/w/b.txt"],
      input: { path: "/w/a.txt" },
      output: "one\ntwo",
    });
  });

  it("takes the name from _meta.toolName, then from Gemini CLI's id", () => {
    expect(mergeToolCall(undefined, { toolCallId: "x", _meta: { toolName: "skill" } }).name).toBe("skill");
    expect(mergeToolCall(undefined, { toolCallId: "read_file__read_file_17_0" }).name).toBe("read_file");
    expect(mergeToolCall(undefined, { toolCallId: "read_file__write_file_17_0" })).toEqual({
      id: "read_file__write_file_17_0",
      paths: [],
      input: {},
      output: "",
    });
    expect(mergeToolCall(undefined, { toolCallId: "9x__9x_1" }).name).toBeUndefined();
    expect(mergeToolCall(undefined, { toolCallId: "pre read_file__read_file_1" }).name).toBeUndefined();
    expect(mergeToolCall(undefined, {})).toEqual({ id: "", paths: [], input: {}, output: "" });
  });

  it("keeps what was known where an update says nothing new (empty strings, no locations, empty input, no text)", () => {
    const known: AcpToolCall = {
      id: "c1",
      name: "edit",
      kind: "edit",
      title: "a.txt",
      status: "pending",
      paths: ["/w/a.txt"],
      input: { file_path: "/w/a.txt" },
      output: "before",
    };
    expect(
      mergeToolCall(known, {
        toolCallId: "",
        name: "",
        kind: "",
        title: "",
        status: "",
        locations: [],
        rawInput: {},
        content: [],
        _meta: "not an object",
      }),
    ).toEqual(known);
    expect(mergeToolCall(known, { status: "completed", rawInput: ["x"] })).toEqual({
      ...known,
      status: "completed",
    });
  });

  it("an update's own fields win over what was known", () => {
    const known = call({
      id: "c1",
      name: "a",
      kind: "read",
      title: "t",
      status: "pending",
      paths: ["/p"],
      input: { a: 1 },
      output: "o",
    });
    expect(
      mergeToolCall(known, {
        toolCallId: "c1",
        name: "b",
        kind: "edit",
        title: "u",
        status: "completed",
        locations: [{ path: "/q" }],
        rawInput: { b: 2 },
        content: [{ type: "diff", newText: "n" }],
      }),
    ).toEqual({
      id: "c1",
      name: "b",
      kind: "edit",
      title: "u",
      status: "completed",
      paths: ["/q"],
      input: { b: 2 },
      output: "n",
    });
  });
});

describe("pathsOf", () => {
  it("the locations and every path-like input field, once each, in order", () => {
    expect(
      pathsOf(
        call({
          paths: ["/w/a", "/w/b"],
          input: {
            file_path: "/w/a",
            filePath: "/w/c",
            absolute_path: "/w/d",
            path: "/w/e",
            notebook_path: "/w/f",
            directory: "/w/g",
            dir_path: "/w/h",
            cwd: "/w/i",
            other: "/w/j",
            pattern: "",
          },
        }),
      ),
    ).toEqual(["/w/a", "/w/b", "/w/c", "/w/d", "/w/e", "/w/f", "/w/g", "/w/h", "/w/i"]);
    expect(pathsOf(call({ input: { path: 3, cwd: "" } }))).toEqual([]);
  });
});

describe("isSkillTool and toolKindOf", () => {
  it("knows the skill tools by name, whatever their case", () => {
    for (const name of ["skill", "Skill", "skills", "activate_skill", "ACTIVATE_SKILLS"])
      expect([name, isSkillTool(call({ name }))]).toEqual([name, true]);
    for (const name of ["skillful", "my_skill", "activate_skills_now", "activate_", ""])
      expect([name, isSkillTool(call({ name }))]).toEqual([name, false]);
    expect(isSkillTool(call({}))).toBe(false);
  });

  it("maps ACP's kinds to skillgym's, a write told from an edit by its name", () => {
    const kinds: [Partial<AcpToolCall>, string][] = [
      [{ name: "skill", kind: "read" }, "skill"],
      [{ kind: "read" }, "read"],
      [{ kind: "edit", name: "write_file" }, "write"],
      [{ kind: "edit", name: "CreateFile" }, "write"],
      [{ kind: "edit", name: "replace" }, "edit"],
      [{ kind: "edit" }, "edit"],
      [{ kind: "delete" }, "edit"],
      [{ kind: "move" }, "edit"],
      [{ kind: "search" }, "search"],
      [{ kind: "fetch" }, "search"],
      [{ kind: "execute" }, "shell"],
      [{ kind: "think" }, "other"],
      [{}, "other"],
    ];
    for (const [fields, kind] of kinds) expect([fields, toolKindOf(call(fields))]).toEqual([fields, kind]);
  });
});

describe("inputOf", () => {
  it("the raw input when there is one", () => {
    expect(inputOf(call({ input: { command: "ls" }, title: "ls", paths: ["/w"] }))).toEqual({
      command: "ls",
    });
  });

  it("else the title and the locations", () => {
    expect(inputOf(call({ title: "Read", paths: ["/w/a", "/w/b"] }))).toEqual({
      title: "Read",
      file_path: "/w/a",
      paths: ["/w/a", "/w/b"],
    });
    expect(inputOf(call({ title: "Think" }))).toEqual({ title: "Think" });
    expect(inputOf(call({}))).toEqual({});
  });
});
