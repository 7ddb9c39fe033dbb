import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { SimScript } from "../../src/contracts/sim-script.js";
import { type EvalOptions, runEvals } from "../../src/run/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { createDoubleAgent } from "../agent-double/index.js";

export type Tree = Record<string, string>;

export async function writeTree(root: string, tree: Tree): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content, "utf8");
  }
}

export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "skillgym-test-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function skillMd(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

export async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}

/** Runs the library's eval runner with the claude-code adapter driving the test double against an in-process simulator. */
export async function runWithSim(
  script: SimScript,
  options: Omit<EvalOptions, "createAgent">,
  simOptions: { latencyMs?: number } = {},
): Promise<{ summary: Awaited<ReturnType<typeof runEvals>>; sim: SimServer }> {
  const sim = await startSim({ script, ...simOptions });
  try {
    const summary = await runEvals({
      ...options,
      createAgent: () => createDoubleAgent({ simulatorUrl: sim.url }),
    });
    return { summary, sim };
  } finally {
    await sim.close();
  }
}

export const fastRetry = { attempts: 3, baseDelayMs: 50, maxDelayMs: 200 };
