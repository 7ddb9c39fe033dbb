import { type Command, InvalidArgumentError } from "commander";
import { SkillgymError } from "../errors.js";
import type { ScreenOptions } from "../triggers/replay/index.js";

export interface ScreenFlags {
  screen?: "replay" | "none";
  screenVerify?: number;
}

function screenKind(value: string): "replay" | "none" {
  if (value !== "replay" && value !== "none") throw new InvalidArgumentError('expected "replay" or "none"');
  return value;
}

function percent(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError("expected a percentage from 0 to 100");
  return n;
}

/** `--screen replay|none` and `--screen-verify P`; `what` says which runs are screened and when by default. */
export function withScreenOptions(
  command: Command,
  what = 'decide trigger runs before the agent starts: "replay" sends the agent\'s captured first request with each query and lets the agent make only the runs its first turn leaves open (needs an API key); "none": the agent makes every run (the default)',
): Command {
  return command
    .option("--screen <kind>", what, screenKind)
    .option(
      "--screen-verify <percent>",
      "with --screen replay: also run this share of replayed runs through the agent and report the agreement (below 95%: back to the agents)",
      percent,
    );
}

/** The screen a command's flags ask for; --screen-verify without replay is a usage error. */
export function screenOf(flags: ScreenFlags): ScreenOptions | undefined {
  if (flags.screenVerify !== undefined && flags.screen !== "replay")
    throw new SkillgymError("USAGE", "--screen-verify needs --screen replay", {
      hint: "add --screen replay, or leave --screen-verify out",
    });
  if (flags.screen !== "replay") return undefined;
  return { kind: "replay", ...(flags.screenVerify ? { verifyPercent: flags.screenVerify } : {}) };
}

/**
 * `optimize`'s screen: replay asked for, turned off (`--screen none`), or left to the default (replay on its train
 * rounds when the agent has replay and a key or the simulator). --screen-verify goes with replay, asked or default.
 */
export function optimizeScreenOf(
  flags: ScreenFlags,
): { mode: "replay"; screen: ScreenOptions } | { mode: "none" } | { mode: "default"; screen: ScreenOptions } {
  if (flags.screen === "none") {
    if (flags.screenVerify !== undefined)
      throw new SkillgymError("USAGE", "--screen-verify needs replay, and --screen none turns it off", {
        hint: "leave out --screen none, or --screen-verify",
      });
    return { mode: "none" };
  }
  const screen: ScreenOptions = {
    kind: "replay",
    ...(flags.screenVerify ? { verifyPercent: flags.screenVerify } : {}),
  };
  return flags.screen === "replay" ? { mode: "replay", screen } : { mode: "default", screen };
}
