import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { judgeBackend, withJudgeOptions } from "../../src/cli/agent-setup.js";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";

describe("--judge", () => {
  it("takes a backend by name, or any ACP agent by its command", () => {
    expect(judgeBackend("codex")).toBe("codex");
    expect(judgeBackend("acp:goose acp")).toBe("acp:goose acp");
  });

  it("refuses an unknown backend, naming the ACP form among the known ones", () => {
    expect(() => judgeBackend("goose")).toThrow(/expected one of claude-code, .*sim, acp:<command…>$/);
  });

  it("refuses an ACP command with nothing after acp:, with exit 2 before anything starts", async () => {
    expect(() => judgeBackend("acp:  ")).toThrow('--judge acp:  : no command after "acp:"');
    const io = captureIo();
    const code = await main(["grade", "no-such-iteration", "--judge", "acp:"], io);
    expect(code).toBe(2);
    expect(io.stderr()).toContain('--judge acp:: no command after "acp:"');
  });

  it("is described in help by who the judge is there, then every backend it takes", () => {
    const judgeHelp = (command: Command) => command.options.find((o) => o.long === "--judge")?.description;
    expect(judgeHelp(withJudgeOptions(new Command()))).toMatch(
      /^who grades expectations: claude-code, codex, .*, sim, acp:<command…>$/,
    );
    expect(judgeHelp(withJudgeOptions(new Command(), { role: "who drafts the evals" }))).toMatch(
      /^who drafts the evals: claude-code, /,
    );
  });
});
