import type { Command } from "commander";
import { type FormatName, formatNames, jsonSchemaOf } from "../../contracts/registry.js";
import { SkillgymError } from "../../errors.js";
import type { Io } from "../io.js";

export function registerSchema(program: Command, io: Io): void {
  program
    .command("schema")
    .description("print the JSON Schema of a file format, for editors")
    .argument("[name]", `one of: ${formatNames.join(", ")}`)
    .action((name: string | undefined) => {
      if (name === undefined) {
        io.out(`${formatNames.join("\n")}\n`);
        return;
      }
      const wanted = name.replace(/\.json$/, "").replace(/_/g, "-");
      if (!(formatNames as string[]).includes(wanted)) {
        throw new SkillgymError("USAGE", `unknown format "${name}"`, {
          hint: `choose one of: ${formatNames.join(", ")}`,
        });
      }
      io.out(`${JSON.stringify(jsonSchemaOf(wanted as FormatName), null, 2)}\n`);
    });
}
