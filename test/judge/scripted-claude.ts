import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** What a {@link scriptedClaude} does when started. */
export interface ClaudeScript {
  /** The stream-json lines it prints, in order. */
  lines?: object[];
  exitCode?: number;
  /** Removes its own home (`$HOME`) before it exits. */
  removeHome?: boolean;
  /** Never ends by itself. */
  hang?: boolean;
}

/** One start of a {@link scriptedClaude}: its arguments, working folder and environment. */
export interface ClaudeCall {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

const program = `
const fs = require("node:fs");
const path = require("node:path");
const script = JSON.parse(fs.readFileSync(path.join(__dirname, "script.json"), "utf8"));
const call = { argv: process.argv.slice(2), cwd: process.cwd(), env: process.env };
fs.appendFileSync(path.join(__dirname, "calls.jsonl"), JSON.stringify(call) + "\\n");
if (script.hang) setInterval(() => {}, 60_000);
else {
  for (const line of script.lines ?? []) process.stdout.write(JSON.stringify(line) + "\\n");
  if (script.removeHome) fs.rmSync(process.env.HOME, { recursive: true, force: true });
  process.exitCode = script.exitCode ?? 0;
}
`;

/**
 * A stand-in for the `claude` binary in `dir`, started as Claude Code is (by path, with its command line): it prints
 * the script's stream-json lines and keeps each start's arguments, folder and environment for the test to read.
 */
export async function scriptedClaude(
  dir: string,
  script: ClaudeScript,
): Promise<{ binary: string; calls(): Promise<ClaudeCall[]> }> {
  const binary = join(dir, "claude");
  await writeFile(binary, `#!${process.execPath}\n${program}`);
  await chmod(binary, 0o755);
  await writeFile(join(dir, "script.json"), JSON.stringify(script));
  return {
    binary,
    calls: async () =>
      (await readFile(join(dir, "calls.jsonl"), "utf8").catch(() => ""))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ClaudeCall),
  };
}

/** Claude Code's first line: the run's model. */
export function initLine(model: string): object {
  return { type: "system", subtype: "init", model, tools: ["Read"], session_id: "session-1" };
}

/** Claude Code's last line: its answer, usage and (unless `costUsd` is undefined) its cost. */
export function resultLine(
  text: string,
  options: { costUsd?: number; usage?: object; isError?: boolean; apiErrorStatus?: number } = {},
): object {
  return {
    type: "result",
    subtype: options.isError ? "error_during_execution" : "success",
    is_error: options.isError ?? false,
    result: text,
    duration_ms: 5,
    num_turns: 1,
    ...(options.apiErrorStatus !== undefined ? { api_error_status: options.apiErrorStatus } : {}),
    ...(options.costUsd !== undefined ? { total_cost_usd: options.costUsd } : {}),
    usage: options.usage ?? { input_tokens: 10, output_tokens: 2 },
  };
}
