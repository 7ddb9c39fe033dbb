import { draftRequestBlock, retryReasonBlock } from "../contracts/drafter-protocol.js";
import { judgeMarkers } from "../contracts/judge-markers.js";

export const drafterSystem =
  "You write eval suites for Agent Skills. You answer with one JSON object and nothing else.";

export interface DraftPromptInput {
  name: string;
  description: string;
  skillMd: string;
  triggers: number;
  evals: number;
  /** Why the previous answer was refused; present on the one retry. */
  retryReason?: string;
}

/** The drafter's prompt: the skill's SKILL.md, what to write, and the exact JSON shape. */
export function draftPrompt(input: DraftPromptInput): string {
  const positives = Math.ceil(input.triggers / 2);
  return `${judgeMarkers.drafter}
Draft an eval suite for the Agent Skill below.

${draftRequestBlock({ name: input.name, description: input.description, triggers: input.triggers, evals: input.evals })}

1. Exactly ${input.triggers} trigger queries: ${positives} with "should_trigger": true and ${input.triggers - positives} with "should_trigger": false.
   - Write them as a real user types them: realistic, specific, casual, with file names, context and typos where natural.
   - The should-trigger queries cover different phrasings of the tasks the skill is for, including ones that never name the skill.
   - The should-not-trigger queries are near misses: adjacent tasks a user would confuse with this skill, sharing its words, that the skill must not handle. No obviously unrelated queries.
2. Exactly ${input.evals} artifact evals: a task prompt a user would give, the expected output in a sentence, and expectations (statements a grader can verify from the outputs). Add "checks" only where a mechanical check decides, e.g. {"type": "file_exists", "path": "out.md"}, {"type": "file_contains", "path": "out.md", "pattern": "regex"}, {"type": "command", "run": "npm test"}.

Answer with exactly this JSON shape:
{"triggers": [{"query": "...", "should_trigger": true}], "evals": [{"id": "short-kebab-id", "prompt": "...", "expected_output": "...", "expectations": ["..."], "checks": []}]}

<skill-md>
${input.skillMd.replace(/<\/skill-md>/gi, "<\\/skill-md>")}
</skill-md>
${input.retryReason !== undefined ? `\nYour previous answer was refused. Fix this and answer again with the JSON object only:\n${retryReasonBlock(input.retryReason)}\n` : ""}`;
}
