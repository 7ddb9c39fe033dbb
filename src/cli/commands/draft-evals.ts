import { access } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { draftEvals } from "../../create/index.js";
import { type AgentFlags, createSetup, type JudgeFlags, withJudgeOptions } from "../agent-setup.js";
import type { Io } from "../io.js";
import { binaryPath, nonNegativeInt } from "../options.js";

interface DraftEvalsFlags extends AgentFlags, JudgeFlags {
  triggers: number;
  countEvals: number;
  /** The old spelling of --count-evals; --evals is a path everywhere else. */
  evals?: number;
  force?: boolean;
}

export function registerDraftEvals(program: Command, io: Io): void {
  withJudgeOptions(
    program
      .command("draft-evals")
      .description(
        "ask a model to draft a skill's trigger queries and evals; writes evals/ (never over files)",
      )
      .argument("<skill>", "the skill folder (or its SKILL.md)")
      .option("--triggers <n>", "trigger queries to draft, half of them near misses", nonNegativeInt, 20)
      .option("--count-evals <n>", "artifact evals to draft", nonNegativeInt, 3)
      .addOption(
        new Option("--evals <n>", "deprecated: use --count-evals").argParser(nonNegativeInt).hideHelp(),
      ),
    {
      role: "who drafts",
      model: "the model (required for openai)",
      baseUrl: "the API's base URL (anthropic, openai)",
    },
  )
    .option(
      "--agent-bin <path>",
      "the judge agent's binary, when the judge is an agent (claude-code, codex, gemini, opencode, copilot)",
      binaryPath,
    )
    .option("--simulate", "draft with skillgym sim's deterministic answer (offline, free)")
    .option("--sim-script <file>", "simulator script with a `judge` section")
    .option("--force", "replace existing evals/evals.json and evals/triggers.json")
    .action(async (skill: string, flags: DraftEvalsFlags) => {
      if (flags.evals !== undefined)
        io.err(
          "skillgym: draft-evals --evals <n> is deprecated; use --count-evals <n> (--evals is a path elsewhere)\n",
        );
      const setup = createSetup(flags);
      try {
        const judge = await setup.judge(join(resolve(skill), "evals"));
        const drafted = await draftEvals({
          skill,
          judge,
          triggers: flags.triggers,
          evals: flags.evals ?? flags.countEvals,
          ...(flags.force ? { force: true } : {}),
        });
        const positives = drafted.triggers.filter((t) => t.should_trigger).length;
        io.out(
          `${drafted.simulated ? "SIMULATED drafts (skillgym sim), not a model's\n" : ""}` +
            `wrote ${drafted.triggersFile}: ${drafted.triggers.length} trigger queries ` +
            `(${positives} should trigger, ${drafted.triggers.length - positives} near misses)\n` +
            `wrote ${drafted.evalsFile}: ${drafted.evalIds.length} evals (${drafted.evalIds.join(", ")})\n` +
            `${drafted.attempts > 1 ? "the first answer was refused; the second was used\n" : ""}` +
            `cost $${drafted.costUsd.toFixed(4)}\n` +
            `review the queries: skillgym view ${skill} --triggers\n`,
        );
        const simScript = join(dirname(drafted.evalsFile), "sim-script.json");
        if (
          await access(simScript).then(
            () => true,
            // Stryker disable next-line ArrowFunction: equivalent, undefined is as false as false to the if
            () => false,
          )
        )
          io.out(
            `note: ${simScript} scripts the earlier suite for --simulate; adapt its rules to the new evals (skillgym sim --help)\n`,
          );
      } finally {
        await setup.close();
      }
    });
}
