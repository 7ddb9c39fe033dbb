import type { SimJudge } from "../contracts/sim-script.js";
import { isRetry, readDraftRequest } from "./drafter-protocol.js";
import { contentWordList } from "./skill-choice.js";

const shouldTemplates = [
  (a: string, b: string) => `can you ${a} the ${b} in this repo for me`,
  (a: string, b: string) => `I need help with ${a} and ${b} before the release tomorrow`,
  (a: string, b: string) => `my ${b} is a mess, please sort out the ${a} part`,
  (a: string, b: string) => `quick one: ${a} ${b} for the files under src/`,
  (a: string, b: string) => `hey, do the usual ${a} on ${b} like last week`,
];

// Near misses share one word with the skill but ask for an adjacent task it does not do.
const nearMissTemplates = [
  (a: string) => `what does ${a} mean in general? just explain, no changes`,
  (a: string) => `write a poem about ${a}`,
  (a: string) => `who invented ${a} and when`,
  (a: string) => `translate the word ${a} into French`,
  (a: string) => `how do I pronounce ${a}`,
];

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

/** The simulator's drafter: deterministic trigger queries and evals built from the skill's description words. */
export function drafterAnswer(text: string, judge: SimJudge | undefined): string {
  const mode = judge?.drafter ?? "valid";
  if (mode === "invalid" || (mode === "invalid-once" && !isRetry(text))) {
    return "Sorry, I cannot draft evals for this skill (simulated invalid answer, skillgym sim).";
  }
  const request = readDraftRequest(text) ?? { name: "skill", description: "", triggers: 20, evals: 3 };
  const words = contentWordList(`${request.description} ${request.name.replace(/-/g, " ")}`);
  if (words.length === 0) words.push("task");
  const positives = Math.ceil(request.triggers / 2);
  const triggers = Array.from({ length: request.triggers }, (_, i) => {
    if (i < positives) {
      const round = Math.floor(i / shouldTemplates.length);
      const query = pick(shouldTemplates, i)(pick(words, i), pick(words, i + 1 + round));
      return { query: round > 0 ? `${query} (take ${round + 1})` : query, should_trigger: true };
    }
    const j = i - positives;
    const round = Math.floor(j / nearMissTemplates.length);
    const query = pick(nearMissTemplates, j)(pick(words, j));
    return { query: round > 0 ? `${query} (take ${round + 1})` : query, should_trigger: false };
  });
  const evals = Array.from({ length: request.evals }, (_, i) => ({
    id: `draft-${i + 1}`,
    prompt: `${pick(shouldTemplates, i)(pick(words, i), pick(words, i + 1))}; save the result to output.md`,
    expected_output: `output.md covering ${pick(words, i)} and ${pick(words, i + 1)}`,
    expectations: [`The output addresses ${pick(words, i)}`, `The output mentions ${pick(words, i + 1)}`],
    checks: [{ type: "file_exists", path: "output.md" }],
  }));
  if (mode === "bad-schema")
    return JSON.stringify({ triggers: triggers.map((t) => ({ query: t.query })), evals });
  return `\`\`\`json\n${JSON.stringify({ triggers, evals }, null, 2)}\n\`\`\``;
}
