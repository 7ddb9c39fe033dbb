import { type Command, InvalidArgumentError } from "commander";
import { SkillgymError } from "../errors.js";
import type { ScreenOptions } from "../triggers/replay/index.js";

export interface ScreenFlags {
  screen?: "replay";
  screenVerify?: number;
}

function screenKind(value: string): "replay" {
  if (value !== "replay") throw new InvalidArgumentError('expected "replay"');
  return value;
}

function percent(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError("expected a percentage from 0 to 100");
  return n;
}

/** `--screen replay` and `--screen-verify P`. */
export function withScreenOptions(command: Command): Command {
  return command
    .option(
      "--screen <kind>",
      'decide runs before the agent starts: "replay" sends the agent\'s captured first request with each query and lets the agent make only the runs its first turn leaves open (needs an API key)',
      screenKind,
    )
    .option(
      "--screen-verify <percent>",
      "with --screen replay: also run this share of replayed runs through the agent and report the agreement (below 95%: back to the agents)",
      percent,
    );
}

/** The screen a command's flags ask for; --screen-verify alone is a usage error. */
export function screenOf(flags: ScreenFlags): ScreenOptions | undefined {
  if (flags.screenVerify !== undefined && flags.screen === undefined)
    throw new SkillgymError("USAGE", "--screen-verify needs --screen replay", {
      hint: "add --screen replay, or leave --screen-verify out",
    });
  if (!flags.screen) return undefined;
  return { kind: flags.screen, ...(flags.screenVerify ? { verifyPercent: flags.screenVerify } : {}) };
}
