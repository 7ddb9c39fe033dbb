import { costAt, plainUsage, priceOf, type TokenPrice } from "../agents/pricing.js";
import { SkillgymError } from "../errors.js";
import { sleep } from "../run/retry.js";
import { type Judge, JudgeError, type JudgeRequest, type JudgeResponse } from "./judge.js";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAiJudgeOptions {
  model: string;
  /** Ends before `/chat/completions`, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Optional: local endpoints often need none. */
  apiKey?: string;
  /** Default: the price table's, by model name; with neither the cost is counted as 0 (and said so). */
  price?: TokenPrice;
  simulated?: boolean;
  timeoutMs?: number;
  /** Retries after a rate limit, a 5xx or a network error. */
  maxRetries?: number;
  retryDelayMs?: number;
}

const DEFAULT_MAX_TOKENS = 4096;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

interface ChatCompletion {
  model?: string;
  choices?: { message?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

class RetryableStatus extends Error {}

function describeStatus(status: number, body: string): string {
  const detail = body.trim().slice(0, 300);
  return `HTTP ${status}${detail ? `: ${detail}` : ""}`;
}

/** Any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama, LM Studio, llama.cpp, …). */
export function createOpenAiJudge(options: OpenAiJudgeOptions): Judge {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const where = `${options.model} at ${url}`;
  const price = options.price ?? priceOf(options.model);

  async function attempt(request: JudgeRequest): Promise<ChatCompletion> {
    const signals = [AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)];
    if (request.signal) signals.push(request.signal);
    let response: Response;
    let body: string;
    // The answer's body too: a timeout or a cancel may come while it streams.
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: options.model,
          messages: [
            { role: "system", content: request.system },
            { role: "user", content: request.prompt },
          ],
          max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
        }),
        signal: AbortSignal.any(signals),
      });
      body = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw new SkillgymError("CANCELLED", "the judge was cancelled");
      throw new RetryableStatus(`could not reach it: ${(error as Error).message}`);
    }
    if (response.status === 429 || response.status >= 500)
      throw new RetryableStatus(describeStatus(response.status, body));
    if (response.status === 401 || response.status === 403)
      throw new JudgeError(
        `the judge (${where}) refused the credentials: ${describeStatus(response.status, body)}`,
        false,
      );
    if (!response.ok)
      throw new JudgeError(`the judge (${where}) failed: ${describeStatus(response.status, body)}`, false);
    try {
      return JSON.parse(body) as ChatCompletion;
    } catch {
      throw new JudgeError(
        `the judge (${where}) answered something that is not JSON: ${body.slice(0, 200)}`,
        false,
      );
    }
  }

  async function complete(request: JudgeRequest): Promise<JudgeResponse> {
    const started = Date.now();
    const maxRetries = options.maxRetries ?? 2;
    let completion: ChatCompletion | undefined;
    for (let retry = 0; completion === undefined; retry++) {
      try {
        completion = await attempt(request);
      } catch (error) {
        if (!(error instanceof RetryableStatus)) throw error;
        if (retry >= maxRetries) throw new JudgeError(`the judge (${where}) failed: ${error.message}`, true);
        // An abort ends the wait; the next attempt, its fetch given the aborted signal, throws the cancel.
        await sleep((options.retryDelayMs ?? 1000) * 2 ** retry, request.signal);
      }
    }
    const text = completion.choices?.[0]?.message?.content;
    if (typeof text !== "string")
      throw new JudgeError(`the judge (${where}) answered without choices[0].message.content`, false);
    const inputTokens = completion.usage?.prompt_tokens ?? 0;
    const outputTokens = completion.usage?.completion_tokens ?? 0;
    return {
      text,
      model: completion.model || options.model,
      inputTokens,
      outputTokens,
      costUsd: price && !options.simulated ? costAt(price, plainUsage(inputTokens, outputTokens)) : 0,
      durationMs: Date.now() - started,
      ...(price || options.simulated
        ? {}
        : { costNote: `no price was given for ${options.model}: its cost is counted as 0` }),
    };
  }

  return { backend: "openai", model: options.model, simulated: options.simulated ?? false, complete };
}
