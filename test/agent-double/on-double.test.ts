import { describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { buildProgram } from "../../src/cli/main.js";
import { agentDouble, onDouble } from "./index.js";

// Every command that takes --agent-bin starts an agent: a test that runs one through onDouble must get the double,
// never the real Claude Code (a command left out ran the real binary in `npm test`, at seconds of CPU a run).
const agentCommands = buildProgram(captureIo())
  .commands.filter((command) => command.options.some((option) => option.long === "--agent-bin"))
  .map((command) => command.name());

describe("onDouble", () => {
  it("finds the commands that start an agent", () => {
    expect(agentCommands).toEqual(expect.arrayContaining(["run", "eval", "noise", "triggers"]));
  });

  it.each(agentCommands)("hands %s the double", (name) => {
    expect(onDouble([name, "my-skill"])).toEqual([name, "--agent-bin", agentDouble, "my-skill"]);
  });

  it("leaves a command that starts no agent, or names another agent or its own binary, as it is", () => {
    expect(onDouble(["validate", "my-skill"])).toEqual(["validate", "my-skill"]);
    expect(onDouble(["run", "my-skill", "--agent", "codex"])).toEqual([
      "run",
      "my-skill",
      "--agent",
      "codex",
    ]);
    expect(onDouble(["run", "my-skill", "--agent-bin", "/bin/claude"])).toEqual([
      "run",
      "my-skill",
      "--agent-bin",
      "/bin/claude",
    ]);
  });
});
