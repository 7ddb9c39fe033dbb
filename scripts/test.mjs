#!/usr/bin/env node
// `npm test`: build, then the tests, with the type check and lint beside them from the start: neither needs the build,
// and tsc and biome keep a core busy for seconds the build and vitest's start would otherwise wait out. Any step that
// fails fails the whole; each step's time is printed.
import { spawn } from "node:child_process";

function step(name, script, args = []) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])], {
      stdio: "inherit",
    });
    child.on("exit", (code, signal) => {
      const ok = code === 0;
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      console.error(
        `npm test: ${name} ${ok ? "passed" : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds} s`,
      );
      resolve(ok);
    });
  });
}

const typecheck = step("typecheck", "typecheck");
const lint = step("lint", "lint");
const rest = (async () =>
  (await step("build", "build")) && (await step("vitest", "test:vitest", process.argv.slice(2))))();
const results = await Promise.all([typecheck, lint, rest]);
process.exitCode = results.every(Boolean) ? 0 : 1;
