import { access } from "node:fs/promises";
import { join } from "node:path";
import { createClaudeCodeAgent } from "../../src/agents/index.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import type { EvalOptions } from "../../src/run/index.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { executableDouble } from "../agent-double/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

/**
 * The greeter skill's evals, each answered by a rule of {@link evalScript}: "card" writes card.txt after loading the
 * skill (and answers in words without it); "busy" is overloaded for its first session; "storm" is always overloaded;
 * "hang" never answers; "quiet" writes nothing.
 */
export const GREETER_EVALS = {
  evals: [
    { id: 1, prompt: "card: a greeting card for Ada", expectations: ["card.txt greets Ada"] },
    { id: "farewell note", prompt: "quiet: a farewell note", expectations: ["says goodbye"] },
  ],
};

export const evalScript = SimScript.parse({
  rules: [
    {
      match: "^card:",
      steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }],
      without_skill: [{ text: "Hello Ada." }],
    },
    {
      match: "^busy:",
      skill: "none",
      fault: { status: 529, sessions: 1 },
      without_skill: [{ write: { path: "card.txt", content: "hi" } }],
    },
    { match: "^storm:", fault: { status: 529 } },
    { match: "^hang:", fault: { hang: true } },
    {
      match: "^big:",
      skill: "none",
      without_skill: [{ write: { path: "big.txt", content: "x".repeat(2000) } }],
    },
    { skill: "none", without_skill: [{ text: "Done." }] },
  ],
});

/** One sim and one copy of the agent double for a test file, and a folder of skills to run. */
export interface EvalBench {
  dir: string;
  sim: SimServer;
  binary: string;
  close: () => Promise<void>;
}

export async function startBench(tree: Record<string, string> = {}): Promise<EvalBench> {
  const { dir, cleanup } = await tempDir();
  const binary = await executableDouble(dir);
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd(
      "greeter",
      "Writes a greeting card file. Use when the user asks for a greeting card.",
      "Write card.txt with a warm greeting.",
    ),
    "greeter/evals/evals.json": JSON.stringify(GREETER_EVALS),
    ...tree,
  });
  const sim = await startSim({ script: evalScript });
  return {
    dir,
    sim,
    binary,
    close: async () => {
      await sim.close();
      await cleanup();
    },
  };
}

/** runEvals' options for the greeter skill on the bench's double, into `<dir>/<workspace>`. */
export function evalOptions(
  bench: EvalBench,
  workspace: string,
  overrides: Partial<EvalOptions> = {},
): EvalOptions {
  return {
    skillPath: join(bench.dir, "greeter"),
    workspace: join(bench.dir, workspace),
    baseline: "without_skill",
    runs: 1,
    concurrency: 2,
    timeoutSeconds: 60,
    retry: { ...fastRetry, attempts: 2 },
    createAgent: () => createClaudeCodeAgent({ binary: bench.binary, simulatorUrl: bench.sim.url }),
    ...overrides,
  };
}

/** Whether a file or folder is there. */
export const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );
