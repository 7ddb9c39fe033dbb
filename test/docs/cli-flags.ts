import { captureIo } from "../../src/cli/io.js";
import { buildProgram } from "../../src/cli/main.js";

export interface CommandFlags {
  /** The flags `skillgym <name> --help` lists (the long form, else the short), without --help. */
  listed: string[];
  /** Every flag the command accepts, hidden ones and short forms included. */
  accepted: Set<string>;
}

/** Every command of the CLI with its flags, read from the same commander program `skillgym` parses with. */
export function cliFlags(): Map<string, CommandFlags> {
  const program = buildProgram(captureIo());
  const commands = new Map<string, CommandFlags>();
  for (const command of program.commands) {
    if (command.name() === "help") continue;
    const listed: string[] = [];
    const accepted = new Set(["--help", "-h"]);
    for (const option of command.options) {
      const names = [option.long, option.short].filter((n): n is string => Boolean(n));
      for (const name of names) accepted.add(name);
      if (!option.hidden && names[0]) listed.push(names[0]);
    }
    commands.set(command.name(), { listed, accepted });
  }
  return commands;
}
