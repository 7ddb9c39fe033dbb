import { isRetry, readDraftRequest } from "../contracts/drafter-protocol.js";
import type { SimJudge } from "../contracts/sim-script.js";
import { contentPhrases } from "./skill-choice.js";

const shouldTemplates = [
  (a: string, b: string) => `Can you help me with the ${a}? I also need the ${b}.`,
  (a: string, b: string) => `Please take care of the ${a} for this project, and include the ${b}.`,
  (a: string, b: string) => `I need the ${a} done today, starting with the ${b}.`,
  (a: string, b: string) => `Next task: the ${a}. Pay attention to the ${b}.`,
  (a: string, b: string) => `Could you sort out the ${a} for me? Start with the ${b}.`,
];

// Near misses share one word with the skill but ask for an adjacent task it does not do.
const nearMissTemplates = [
  (a: string) => `What does "${a}" mean in general? Just explain, no changes.`,
  (a: string) => `Tell me a joke about ${a}.`,
  (a: string) => `Who came up with the idea of ${a}, and when?`,
  (a: string) => `Translate the word "${a}" into French.`,
  (a: string) => `How do I pronounce "${a}"?`,
];

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

/** The description's phrases, the longer (the task's objects) first; single words for near misses. */
function phrasesOf(name: string, description: string): { objects: string[]; words: string[] } {
  const described = contentPhrases(description);
  // The name joins only when the description alone is short of phrases.
  const phrases =
    described.filter((p) => p.includes(" ")).length >= 2
      ? described
      : contentPhrases(`${name.replace(/-/g, " ")}. ${description}`);
  const long = phrases.filter((p) => p.includes(" "));
  const single = phrases.filter((p) => !p.includes(" "));
  const objects = long.length >= 2 ? long : [...long, ...single];
  const words = [...new Set(phrases.map((p) => p.split(" ").at(-1) ?? p))];
  if (objects.length === 0) objects.push("task");
  if (words.length === 0) words.push("task");
  return { objects, words };
}

/** The simulator's drafter: deterministic, readable trigger queries and evals built from the description's phrases. */
export function drafterAnswer(text: string, judge: SimJudge | undefined): string {
  const mode = judge?.drafter;
  if (mode === "invalid" || (mode === "invalid-once" && !isRetry(text))) {
    return "Sorry, I cannot draft evals for this skill (simulated invalid answer, skillgym sim).";
  }
  const request = readDraftRequest(text) ?? { name: "", description: "", triggers: 20, evals: 3 };
  const { objects, words } = phrasesOf(request.name, request.description);
  // A lone object comes from a lone phrase, which leaves one word: its last.
  const second = (i: number, round: number) =>
    objects.length > 1 ? pick(objects, i + 1 + (round % (objects.length - 1))) : pick(words, 0);
  const positives = Math.ceil(request.triggers / 2);
  const triggers = Array.from({ length: request.triggers }, (_, i) => {
    if (i < positives) {
      const round = Math.floor(i / shouldTemplates.length);
      const query = pick(shouldTemplates, i)(pick(objects, i), second(i, round));
      return { query: round > 0 ? `${query} (take ${round + 1})` : query, should_trigger: true };
    }
    const j = i - positives;
    const round = Math.floor(j / nearMissTemplates.length);
    const query = pick(nearMissTemplates, j)(pick(words, j));
    return { query: round > 0 ? `${query} (take ${round + 1})` : query, should_trigger: false };
  });
  const evals = Array.from({ length: request.evals }, (_, i) => ({
    id: `draft-${i + 1}`,
    prompt: `${pick(shouldTemplates, i)(pick(objects, i), second(i, 0))} Save the result to output.md.`,
    expected_output: `output.md covering the ${pick(objects, i)} and the ${second(i, 0)}`,
    expectations: [`The output addresses the ${pick(objects, i)}`, `The output mentions the ${second(i, 0)}`],
    checks: [{ type: "file_exists", path: "output.md" }],
  }));
  if (mode === "bad-schema")
    return JSON.stringify({ triggers: triggers.map((t) => ({ query: t.query })), evals });
  return `\`\`\`json\n${JSON.stringify({ triggers, evals }, null, 2)}\n\`\`\``;
}
