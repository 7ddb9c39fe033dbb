import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { optimizeScreenOf, screenOf, withScreenOptions } from "../../src/cli/screen-flags.js";
import { SkillgymError } from "../../src/errors.js";

// The flags as commander parses them from `args`, or the message it rejects them with.
function parse(args: string[]): { flags: Record<string, unknown> } | { error: string } {
  let error = "";
  const command = withScreenOptions(new Command("triggers"))
    .exitOverride()
    .configureOutput({ writeErr: (text) => (error += text), writeOut: () => {} });
  try {
    command.parse(args, { from: "user" });
  } catch {
    return { error };
  }
  return { flags: command.opts() };
}

function usageError(run: () => unknown): { message: string; hint: string | undefined } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SkillgymError)) throw error;
    expect(error.code).toBe("USAGE");
    return { message: error.message, hint: error.hint };
  }
  throw new Error("no error was thrown");
}

describe("--screen and --screen-verify", () => {
  it("take replay or none, and a percentage from 0 to 100", () => {
    expect(parse(["--screen", "replay", "--screen-verify", "0"])).toEqual({
      flags: { screen: "replay", screenVerify: 0 },
    });
    expect(parse(["--screen", "none", "--screen-verify", "100"])).toEqual({
      flags: { screen: "none", screenVerify: 100 },
    });
    expect(parse(["--screen-verify", "12.5"])).toEqual({ flags: { screenVerify: 12.5 } });
    expect(parse([])).toEqual({ flags: {} });
  });

  it("refuse another kind of screen", () => {
    expect(parse(["--screen", "replays"])).toEqual({
      error: `error: option '--screen <kind>' argument 'replays' is invalid. expected "replay" or "none"\n`,
    });
  });

  it("refuse a share below 0, above 100, or not a number", () => {
    for (const value of ["-1", "100.5", "abc", "Infinity"])
      expect(parse([`--screen-verify=${value}`])).toEqual({
        error: `error: option '--screen-verify <percent>' argument '${value}' is invalid. expected a percentage from 0 to 100\n`,
      });
  });

  it("describe the default screen unless told otherwise", () => {
    const help = (command: Command) => command.options.map((o) => [o.flags, o.description]);
    expect(help(withScreenOptions(new Command("x"), "screen the runs"))).toEqual([
      ["--screen <kind>", "screen the runs"],
      [
        "--screen-verify <percent>",
        "with --screen replay: also run this share of replayed runs through the agent and report the agreement (below 95%: back to the agents)",
      ],
    ]);
    expect(help(withScreenOptions(new Command("x")))[0]).toEqual([
      "--screen <kind>",
      'decide trigger runs before the agent starts: "replay" sends the agent\'s captured first request with each query and lets the agent make only the runs its first turn leaves open (needs an API key); "none": the agent makes every run (the default)',
    ]);
  });
});

describe("screenOf", () => {
  it("screens nothing unless replay is asked for", () => {
    expect(screenOf({})).toBeUndefined();
    expect(screenOf({ screen: "none" })).toBeUndefined();
  });

  it("replays, verifying a share only when one above 0 is given", () => {
    expect(screenOf({ screen: "replay" })).toEqual({ kind: "replay" });
    expect(screenOf({ screen: "replay", screenVerify: 0 })).toEqual({ kind: "replay" });
    expect(screenOf({ screen: "replay", screenVerify: 20 })).toEqual({ kind: "replay", verifyPercent: 20 });
  });

  it("refuses --screen-verify without replay, even at 0", () => {
    const expected = {
      message: "--screen-verify needs --screen replay",
      hint: "add --screen replay, or leave --screen-verify out",
    };
    expect(usageError(() => screenOf({ screenVerify: 0 }))).toEqual(expected);
    expect(usageError(() => screenOf({ screen: "none", screenVerify: 10 }))).toEqual(expected);
  });
});

describe("optimizeScreenOf", () => {
  it("turns replay off with --screen none", () => {
    expect(optimizeScreenOf({ screen: "none" })).toEqual({ mode: "none" });
  });

  it("refuses --screen-verify with --screen none, even at 0", () => {
    const expected = {
      message: "--screen-verify needs replay, and --screen none turns it off",
      hint: "leave out --screen none, or --screen-verify",
    };
    expect(usageError(() => optimizeScreenOf({ screen: "none", screenVerify: 0 }))).toEqual(expected);
    expect(usageError(() => optimizeScreenOf({ screen: "none", screenVerify: 30 }))).toEqual(expected);
  });

  it("replays as asked, with the share to verify", () => {
    expect(optimizeScreenOf({ screen: "replay" })).toEqual({ mode: "replay", screen: { kind: "replay" } });
    expect(optimizeScreenOf({ screen: "replay", screenVerify: 5 })).toEqual({
      mode: "replay",
      screen: { kind: "replay", verifyPercent: 5 },
    });
  });

  it("leaves replay to the default when no screen is named, keeping the share to verify", () => {
    expect(optimizeScreenOf({})).toEqual({ mode: "default", screen: { kind: "replay" } });
    expect(optimizeScreenOf({ screenVerify: 0 })).toEqual({ mode: "default", screen: { kind: "replay" } });
    expect(optimizeScreenOf({ screenVerify: 40 })).toEqual({
      mode: "default",
      screen: { kind: "replay", verifyPercent: 40 },
    });
  });
});
