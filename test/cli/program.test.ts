import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { buildProgram, main } from "../../src/cli/main.js";
import { SkillgymError } from "../../src/errors.js";
import { cli } from "./command-fixture.js";

const commands = (): Command[] => buildProgram(captureIo()).commands.filter((c) => c.name() !== "help");

describe("the skillgym program", () => {
  it("has every command, each saying in its help what it does, its arguments and flags too", () => {
    const all = commands();
    expect(all.map((c) => c.name())).toEqual([
      "validate",
      "package",
      "schema",
      "eval",
      "triggers",
      "catalog",
      "run",
      "merge",
      "grade",
      "bench",
      "diff",
      "noise",
      "compare",
      "judges",
      "view",
      "sim",
      "tune",
      "optimize",
      "init",
      "draft-evals",
    ]);
    const undescribed = all.flatMap((command) => [
      ...(command.description().trim() === "" ? [command.name()] : []),
      ...command.registeredArguments
        .filter((a) => a.description.trim() === "")
        .map((a) => `${command.name()} <${a.name()}>`),
      ...command.options
        .filter((o) => o.description.trim() === "")
        .map((o) => `${command.name()} ${o.flags}`),
    ]);
    expect(undescribed).toEqual([]);
  });

  it("lists every command with its description in --help, and exits 0", async () => {
    const result = await cli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "Test, benchmark and improve Agent Skills by running real coding agents against\neval suites.",
    );
    for (const command of commands()) {
      expect(result.stdout).toContain(` ${command.name()} `);
      expect(result.stdout).toContain(command.description());
    }
  });

  it("prints a command's flags in its own --help", async () => {
    const result = await cli(["validate", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: skillgym validate [options] <skill>");
    expect(result.stdout).toContain("--project-root <dir>");
  });

  it("prints its version and exits 0", async () => {
    const result = await cli(["--version"]);
    expect(result).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
  });

  it("answers an unknown command or flag with one line and where the help is, exit 2", async () => {
    expect(await cli(["nosuch"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: unknown command 'nosuch'\n(see `skillgym --help`)\n",
    });
    expect(await cli(["validate", "--bogus", "x"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: unknown option '--bogus'\n(see `skillgym validate --help`)\n",
    });
    const missing = await cli(["run"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("error: missing required argument 'skill'\n(see `skillgym run --help`)\n");
  });

  it("prints a refused input as `skillgym: <message>` with its fix, exit 2", async () => {
    expect(await cli(["schema", "nope"])).toEqual({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(
        /^skillgym: unknown format "nope"\n {2}fix: choose one of: [a-z-]+(, [a-z-]+)+\n$/,
      ),
    });
  });

  it("exits 3 for a missing agent and 130 for a cancelled run, printing the message", async () => {
    for (const [code, expected] of [
      ["AGENT_UNAVAILABLE", 3],
      ["NO_CREDENTIALS", 3],
      ["CANCELLED", 130],
      ["USAGE", 2],
    ] as const) {
      const thrown = await mainThrowing(new SkillgymError(code, "stopped"));
      expect(thrown.code, code).toBe(expected);
      expect(thrown.stderr, code).toBe("skillgym: stopped\n");
    }
    const hinted = await mainThrowing(new SkillgymError("USAGE", "stopped", { hint: "do this" }));
    expect(hinted).toEqual({ code: 2, stderr: "skillgym: stopped\n  fix: do this\n" });
  });

  it("reports an unexpected failure with its stack, exit 3", async () => {
    const thrown = await mainThrowing(new Error("boom"));
    expect(thrown.code).toBe(3);
    expect(thrown.stderr).toMatch(/^skillgym: unexpected failure: Error: boom\n {4}at /);
    const notAnError = await mainThrowing("plain");
    expect(notAnError).toEqual({ code: 3, stderr: "skillgym: unexpected failure: plain\n" });
  });
});

// `main` running `schema`, whose output throws `thrown`: how the CLI reports what escapes a command.
async function mainThrowing(thrown: unknown): Promise<{ code: number; stderr: string }> {
  const io = captureIo();
  let cleared = 0;
  io.status = (render) => {
    if (render === undefined) cleared++;
  };
  io.out = () => {
    throw thrown;
  };
  const code = await main(["schema"], io);
  // The live status line is taken down before the error is printed.
  expect(cleared).toBe(1);
  return { code, stderr: io.stderr() };
}
