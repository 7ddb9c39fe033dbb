import { type Judge, JudgeError, type JudgeResponse } from "../judge/judge.js";
import { readDescriptionAnswer } from "./improver-answer.js";
import { buildImproverPrompt, type ImproverInput, reaskNote } from "./improver-prompt.js";

export interface Proposal {
  /** Undefined when no usable description came back (see `error`). */
  description?: string;
  model: string;
  asks: number;
  costUsd: number;
  /** Why an answer could not be used. */
  problems: string[];
  error?: string;
  system: string;
  /** Every prompt sent and the answer it got, for the iteration's record. */
  exchanges: { prompt: string; answer: string }[];
}

const ASKS = 2;

/** Asks the improver for a new description; an unusable answer is asked again once, saying why. */
export async function proposeDescription(
  judge: Judge,
  input: ImproverInput,
  options: { signal?: AbortSignal; maxTokens?: number } = {},
): Promise<Proposal> {
  const { system, prompt } = buildImproverPrompt(input);
  const proposal: Proposal = {
    model: judge.model,
    asks: 0,
    costUsd: 0,
    problems: [],
    system,
    exchanges: [],
  };
  for (let ask = 1; ask <= ASKS; ask++) {
    const problem = proposal.problems.at(-1);
    const text = problem === undefined ? prompt : prompt + reaskNote(problem);
    let response: JudgeResponse;
    try {
      response = await judge.complete({
        system,
        prompt: text,
        maxTokens: options.maxTokens ?? 2048,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (!(error instanceof JudgeError)) throw error;
      proposal.costUsd += error.costUsd ?? 0;
      return { ...proposal, error: `the improver failed: ${error.message}` };
    }
    proposal.asks++;
    proposal.costUsd += response.costUsd;
    proposal.model = response.model;
    proposal.exchanges.push({ prompt: text, answer: response.text });
    const read = readDescriptionAnswer(response.text);
    if ("description" in read) return { ...proposal, description: read.description };
    proposal.problems.push(read.problem);
  }
  return {
    ...proposal,
    error: `no usable description after ${ASKS} asks: ${proposal.problems.join("; then ")}; the previous description is kept`,
  };
}
