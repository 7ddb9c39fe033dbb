import { syntheticName } from "../triggers/plan.js";

// The example suite `init` writes: evals, trigger queries and the sim script that makes `--simulate` pass them.

const RESULT_FILE = "result.md";

const shouldTrigger = [
  (words: string) => `can you ${words} for me? the files are in this folder`,
  (words: string) => `I need to ${words} before friday, where do I start`,
  (words: string) => `please ${words} again, last time it missed a step`,
];

const nearMisses = [
  "what's the weather like in Lisbon tomorrow",
  "rename the variables in utils.ts to camelCase",
  (words: string) => `explain in two lines what "${words}" means, no need to do it`,
];

// Fixed fragments of the queries above, so the sim script's rules never depend on the skill's name.
const shouldTriggerMatch =
  "the files are in this folder|before friday, where do I start|last time it missed a step";
const nearMissMatch = "weather like in Lisbon|utils\\.ts to camelCase|no need to do it";
const evalMatch = "A realistic task a user would give";

export function exampleEvals(name: string): unknown {
  return {
    skill_name: name,
    evals: [
      {
        id: "example",
        prompt: `${evalMatch} that needs ${name}; replace it with a real one. Save the result to ${RESULT_FILE}.`,
        expected_output: `${RESULT_FILE} holds what a good answer produces, in a sentence or two.`,
        expectations: [`${RESULT_FILE} states the result the user asked for`],
        checks: [
          { type: "skill_invoked", description: "the skill was loaded" },
          { type: "file_exists", path: RESULT_FILE },
        ],
      },
    ],
  };
}

export function exampleTriggers(name: string): unknown {
  const words = name.replace(/-/g, " ");
  return [
    ...shouldTrigger.map((query) => ({ query: query(words), should_trigger: true })),
    ...nearMisses.map((query) => ({
      query: typeof query === "string" ? query : query(words),
      should_trigger: false,
    })),
  ];
}

/**
 * What each run does under `--simulate`: the eval writes its file only with the skill (a plain name loads only where
 * the skill is installed), the should-trigger queries load it under a trigger run's name, the near misses nothing.
 */
export function exampleSimScript(name: string): unknown {
  const unique = "0".repeat(8);
  const triggerName = syntheticName(name, unique).slice(0, -unique.length);
  return {
    rules: [
      {
        match: evalMatch,
        skill: name,
        steps: [
          {
            write: {
              path: RESULT_FILE,
              content: `# Result\n\nWhat ${name} produced for the task (simulated: edit evals/sim-script.json).\n`,
            },
          },
          { text: `Wrote ${RESULT_FILE}.` },
        ],
        without_skill: [{ text: "Here is a short answer in the chat; I did not write a file." }],
      },
      { match: shouldTriggerMatch, skill: `~${triggerName}` },
      { match: nearMissMatch, skill: "none" },
    ],
  };
}
