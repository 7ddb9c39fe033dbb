import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

const SandboxField = z.looseObject({ sandbox: z.boolean().optional() });

/**
 * Whether the suite's evals.json says `"sandbox": true`: a folder (its evals.json) or an evals file. A missing or
 * unreadable file asks for nothing; loading the suite reports what is wrong with it.
 */
export async function sandboxAskedBy(suite: string): Promise<boolean> {
  const file = suite.endsWith(".json") ? suite : join(suite, "evals.json");
  try {
    const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
    const read = SandboxField.safeParse(JSON.parse(text));
    return read.success && read.data.sandbox === true;
  } catch {
    return false;
  }
}
