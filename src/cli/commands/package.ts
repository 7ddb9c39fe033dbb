import type { Command } from "commander";
import { packageSkill } from "../../skill/index.js";
import type { Io } from "../io.js";

export function registerPackage(program: Command, io: Io): void {
  program
    .command("package")
    .description(
      "zip a valid skill into <name>.skill (leaving out evals/, secrets, caches, litter and what .skillignore or .gitignore ignore)",
    )
    .argument("<skill>", "the skill folder")
    .option("--out <dir>", "where to write the .skill file (default: the current folder)")
    .action(async (skillPath: string, flags: { out?: string }) => {
      const packaged = await packageSkill(skillPath, flags.out);
      io.out(`wrote ${packaged.file} (${packaged.entries.length} files)\n`);
      if (packaged.leftOut.length > 0) {
        const n = packaged.leftOut.length;
        io.out(
          `left out ${n} ${n === 1 ? "entry" : "entries"}:\n${packaged.leftOut.map((p) => `  ${p}\n`).join("")}`,
        );
      }
    });
}
