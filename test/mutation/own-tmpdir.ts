import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Under StrykerJS (vitest.stryker.config.ts), the tests make their temporary folders in a folder of their own inside
// the runner's: a mutant that removes the temporary root itself (a path emptied to it) then removes the tests'
// folder, made again before the next test file, and not the folder where the runner keeps its own files.
process.env.SKILLGYM_RUNNER_TMPDIR ??= tmpdir();
const own = join(process.env.SKILLGYM_RUNNER_TMPDIR, `tests-${process.pid}`);
mkdirSync(own, { recursive: true });
process.env.TMPDIR = own;
