import { appendFileSync } from "node:fs";
import type { Command } from "commander";
import { SkillgymError } from "../../errors.js";
import {
  type ChoiceExplanation,
  choiceOptions,
  defaultChoice,
  explainChoice,
  loadSimScript,
  startSim,
} from "../../sim/index.js";
import { loadSkill } from "../../skill/index.js";
import type { Io } from "../io.js";
import { nonNegativeInt } from "../options.js";

interface SimFlags {
  port?: number;
  script?: string;
  latencyMs?: number;
  log?: string;
  explain?: string;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

function explanationText(prompt: string, e: ChoiceExplanation): string {
  const lines = [
    `prompt: ${JSON.stringify(prompt)}`,
    `content words (${e.promptWords.length}): ${e.promptWords.join(", ") || "(none)"}`,
    `a skill is chosen at a score of ${pct(e.cutoff)} or more with at least ${e.minShared} shared words; the highest wins`,
    "",
  ];
  for (const s of e.skills) {
    lines.push(
      `${s.chosen ? "CHOSEN " : "not    "} ${s.name}: score ${pct(s.score)} (${s.shared.length}/${e.promptWords.length}), ` +
        `shared: ${s.shared.join(", ") || "(none)"}`,
      `        ${s.reason}`,
    );
  }
  lines.push(
    "",
    e.chosen ? `chosen: ${e.chosen}` : "chosen: none (the run would follow without_skill steps)",
  );
  return `${lines.join("\n")}\n`;
}

async function listedSkills(folders: readonly string[]) {
  const skills = [];
  for (const folder of folders) {
    const { skill } = await loadSkill(folder);
    if (!skill) throw new SkillgymError("BAD_INPUT", `${folder}: no SKILL.md with frontmatter found`);
    skills.push({ name: skill.name, description: skill.description });
  }
  return skills;
}

export function registerSim(program: Command, io: Io): void {
  program
    .command("sim")
    .description(
      "serve a deterministic stand-in for the model APIs the agents speak (Anthropic Messages, OpenAI Responses and Chat Completions, Gemini) on 127.0.0.1 (for free dry runs)",
    )
    .argument("[skills...]", "with --explain: the skill folders the prompt is scored against")
    .option("--port <n>", "port to listen on (default: any free port)", nonNegativeInt)
    .option("--script <file>", "a simulator script (JSON or YAML): rules, steps, faults")
    .option("--latency-ms <n>", "delay before every answer", nonNegativeInt)
    .option("--log <file>", "append every request to this JSON-lines file")
    .option(
      "--explain <prompt>",
      "print how `skill: auto` scores the prompt against each skill folder, and which it picks; serves nothing",
    )
    .addHelpText(
      "after",
      "\nA suite's sim-script.json (beside evals.json) tells --simulate what each run does; without one, runs only\n" +
        "load the skill and answer 'Done', so pass rates mean nothing. See examples/*/evals/sim-script.json and\n" +
        "`skillgym schema sim-script`.\n",
    )
    .action(async (skillFolders: string[], flags: SimFlags) => {
      const script = flags.script ? await loadSimScript(flags.script) : undefined;
      if (flags.explain !== undefined) {
        if (skillFolders.length === 0)
          throw new SkillgymError("USAGE", "--explain needs at least one skill folder after the prompt", {
            hint: 'skillgym sim --explain "write our 3P update" skills/internal-comms',
          });
        const options = script ? choiceOptions(script) : defaultChoice;
        const skills = await listedSkills(skillFolders);
        io.out(explanationText(flags.explain, explainChoice(flags.explain, skills, options)));
        return;
      }
      if (skillFolders.length > 0)
        throw new SkillgymError("USAGE", "skill folders are only taken with --explain <prompt>");
      const sim = await startSim({
        port: flags.port,
        script,
        latencyMs: flags.latencyMs,
        onRequest: (entry) => {
          io.err(`${entry.time} ${entry.session.slice(0, 8)} turn ${entry.turn}: ${entry.action}\n`);
          if (flags.log) appendFileSync(flags.log, `${JSON.stringify(entry)}\n`);
        },
      });
      io.out(
        `skillgym sim (a stand-in for the Anthropic API; its answers are scripted, not a model's) at ${sim.url}\n` +
          `  ANTHROPIC_BASE_URL=${sim.url} ANTHROPIC_API_KEY=sim claude -p "..."\n` +
          "Ctrl-C stops it.\n",
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          void sim.close().then(resolve);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
    });
}
