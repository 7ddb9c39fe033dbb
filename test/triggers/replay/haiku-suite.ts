import { skillMd } from "../../e2e/helpers.js";

/**
 * A skill with three trigger queries and a sim script for them, as `writeTree` takes it: one loads the skill on the
 * first turn, one after a shell call, one never. Replay decides two of the three runs, the agent one.
 */
export const HAIKU_SUITE: Record<string, string> = {
  "haiku/SKILL.md": skillMd("haiku", "Writes a haiku. Use when the user asks for a haiku.", "Write one."),
  "haiku/evals/triggers.json": JSON.stringify([
    { query: "first: write a haiku", should_trigger: true },
    { query: "later: a haiku on the files here", should_trigger: true },
    { query: "never: what is 2+2", should_trigger: false },
  ]),
  "haiku/evals/sim-script.json": JSON.stringify({
    rules: [
      { match: "^first:", skill: "~haiku-sg-" },
      { match: "^later:", skill: "~haiku-sg-", before: [{ bash: "true" }] },
      { skill: "none", without_skill: [{ text: "Sure." }] },
    ],
  }),
};
