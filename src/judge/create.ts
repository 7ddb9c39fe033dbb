import type { TokenPrice } from "../agents/pricing.js";
import { SIM_MODEL } from "../contracts/sim-model.js";
import { SkillgymError } from "../errors.js";
import { type AgentJudgeName, createAgentJudge, isAcpJudge } from "./agent-judge.js";
import { createAnthropicJudge } from "./anthropic.js";
import type { Judge, JudgeBackend } from "./judge.js";
import { createOpenAiJudge, OPENAI_DEFAULT_BASE_URL } from "./openai.js";

export const DEFAULT_ANTHROPIC_JUDGE_MODEL = "claude-sonnet-4-5";
export const judgeBackends: readonly JudgeBackend[] = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "copilot",
  "anthropic",
  "openai",
  "sim",
];

export interface JudgeOptions {
  backend: JudgeBackend;
  /** Default: claude-sonnet-4-5 (anthropic), the agent's own (claude-code, codex, gemini, opencode, copilot, acp:…); required for openai. */
  model?: string;
  /** The API's base URL (anthropic, openai); default from ANTHROPIC_BASE_URL / OPENAI_BASE_URL. */
  baseUrl?: string;
  /** skillgym sim's URL: required for `sim`; any other backend given it talks to it too (no credentials needed). */
  simulatorUrl?: string;
  /** The agent's binary (claude-code, codex, gemini, opencode, copilot). */
  binary?: string;
  env?: NodeJS.ProcessEnv;
  /** An agent judge's: names of `env`'s variables it gets besides its own credentials (the suite's evals.json `env`). */
  passEnv?: readonly string[];
  /** Price of the openai backend's model; default: the price table's, else its cost is counted as 0. */
  price?: TokenPrice;
  timeoutMs?: number;
  /** Agent judges run inside the OS sandbox (`--sandbox`); API judges, given only the run's text, are unchanged. */
  sandbox?: boolean;
}

function needSimulator(options: JudgeOptions): string {
  if (options.simulatorUrl) return options.simulatorUrl;
  throw new SkillgymError("USAGE", "the sim judge needs the URL of a running skillgym sim", {
    hint: "use --simulate, which starts one, or choose another --judge",
  });
}

// A model name reaches the sim as the request's model: its script's `judge_model` verdicts tell judges apart by it.
function simJudge(options: JudgeOptions): Judge {
  return createAnthropicJudge({
    backend: "sim",
    model: options.model ?? SIM_MODEL,
    apiKey: "sk-skillgym-simulator",
    baseURL: needSimulator(options),
  });
}

function anthropicJudge(options: JudgeOptions, env: NodeJS.ProcessEnv): Judge {
  const apiKey = env.ANTHROPIC_API_KEY;
  const authToken = env.ANTHROPIC_AUTH_TOKEN;
  if (!apiKey && !authToken) {
    throw new SkillgymError(
      "NO_CREDENTIALS",
      "the anthropic judge needs ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN",
      {
        hint: "set ANTHROPIC_API_KEY, use --judge claude-code to grade with your Claude Code login, or --simulate for a dry run",
      },
    );
  }
  const baseURL = options.baseUrl ?? env.ANTHROPIC_BASE_URL;
  return createAnthropicJudge({
    model: options.model ?? DEFAULT_ANTHROPIC_JUDGE_MODEL,
    ...(apiKey ? { apiKey } : { authToken: authToken as string }),
    ...(baseURL ? { baseURL } : {}),
    // Stryker disable next-line ConditionalExpression: equivalent, every judge reads an undefined timeoutMs as its default
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

function openAiJudge(options: JudgeOptions, env: NodeJS.ProcessEnv): Judge {
  if (!options.model) {
    throw new SkillgymError("USAGE", "the openai judge needs a model", {
      hint: "pass --judge-model, e.g. --judge-model gpt-4.1 or the name your local server gives its model",
    });
  }
  const simulated = Boolean(options.simulatorUrl);
  const baseUrl = options.simulatorUrl
    ? `${options.simulatorUrl.replace(/\/+$/, "")}/v1`
    : (options.baseUrl ?? env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL);
  const apiKey = env.OPENAI_API_KEY;
  // Local servers (Ollama, vLLM, LM Studio) take no key; OpenAI's own API does.
  if (!apiKey && !simulated && baseUrl.replace(/\/+$/, "") === OPENAI_DEFAULT_BASE_URL) {
    throw new SkillgymError("NO_CREDENTIALS", `the openai judge needs OPENAI_API_KEY for ${baseUrl}`, {
      hint: "set OPENAI_API_KEY, or point --judge-base-url (or OPENAI_BASE_URL) at a local OpenAI-compatible server",
    });
  }
  return createOpenAiJudge({
    model: options.model,
    baseUrl,
    simulated,
    ...(apiKey && !simulated ? { apiKey } : {}),
    ...(options.price ? { price: options.price } : {}),
    // Stryker disable next-line ConditionalExpression: equivalent, every judge reads an undefined timeoutMs as its default
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/** Builds a judge, failing fast (before any run) on a missing binary, credentials or model. */
export async function createJudge(options: JudgeOptions): Promise<Judge> {
  const env = options.env ?? process.env;
  const agentJudge = (name: AgentJudgeName) =>
    createAgentJudge(name, {
      env,
      ...(options.passEnv ? { passEnv: options.passEnv } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.binary ? { binary: options.binary } : {}),
      ...(options.simulatorUrl ? { simulatorUrl: options.simulatorUrl } : {}),
      // Stryker disable next-line ConditionalExpression: equivalent, every judge reads an undefined timeoutMs as its default
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.sandbox ? { sandbox: true } : {}),
    });
  if (isAcpJudge(options.backend)) return agentJudge(options.backend);
  switch (options.backend) {
    case "anthropic":
      return options.simulatorUrl ? simJudge(options) : anthropicJudge(options, env);
    case "openai":
      return openAiJudge(options, env);
    case "sim":
      return simJudge(options);
    case "claude-code":
    case "codex":
    case "gemini":
    case "opencode":
    case "copilot":
      return agentJudge(options.backend);
    default:
      throw new SkillgymError("USAGE", `unknown judge backend "${String(options.backend)}"`, {
        hint: `choose one of: ${judgeBackends.join(", ")}`,
      });
  }
}
