import { readFile } from "node:fs/promises";
import { environmentSecrets, type Secret } from "../redact.js";

function tokensIn(value: unknown, fields: Readonly<Record<string, string>>): Secret[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const name = fields[key];
    if (name && typeof inner === "string") return [{ name, value: inner }];
    return tokensIn(inner, fields);
  });
}

/**
 * The tokens of a login file copied into a run's home, wherever they sit in its JSON: `fields` maps a key of the
 * file to the name its value is masked under.
 */
async function loginFileSecrets(file: string, fields: Readonly<Record<string, string>>): Promise<Secret[]> {
  try {
    return tokensIn(JSON.parse(await readFile(file, "utf8")), fields);
  } catch {
    // A login file that cannot be read as JSON holds no token we could find; the agent will say so itself.
    return [];
  }
}

/** The secret values a child is given: credential variables of its environment and the tokens of its copied login file. */
export async function childSecrets(
  childEnv: NodeJS.ProcessEnv,
  loginFile: string | undefined,
  fields: Readonly<Record<string, string>>,
): Promise<Secret[]> {
  const secrets = environmentSecrets(childEnv);
  return loginFile === undefined ? secrets : [...secrets, ...(await loginFileSecrets(loginFile, fields))];
}
