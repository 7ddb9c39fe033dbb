import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { RUN_MARKER } from "../../src/agents/process/marked-processes.js";

export interface AgentProcess {
  pid: number;
  commandLine: string;
}

// Reads what a process carries; undefined when it is gone or not ours to read.
function read(pid: string, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "latin1");
  } catch {
    return undefined;
  }
}

/**
 * Live (not zombie) processes of skillgym agent runs made under `tempParent` (the TMPDIR the run was given): they
 * carry the run marker skillgym puts in every agent's environment, and a HOME inside one of the run's temp roots.
 * Whatever an agent started in a session of its own carries both too. Linux only: /proc shows every environment.
 */
export function agentProcesses(tempParent: string): AgentProcess[] {
  const found: AgentProcess[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const stat = read(pid, "stat");
    if (!stat || stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
    const environment = (read(pid, "environ") ?? "").split("\0");
    const marked = environment.some((entry) => entry.startsWith(`${RUN_MARKER}=`));
    const home = environment.find((entry) => entry.startsWith("HOME="))?.slice("HOME=".length) ?? "";
    if (marked && home.startsWith(join(tempParent, sep)))
      found.push({
        pid: Number(pid),
        commandLine: (read(pid, "cmdline") ?? "").replaceAll("\0", " ").trim(),
      });
  }
  return found;
}

/** Waits up to `ms` for the agent processes under `tempParent` to end; throws naming each one still alive. */
export async function expectNoAgentProcesses(tempParent: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  let left = agentProcesses(tempParent);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = agentProcesses(tempParent);
  }
  if (left.length > 0)
    throw new Error(
      `agent processes left running under ${tempParent}:\n${left.map((p) => `  ${p.pid} ${p.commandLine}`).join("\n")}`,
    );
}
