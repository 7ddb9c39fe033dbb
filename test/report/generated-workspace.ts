import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { agentDouble } from "../agent-double/index.js";
import { tempDir } from "./workspace-fixture.js";

const run = promisify(execFile);
export const repoRoot = join(import.meta.dirname, "..", "..");

/** The real thing: `skillgym run` on the release-notes example, offline (the agent's test double), twice, so there are two iterations. */
export async function generateWorkspace(
  iterations = 2,
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const ws = await tempDir("skillgym-view-");
  const args = [
    join(repoRoot, "bin", "skillgym.js"),
    "run",
    "--agent-bin",
    agentDouble,
    join(repoRoot, "examples", "release-notes"),
    "--simulate",
    "--runs",
    "2",
    "--trigger-runs",
    "1",
    "--workspace",
    ws.dir,
  ];
  for (let i = 0; i < iterations; i++) await run(process.execPath, args, { cwd: repoRoot, timeout: 120_000 });
  return ws;
}
