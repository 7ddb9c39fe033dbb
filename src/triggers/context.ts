import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { PriorConversation } from "../contracts/context.js";
import { SkillgymError } from "../errors.js";

/** `--context`: the prior conversation every trigger run continues, and its hash (the store key's `context`). */
export interface ContextCondition {
  file: string;
  turns: PriorConversation;
  hash: string;
}

const placeOf = (path: readonly PropertyKey[]) =>
  path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("") || "(top level)";

/** Reads and checks the file before any agent starts; a file that is missing or wrong is a usage error naming it. */
export async function loadContext(path: string, flag = "--context"): Promise<ContextCondition> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new SkillgymError("USAGE", `${flag}: ${file} cannot be read`, {
      hint: "give a JSON file: a list of {role: user|assistant, content} turns",
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new SkillgymError("USAGE", `${flag}: ${file} is not JSON (${(error as Error).message})`, {
      hint: "give a JSON file: a list of {role: user|assistant, content} turns",
    });
  }
  const read = PriorConversation.safeParse(data);
  if (!read.success) {
    const issue = read.error.issues[0]!;
    throw new SkillgymError("USAGE", `${flag}: ${file}${placeOf(issue.path)}: ${issue.message}`, {
      file,
      hint: 'a list of turns, e.g. [{"role": "user", "content": "…"}, {"role": "assistant", "content": "…"}] (skillgym schema context)',
    });
  }
  const hash = createHash("sha256").update(JSON.stringify(read.data)).digest("hex");
  return { file, turns: read.data, hash };
}
