#!/usr/bin/env node
// `npm test`: lint, build, then the tests, with the type check beside them from the start: tsc keeps one core busy
// for a quarter of a minute that would otherwise wait. Any step that fails fails the whole; each step's time is printed.
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
const rest = (async () =>
  (await step("lint", "lint")) &&
  (await step("build", "build")) &&
  (await step("vitest", "test:vitest", process.argv.slice(2))))();
const results = await Promise.all([typecheck, rest]);
process.exitCode = results.every(Boolean) ? 0 : 1;
