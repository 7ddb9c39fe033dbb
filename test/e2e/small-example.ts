import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { root } from "../cli/cli-process.js";

/**
 * A copy of `examples/<name>` in `dir` keeping only the trigger queries at the given positions of its triggers.json:
 * the same skill, evals and simulator script, fewer runs. The copy's folder is named like the example.
 */
export async function smallExample(dir: string, name: string, queries: readonly number[]): Promise<string> {
  const skill = join(dir, name);
  await cp(join(root, "examples", name), skill, { recursive: true });
  const file = join(skill, "evals", "triggers.json");
  const all = JSON.parse(await readFile(file, "utf8")) as unknown[];
  const kept = queries.map((i) => {
    if (all[i] === undefined) throw new Error(`examples/${name} has no trigger query ${i}`);
    return all[i];
  });
  await writeFile(file, `${JSON.stringify(kept, null, 2)}\n`);
  return skill;
}
