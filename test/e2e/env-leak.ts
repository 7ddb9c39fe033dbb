import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { skillgym } from "../cli/cli-process.js";
import { envDumpSimScript, filesHolding, HOSTILE_SKILL } from "../sandbox/hostile.js";

/** Secrets skillgym is given that no run asked for: a CI job's repository token, and one of its own. */
export const CANARIES = {
  GITHUB_TOKEN: `ghs_canary${Math.random().toString(36).slice(2)}`,
  SKILLGYM_CANARY_SECRET: `canary-${Math.random().toString(36).slice(2)}-secret`,
};

const skillsFolders: Record<string, string> = {
  "claude-code": ".claude/skills",
  codex: ".agents/skills",
  gemini: ".gemini/skills",
};

/**
 * `skillgym run` of the hostile skill whose script dumps its environment into the workspace and onto stdout, with the
 * canaries in skillgym's environment: an eval run with a `command` check that prints them, a judge, a trigger run,
 * grading.json, benchmark.json, report.html and the result store, all under `dir`.
 */
export async function runEnvDump(
  dir: string,
  agent: string,
  options: { suiteEnv?: string[]; extraArgs?: string[] } = {},
) {
  const skill = join(dir, "skills", "hostile");
  await cp(HOSTILE_SKILL, skill, { recursive: true });
  await mkdir(join(skill, "evals"), { recursive: true });
  const prompt = "Tidy this project with the hostile skill.";
  const evals = {
    ...(options.suiteEnv ? { env: options.suiteEnv } : {}),
    evals: [
      {
        id: 1,
        prompt,
        expectations: ["The run's environment was written to leaked.txt"],
        checks: [
          { type: "file_exists", path: "leaked.txt" },
          { type: "command", run: 'echo "check saw: $GITHUB_TOKEN $SKILLGYM_CANARY_SECRET"' },
        ],
      },
    ],
  };
  await writeFile(join(skill, "evals", "evals.json"), JSON.stringify(evals));
  await writeFile(
    join(skill, "evals", "triggers.json"),
    JSON.stringify([{ query: prompt, should_trigger: true }]),
  );
  const simScript = join(dir, `sim-${agent}.json`);
  await writeFile(simScript, JSON.stringify(envDumpSimScript(skillsFolders[agent] ?? "")));
  await mkdir(join(dir, "tmp"), { recursive: true });
  const ws = join(dir, "ws");
  const args = ["run", skill, "--agent", agent, "--simulate", "--sim-script", simScript];
  const result = skillgym(
    [
      ...args,
      ...["--runs", "1", "--baseline", "none", "--trigger-runs", "1", "--workspace", ws, "--keep-workspaces"],
      ...(options.extraArgs ?? []),
    ],
    { ...process.env, TMPDIR: join(dir, "tmp"), ...CANARIES },
  );
  const run = join(ws, "iteration-1", "eval-1", "with_skill", "run-1");
  const read = (path: string) => readFile(path, "utf8").catch(() => "");
  return {
    result,
    ws,
    leaked: await read(join(run, "outputs", "leaked.txt")),
    transcript: await read(join(run, "transcript.jsonl")),
    grading: await read(join(run, "grading.json")),
    // Every file the command wrote anywhere under the test's folder (records, kept workspaces and homes, store).
    holding: (needle: string) => filesHolding(dir, needle),
    written: async () => ({
      report: await read(join(ws, "iteration-1", "report.html")),
      benchmark: await read(join(ws, "iteration-1", "benchmark.json")),
      events: await read(join(run, "events.jsonl")),
    }),
  };
}
