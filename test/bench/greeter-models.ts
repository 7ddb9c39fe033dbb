import { join } from "node:path";
import { skillMd, writeTree } from "../e2e/helpers.js";

// One sim script, two models: on `old` the skill writes the card and the bare agent does not; on `new` the bare
// agent writes it too (the skill is needless), and eval 2's skill breaks on `new`. The trigger query for a birthday
// card picks the skill on `old` and not on `new`.
export const greeterScript = {
  rules: [
    {
      match: "greeting card",
      model: "^old$",
      steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }],
      without_skill: [{ text: "Hello Ada." }],
    },
    {
      match: "greeting card",
      model: "^new$",
      skill: "none",
      without_skill: [{ write: { path: "card.txt", content: "Hi Ada\n" } }],
    },
    {
      match: "thank-you note",
      model: "^old$",
      steps: [{ write: { path: "note.txt", content: "Thank you!\n" } }],
      without_skill: [{ text: "Thanks." }],
    },
    {
      match: "thank-you note",
      model: "^new$",
      steps: [{ text: "No note today." }],
      without_skill: [{ text: "Thanks." }],
    },
    {
      match: "birthday card",
      model: "^old$",
      skill: "~greeter-sg-",
      steps: [{ text: "Card written." }],
    },
    {
      match: "birthday card",
      model: "^new$",
      skill: "none",
      without_skill: [{ text: "Happy birthday!" }],
    },
  ],
};

export const cardEval = { id: 1, prompt: "Please make a greeting card for Ada", file: "card.txt" };
export const noteEval = { id: 2, prompt: "Write a thank-you note for Ada", file: "note.txt" };

/** `<dir>/greeter/` (the skill) and `<dir>/sim.json` (the script above). */
export async function writeGreeter(dir: string): Promise<void> {
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd(
      "greeter",
      "Writes a greeting card or a thank-you note file. Use when the user asks for a greeting card or a note.",
      "Write card.txt (a card) or note.txt (a thank-you note).",
    ),
    "sim.json": JSON.stringify(greeterScript),
  });
}

/** The greeter's evals.json: one check per eval, that its file exists. */
export async function writeGreeterSuite(
  dir: string,
  evals: { id: number; prompt: string; file: string }[],
): Promise<void> {
  await writeTree(dir, {
    "greeter/evals/evals.json": JSON.stringify({
      skill_name: "greeter",
      evals: evals.map((e) => ({
        id: e.id,
        prompt: e.prompt,
        expected_output: e.file,
        expectations: [{ text: `${e.file} exists`, command: `test -f ${e.file}` }],
      })),
    }),
  });
}

/** `skillgym run` of the greeter on the simulator with these models (`old`, `new` or `old,new`), two runs each. */
export function greeterRunArgs(dir: string, models: string, workspace: string): string[] {
  return [
    "run",
    join(dir, "greeter"),
    "--simulate",
    "--sim-script",
    join(dir, "sim.json"),
    "--model",
    models,
    "--runs",
    "2",
    "--workspace",
    workspace,
  ];
}
