import { access } from "node:fs/promises";
import { join } from "node:path";
import type { Agent } from "../agents/agent.js";
import { createClaudeCodeAgent } from "../agents/claude-code/agent.js";
import { loadSimScript, type SimServer, startSim } from "../sim/index.js";

export interface AgentFlags {
  agentBin?: string;
  simulate?: boolean;
  simScript?: string;
  simLatencyMs?: number;
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const p of paths) {
    try {
      await access(p);
      return p;
    } catch {}
  }
  return undefined;
}

/**
 * Creates the agent a command runs; with --simulate, first starts `skillgym sim` in-process with the script from
 * --sim-script or, when absent, `sim-script.json|yaml` in the suite folder.
 */
export async function setUpAgent(
  flags: AgentFlags,
  suiteDir: string | undefined,
  cleanups: (() => Promise<void>)[],
): Promise<Agent> {
  let sim: SimServer | undefined;
  if (flags.simulate) {
    const scriptFile =
      flags.simScript ??
      (suiteDir
        ? await firstExisting(
            ["sim-script.json", "sim-script.yaml", "sim-script.yml"].map((n) => join(suiteDir, n)),
          )
        : undefined);
    const script = scriptFile ? await loadSimScript(scriptFile) : undefined;
    sim = await startSim({
      ...(script ? { script } : {}),
      ...(flags.simLatencyMs !== undefined ? { latencyMs: flags.simLatencyMs } : {}),
    });
    const started = sim;
    cleanups.push(() => started.close());
  }
  return createClaudeCodeAgent({
    ...(flags.agentBin ? { binary: flags.agentBin } : {}),
    ...(sim ? { simulatorUrl: sim.url } : {}),
  });
}
