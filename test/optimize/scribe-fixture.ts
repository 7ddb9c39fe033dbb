import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { OptimizeOptions } from "../../src/optimize/index.js";
import { fastRetry, skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { scribeQueries } from "./scribe-queries.js";
import { scriptedImprover, wordAgent } from "./word-agent.js";

// runOptimize in this process, on the scribe skill: its original description shares no word with any query, the
// better one shares words with the queries that should trigger.
export const ORIGINAL = "Tidies the layout of documents.";
export const BETTER = "Writes release notes from the commits.";

/** A temporary folder for each test, holding `scribe/` (ORIGINAL, the scribe queries) and the `extra` files. */
export function useScribe(extra: Record<string, string> = {}): { dir: () => string; skillDir: () => string } {
  let dir = "";
  let cleanup = async () => {};
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    await writeTree(dir, {
      "scribe/SKILL.md": skillMd("scribe", ORIGINAL, "Write RELEASE_NOTES.md from the git log."),
      "scribe/evals/triggers.json": JSON.stringify(scribeQueries),
      ...extra,
    });
  });
  afterEach(async () => {
    await cleanup();
  });
  return { dir: () => dir, skillDir: () => join(dir, "scribe") };
}

/** Options for an optimization of `<dir>/scribe` into `<dir>/ws`: the word agent, an improver that answers BETTER. */
export function scribeOptions(dir: string, overrides: Partial<OptimizeOptions> = {}): OptimizeOptions {
  return {
    skillPath: join(dir, "scribe"),
    workspace: join(dir, "ws"),
    maxIterations: 3,
    holdout: 0.4,
    runs: 1,
    threshold: 0.5,
    seed: 42,
    concurrency: 4,
    timeoutSeconds: 60,
    retry: fastRetry,
    screen: { mode: "none" },
    createAgent: async () => wordAgent().agent,
    createImprover: async () => scriptedImprover([BETTER]).judge,
    ...overrides,
  };
}
