import { describe, expect, it } from "vitest";
import type { ContentBlock } from "../../src/sim/plan.js";
import {
  chatAgentCwd,
  chatAgentOf,
  chatToolCalls,
  parseChatAgentSkills,
  withoutDatetime,
} from "../../src/sim/protocols/chat-agent-tools.js";

// How the simulator tells the Chat Completions agents apart, reads their requests, and does the plan's steps in each
// agent's own tools.

const use = (name: string, input: Record<string, unknown>): ContentBlock => ({
  type: "tool_use",
  id: "toolu_1",
  name,
  input,
});

describe("the agent a request comes from", () => {
  it.each([
    [["bash", "view"], "copilot"],
    [["create", "bash"], "copilot"],
    [["read_file", "glob"], "qwen"],
    [["write_file"], "qwen"],
    [["read", "bash"], "opencode"],
    [["write"], "opencode"],
    [["bash", "skill"], undefined],
    [[], undefined],
  ])("offering the tools %j is %s's", (tools, agent) => {
    expect(chatAgentOf(tools)).toBe(agent);
  });
});

describe("the plan's steps in each agent's own tools", () => {
  it.each([
    ["opencode", "bash", { command: "npm test", description: "Run the tests" }],
    ["copilot", "bash", { command: "npm test", description: "Run the tests" }],
    ["qwen", "run_shell_command", { command: "npm test", description: "Run the tests" }],
  ] as const)("%s runs a command as %s, with its own description or a default one", (agent, name, args) => {
    const described = chatToolCalls(
      agent,
      [use("Bash", { command: "npm test", description: "Run the tests" })],
      "/w",
      false,
    );
    expect(described).toEqual([{ id: "toolu_1", name, arguments: args }]);
    const plain = chatToolCalls(agent, [use("Bash", { command: "npm test" })], "/w", false);
    expect(plain[0]?.arguments).toEqual({ command: "npm test", description: "Scripted step" });
  });

  it("gives Qwen Code an empty command when the step names none", () => {
    expect(chatToolCalls("qwen", [use("Bash", {})], "/w", false)[0]?.arguments).toEqual({
      command: "",
      description: "Scripted step",
    });
  });

  it.each([
    ["sleep 45", true],
    ["sleep 0.5", true],
    ["  sleep  45  ", true],
    ["/bin/sleep 45", false],
    ["cd /w && sleep 45", false],
    ["sleep 45 && echo done", false],
    ["sleep", false],
  ])("marks Qwen Code's command %j as a meant wait: %s", (command, marked) => {
    const [call] = chatToolCalls("qwen", [use("Bash", { command })], "/w", false);
    expect(call?.arguments.command).toBe(
      marked ? `${command} # intentional-sleep: a scripted wait` : command,
    );
  });

  it("makes only the tool calls of a turn that also says something", () => {
    const content: ContentBlock[] = [
      { type: "text", text: "Reading the notes." },
      use("Read", { file_path: "/w/notes.txt" }),
    ];
    expect(chatToolCalls("opencode", content, "/w", false)).toEqual([
      { id: "toolu_1", name: "read", arguments: { filePath: "/w/notes.txt" } },
    ]);
  });

  it("lets Copilot CLI create a file in its working folder or a known folder at once", () => {
    const write = (path: string, afterFolderCall = false) =>
      chatToolCalls(
        "copilot",
        [use("Write", { file_path: path, content: "x" })],
        "/w/work",
        afterFolderCall,
      )[0];
    expect(write("/w/work/a.md")).toEqual({
      id: "toolu_1",
      name: "create",
      arguments: { path: "/w/work/a.md", file_text: "x" },
    });
    expect(write("/w/work/out/a.md", true)?.name).toBe("create");
    expect(write("out/a.md")?.name).toBe("create");
  });

  it("quotes a Copilot CLI folder's name for the shell when it has to make it first", () => {
    const [call] = chatToolCalls(
      "copilot",
      [use("Write", { file_path: "/w/it's mine/a.md", content: "x" })],
      "/w/work",
      false,
    );
    expect(call).toEqual({
      id: "skillgym_mkdir_toolu_1",
      name: "bash",
      arguments: { command: `mkdir -p '/w/it'\\''s mine'`, description: "Create the folder" },
    });
  });
});

describe("an agent's <available_skills> list", () => {
  const list = (...skills: string[]) =>
    `Skills:\n<available_skills>\n${skills.join("\n")}\n</available_skills>`;

  it("reads a skill listed without a location", () => {
    expect(
      parseChatAgentSkills(list("<skill><name>haiku</name><description>Writes haiku.</description></skill>")),
    ).toEqual([{ name: "haiku", description: "Writes haiku." }]);
  });

  it("reads the XML escapes of names and descriptions", () => {
    const skills = parseChatAgentSkills(
      list(
        "<skill><name>q&amp;a</name><description>Turns &quot;A&quot; &amp; &apos;B&apos; into &lt;C&gt;, not &amp;lt;</description></skill>",
      ),
    );
    expect(skills).toEqual([{ name: "q&a", description: `Turns "A" & 'B' into <C>, not &lt;` }]);
  });

  it.each([
    ["Writes haiku. (project)", "Writes haiku."],
    ["Writes haiku.(user)", "Writes haiku."],
    ["Writes haiku.  (extension)", "Writes haiku."],
    ["Writes (user) haiku.", "Writes (user) haiku."],
    ["Writes haiku. (bundled)", "Writes haiku. (bundled)"],
  ])("leaves out the source Qwen Code ends a description with: %j", (description, read) => {
    const skills = parseChatAgentSkills(
      list(`<skill><name>h</name><description>${description}</description></skill>`),
    );
    expect(skills.map((s) => s.description)).toEqual([read]);
  });
});

describe("the working folder a request names", () => {
  it.each([
    [["Working directory: /w/work"], "/w/work"],
    [["You are opencode.\n  Working directory: /w/work  \n"], "/w/work"],
    [["* Current working directory: /w/my work\r\n"], "/w/my work"],
    [["intro", "I'm currently working in the directory: /w/q"], "/w/q"],
    [["The Working directory: /w/not-a-line-start"], undefined],
    [[], undefined],
  ])("in %j: %s", (texts, cwd) => {
    expect(chatAgentCwd(texts)).toBe(cwd);
  });
});

describe("a Copilot CLI prompt without its datetime", () => {
  it.each([
    ["<current_datetime>2026-11-26T04:58:13+00:00</current_datetime>\n\nWrite a haiku", "Write a haiku"],
    ["\n <current_datetime>2026-11-26</current_datetime> Write a haiku", "Write a haiku"],
    [
      "Write a haiku <current_datetime>2026-11-26</current_datetime> now",
      "Write a haiku <current_datetime>2026-11-26</current_datetime> now",
    ],
  ])("%j reads %j", (text, prompt) => {
    expect(withoutDatetime(text)).toBe(prompt);
  });
});
