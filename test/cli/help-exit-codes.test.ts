import { describe, expect, it } from "vitest";
import { cli } from "./command-fixture.js";

describe("skillgym's help", () => {
  it("goes to stderr with exit 2 when no command is given", async () => {
    const result = await cli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith("Usage: skillgym [options] [command]\n")).toBe(true);
  });

  it("goes to stdout with exit 0 when asked for with `help`, for the program or a command", async () => {
    const program = await cli(["help"]);
    expect([program.code, program.stderr]).toEqual([0, ""]);
    expect(program.stdout.startsWith("Usage: skillgym [options] [command]\n")).toBe(true);
    const command = await cli(["help", "validate"]);
    expect([command.code, command.stderr]).toEqual([0, ""]);
    expect(command.stdout.startsWith("Usage: skillgym validate [options] <skill>\n")).toBe(true);
  });
});
