import { readCurrentDescription, readTrainFailures } from "../contracts/describer-protocol.js";
import { contentWordList, contentWords } from "./skill-choice.js";

const MAX_DESCRIPTION = 1024;
const length = (text: string) => [...text].length;

/**
 * The simulator's improver: the current description plus a sentence naming the content words of the missed
 * should-trigger queries it lacks (false triggers are left alone). The skill chooser picks skills by word overlap,
 * so this raises recall on unseen queries that share words with the missed ones, as a real improver would.
 */
export function describerAnswer(text: string): string {
  const current = readCurrentDescription(text) ?? "";
  const missed = (readTrainFailures(text) ?? []).filter((f) => f.should_trigger);
  const known = contentWords(current);
  const words: string[] = [];
  for (const failure of missed) {
    for (const word of contentWordList(failure.query)) {
      const stem = [...contentWords(word)][0];
      if (stem === undefined || known.has(stem)) continue;
      known.add(stem);
      words.push(word);
    }
  }
  const separator = current === "" ? "" : /[.!?]$/.test(current) ? " " : ". ";
  while (words.length > 0) {
    const proposal = `${current}${separator}Use when the user asks about ${words.join(", ")}.`;
    if (length(proposal) <= MAX_DESCRIPTION) return proposal;
    words.pop();
  }
  return current === "" ? "Simulated description (skillgym sim)." : current;
}
