import { join } from "node:path";
import { agentDouble } from "../agent-double/index.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { smallExample } from "../e2e/small-example.js";
import { tempDir } from "./workspace-fixture.js";

export const repoRoot = join(import.meta.dirname, "..", "..");

/** A `skillgym` command of a fixture, the built CLI in this process: an error with its stderr unless it exits 0. */
export async function skillgymFixture(args: string[]): Promise<void> {
  const result = await skillgymHere(args);
  if (result.code !== 0)
    throw new Error(`skillgym ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
}

/**
 * The real thing: `skillgym run` on the release-notes example, offline (the agent's test double), twice, so there
 * are two iterations. Its evals, and four of its 20 trigger queries (one of which the simulated agent gets wrong).
 */
export async function generateWorkspace(
  iterations = 2,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const ws = await tempDir("skillgym-view-");
  const skills = await tempDir("skillgym-view-skill-");
  const args = [
    "run",
    "--agent-bin",
    agentDouble,
    await smallExample(skills.dir, "release-notes", [0, 1, 10, 12]),
    "--simulate",
    "--runs",
    "2",
    "--trigger-runs",
    "1",
    "--workspace",
    ws.dir,
  ];
  for (let i = 0; i < iterations; i++) await skillgymFixture(args);
  await skills.cleanup();
  return ws;
}
