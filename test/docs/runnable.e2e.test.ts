import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onDouble } from "../agent-double/index.js";
import { skillgymHere } from "../cli/cli-in-process.js";
import { docPages, root } from "./pages.js";
import { type DocCommand, outputPattern, type RunnableBlock, runnableBlocks } from "./runnable.js";

// What a session folder holds, at the same paths as in the repository, so documented paths work as written.
const copied = ["examples", "test/catalog/fixtures/library"];

// CI variables would make the commands write a GitHub step summary or annotations of their own.
const ciVariables = ["GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "CI"];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The built CLI in this process (test/cli/cli-in-process.ts), run from the session folder as a reader runs the
// block: the working directory and the environment are the process's, so both are set for the command and put back
// after it. Files of one worker run one at a time, so nothing else sees them meanwhile.
async function run(command: DocCommand, cwd: string): Promise<Result> {
  const before = process.cwd();
  const saved = ciVariables.map((name) => [name, process.env[name]] as const);
  for (const name of ciVariables) delete process.env[name];
  process.chdir(cwd);
  try {
    return await skillgymHere(onDouble(command.args));
  } finally {
    process.chdir(before);
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}

const tail = (text: string) => text.split("\n").slice(-15).join("\n");

const pages = docPages()
  .map((page) => ({ page: page.path, blocks: runnableBlocks(page.path, page.text) }))
  .filter((p) => p.blocks.length > 0);

it("finds the runnable blocks of the README and docs/", () => {
  expect(pages.map((p) => p.page)).toContain("README.md");
  expect(pages.flatMap((p) => p.blocks).length).toBeGreaterThan(10);
});

// One session per page: its blocks run in order in one folder, so a later block may read what an earlier one wrote.
describe.each(pages)("$page", ({ blocks }) => {
  let session: string;
  beforeAll(async () => {
    session = await mkdtemp(join(tmpdir(), "skillgym-docs-"));
    for (const path of copied) await cp(join(root, path), join(session, path), { recursive: true });
  });
  afterAll(async () => {
    await rm(session, { recursive: true, force: true });
  });

  it.each(blocks.map((b) => [b.line, b] as [number, RunnableBlock]))(
    "the block at line %i exits as documented",
    async (_, block) => {
      expect(block.problems).toEqual([]);
      let last: Result | undefined;
      for (const command of block.commands) {
        last = await run(command, session);
        const shown = `${block.page}:${command.line}: skillgym ${command.args.join(" ")}`;
        expect(last.code, `${shown}\nstdout:\n${tail(last.stdout)}\nstderr:\n${tail(last.stderr)}`).toBe(
          block.exit,
        );
      }
      const lines = last?.stdout.split("\n") ?? [];
      for (const expected of block.output ?? []) {
        const pattern = outputPattern(expected);
        expect(
          lines.some((line) => pattern.test(line)),
          `${block.page}:${block.line}: no line of stdout matches "${expected}"\nstdout:\n${last?.stdout}`,
        ).toBe(true);
      }
    },
    600_000,
  );
});
