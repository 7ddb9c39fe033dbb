import { access } from "node:fs/promises";
import { join } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { acpCommandOf, isAcpCommand } from "../agents/acp/command.js";
import type { Agent } from "../agents/agent.js";
import { ACP_AGENT_FORM, agentLogin, agentNames, createAgent } from "../agents/registry.js";
import { createJudge, judgeBackends } from "../judge/create.js";
import type { Judge, JudgeBackend } from "../judge/judge.js";
import { loadSimScript, startSim } from "../sim/index.js";
import { envPassedBy, sandboxAskedBy } from "../suite/index.js";
import type { OutputLimits } from "../workspace/index.js";
import {
  binaryPath,
  byteSize,
  effectFloorOption,
  idList,
  modelList,
  modelsOf,
  positiveInt,
} from "./options.js";

export interface AgentFlags {
  agent?: string;
  agentBin?: string;
  simulate?: boolean;
  simScript?: string;
  simLatencyMs?: number;
  sandbox?: boolean;
  /** `--model`: one model or a comma-separated list; an agent that cannot choose one refuses it when it is made. */
  model?: string;
}

export interface JudgeFlags {
  judge?: JudgeBackend;
  judgeModel?: string;
  judgeBaseUrl?: string;
}

const known = (name: string) => isAcpCommand(name) || (agentNames as readonly string[]).includes(name);
const knownList = () => `${agentNames.join(", ")}, ${ACP_AGENT_FORM}`;

export function agentName(value: string): string {
  if (isAcpCommand(value)) return value;
  if (value.includes(",")) {
    throw new InvalidArgumentError(
      `one agent here (${agentNames.join(", ")}); only \`skillgym run\` takes a comma-separated list`,
    );
  }
  if (!known(value)) {
    throw new InvalidArgumentError(`unknown agent "${value}"; known agents: ${knownList()}`);
  }
  return value;
}

/** `run --agent a,b,…`: known names, each once; kept as the list's text, split by `agentsOf`. */
export function agentList(value: string): string {
  const names = value.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !known(name));
  if (unknown.length > 0) {
    const which = unknown.map((name) => `"${name}"`).join(", ");
    throw new InvalidArgumentError(
      `unknown agent ${which}; known agents: ${knownList()} (a comma-separated list runs each)`,
    );
  }
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  if (repeated.length > 0)
    throw new InvalidArgumentError(`${[...new Set(repeated)].join(", ")} named twice; name each agent once`);
  return names.join(",");
}

/** The agents an `--agent` value names, in order. */
export function agentsOf(flags: AgentFlags): string[] {
  return (flags.agent ?? "claude-code").split(",");
}

