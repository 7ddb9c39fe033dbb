import type { Command } from "commander";
import { scaffoldSkill } from "../../create/index.js";
import type { Io } from "../io.js";

interface InitFlags {
  name?: string;
  description?: string;
}

export function registerInit(program: Command, io: Io): void {
  program
    .command("init")
    .description("scaffold a spec-valid skill folder with an example eval suite; never overwrites a file")
    .argument("<dir>", "the skill folder to create (its name is the skill's name)")
    .option("--name <name>", "the skill's name (must equal the folder's name)")
    .option("--description <text>", "what the skill does and when to use it")
    .action(async (dir: string, flags: InitFlags) => {
      const made = await scaffoldSkill({
        dir,
        name: flags.name,
        description: flags.description,
      });
      io.out(`created skill "${made.name}" in ${made.dir}\n`);
      for (const file of made.files) io.out(`  ${file}\n`);
      io.out(
        `next: edit SKILL.md, then \`skillgym draft-evals ${dir} --force\` replaces the example evals with drafts\n`,
      );
    });
}
