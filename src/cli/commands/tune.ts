import { createInterface } from "node:readline/promises";
import { type Command, InvalidArgumentError } from "commander";
import type { TunePreset } from "../../contracts/iteration-state.js";
import { ExitCode, SkillgymError } from "../../errors.js";
import {
  applyBest,
  runTune,
  type TuneOptions,
  type TuneReporter,
  type TuneResult,
  terminationText,
} from "../../tune/index.js";
import {
  type AgentFlags,
  createSetup,
  type JudgeFlags,
  judgeBackend,
  withAgentOptions,
} from "../agent-setup.js";
import type { Io } from "../io.js";
import { idList, interruptSignal, positiveInt, positiveNumber } from "../options.js";
import { terminalReporter } from "../progress.js";

interface TuneFlags extends AgentFlags, JudgeFlags {
  chain?: boolean;
  preset?: TunePreset;
  maxIterations?: number;
  threshold?: number;
  scenario?: string;
  yes?: boolean;
  resume?: string;
  apply?: boolean;
  maxCost?: number;
  workspace?: string;
  runs: number;
  concurrency: number;
  timeout: number;
  model?: string;
  json?: boolean;
}

const presets: TunePreset[] = ["quick", "standard", "thorough"];

function presetName(value: string): TunePreset {
  if (!(presets as string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${presets.join(", ")}`);
  return value as TunePreset;
}

function score100(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError("expected a number from 0 to 100");
  return n;
}

// Without -y on a terminal the seed asks for the preset, and with several skills for single or chain mode.
async function askChoice(io: Io, question: string, choices: string[], fallback: number): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    io.err(`${question}\n${choices.map((c, i) => `  ${i + 1}) ${c}`).join("\n")}\n`);
    const answer = (await rl.question(`choose 1-${choices.length} [${fallback + 1}]: `)).trim();
    const n = Number(answer);
    return Number.isInteger(n) && n >= 1 && n <= choices.length ? n - 1 : fallback;
  } finally {
    rl.close();
  }
}

function progress(io: Io): TuneReporter {
  return {
    onStart({ tuneDir, resumed, state, estimate, simulated }) {
      if (simulated) io.err("SIMULATED: skillgym sim answers, not a model\n");
      const names = (state.target_skills ?? state.skill_names ?? []).join(
        state.execution_mode === "chain" ? " → " : ", ",
      );
      io.err(
        `${resumed ? "resuming" : "tuning"} ${names} in ${tuneDir}: up to ${state.max_iterations} iterations, threshold ${state.quality_threshold}\n`,
      );
      if (estimate)
        io.err(
          `estimated cost: at most $${estimate.costUsd.toFixed(2)} (${estimate.evalRuns} eval runs, ${estimate.improverRuns} improver runs, ${estimate.judgeCalls} judge calls)\n`,
        );
    },
    onIterationStart: ({ round, maxIterations, version }) =>
      io.err(`iteration ${round}/${maxIterations}: measuring ${version}\n`),
    onEvaluated({ version, score, passRate, result, skillScores, warning }) {
      const skills = skillScores
        ? ` [${Object.entries(skillScores)
            .map(([n, s]) => `${n} ${s}`)
            .join(", ")}]`
        : "";
      io.err(
        `  ${version}: score ${score} (pass rate ${Math.round(passRate * 100)}%)${skills}: ${result}${warning ? ` (warning: ${warning})` : ""}\n`,
      );
    },
    onImproved: ({ targets, rolledBack, error }) =>
      io.err(
        rolledBack
          ? `  edit of ${targets.join(", ")} not kept: ${error}\n`
          : `  edited ${targets.join(", ")}\n`,
      ),
    onError: ({ phase, message }) => io.err(`  ${phase} failed: ${message}\n`),
    onEnd: ({ reason }) => io.err(`stopped: ${reason ? terminationText[reason] : "interrupted"}\n`),
  };
}

function summaryLines(result: TuneResult, applied: string[] | undefined): string[] {
  const { state } = result;
  const lines: string[] = [];
  if (result.simulated)
    lines.push("SIMULATED: skillgym sim stood in for the model; these scores test the loop, not the skill.");
  const status = result.cancelled
    ? `interrupted; continue with: skillgym tune --resume ${result.tuneDir}`
    : state.termination_reason
      ? `completed: ${terminationText[state.termination_reason]}`
      : state.status;
  lines.push(`tune ${result.tuneDir}: ${status}`);
  const trend = state.iterations
    .filter((it) => it.evaluation)
    .map((it) => `${it.version} ${it.evaluation?.score} (${it.grading_result})`);
  if (trend.length > 0) lines.push(`scores: ${trend.join(" → ")}`);
  if (result.best.version) lines.push(`best: ${result.best.version}, ${result.best.score}/100`);
  lines.push(`cost: $${result.costUsd.toFixed(4)}`, `report: ${result.reportFile}`);
  const changed = result.diffs.some((d) => d.diff !== "");
  if (applied)
    lines.push(
      applied.length > 0
        ? `applied to: ${applied.map((n) => result.skillPaths[n]).join(", ")}`
        : "nothing to apply",
    );
  else if (changed && !result.cancelled)
    lines.push(
      `your skill is unchanged; to apply the best version: skillgym tune --resume ${result.tuneDir} --apply`,
    );
  return lines;
}

function jsonOf(result: TuneResult, applied: string[] | undefined) {
  return {
    tune_dir: result.tuneDir,
    status: result.state.status,
    cancelled: result.cancelled,
    termination_reason: result.state.termination_reason,
    simulated: result.simulated,
    best_version: result.best.version,
    best_score: result.best.score,
    score_trend: result.state.score_trend,
    iterations: result.state.iterations.map((it) => ({
      version: it.version,
      status: it.status,
      score: it.evaluation?.score ?? null,
      grading_result: it.grading_result ?? null,
    })),
    cost_usd: result.costUsd,
    estimate: result.estimate ?? null,
    report: result.reportFile,
    diff: result.diffs.map((d) => d.diff).join(""),
    applied: applied ?? null,
  };
}

async function maybeApply(io: Io, result: TuneResult, flags: TuneFlags): Promise<string[] | undefined> {
  if (!flags.apply || result.cancelled || result.state.status !== "completed") return undefined;
  const diff = result.diffs.map((d) => d.diff).join("");
  if (diff !== "" && !flags.json) io.out(`${diff}\n`);
  return applyBest(result);
}

export function registerTune(program: Command, io: Io): void {
  withAgentOptions(
    program
      .command("tune")
      .description(
        "improve a skill (or a chain of skills) by execute → evaluate → improve, keeping only what scores better",
      )
      .argument("[skills]", "the skill folder, or several comma-separated (with --chain: in chain order)"),
  )
    .option("--chain", "tune several skills as a chain: each one's outputs are the next one's inputs")
    .option("--preset <name>", "quick (3 iterations, 70), standard (5, 80), thorough (8, 90)", presetName)
    .option("--max-iterations <n>", "iterations at most (overrides the preset)", positiveInt)
    .option(
      "--threshold <score>",
      "stop once a version scores this much, 0-100 (overrides the preset)",
      score100,
    )
    .option("--scenario <text>", "the task to tune for when the skill has no evals.json")
    .option("-y, --yes", "ask nothing (standard preset unless --preset)")
    .option("--resume <dir>", "continue the tune in this folder (a tune-<timestamp>/)")
    .option("--apply", "write the best version over your skill, after printing the diff")
    .option("--max-cost <usd>", "stop before this much is spent", positiveNumber)
    .option(
      "--workspace <dir>",
      "where tune-<timestamp>/ is written (default: <skill-parent>/<name>-workspace)",
    )
    .option("--runs <n>", "runs of each eval per iteration", positiveInt, 3)
    .option("--concurrency <n>", "runs at once", positiveInt, 4)
    .option(
      "--timeout <seconds>",
      "per-run limit unless the eval sets `timeout` (the improver's too)",
      positiveInt,
      600,
    )
    .option("--model <model>", "the agent's model")
    .option(
      "--judge <backend>",
      "who grades and evaluates: claude-code, anthropic, openai, sim",
      judgeBackend,
    )
    .option("--judge-model <model>", "the judge's model (required for openai)")
    .option("--judge-base-url <url>", "the judge API's base URL (anthropic, openai)")
    .option("--json", "print the result as JSON")
    .action(async (skillsArg: string | undefined, flags: TuneFlags) => {
      const skills = skillsArg ? idList(skillsArg) : [];
      if (!flags.resume && skills.length === 0)
        throw new SkillgymError("USAGE", "tune needs a skill folder, or --resume DIR", {
          hint: "skillgym tune path/to/skill [-y]",
        });
      let preset = flags.preset;
      let chain = flags.chain === true;
      const interactive =
        !flags.yes && !flags.json && io.isTTY && process.stdin.isTTY === true && !flags.resume;
      if (interactive && !preset && flags.maxIterations === undefined && flags.threshold === undefined)
        preset =
          presets[
            await askChoice(
              io,
              "Tune preset:",
              ["quick (3 iterations, 70)", "standard (5 iterations, 80)", "thorough (8 iterations, 90)"],
              1,
            )
          ];
      if (interactive && skills.length > 1 && !chain)
        chain =
          (await askChoice(
            io,
            "Tune mode:",
            ["single: tune each skill on its own", "chain: each skill's outputs feed the next"],
            0,
          )) === 1;

      const setup = createSetup(flags);
      const interrupt = interruptSignal(() =>
        io.err("\ncancelling: the tune keeps what finished; resume it with --resume\n"),
      );
      const runProgress = terminalReporter(io, {
        spending: { usd: 0, ...(flags.maxCost !== undefined ? { maxUsd: flags.maxCost } : {}) },
      });
      const groups = flags.resume ? [skills] : chain ? [skills] : skills.map((s) => [s]);
      const outputs: ReturnType<typeof jsonOf>[] = [];
      try {
        for (const group of groups) {
          const options: TuneOptions = {
            skillPaths: group,
            mode: chain ? "chain" : "single",
            ...(preset ? { preset } : {}),
            ...(flags.maxIterations !== undefined ? { maxIterations: flags.maxIterations } : {}),
            ...(flags.threshold !== undefined ? { threshold: flags.threshold } : {}),
            ...(flags.scenario ? { scenario: flags.scenario } : {}),
            ...(flags.workspace ? { workspace: flags.workspace } : {}),
            ...(flags.resume ? { resumeDir: flags.resume } : {}),
            runs: flags.runs,
            concurrency: flags.concurrency,
            timeoutSeconds: flags.timeout,
            ...(flags.model ? { model: flags.model } : {}),
            ...(flags.maxCost !== undefined ? { maxCostUsd: flags.maxCost } : {}),
            signal: interrupt.signal,
            reporter: progress(io),
            runReporter: runProgress,
            createAgent: (suiteDir) => setup.agent(suiteDir),
            createJudge: (suiteDir) => setup.judge(suiteDir),
            onGradingError: (runDir, error) =>
              io.err(
                `  grading failed for ${runDir}: ${error instanceof Error ? error.message : String(error)}\n`,
              ),
          };
          const result = await runTune(options);
          runProgress.close();
          const applied = await maybeApply(io, result, flags);
          if (flags.json) outputs.push(jsonOf(result, applied));
          else io.out(`${summaryLines(result, applied).join("\n")}\n`);
          if (flags.apply && !applied && !flags.json) io.out("not applied: the tune did not finish\n");
          if (result.cancelled) {
            io.setExitCode(130);
            break;
          }
          // Nothing could be measured before the error limit: the agent or the judge could not be run (exit 3).
          if (
            result.state.termination_reason === "error_limit_reached" &&
            result.state.iterations.every((it) => it.evaluation === null)
          )
            io.setExitCode(ExitCode.agentUnavailable);
        }
        if (flags.json)
          io.out(`${JSON.stringify(outputs.length === 1 ? outputs[0] : { tunes: outputs }, null, 2)}\n`);
      } finally {
        runProgress.close();
        interrupt.dispose();
        await setup.close();
      }
    });
}
