import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { ExitCode } from "../../errors.js";
import { createJudge } from "../../judge/create.js";
import type { Judge } from "../../judge/judge.js";
import { checkJudgesOfIterations, type JudgeSpec, parseJudgeSpecs } from "../../judges/index.js";
import { readIterationRecord } from "../../run/iteration.js";
import { loadSimScript, startSim } from "../../sim/index.js";
import type { Io } from "../io.js";
import { fraction, interruptSignal, positiveInt } from "../options.js";
import { judgesText } from "../reporters/judges.js";

interface JudgesFlags {
  judge: JudgeSpec[];
  repeat: number;
  minJudgeAgreement?: number;
  judgeBaseUrl?: string;
  simScript?: string;
  concurrency: number;
  reword: boolean;
  json?: boolean;
}

function judgeSpecs(value: string): JudgeSpec[] {
  const { specs, problems } = parseJudgeSpecs(value);
  if (problems.length > 0) throw new InvalidArgumentError(problems.join("; "));
  if (specs.length === 0) throw new InvalidArgumentError("name at least one judge");
  return specs;
}

// The sim judges share one skillgym sim, playing --sim-script, else the script the iteration was simulated with.
async function simulator(iterationDir: string, flags: JudgesFlags) {
  const recorded = (await readIterationRecord(iterationDir).catch(() => undefined))?.sim_script ?? undefined;
  const scriptFile = flags.simScript ?? recorded;
  const script = scriptFile ? await loadSimScript(scriptFile) : undefined;
  return startSim(script ? { script } : {});
}

export function registerJudges(program: Command, io: Io): void {
  program
    .command("judges")
    .description(
      "re-grade an iteration's finished runs with several judges and say how far each can be trusted: agreement with each other, with reviewers' marks, and with itself",
    )
    .argument("<iteration-dir>", "an iteration folder written by `skillgym eval` or `run`")
    .requiredOption(
      "--judge <list>",
      "the judges, comma-separated, each `backend` or `backend:model` (e.g. claude-code,anthropic:claude-opus-4-1,sim:strict)",
      judgeSpecs,
    )
    .option(
      "--repeat <n>",
      "times each judge grades each run (2 or more measures how often it flips)",
      positiveInt,
      1,
    )
    .option(
      "--min-judge-agreement <x>",
      "CI gate: exit 1 when any pair of judges agrees on less than this share of verdicts (percent agreement, 0–1)",
      fraction,
    )
    .option("--judge-base-url <url>", "the judges' API base URL (anthropic, openai)")
    .option(
      "--sim-script <file>",
      "the script sim judges play (default: the one the iteration was simulated with)",
    )
    .option("--concurrency <n>", "gradings at once", positiveInt, 4)
    .option("--no-reword", "do not ask the first judge, as the analyzer, to reword ambiguous expectations")
    .option("--json", "print judges.json")
    .action(async (iterationDir: string, flags: JudgesFlags) => {
      const needsSim = flags.judge.some((s) => s.backend === "sim");
      const sim = needsSim ? await simulator(iterationDir, flags) : undefined;
      const interrupt = interruptSignal(() => io.err("\ncancelling\n"));
      try {
        const judges: { spec: JudgeSpec; judge: Judge }[] = [];
        for (const spec of flags.judge)
          judges.push({
            spec,
            judge: await createJudge({
              backend: spec.backend,
              ...(spec.model ? { model: spec.model } : {}),
              ...(flags.judgeBaseUrl ? { baseUrl: flags.judgeBaseUrl } : {}),
              ...(sim && spec.backend === "sim" ? { simulatorUrl: sim.url } : {}),
            }),
          });
        const parts = await checkJudgesOfIterations({
          iterationDir,
          judges,
          repeat: flags.repeat,
          concurrency: flags.concurrency,
          reword: flags.reword,
          minJudgeAgreement: flags.minJudgeAgreement,
          signal: interrupt.signal,
          onGraded: (info) => {
            if (info.error) io.err(`  ${info.judge} on ${info.runId}: grading failed: ${info.error}\n`);
          },
        });
        // An iteration of several agents: each agent's judges.json, printed under its name.
        // Stryker disable next-line MethodExpression: equivalent, every part names its agent or none does
        const several = parts.some((p) => p.agent !== undefined);
        if (flags.json) {
          const reports = parts.map((p) => p.checked.report);
          const byAgent = Object.fromEntries(parts.map((p) => [p.agent, p.checked.report]));
          io.out(`${JSON.stringify(several ? byAgent : reports[0], null, 2)}\n`);
        } else
          for (const part of parts)
            io.out(
              `${part.agent ? `[${part.agent}]\n` : ""}${judgesText(part.checked.report, part.checked.path)}`,
            );
        const reports = parts.map((p) => p.checked.report);
        if (reports.every((r) => r.judges.every((j) => j.verdicts === 0)))
          io.setExitCode(ExitCode.agentUnavailable);
        else if (reports.some((r) => r.gate && !r.gate.passed)) io.setExitCode(ExitCode.gateFailed);
      } finally {
        interrupt.dispose();
        await sim?.close();
      }
    });
}