export function judgeBackend(value: string): JudgeBackend {
  if (isAcpCommand(value)) {
    // A command that cannot be split (an unclosed quote, nothing after "acp:") stops here, before any run.
    acpCommandOf(value, "--judge");
    return value as JudgeBackend;
  }
  if (!(judgeBackends as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${judgeBackends.join(", ")}, ${ACP_AGENT_FORM}`);
  }
  return value as JudgeBackend;
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const p of paths) {
    try {
      await access(p);
      return p;
    } catch {}
  }
  return undefined;
}

/** A loaded suite (its `env` as loaded), or the folder of one (its evals.json read for `env`). */
export type SuiteAt = string | { dir?: string; env?: readonly string[] | undefined };

async function suiteSettings(suite: SuiteAt | undefined) {
  // Stryker disable next-line ObjectLiteral: equivalent, agents and judges read a passEnv left out as an empty list
  if (suite === undefined) return { dir: undefined, passEnv: [] };
  if (typeof suite === "string") return { dir: suite, passEnv: await envPassedBy(suite) };
  return { dir: suite.dir, passEnv: suite.env ?? [] };
}

/** The agents and judges of one command; with --simulate they share one in-process `skillgym sim`. */
export interface Setup {
  /**
   * The suite's folder is where --simulate looks for its sim-script.json; its `env` names the variables its runs get.
   * `name`: another agent than --agent's.
   */
  agent(suite?: SuiteAt, name?: string): Promise<Agent>;
  /** The judge of `--judge`, or another backend asked for by name (tune's `--evaluator`). */
  judge(suite?: SuiteAt, backend?: JudgeBackend): Promise<Judge>;
  close(): Promise<void>;
}

export function createSetup(flags: AgentFlags & JudgeFlags): Setup {
  let simulatorUrl: Promise<{ url: string; script: string | null } | undefined> | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  const judges = new Map<JudgeBackend | undefined, Promise<Judge>>();
  // `--sandbox`, or `"sandbox": true` in the suite's evals.json; an agent judge is sandboxed as the agents are.
  let agentSandboxed = false;
  const sandboxAsked = async (suiteDir: string | undefined) =>
    flags.sandbox === true || (suiteDir !== undefined && (await sandboxAskedBy(suiteDir)));

  // The simulator script: --sim-script, else sim-script.json|yaml in the suite folder.
  const simulator = (suiteDir: string | undefined) => {
    simulatorUrl ??= (async () => {
      if (!flags.simulate) return undefined;
      const scriptFile =
        flags.simScript ??
        (suiteDir
          ? await firstExisting(
              ["sim-script.json", "sim-script.yaml", "sim-script.yml"].map((n) => join(suiteDir, n)),
            )
          : undefined);
      const script = scriptFile ? await loadSimScript(scriptFile) : undefined;
      const sim = await startSim({
        ...(script ? { script } : {}),
        // An undefined latency is the simulator's default, none.
        latencyMs: flags.simLatencyMs,
      });
      cleanups.push(() => sim.close());
      return { url: sim.url, script: scriptFile ?? null };
    })();
    return simulatorUrl;
  };

  return {
    async agent(suite, name) {
      const { dir: suiteDir, passEnv } = await suiteSettings(suite);
      // `--sandbox`, or `"sandbox": true` in the suite's evals.json.
      const sandbox = await sandboxAsked(suiteDir);
      if (sandbox) agentSandboxed = true;
      const sim = await simulator(suiteDir);
      const agent = await createAgent(name ?? flags.agent ?? "claude-code", {
        ...(flags.agentBin ? { binary: flags.agentBin } : {}),
        ...(sim ? { simulatorUrl: sim.url } : {}),
        ...(sandbox ? { sandbox: true } : {}),
        // No variables passed on is no list at all to every agent.
        passEnv,
        ...(flags.model ? { models: modelsOf(flags) } : {}),
      });
      for (const warning of agent.warnings ?? []) process.stderr.write(`warning: ${warning}\n`);
      return sim ? { ...agent, simScript: sim.script } : agent;
    },
    judge(suite, chosen) {
      const cached = judges.get(chosen);
      if (cached) return cached;
      const judge = (async () => {
        const { dir: suiteDir, passEnv } = await suiteSettings(suite);
        const url = (await simulator(suiteDir))?.url;
        const backend = chosen ?? flags.judge ?? (url ? "sim" : "claude-code");
        const sandbox = agentSandboxed || (await sandboxAsked(suiteDir));
        return createJudge({
          backend,
          ...(flags.judgeModel ? { model: flags.judgeModel } : {}),
          ...(flags.judgeBaseUrl ? { baseUrl: flags.judgeBaseUrl } : {}),
          ...(url ? { simulatorUrl: url } : {}),
          passEnv,
          ...(sandbox ? { sandbox: true } : {}),
          // --agent-bin names the agent's binary, which is an agent judge's only when that judge is the agent.
          ...(flags.agentBin && backend === (flags.agent ?? "claude-code") ? { binary: flags.agentBin } : {}),
        });
      })();
      judges.set(chosen, judge);
      return judge;
    },
    async close() {
      for (const cleanup of cleanups) await cleanup();
    },
  };
}

/**
 * What `--dry-run` checks before saying a real run could start: the agent's binary and login, and the judge's
 * (or improver's) when one is needed. Throws the error a real run would (exit 3); starts nothing.
 */
export async function checkCredentials(
  setup: Setup,
  flags: AgentFlags & JudgeFlags,
  needs: { judge?: string },
): Promise<string> {
  const logins: string[] = [];
  for (const name of agentsOf(flags)) {
    await setup.agent(undefined, name);
    const who = name === "claude-code" ? "Claude Code" : name;
    logins.push(`${who} logs in with ${await agentLogin(name)}`);
  }
  let judge = "";
  if (needs.judge) {
    await setup.judge();
    judge = `; ${needs.judge} (${flags.judge ?? "claude-code"}): ready`;
  }
  return `credentials: ${logins.join("; ")}${judge}`;
}

/** The flags of every command that runs the agent; `several` lets `--agent` name a comma-separated list (`run`). */
export function withAgentOptions(command: Command, several = false): Command {
  return command
    .option(
      several ? "--agent <names>" : "--agent <name>",
      several
        ? `the agents that run, comma-separated (one iteration, one matrix): ${knownList()}`
        : `the agent that runs: ${knownList()}`,
      several ? agentList : agentName,
      "claude-code",
    )
    .option(
      "--agent-bin <path>",
      "the agent's binary (default: the one installed beside skillgym, then PATH)",
      binaryPath,
    )
    .option("--simulate", "run against skillgym sim, offline and free (results are not a model's)")
    .option("--sim-script <file>", "simulator script (default: sim-script.json in the suite folder)")
    .option(
      "--sandbox",
      "run each agent inside an OS sandbox (bubblewrap, Linux): only its workspace, home and the model API",
    );
}

/** How a command's help names its judge: who it is there (a grader, a drafter, …), its model and its API. */
export interface JudgeWords {
  role: string;
  model: string;
  baseUrl: string;
}

/** The flags of every command that asks a judge (grades, evaluates, drafts, compares). */
export function withJudgeOptions(command: Command, words: Partial<JudgeWords> = {}): Command {
  const w: JudgeWords = {
    role: "who grades expectations",
    model: "the judge's model (required for openai)",
    baseUrl: "the judge API's base URL (anthropic, openai)",
    ...words,
  };
  return command
    .option("--judge <backend>", `${w.role}: ${judgeBackends.join(", ")}, ${ACP_AGENT_FORM}`, judgeBackend)
    .option("--judge-model <model>", w.model)
    .option("--judge-base-url <url>", w.baseUrl);
}

/** What `withEvalOptions` parses. */
export interface EvalFlags extends OutputLimitFlags {
  evals?: string;
  workspace?: string;
  runs: number;
  baseline: string;
  concurrency: number;
  timeout: number;
  only?: string[];
  model?: string;
  projectRoot?: string;
  adaptive?: boolean;
  maxRuns?: number;
  effectFloor: number;
}

/** What `withOutputLimitOptions` parses. */
export interface OutputLimitFlags {
  maxOutput?: number;
  maxOutputFile?: number;
  maxOutputFiles?: number;
}

/** The limits on what an eval run leaves to collect, shared by every command that runs artifact evals. */
export function withOutputLimitOptions(command: Command): Command {
  return command
    .option(
      "--max-output <size>",
      "most a run's created or changed files may come to (default 200MB)",
      byteSize,
    )
    .option("--max-output-file <size>", "largest file a run may create or change (default 50MB)", byteSize)
    .option("--max-output-files <n>", "most files a run may create or change (default 10000)", positiveInt);
}

// Only the limits given: the library puts them over the suite's evals.json and the defaults.
export function outputLimitsOf(flags: OutputLimitFlags): { outputLimits: Partial<OutputLimits> } {
  return {
    outputLimits: {
      ...(flags.maxOutput !== undefined ? { totalBytes: flags.maxOutput } : {}),
      ...(flags.maxOutputFile !== undefined ? { fileBytes: flags.maxOutputFile } : {}),
      ...(flags.maxOutputFiles !== undefined ? { files: flags.maxOutputFiles } : {}),
    },
  };
}

/** `--adaptive` as the library takes it: the cap is `--max-runs`, by default three times `--runs`. */
export function adaptiveRequest(flags: EvalFlags): { adaptive?: { maxRuns: number } } {
  return flags.adaptive ? { adaptive: { maxRuns: flags.maxRuns ?? 3 * flags.runs } } : {};
}

/** `--model`: one model, or with `severalModels` a comma-separated list run one after another into one iteration. */
export function modelOption(command: Command, severalModels: boolean): Command {
  return severalModels
    ? command.option(
        "--model <models>",
        "the agent's model; a comma-separated list runs each (one iteration, a folder and a matrix row per model)",
        modelList,
      )
    : command.option("--model <model>", "the agent's model");
}

/** The artifact-eval flags shared by `eval`, `run` and `noise`. */
export function withEvalOptions(command: Command, defaultRuns: number, severalModels = false): Command {
  return withOutputLimitOptions(
    modelOption(command, severalModels)
      .option("--evals <path>", "the eval suite folder or evals.json (default: discovered)")
      .option("--workspace <dir>", "where iterations are written (default: <skill-parent>/<name>-workspace)")
      .option("--runs <n>", "runs per eval and configuration", positiveInt, defaultRuns)
      .option(
        "--baseline <what>",
        "without_skill, none, or the folder of an earlier version (old_skill)",
        "without_skill",
      )
      .option("--concurrency <n>", "runs at once", positiveInt, 4)
      .option("--timeout <seconds>", "per-run limit unless the eval sets `timeout`", positiveInt, 600)
      .option(
        "--adaptive",
        "after --runs, add paired runs to evals whose with/without difference is uncertain (its 95% CI includes 0)",
      )
      .option(
        "--max-runs <n>",
        "with --adaptive: the most runs per eval and configuration (default 3 × --runs)",
        positiveInt,
      )
      .option("--only <ids>", "comma-separated eval ids", idList)
      .option(...effectFloorOption)
      .option("--project-root <dir>", "copy this project into every workspace first"),
  );
}
