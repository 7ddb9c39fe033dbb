import type Anthropic from "@anthropic-ai/sdk";
import type { TokenUsage } from "../agents/events.js";
import { costAt, priceOf } from "../agents/pricing.js";
import { SkillgymError } from "../errors.js";
import { type Judge, type JudgeBackend, JudgeError, type JudgeRequest, type JudgeResponse } from "./judge.js";

export interface AnthropicJudgeOptions {
  model: string;
  /** Exactly one of apiKey / authToken. */
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
  /** "sim" when baseURL is skillgym sim. */
  backend?: Extract<JudgeBackend, "anthropic" | "sim">;
  timeoutMs?: number;
}

export const DEFAULT_MAX_TOKENS = 8192;

type Sdk = typeof Anthropic;

function isRetryable(Anthropic: Sdk, error: unknown): boolean {
  return (
    error instanceof Anthropic.RateLimitError ||
    error instanceof Anthropic.InternalServerError ||
    error instanceof Anthropic.APIConnectionError
  );
}

function judgeErrorOf(Anthropic: Sdk, error: unknown, model: string, baseURL: string): Error {
  if (error instanceof Anthropic.APIUserAbortError)
    return new SkillgymError("CANCELLED", "the judge was cancelled");
  if (error instanceof Anthropic.AuthenticationError || error instanceof Anthropic.PermissionDeniedError)
    return new JudgeError(`the judge's credentials were refused by ${baseURL}: ${error.message}`, false);
  if (error instanceof Anthropic.NotFoundError)
    return new JudgeError(`the judge model ${model} was not found at ${baseURL}: ${error.message}`, false);
  const message = error instanceof Error ? error.message : String(error);
  return new JudgeError(
    `the judge (${model} at ${baseURL}) failed: ${message}`,
    isRetryable(Anthropic, error),
  );
}

/** The Messages API through the official SDK; also the `sim` backend, pointed at skillgym sim. */
export function createAnthropicJudge(options: AnthropicJudgeOptions): Judge {
  const backend = options.backend ?? "anthropic";
  const baseURL = options.baseURL ?? "https://api.anthropic.com";
  const credential =
    options.apiKey !== undefined ? { apiKey: options.apiKey } : { authToken: options.authToken ?? null };
  // The SDK loads on the first call: a command that never asks this judge does not pay for its import.
  let loaded: Promise<{ Anthropic: Sdk; client: Anthropic }> | undefined;
  const load = () =>
    (loaded ??= import("@anthropic-ai/sdk").then(({ default: Anthropic }) => ({
      Anthropic,
      client: new Anthropic({
        ...credential,
        baseURL,
        maxRetries: 2,
        logLevel: "off",
        // Stryker disable next-line ConditionalExpression: equivalent, the SDK takes an undefined timeout as its default
        ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      }),
    })));
  const price = priceOf(options.model);
  const simulated = backend === "sim";

  async function complete(request: JudgeRequest): Promise<JudgeResponse> {
    const started = Date.now();
    const { Anthropic, client } = await load();
    let message: Anthropic.Message;
    try {
      message = await client.messages.create(
        {
          model: options.model,
          max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
          system: request.system,
          messages: [{ role: "user", content: request.prompt }],
        },
        request.signal ? { signal: request.signal } : {},
      );
    } catch (error) {
      throw judgeErrorOf(Anthropic, error, options.model, baseURL);
    }
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const usage: TokenUsage = {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
    };
    const costNote =
      price || simulated ? undefined : `no price is known for ${options.model}: its cost is counted as 0`;
    return {
      text,
      model: message.model || options.model,
      inputTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
      outputTokens: usage.outputTokens,
      costUsd: price && !simulated ? costAt(price, usage) : 0,
      durationMs: Date.now() - started,
      ...(costNote ? { costNote } : {}),
    };
  }

  return { backend, model: options.model, simulated, complete };
}
