import { pathToFileURL } from "node:url";
import type { Io } from "../../src/cli/io.js";
import { onDouble } from "../agent-double/index.js";
import { root } from "./cli-process.js";

type Main = (argv: string[], io: Io) => Promise<number>;

let loaded: Promise<Main> | undefined;

// The built CLI (the bundle `bin/skillgym.js` loads), imported once per test worker and kept: a command then costs its
// own work, not the ~0.4 CPU-s of a node process loading the bundle. Loaded natively, not through vitest's transform
// (vitest.config.ts externalises dist/). Under mutation testing (vitest.stryker.config.ts) the source instead, where
// Stryker's mutants are.
function builtMain(): Promise<Main> {
  loaded ??=
    process.env.SKILLGYM_CLI_FROM_SOURCE === "1"
      ? import("../../src/cli/main.js").then((source: { main: Main }) => source.main)
      : import(/* @vite-ignore */ pathToFileURL(`${root}/dist/cli-bundle/main.js`).href).then(
          (bundle: { main: Main }) => bundle.main,
        );
  return loaded;
}

/**
 * The built CLI's `main` in this process, stdout and stderr captured apart: what {@link skillgym} gives, for tests
 * of what a command does. Tests of the process itself (its environment, signals, a closed stdout, a terminal) spawn
 * it with {@link skillgym}.
 */
export async function skillgymHere(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  const io: Io = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    setExitCode: (code) => {
      exitCode = Math.max(exitCode, code);
    },
    exitCode: () => exitCode,
    isTTY: false,
    status: () => {},
    liveStatus: false,
  };
  const code = await (await builtMain())(args, io);
  return { code, stdout, stderr };
}

/** {@link skillgymHere} with the agent test double for Claude Code, as `skillgymOnDouble` spawns it. */
export function skillgymHereOnDouble(args: string[]) {
  return skillgymHere(onDouble(args));
}
