import { allowedEnvironment, suiteNames } from "../../agents/allowed-env.js";
import { type ProcessResult, runProcess } from "../../agents/process/run-process.js";
import type { Check } from "../../contracts/checks.js";
import { sandboxOfflineCommand } from "../../sandbox/index.js";
import type { CheckContext, CheckVerdict } from "./context.js";
import { tailOf } from "./evidence.js";

type CommandCheck = Extract<Check, { type: "command" }>;

const OUTPUT_TAIL_CHARS = 500;
const KEPT_STDOUT_CHARS = 4000;
const KILL_GRACE_MS = 1000;
const COMMAND_VARIABLE = "SKILLGYM_CHECK_COMMAND";
const UNSANDBOXED_NOTE = 'Ran outside the sandbox ("sandbox": false), as the user, with the network';

export function describeCommand(check: CommandCheck): string {
  return `\`${check.run}\` exits with ${check.expect_exit ?? 0}`;
}

export async function gradeCommand(check: CommandCheck, ctx: CheckContext): Promise<CheckVerdict> {
  const expected = check.expect_exit ?? 0;
  const timeoutMs = check.timeout !== undefined ? Math.round(check.timeout * 1000) : ctx.commandTimeoutMs;
  let stdout = "";
  const shell = shellInvocation(check.run);
  const plain = {
    ...shell,
    cwd: ctx.workspaceDir,
    env: { ...checkEnvironment(process.env, ctx.passEnv), ...shell.env },
  };
  const sandbox = check.sandbox === false ? undefined : ctx.sandbox;
  const started = sandbox ? await sandboxOfflineCommand(plain, sandbox.bwrap) : plain;
  const result = await runProcess({
    ...started,
    cwd: ctx.workspaceDir,
    timeoutMs,
    killGraceMs: KILL_GRACE_MS,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onLine: (line) => {
      stdout = tailOf(`${stdout}${line.replace(/\r$/, "")}\n`, KEPT_STDOUT_CHARS);
      return undefined;
    },
  });
  const passed = !result.timedOut && !result.cancelled && !result.spawnError && result.exitCode === expected;
  const outcome = describeOutcome(result, expected, timeoutMs);
  const outside = ctx.sandbox && !sandbox ? [UNSANDBOXED_NOTE] : [];
  return {
    passed,
    evidence: [...outside, outcome, ...outputTails(stdout, result.stderrTail)].join("\n"),
  };
}

/**
 * The allowed base of the parent's environment (PATH, locale, proxy, …) and the names the suite passes: no agent's
 * credentials or settings, nothing else skillgym was given. A check's output is quoted in grading.json.
 */
export function checkEnvironment(
  parent: NodeJS.ProcessEnv,
  // Stryker disable next-line ArrayDeclaration: equivalent, a made-up name is in no environment
  passEnv: readonly string[] = [],
): NodeJS.ProcessEnv {
  return allowedEnvironment(parent, suiteNames(passEnv));
}

/**
 * The platform shell, as `spawn(run, { shell: true })` would start it. runProcess quotes every argument and cmd.exe
 * does not understand that quoting, so on Windows the command reaches cmd.exe through a variable it expands itself.
 */
export function shellInvocation(
  run: string,
  platform: NodeJS.Platform = process.platform,
  comSpec: string | undefined = process.env.ComSpec,
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  if (platform === "win32") {
    return {
      command: comSpec ?? "cmd.exe",
      args: ["/d", "/s", "/c", `%${COMMAND_VARIABLE}%`],
      env: { [COMMAND_VARIABLE]: run },
    };
  }
  return { command: "/bin/sh", args: ["-c", run], env: {} };
}

function describeOutcome(result: ProcessResult, expected: number, timeoutMs: number): string {
  if (result.spawnError) return `The command could not be started: ${result.spawnError}`;
  if (result.timedOut) {
    return `Timed out after ${seconds(timeoutMs)} (expected exit code ${expected}); its process tree was killed`;
  }
  if (result.cancelled) return "Cancelled before the command finished";
  if (result.exitCode === null) {
    // Stryker disable next-line StringLiteral: equivalent, Node gives a signal whenever it gives no exit code
    return `Killed by signal ${result.signal ?? "unknown"} (expected exit code ${expected})`;
  }
  return result.exitCode === expected
    ? `Exit code ${result.exitCode}`
    : `Exit code ${result.exitCode} (expected ${expected})`;
}

// The budget is shared fairly: a short stderr leaves the rest of its share to stdout.
function outputTails(stdout: string, stderr: string): string[] {
  const streams = [
    { name: "stdout", text: stdout.trimEnd() },
    { name: "stderr", text: stderr.trimEnd() },
  ].filter(({ text }) => text !== "");
  const shares = new Map<string, number>();
  let budget = OUTPUT_TAIL_CHARS;
  const byLength = [...streams].sort((a, b) => a.text.length - b.text.length);
  byLength.forEach(({ name, text }, at) => {
    const share = Math.min(text.length, Math.floor(budget / (byLength.length - at)));
    shares.set(name, share);
    budget -= share;
  });
  return streams.map(({ name, text }) => `${name}:\n${tailOf(text, shares.get(name) ?? 0)}`);
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
