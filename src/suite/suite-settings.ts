import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { EnvName } from "../contracts/evals.js";

// The suite-wide settings of evals.json, read apart from its evals where agents are made. Each is read on its own,
// so a wrong one leaves the others as asked; loading the suite reports what is wrong.
const SandboxField = z.looseObject({ sandbox: z.boolean().optional() });
const EnvField = z.looseObject({ env: z.array(EnvName).optional() });

/** evals.json's top level: a folder (its evals.json) or an evals file; missing or unreadable, nothing. */
async function topLevelOf(suite: string): Promise<unknown> {
  const file = suite.endsWith(".json") ? suite : join(suite, "evals.json");
  try {
    return JSON.parse((await readFile(file, "utf8")).replace(/^\uFEFF/, ""));
  } catch {}
  return undefined;
}

/** Whether the suite's evals.json says `"sandbox": true`. */
export async function sandboxAskedBy(suite: string): Promise<boolean> {
  const read = SandboxField.safeParse(await topLevelOf(suite));
  return read.success && read.data.sandbox === true;
}

/** The names of skillgym's variables the suite's evals.json passes on (`"env": [...]`); none when it lists none. */
export async function envPassedBy(suite: string): Promise<string[]> {
  const read = EnvField.safeParse(await topLevelOf(suite));
  return read.success ? (read.data.env ?? []) : [];
}
