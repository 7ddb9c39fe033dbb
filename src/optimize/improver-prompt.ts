import {
  currentDescriptionBlock,
  type DescriberFailure,
  trainFailuresBlock,
} from "../contracts/describer-protocol.js";
import { judgeMarkers } from "../contracts/judge-markers.js";
import { clipHead } from "../judge/grader-prompt.js";
import { MAX_DESCRIPTION } from "../triggers/description.js";

/** An earlier description and how it did on the train queries: nothing from the test side. */
export interface EarlierAttempt {
  iteration: number;
  description: string;
  trainScore: number | null;
  trainPassed: number;
  trainTotal: number;
}

/** Everything the improver may see. The type has no room for test queries or test scores, on purpose. */
export interface ImproverInput {
  skillName: string;
  currentDescription: string;
  skillBody: string;
  threshold: number;
  trainFailures: DescriberFailure[];
  attempts: EarlierAttempt[];
}

const BODY_CHARS = 12_000;

const SYSTEM = `${judgeMarkers.describer}
You improve the description of an Agent Skill. A coding agent sees only each skill's name and description when it
decides whether to load the skill for a user's request, so the description decides whether the skill is ever used.
A good description says what the skill does and when to use it, naming the kinds of requests and the words users
write when they need it, without being so broad that unrelated requests load it.
Rules: at most ${MAX_DESCRIPTION} characters; no < or > characters; plain text in one paragraph.
Answer with the new description only: no preamble, no quotes, no markdown.`;

const pct = (x: number | null) => (x === null ? "n/a" : `${Math.round(x * 100)}%`);

function attemptsSection(attempts: readonly EarlierAttempt[]): string {
  if (attempts.length === 0) return "";
  const lines = attempts.map(
    (a) =>
      `- iteration ${a.iteration}: train accuracy ${pct(a.trainScore)}, ${a.trainPassed}/${a.trainTotal} train queries passed\n  ${a.description}`,
  );
  return `\nDescriptions tried so far and how they did on these queries (do not repeat one):\n${lines.join("\n")}\n`;
}

export function buildImproverPrompt(input: ImproverInput): { system: string; prompt: string } {
  const missed = input.trainFailures.filter((f) => f.should_trigger).length;
  const falseTriggers = input.trainFailures.length - missed;
  const prompt = [
    `Skill name: ${input.skillName}`,
    "",
    "The current description:",
    currentDescriptionBlock(input.currentDescription),
    "",
    `Requests it got wrong (${missed} missed: should load the skill but did not; ${falseTriggers} false triggers: ` +
      `loaded it but should not). trigger_rate is the share of runs in which the agent loaded the skill; a request ` +
      `counts as loading it at ${pct(input.threshold)} or more.`,
    trainFailuresBlock(input.trainFailures),
    attemptsSection(input.attempts),
    "The skill's instructions (the body of its SKILL.md), for what it really does:",
    "<skill-body>",
    clipHead(input.skillBody.trim(), BODY_CHARS),
    "</skill-body>",
    "",
    "Write a better description: one that makes the agent load the skill for requests like the missed ones and not " +
      "for requests like the false triggers. Generalize to the kind of request; do not list these requests word " +
      "for word. Answer with the new description only.",
  ].join("\n");
  return { system: SYSTEM, prompt };
}

/** Appended when the first answer could not be used, saying why. */
export function reaskNote(problem: string): string {
  return `\n\nYour previous answer could not be used: ${problem}. Answer again with the new description only, at most ${MAX_DESCRIPTION} characters, without < or >.`;
}
