import { mkdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { SkillgymError } from "../errors.js";
import { exists } from "../fs-probe.js";
import { checkName, MAX_DESCRIPTION_LENGTH, saysWhenToUse } from "../skill/field-rules.js";
import { exampleEvals, exampleSimScript, exampleTriggers } from "./example-suite.js";

export interface ScaffoldOptions {
  dir: string;
  /** Default: the folder's name; it must equal the folder's name (the spec). */
  name?: string;
  description?: string;
}

export interface Scaffolded {
  dir: string;
  name: string;
  /** Every file written, relative to `dir`. */
  files: string[];
}

function defaultDescription(name: string): string {
  const words = name.replace(/-/g, " ");
  return `Describe what ${words} does in one sentence. Use when the user asks to ${words} or mentions it.`;
}

function skillMd(name: string, description: string): string {
  // Stryker disable next-line Regex: equivalent, a checked name starts with a letter or digit
  const title = name.replace(/-/g, " ").replace(/^\w/, (c) => c.toUpperCase());
  return `---
name: ${name}
description: ${JSON.stringify(description)}
---

# ${title}

## When to use
- The situations in which this skill applies, and the ones in which it does not.

## Workflow
1. The first step the agent takes.
2. The next step, with the commands or files it uses (scripts/ holds helpers, references/ holds long docs).
3. How the agent checks its own result before finishing.

## Output
- What the result looks like: files, their names and their format.
`;
}

// Refuses a name that breaks the spec, naming the rule, before anything is written; a new skill also matches its folder.
function checkedName(dir: string, name: string): void {
  // Stryker disable next-line StringLiteral: equivalent, the refusal names the folder, not the finding's file or place
  const findings = checkName(join(dir, "SKILL.md"), basename(dir), name, "name");
  // Stryker disable next-line ConditionalExpression: equivalent, the name's one warning is the mismatch
  const first = findings.find((f) => f.severity === "error" || f.code === "name-mismatch");
  if (first) {
    throw new SkillgymError("BAD_INPUT", `cannot scaffold "${name}": ${first.message}`, {
      ...(first.hint ? { hint: first.hint } : {}),
      file: dir,
    });
  }
}

function checkedDescription(description: string): void {
  if (description.trim() === "" || description.length > MAX_DESCRIPTION_LENGTH) {
    throw new SkillgymError(
      "BAD_INPUT",
      `the description must be 1–${MAX_DESCRIPTION_LENGTH} characters, not ${description.length}`,
    );
  }
}

/** Writes a spec-valid skill folder; throws before writing anything when one of its files already exists. */
export async function scaffoldSkill(options: ScaffoldOptions): Promise<Scaffolded> {
  const dir = resolve(options.dir);
  const name = options.name ?? basename(dir);
  checkedName(dir, name);
  const base = options.description ?? defaultDescription(name);
  checkedDescription(base);
  const description =
    saysWhenToUse(base) || base.length > MAX_DESCRIPTION_LENGTH - 60
      ? base
      : `${base.replace(/[.!?]?\s*$/, ".")} Use when the user asks for it.`;
  const files: [string, string][] = [
    ["SKILL.md", skillMd(name, description)],
    ["scripts/.gitkeep", ""],
    ["references/README.md", "Long reference documents the skill loads only when needed.\n"],
    ["evals/evals.json", `${JSON.stringify(exampleEvals(name), null, 2)}\n`],
    ["evals/triggers.json", `${JSON.stringify(exampleTriggers(name), null, 2)}\n`],
    ["evals/sim-script.json", `${JSON.stringify(exampleSimScript(name), null, 2)}\n`],
  ];
  for (const [file] of files) {
    if (await exists(join(dir, file))) {
      throw new SkillgymError("BAD_INPUT", `${join(dir, file)} already exists; init never overwrites`, {
        hint: "choose an empty folder, or remove the file",
        file: join(dir, file),
      });
    }
  }
  for (const [file, text] of files) {
    const path = join(dir, file);
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, text, { encoding: "utf8", flag: "wx" });
  }
  return { dir, name, files: files.map(([file]) => file) };
}
